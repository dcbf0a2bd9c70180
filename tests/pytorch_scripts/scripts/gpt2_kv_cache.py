"""Hugging Face GPT-2 modelling code written out without transformers: Conv1D (weight stored as
(nx, nf), torch.addmm over a flattened view), gelu_new with tanh, GPT2Attention splitting c_attn with
split(dim=2), _split_heads/_merge_heads through view/permute/contiguous, a causal mask buffer sliced by
key length and torch.where with finfo(dtype).min, layer_past concatenated along the sequence (the KV
cache), the generation loop with past_key_values checked against full recomputation, greedy decoding,
and the logits processors (temperature, top-k with torch.topk()[0][..., -1, None], top-p with
sort/softmax/cumsum/scatter, repetition penalty through gather/where/scatter_)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Conv1D(nn.Module):
    def __init__(self, nf, nx):
        super().__init__()
        self.nf, self.nx = nf, nx
        self.weight = nn.Parameter(torch.empty(nx, nf))
        self.bias = nn.Parameter(torch.zeros(nf))
        nn.init.normal_(self.weight, std=0.02)

    def __repr__(self) -> str:
        return "Conv1D(nf={nf}, nx={nx})".format(**self.__dict__)

    def forward(self, x):
        size_out = x.size()[:-1] + (self.nf,)
        x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        x = x.view(size_out)
        return x


def gelu_new(input):
    return 0.5 * input * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (input + 0.044715 * torch.pow(input, 3.0))))


class GPT2Attention(nn.Module):
    def __init__(self, embed_dim, num_heads, max_positions):
        super().__init__()
        self.register_buffer("bias", torch.tril(torch.ones((max_positions, max_positions), dtype=torch.bool)).view(
            1, 1, max_positions, max_positions), persistent=False)
        self.embed_dim, self.num_heads = embed_dim, num_heads
        self.head_dim = embed_dim // num_heads
        self.c_attn = Conv1D(3 * embed_dim, embed_dim)
        self.c_proj = Conv1D(embed_dim, embed_dim)

    def _split_heads(self, tensor, num_heads, attn_head_size):
        new_shape = tensor.size()[:-1] + (num_heads, attn_head_size)
        tensor = tensor.view(new_shape)
        return tensor.permute(0, 2, 1, 3)

    def _merge_heads(self, tensor, num_heads, attn_head_size):
        tensor = tensor.permute(0, 2, 1, 3).contiguous()
        new_shape = tensor.size()[:-2] + (num_heads * attn_head_size,)
        return tensor.view(new_shape)

    def _attn(self, query, key, value):
        attn_weights = torch.matmul(query, key.transpose(-1, -2))
        attn_weights = attn_weights / torch.full([], value.size(-1) ** 0.5, dtype=attn_weights.dtype,
                                                 device=attn_weights.device)
        query_length, key_length = query.size(-2), key.size(-2)
        causal_mask = self.bias[:, :, key_length - query_length: key_length, :key_length]
        mask_value = torch.finfo(attn_weights.dtype).min
        mask_value = torch.full([], mask_value, dtype=attn_weights.dtype, device=attn_weights.device)
        attn_weights = torch.where(causal_mask, attn_weights.to(attn_weights.dtype), mask_value)
        attn_weights = nn.functional.softmax(attn_weights, dim=-1)
        return torch.matmul(attn_weights, value), attn_weights

    def forward(self, hidden_states, layer_past=None, use_cache=False):
        query, key, value = self.c_attn(hidden_states).split(self.embed_dim, dim=2)
        query = self._split_heads(query, self.num_heads, self.head_dim)
        key = self._split_heads(key, self.num_heads, self.head_dim)
        value = self._split_heads(value, self.num_heads, self.head_dim)
        if layer_past is not None:
            past_key, past_value = layer_past
            key = torch.cat((past_key, key), dim=-2)
            value = torch.cat((past_value, value), dim=-2)
        present = (key, value) if use_cache else None
        attn_output, attn_weights = self._attn(query, key, value)
        attn_output = self._merge_heads(attn_output, self.num_heads, self.head_dim)
        return self.c_proj(attn_output), present


class GPT2Block(nn.Module):
    def __init__(self, d, h, n_pos):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d, eps=1e-5)
        self.attn = GPT2Attention(d, h, n_pos)
        self.ln_2 = nn.LayerNorm(d, eps=1e-5)
        self.c_fc, self.c_proj2 = Conv1D(4 * d, d), Conv1D(d, 4 * d)

    def forward(self, x, layer_past=None, use_cache=False):
        a, present = self.attn(self.ln_1(x), layer_past=layer_past, use_cache=use_cache)
        x = x + a
        x = x + self.c_proj2(gelu_new(self.c_fc(self.ln_2(x))))
        return x, present


class TinyGPT2(nn.Module):
    def __init__(self, vocab=11, d=16, h=4, n_layer=2, n_pos=32):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, d), nn.Embedding(n_pos, d)
        self.h = nn.ModuleList([GPT2Block(d, h, n_pos) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.lm_head.weight = self.wte.weight

    def forward(self, input_ids, past_key_values=None, use_cache=False):
        past_length = 0 if past_key_values is None else past_key_values[0][0].size(-2)
        position_ids = torch.arange(past_length, input_ids.size(-1) + past_length, dtype=torch.long).unsqueeze(0)
        x = self.wte(input_ids) + self.wpe(position_ids)
        presents = ()
        for i, block in enumerate(self.h):
            x, present = block(x, None if past_key_values is None else past_key_values[i], use_cache)
            presents = presents + (present,)
        return self.lm_head(self.ln_f(x)), presents if use_cache else None


model = TinyGPT2().eval()
print(model.h[0].attn.c_attn, model.h[0].attn.bias.shape, model.h[0].attn.bias.dtype)
print("buffers in state_dict:", [k for k in model.state_dict() if "bias" in k and "attn.bias" in k])
print("tied:", model.lm_head.weight is model.wte.weight, sum(p.numel() for p in model.parameters()))
x = torch.randn(3, 5)
print("gelu_new vs F.gelu tanh:", torch.allclose(gelu_new(x), F.gelu(x, approximate="tanh"), atol=1e-6))

ids = torch.tensor([[1, 4, 2, 7]])
with torch.no_grad():
    logits, past = model(ids, use_cache=True)
    print("logits", logits.shape, "past", len(past), past[0][0].shape)
    generated = ids
    next_logits = logits
    for _ in range(5):
        next_token = next_logits[:, -1, :].argmax(dim=-1, keepdim=True)
        generated = torch.cat([generated, next_token], dim=-1)
        next_logits, past = model(next_token, past_key_values=past, use_cache=True)
        full, _ = model(generated)
        print("cache matches full:", torch.allclose(full[:, -1], next_logits[:, -1], atol=1e-5), past[0][0].shape[-2])
    print("greedy", generated.tolist())

scores = torch.tensor([[1.0, 3.0, 2.0, 0.5, -1.0, 2.5]])


def top_k_filter(logits, top_k, filter_value=-float("Inf")):
    indices_to_remove = logits < torch.topk(logits, top_k)[0][..., -1, None]
    return logits.masked_fill(indices_to_remove, filter_value)


def top_p_filter(logits, top_p, filter_value=-float("Inf"), min_tokens_to_keep=1):
    sorted_logits, sorted_indices = torch.sort(logits, descending=False)
    cumulative_probs = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
    sorted_indices_to_remove = cumulative_probs <= (1 - top_p)
    sorted_indices_to_remove[..., -min_tokens_to_keep:] = 0
    indices_to_remove = sorted_indices_to_remove.scatter(1, sorted_indices, sorted_indices_to_remove)
    return logits.masked_fill(indices_to_remove, filter_value)


def repetition_penalty(input_ids, scores, penalty):
    score = torch.gather(scores, 1, input_ids)
    score = torch.where(score < 0, score * penalty, score / penalty)
    return scores.scatter_(1, input_ids, score)


print("temperature", (scores / 0.7).softmax(-1).round(decimals=4).tolist())
print("top_k", top_k_filter(scores, 3).tolist())
print("top_p", top_p_filter(scores, 0.8).tolist())
print("rep", repetition_penalty(torch.tensor([[1, 4]]), scores.clone(), 1.3).tolist())
probs = F.softmax(top_p_filter(scores, 0.8), dim=-1)
print("probs", probs.round(decimals=4).tolist(), "nonzero", probs.nonzero()[:, 1].tolist())
