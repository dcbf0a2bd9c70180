"""Segmentation losses as the popular repositories write them (segmentation_models_pytorch-free,
Kaggle and LovaszSoftmax code): multi-class soft Dice with one_hot(...).permute(0, 3, 1, 2), smooth
terms and ignore_index masking, Tversky and focal-Tversky, Jaccard (soft IoU), binary focal loss with
logits, the Lovasz hinge (lovasz_grad with cumsum over sorted errors, F.relu of sorted errors dotted
with the gradient, flattening with an ignore label) and Lovasz-softmax over classes, BCE + Dice combo,
boundary-weighted cross entropy using max_pool2d to find edges, CrossEntropyLoss(ignore_index=255)
and per-pixel class weights, and a few training steps of a tiny FCN with these losses."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N, C, H, W = 2, 3, 6, 6
logits = torch.randn(N, C, H, W, requires_grad=True)
target = torch.randint(0, C, (N, H, W))
target[0, 0, :3] = 255


def dice_loss(logits, target, smooth=1.0, ignore_index=255):
    valid = (target != ignore_index)
    t = target.clone()
    t[~valid] = 0
    probs = logits.softmax(dim=1) * valid.unsqueeze(1)
    one_hot = F.one_hot(t, num_classes=logits.shape[1]).permute(0, 3, 1, 2).float() * valid.unsqueeze(1)
    dims = (0, 2, 3)
    intersection = torch.sum(probs * one_hot, dims)
    cardinality = torch.sum(probs + one_hot, dims)
    dice = (2. * intersection + smooth) / (cardinality + smooth)
    return 1 - dice.mean(), dice


def tversky_loss(logits, target, alpha=0.3, beta=0.7, gamma=None, smooth=1e-6):
    probs = logits.softmax(1)
    oh = F.one_hot(target.clamp(max=C - 1), C).permute(0, 3, 1, 2).float()
    tp = (probs * oh).sum((0, 2, 3))
    fp = (probs * (1 - oh)).sum((0, 2, 3))
    fn = ((1 - probs) * oh).sum((0, 2, 3))
    tversky = (tp + smooth) / (tp + alpha * fp + beta * fn + smooth)
    loss = 1 - tversky
    if gamma is not None:
        loss = loss ** gamma
    return loss.mean()


def soft_jaccard(logits, target, eps=1e-7):
    probs = logits.softmax(1)
    oh = F.one_hot(target.clamp(max=C - 1), C).permute(0, 3, 1, 2).float()
    inter = (probs * oh).sum((0, 2, 3))
    union = (probs + oh).sum((0, 2, 3)) - inter
    return 1 - (inter / union.clamp_min(eps)).mean()


loss, per_class = dice_loss(logits, target)
print("dice", round(loss.item(), 5), per_class.round(decimals=4).tolist(), loss.grad_fn.name())
print("tversky", round(tversky_loss(logits, target).item(), 5), "focal tversky",
      round(tversky_loss(logits, target, gamma=0.75).item(), 5), "jaccard", round(soft_jaccard(logits, target).item(), 5))
ce = nn.CrossEntropyLoss(ignore_index=255)
print("ce ignore", round(ce(logits, target).item(), 5), ce.ignore_index,
      round(F.cross_entropy(logits, target, ignore_index=255, reduction="sum").item(), 4))
wce = nn.CrossEntropyLoss(weight=torch.tensor([0.2, 1.0, 2.0]), ignore_index=255)
print("weighted ce", round(wce(logits, target).item(), 5))


def lovasz_grad(gt_sorted):
    p = len(gt_sorted)
    gts = gt_sorted.sum()
    intersection = gts - gt_sorted.float().cumsum(0)
    union = gts + (1 - gt_sorted).float().cumsum(0)
    jaccard = 1. - intersection / union
    if p > 1:
        jaccard[1:p] = jaccard[1:p] - jaccard[0:-1]
    return jaccard


def lovasz_hinge_flat(logits, labels):
    if len(labels) == 0:
        return logits.sum() * 0.
    signs = 2. * labels.float() - 1.
    errors = (1. - logits * signs)
    errors_sorted, perm = torch.sort(errors, dim=0, descending=True)
    perm = perm.data
    gt_sorted = labels[perm]
    grad = lovasz_grad(gt_sorted)
    loss = torch.dot(F.relu(errors_sorted), grad)
    return loss


def flatten_binary_scores(scores, labels, ignore=None):
    scores = scores.view(-1)
    labels = labels.view(-1)
    if ignore is None:
        return scores, labels
    valid = (labels != ignore)
    return scores[valid], labels[valid]


def lovasz_softmax_flat(probas, labels, classes="present"):
    C = probas.size(1)
    losses = []
    for c in range(C):
        fg = (labels == c).float()
        if classes == "present" and fg.sum() == 0:
            continue
        class_pred = probas[:, c]
        errors = (fg - class_pred).abs()
        errors_sorted, perm = torch.sort(errors, 0, descending=True)
        losses.append(torch.dot(errors_sorted, lovasz_grad(fg[perm])))
    return torch.stack(losses).mean()


bin_logits = torch.randn(N, H, W, requires_grad=True)
bin_target = (torch.rand(N, H, W) > 0.5).long()
bin_target[1, -1] = 255
lh = lovasz_hinge_flat(*flatten_binary_scores(bin_logits, bin_target, ignore=255))
lh.backward()
print("lovasz hinge", round(lh.item(), 5), lh.grad_fn.name(), bin_logits.grad[1, -1].abs().sum().item())
print("lovasz_grad", lovasz_grad(torch.tensor([1, 0, 1, 1, 0])).tolist())
probas = logits.softmax(1).permute(0, 2, 3, 1).reshape(-1, C)
lab = target.view(-1)
keep = lab != 255
ls = lovasz_softmax_flat(probas[keep], lab[keep])
print("lovasz softmax", round(ls.item(), 5), probas[keep].shape)


def binary_focal_with_logits(x, y, alpha=0.25, gamma=2.0):
    p = torch.sigmoid(x)
    ce_loss = F.binary_cross_entropy_with_logits(x, y, reduction="none")
    p_t = p * y + (1 - p) * (1 - y)
    loss = ce_loss * ((1 - p_t) ** gamma)
    alpha_t = alpha * y + (1 - alpha) * (1 - y)
    return (alpha_t * loss).mean()


yb = (bin_target == 1).float()
print("focal", round(binary_focal_with_logits(bin_logits, yb).item(), 6))
edges = (F.max_pool2d(target.float().unsqueeze(1), 3, 1, 1) != -F.max_pool2d(-target.float().unsqueeze(1), 3, 1, 1)).squeeze(1)
pix_w = 1.0 + 4.0 * edges.float()
bce = (F.cross_entropy(logits, target, ignore_index=255, reduction="none") * pix_w).sum() / pix_w[target != 255].sum()
print("edge pixels", edges.sum().item(), "boundary ce", round(bce.item(), 5))
net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.Conv2d(8, C, 1))
img = torch.randn(N, 3, H, W)
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
for step in range(4):
    out = net(img)
    loss = ce(out, target) + dice_loss(out, target)[0] + 0.5 * lovasz_softmax_flat(
        out.softmax(1).permute(0, 2, 3, 1).reshape(-1, C)[keep], lab[keep])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
