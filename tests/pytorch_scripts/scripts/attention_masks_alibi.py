"""Attention masks as written in transformer repos: causal masks from triu / tril, additive float masks
with masked_fill(-inf), key padding masks broadcast to (B, 1, 1, S), ALiBi slopes and biases,
sliding-window masks, prefix-LM masks, grouped-query attention with repeat_interleave, and the same
computations through F.scaled_dot_product_attention (bool mask, float mask, is_causal, scale=) and
nn.MultiheadAttention (key_padding_mask, attn_mask, average_attn_weights=False)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(2)


def get_alibi_slopes(n_heads):
    def slopes_power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start ** i for i in range(n)]
    if math.log2(n_heads).is_integer():
        return slopes_power_of_2(n_heads)
    closest = 2 ** math.floor(math.log2(n_heads))
    return slopes_power_of_2(closest) + get_alibi_slopes(2 * closest)[0::2][: n_heads - closest]


def alibi_bias(n_heads, seq_len):
    slopes = torch.tensor(get_alibi_slopes(n_heads))
    positions = torch.arange(seq_len)
    relative = positions[None, :] - positions[:, None]
    return slopes[:, None, None] * relative[None].float()


def manual_attention(q, k, v, mask=None, bias=None):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    if bias is not None:
        scores = scores + bias
    if mask is not None:
        scores = scores.masked_fill(mask == 0, float("-inf"))
    weights = F.softmax(scores, dim=-1)
    weights = torch.nan_to_num(weights)
    return weights @ v, weights


B, H, S, D = 2, 4, 5, 8
q, k, v = torch.randn(B, H, S, D), torch.randn(B, H, S, D), torch.randn(B, H, S, D)
causal = torch.tril(torch.ones(S, S)).view(1, 1, S, S)
out_manual, w = manual_attention(q, k, v, causal)
out_sdpa = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print("causal", (out_manual - out_sdpa).abs().max().item() < 1e-5, w[0, 0].round(decimals=3))
float_mask = torch.triu(torch.full((S, S), float("-inf")), diagonal=1)
print(float_mask)
print("float mask", (F.scaled_dot_product_attention(q, k, v, attn_mask=float_mask) - out_sdpa).abs().max().item() < 1e-5)

lengths = torch.tensor([5, 3])
key_padding = torch.arange(S)[None, :] < lengths[:, None]
pad_mask = key_padding[:, None, None, :]
out_pad, w_pad = manual_attention(q, k, v, pad_mask)
print("pad weights", w_pad[1, 0, 0].round(decimals=4))
print("sdpa bool", (F.scaled_dot_product_attention(q, k, v, attn_mask=pad_mask) - out_pad).abs().max().item() < 1e-5)

print("slopes", [round(s, 5) for s in get_alibi_slopes(6)])
bias = alibi_bias(H, S)
print("alibi", bias[1])
out_alibi, _ = manual_attention(q, k, v, causal, bias)
sdpa_alibi = F.scaled_dot_product_attention(q, k, v, attn_mask=bias + float_mask)
print("alibi sdpa", (out_alibi - sdpa_alibi).abs().max().item() < 1e-5, out_alibi[0, 1, -1].round(decimals=4))

window = 2
idx = torch.arange(S)
sliding = (idx[None, :] <= idx[:, None]) & (idx[:, None] - idx[None, :] < window)
print("sliding\n", sliding.int())
prefix = 2
prefix_lm = torch.tril(torch.ones(S, S, dtype=torch.bool))
prefix_lm[:, :prefix] = True
print("prefix lm\n", prefix_lm.int())
print("sdpa scale", F.scaled_dot_product_attention(q, k, v, attn_mask=sliding, scale=0.5)[0, 0, 2].round(decimals=4))

n_kv = 2
k_small, v_small = torch.randn(B, n_kv, S, D), torch.randn(B, n_kv, S, D)
k_rep = k_small.repeat_interleave(H // n_kv, dim=1)
v_rep = v_small[:, :, None].expand(B, n_kv, H // n_kv, S, D).reshape(B, H, S, D)
print("gqa", k_rep.shape, torch.equal(k_rep[:, 1], k_rep[:, 0]), torch.equal(v_rep[:, 3], v_small[:, 1]))
gqa = F.scaled_dot_product_attention(q, k_rep, v_rep, is_causal=True)
print(gqa[1, 2, 1].round(decimals=4))

mha = nn.MultiheadAttention(embed_dim=16, num_heads=4, batch_first=True, dropout=0.0)
x = torch.randn(B, S, 16)
kpm = ~key_padding
attn_out, attn_w = mha(x, x, x, key_padding_mask=kpm, need_weights=True)
print("mha", attn_out.shape, attn_w.shape, attn_w[1, 0].round(decimals=4))
attn_out2, attn_w2 = mha(x, x, x, attn_mask=torch.triu(torch.ones(S, S, dtype=torch.bool), 1),
                         average_attn_weights=False)
print("mha causal", attn_w2.shape, attn_w2[0, 3, 1].round(decimals=4), attn_out2[0, 0, :4].round(decimals=4))
mask_float = nn.Transformer.generate_square_subsequent_mask(S)
attn_out3, _ = mha(x, x, x, attn_mask=mask_float, need_weights=False)
print("generate_square_subsequent_mask", (attn_out3 - attn_out2).abs().max().item() < 1e-5, mask_float[1])
loss = attn_out3.pow(2).mean()
loss.backward()
print("grad", mha.in_proj_weight.grad.abs().sum().round(decimals=3).item(), mha.out_proj.bias.grad[:3])
