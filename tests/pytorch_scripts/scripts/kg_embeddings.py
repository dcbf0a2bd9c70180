"""Knowledge-graph embedding models as in the KnowledgeGraphEmbedding / PyKEEN-style code: TransE with
L1 / L2 distances and MarginRankingLoss, RotatE with relations as unit complex numbers (torch.polar,
complex multiplication, view_as_real norms), ComplEx scores from Re(<h, r, conj(t)>), DistMult, negative
sampling by corrupting heads or tails with randint, self-adversarial negative weights (softmax of detached
scores), logsigmoid losses, N3 regularisation, entity-norm constraints with renorm-style division under
no_grad, and filtered ranking metrics (MRR, Hits@k) with scatter to mask known triples."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(127)
n_ent, n_rel, dim = 20, 3, 8
heads = torch.randint(0, n_ent, (60,))
rels = torch.randint(0, n_rel, (60,))
tails = (heads * 3 + rels * 7 + 1) % n_ent
triples = torch.stack([heads, rels, tails], 1)
print("triples", triples[:4].tolist(), torch.unique(triples, dim=0).shape[0])


class TransE(nn.Module):
    def __init__(self, p=1):
        super().__init__()
        self.p = p
        self.ent = nn.Embedding(n_ent, dim)
        self.rel = nn.Embedding(n_rel, dim)
        bound = 6 / math.sqrt(dim)
        nn.init.uniform_(self.ent.weight, -bound, bound)
        nn.init.uniform_(self.rel.weight, -bound, bound)
        with torch.no_grad():
            self.rel.weight.div_(self.rel.weight.norm(p=2, dim=1, keepdim=True))

    def forward(self, h, r, t):
        return -torch.norm(self.ent(h) + self.rel(r) - self.ent(t), p=self.p, dim=-1)


class RotatE(nn.Module):
    def __init__(self, gamma=6.0):
        super().__init__()
        self.gamma = gamma
        self.ent = nn.Parameter(torch.empty(n_ent, dim, 2).uniform_(-0.5, 0.5))
        self.phase = nn.Parameter(torch.empty(n_rel, dim).uniform_(-math.pi, math.pi))

    def forward(self, h, r, t):
        head, tail = torch.view_as_complex(self.ent[h]), torch.view_as_complex(self.ent[t])
        rotation = torch.polar(torch.ones_like(self.phase[r]), self.phase[r])
        diff = head * rotation - tail
        return self.gamma - torch.view_as_real(diff).norm(dim=-1).sum(-1)


class ComplEx(nn.Module):
    def __init__(self):
        super().__init__()
        self.ent = nn.Embedding(n_ent, 2 * dim)
        self.rel = nn.Embedding(n_rel, 2 * dim)
        nn.init.normal_(self.ent.weight, std=0.1)
        nn.init.normal_(self.rel.weight, std=0.1)

    def embeddings(self, h, r, t):
        return [torch.complex(*x.chunk(2, -1)) for x in (self.ent(h), self.rel(r), self.ent(t))]

    def forward(self, h, r, t):
        eh, er, et = self.embeddings(h, r, t)
        return (eh * er * et.conj()).real.sum(-1)

    def n3(self, h, r, t):
        return sum(x.abs().pow(3).sum() for x in self.embeddings(h, r, t)) / len(h)


def distmult(model, h, r, t):
    return (model.ent(h) * model.rel(r)[..., :model.ent.embedding_dim] * model.ent(t)).sum(-1)


def corrupt(batch, k, generator):
    n = batch.shape[0]
    neg = batch.repeat_interleave(k, 0).clone()
    replace_head = torch.rand(n * k, generator=generator) < 0.5
    random_ent = torch.randint(0, n_ent, (n * k,), generator=generator)
    neg[:, 0] = torch.where(replace_head, random_ent, neg[:, 0])
    neg[:, 2] = torch.where(replace_head, neg[:, 2], random_ent)
    return neg


def train(model, loss_kind, steps=40, k=4):
    g = torch.Generator().manual_seed(1)
    opt = torch.optim.Adam(model.parameters(), lr=0.02)
    for step in range(steps):
        batch = triples[torch.randperm(60, generator=g)[:16]]
        neg = corrupt(batch, k, g)
        pos_score = model(*batch.T)
        neg_score = model(*neg.T).view(-1, k)
        if loss_kind == "margin":
            loss = nn.MarginRankingLoss(margin=1.0)(pos_score.repeat_interleave(k), neg_score.flatten(), torch.ones(16 * k))
        elif loss_kind == "adversarial":
            weights = F.softmax(neg_score * 1.0, dim=1).detach()
            loss = -(F.logsigmoid(pos_score).mean() + (weights * F.logsigmoid(-neg_score)).sum(1).mean()) / 2
        else:
            loss = F.binary_cross_entropy_with_logits(torch.cat([pos_score, neg_score.flatten()]),
                                                      torch.cat([torch.ones(16), torch.zeros(16 * k)])) + 1e-3 * model.n3(*batch.T)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if isinstance(model, TransE):
            with torch.no_grad():
                model.ent.weight.div_(model.ent.weight.norm(dim=1, keepdim=True).clamp(min=1.0))
    return loss.item()


@torch.no_grad()
def filtered_metrics(model, test):
    ranks = []
    for h, r, t in test.tolist():
        scores = model(torch.full((n_ent,), h), torch.full((n_ent,), r), torch.arange(n_ent))
        known = triples[(triples[:, 0] == h) & (triples[:, 1] == r), 2]
        mask = torch.zeros(n_ent, dtype=torch.bool).scatter_(0, known, True)
        mask[t] = False
        scores = scores.masked_fill(mask, -float("inf"))
        ranks.append(int((scores > scores[t]).sum()) + 1)
    ranks = torch.tensor(ranks, dtype=torch.float32)
    return (1.0 / ranks).mean().item(), (ranks <= 1).float().mean().item(), (ranks <= 3).float().mean().item()


test = triples[:10]
for name, model, kind in [("TransE-L1", TransE(1), "margin"), ("TransE-L2", TransE(2), "margin"),
                          ("RotatE", RotatE(), "adversarial"), ("ComplEx", ComplEx(), "bce")]:
    before = filtered_metrics(model, test)[0]
    loss = train(model, kind)
    mrr, h1, h3 = filtered_metrics(model, test)
    print(f"{name:10s} loss {loss:.4f} mrr {before:.4f} -> {mrr:.4f} hits@1 {h1:.2f} hits@3 {h3:.2f}")
cx = ComplEx()
print("distmult", distmult(cx, *triples[:3].T).detach(), "complex score", cx(*triples[:3].T).detach())
rot = RotatE()
h, r, t = triples[:2].T
print("rotation is unit", torch.polar(torch.ones(3), torch.tensor([0.5, 1.0, 2.0])).abs(), rot(h, r, t).detach())
