"""Position encodings as widely used model code writes them: T5's _relative_position_bucket (abs, log of
ratios, torch.min with full_like, torch.where between exact and log buckets) and its bias gathered from an
nn.Embedding and permuted, Swin's relative_position_index (meshgrid over coords, flatten, broadcast
difference, permute, += shifts, *= 2W-1, sum(-1)) registered as a buffer and indexed into a table,
MAE's 2-D sin-cos embedding (omega = 1 / 10000**(arange/D), torch.outer, cat of sin/cos per axis), timm's
resample_abs_pos_embed (reshape to a grid, permute, F.interpolate bicubic with antialias off, flatten back),
Transformer-XL's _rel_shift via F.pad and view tricks, and the learnable absolute embedding with
position_ids expanded over the batch."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def _relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    relative_position_if_large = max_exact + (
        torch.log(relative_position.float() / max_exact)
        / math.log(max_distance / max_exact)
        * (num_buckets - max_exact)
    ).to(torch.long)
    relative_position_if_large = torch.min(
        relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1)
    )
    relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
    return relative_buckets


q_len, k_len = 6, 6
context_position = torch.arange(q_len, dtype=torch.long)[:, None]
memory_position = torch.arange(k_len, dtype=torch.long)[None, :]
relative_position = memory_position - context_position
buckets = _relative_position_bucket(relative_position, num_buckets=8, max_distance=16)
print(buckets.tolist())
print(_relative_position_bucket(torch.tensor([-100, -20, -3, 0, 3, 20, 100]), bidirectional=False, num_buckets=8,
                                max_distance=16).tolist())
rel_emb = nn.Embedding(8, 4)
bias = rel_emb(buckets).permute([2, 0, 1]).unsqueeze(0)
print("t5 bias", bias.shape, bias.grad_fn.name())


class SwinRelPos(nn.Module):
    def __init__(self, window_size=(3, 3), num_heads=2):
        super().__init__()
        self.window_size = window_size
        self.relative_position_bias_table = nn.Parameter(
            torch.zeros((2 * window_size[0] - 1) * (2 * window_size[1] - 1), num_heads))
        coords_h = torch.arange(self.window_size[0])
        coords_w = torch.arange(self.window_size[1])
        coords = torch.stack(torch.meshgrid([coords_h, coords_w], indexing="ij"))
        coords_flatten = torch.flatten(coords, 1)
        relative_coords = coords_flatten[:, :, None] - coords_flatten[:, None, :]
        relative_coords = relative_coords.permute(1, 2, 0).contiguous()
        relative_coords[:, :, 0] += self.window_size[0] - 1
        relative_coords[:, :, 1] += self.window_size[1] - 1
        relative_coords[:, :, 0] *= 2 * self.window_size[1] - 1
        relative_position_index = relative_coords.sum(-1)
        self.register_buffer("relative_position_index", relative_position_index)
        nn.init.trunc_normal_(self.relative_position_bias_table, std=.02)

    def forward(self):
        n = self.window_size[0] * self.window_size[1]
        relative_position_bias = self.relative_position_bias_table[self.relative_position_index.view(-1)].view(n, n, -1)
        return relative_position_bias.permute(2, 0, 1).contiguous()


swin = SwinRelPos()
print("swin index", swin.relative_position_index.shape, swin.relative_position_index[0].tolist(),
      swin.relative_position_index.diagonal().unique().tolist())
print("swin bias", swin().shape, swin().grad_fn.name(), list(swin.state_dict().keys()))


def get_1d_sincos_pos_embed_from_grid(embed_dim, pos):
    omega = torch.arange(embed_dim // 2, dtype=torch.float64)
    omega /= embed_dim / 2.
    omega = 1. / 10000 ** omega
    pos = pos.reshape(-1)
    out = torch.outer(pos, omega)
    return torch.cat([torch.sin(out), torch.cos(out)], dim=1)


def get_2d_sincos_pos_embed(embed_dim, grid_size, cls_token=False):
    grid_h = torch.arange(grid_size, dtype=torch.float64)
    grid_w = torch.arange(grid_size, dtype=torch.float64)
    grid = torch.meshgrid(grid_w, grid_h, indexing="xy")
    grid = torch.stack(grid, dim=0).reshape([2, 1, grid_size, grid_size])
    emb_h = get_1d_sincos_pos_embed_from_grid(embed_dim // 2, grid[0])
    emb_w = get_1d_sincos_pos_embed_from_grid(embed_dim // 2, grid[1])
    pos_embed = torch.cat([emb_h, emb_w], dim=1)
    if cls_token:
        pos_embed = torch.cat([torch.zeros([1, embed_dim], dtype=pos_embed.dtype), pos_embed], dim=0)
    return pos_embed


pe = get_2d_sincos_pos_embed(8, 3, cls_token=True)
print("mae 2d", pe.shape, pe.dtype, [round(v, 4) for v in pe[5].tolist()])
pos_embed = nn.Parameter(torch.zeros(1, 1 + 9, 8), requires_grad=False)
pos_embed.data.copy_(pe.float().unsqueeze(0))
print("copied", pos_embed.dtype, pos_embed.requires_grad, torch.allclose(pos_embed[0, 1:], pe[1:].float()))


def resample_abs_pos_embed(posemb, new_size, old_size, num_prefix_tokens=1, interpolation="bicubic"):
    posemb_prefix, posemb = posemb[:, :num_prefix_tokens], posemb[:, num_prefix_tokens:]
    embed_dim = posemb.shape[-1]
    orig_dtype = posemb.dtype
    posemb = posemb.float()
    posemb = posemb.reshape(1, old_size[0], old_size[1], -1).permute(0, 3, 1, 2)
    posemb = F.interpolate(posemb, size=new_size, mode=interpolation, antialias=False, align_corners=False)
    posemb = posemb.permute(0, 2, 3, 1).reshape(1, -1, embed_dim)
    posemb = posemb.to(orig_dtype)
    return torch.cat([posemb_prefix, posemb], dim=1)


resized = resample_abs_pos_embed(pos_embed.data, (5, 5), (3, 3))
print("resampled", resized.shape, [round(v, 4) for v in resized[0, 7].tolist()])
bilinear = resample_abs_pos_embed(pos_embed.data, (2, 2), (3, 3), interpolation="bilinear")
print("bilinear down", [round(v, 4) for v in bilinear[0, 1].tolist()])


def _rel_shift(x, zero_triu=False):
    zero_pad_shape = (x.size(0), 1) + x.size()[2:]
    zero_pad = torch.zeros(zero_pad_shape, device=x.device, dtype=x.dtype)
    x_padded = torch.cat([zero_pad, x], dim=1)
    x_padded_shape = (x.size(1) + 1, x.size(0)) + x.size()[2:]
    x_padded = x_padded.view(*x_padded_shape)
    x = x_padded[1:].view_as(x)
    if zero_triu:
        ones = torch.ones((x.size(0), x.size(1)))
        x = x * torch.tril(ones, x.size(1) - x.size(0))[:, :, None, None]
    return x


scores = torch.arange(12.).view(3, 4, 1, 1)
print("rel_shift", _rel_shift(scores)[..., 0, 0].tolist())
print("rel_shift zero_triu", _rel_shift(scores, zero_triu=True)[..., 0, 0].tolist())


def rel_shift_pad(x):
    b, h, q, k = x.shape
    x = F.pad(x, (1, 0))
    x = x.view(b, h, k + 1, q)
    return x[:, :, 1:].view(b, h, q, k)


print("pad rel_shift", rel_shift_pad(torch.arange(9.).view(1, 1, 3, 3))[0, 0].tolist())


class LearnedPositions(nn.Module):
    def __init__(self, max_len=16, dim=4):
        super().__init__()
        self.position_embeddings = nn.Embedding(max_len, dim)
        self.register_buffer("position_ids", torch.arange(max_len).expand((1, -1)), persistent=False)

    def forward(self, x, past_key_values_length=0):
        seq_length = x.size(1)
        position_ids = self.position_ids[:, past_key_values_length: seq_length + past_key_values_length]
        return x + self.position_embeddings(position_ids)


lp = LearnedPositions()
out = lp(torch.zeros(2, 5, 4), past_key_values_length=3)
print("learned", out.shape, torch.equal(out[1], lp.position_embeddings.weight[3:8]), lp.position_ids.stride(),
      list(lp.state_dict().keys()))
