"""LLaMA / Mistral modelling code in plain torch (as meta-llama/llama model.py and HF's modeling_llama
write it): RMSNorm with x.float() and rsqrt of pow(2).mean(-1, keepdim=True) then type_as, SwiGLU
FeedForward (silu(w1(x)) * w3(x)), precompute_freqs_cis with torch.polar and reshape_for_broadcast,
apply_rotary_emb through view_as_complex / view_as_real / flatten(3), repeat_kv by expand+reshape for
grouped-query attention, a pre-allocated KV cache written with slice assignment, the causal mask from
torch.full(-inf).triu(diagonal=1) hstacked with zeros for the cached positions, and a few AdamW steps
with bf16 casting of activations."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class RMSNorm(torch.nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def _norm(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)

    def forward(self, x):
        output = self._norm(x.float()).type_as(x)
        return output * self.weight


def precompute_freqs_cis(dim: int, end: int, theta: float = 10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device, dtype=torch.float32)
    freqs = torch.outer(t, freqs)
    return torch.polar(torch.ones_like(freqs), freqs)


def reshape_for_broadcast(freqs_cis, x):
    ndim = x.ndim
    assert 0 <= 1 < ndim
    assert freqs_cis.shape == (x.shape[1], x.shape[-1])
    shape = [d if i == 1 or i == ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.view(*shape)


def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = reshape_for_broadcast(freqs_cis, xq_)
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


def repeat_kv(x, n_rep: int):
    bs, slen, n_kv_heads, head_dim = x.shape
    if n_rep == 1:
        return x
    return (x[:, :, :, None, :].expand(bs, slen, n_kv_heads, n_rep, head_dim)
            .reshape(bs, slen, n_kv_heads * n_rep, head_dim))


class Attention(nn.Module):
    def __init__(self, dim, n_heads, n_kv_heads, max_batch_size, max_seq_len):
        super().__init__()
        self.n_heads, self.n_kv_heads = n_heads, n_kv_heads
        self.n_rep = n_heads // n_kv_heads
        self.head_dim = dim // n_heads
        self.wq = nn.Linear(dim, n_heads * self.head_dim, bias=False)
        self.wk = nn.Linear(dim, n_kv_heads * self.head_dim, bias=False)
        self.wv = nn.Linear(dim, n_kv_heads * self.head_dim, bias=False)
        self.wo = nn.Linear(n_heads * self.head_dim, dim, bias=False)
        self.cache_k = torch.zeros((max_batch_size, max_seq_len, n_kv_heads, self.head_dim))
        self.cache_v = torch.zeros((max_batch_size, max_seq_len, n_kv_heads, self.head_dim))

    def forward(self, x, start_pos, freqs_cis, mask, use_cache=True):
        bsz, seqlen, _ = x.shape
        xq, xk, xv = self.wq(x), self.wk(x), self.wv(x)
        xq = xq.view(bsz, seqlen, self.n_heads, self.head_dim)
        xk = xk.view(bsz, seqlen, self.n_kv_heads, self.head_dim)
        xv = xv.view(bsz, seqlen, self.n_kv_heads, self.head_dim)
        xq, xk = apply_rotary_emb(xq, xk, freqs_cis=freqs_cis)
        if use_cache:
            self.cache_k = self.cache_k.to(xq)
            self.cache_v = self.cache_v.to(xq)
            self.cache_k[:bsz, start_pos: start_pos + seqlen] = xk.detach()
            self.cache_v[:bsz, start_pos: start_pos + seqlen] = xv.detach()
            keys = self.cache_k[:bsz, : start_pos + seqlen]
            values = self.cache_v[:bsz, : start_pos + seqlen]
        else:
            keys, values = xk, xv
        keys, values = repeat_kv(keys, self.n_rep), repeat_kv(values, self.n_rep)
        xq, keys, values = xq.transpose(1, 2), keys.transpose(1, 2), values.transpose(1, 2)
        scores = torch.matmul(xq, keys.transpose(2, 3)) / math.sqrt(self.head_dim)
        if mask is not None:
            scores = scores + mask
        scores = F.softmax(scores.float(), dim=-1).type_as(xq)
        output = torch.matmul(scores, values)
        output = output.transpose(1, 2).contiguous().view(bsz, seqlen, -1)
        return self.wo(output)


class FeedForward(nn.Module):
    def __init__(self, dim, hidden_dim, multiple_of, ffn_dim_multiplier=None):
        super().__init__()
        hidden_dim = int(2 * hidden_dim / 3)
        if ffn_dim_multiplier is not None:
            hidden_dim = int(ffn_dim_multiplier * hidden_dim)
        hidden_dim = multiple_of * ((hidden_dim + multiple_of - 1) // multiple_of)
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class Block(nn.Module):
    def __init__(self, dim=16, n_heads=4, n_kv_heads=2):
        super().__init__()
        self.attention = Attention(dim, n_heads, n_kv_heads, 2, 12)
        self.feed_forward = FeedForward(dim, 4 * dim, multiple_of=8)
        self.attention_norm, self.ffn_norm = RMSNorm(dim), RMSNorm(dim)

    def forward(self, x, start_pos, freqs_cis, mask, use_cache=True):
        h = x + self.attention(self.attention_norm(x), start_pos, freqs_cis, mask, use_cache)
        return h + self.feed_forward(self.ffn_norm(h))


def causal_mask(seqlen, start_pos):
    mask = torch.full((seqlen, seqlen), float("-inf"))
    mask = torch.triu(mask, diagonal=1)
    return torch.hstack([torch.zeros((seqlen, start_pos)), mask])


block = Block()
print(block.feed_forward.w1, block.attention.cache_k.shape)
freqs_cis = precompute_freqs_cis(4, 24)
print("freqs_cis", freqs_cis.shape, freqs_cis.dtype, freqs_cis[3].angle().round(decimals=4).tolist())
print("mask", causal_mask(3, 2).tolist())
rms = RMSNorm(16)
xb = torch.randn(2, 3, 16).to(torch.bfloat16)
out = rms(xb)
print("rmsnorm bf16", out.dtype, out.float().pow(2).mean(-1).round(decimals=2).tolist())
print("rms vs F.rms_norm", torch.allclose(rms(xb.float()), F.rms_norm(xb.float(), (16,), rms.weight, 1e-6), atol=1e-5))
kv = torch.arange(12.).view(1, 2, 2, 3)
print("repeat_kv", repeat_kv(kv, 2).shape, repeat_kv(kv, 2)[0, 0, :, 0].tolist())

x = torch.randn(2, 6, 16)
with torch.no_grad():
    full = block(x, 0, freqs_cis[:6], causal_mask(6, 0), use_cache=False)
    first = block(x[:, :4], 0, freqs_cis[:4], causal_mask(4, 0))
    steps = [first]
    for pos in (4, 5):
        steps.append(block(x[:, pos:pos + 1], pos, freqs_cis[pos:pos + 1], None))
    cached = torch.cat(steps, dim=1)
print("kv cache == full:", torch.allclose(cached, full, atol=1e-5), cached.shape, (cached - full).abs().max().item() < 1e-5)

opt = torch.optim.AdamW(block.parameters(), lr=1e-2, betas=(0.9, 0.95), weight_decay=0.1)
target = torch.randn(2, 6, 16)
for step in range(3):
    out = block(x, 0, freqs_cis[:6], causal_mask(6, 0), use_cache=False)
    loss = F.mse_loss(out, target)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f} grad_fn {out.grad_fn.name()}")
print("wq grad", block.attention.wq.weight.grad.shape, block.attention.cache_k.requires_grad)
