"""Training tricks people write by hand instead of importing: label-smoothing cross entropy
(NVIDIA/timm style) checked against CrossEntropyLoss(label_smoothing=...), a linear-warmup +
cosine schedule through LambdaLR and written as a function, gradient clipping by value and by norm
(clip_grad_value_, clip_grad_norm_ with error_if_nonfinite and its returned total norm), weight
tying between embedding and output layers, parameters_to_vector / vector_to_parameters for
flat-parameter updates, gradient accumulation with loss scaling, and an EMA of weights with
torch._foreach_mul_ / _foreach_add_."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import parameters_to_vector, vector_to_parameters

torch.manual_seed(0)


class LabelSmoothingCrossEntropy(nn.Module):
    """NLL loss with label smoothing."""

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


logits = torch.randn(8, 5, requires_grad=True)
target = torch.randint(0, 5, (8,))
mine = LabelSmoothingCrossEntropy(0.1)(logits, target)
ref = nn.CrossEntropyLoss(label_smoothing=0.1)(logits, target)
print("label smoothing", round(mine.item(), 6), round(ref.item(), 6), torch.allclose(mine, ref))
soft = torch.full((8, 5), 0.1 / 5).scatter_(1, target[:, None], 0.9 + 0.1 / 5)
print("soft targets", round(F.cross_entropy(logits, soft).item(), 6), round(torch.sum(-soft * F.log_softmax(logits, -1), -1).mean().item(), 6))


class TinyLM(nn.Module):
    def __init__(self, vocab=20, dim=8, tie=True):
        super().__init__()
        self.encoder = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.decoder = nn.Linear(dim, vocab)
        if tie:
            self.decoder.weight = self.encoder.weight

    def forward(self, x):
        out, _ = self.rnn(self.encoder(x))
        return self.decoder(out)


tied, untied = TinyLM(tie=True), TinyLM(tie=False)
print("tied same object", tied.decoder.weight is tied.encoder.weight, "param counts",
      sum(p.numel() for p in tied.parameters()), sum(p.numel() for p in untied.parameters()))
print("tied state_dict keys", list(tied.state_dict().keys()))
print("named_parameters dedups", [n for n, _ in tied.named_parameters()])
print("remove_duplicate=False", [n for n, _ in tied.named_parameters(remove_duplicate=False)][-3:])


def get_cosine_schedule_with_warmup(optimizer, num_warmup_steps, num_training_steps, num_cycles=0.5, last_epoch=-1):
    def lr_lambda(current_step):
        if current_step < num_warmup_steps:
            return float(current_step) / float(max(1, num_warmup_steps))
        progress = float(current_step - num_warmup_steps) / float(max(1, num_training_steps - num_warmup_steps))
        return max(0.0, 0.5 * (1.0 + math.cos(math.pi * float(num_cycles) * 2.0 * progress)))

    return torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda, last_epoch)


x = torch.randint(0, 20, (4, 6))
y = torch.randint(0, 20, (4, 6))
opt = torch.optim.AdamW(tied.parameters(), lr=3e-3, weight_decay=0.01)
sched = get_cosine_schedule_with_warmup(opt, 3, 12)
lrs, norms = [], []
accum = 2
for step in range(12):
    for micro in range(accum):
        out = tied(x[micro * 2:(micro + 1) * 2])
        loss = F.cross_entropy(out.reshape(-1, 20), y[micro * 2:(micro + 1) * 2].reshape(-1), label_smoothing=0.1) / accum
        loss.backward()
    norms.append(round(nn.utils.clip_grad_norm_(tied.parameters(), max_norm=0.5).item(), 4))
    opt.step()
    sched.step()
    opt.zero_grad(set_to_none=True)
    lrs.append(round(sched.get_last_lr()[0], 6))
print("lrs", lrs)
print("pre-clip norms", norms[:6])
print("last loss", round(loss.item() * accum, 4), "grads cleared", all(p.grad is None for p in tied.parameters()))

# clip by value
w = torch.randn(5, requires_grad=True)
(w * torch.tensor([10.0, -10.0, 0.1, 3.0, -0.2])).sum().backward()
nn.utils.clip_grad_value_([w], clip_value=1.0)
print("clip value", w.grad.tolist())
w.grad = torch.tensor([float("nan"), 1.0, 2.0, 3.0, 4.0])
try:
    nn.utils.clip_grad_norm_([w], 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:90])
w.grad = torch.tensor([3.0, 4.0, 0.0, 0.0, 0.0])
total = nn.utils.clip_grad_norm_([w], max_norm=1.0, norm_type="inf")
print("inf norm", total.item(), w.grad.tolist())
total = nn.utils.clip_grad_norm_([w], max_norm=10.0, norm_type=1.0)
print("no clipping below max", total.item(), w.grad.tolist())

# flat parameter vectors
mlp = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
vec = parameters_to_vector(mlp.parameters())
print("flat", vec.shape, vec.requires_grad, vec.grad_fn.name())
x = torch.randn(10, 3)
yt = torch.randn(10, 1)
loss = F.mse_loss(mlp(x), yt)
grads = torch.autograd.grad(loss, list(mlp.parameters()))
flat_grad = torch.cat([g.reshape(-1) for g in grads])
with torch.no_grad():
    vector_to_parameters(vec - 0.5 * flat_grad, mlp.parameters())
print("after flat step", round(F.mse_loss(mlp(x), yt).item(), 5), "<", round(loss.item(), 5))
print("views kept", mlp[0].weight.shape, mlp[0].weight.is_leaf, round(parameters_to_vector(mlp.parameters()).sum().item(), 5))

# EMA of weights with foreach ops
ema = [p.detach().clone() for p in mlp.parameters()]
for _ in range(3):
    with torch.no_grad():
        for p in mlp.parameters():
            p.add_(torch.randn_like(p) * 0.01)
        model_params = [p.detach() for p in mlp.parameters()]
        torch._foreach_mul_(ema, 0.9)
        torch._foreach_add_(ema, model_params, alpha=0.1)
diff = sum((e - p).abs().sum() for e, p in zip(ema, mlp.parameters()))
print("ema distance", round(diff.item(), 5), "norms", [round(n.item(), 4) for n in torch._foreach_norm(ema)])
