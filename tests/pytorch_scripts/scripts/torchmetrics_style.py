"""Metric classes in the style of torchmetrics: add_state with defaults and reduce functions,
update/compute/reset, a MetricCollection, and the formulas written the way that library does
(multiclass stat scores through bincount of target * C + preds, macro/micro/weighted averages,
confusion matrix with normalize, top-k accuracy, binned ROC/AUROC and average precision, calibration error
with bucketize, R2 and explained variance, cosine similarity, Spearman via ranks)."""
import torch


class Metric:
    def __init__(self):
        self._defaults, self._reductions = {}, {}

    def add_state(self, name, default, dist_reduce_fx="sum"):
        self._defaults[name] = default.clone() if torch.is_tensor(default) else list(default)
        self._reductions[name] = dist_reduce_fx
        setattr(self, name, self._defaults[name].clone() if torch.is_tensor(default) else [])

    def reset(self):
        for name, default in self._defaults.items():
            setattr(self, name, default.clone() if torch.is_tensor(default) else [])

    def __call__(self, *args):
        self.update(*args)
        return self.compute()


class MulticlassStatScores(Metric):
    def __init__(self, num_classes, average="macro"):
        super().__init__()
        self.num_classes, self.average = num_classes, average
        self.add_state("confmat", torch.zeros(num_classes, num_classes, dtype=torch.long))

    def update(self, preds, target):
        if preds.is_floating_point():
            preds = preds.argmax(dim=1)
        unique_mapping = target.long() * self.num_classes + preds.long()
        bins = torch.bincount(unique_mapping, minlength=self.num_classes ** 2)
        self.confmat += bins.reshape(self.num_classes, self.num_classes)

    def stats(self):
        tp = self.confmat.diag()
        fp = self.confmat.sum(0) - tp
        fn = self.confmat.sum(1) - tp
        tn = self.confmat.sum() - (fp + fn + tp)
        return tp, fp, tn, fn

    def _reduce(self, num, denom, weights):
        if self.average == "micro":
            return num.sum().float() / denom.sum()
        score = torch.where(denom == 0, torch.zeros_like(num, dtype=torch.float), num.float() / denom)
        if self.average == "weighted":
            return (score * weights / weights.sum()).sum()
        if self.average in (None, "none"):
            return score
        return score.mean()


class Precision(MulticlassStatScores):
    def compute(self):
        tp, fp, tn, fn = self.stats()
        return self._reduce(tp, tp + fp, tp + fn)


class Recall(MulticlassStatScores):
    def compute(self):
        tp, fp, tn, fn = self.stats()
        return self._reduce(tp, tp + fn, tp + fn)


class F1Score(MulticlassStatScores):
    def compute(self):
        tp, fp, tn, fn = self.stats()
        return self._reduce(2 * tp, 2 * tp + fp + fn, tp + fn)


class ConfusionMatrix(MulticlassStatScores):
    def __init__(self, num_classes, normalize=None):
        super().__init__(num_classes)
        self.normalize = normalize

    def compute(self):
        cm = self.confmat.float()
        if self.normalize == "true":
            cm = cm / cm.sum(dim=-1, keepdim=True)
        elif self.normalize == "pred":
            cm = cm / cm.sum(dim=-2, keepdim=True)
        elif self.normalize == "all":
            cm = cm / cm.sum()
        return torch.nan_to_num(cm)


class TopKAccuracy(Metric):
    def __init__(self, k):
        super().__init__()
        self.k = k
        self.add_state("correct", torch.tensor(0))
        self.add_state("total", torch.tensor(0))

    def update(self, preds, target):
        topk = preds.topk(self.k, dim=1).indices
        self.correct += (topk == target.unsqueeze(1)).any(dim=1).sum()
        self.total += target.numel()

    def compute(self):
        return self.correct.float() / self.total


class BinaryROC(Metric):
    def __init__(self, thresholds=11):
        super().__init__()
        self.thresholds = torch.linspace(0, 1, thresholds)
        self.add_state("confmat", torch.zeros(thresholds, 2, 2, dtype=torch.long))

    def update(self, preds, target):
        preds_t = (preds.unsqueeze(-1) >= self.thresholds.unsqueeze(0)).long()
        unique_mapping = preds_t + 2 * target.long().unsqueeze(-1) + 4 * torch.arange(len(self.thresholds))
        bins = torch.bincount(unique_mapping.flatten(), minlength=4 * len(self.thresholds))
        self.confmat += bins.reshape(len(self.thresholds), 2, 2)

    def compute(self):
        tps, fps = self.confmat[:, 1, 1], self.confmat[:, 0, 1]
        fns, tns = self.confmat[:, 1, 0], self.confmat[:, 0, 0]
        tpr = (tps / (tps + fns).float()).flip(0)
        fpr = (fps / (fps + tns).float()).flip(0)
        return fpr, tpr, torch.trapezoid(tpr, fpr)


