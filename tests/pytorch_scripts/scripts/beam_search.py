"""Beam search and sampling decoders as seq2seq repositories write them: a GRU decoder stepped token by
token, beams kept as (batch*beam) rows, log_softmax scores added to running scores, view(-1) + topk over
beam*vocab, // and % (and div rounding_mode='floor') to split beam and token ids, index_select to reorder
hidden states, gather of back-pointers, finished masks with masked_fill, length penalty, then top-p
(nucleus) filtering with sort/cumsum/scatter and repetition penalty with gather/scatter_."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
V, H, BOS, EOS = 12, 16, 1, 2


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.gru = nn.GRU(H, H, batch_first=True)
        self.out = nn.Linear(H, V)

    def forward(self, tok, h):
        o, h = self.gru(self.emb(tok).unsqueeze(1), h)
        return self.out(o.squeeze(1)), h


dec = Decoder()
with torch.no_grad():
    dec.out.bias[EOS] = -1.0


@torch.no_grad()
def beam_search(dec, h0, beam_size=3, max_len=6, length_penalty=0.7):
    B = h0.size(1)
    h = h0.repeat_interleave(beam_size, dim=1)
    tokens = torch.full((B * beam_size, 1), BOS, dtype=torch.long)
    scores = torch.zeros(B, beam_size)
    scores[:, 1:] = float("-inf")
    scores = scores.view(-1)
    finished = torch.zeros(B * beam_size, dtype=torch.bool)
    for step in range(max_len):
        logits, h = dec(tokens[:, -1], h)
        logp = F.log_softmax(logits, dim=-1)
        logp = logp.masked_fill(finished.unsqueeze(1), float("-inf"))
        logp[:, EOS] = torch.where(finished, torch.zeros_like(logp[:, EOS]), logp[:, EOS])
        cand = (scores.unsqueeze(1) + logp).view(B, -1)
        top_scores, top_idx = cand.topk(beam_size, dim=1)
        beam_idx = torch.div(top_idx, V, rounding_mode="floor")
        tok_idx = top_idx % V
        base = (torch.arange(B) * beam_size).unsqueeze(1)
        flat = (base + beam_idx).view(-1)
        tokens = torch.cat([tokens.index_select(0, flat), tok_idx.view(-1, 1)], dim=1)
        h = h.index_select(1, flat)
        finished = finished[flat] | (tok_idx.view(-1) == EOS)
        scores = top_scores.view(-1)
        if finished.all():
            break
    lengths = (tokens != EOS).sum(1).float()
    normed = scores / lengths.pow(length_penalty)
    best = normed.view(B, beam_size).argmax(1)
    return tokens.view(B, beam_size, -1)[torch.arange(B), best], normed.view(B, beam_size)


h0 = torch.randn(1, 2, H)
seqs, normed = beam_search(dec, h0)
print(seqs)
print(normed)


@torch.no_grad()
def greedy(dec, h, max_len=6):
    tok = torch.full((h.size(1),), BOS, dtype=torch.long)
    out = []
    for _ in range(max_len):
        logits, h = dec(tok, h)
        tok = logits.argmax(-1)
        out.append(tok)
    return torch.stack(out, 1)


print(greedy(dec, h0))


def top_k_top_p_filtering(logits, top_k=0, top_p=0.0, filter_value=-float("Inf")):
    top_k = min(top_k, logits.size(-1))
    if top_k > 0:
        indices_to_remove = logits < torch.topk(logits, top_k)[0][..., -1, None]
        logits[indices_to_remove] = filter_value
    if top_p > 0.0:
        sorted_logits, sorted_indices = torch.sort(logits, descending=True)
        cumulative_probs = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
        sorted_indices_to_remove = cumulative_probs > top_p
        sorted_indices_to_remove[..., 1:] = sorted_indices_to_remove[..., :-1].clone()
        sorted_indices_to_remove[..., 0] = 0
        indices_to_remove = sorted_indices_to_remove.scatter(1, sorted_indices, sorted_indices_to_remove)
        logits[indices_to_remove] = filter_value
    return logits


logits = torch.randn(2, V)
print(top_k_top_p_filtering(logits.clone(), top_k=4))
filtered = top_k_top_p_filtering(logits.clone(), top_p=0.8)
print(filtered, torch.isinf(filtered).sum(1))
probs = F.softmax(filtered, dim=-1)
print(torch.multinomial(probs, num_samples=3, replacement=True))


def apply_repetition_penalty(logits, input_ids, penalty=1.3):
    score = torch.gather(logits, 1, input_ids)
    score = torch.where(score < 0, score * penalty, score / penalty)
    return logits.scatter(1, input_ids, score)


ids = torch.tensor([[3, 5, 3], [0, 1, 2]])
print(apply_repetition_penalty(logits, ids)[:, :6])
temps = logits / torch.tensor([[0.7], [1.3]])
print(temps.softmax(-1).max(-1))
seq = torch.tensor([[5, 7, 2, 0, 0], [4, 2, 9, 9, 0]])
eos_pos = (seq == EOS).int().argmax(-1)
mask = torch.arange(seq.size(1)).unsqueeze(0) > eos_pos.unsqueeze(1)
print(eos_pos, seq.masked_fill(mask, 0), mask.long().cumsum(-1))
