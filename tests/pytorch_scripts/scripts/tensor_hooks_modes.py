"""Tensor-level autograd plumbing as debugging and research code uses it: register_hook on leaves
and intermediates that print, scale or replace gradients (and a removed handle), retain_grad, hooks
that see the gradient before accumulation, register_post_accumulate_grad_hook for an optimizer-in-
backward step, grad_fn.register_hook / register_prehook on graph nodes, walking next_functions,
gradient reversal (DANN) as an autograd.Function, and grad-mode nesting: no_grad inside enable_grad
inside no_grad, set_grad_enabled as a function and a context, inference_mode(False), decorated
functions and generators, requires_grad_ toggles and detach_."""
import torch
import torch.nn as nn

torch.manual_seed(0)
log = []
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
h = x * w
h.retain_grad()
h.register_hook(lambda g: log.append(("h", g.tolist())))
handle = x.register_hook(lambda g: g * 10)
w.register_hook(lambda g: log.append(("w", g.tolist())))
y = (h ** 2).sum()
y.backward()
print(log, x.grad.tolist(), h.grad.tolist())
handle.remove()
x.grad = None
(x * w).sum().backward()
print("after remove", x.grad.tolist(), w.grad.tolist())


def clip_hook(grad):
    return grad.clamp(-1, 1)


a = torch.randn(4, requires_grad=True)
a.register_hook(clip_hook)
(a * 5).sum().backward()
print("clipped", a.grad.tolist())
z = torch.ones(2, requires_grad=True)
z.register_hook(lambda g: None)  # returning None keeps the gradient
(z * 3).sum().backward()
print(z.grad.tolist())

# optimizer step inside backward
model = nn.Linear(3, 2)
optims = {p: torch.optim.SGD([p], lr=0.1) for p in model.parameters()}


def step_hook(p):
    optims[p].step()
    optims[p].zero_grad()


for p in model.parameters():
    p.register_post_accumulate_grad_hook(step_hook)
before = model.weight.detach().clone()
model(torch.ones(1, 3)).sum().backward()
print("stepped in backward", (model.weight - before).round(decimals=4).tolist(), model.weight.grad)

# node hooks
p = torch.tensor(2.0, requires_grad=True)
q = p.exp() * 3
seen = []
q.grad_fn.register_prehook(lambda grad_outputs: seen.append(("pre", [g.item() for g in grad_outputs])))
q.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(
    ("post", [None if g is None else round(g.item(), 4) for g in grad_inputs])))
q.backward()
print(seen, round(p.grad.item(), 4))


def walk(fn, depth=0):
    if fn is None:
        return
    print("  " * depth + type(fn).__name__)
    for nxt, _ in fn.next_functions:
        walk(nxt, depth + 1)


out = torch.sigmoid(model(torch.randn(2, 3)) * 2).mean()
walk(out.grad_fn)


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lambd):
        ctx.lambd = lambd
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.neg() * ctx.lambd, None


feat = torch.randn(3, requires_grad=True)
GradReverse.apply(feat, 0.3).sum().backward()
print("reversed", feat.grad.tolist())

# grad modes
with torch.no_grad():
    with torch.enable_grad():
        inner = x * 2
        with torch.no_grad():
            innermost = x * 2
    outer = x * 2
print(inner.requires_grad, innermost.requires_grad, outer.requires_grad)
torch.set_grad_enabled(False)
print("disabled", (x * 2).requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    print("ctx", (x * 2).requires_grad)
with torch.inference_mode():
    with torch.inference_mode(False):
        print("inference off", (x * 2).requires_grad, torch.is_inference_mode_enabled())
    print("inference on", (x * 2).requires_grad)


@torch.no_grad()
def gen():
    for i in range(2):
        yield (x * i).requires_grad, torch.is_grad_enabled()


print(list(gen()), torch.is_grad_enabled())


@torch.enable_grad()
def grad_inside():
    return (x * 2).requires_grad


with torch.no_grad():
    print("decorated enable_grad", grad_inside())
b = torch.zeros(2)
print(b.requires_grad_().requires_grad, b.requires_grad_(False).requires_grad)
c = (x * 2)
c.detach_()
print(c.requires_grad, c.grad_fn, c.is_leaf)
try:
    (x.detach() * 2).sum().backward()
except RuntimeError as e:
    print(e)
try:
    x.register_hook(lambda g: g)(None)
except TypeError as e:
    print(type(e).__name__)