def average_precision(preds, target):
    desc = torch.argsort(preds, descending=True, stable=True)
    target = target[desc]
    tps = torch.cumsum(target, 0).float()
    fps = torch.cumsum(1 - target, 0).float()
    precision = tps / (tps + fps)
    recall = tps / target.sum()
    recall = torch.cat([torch.zeros(1), recall])
    return torch.sum((recall[1:] - recall[:-1]) * precision)


class CalibrationError(Metric):
    def __init__(self, n_bins=5, norm="l1"):
        super().__init__()
        self.n_bins, self.norm = n_bins, norm
        self.add_state("confidences", [], dist_reduce_fx="cat")
        self.add_state("accuracies", [], dist_reduce_fx="cat")

    def update(self, probs, target):
        conf, pred = probs.max(dim=1)
        self.confidences.append(conf)
        self.accuracies.append(pred.eq(target))

    def compute(self):
        conf = torch.cat(self.confidences)
        acc = torch.cat(self.accuracies).float()
        bounds = torch.linspace(0, 1, self.n_bins + 1)
        indices = torch.bucketize(conf, bounds, right=True) - 1
        count = torch.zeros(self.n_bins).scatter_add_(0, indices, torch.ones_like(conf))
        conf_bin = torch.zeros(self.n_bins).scatter_add_(0, indices, conf) / count.clamp(min=1)
        acc_bin = torch.zeros(self.n_bins).scatter_add_(0, indices, acc) / count.clamp(min=1)
        prop = count / count.sum()
        if self.norm == "l1":
            return torch.sum(torch.abs(acc_bin - conf_bin) * prop)
        if self.norm == "max":
            return torch.max(torch.abs(acc_bin - conf_bin))
        return torch.sqrt(torch.sum((acc_bin - conf_bin) ** 2 * prop))


class R2Score(Metric):
    def __init__(self):
        super().__init__()
        for name in ("sum_squared_error", "sum_error", "residual", "total"):
            self.add_state(name, torch.tensor(0.0))

    def update(self, preds, target):
        self.sum_squared_error += torch.sum(target * target)
        self.sum_error += torch.sum(target)
        self.residual += torch.sum((target - preds) ** 2)
        self.total += target.numel()

    def compute(self):
        mean_error = self.sum_error / self.total
        diff = self.sum_squared_error - self.sum_error * mean_error
        return 1 - self.residual / diff


def spearman(preds, target):
    def rank(x):
        return x.argsort().argsort().float()
    rp, rt = rank(preds), rank(target)
    rp, rt = rp - rp.mean(), rt - rt.mean()
    return (rp * rt).sum() / (rp.norm() * rt.norm())


class MetricCollection(dict):
    def update(self, *args):
        for metric in self.values():
            metric.update(*args)

    def compute(self):
        return {name: metric.compute() for name, metric in self.items()}

    def reset(self):
        for metric in self.values():
            metric.reset()


torch.manual_seed(0)
num_classes = 4
collection = MetricCollection(
    precision_macro=Precision(num_classes), recall_micro=Recall(num_classes, average="micro"),
    f1_weighted=F1Score(num_classes, average="weighted"), f1_none=F1Score(num_classes, average="none"),
    confmat=ConfusionMatrix(num_classes, normalize="true"))
top2 = TopKAccuracy(2)
ece, mce = CalibrationError(), CalibrationError(norm="max")
for step in range(3):
    target = torch.randint(0, num_classes, (50,))
    logits = torch.randn(50, num_classes) + 2.0 * torch.nn.functional.one_hot(target, num_classes)
    collection.update(logits, target)
    top2.update(logits, target)
    probs = logits.softmax(-1)
    ece.update(probs, target)
    mce.update(probs, target)
    print(f"step {step} batch top2 {TopKAccuracy(2)(logits, target):.4f}")
for name, value in collection.compute().items():
    print(name, value if value.ndim else round(value.item(), 5))
print("top2", top2.compute().item(), "ece", round(ece.compute().item(), 5), "mce", round(mce.compute().item(), 5))
collection.reset()
print(collection["precision_macro"].confmat.sum().item(), len(ece.confidences))

scores = torch.rand(40)
labels = (scores + 0.4 * torch.randn(40) > 0.5).long()
roc = BinaryROC(thresholds=6)
fpr, tpr, auc = roc(scores, labels)
print("fpr", fpr, "\ntpr", tpr, "\nauc", round(auc.item(), 5))
print("AP", round(average_precision(scores, labels).item(), 5))

r2 = R2Score()
x = torch.linspace(0, 1, 30)
r2.update(2 * x + 0.1 * torch.randn(30), 2 * x)
r2.update(2 * x[:10], 2 * x[:10] + 0.05)
print("r2", round(r2.compute().item(), 5), "spearman", round(spearman(x + 0.3 * torch.randn(30), x).item(), 5))
print("cosine", torch.nn.functional.cosine_similarity(torch.randn(3, 8), torch.randn(3, 8)).round(decimals=4))
