"""Optimizer plumbing as research code writes it: a custom Optimizer subclass (lucidrains' Lion with
@torch.no_grad step, closure, self.state per parameter, lerp_ / sign_), add_param_group for unfreezing
a backbone mid-training, optimizer hooks (register_step_pre_hook / register_step_post_hook),
state_dict()['state'] / ['param_groups'] inspection and load_state_dict into a fresh optimizer,
zero_grad(set_to_none=False), clip_grad_norm_ with foreach and error_if_nonfinite, clip_grad_value_,
and the manual total-norm computation people log."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.optimizer import Optimizer

torch.manual_seed(0)


def exists(val):
    return val is not None


class Lion(Optimizer):
    def __init__(self, params, lr: float = 1e-4, betas=(0.9, 0.99), weight_decay: float = 0.0):
        assert lr > 0.
        assert all([0. <= beta <= 1. for beta in betas])
        defaults = dict(lr=lr, betas=betas, weight_decay=weight_decay)
        super().__init__(params, defaults)

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if exists(closure):
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in filter(lambda p: exists(p.grad), group['params']):
                grad, lr, wd, beta1, beta2, state = p.grad, group['lr'], group['weight_decay'], *group['betas'], self.state[p]
                if len(state) == 0:
                    state['exp_avg'] = torch.zeros_like(p)
                exp_avg = state['exp_avg']
                p.data.mul_(1. - lr * wd)
                update = exp_avg.clone().mul_(beta1).add(grad, alpha=1. - beta1).sign_()
                p.add_(update, alpha=-lr)
                exp_avg.mul_(beta2).add_(grad, alpha=1. - beta2)
        return loss


backbone = nn.Sequential(nn.Linear(4, 8), nn.Tanh())
head = nn.Linear(8, 1)
for p in backbone.parameters():
    p.requires_grad = False
opt = Lion(head.parameters(), lr=1e-2, weight_decay=0.1)
print(opt, len(opt.param_groups))
x, y = torch.randn(16, 4), torch.randn(16, 1)


def closure():
    opt.zero_grad()
    loss = F.mse_loss(head(backbone(x)), y)
    loss.backward()
    return loss


for step in range(3):
    print(step, round(opt.step(closure).item(), 5))
for p in backbone.parameters():
    p.requires_grad = True
opt.add_param_group({"params": backbone.parameters(), "lr": 1e-3})
print(len(opt.param_groups), opt.param_groups[1]["lr"], opt.param_groups[1]["betas"], opt.param_groups[1]["weight_decay"])
calls = []
pre = opt.register_step_pre_hook(lambda o, args, kwargs: calls.append(("pre", len(o.param_groups))))
post = opt.register_step_post_hook(lambda o, args, kwargs: calls.append("post"))
for step in range(2):
    loss = opt.step(closure)
print(round(loss.item(), 5), calls)
pre.remove()
post.remove()
sd = opt.state_dict()
print(sorted(sd.keys()), list(sd["state"].keys()), sd["param_groups"][1]["params"], sorted(sd["state"][0].keys()))
opt2 = Lion(list(head.parameters()), lr=1.0)
opt2.add_param_group({"params": list(backbone.parameters())})
opt2.load_state_dict(sd)
print(opt2.param_groups[0]["lr"], torch.equal(opt2.state[head.weight]["exp_avg"], opt.state[head.weight]["exp_avg"]))

model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
adam = torch.optim.Adam(model.parameters(), lr=1e-3)
F.mse_loss(model(x), y).backward()
adam.step()
adam.zero_grad(set_to_none=False)
print(model[0].weight.grad.abs().sum().item(), adam.state_dict()["state"][0]["step"], sorted(adam.state_dict()["state"][0]))
(F.mse_loss(model(x), y) * 100).backward()
total_norm = 0.0
for p in model.parameters():
    param_norm = p.grad.detach().data.norm(2)
    total_norm += param_norm.item() ** 2
total_norm = total_norm ** 0.5
norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0, foreach=True)
print(round(total_norm, 4), norm, torch.stack([p.grad.norm() for p in model.parameters()]).norm())
print(nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5, norm_type="inf"))
nn.utils.clip_grad_value_(model.parameters(), clip_value=0.01)
print(max(p.grad.abs().max().item() for p in model.parameters()))
model[0].weight.grad[0, 0] = float("nan")
try:
    nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:80])
print(nn.utils.clip_grad_norm_(model.parameters(), 1.0))
print(nn.utils.parameters_to_vector(model.parameters()).shape, nn.utils.clip_grad_norm_([], 1.0))
