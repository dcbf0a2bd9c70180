"""Custom autograd.Function features seen in public code: the setup_context style (forward without
ctx + setup_context) with generate_vmap_rule, ctx.set_materialize_grads(False) with None gradients,
once_differentiable, mark_non_differentiable for argmax-like outputs, mark_dirty for in-place ops,
ctx.needs_input_grad, save_for_backward of inputs and outputs, saved_tensors after backward
(the 'freed' error), non-tensor arguments and their None gradients, a straight-through estimator,
gradient reversal (DANN), and gradcheck in double precision."""
import torch
from torch.autograd import Function, gradcheck
from torch.autograd.function import once_differentiable

torch.manual_seed(0)


class MyCube(Function):
    @staticmethod
    def forward(x):
        result = x ** 3
        dx = 3 * x ** 2
        return result, dx

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)

    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        result = grad_output * dx + grad_dx * 6 * x
        return result

    generate_vmap_rule = True


def my_cube(x):
    result, dx = MyCube.apply(x)
    return result


x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
y = my_cube(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
gg, = torch.autograd.grad(g.sum(), x)
print(y, g, gg, y.grad_fn.name() if hasattr(y.grad_fn, "name") else type(y.grad_fn).__name__)
print(torch.func.vmap(my_cube)(torch.arange(4.0).view(2, 2)))
print(torch.func.grad(lambda t: my_cube(t).sum())(torch.tensor([2.0, 3.0])))


class SimpleFunc(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x.clone(), x.clone()

    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):
        x, = ctx.saved_tensors
        grad_input = torch.zeros_like(x)
        if g1 is not None:
            grad_input += g1
        if g2 is not None:
            grad_input += g2 * 2
        return grad_input


a = torch.tensor([1.0, 2.0], requires_grad=True)
o1, o2 = SimpleFunc.apply(a)
o1.sum().backward()
print(a.grad)
a.grad = None
o1, o2 = SimpleFunc.apply(a)
(o2 * 3).sum().backward()
print(a.grad)
o1, _ = SimpleFunc.apply(a)
g, = torch.autograd.grad(o1.sum(), a, create_graph=True)
print(g.requires_grad, g.grad_fn is not None)
try:
    g.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)


class SortWithIndices(Function):
    @staticmethod
    def forward(ctx, x):
        values, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return values, idx

    @staticmethod
    def backward(ctx, g, _):
        idx, = ctx.saved_tensors
        grad = torch.zeros_like(g)
        grad.scatter_(0, idx, g)
        return grad


v = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
vals, idx = SortWithIndices.apply(v)
print(vals.requires_grad, idx.requires_grad, idx)
(vals * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(v.grad)


class InplaceMul2(Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 2


base = torch.tensor([1.0, 2.0], requires_grad=True)
t = base.clone()
out = InplaceMul2.apply(t)
print(out is t, out, t.grad_fn.name() if hasattr(t.grad_fn, "name") else None)
out.sum().backward()
print(base.grad)


class ScaleBy(Function):
    @staticmethod
    def forward(ctx, x, w, factor, name):
        ctx.factor = factor
        ctx.save_for_backward(x, w)
        return x * w * factor

    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        gx = g * w * ctx.factor if ctx.needs_input_grad[0] else None
        gw = (g * x * ctx.factor).sum(0) if ctx.needs_input_grad[1] else None
        ScaleBy.last_needs = ctx.needs_input_grad
        return gx, gw, None, None


xs = torch.randn(4, 3, dtype=torch.double, requires_grad=True)
ws = torch.randn(3, dtype=torch.double, requires_grad=True)
out = ScaleBy.apply(xs, ws.detach(), 2.0, "scale")
out.sum().backward()
print(xs.grad[0], ScaleBy.last_needs)
print(gradcheck(lambda a, b: ScaleBy.apply(a, b, 0.5, "x"), (xs, ws), eps=1e-6, atol=1e-4))
print(ScaleBy.last_needs)
r = ScaleBy.apply(xs, ws, 1.0, "x")
r.sum().backward()
try:
    r.grad_fn.saved_tensors
except RuntimeError as e:
    print("RuntimeError:", str(e)[:90])


class STEBinarize(Function):
    @staticmethod
    def forward(ctx, input):
        return (input > 0).float()

    @staticmethod
    def backward(ctx, grad_output):
        return torch.nn.functional.hardtanh(grad_output)


class GradientReversal(Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.save_for_backward(x, alpha)
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        grad_input = None
        _, alpha = ctx.saved_tensors
        if ctx.needs_input_grad[0]:
            grad_input = - alpha * grad_output
        return grad_input, None


w = torch.tensor([-0.5, 0.2, 1.5], requires_grad=True)
(STEBinarize.apply(w) * torch.tensor([2.0, -3.0, 0.5])).sum().backward()
print(w.grad)
feat = torch.tensor([1.0, 2.0], requires_grad=True)
GradientReversal.apply(feat, torch.tensor(0.3)).pow(2).sum().backward()
print(feat.grad)
print(MyCube.apply(torch.tensor([2.0]))[1], isinstance(y.grad_fn, torch.autograd.function.BackwardCFunction))
