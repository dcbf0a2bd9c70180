"""A pointer network for the travelling salesman problem trained with REINFORCE and a critic
baseline, in the style of pemami4911/neural-combinatorial-rl-pytorch and Kool's attention model:
LSTM encoder, glimpse + pointer attention with tanh clipping, masking visited cities with
masked_fill(-inf), Categorical sampling and greedy decoding, tour lengths via gather and roll, and
a 2-opt improvement written with flip on index ranges."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
n_cities, batch, hidden = 8, 16, 32


class Attention(nn.Module):
    def __init__(self, dim, use_tanh=False, C=10):
        super(Attention, self).__init__()
        self.use_tanh = use_tanh
        self.project_query = nn.Linear(dim, dim)
        self.project_ref = nn.Conv1d(dim, dim, 1, 1)
        self.C = C
        self.v = nn.Parameter(torch.FloatTensor(dim))
        self.v.data.uniform_(-(1. / math.sqrt(dim)), 1. / math.sqrt(dim))

    def forward(self, query, ref):
        ref = ref.permute(1, 2, 0)  # [batch, dim, seq]
        q = self.project_query(query).unsqueeze(2)
        e = self.project_ref(ref)
        expanded_q = q.repeat(1, 1, e.size(2))
        v_view = self.v.unsqueeze(0).expand(expanded_q.size(0), len(self.v)).unsqueeze(1)
        u = torch.bmm(v_view, torch.tanh(expanded_q + e)).squeeze(1)
        logits = self.C * torch.tanh(u) if self.use_tanh else u
        return e, logits


class PointerNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Linear(2, hidden)
        self.encoder = nn.LSTM(hidden, hidden)
        self.decoder = nn.LSTMCell(hidden, hidden)
        self.glimpse = Attention(hidden)
        self.pointer = Attention(hidden, use_tanh=True)
        self.decoder_start = nn.Parameter(torch.empty(hidden).uniform_(-0.1, 0.1))

    def forward(self, coords, greedy=False):
        B, N, _ = coords.shape
        emb = self.embedding(coords).transpose(0, 1)  # [N, B, H]
        enc, (h, c) = self.encoder(emb)
        h, c = h[0], c[0]
        x = self.decoder_start.unsqueeze(0).expand(B, -1)
        mask = torch.zeros(B, N, dtype=torch.bool)
        tour, log_probs = [], []
        for _ in range(N):
            h, c = self.decoder(x, (h, c))
            ref, g_logits = self.glimpse(h, enc)
            g_logits = g_logits.masked_fill(mask, float("-inf"))
            query = torch.bmm(ref, F.softmax(g_logits, dim=1).unsqueeze(2)).squeeze(2)
            _, logits = self.pointer(query, enc)
            logits = logits.masked_fill(mask, float("-inf"))
            dist = Categorical(logits=logits)
            idx = logits.argmax(dim=1) if greedy else dist.sample()
            log_probs.append(dist.log_prob(idx))
            tour.append(idx)
            mask = mask.scatter(1, idx.unsqueeze(1), True)
            x = emb[idx, torch.arange(B)]
        return torch.stack(tour, 1), torch.stack(log_probs, 1).sum(1)


def tour_length(coords, tour):
    ordered = coords.gather(1, tour.unsqueeze(-1).expand(-1, -1, 2))
    return (ordered - ordered.roll(-1, dims=1)).norm(p=2, dim=2).sum(1)


model = PointerNet()
critic = nn.Sequential(nn.Flatten(), nn.Linear(2 * n_cities, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
for step in range(15):
    coords = torch.rand(batch, n_cities, 2)
    tour, log_p = model(coords)
    length = tour_length(coords, tour)
    baseline = critic(coords).squeeze(1)
    advantage = (length - baseline).detach()
    loss = (advantage * log_p).mean()
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 2.0, norm_type=2)
    opt.step()
    critic_loss = F.mse_loss(baseline, length.detach())
    critic_opt.zero_grad()
    critic_loss.backward()
    critic_opt.step()
    if step % 5 == 0:
        print(f"step {step}: length {length.mean().item():.4f} critic {critic_loss.item():.4f} logp {log_p.mean().item():.4f}")

test = torch.rand(4, n_cities, 2)
with torch.no_grad():
    tour, log_p = model(test, greedy=True)
print("greedy tours valid", bool((tour.sort(dim=1).values == torch.arange(n_cities)).all()))
lengths = tour_length(test, tour)
print("greedy lengths", lengths.round(decimals=4).tolist(), "logp", log_p.round(decimals=4).tolist())


def two_opt(coords, tour):
    best = tour.clone()
    best_len = tour_length(coords[None], best[None]).item()
    improved = True
    while improved:
        improved = False
        for i in range(1, n_cities - 1):
            for j in range(i + 1, n_cities):
                cand = best.clone()
                cand[i:j + 1] = best[i:j + 1].flip(0)
                cand_len = tour_length(coords[None], cand[None]).item()
                if cand_len < best_len - 1e-5:  # a reversed tour is no improvement
                    best, best_len, improved = cand, cand_len, True
    return best, best_len


for b in range(2):
    improved_tour, new_len = two_opt(test[b], tour[b])
    print(f"2-opt {lengths[b].item():.4f} -> {new_len:.4f}", improved_tour.tolist())

# the exact optimum of a 6-city instance by brute force over permutations
import itertools
small = torch.rand(6, 2)
perms = torch.tensor([(0,) + p for p in itertools.permutations(range(1, 6))])
all_lengths = tour_length(small.expand(len(perms), -1, -1), perms)
print("brute force", len(perms), round(all_lengths.min().item(), 4), perms[all_lengths.argmin()].tolist())
