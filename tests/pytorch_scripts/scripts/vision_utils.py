"""Tensor-manipulation helpers as they appear in public vision code: the ImageNet example's top-k
accuracy, DETR's box_ops (box conversions, IoU and generalized IoU), torchvision-style batched NMS written
with argsort, timm's label-smoothing cross entropy and mixup/cutmix, a confusion matrix with bincount,
and one_hot/scatter_/gather/unique/masked_select/einsum bookkeeping."""
import numpy as np
import torch
import torch.nn.functional as F


def accuracy(output, target, topk=(1,)):
    """Computes the accuracy over the k top predictions for the specified values of k"""
    with torch.no_grad():
        maxk = max(topk)
        batch_size = target.size(0)
        _, pred = output.topk(maxk, 1, True, True)
        pred = pred.t()
        correct = pred.eq(target.view(1, -1).expand_as(pred))
        res = []
        for k in topk:
            correct_k = correct[:k].reshape(-1).float().sum(0, keepdim=True)
            res.append(correct_k.mul_(100.0 / batch_size))
        return res


torch.manual_seed(0)
output = torch.randn(16, 10)
target = torch.randint(0, 10, (16,))
acc1, acc5 = accuracy(output, target, topk=(1, 5))
print(acc1, acc5, acc1[0].item())


def box_cxcywh_to_xyxy(x):
    x_c, y_c, w, h = x.unbind(-1)
    b = [(x_c - 0.5 * w), (y_c - 0.5 * h), (x_c + 0.5 * w), (y_c + 0.5 * h)]
    return torch.stack(b, dim=-1)


def box_xyxy_to_cxcywh(x):
    x0, y0, x1, y1 = x.unbind(-1)
    b = [(x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0), (y1 - y0)]
    return torch.stack(b, dim=-1)


def box_area(boxes):
    return (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])


