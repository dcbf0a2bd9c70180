"""Optimizers people write themselves by subclassing torch.optim.Optimizer (lucidrains' Lion, LAMB, LARS,
AdaBelief), wrappers (Lookahead sharing param_groups, SAM's two-step closure with per-parameter e_w in
self.state), a custom LRScheduler subclass with get_lr and warmup + cosine, optimizer step pre/post hooks,
state_dict round trips of a custom optimizer, foreach and fused Adam on CPU against the default, and
load_state_dict refusing a mismatched group."""
import math
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim import Optimizer
from torch.optim.lr_scheduler import LRScheduler

torch.manual_seed(103)


class Lion(Optimizer):
    def __init__(self, params, lr=1e-4, betas=(0.9, 0.99), weight_decay=0.0):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        super().__init__(params, dict(lr=lr, betas=betas, weight_decay=weight_decay))

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in filter(lambda p: p.grad is not None, group["params"]):
                grad, lr, wd = p.grad, group["lr"], group["weight_decay"]
                beta1, beta2 = group["betas"]
                state = self.state[p]
                if len(state) == 0:
                    state["exp_avg"] = torch.zeros_like(p)
                exp_avg = state["exp_avg"]
                p.data.mul_(1 - lr * wd)
                update = exp_avg.clone().mul_(beta1).add(grad, alpha=1 - beta1).sign_()
                p.add_(update, alpha=-lr)
                exp_avg.mul_(beta2).add_(grad, alpha=1 - beta2)
        return loss


class Lamb(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-6, weight_decay=0.0):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = p.grad.data
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = 0
                    state["exp_avg"] = torch.zeros_like(p.data)
                    state["exp_avg_sq"] = torch.zeros_like(p.data)
                exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                beta1, beta2 = group["betas"]
                state["step"] += 1
                exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                adam_step = exp_avg / exp_avg_sq.sqrt().add(group["eps"])
                if group["weight_decay"] != 0:
                    adam_step.add_(p.data, alpha=group["weight_decay"])
                weight_norm = p.data.pow(2).sum().sqrt().clamp(0, 10)
                adam_norm = adam_step.pow(2).sum().sqrt()
                trust_ratio = 1.0 if weight_norm == 0 or adam_norm == 0 else (weight_norm / adam_norm).item()
                state["trust_ratio"] = trust_ratio
                p.data.add_(adam_step, alpha=-group["lr"] * trust_ratio)


class AdaBelief(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-16):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state["step"] = torch.tensor(0.0)
                    state["exp_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    state["exp_avg_var"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                state["step"] += 1
                step = state["step"].item()
                exp_avg, exp_avg_var = state["exp_avg"], state["exp_avg_var"]
                exp_avg.mul_(beta1).add_(p.grad, alpha=1 - beta1)
                grad_residual = p.grad - exp_avg
                exp_avg_var.mul_(beta2).addcmul_(grad_residual, grad_residual, value=1 - beta2).add_(group["eps"])
                denom = (exp_avg_var.sqrt() / math.sqrt(1 - beta2 ** step)).add_(group["eps"])
                p.addcdiv_(exp_avg, denom, value=-group["lr"] / (1 - beta1 ** step))


class Lookahead(Optimizer):
    def __init__(self, base_optimizer, alpha=0.5, k=3):
        self.base_optimizer, self.alpha, self.k = base_optimizer, alpha, k
        self.param_groups = base_optimizer.param_groups
        self.defaults = base_optimizer.defaults
        self.state = base_optimizer.state
        self._optimizer_step_pre_hooks = OrderedDict()
        self._optimizer_step_post_hooks = OrderedDict()
        self.slow = {p: p.detach().clone() for group in self.param_groups for p in group["params"]}
        self.counter = 0

    def step(self, closure=None):
        loss = self.base_optimizer.step(closure)
        self.counter += 1
        if self.counter % self.k == 0:
            with torch.no_grad():
                for group in self.param_groups:
                    for p in group["params"]:
                        slow = self.slow[p]
                        slow.add_(p - slow, alpha=self.alpha)
                        p.copy_(slow)
        return loss


class SAM(Optimizer):
    def __init__(self, params, base_optimizer, rho=0.05, **kwargs):
        defaults = dict(rho=rho, **kwargs)
        super().__init__(params, defaults)
        self.base_optimizer = base_optimizer(self.param_groups, **kwargs)
        self.param_groups = self.base_optimizer.param_groups

    @torch.no_grad()
    def first_step(self, zero_grad=False):
        grad_norm = torch.norm(torch.stack([p.grad.norm(p=2) for group in self.param_groups for p in group["params"] if p.grad is not None]), p=2)
        for group in self.param_groups:
            scale = group["rho"] / (grad_norm + 1e-12)
            for p in group["params"]:
                if p.grad is None:
                    continue
                self.state[p]["old_p"] = p.data.clone()
                p.add_(p.grad * scale.to(p))
        if zero_grad:
            self.zero_grad()
        return grad_norm

    @torch.no_grad()
    def second_step(self, zero_grad=False):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.data = self.state[p]["old_p"]
        self.base_optimizer.step()
        if zero_grad:
            self.zero_grad()


class WarmupCosine(LRScheduler):
    def __init__(self, optimizer, warmup, total, min_ratio=0.1, last_epoch=-1):
        self.warmup, self.total, self.min_ratio = warmup, total, min_ratio
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        step = self.last_epoch
        if step < self.warmup:
            factor = (step + 1) / self.warmup
        else:
            progress = (step - self.warmup) / max(1, self.total - self.warmup)
            factor = self.min_ratio + (1 - self.min_ratio) * 0.5 * (1 + math.cos(math.pi * min(progress, 1.0)))
        return [base_lr * factor for base_lr in self.base_lrs]


X = torch.randn(64, 6)
y = (X[:, :2].sum(1) > 0).long()


def train(make_opt, steps=25, sam=False):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 2))
    opt = make_opt(model.parameters())
    for _ in range(steps):
        if sam:
            F.cross_entropy(model(X), y).backward()
            opt.first_step(zero_grad=True)
            F.cross_entropy(model(X), y).backward()
            opt.second_step(zero_grad=True)
        else:
            opt.zero_grad()
            loss = F.cross_entropy(model(X), y)
            loss.backward()
            opt.step()
    return model, opt, F.cross_entropy(model(X), y).item()


