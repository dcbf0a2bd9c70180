"""Autograd tricks from research code: straight-through estimators (sign, round, argmax one-hot via
y_hard - y_soft.detach() + y_soft), a gradient-reversal Function with ctx.needs_input_grad, a Function with
setup_context and generate_vmap_rule for vmap, set_materialize_grads(False), mark_dirty for an in-place
Function, once_differentiable, saved_tensors_hooks that pack to float16, grad_fn.next_functions traversal to
count nodes, retain_grad on intermediates, autograd.grad with is_grads_batched=True for a Jacobian, and
torch.autograd.graph.register_multi_grad_hook."""
import torch
import torch.nn.functional as F
from torch.autograd.function import once_differentiable

torch.manual_seed(43)


class SignSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sign()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * (x.abs() <= 1).to(grad_output.dtype)


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lambd, scale_too):
        ctx.lambd = lambd
        return x.view_as(x), scale_too * 1.0

    @staticmethod
    def backward(ctx, grad_output, grad_scale):
        print("needs_input_grad", ctx.needs_input_grad)
        return (grad_output.neg() * ctx.lambd if ctx.needs_input_grad[0] else None), None, None


class Cube(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x ** 3, 3 * x ** 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], output[1])

    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        return grad_output * dx + grad_dx * 6 * x


class MaybeNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.clone(), x.clone()

    @staticmethod
    def backward(ctx, g1, g2):
        print("materialize", g1 is None, g2 is None)
        grad = torch.zeros(3)
        if g1 is not None:
            grad = grad + g1
        if g2 is not None:
            grad = grad + 2 * g2
        return grad


class InplaceDouble(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        return grad_output * 2


x = torch.tensor([-1.5, -0.3, 0.2, 2.0], requires_grad=True)
y = SignSTE.apply(x)
y.sum().backward()
print("sign ste", y, x.grad)
x.grad = None
q = x + (torch.round(x * 2) / 2 - x).detach()
(q * torch.arange(4.0)).sum().backward()
print("round ste", q, x.grad)
logits = torch.tensor([[1.0, 2.0, 0.5]], requires_grad=True)
y_soft = F.softmax(logits / 0.5, dim=-1)
index = y_soft.max(-1, keepdim=True)[1]
y_hard = torch.zeros_like(logits).scatter_(-1, index, 1.0)
st = y_hard - y_soft.detach() + y_soft
(st * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print("argmax ste", st, logits.grad)

feat = torch.randn(3, requires_grad=True)
rev, sc = GradReverse.apply(feat, 0.5, 3.0)
(rev * 2).sum().backward()
print("reversal", feat.grad, sc)

z = torch.tensor([1.0, 2.0], requires_grad=True)
cube, d = Cube.apply(z)
(cube.sum() + d.sum()).backward()
print("setup_context", cube, d, z.grad, type(cube.grad_fn).__name__)
print("vmap of Function", torch.vmap(lambda t: Cube.apply(t)[0])(torch.arange(6.0).view(3, 2)))
print("jacrev of Function", torch.func.jacrev(lambda t: Cube.apply(t)[0])(torch.tensor([1.0, 2.0])))

w = torch.ones(3, requires_grad=True)
a, b = MaybeNone.apply(w)
a.sum().backward()
print("grad", w.grad)
v = torch.ones(3, requires_grad=True)
t = v * 1.0
out = InplaceDouble.apply(t)
(out * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print("mark_dirty", out, out is t, v.grad, type(out.grad_fn).__name__)

packed = []


def pack(tensor):
    packed.append(tensor.dtype)
    return tensor.to(torch.float16)


def unpack(tensor):
    return tensor.to(torch.float32)


p = torch.randn(4, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    r = (p.exp() * p.sin()).sum()
r.backward()
print("saved hooks", len(packed) > 0, set(packed), torch.allclose(p.grad, p.exp() * (p.sin() + p.cos()), atol=1e-2))

model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
out = model(torch.randn(2, 3)).sum()
seen, stack = {}, [out.grad_fn]
while stack:
    fn = stack.pop()
    if fn is None or id(fn) in seen:
        continue
    seen[id(fn)] = type(fn).__name__
    stack.extend(f for f, _ in fn.next_functions)
print("graph nodes", sorted(seen.values()))

h = torch.randn(2, 3, requires_grad=True)
mid = h.tanh()
mid.retain_grad()
mid.pow(2).sum().backward()
print("retain_grad", mid.grad.shape, torch.allclose(mid.grad, 2 * mid), mid.is_leaf, mid.requires_grad)

inp = torch.randn(3, requires_grad=True)
outp = torch.stack([inp.sum(), (inp ** 2).sum(), inp.prod()])
eye = torch.eye(3)
(jac,) = torch.autograd.grad(outp, inp, eye, is_grads_batched=True)
print("batched grads jacobian", jac)
print("check", torch.autograd.functional.jacobian(lambda t: torch.stack([t.sum(), (t ** 2).sum(), t.prod()]), inp.detach()))

calls = []
a1, a2 = torch.randn(2, requires_grad=True), torch.randn(2, requires_grad=True)
handle = torch.autograd.graph.register_multi_grad_hook((a1, a2), lambda grads: calls.append([g is not None for g in grads]))
(a1 * a2).sum().backward()
(a1 * 3).sum().backward()
handle.remove()
(a1 * 3).sum().backward()
print("multi grad hook", calls)
