"""Attention variants as LLaMA-, MPT- and BLOOM-style code writes them in plain torch:
F.scaled_dot_product_attention with a boolean mask, an additive float mask, is_causal, and scale=,
checked against the explicit softmax(QK^T / sqrt(d)) V; rotary position embeddings (precomputed
cos/sin caches from torch.outer, rotate_half with chunk and cat, and the complex form with
torch.polar / view_as_complex / view_as_real); ALiBi slopes and linear biases; grouped-query
attention with repeat_interleave; and a KV cache grown with torch.cat during decoding."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
B, H, T, D = 2, 4, 5, 8
q, k, v = torch.randn(B, H, T, D), torch.randn(B, H, T, D), torch.randn(B, H, T, D)


def naive_attention(q, k, v, mask=None, scale=None):
    scale = 1.0 / math.sqrt(q.size(-1)) if scale is None else scale
    att = (q @ k.transpose(-2, -1)) * scale
    if mask is not None:
        att = att.masked_fill(~mask, float("-inf")) if mask.dtype == torch.bool else att + mask
    return F.softmax(att, dim=-1) @ v


causal = torch.ones(T, T, dtype=torch.bool).tril()
out_flash = F.scaled_dot_product_attention(q, k, v, is_causal=True)
out_mask = F.scaled_dot_product_attention(q, k, v, attn_mask=causal)
print("is_causal == bool mask:", torch.allclose(out_flash, out_mask, atol=1e-6),
      torch.allclose(out_flash, naive_attention(q, k, v, causal), atol=1e-6))
pad = torch.tensor([[True] * 5, [True, True, True, False, False]])[:, None, None, :]
additive = torch.zeros(B, 1, 1, T).masked_fill(~pad, float("-inf"))
o1 = F.scaled_dot_product_attention(q, k, v, attn_mask=pad)
o2 = F.scaled_dot_product_attention(q, k, v, attn_mask=additive)
print("padding masks agree:", torch.allclose(o1, o2, atol=1e-6), round(o1[1, 0, 0].sum().item(), 4))
o3 = F.scaled_dot_product_attention(q, k, v, scale=0.5)
print("scale=", torch.allclose(o3, naive_attention(q, k, v, scale=0.5), atol=1e-6), o3.shape)
qg = q.clone().requires_grad_()
F.scaled_dot_product_attention(qg, k, v, is_causal=True).pow(2).sum().backward()
print("sdpa grad", round(qg.grad.abs().sum().item(), 4))
try:
    F.scaled_dot_product_attention(q, k, v, attn_mask=causal, is_causal=True)
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])


# ---- rotary embeddings, the GPT-NeoX / HF LLaMA way
class RotaryEmbedding(nn.Module):
    def __init__(self, dim, max_position_embeddings=16, base=10000):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        t = torch.arange(max_position_embeddings, dtype=self.inv_freq.dtype)
        freqs = torch.outer(t, self.inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos()[None, None, :, :], persistent=False)
        self.register_buffer("sin_cached", emb.sin()[None, None, :, :], persistent=False)

    def forward(self, x, seq_len):
        return self.cos_cached[:, :, :seq_len, ...].to(dtype=x.dtype), self.sin_cached[:, :, :seq_len, ...]


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(q, k, cos, sin, position_ids):
    cos = cos.squeeze(1).squeeze(0)[position_ids].unsqueeze(1)
    sin = sin.squeeze(1).squeeze(0)[position_ids].unsqueeze(1)
    return (q * cos) + (rotate_half(q) * sin), (k * cos) + (rotate_half(k) * sin)


rope = RotaryEmbedding(D)
print(list(rope.state_dict().keys()), rope.cos_cached.shape)
cos, sin = rope(v, seq_len=T)
position_ids = torch.arange(T).unsqueeze(0).expand(B, -1)
q_rot, k_rot = apply_rotary_pos_emb(q, k, cos, sin, position_ids)
print("norm kept:", torch.allclose(q_rot.norm(dim=-1), q.norm(dim=-1), atol=1e-5))
scores = q_rot @ k_rot.transpose(-1, -2)
print("rope scores", scores[0, 0, :2, :3].round(decimals=4).tolist())


# ---- the Meta LLaMA complex form
def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)


def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = freqs_cis.view(1, xq_.shape[1], 1, xq_.shape[-1])
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


freqs_cis = precompute_freqs_cis(D, T)
print(freqs_cis.dtype, freqs_cis.shape, freqs_cis[1, :2])
xq, xk = q.transpose(1, 2), k.transpose(1, 2)  # (B, T, H, D)
rq, rk = apply_rotary_emb(xq, xk, freqs_cis)
print("complex rope", rq.shape, round((rq @ rk.transpose(-1, -2)).sum().item(), 3))


# ---- ALiBi
def get_slopes(n_heads):
    def get_slopes_power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start ** i for i in range(n)]
    if math.log2(n_heads).is_integer():
        return get_slopes_power_of_2(n_heads)
    closest = 2 ** math.floor(math.log2(n_heads))
    return get_slopes_power_of_2(closest) + get_slopes(2 * closest)[0::2][: n_heads - closest]


slopes = torch.tensor(get_slopes(H))
print("slopes", slopes.tolist(), [round(s, 4) for s in get_slopes(6)])
context = torch.arange(T)[:, None]
memory = torch.arange(T)[None, :]
relative = (memory - context).abs().neg()
alibi = slopes[:, None, None] * relative[None]
alibi_mask = alibi.masked_fill(~causal, float("-inf"))
o_alibi = F.scaled_dot_product_attention(q, k, v, attn_mask=alibi_mask)
print("alibi", alibi[1, -1].tolist(), round(o_alibi.sum().item(), 4))

# ---- grouped-query attention and a KV cache
n_kv = 2
k_small, v_small = torch.randn(B, n_kv, T, D), torch.randn(B, n_kv, T, D)
k_rep = k_small.repeat_interleave(H // n_kv, dim=1)
v_rep = v_small[:, :, None].expand(B, n_kv, H // n_kv, T, D).reshape(B, H, T, D)
print("gqa", torch.equal(k_rep[:, 1], k_rep[:, 0]), torch.equal(k_rep[:, 2], k_small[:, 1]),
      F.scaled_dot_product_attention(q, k_rep, v_rep, is_causal=True).shape)

cache_k = cache_v = None
outs = []
for t in range(T):
    qt, kt, vt = q[:, :, t:t + 1], k[:, :, t:t + 1], v[:, :, t:t + 1]
    cache_k = kt if cache_k is None else torch.cat([cache_k, kt], dim=2)
    cache_v = vt if cache_v is None else torch.cat([cache_v, vt], dim=2)
    outs.append(F.scaled_dot_product_attention(qt, cache_k, cache_v))
stepwise = torch.cat(outs, dim=2)
print("kv cache == causal:", torch.allclose(stepwise, out_flash, atol=1e-6), cache_k.shape)
