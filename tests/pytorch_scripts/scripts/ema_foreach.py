"""Weight averaging and multi-tensor ops as modern training code writes them: an EMA of parameters
with torch.lerp_ (ema.lerp_(p, 1 - decay)), the same with torch._foreach_lerp_ / _foreach_mul_ +
_foreach_add_(alpha=...), warmup decay schedules (min(decay, (1 + n) / (10 + n))), buffers copied
with copy_, the EMA model swapped in for evaluation with state_dict round trips, _foreach_norm for
per-tensor gradient norms and torch.stack of them for clip_grad_norm_-style totals, _foreach_addcmul_ /
_foreach_addcdiv_ / _foreach_sqrt for a hand-written Adam matching torch.optim.Adam(foreach=False),
_foreach_maximum_, _foreach_zero_, torch.lerp with a tensor weight, and the errors for mismatched lists."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 2))
ema = copy.deepcopy(model).eval()
for p in ema.parameters():
    p.requires_grad_(False)
ema2 = copy.deepcopy(ema)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(16, 4), torch.randint(0, 2, (16,))
num_updates = 0
for step in range(5):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    num_updates += 1
    decay = min(0.99, (1 + num_updates) / (10 + num_updates))
    with torch.no_grad():
        for e, p in zip(ema.parameters(), model.parameters()):
            e.lerp_(p, 1.0 - decay)
        for e, b in zip(ema.buffers(), model.buffers()):
            e.copy_(b)
        e_params = list(ema2.parameters())
        m_params = list(model.parameters())
        torch._foreach_mul_(e_params, decay)
        torch._foreach_add_(e_params, m_params, alpha=1.0 - decay)
        for e, b in zip(ema2.buffers(), model.buffers()):
            e.copy_(b)
    print(f"step {step} loss {loss.item():.4f} decay {decay:.4f}")
print("lerp == mul/add:", all(torch.allclose(a, b, atol=1e-6) for a, b in zip(ema.parameters(), ema2.parameters())))
e3 = [p.detach().clone() for p in ema.parameters()]
torch._foreach_lerp_(e3, [p.detach() for p in model.parameters()], 0.5)
print("foreach_lerp", torch.allclose(e3[0], (ema[0].weight + model[0].weight.detach()) / 2, atol=1e-6))
print("ema bn buffers", torch.equal(ema[1].running_mean, model[1].running_mean), ema[1].num_batches_tracked.item())
sd = ema.state_dict()
restored = copy.deepcopy(model)
restored.load_state_dict(sd)
restored.eval()
with torch.no_grad():
    print("ema eval", torch.allclose(restored(x), ema(x)), ema(x).argmax(1).tolist())

loss = F.cross_entropy(model(x), y)
opt.zero_grad()
loss.backward()
grads = [p.grad for p in model.parameters()]
norms = torch._foreach_norm(grads)
total = torch.linalg.vector_norm(torch.stack(norms), 2)
ref = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1e9)
print("foreach_norm", len(norms), norms[0].shape, torch.allclose(total, ref), [round(n.item(), 4) for n in norms[:2]])
print("inf norms", [round(n.item(), 4) for n in torch._foreach_norm(grads, ord=float("inf"))[:2]])

params = [torch.randn(3, requires_grad=True), torch.randn(2, 2, requires_grad=True)]
ref_params = [p.detach().clone().requires_grad_() for p in params]
ref_opt = torch.optim.Adam(ref_params, lr=0.01, foreach=False)
exp_avg = [torch.zeros_like(p) for p in params]
exp_avg_sq = [torch.zeros_like(p) for p in params]
beta1, beta2, lr, eps = 0.9, 0.999, 0.01, 1e-8
for step in range(1, 4):
    for ps in (params, ref_params):
        for p in ps:
            p.grad = None
        (ps[0].pow(2).sum() + ps[1].sin().sum()).backward()
    ref_opt.step()
    with torch.no_grad():
        g = [p.grad for p in params]
        torch._foreach_mul_(exp_avg, beta1)
        torch._foreach_add_(exp_avg, g, alpha=1 - beta1)
        torch._foreach_mul_(exp_avg_sq, beta2)
        torch._foreach_addcmul_(exp_avg_sq, g, g, 1 - beta2)
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        denom = torch._foreach_sqrt(exp_avg_sq)
        torch._foreach_div_(denom, bias_correction2 ** 0.5)
        torch._foreach_add_(denom, eps)
        torch._foreach_addcdiv_(params, exp_avg, denom, -lr / bias_correction1)
print("foreach adam == Adam:", all(torch.allclose(a, b, atol=1e-6) for a, b in zip(params, ref_params)))
a = [torch.tensor([1.0, -2.0]), torch.tensor([3.0])]
torch._foreach_maximum_(a, [torch.tensor([0.0, 0.0]), torch.tensor([5.0])])
print("maximum_", [t.tolist() for t in a])
torch._foreach_zero_(a)
print("zero_", [t.tolist() for t in a], [t.tolist() for t in torch._foreach_add([torch.ones(2)], 2.0)])
print("lerp tensor weight", torch.lerp(torch.zeros(3), torch.ones(3), torch.tensor([0.0, 0.5, 1.0])).tolist(),
      torch.zeros(2).lerp(torch.full((2,), 10.0), 0.3).tolist())
try:
    torch._foreach_add_([torch.zeros(2), torch.zeros(3)], [torch.ones(2)])
except RuntimeError as e:
    print("RuntimeError:", e)
