"""pytorch.org's "Double Backward with Custom Functions" and "Extending torch.func with
autograd.Function" tutorials, plus the module-registration hooks libraries use to count or wrap
parameters as they are created: custom Functions whose backward is itself differentiable (saving
inputs vs outputs vs intermediate results), gradcheck / gradgradcheck, the printed grad_fn of custom
nodes, setup_context + vmap staticmethods, and register_module_parameter_registration_hook /
buffer / module registration hooks."""
import torch
from torch.nn.modules import module as module_hooks

torch.manual_seed(0)


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return grad_out * 2 * x


x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print("Square gradcheck", torch.autograd.gradcheck(Square.apply, x), torch.autograd.gradgradcheck(Square.apply, x))
out = Square.apply(x)
grad_x, = torch.autograd.grad(out.sum(), x, create_graph=True)
print("first", grad_x.grad_fn, type(out.grad_fn).__name__)
print("next", grad_x.grad_fn.next_functions)


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = torch.exp(x)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_out):
        result, = ctx.saved_tensors
        return result * grad_out


x = torch.tensor(1., requires_grad=True, dtype=torch.double).clone()
print("Exp gradcheck", torch.autograd.gradcheck(Exp.apply, x), torch.autograd.gradgradcheck(Exp.apply, x))
y = Exp.apply(x)
print(y, y.grad_fn.name())


def sinh(x):
    return x.exp().sub(x.neg().exp()).div(2)


class SinhBad(torch.autograd.Function):
    # intermediate results saved without being outputs: the double backward does not see them
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.expx = expx
        ctx.expnegx = expnegx
        return (expx - expnegx) / 2

    @staticmethod
    def backward(ctx, grad_out):
        expx = ctx.expx
        expnegx = ctx.expnegx
        grad_input = grad_out * (expx + expnegx) / 2
        return grad_input


class Sinh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.save_for_backward(expx, expnegx)
        return (expx - expnegx) / 2, expx, expnegx

    @staticmethod
    def backward(ctx, grad_out, _grad_out_exp, _grad_out_negexp):
        expx, expnegx = ctx.saved_tensors
        grad_input = grad_out * (expx + expnegx) / 2
        grad_input += _grad_out_exp * expx
        grad_input -= _grad_out_negexp * expnegx
        return grad_input


def my_sinh(x):
    return Sinh.apply(x)[0]


x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print("Sinh gradcheck", torch.autograd.gradcheck(my_sinh, x), torch.autograd.gradgradcheck(my_sinh, x))
g1, = torch.autograd.grad(my_sinh(x).sum(), x, create_graph=True)
g2, = torch.autograd.grad(g1.sum(), x)
print("sinh'' == sinh", torch.allclose(g2, sinh(x)))
xb = torch.rand(2, requires_grad=True, dtype=torch.double)
gb, = torch.autograd.grad(SinhBad.apply(xb).sum(), xb, create_graph=True)
print("bad first derivative still right", torch.allclose(gb, torch.cosh(xb)), "but no graph:", gb.requires_grad)
try:
    torch.autograd.gradgradcheck(SinhBad.apply, xb, raise_exception=True)
except RuntimeError as e:
    print("gradgradcheck RuntimeError:", str(e).splitlines()[0])


class NumpySort(torch.autograd.Function):
    @staticmethod
    def forward(x, dim):
        device = x.device
        x = x.cpu().numpy()
        ind = x.argsort(axis=dim)
        import numpy as np
        ind_inv = np.argsort(ind, axis=dim)
        result = np.take_along_axis(x, ind, axis=dim)
        return (torch.tensor(result, device=device), torch.tensor(ind, device=device),
                torch.tensor(ind_inv, device=device))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim = inputs
        _, ind, ind_inv = output
        ctx.mark_non_differentiable(ind, ind_inv)
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim

    @staticmethod
    def backward(ctx, grad_output, _0, _1):
        ind, ind_inv = ctx.saved_tensors
        return NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim), None

    @staticmethod
    def vmap(info, in_dims, x, dim):
        x_bdim, _ = in_dims
        x = x.movedim(x_bdim, 0)
        dim = dim if dim >= 0 else dim + x.dim() - 1
        result = NumpySort.apply(x, dim + 1)
        return NumpySort.apply(x, dim + 1), (0, 0, 0)


class NumpyTake(torch.autograd.Function):
    @staticmethod
    def forward(x, ind, ind_inv, dim):
        import numpy as np
        device = x.device
        x = x.cpu().numpy()
        ind = ind.cpu().numpy()
        return torch.tensor(np.take_along_axis(x, ind, dim), device=device)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ind, ind_inv, dim = inputs
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim

    @staticmethod
    def backward(ctx, grad_output):
        ind, ind_inv = ctx.saved_tensors
        result = NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim)
        return result, None, None, None

    @staticmethod
    def vmap(info, in_dims, x, ind, ind_inv, dim):
        x_bdim, ind_bdim, ind_inv_bdim, _ = in_dims
        logical_dim = x.dim() if x_bdim is None else x_bdim - 1
        dim = dim if dim >= 0 else dim + logical_dim

        def maybe_expand_bdim_at_front(x, x_bdim):
            if x_bdim is None:
                return x.expand(info.batch_size, *x.shape)
            return x.movedim(x_bdim, 0)

        x = maybe_expand_bdim_at_front(x, x_bdim)
        ind = maybe_expand_bdim_at_front(ind, ind_bdim)
        ind_inv = maybe_expand_bdim_at_front(ind_inv, ind_inv_bdim)
        return NumpyTake.apply(x, ind, ind_inv, dim + 1), 0


x = torch.randn(2, 3, requires_grad=True)
result, ind, ind_inv = NumpySort.apply(x, 1)
print("sorted", result.detach().round(decimals=4).tolist(), ind.tolist(), ind.requires_grad, result.grad_fn)
grad_x = torch.func.grad(lambda x: NumpySort.apply(x, 1)[0].sum())(x)
print("func.grad", grad_x.tolist())
batched = torch.vmap(lambda x: NumpySort.apply(x, 0)[0])(x)
print("vmap", torch.equal(batched, x.sort(dim=1).values))
ggrad = torch.func.grad(lambda x: (NumpySort.apply(x, 1)[0] ** 2).sum())(x)
print("grad of square", torch.allclose(ggrad, 2 * x))

# global registration hooks: count and wrap parameters as modules are built
created = []
handles = [
    module_hooks.register_module_parameter_registration_hook(
        lambda module, name, param: created.append((type(module).__name__, name, type(param).__name__))),
    module_hooks.register_module_buffer_registration_hook(
        lambda module, name, buffer: created.append((type(module).__name__, name, None if buffer is None else buffer.dtype))),
    module_hooks.register_module_module_registration_hook(
        lambda module, name, sub: created.append((type(module).__name__, name, type(sub).__name__))),
]
net = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.BatchNorm2d(2), torch.nn.Flatten(), torch.nn.Linear(8, 4))
for entry in created:
    print("registered", entry)
for h in handles:
    h.remove()
created.clear()
torch.nn.Linear(2, 2)
print("after removal", created)
