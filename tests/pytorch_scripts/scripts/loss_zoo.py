"""Loss functions as Kaggle kernels and detection/segmentation repositories write them: focal loss
(binary, from BCE-with-logits via pt = exp(-bce), and multi-class with gather of log_softmax and an
alpha tensor), label-smoothing cross entropy written by hand vs label_smoothing=, class weights and
ignore_index, Dice and Tversky losses, Lovasz-free soft IoU, nn.PoissonNLLLoss, nn.GaussianNLLLoss,
MarginRankingLoss, HingeEmbeddingLoss, MultiLabelSoftMarginLoss, MultiLabelMarginLoss,
MultiMarginLoss, SoftMarginLoss, TripletMarginWithDistanceLoss, KLDivLoss with log_target, and
reduction='none' shapes; gradients checked on a few."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(6, 4, requires_grad=True)
target = torch.tensor([0, 3, 1, 1, 2, 0])
bin_logits = torch.randn(8, requires_grad=True)
bin_target = torch.tensor([1.0, 0, 0, 1, 1, 0, 1, 0])


class FocalLoss(nn.Module):
    def __init__(self, alpha=0.25, gamma=2.0, reduction="mean"):
        super().__init__()
        self.alpha, self.gamma, self.reduction = alpha, gamma, reduction

    def forward(self, inputs, targets):
        bce = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
        pt = torch.exp(-bce)
        alpha_t = self.alpha * targets + (1 - self.alpha) * (1 - targets)
        loss = alpha_t * (1 - pt) ** self.gamma * bce
        return loss.mean() if self.reduction == "mean" else loss.sum()


def multiclass_focal(logits, target, alpha, gamma=2.0):
    logpt = F.log_softmax(logits, dim=1).gather(1, target.unsqueeze(1)).squeeze(1)
    pt = logpt.exp()
    return (-alpha.gather(0, target) * (1 - pt) ** gamma * logpt).mean()


def sigmoid_focal_loss(inputs, targets, alpha=0.25, gamma=2):
    p = torch.sigmoid(inputs)
    ce_loss = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce_loss * ((1 - p_t) ** gamma)
    alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
    return (alpha_t * loss).mean()


fl = FocalLoss()(bin_logits, bin_target)
print("focal", round(fl.item(), 5), round(sigmoid_focal_loss(bin_logits, bin_target).item(), 5))
fl.backward()
print("focal grad", bin_logits.grad.round(decimals=4).tolist())
mfl = multiclass_focal(logits, target, torch.tensor([0.25, 0.5, 0.75, 1.0]))
print("multiclass focal", round(mfl.item(), 5), mfl.grad_fn.name())


def smooth_ce(logits, target, eps=0.1):
    n = logits.size(-1)
    log_preds = F.log_softmax(logits, dim=-1)
    loss = -log_preds.sum(dim=-1).mean()
    nll = F.nll_loss(log_preds, target)
    return eps * loss / n + (1 - eps) * nll


print("label smoothing", round(smooth_ce(logits, target).item(), 5),
      round(F.cross_entropy(logits, target, label_smoothing=0.1).item(), 5))
weights = torch.tensor([1.0, 2.0, 0.5, 1.0])
print("weighted", round(F.cross_entropy(logits, target, weight=weights).item(), 5),
      round(F.cross_entropy(logits, target, weight=weights, label_smoothing=0.2).item(), 5))
ignored = target.clone()
ignored[1] = -100
print("ignore_index", round(F.cross_entropy(logits, ignored).item(), 5),
      F.cross_entropy(logits, ignored, reduction="none").round(decimals=4).tolist())
soft_targets = F.softmax(torch.randn(6, 4), dim=1)
print("soft targets", round(F.cross_entropy(logits, soft_targets).item(), 5),
      round(F.cross_entropy(logits, soft_targets, label_smoothing=0.1).item(), 5))

# segmentation losses
seg_logits = torch.randn(2, 1, 4, 4, requires_grad=True)
mask = (torch.rand(2, 1, 4, 4) > 0.5).float()


def dice_loss(pred, target, smooth=1.0):
    pred = pred.sigmoid().view(pred.size(0), -1)
    target = target.view(target.size(0), -1)
    intersection = (pred * target).sum(1)
    return 1 - ((2.0 * intersection + smooth) / (pred.sum(1) + target.sum(1) + smooth)).mean()


def tversky(pred, target, alpha=0.7, beta=0.3, smooth=1.0):
    p = pred.sigmoid().flatten()
    t = target.flatten()
    tp, fp, fn = (p * t).sum(), ((1 - t) * p).sum(), (t * (1 - p)).sum()
    return 1 - (tp + smooth) / (tp + alpha * fp + beta * fn + smooth)


def soft_iou(pred, target):
    p = pred.sigmoid()
    inter = (p * target).sum(dim=(1, 2, 3))
    union = (p + target - p * target).sum(dim=(1, 2, 3))
    return 1 - (inter / union).mean()


total = dice_loss(seg_logits, mask) + tversky(seg_logits, mask) + soft_iou(seg_logits, mask) + \
    F.binary_cross_entropy_with_logits(seg_logits, mask, pos_weight=torch.tensor([2.0]))
total.backward()
print("seg", round(total.item(), 5), round(seg_logits.grad.abs().sum().item(), 5))

# torch.nn's less common losses
rates = torch.randn(5).exp()
counts = torch.tensor([0.0, 1, 3, 2, 7])
print("poisson", round(nn.PoissonNLLLoss()(rates.log(), counts).item(), 5),
      round(nn.PoissonNLLLoss(log_input=False, full=True)(rates, counts).item(), 5))
mu, var, y = torch.randn(5, 2), torch.rand(5, 2) + 0.1, torch.randn(5, 2)
print("gaussian nll", round(nn.GaussianNLLLoss()(mu, y, var).item(), 5),
      round(nn.GaussianNLLLoss(full=True, eps=1e-3)(mu, y, var[:, :1]).item(), 5),
      nn.GaussianNLLLoss(reduction="none")(mu, y, var).shape)
a, b, sign = torch.randn(5), torch.randn(5), torch.tensor([1.0, -1, 1, -1, 1])
print("margin ranking", round(nn.MarginRankingLoss(margin=0.5)(a, b, sign).item(), 5))
dist = torch.rand(6) * 2
print("hinge embedding", round(nn.HingeEmbeddingLoss(margin=1.0)(dist, torch.tensor([1.0, -1, -1, 1, -1, 1])).item(), 5))
ml_target = torch.tensor([[1.0, 0, 1, 0], [0, 0, 0, 1], [1, 1, 1, 0], [0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 1, 1]])
print("multilabel soft margin", round(nn.MultiLabelSoftMarginLoss()(logits, ml_target).item(), 5),
      round(nn.MultiLabelSoftMarginLoss(weight=weights)(logits, ml_target).item(), 5))
ml_idx = torch.tensor([[0, 2, -1, 0], [3, -1, 0, 0], [0, 1, 2, -1], [1, -1, 0, 0], [0, -1, 1, 1], [2, 3, -1, 0]])
print("multilabel margin", round(nn.MultiLabelMarginLoss()(logits, ml_idx).item(), 5))
print("multi margin", round(nn.MultiMarginLoss()(logits, target).item(), 5),
      round(nn.MultiMarginLoss(p=2, margin=0.5, weight=weights)(logits, target).item(), 5))
print("soft margin", round(nn.SoftMarginLoss()(bin_logits, bin_target * 2 - 1).item(), 5))
anchor, pos, neg = torch.randn(4, 3), torch.randn(4, 3), torch.randn(4, 3)
cos_triplet = nn.TripletMarginWithDistanceLoss(distance_function=lambda u, v: 1 - F.cosine_similarity(u, v),
                                               margin=0.5)
print("triplet", round(cos_triplet(anchor, pos, neg).item(), 5),
      round(nn.TripletMarginWithDistanceLoss(swap=True)(anchor, pos, neg).item(), 5),
      round(nn.TripletMarginLoss(p=1, swap=True)(anchor, pos, neg).item(), 5))
log_p, log_q = F.log_softmax(torch.randn(3, 4), 1), F.log_softmax(torch.randn(3, 4), 1)
print("kl", round(nn.KLDivLoss(reduction="batchmean", log_target=True)(log_p, log_q).item(), 5),
      round(F.kl_div(log_p, log_q.exp(), reduction="sum").item(), 5))
logits.grad = None
F.multilabel_soft_margin_loss(logits, ml_target).backward()
print("ml grad", logits.grad[0].round(decimals=4).tolist())
print(nn.MultiMarginLoss(p=2, margin=0.5), nn.GaussianNLLLoss(full=True), nn.PoissonNLLLoss(log_input=False))
