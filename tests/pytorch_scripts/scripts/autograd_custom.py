import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


class MulAdd(Function):
    @staticmethod
    def forward(ctx, x, y, alpha=1.0):
        ctx.save_for_backward(x, y)
        ctx.alpha = alpha
        return x * y + alpha, x - y

    @staticmethod
    def backward(ctx, g1, g2):
        x, y = ctx.saved_tensors
        print("needs_input_grad", ctx.needs_input_grad)
        return g1 * y + g2, g1 * x - g2, None


class Clamp(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_non_differentiable
        mask = x > 0
        ctx.save_for_backward(mask)
        out = x.clamp(min=0)
        ctx.mark_non_differentiable(mask)
        return out, mask

    @staticmethod
    @once_differentiable
    def backward(ctx, g, _):
        mask, = ctx.saved_tensors
        return g * mask


class Exp(Function):
    @staticmethod
    def forward(x):
        return x.exp()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, g):
        out, = ctx.saved_tensors
        return g * out


x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = torch.tensor([0.5, 0.5, -1.0], requires_grad=True)
a, b = MulAdd.apply(x, y, 2.0)
print(a, b, type(a.grad_fn).__name__, a.grad_fn is b.grad_fn)
(a.sum() + (b * 2).sum()).backward()
print(x.grad, y.grad)
out, mask = Clamp.apply(x)
print(out, mask, mask.requires_grad, out.grad_fn.name())
out.sum().backward()
print(x.grad)
e = Exp.apply(torch.tensor([0.0, 1.0], requires_grad=True))
print(e, e.grad_fn.name())
print(torch.autograd.gradcheck(Exp.apply, (torch.tensor([0.1, 0.2], dtype=torch.double, requires_grad=True),)))
p = torch.tensor([1.0, 2.0], requires_grad=True)
q = torch.tensor([3.0], requires_grad=True)
r = (p ** 2).sum()
gp, gq = torch.autograd.grad(r, [p, q], allow_unused=True)
print(gp, gq)
try:
    torch.autograd.grad((p * 3).sum(), [p, q])
except RuntimeError as err:
    print("RuntimeError:", str(err).splitlines()[0])
v = p * 2
g, = torch.autograd.grad(v, p, grad_outputs=torch.tensor([1.0, 0.5]))
print(g)
s = (p * p).sum()
s.backward(inputs=[p])
print(p.grad)
h = p.register_hook(lambda grad: print("hook saw", grad) or grad * 0)
(p * 5).sum().backward()
print(p.grad)
h.remove()
w = torch.tensor([1.0, 2.0], requires_grad=True)
u = w * 2
u.register_hook(lambda grad: grad + 1)
u.sum().backward()
print(w.grad)
print(torch.autograd.grad(torch.tensor(2.0, requires_grad=True) ** 2, torch.tensor(2.0, requires_grad=True), allow_unused=True, materialize_grads=True))
with torch.autograd.set_detect_anomaly(True):
    z = (w * 3).sum()
    z.backward()
print(w.grad, torch.is_anomaly_enabled())
