"""Metric learning as in pytorch-metric-learning and face-recognition repos: batch-hard triplet mining
from a pairwise distance matrix with masks, the batch-all variant, nn.TripletMarginLoss with swap, ArcFace /
CosFace margin heads (F.normalize, acos, cos(theta + m), one_hot with scatter_), center loss with
index_select, and a short training run with a fixed-composition P x K batch."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(11)


def pairwise_distances(embeddings, squared=False):
    dot_product = embeddings @ embeddings.t()
    square_norm = torch.diag(dot_product)
    distances = square_norm.unsqueeze(0) - 2.0 * dot_product + square_norm.unsqueeze(1)
    distances = distances.clamp(min=0.0)
    if not squared:
        mask = distances.eq(0).float()
        distances = distances + mask * 1e-16
        distances = (1.0 - mask) * torch.sqrt(distances)
    return distances


def batch_hard_triplet_loss(labels, embeddings, margin, squared=False):
    dist = pairwise_distances(embeddings, squared=squared)
    indices_equal = torch.eye(labels.size(0), dtype=torch.bool)
    labels_equal = labels.unsqueeze(0) == labels.unsqueeze(1)
    mask_anchor_positive = (labels_equal & ~indices_equal).float()
    hardest_positive = (mask_anchor_positive * dist).max(1, keepdim=True)[0]
    mask_anchor_negative = (~labels_equal).float()
    max_anchor_negative = dist.max(1, keepdim=True)[0]
    anchor_negative = dist + max_anchor_negative * (1.0 - mask_anchor_negative)
    hardest_negative = anchor_negative.min(1, keepdim=True)[0]
    return F.relu(hardest_positive - hardest_negative + margin).mean()


def batch_all_triplet_loss(labels, embeddings, margin):
    dist = pairwise_distances(embeddings)
    triplet = dist.unsqueeze(2) - dist.unsqueeze(1) + margin
    n = labels.size(0)
    distinct = ~torch.eye(n, dtype=torch.bool)
    i_ne_j, i_ne_k, j_ne_k = distinct.unsqueeze(2), distinct.unsqueeze(1), distinct.unsqueeze(0)
    eq = labels.unsqueeze(0) == labels.unsqueeze(1)
    valid = (i_ne_j & i_ne_k & j_ne_k) & (eq.unsqueeze(2) & ~eq.unsqueeze(1))
    triplet = F.relu(triplet * valid.float())
    positive = (triplet > 1e-16).float()
    num_positive = positive.sum()
    return triplet.sum() / (num_positive + 1e-16), num_positive / valid.sum()


class ArcMarginProduct(nn.Module):
    def __init__(self, in_features, out_features, s=30.0, m=0.50, easy_margin=False):
        super().__init__()
        self.s, self.m, self.easy_margin = s, m, easy_margin
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        nn.init.xavier_uniform_(self.weight)
        self.cos_m, self.sin_m = math.cos(m), math.sin(m)
        self.th = math.cos(math.pi - m)
        self.mm = math.sin(math.pi - m) * m

    def forward(self, x, label):
        cosine = F.linear(F.normalize(x), F.normalize(self.weight))
        sine = torch.sqrt((1.0 - torch.pow(cosine, 2)).clamp(1e-6, 1))
        phi = cosine * self.cos_m - sine * self.sin_m
        if self.easy_margin:
            phi = torch.where(cosine > 0, phi, cosine)
        else:
            phi = torch.where(cosine > self.th, phi, cosine - self.mm)
        one_hot = torch.zeros(cosine.size())
        one_hot.scatter_(1, label.view(-1, 1).long(), 1)
        return self.s * ((one_hot * phi) + ((1.0 - one_hot) * cosine))


class AddMarginProduct(nn.Module):
    def __init__(self, in_features, out_features, s=30.0, m=0.40):
        super().__init__()
        self.s, self.m = s, m
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, x, label):
        cosine = F.linear(F.normalize(x), F.normalize(self.weight))
        theta = torch.acos(cosine.clamp(-1 + 1e-7, 1 - 1e-7))
        one_hot = F.one_hot(label, cosine.size(1)).bool()
        return self.s * torch.where(one_hot, cosine - self.m, cosine), theta.mean()


class CenterLoss(nn.Module):
    def __init__(self, num_classes, feat_dim):
        super().__init__()
        self.centers = nn.Parameter(torch.randn(num_classes, feat_dim))

    def forward(self, x, labels):
        centers_batch = self.centers.index_select(0, labels)
        return (x - centers_batch).pow(2).sum(1).clamp(min=1e-12, max=1e12).mean() / 2


labels = torch.tensor([0, 0, 1, 1, 2, 2, 3, 3])
emb = torch.randn(8, 5)
print("pdist", pairwise_distances(emb)[0].round(decimals=4))
print("cdist ", torch.cdist(emb, emb)[0].round(decimals=4))
print("batch hard", batch_hard_triplet_loss(labels, emb, 0.5).item(),
      batch_hard_triplet_loss(labels, emb, 0.5, squared=True).item())
loss, frac = batch_all_triplet_loss(labels, emb, 0.5)
print("batch all", loss.item(), frac.item())
a, p, n = emb[0::2], emb[1::2], emb.roll(2, 0)[0::2]
print("TripletMarginLoss", nn.TripletMarginLoss(margin=1.0)(a, p, n).item(),
      nn.TripletMarginLoss(margin=1.0, p=1, swap=True)(a, p, n).item(),
      F.triplet_margin_loss(a, p, n, reduction="none"))
arc = ArcMarginProduct(5, 4)
add = AddMarginProduct(5, 4)
print("arcface", arc(emb, labels)[:2].round(decimals=3))
print("arcface easy", ArcMarginProduct(5, 4, easy_margin=True)(emb, labels).abs().sum().round(decimals=2))
cos_logits, mean_theta = add(emb, labels)
print("cosface", F.cross_entropy(cos_logits, labels).item(), mean_theta.item())

torch.manual_seed(0)
P, K, dim = 4, 4, 2
means = torch.randn(P, 6) * 2
backbone = nn.Sequential(nn.Linear(6, 16), nn.PReLU(), nn.Linear(16, dim))
center = CenterLoss(P, dim)
head = ArcMarginProduct(dim, P, s=8.0, m=0.2)
opt = torch.optim.Adam([{"params": backbone.parameters()}, {"params": head.parameters()}], lr=1e-2)
opt_center = torch.optim.SGD(center.parameters(), lr=0.5)
for step in range(60):
    y = torch.arange(P).repeat_interleave(K)
    x = means[y] + torch.randn(P * K, 6)
    feats = backbone(x)
    loss = F.cross_entropy(head(feats, y), y) + 0.01 * center(feats, y) + batch_hard_triplet_loss(y, feats, 0.3)
    opt.zero_grad()
    opt_center.zero_grad()
    loss.backward()
    for param in center.parameters():
        param.grad.data *= 1.0 / 0.01
    opt.step()
    opt_center.step()
    if step % 15 == 14:
        print(f"step {step + 1} loss {loss.item():.4f}")
with torch.no_grad():
    y = torch.arange(P).repeat_interleave(K)
    feats = F.normalize(backbone(means[y] + torch.randn(P * K, 6)))
    sims = feats @ feats.t()
    sims.fill_diagonal_(-2)
    nearest = sims.argmax(1)
print("recall@1", (y[nearest] == y).float().mean().item(), "centers", center.centers.detach().round(decimals=3))
