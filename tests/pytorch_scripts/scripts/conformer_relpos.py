"""A Conformer block and Transformer-XL relative attention as in the ESPnet / NeMo / kimiyoung code:
macaron half-step feed-forward modules, the convolution module (pointwise conv to 2C, F.glu over channels,
depthwise Conv1d with groups=C, BatchNorm1d, SiLU), relative sinusoidal positions with the _rel_shift
trick (zero pad, view to swap axes, slice, view_as), learned u/v biases, key padding masks with
masked_fill(finfo.min), SpecAugment-style time and frequency masks from arange comparisons, and a CTC
head trained a few steps."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(113)


def rel_shift(x):
    b, h, qlen, klen = x.size()
    zero_pad = torch.zeros((b, h, qlen, 1), device=x.device, dtype=x.dtype)
    x_padded = torch.cat([zero_pad, x], dim=-1)
    x_padded = x_padded.view(b, h, klen + 1, qlen)
    return x_padded[:, :, 1:].view_as(x)


def sinusoid_positions(length, d_model):
    pos_seq = torch.arange(length - 1, -1, -1.0)
    inv_freq = 1 / (10000 ** (torch.arange(0.0, d_model, 2.0) / d_model))
    sinusoid = torch.outer(pos_seq, inv_freq)
    return torch.cat([sinusoid.sin(), sinusoid.cos()], dim=-1)


class RelMultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_head):
        super().__init__()
        self.n_head, self.d_head = n_head, d_model // n_head
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.pos = nn.Linear(d_model, d_model, bias=False)
        self.out = nn.Linear(d_model, d_model)
        self.pos_bias_u = nn.Parameter(torch.zeros(n_head, self.d_head))
        self.pos_bias_v = nn.Parameter(torch.zeros(n_head, self.d_head))
        nn.init.xavier_uniform_(self.pos_bias_u)
        nn.init.xavier_uniform_(self.pos_bias_v)

    def forward(self, x, pos_emb, key_padding_mask=None):
        b, t, _ = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.n_head, self.d_head).unbind(2)
        p = self.pos(pos_emb).view(t, self.n_head, self.d_head)
        ac = torch.einsum("bihd,bjhd->bhij", q + self.pos_bias_u, k)
        bd = rel_shift(torch.einsum("bihd,jhd->bhij", q + self.pos_bias_v, p))
        scores = (ac + bd) / math.sqrt(self.d_head)
        if key_padding_mask is not None:
            scores = scores.masked_fill(key_padding_mask[:, None, None, :], torch.finfo(scores.dtype).min)
        attn = scores.softmax(-1)
        return self.out(torch.einsum("bhij,bjhd->bihd", attn, v).reshape(b, t, -1)), attn


class ConvModule(nn.Module):
    def __init__(self, channels, kernel_size=5):
        super().__init__()
        self.pointwise1 = nn.Conv1d(channels, 2 * channels, 1)
        self.depthwise = nn.Conv1d(channels, channels, kernel_size, padding=kernel_size // 2, groups=channels, bias=False)
        self.norm = nn.BatchNorm1d(channels)
        self.pointwise2 = nn.Conv1d(channels, channels, 1)

    def forward(self, x, pad_mask=None):
        x = x.transpose(1, 2)
        if pad_mask is not None:
            x = x.masked_fill(pad_mask[:, None, :], 0.0)
        x = F.glu(self.pointwise1(x), dim=1)
        x = F.silu(self.norm(self.depthwise(x)))
        return self.pointwise2(x).transpose(1, 2)


class FeedForward(nn.Module):
    def __init__(self, d, mult=4):
        super().__init__()
        self.net = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, d * mult), nn.SiLU(), nn.Dropout(0.0), nn.Linear(d * mult, d))

    def forward(self, x):
        return self.net(x)


class ConformerBlock(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.ff1, self.ff2 = FeedForward(d), FeedForward(d)
        self.attn_norm, self.conv_norm, self.final_norm = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = RelMultiHeadAttention(d, heads)
        self.conv = ConvModule(d)

    def forward(self, x, pos_emb, pad_mask):
        x = x + 0.5 * self.ff1(x)
        attn_out, attn = self.attn(self.attn_norm(x), pos_emb, pad_mask)
        x = x + attn_out
        x = x + self.conv(self.conv_norm(x), pad_mask)
        x = x + 0.5 * self.ff2(x)
        return self.final_norm(x), attn


def spec_augment(spec, freq_mask=3, time_mask=4, generator=None):
    b, f, t = spec.shape
    f0 = torch.randint(0, f - freq_mask, (b, 1), generator=generator)
    fw = torch.randint(1, freq_mask + 1, (b, 1), generator=generator)
    t0 = torch.randint(0, t - time_mask, (b, 1), generator=generator)
    tw = torch.randint(1, time_mask + 1, (b, 1), generator=generator)
    fr = torch.arange(f)[None, :]
    tr = torch.arange(t)[None, :]
    fmask = (fr >= f0) & (fr < f0 + fw)
    tmask = (tr >= t0) & (tr < t0 + tw)
    return spec.masked_fill(fmask[:, :, None] | tmask[:, None, :], 0.0), fmask.sum(1), tmask.sum(1)


x = torch.arange(2 * 1 * 3 * 3, dtype=torch.float32).view(2, 1, 3, 3)
print("rel_shift", rel_shift(x)[0, 0])
print("positions", sinusoid_positions(4, 6)[:, :3])

B, F_bins, T, d = 2, 10, 12, 16
spec = torch.randn(B, F_bins, T).abs()
aug, fw, tw = spec_augment(spec, generator=torch.Generator().manual_seed(3))
print("specaugment zeros", (aug == 0).sum(dim=(1, 2)), fw, tw)
lengths = torch.tensor([12, 9])
pad_mask = torch.arange(T)[None, :] >= lengths[:, None]
front = nn.Linear(F_bins, d)
block = ConformerBlock(d, heads=4)
pos = sinusoid_positions(T, d)
h, attn = block(front(aug.transpose(1, 2)), pos, pad_mask)
print("block", h.shape, attn.shape, attn[1, 0, 0, -4:], h[0, 0, :4])

vocab = 6
head = nn.Linear(d, vocab)
params = list(front.parameters()) + list(block.parameters()) + list(head.parameters())
opt = torch.optim.AdamW(params, lr=3e-3)
targets = torch.tensor([[1, 2, 3, 2], [4, 5, 1, 0]])
target_lengths = torch.tensor([4, 3])
for step in range(12):
    h, _ = block(front(aug.transpose(1, 2)), pos, pad_mask)
    log_probs = head(h).log_softmax(-1).transpose(0, 1)
    loss = F.ctc_loss(log_probs, targets, lengths, target_lengths, blank=0, zero_infinity=True)
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(params, 5.0)
    opt.step()
    if step % 4 == 3:
        print(f"step {step + 1} ctc {loss.item():.4f} bn mean {block.conv.norm.running_mean[:2]}")
block.eval()
with torch.no_grad():
    greedy = head(block(front(spec.transpose(1, 2)), pos, pad_mask)[0]).argmax(-1)
print("greedy", greedy, torch.unique_consecutive(greedy[0]))
