"""Autoregressive decoding as written in text-generation code (HF-style logits processors by hand):
temperature, top-k and top-p (nucleus) filtering with sort / cumsum / scatter, repetition penalty with
gather / scatter_, min-length and no-repeat-ngram bans, torch.multinomial with a generator, greedy and beam
search with length penalty over a tiny GRU language model, and sequence scoring with log_softmax + gather."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(17)
vocab, eos = 12, 0


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(vocab, 16)
        self.gru = nn.GRU(16, 32, batch_first=True)
        self.out = nn.Linear(32, vocab)
        self.out.weight = self.emb.weight if False else self.out.weight

    def forward(self, ids, h=None):
        y, h = self.gru(self.emb(ids), h)
        return self.out(y), h


def top_k_top_p_filtering(logits, top_k=0, top_p=1.0, filter_value=-float("inf"), min_tokens_to_keep=1):
    if top_k > 0:
        top_k = min(max(top_k, min_tokens_to_keep), logits.size(-1))
        indices_to_remove = logits < torch.topk(logits, top_k)[0][..., -1, None]
        logits = logits.masked_fill(indices_to_remove, filter_value)
    if top_p < 1.0:
        sorted_logits, sorted_indices = torch.sort(logits, descending=True)
        cumulative_probs = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
        sorted_indices_to_remove = cumulative_probs > top_p
        if min_tokens_to_keep > 1:
            sorted_indices_to_remove[..., :min_tokens_to_keep] = 0
        sorted_indices_to_remove[..., 1:] = sorted_indices_to_remove[..., :-1].clone()
        sorted_indices_to_remove[..., 0] = 0
        indices_to_remove = sorted_indices_to_remove.scatter(1, sorted_indices, sorted_indices_to_remove)
        logits = logits.masked_fill(indices_to_remove, filter_value)
    return logits


def repetition_penalty(logits, input_ids, penalty):
    score = torch.gather(logits, 1, input_ids)
    score = torch.where(score < 0, score * penalty, score / penalty)
    return logits.scatter(1, input_ids, score)


def no_repeat_ngram_mask(input_ids, n, vocab_size):
    banned = torch.zeros(input_ids.size(0), vocab_size, dtype=torch.bool)
    for b, seq in enumerate(input_ids.tolist()):
        if len(seq) < n:
            continue
        prefix = tuple(seq[-(n - 1):])
        for i in range(len(seq) - n + 1):
            if tuple(seq[i:i + n - 1]) == prefix:
                banned[b, seq[i + n - 1]] = True
    return banned


@torch.no_grad()
def generate(model, prompt, steps, temperature=1.0, top_k=0, top_p=1.0, penalty=1.0, ngram=0, min_length=0, generator=None, greedy=False):
    ids = prompt.clone()
    logits, h = model(ids)
    for t in range(steps):
        next_logits = logits[:, -1, :] / temperature
        if penalty != 1.0:
            next_logits = repetition_penalty(next_logits, ids, penalty)
        if ngram:
            next_logits = next_logits.masked_fill(no_repeat_ngram_mask(ids, ngram, vocab), -float("inf"))
        if ids.size(1) < min_length:
            next_logits[:, eos] = -float("inf")
        next_logits = top_k_top_p_filtering(next_logits, top_k=top_k, top_p=top_p)
        if greedy:
            next_token = next_logits.argmax(-1, keepdim=True)
        else:
            next_token = torch.multinomial(F.softmax(next_logits, dim=-1), num_samples=1, generator=generator)
        ids = torch.cat([ids, next_token], dim=1)
        logits, h = model(next_token, h)
    return ids


@torch.no_grad()
def beam_search(model, prompt, beam_size=3, max_len=6, length_penalty=1.0):
    logits, h = model(prompt)
    log_probs = F.log_softmax(logits[:, -1], dim=-1)
    scores, tokens = log_probs.topk(beam_size, dim=-1)
    beams = [prompt[0].tolist() + [tok] for tok in tokens[0].tolist()]
    scores = scores[0]
    h = h.repeat(1, beam_size, 1)
    finished = []
    last = tokens.view(-1, 1)
    for step in range(max_len - 1):
        logits, h = model(last, h)
        cand = scores.unsqueeze(1) + F.log_softmax(logits[:, -1], dim=-1)
        flat_scores, flat_idx = cand.view(-1).topk(beam_size)
        beam_idx = torch.div(flat_idx, vocab, rounding_mode="floor")
        token_idx = flat_idx % vocab
        new_beams, keep = [], []
        for s, b, t in zip(flat_scores.tolist(), beam_idx.tolist(), token_idx.tolist()):
            seq = beams[b] + [t]
            if t == eos:
                finished.append((s / (len(seq) ** length_penalty), seq))
            new_beams.append(seq)
            keep.append(b)
        beams, scores = new_beams, flat_scores
        h = h[:, torch.tensor(keep)]
        last = token_idx.view(-1, 1)
    finished += [(s / (len(seq) ** length_penalty), seq) for s, seq in zip(scores.tolist(), beams)]
    return sorted(finished, key=lambda x: -x[0])[:3]


def sequence_log_prob(model, ids):
    logits, _ = model(ids[:, :-1])
    return F.log_softmax(logits, -1).gather(2, ids[:, 1:].unsqueeze(-1)).squeeze(-1).sum(-1)


model = TinyLM()
data = torch.tensor([[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0]] * 4)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for step in range(60):
    logits, _ = model(data[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, vocab), data[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
print("lm loss", round(loss.item(), 4))

logits = torch.tensor([[2.0, 1.0, 0.5, 0.1, -1.0, 3.0]])
print("top-k", top_k_top_p_filtering(logits, top_k=3))
print("top-p", top_k_top_p_filtering(logits, top_p=0.8), top_k_top_p_filtering(logits, top_p=0.5, min_tokens_to_keep=3))
print("penalty", repetition_penalty(logits, torch.tensor([[0, 4, 4]]), 1.5))
print("ngram ban", no_repeat_ngram_mask(torch.tensor([[1, 2, 3, 1, 2]]), 3, 6).int())
prompt = torch.tensor([[1, 2]])
print("greedy", generate(model, prompt, 8, greedy=True).tolist())
g = torch.Generator().manual_seed(0)
print("sampled", generate(model, prompt.repeat(3, 1), 6, temperature=1.5, top_k=4, generator=g).tolist())
print("nucleus", generate(model, prompt.repeat(2, 1), 6, top_p=0.9, penalty=1.3, ngram=2, min_length=5, generator=g).tolist())
print("beams", [(round(s, 4), seq) for s, seq in beam_search(model, prompt, beam_size=3, max_len=8, length_penalty=0.7)])
cands = torch.tensor([[1, 2, 3, 4, 5], [1, 2, 4, 3, 5], [1, 3, 2, 4, 5]])
print("scores", sequence_log_prob(model, cands))
probs = torch.tensor([[0.1, 0.0, 0.6, 0.3], [0.25, 0.25, 0.25, 0.25]])
print("multinomial", torch.multinomial(probs, 2, generator=torch.Generator().manual_seed(1)),
      torch.multinomial(probs, 5, replacement=True, generator=torch.Generator().manual_seed(1)))
