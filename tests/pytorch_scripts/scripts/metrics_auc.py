"""Evaluation metrics as public training code computes them in plain torch (torchmetrics-free):
top-1/top-k accuracy with topk + eq + expand_as, a confusion matrix through bincount of
n * target + pred, per-class precision / recall / F1 with diag and sums (nan_to_num for empty
classes), macro/micro/weighted averages, balanced accuracy, Cohen's kappa, ROC AUC through
argsort(descending) + cumsum of labels (tps/fps, torch.trapezoid), the rank-based Mann-Whitney AUC with
tied ranks, average precision, a binned calibration error with bucketize, mean IoU for segmentation from
the same confusion matrix, and MeanAverage meters accumulating across batches."""
import torch
import torch.nn.functional as F

torch.manual_seed(0)


def accuracy(output, target, topk=(1,)):
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


def confusion_matrix(pred, target, n):
    k = (target >= 0) & (target < n)
    return torch.bincount(n * target[k].to(torch.int64) + pred[k], minlength=n ** 2).reshape(n, n)


logits = torch.tensor([[2.0, 0.5, 0.1, -1.0], [0.2, 1.5, 1.4, 0.0], [0.1, 0.1, 3.0, 0.2], [1.0, 2.0, 0.0, 0.5],
                       [0.0, 0.3, 0.2, 2.2], [1.1, 1.0, 0.9, 1.2], [0.5, 0.4, 2.5, 0.1], [2.1, 0.0, 0.3, 0.2]])
target = torch.tensor([0, 2, 2, 1, 3, 0, 2, 1])
top1, top3 = accuracy(logits, target, topk=(1, 3))
print("top1", top1, "top3", top3.item())
pred = logits.argmax(dim=1)
cm = confusion_matrix(pred, target, 4)
print(cm, cm.dtype)
tp = cm.diag().float()
precision = tp / cm.sum(0).float()
recall = tp / cm.sum(1).float()
f1 = 2 * precision * recall / (precision + recall)
print("precision", precision.tolist())
print("recall", recall.tolist())
print("f1", f1.nan_to_num(0.0).tolist(), "macro", f1.nan_to_num(0.0).mean().item())
support = cm.sum(1)
print("weighted f1", (f1.nan_to_num(0.0) * support).sum().item() / support.sum().item(),
      "micro", (tp.sum() / cm.sum()).item(), "balanced", recall.mean().item())
po = tp.sum() / cm.sum()
pe = (cm.sum(0) * cm.sum(1)).sum() / cm.sum() ** 2
print("kappa", round(((po - pe) / (1 - pe)).item(), 6), pe.dtype)
iou = tp / (cm.sum(0) + cm.sum(1) - cm.diag())
print("iou", iou.tolist(), "miou", torch.nanmean(iou).item())

scores = torch.tensor([0.9, 0.8, 0.7, 0.7, 0.6, 0.55, 0.5, 0.4, 0.3, 0.1])
labels = torch.tensor([1, 1, 0, 1, 0, 1, 0, 0, 1, 0])


def roc_curve(scores, labels):
    desc = torch.argsort(scores, descending=True, stable=True)
    scores, labels = scores[desc], labels[desc]
    distinct = torch.where(scores[1:] - scores[:-1] != 0)[0]
    threshold_idxs = F.pad(distinct, [0, 1], value=labels.numel() - 1)
    tps = torch.cumsum(labels, dim=0)[threshold_idxs]
    fps = 1 + threshold_idxs - tps
    tps = torch.cat([torch.zeros(1, dtype=tps.dtype), tps])
    fps = torch.cat([torch.zeros(1, dtype=fps.dtype), fps])
    return fps / fps[-1], tps / tps[-1], scores[threshold_idxs]


fpr, tpr, thr = roc_curve(scores, labels)
print("fpr", fpr.tolist())
print("tpr", tpr.tolist(), tpr.dtype)
print("thresholds", thr.tolist())
print("auc trapezoid", torch.trapezoid(tpr, fpr).item(), torch.trapz(tpr, fpr).item())
soft_tpr = tpr.clone().requires_grad_()
print("trapezoid nodes", torch.trapezoid(soft_tpr, fpr).grad_fn.name(), torch.trapezoid(soft_tpr, dx=0.1).grad_fn.name(),
      torch.cumulative_trapezoid(soft_tpr, fpr).grad_fn.name())
ranks = torch.empty_like(scores)
order = scores.argsort()
ranks[order] = torch.arange(1, len(scores) + 1, dtype=scores.dtype)
for v in scores.unique():
    m = scores == v
    ranks[m] = ranks[m].mean()
n_pos, n_neg = labels.sum(), (1 - labels).sum()
auc = (ranks[labels == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)
print("mann-whitney auc", auc.item(), ranks.tolist())
desc = scores.argsort(descending=True, stable=True)
hits = labels[desc].float()
prec_at_k = hits.cumsum(0) / torch.arange(1, len(hits) + 1)
print("average precision", ((prec_at_k * hits).sum() / hits.sum()).item())

probs = torch.tensor([[0.9, 0.1], [0.6, 0.4], [0.3, 0.7], [0.45, 0.55], [0.2, 0.8], [0.85, 0.15]])
y = torch.tensor([0, 1, 1, 0, 1, 0])
conf, predicted = probs.max(1)
edges = torch.linspace(0, 1, 6)
bins = torch.bucketize(conf, edges, right=False)
ece = torch.zeros(1)
for b in bins.unique():
    m = bins == b
    ece += m.float().mean() * (conf[m].mean() - (predicted[m] == y[m]).float().mean()).abs()
print("bins", bins.tolist(), "ece", round(ece.item(), 6))


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / self.count


meter = AverageMeter()
total_cm = torch.zeros(4, 4, dtype=torch.long)
for chunk_logits, chunk_t in zip(logits.split(3), target.split(3)):
    acc1 = accuracy(chunk_logits, chunk_t)[0]
    meter.update(acc1.item(), chunk_t.size(0))
    total_cm += confusion_matrix(chunk_logits.argmax(1), chunk_t, 4)
print("meter", round(meter.avg, 4), torch.equal(total_cm, cm), meter.count)
try:
    torch.bincount(torch.tensor([1.0, 2.0]))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.bincount(torch.tensor([-1, 2]))
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.bincount(torch.tensor([0, 1, 1, 3]), weights=torch.tensor([0.5, 1.0, 1.5, 2.0])),
      torch.bincount(torch.tensor([], dtype=torch.long)), torch.bincount(torch.tensor([2]), minlength=4))