def box_iou(boxes1, boxes2):
    area1 = box_area(boxes1)
    area2 = box_area(boxes2)
    lt = torch.max(boxes1[:, None, :2], boxes2[:, :2])
    rb = torch.min(boxes1[:, None, 2:], boxes2[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[:, :, 0] * wh[:, :, 1]
    union = area1[:, None] + area2 - inter
    iou = inter / union
    return iou, union


def generalized_box_iou(boxes1, boxes2):
    assert (boxes1[:, 2:] >= boxes1[:, :2]).all()
    assert (boxes2[:, 2:] >= boxes2[:, :2]).all()
    iou, union = box_iou(boxes1, boxes2)
    lt = torch.min(boxes1[:, None, :2], boxes2[:, :2])
    rb = torch.max(boxes1[:, None, 2:], boxes2[:, 2:])
    wh = (rb - lt).clamp(min=0)
    area = wh[:, :, 0] * wh[:, :, 1]
    return iou - (area - union) / area


def masks_to_boxes(masks):
    if masks.numel() == 0:
        return torch.zeros((0, 4), device=masks.device)
    h, w = masks.shape[-2:]
    y = torch.arange(0, h, dtype=torch.float)
    x = torch.arange(0, w, dtype=torch.float)
    y, x = torch.meshgrid(y, x, indexing="ij")
    x_mask = (masks * x.unsqueeze(0))
    x_max = x_mask.flatten(1).max(-1)[0]
    x_min = x_mask.masked_fill(~(masks.bool()), 1e8).flatten(1).min(-1)[0]
    y_mask = (masks * y.unsqueeze(0))
    y_max = y_mask.flatten(1).max(-1)[0]
    y_min = y_mask.masked_fill(~(masks.bool()), 1e8).flatten(1).min(-1)[0]
    return torch.stack([x_min, y_min, x_max, y_max], 1)


cxcywh = torch.rand(6, 4) * 0.5 + torch.tensor([0.25, 0.25, 0.1, 0.1])
boxes = box_cxcywh_to_xyxy(cxcywh)
print(boxes[:2], torch.allclose(box_xyxy_to_cxcywh(boxes), cxcywh, atol=1e-6))
iou, union = box_iou(boxes, boxes[:3])
print(iou.shape, iou.diagonal(), generalized_box_iou(boxes, boxes[:3])[3:])
boxes.requires_grad_(True)
giou = generalized_box_iou(boxes, boxes.detach()[:2])
loss_giou = 1 - torch.diag(giou[:2])
loss_giou.sum().backward()
print(loss_giou, boxes.grad[:2])
masks = torch.zeros(2, 5, 6)
masks[0, 1:3, 2:5] = 1
masks[1, 0, 0] = 1
print(masks_to_boxes(masks))


def nms(boxes, scores, iou_threshold):
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0]
        keep.append(i.item())
        if order.numel() == 1:
            break
        ious, _ = box_iou(boxes[i].unsqueeze(0), boxes[order[1:]])
        order = order[1:][ious[0] <= iou_threshold]
    return torch.tensor(keep, dtype=torch.long)


def batched_nms(boxes, scores, idxs, iou_threshold):
    max_coordinate = boxes.max()
    offsets = idxs.to(boxes) * (max_coordinate + torch.tensor(1).to(boxes))
    boxes_for_nms = boxes + offsets[:, None]
    return nms(boxes_for_nms, scores, iou_threshold)


scores = torch.rand(6)
idxs = torch.tensor([0, 1, 0, 1, 0, 0])
with torch.no_grad():
    print(nms(boxes, scores, 0.3), batched_nms(boxes, scores, idxs, 0.3), scores.argsort())
    keep = nms(boxes, scores, 0.3)
    print(scores[keep], boxes[keep].shape, torch.sort(scores, descending=True))


class LabelSmoothingCrossEntropy(torch.nn.Module):
    def __init__(self, smoothing=0.1):
        super(LabelSmoothingCrossEntropy, self).__init__()
        assert smoothing < 1.0
        self.smoothing = smoothing
        self.confidence = 1. - smoothing

    def forward(self, x, target):
        logprobs = F.log_softmax(x, dim=-1)
        nll_loss = -logprobs.gather(dim=-1, index=target.unsqueeze(1))
        nll_loss = nll_loss.squeeze(1)
        smooth_loss = -logprobs.mean(dim=-1)
        loss = self.confidence * nll_loss + self.smoothing * smooth_loss
        return loss.mean()


def one_hot(x, num_classes, on_value=1., off_value=0.):
    x = x.long().view(-1, 1)
    return torch.full((x.size()[0], num_classes), off_value, device=x.device).scatter_(1, x, on_value)


def mixup_target(target, num_classes, lam=1., smoothing=0.0):
    off_value = smoothing / num_classes
    on_value = 1. - smoothing + off_value
    y1 = one_hot(target, num_classes, on_value=on_value, off_value=off_value)
    y2 = one_hot(target.flip(0), num_classes, on_value=on_value, off_value=off_value)
    return y1 * lam + y2 * (1. - lam)


def rand_bbox(img_shape, lam, margin=0., count=None):
    ratio = np.sqrt(1 - lam)
    img_h, img_w = img_shape[-2:]
    cut_h, cut_w = int(img_h * ratio), int(img_w * ratio)
    margin_y, margin_x = int(margin * cut_h), int(margin * cut_w)
    cy = np.random.randint(0 + margin_y, img_h - margin_y, size=count)
    cx = np.random.randint(0 + margin_x, img_w - margin_x, size=count)
    yl = np.clip(cy - cut_h // 2, 0, img_h)
    yh = np.clip(cy + cut_h // 2, 0, img_h)
    xl = np.clip(cx - cut_w // 2, 0, img_w)
    xh = np.clip(cx + cut_w // 2, 0, img_w)
    return yl, yh, xl, xh


logits = torch.randn(4, 5, requires_grad=True)
labels = torch.tensor([0, 3, 4, 1])
ls = LabelSmoothingCrossEntropy(0.1)(logits, labels)
ls.backward()
print(ls, F.cross_entropy(logits, labels, label_smoothing=0.1), logits.grad[0])
print(one_hot(labels, 5, 0.9, 0.025), mixup_target(labels, 5, lam=0.7, smoothing=0.1).sum(1))
np.random.seed(0)
x = torch.arange(2 * 3 * 8 * 8, dtype=torch.float32).view(2, 3, 8, 8)
lam = np.random.beta(1.0, 1.0)
yl, yh, xl, xh = rand_bbox(x.shape, lam)
x[:, :, yl:yh, xl:xh] = x.flip(0)[:, :, yl:yh, xl:xh]
lam = 1. - (yh - yl) * (xh - xl) / float(x.shape[-2] * x.shape[-1])
print(round(float(lam), 4), (yl, yh, xl, xh), x[0, 0, 3], x.sum())
perm = torch.randperm(4)
mixed = 0.3 * logits.detach() + 0.7 * logits.detach()[perm, :]
print(perm, mixed[0])

# confusion matrix, per-class accuracy, unique, masked_select
preds = torch.tensor([0, 2, 1, 1, 0, 2, 2, 1, 0, 0])
gts = torch.tensor([0, 1, 1, 1, 0, 2, 0, 1, 2, 0])
n = 3
cm = torch.bincount(n * gts + preds, minlength=n ** 2).reshape(n, n)
print(cm, cm.diag() / cm.sum(1), torch.diag(cm).sum().item() / cm.sum().item())
hist = torch.zeros(n, n, dtype=torch.long)
hist.index_put_((gts, preds), torch.ones_like(gts), accumulate=True)
print(torch.equal(hist, cm), hist.float().div(hist.sum(1, keepdim=True)).nan_to_num(0))
values, inverse, counts = torch.unique(gts, return_inverse=True, return_counts=True)
print(values, inverse, counts, torch.unique(preds, sorted=True), gts.unique_consecutive())
print(torch.masked_select(preds, gts == 1), preds[preds != gts], (preds == gts).nonzero(as_tuple=True))
scatter = torch.zeros(3, 5).scatter_add_(0, torch.tensor([[0, 1, 2, 0, 0], [2, 0, 0, 1, 2]]), torch.ones(2, 5))
print(scatter, torch.zeros(2, 4).scatter_(1, torch.tensor([[1], [3]]), 2.5))
print(torch.zeros(5).index_add_(0, torch.tensor([0, 4, 0]), torch.tensor([1., 2., 3.])))
emb = torch.randn(3, 4)
print(torch.einsum('ij,kj->ik', emb, emb).diagonal(), torch.einsum('bi,bi->b', emb, emb), torch.einsum('ii', torch.eye(3)))
print(torch.einsum('bhqd,bhkd->bhqk', torch.ones(1, 2, 3, 4), torch.ones(1, 2, 5, 4)).shape, torch.einsum('i,j->ij', torch.arange(3.), torch.arange(2.)))
vals, idx = torch.topk(emb, 2, dim=1, largest=False)
print(vals, idx, torch.kthvalue(emb, 2, dim=1).values, emb.argsort(dim=0)[:, 0])
print(torch.gather(emb, 1, idx), torch.take_along_dim(emb, idx, dim=1).equal(torch.gather(emb, 1, idx)))
print(torch.where(emb > 0), torch.where(emb > 0, emb, torch.zeros_like(emb)).sum(), emb.clamp(-0.5, 0.5).abs().max())
print(torch.cumsum(torch.tensor([1, 2, 3]), 0), torch.cumprod(torch.tensor([1., 2., 3.]), 0), torch.diff(torch.tensor([1, 4, 9, 16])))
print(F.one_hot(torch.tensor([[0, 2], [1, 1]]), 3).shape, F.one_hot(torch.tensor([0, 2])).dtype)
print(torch.repeat_interleave(torch.tensor([1, 2]), torch.tensor([2, 3])), torch.tensor([[1, 2], [3, 4]]).repeat_interleave(2, dim=0))
print(torch.searchsorted(torch.tensor([0.1, 0.5, 0.9]), torch.tensor([0.0, 0.5, 0.7, 1.0])), torch.bucketize(torch.tensor([0.3, 0.95]), torch.tensor([0.1, 0.5, 0.9]), right=True))
print(torch.histc(torch.tensor([1., 2, 1, 4, 2, 2]), bins=4, min=0, max=4), torch.tril_indices(3, 3), torch.triu_indices(3, 3, 1))
print(torch.cdist(emb, emb[:2]).shape, torch.cdist(emb, emb[:2])[2], torch.roll(torch.arange(5), 2), torch.arange(10).view(2, 5).unfold(1, 2, 2))
