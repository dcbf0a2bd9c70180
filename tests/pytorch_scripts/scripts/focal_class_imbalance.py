"""Losses for class imbalance as published in repos and Kaggle kernels: sigmoid focal loss (torchvision's
formula), multi-class focal loss with per-class alpha gathered from the target, label-smoothing cross
entropy written by hand against F.cross_entropy(label_smoothing=), class-balanced weights from the effective
number of samples, asymmetric loss for multi-label, poly-1 loss, and training with pos_weight and
WeightedRandomSampler on an imbalanced toy set."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler

torch.manual_seed(3)


def sigmoid_focal_loss(inputs, targets, alpha=0.25, gamma=2.0, reduction="none"):
    p = torch.sigmoid(inputs)
    ce_loss = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce_loss * ((1 - p_t) ** gamma)
    if alpha >= 0:
        alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
        loss = alpha_t * loss
    if reduction == "mean":
        loss = loss.mean()
    elif reduction == "sum":
        loss = loss.sum()
    return loss


class FocalLoss(nn.Module):
    def __init__(self, alpha=None, gamma=2.0, reduction="mean", ignore_index=-100):
        super().__init__()
        self.alpha, self.gamma, self.reduction, self.ignore_index = alpha, gamma, reduction, ignore_index
        self.nll_loss = nn.NLLLoss(weight=alpha, reduction="none", ignore_index=ignore_index)

    def forward(self, x, y):
        if x.ndim > 2:
            c = x.shape[1]
            x = x.permute(0, *range(2, x.ndim), 1).reshape(-1, c)
            y = y.view(-1)
        unignored_mask = y != self.ignore_index
        y = y[unignored_mask]
        if len(y) == 0:
            return torch.tensor(0.0)
        x = x[unignored_mask]
        log_p = F.log_softmax(x, dim=-1)
        ce = self.nll_loss(log_p, y)
        all_rows = torch.arange(len(x))
        log_pt = log_p[all_rows, y]
        pt = log_pt.exp()
        focal_term = (1 - pt) ** self.gamma
        loss = focal_term * ce
        if self.reduction == "mean":
            loss = loss.mean()
        elif self.reduction == "sum":
            loss = loss.sum()
        return loss


class LabelSmoothingCrossEntropy(nn.Module):
    def __init__(self, smoothing=0.1):
        super().__init__()
        self.smoothing, self.confidence = smoothing, 1.0 - smoothing

    def forward(self, x, target):
        logprobs = F.log_softmax(x, dim=-1)
        nll_loss = -logprobs.gather(dim=-1, index=target.unsqueeze(1)).squeeze(1)
        smooth_loss = -logprobs.mean(dim=-1)
        return (self.confidence * nll_loss + self.smoothing * smooth_loss).mean()


class AsymmetricLoss(nn.Module):
    def __init__(self, gamma_neg=4, gamma_pos=1, clip=0.05, eps=1e-8):
        super().__init__()
        self.gamma_neg, self.gamma_pos, self.clip, self.eps = gamma_neg, gamma_pos, clip, eps

    def forward(self, x, y):
        xs_pos = torch.sigmoid(x)
        xs_neg = 1 - xs_pos
        if self.clip is not None and self.clip > 0:
            xs_neg = (xs_neg + self.clip).clamp(max=1)
        los_pos = y * torch.log(xs_pos.clamp(min=self.eps))
        los_neg = (1 - y) * torch.log(xs_neg.clamp(min=self.eps))
        loss = los_pos + los_neg
        pt = xs_pos * y + xs_neg * (1 - y)
        one_sided_gamma = self.gamma_pos * y + self.gamma_neg * (1 - y)
        loss *= torch.pow(1 - pt, one_sided_gamma)
        return -loss.sum()


def poly1_cross_entropy(logits, labels, epsilon=1.0):
    labels_onehot = F.one_hot(labels, num_classes=logits.shape[-1]).to(logits.dtype)
    pt = torch.sum(labels_onehot * F.softmax(logits, dim=-1), dim=-1)
    ce = F.cross_entropy(logits, labels, reduction="none")
    return (ce + epsilon * (1 - pt)).mean()


def class_balanced_weights(samples_per_class, beta=0.999):
    effective_num = 1.0 - torch.pow(beta, samples_per_class)
    weights = (1.0 - beta) / effective_num
    return weights / weights.sum() * len(samples_per_class)


logits = torch.randn(6, 4)
target = torch.tensor([0, 3, 1, 1, 2, -100])
multi_target = (torch.rand(6, 4) > 0.6).float()
print("sigmoid focal", sigmoid_focal_loss(logits, multi_target, reduction="mean").item(),
      sigmoid_focal_loss(logits, multi_target, alpha=-1, gamma=0, reduction="sum").item())
print("bce check", F.binary_cross_entropy_with_logits(logits, multi_target, reduction="sum").item())
alpha = torch.tensor([0.1, 0.2, 0.3, 0.4])
print("focal", FocalLoss(alpha=alpha)(logits, target).item(), FocalLoss(gamma=0.0, reduction="sum")(logits, target).item())
print("nll ref", F.cross_entropy(logits, target, reduction="sum").item())
seg_logits, seg_target = torch.randn(2, 3, 4, 4), torch.randint(0, 3, (2, 4, 4))
seg_target[0, 0] = -100
print("focal 2d", FocalLoss(gamma=1.5)(seg_logits, seg_target).item())
valid = target != -100
print("smoothing", LabelSmoothingCrossEntropy(0.1)(logits[valid], target[valid]).item(),
      F.cross_entropy(logits[valid], target[valid], label_smoothing=0.1).item(),
      F.cross_entropy(logits, target, label_smoothing=0.2, weight=alpha).item())
print("asl", AsymmetricLoss()(logits, multi_target).item(), "poly1", poly1_cross_entropy(logits[valid], target[valid]).item())
counts = torch.tensor([500.0, 50.0, 10.0, 2.0])
print("cb weights", class_balanced_weights(counts), class_balanced_weights(counts, beta=0.9))

n = 400
X = torch.randn(n, 2)
y = ((X[:, 0] + 0.5 * X[:, 1]) > 1.6).float()
print("positives", int(y.sum().item()), "of", n)
pos_weight = (y == 0).sum() / (y == 1).sum()
class_counts = torch.bincount(y.long())
sample_weights = (1.0 / class_counts.float())[y.long()]
sampler = WeightedRandomSampler(sample_weights, num_samples=n, replacement=True, generator=torch.Generator().manual_seed(5))
loader = DataLoader(TensorDataset(X, y), batch_size=50, sampler=sampler)
drawn = torch.cat([yb for _, yb in loader])
print("sampled positive fraction", drawn.mean().item(), "pos_weight", round(pos_weight.item(), 4))
for name, criterion, dl in [("pos_weight", nn.BCEWithLogitsLoss(pos_weight=pos_weight), DataLoader(TensorDataset(X, y), batch_size=50)),
                            ("focal", lambda out, t: sigmoid_focal_loss(out, t, reduction="mean"), DataLoader(TensorDataset(X, y), batch_size=50)),
                            ("sampler", nn.BCEWithLogitsLoss(), loader)]:
    torch.manual_seed(0)
    model = nn.Linear(2, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    for epoch in range(15):
        for xb, yb in dl:
            opt.zero_grad()
            loss = criterion(model(xb).squeeze(1), yb)
            loss.backward()
            opt.step()
    with torch.no_grad():
        pred = (model(X).squeeze(1) > 0).float()
    tp = (pred * y).sum()
    print(f"{name:10s} loss {loss.item():.4f} recall {(tp / y.sum()).item():.3f} precision {(tp / pred.sum().clamp(min=1)).item():.3f}")