for name, make, kw in [("Lion", lambda p: Lion(p, lr=3e-3, weight_decay=0.1), {}),
                       ("Lamb", lambda p: Lamb(p, lr=0.05, weight_decay=0.01), {}),
                       ("AdaBelief", lambda p: AdaBelief(p, lr=0.02), {}),
                       ("Lookahead(SGD)", lambda p: Lookahead(torch.optim.SGD(p, lr=0.5, momentum=0.9)), {}),
                       ("SAM(SGD)", lambda p: SAM(p, torch.optim.SGD, rho=0.05, lr=0.5), {"sam": True})]:
    model, opt, loss = train(make, **kw)
    print(f"{name:15s} loss {loss:.5f} state keys {sorted(next(iter(opt.state.values())).keys())}")
model, lamb, _ = train(lambda p: Lamb(p, lr=0.05))
print("lamb trust ratios", [round(s["trust_ratio"], 4) for s in lamb.state.values()])
sd = lamb.state_dict()
print("custom state_dict", sorted(sd.keys()), sorted(sd["state"].keys()), sd["param_groups"][0]["params"], sd["param_groups"][0]["betas"])
fresh = Lamb(model.parameters(), lr=0.05)
fresh.load_state_dict(sd)
print("loaded step", fresh.state[model[0].weight]["step"], torch.equal(fresh.state[model[0].weight]["exp_avg"], lamb.state[model[0].weight]["exp_avg"]))
try:
    Lamb([nn.Parameter(torch.zeros(2))]).load_state_dict(sd)
except ValueError as e:
    print("ValueError:", e)
try:
    Lion([nn.Parameter(torch.zeros(1))], lr=-1)
except ValueError as e:
    print("ValueError:", e)

calls = []
opt = torch.optim.SGD(model.parameters(), lr=0.1)
h1 = opt.register_step_pre_hook(lambda o, args, kwargs: calls.append("pre"))
h2 = opt.register_step_post_hook(lambda o, args, kwargs: calls.append("post"))
F.cross_entropy(model(X), y).backward()
opt.step()
h1.remove()
opt.step()
print("hooks", calls, len(opt._optimizer_step_post_hooks))

sched_opt = torch.optim.AdamW([{"params": model[0].parameters()}, {"params": model[2].parameters(), "lr": 1e-2}], lr=1e-3)
sched = WarmupCosine(sched_opt, warmup=3, total=10)
lrs = []
for step in range(12):
    lrs.append([round(g["lr"], 6) for g in sched_opt.param_groups])
    sched_opt.step()
    sched.step()
print("warmup cosine", lrs[:4], lrs[-2:], sched.get_last_lr(), sched.state_dict()["last_epoch"])

results = {}
for kw in ({}, {"foreach": True}, {"foreach": False}, {"fused": True}):
    torch.manual_seed(0)
    m = nn.Linear(6, 2)
    o = torch.optim.Adam(m.parameters(), lr=1e-2, weight_decay=1e-3, **kw)
    for _ in range(10):
        o.zero_grad()
        F.cross_entropy(m(X), y).backward()
        o.step()
    results[str(kw)] = m.weight.detach().clone()
ref = results["{}"]
print("adam variants agree", {k: (v - ref).abs().max().item() < 1e-6 for k, v in results.items()})
