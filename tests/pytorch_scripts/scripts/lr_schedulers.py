"""Learning-rate schedules as fine-tuning code sets them up: per-group learning rates (backbone and head),
LambdaLR with one lambda per group, OneCycleLR with cycle_momentum over Adam's betas, three_phase and
linear annealing, CosineAnnealingWarmRestarts stepped with fractional epochs, SequentialLR and
ChainedScheduler, ReduceLROnPlateau in max mode with cooldown and min_lr, MultiStepLR/ExponentialLR,
get_last_lr, scheduler state_dict round trips and the 'step order' warning."""
import warnings
import torch
import torch.nn as nn
from torch.optim import lr_scheduler

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
backbone, head = model[0], model[2]


def make_opt(cls=torch.optim.SGD, **kw):
    return cls([{"params": backbone.parameters(), "lr": 1e-3}, {"params": head.parameters()}], lr=1e-2, **kw)


def run(sched, opt, n, metric=None):
    out = []
    for i in range(n):
        opt.step()
        if metric is None:
            sched.step()
        else:
            sched.step(metric(i))
        out.append([round(lr, 7) for lr in sched.get_last_lr()] if hasattr(sched, "get_last_lr") else [round(g["lr"], 7) for g in opt.param_groups])
    return out


opt = make_opt(momentum=0.9)
print([g["lr"] for g in opt.param_groups], [g["initial_lr"] for g in opt.param_groups] if "initial_lr" in opt.param_groups[0] else None)
sched = lr_scheduler.LambdaLR(opt, lr_lambda=[lambda e: 0.5 ** e, lambda e: 1.0 / (e + 1)])
print([g["initial_lr"] for g in opt.param_groups], sched.last_epoch, sched.base_lrs)
print(run(sched, opt, 3))

opt = make_opt(torch.optim.Adam, betas=(0.9, 0.999))
sched = lr_scheduler.OneCycleLR(opt, max_lr=[0.01, 0.1], total_steps=10, pct_start=0.3, div_factor=25.0, final_div_factor=1e4)
lrs, betas = [], []
for _ in range(10):
    opt.step()
    lrs.append(round(opt.param_groups[1]["lr"], 6))
    betas.append(round(opt.param_groups[1]["betas"][0], 4))
    sched.step() if len(lrs) < 10 else None
print(lrs)
print(betas, opt.param_groups[0]["max_lr"], opt.param_groups[0]["min_lr"])
opt = make_opt(momentum=0.9)
sched = lr_scheduler.OneCycleLR(opt, max_lr=0.1, epochs=2, steps_per_epoch=4, anneal_strategy="linear", three_phase=True)
print(run(sched, opt, 7))
print([round(g["momentum"], 4) for g in opt.param_groups])

opt = make_opt()
sched = lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=1e-4)
iters = 4
out = []
for epoch in range(3):
    for i in range(iters):
        opt.step()
        sched.step(epoch + i / iters)
        out.append(round(sched.get_last_lr()[1], 6))
print(out, sched.T_i, sched.T_cur)

opt = make_opt()
warm = lr_scheduler.LinearLR(opt, start_factor=0.1, end_factor=1.0, total_iters=3)
cos = lr_scheduler.CosineAnnealingLR(opt, T_max=5, eta_min=0.0)
sched = lr_scheduler.SequentialLR(opt, schedulers=[warm, cos], milestones=[3])
print(run(sched, opt, 8))
sd = sched.state_dict()
print(sorted(sd.keys()), sd["_milestones"], sd["last_epoch"])

opt = make_opt()
sched = lr_scheduler.ChainedScheduler([lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=2), lr_scheduler.ExponentialLR(opt, gamma=0.9)])
print(run(sched, opt, 4))

opt = make_opt()
sched = lr_scheduler.ReduceLROnPlateau(opt, mode="max", factor=0.5, patience=1, cooldown=1, min_lr=[1e-4, 2e-3], threshold=0.01)
accs = [0.5, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6]
print(run(sched, opt, 10, metric=lambda i: accs[i]))
print(sched.best, sched.num_bad_epochs, sched.cooldown_counter, sched.state_dict()["mode"])

opt = make_opt()
sched = lr_scheduler.MultiStepLR(opt, milestones=[2, 4], gamma=0.1)
print(run(sched, opt, 5))
state = sched.state_dict()
opt2 = make_opt()
sched2 = lr_scheduler.MultiStepLR(opt2, milestones=[9], gamma=0.5)
sched2.load_state_dict(state)
print(sched2.milestones, sched2.last_epoch, sched2.get_last_lr())
sched2.step()
print([g["lr"] for g in opt2.param_groups])

opt = make_opt()
sched = lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    sched.step()
    opt.step()
print(len(w), str(w[0].message)[:80] if w else None)
opt = make_opt()
sched = lr_scheduler.PolynomialLR(opt, total_iters=4, power=2.0)
print(run(sched, opt, 5))
opt = make_opt()
sched = lr_scheduler.CyclicLR(opt, base_lr=[1e-4, 1e-3], max_lr=[1e-3, 1e-2], step_size_up=2, mode="triangular2")
print(run(sched, opt, 9))
