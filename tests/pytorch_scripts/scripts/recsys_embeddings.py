"""Recommender-system code in plain torch as the NCF / DLRM / torchrec-free tutorials write it:
matrix factorisation with user and item nn.Embedding tables and per-user/item biases, dot products by
(u * v).sum(1), BPR loss with F.logsigmoid on sampled negatives, NeuMF (GMF and MLP towers
concatenated), DLRM-style nn.EmbeddingBag with offsets (mode 'sum', 'mean', 'max'),
per_sample_weights, padding_idx, from_pretrained(freeze=...), nn.Embedding(max_norm=1.0) renormalising
looked-up rows in place, the pairwise feature
interaction with torch.bmm and triu_indices(offset=-1 style tril_indices), hit-rate@k and NDCG@k with
topk and isin, and SparseAdam-free Adagrad training."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
n_users, n_items = 6, 10
users = torch.tensor([0, 0, 1, 2, 3, 3, 4, 5, 5, 1])
items = torch.tensor([1, 3, 2, 5, 7, 1, 9, 0, 4, 8])
ratings = torch.tensor([5., 3., 4., 2., 5., 4., 1., 3., 4., 2.])


class MF(nn.Module):
    def __init__(self, n_users, n_items, k=4):
        super().__init__()
        self.user_factors = nn.Embedding(n_users, k)
        self.item_factors = nn.Embedding(n_items, k)
        self.user_bias = nn.Embedding(n_users, 1)
        self.item_bias = nn.Embedding(n_items, 1)
        nn.init.normal_(self.user_factors.weight, std=0.1)
        nn.init.normal_(self.item_factors.weight, std=0.1)
        nn.init.zeros_(self.user_bias.weight)
        nn.init.zeros_(self.item_bias.weight)
        self.global_bias = nn.Parameter(torch.tensor(ratings.mean().item()))

    def forward(self, u, i):
        dot = (self.user_factors(u) * self.item_factors(i)).sum(1)
        return dot + self.user_bias(u).squeeze(1) + self.item_bias(i).squeeze(1) + self.global_bias


mf = MF(n_users, n_items)
opt = torch.optim.Adagrad(mf.parameters(), lr=0.1, initial_accumulator_value=0.1)
for epoch in range(30):
    loss = F.mse_loss(mf(users, items), ratings) + 1e-3 * mf.user_factors.weight.pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 10 == 0:
        print(f"mf epoch {epoch} loss {loss.item():.4f}")
print("adagrad state", sorted(opt.state[mf.global_bias].keys()), opt.state[mf.global_bias]["step"])
neg_items = torch.tensor([0, 2, 3, 4, 6, 8, 2, 5, 3, 6])
pos_scores = (mf.user_factors(users) * mf.item_factors(items)).sum(1)
neg_scores = (mf.user_factors(users) * mf.item_factors(neg_items)).sum(1)
bpr = -F.logsigmoid(pos_scores - neg_scores).mean()
print("bpr", round(bpr.item(), 4), bpr.grad_fn.name())


class NeuMF(nn.Module):
    def __init__(self, n_users, n_items, k=4, layers=(16, 8)):
        super().__init__()
        self.embed_user_GMF = nn.Embedding(n_users, k)
        self.embed_item_GMF = nn.Embedding(n_items, k)
        self.embed_user_MLP = nn.Embedding(n_users, layers[0] // 2)
        self.embed_item_MLP = nn.Embedding(n_items, layers[0] // 2)
        self.MLP_layers = nn.Sequential(nn.Dropout(0.0), nn.Linear(layers[0], layers[1]), nn.ReLU())
        self.predict_layer = nn.Linear(k + layers[1], 1)
        nn.init.kaiming_uniform_(self.predict_layer.weight, a=1, nonlinearity="sigmoid")

    def forward(self, user, item):
        output_GMF = self.embed_user_GMF(user) * self.embed_item_GMF(item)
        interaction = torch.cat((self.embed_user_MLP(user), self.embed_item_MLP(item)), -1)
        output_MLP = self.MLP_layers(interaction)
        concat = torch.cat((output_GMF, output_MLP), -1)
        return self.predict_layer(concat).view(-1)


ncf = NeuMF(n_users, n_items)
labels = torch.cat([torch.ones(10), torch.zeros(10)])
u2, i2 = torch.cat([users, users]), torch.cat([items, neg_items])
opt = torch.optim.Adam(ncf.parameters(), lr=0.01)
for epoch in range(5):
    loss = nn.BCEWithLogitsLoss()(ncf(u2, i2), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("ncf loss", round(loss.item(), 4))
scores = ncf(torch.full((n_items,), 0), torch.arange(n_items)).detach()
_, indices = torch.topk(scores, 3)
recommends = torch.take(torch.arange(n_items), indices)
gt_item = torch.tensor(3)
hit = torch.isin(gt_item, recommends).item()
ndcg = 0.0
if hit:
    index = (recommends == gt_item).nonzero().item()
    ndcg = 1 / math.log2(index + 2)
print("hr@3", hit, "ndcg@3", round(ndcg, 4), recommends.shape)

bag = nn.EmbeddingBag(10, 3, mode="sum")
input = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
offsets = torch.tensor([0, 4])
print(bag, bag(input, offsets).shape, torch.allclose(bag(input, offsets)[0], bag.weight[[1, 2, 4, 5]].sum(0)))
mean_bag = nn.EmbeddingBag.from_pretrained(bag.weight.detach().clone(), mode="mean")
max_bag = nn.EmbeddingBag.from_pretrained(bag.weight.detach().clone(), mode="max", freeze=False)
print(torch.allclose(mean_bag(input, offsets)[1], bag.weight[[4, 3, 2, 9]].mean(0)), mean_bag.weight.requires_grad,
      max_bag.weight.requires_grad, torch.allclose(max_bag(input.view(2, 4))[0], bag.weight[[1, 2, 4, 5]].max(0).values))
psw = torch.tensor([1.0, 0.5, 0.5, 2.0, 1.0, 1.0, 1.0, 0.0])
wbag = nn.EmbeddingBag(10, 3, mode="sum")
print("per_sample_weights", torch.allclose(wbag(input, offsets, per_sample_weights=psw)[1], wbag.weight[[4, 3, 2]].sum(0)))
try:
    mean_bag(input, offsets, per_sample_weights=psw)
except (NotImplementedError, ValueError, RuntimeError) as e:
    print(type(e).__name__ + ":", e)
pbag = nn.EmbeddingBag(10, 3, mode="mean", padding_idx=0)
print("padding_idx", pbag.weight[0].tolist(), torch.allclose(pbag(torch.tensor([[0, 2, 0, 3]]))[0], pbag.weight[[2, 3]].mean(0)))
fb = F.embedding_bag(input, bag.weight, offsets, mode="sum")
print("functional", torch.allclose(fb, bag(input, offsets)), fb.grad_fn.name())
emb = nn.Embedding(10, 3, max_norm=1.0)
with torch.no_grad():
    emb.weight.mul_(3)
before = emb.weight.norm(dim=1).clone()
out = emb(torch.tensor([1, 2, 2]))
after = emb.weight.norm(dim=1)
print("max_norm renorm", torch.allclose(after[1:3], torch.ones(2), atol=1e-4), torch.equal(before[4:], after[4:]),
      out.norm(dim=1).round(decimals=4).tolist())
dense_x = torch.randn(4, 3)
T = torch.stack([dense_x, bag(torch.arange(8), torch.tensor([0, 2, 4, 6])), wbag(torch.arange(8).view(4, 2))], dim=1)
Z = torch.bmm(T, T.transpose(1, 2))
li, lj = torch.tril_indices(3, 3, offset=-1)
Zflat = Z[:, li, lj]
print("dlrm interaction", Z.shape, Zflat.shape, li.tolist(), lj.tolist(), torch.allclose(Zflat[:, 0], (T[:, 1] * T[:, 0]).sum(1)))
