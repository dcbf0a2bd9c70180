"""Recommender-system baselines in torch as written in tutorials: matrix factorisation with user/item
biases trained by SGD on observed entries (mask), alternating least squares with batched
torch.linalg.solve per user, non-negative matrix factorisation by multiplicative updates, BPR loss with
negative sampling via randint, implicit feedback with confidence weights, and ranking metrics
(recall@k, NDCG@k) with topk and masked_fill of seen items."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(41)
n_users, n_items, rank = 20, 15, 3
U_true, V_true = torch.randn(n_users, rank), torch.randn(n_items, rank)
ratings = U_true @ V_true.T + 0.1 * torch.randn(n_users, n_items)
mask = torch.rand(n_users, n_items) < 0.5
print("observed", int(mask.sum()))


class MF(nn.Module):
    def __init__(self, n_users, n_items, k):
        super().__init__()
        self.user = nn.Embedding(n_users, k)
        self.item = nn.Embedding(n_items, k)
        self.user_bias = nn.Embedding(n_users, 1)
        self.item_bias = nn.Embedding(n_items, 1)
        self.global_bias = nn.Parameter(torch.zeros(1))
        for e in (self.user, self.item):
            nn.init.normal_(e.weight, std=0.1)
        for e in (self.user_bias, self.item_bias):
            nn.init.zeros_(e.weight)

    def forward(self, u, i):
        dot = (self.user(u) * self.item(i)).sum(1)
        return dot + self.user_bias(u).squeeze(1) + self.item_bias(i).squeeze(1) + self.global_bias


users, items = mask.nonzero(as_tuple=True)
values = ratings[users, items]
mf = MF(n_users, n_items, rank)
opt = torch.optim.Adam(mf.parameters(), lr=0.05)
for epoch in range(100):
    pred = mf(users, items)
    loss = F.mse_loss(pred, values) + 1e-3 * (mf.user.weight.pow(2).sum() + mf.item.weight.pow(2).sum())
    opt.zero_grad()
    loss.backward()
    opt.step()
with torch.no_grad():
    all_pred = mf(torch.arange(n_users).repeat_interleave(n_items), torch.arange(n_items).repeat(n_users)).view(n_users, n_items)
    test_rmse = (all_pred - ratings)[~mask].pow(2).mean().sqrt()
print("sgd mf train", round(loss.item(), 4), "test rmse", round(test_rmse.item(), 4))

lam = 0.1
U, V = torch.randn(n_users, rank) * 0.1, torch.randn(n_items, rank) * 0.1
W = mask.float()
for it in range(10):
    A = torch.einsum("ui,ik,il->ukl", W, V, V) + lam * torch.eye(rank)
    b = torch.einsum("ui,ui,ik->uk", W, ratings, V)
    U = torch.linalg.solve(A, b.unsqueeze(-1)).squeeze(-1)
    A = torch.einsum("ui,uk,ul->ikl", W, U, U) + lam * torch.eye(rank)
    b = torch.einsum("ui,ui,uk->ik", W, ratings, U)
    V = torch.linalg.solve(A, b)
    err = ((U @ V.T - ratings) * W).pow(2).sum() / W.sum()
    if it % 3 == 0:
        print(f"als {it} train mse {err.item():.5f}")
print("als test rmse", round((U @ V.T - ratings)[~mask].pow(2).mean().sqrt().item(), 4))

X = ratings.abs()
Wn, Hn = torch.rand(n_users, rank), torch.rand(rank, n_items)
for it in range(100):
    Hn = Hn * (Wn.T @ X) / (Wn.T @ Wn @ Hn + 1e-9)
    Wn = Wn * (X @ Hn.T) / (Wn @ Hn @ Hn.T + 1e-9)
print("nmf", round(torch.linalg.matrix_norm(X - Wn @ Hn).item() / torch.linalg.matrix_norm(X).item(), 4), bool((Wn >= 0).all()))

implicit = (ratings > 0.5) & mask
confidence = 1 + 5 * ratings.clamp(min=0)
user_emb = nn.Parameter(torch.randn(n_users, 8) * 0.1)
item_emb = nn.Parameter(torch.randn(n_items, 8) * 0.1)
opt = torch.optim.SGD([user_emb, item_emb], lr=0.5)
pos_u, pos_i = implicit.nonzero(as_tuple=True)
for epoch in range(60):
    neg_i = torch.randint(0, n_items, (len(pos_u),))
    pos_scores = (user_emb[pos_u] * item_emb[pos_i]).sum(1)
    neg_scores = (user_emb[pos_u] * item_emb[neg_i]).sum(1)
    bpr = -F.logsigmoid(pos_scores - neg_scores).mean() + 1e-4 * (user_emb.norm() ** 2 + item_emb.norm() ** 2)
    weighted = (confidence * (implicit.float() - torch.sigmoid(user_emb @ item_emb.T)) ** 2).mean()
    loss = bpr + 0.1 * weighted
    opt.zero_grad()
    loss.backward()
    opt.step()
print("bpr", round(bpr.item(), 4), "weighted", round(weighted.item(), 4))

with torch.no_grad():
    scores = user_emb @ item_emb.T
    held_out = (ratings > 0.5) & ~mask
    scores = scores.masked_fill(implicit, -float("inf"))
    k = 5
    topk = scores.topk(k, dim=1).indices
    hits = held_out.gather(1, topk).float()
    recall = hits.sum(1) / held_out.sum(1).clamp(min=1)
    discounts = 1.0 / torch.log2(torch.arange(2, k + 2).float())
    dcg = (hits * discounts).sum(1)
    ideal = torch.stack([discounts[:min(int(c), k)].sum() for c in held_out.sum(1)])
    ndcg = torch.where(ideal > 0, dcg / ideal, torch.zeros_like(dcg))
print("recall@5", round(recall.mean().item(), 4), "ndcg@5", round(ndcg.mean().item(), 4), topk[0])
print("log2 discounts", discounts, math.log2(3))
