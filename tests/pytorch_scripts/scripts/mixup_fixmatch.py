"""Regularisation and semi-supervised recipes as Kaggle kernels and the FixMatch / MixMatch ports write
them: mixup with lambda from torch.distributions.Beta(alpha, alpha).sample() and a shuffled batch from
torch.randperm, mixup_criterion as a lambda-weighted pair of losses, CutMix with a box from
sqrt(1 - lam) and torch.randint centres clamped to the image, soft one-hot targets with
F.one_hot(...).float() and label smoothing, FixMatch's confidence mask from softmax(...).max(dim=1)
against a threshold with weak/strong views, MixMatch's sharpen (p ** (1 / T) renormalised) and
interleave, and a Dirichlet-weighted ensemble of predictions."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def mixup_data(x, y, alpha=1.0):
    lam = torch.distributions.Beta(alpha, alpha).sample().item() if alpha > 0 else 1.0
    index = torch.randperm(x.size(0))
    mixed_x = lam * x + (1 - lam) * x[index, :]
    return mixed_x, y, y[index], lam


def mixup_criterion(criterion, pred, y_a, y_b, lam):
    return lam * criterion(pred, y_a) + (1 - lam) * criterion(pred, y_b)


def rand_bbox(size, lam):
    W, H = size[2], size[3]
    cut_rat = np.sqrt(1. - lam)
    cut_w, cut_h = int(W * cut_rat), int(H * cut_rat)
    cx = int(torch.randint(W, (1,)))
    cy = int(torch.randint(H, (1,)))
    bbx1, bby1 = int(np.clip(cx - cut_w // 2, 0, W)), int(np.clip(cy - cut_h // 2, 0, H))
    bbx2, bby2 = int(np.clip(cx + cut_w // 2, 0, W)), int(np.clip(cy + cut_h // 2, 0, H))
    return bbx1, bby1, bbx2, bby2


model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=5e-4)
x = torch.rand(8, 3, 8, 8)
y = torch.randint(0, 4, (8,))
criterion = nn.CrossEntropyLoss()
for step in range(3):
    inputs, targets_a, targets_b, lam = mixup_data(x, y, alpha=0.4)
    loss = mixup_criterion(criterion, model(inputs), targets_a, targets_b, lam)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"mixup {step} lam {lam:.4f} loss {loss.item():.4f}")

lam = torch.distributions.Beta(1.0, 1.0).sample().item()
rand_index = torch.randperm(x.size(0))
bbx1, bby1, bbx2, bby2 = rand_bbox(x.size(), lam)
cut = x.clone()
cut[:, :, bbx1:bbx2, bby1:bby2] = x[rand_index, :, bbx1:bbx2, bby1:bby2]
lam_adj = 1 - ((bbx2 - bbx1) * (bby2 - bby1) / (x.size()[-1] * x.size()[-2]))
print("cutmix", round(lam, 4), (bbx1, bby1, bbx2, bby2), round(lam_adj, 4), (cut != x).any(1).sum().item())
soft = lam_adj * F.one_hot(y, 4).float() + (1 - lam_adj) * F.one_hot(y[rand_index], 4).float()
print("soft targets", soft[0].round(decimals=4).tolist(), round(F.cross_entropy(model(cut), soft, label_smoothing=0.1).item(), 4))

# FixMatch
threshold, lambda_u, T = 0.3, 1.0, 0.5
unlabeled = torch.rand(6, 3, 8, 8)
weak = unlabeled + 0.01 * torch.randn_like(unlabeled)
strong = torch.flip(unlabeled, dims=[3]) + 0.1 * torch.randn_like(unlabeled)
logits = model(torch.cat([x, weak, strong]))
logits_x = logits[:8]
logits_u_w, logits_u_s = logits[8:].chunk(2)
Lx = F.cross_entropy(logits_x, y, reduction='mean')
pseudo_label = torch.softmax(logits_u_w.detach() / T, dim=-1)
max_probs, targets_u = torch.max(pseudo_label, dim=-1)
mask = max_probs.ge(threshold).float()
Lu = (F.cross_entropy(logits_u_s, targets_u, reduction='none') * mask).mean()
print("fixmatch", round(Lx.item(), 4), round(Lu.item(), 4), mask.tolist(), targets_u.tolist())


def sharpen(p, T):
    pt = p ** (1 / T)
    return pt / pt.sum(dim=1, keepdim=True)


def interleave_offsets(batch, nu):
    groups = [batch // (nu + 1)] * (nu + 1)
    for x in range(batch - sum(groups)):
        groups[-x - 1] += 1
    offsets = [0]
    for g in groups:
        offsets.append(offsets[-1] + g)
    assert offsets[-1] == batch
    return offsets


def interleave(xy, batch):
    nu = len(xy) - 1
    offsets = interleave_offsets(batch, nu)
    xy = [[v[offsets[p]:offsets[p + 1]] for p in range(nu + 1)] for v in xy]
    for i in range(1, nu + 1):
        xy[0][i], xy[i][i] = xy[i][i], xy[0][i]
    return [torch.cat(v, dim=0) for v in xy]


p = torch.softmax(torch.randn(4, 4), 1)
print("sharpen", sharpen(p, 0.5).max(1).values.round(decimals=4).tolist(), p.max(1).values.round(decimals=4).tolist())
parts = interleave([torch.arange(6), torch.arange(6, 12), torch.arange(12, 18)], 6)
print("interleave", [t.tolist() for t in parts], interleave_offsets(7, 2))

preds = torch.softmax(torch.randn(3, 5, 4), -1)
w = torch.distributions.Dirichlet(torch.ones(3)).sample()
blend = torch.einsum("m,mnc->nc", w, preds)
print("ensemble", w.round(decimals=4).tolist(), blend.sum(-1).round(decimals=4).tolist(), blend.argmax(-1).tolist())
