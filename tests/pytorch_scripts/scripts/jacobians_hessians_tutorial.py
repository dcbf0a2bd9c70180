"""pytorch.org's "Jacobians, Hessians, hvp, vhp, and more: composing function transforms" tutorial:
the predict(weight, bias, x) model, vjp row by row vs vmap(vjp) vs jacrev, jacfwd matching jacrev,
argnums for several Jacobians at once, batch Jacobians with vmap(jacrev) and by summing over the batch,
hessian vs jacfwd(jacrev), and hvp written with jvp(grad(f))."""
import torch
import torch.nn.functional as F
from functools import partial
from torch.func import grad, hessian, jacfwd, jacrev, jvp, vjp, vmap

_ = torch.manual_seed(0)


def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()


D = 16
weight = torch.randn(D, D)
bias = torch.randn(D)
x = torch.randn(D)
xp = x.clone().requires_grad_()
unit_vectors = torch.eye(D)


def compute_jac(xp):
    jacobian_rows = [torch.autograd.grad(predict(weight, bias, xp), xp, vec)[0] for vec in unit_vectors]
    return torch.stack(jacobian_rows)


jacobian = compute_jac(xp)
print(jacobian.shape)
print(jacobian[0])
_, vjp_fn = vjp(partial(predict, weight, bias), x)
ft_jacobian, = vmap(vjp_fn)(unit_vectors)
assert torch.allclose(ft_jacobian, jacobian)
ft_jacobian = jacrev(predict, argnums=2)(weight, bias, x)
assert torch.allclose(ft_jacobian, jacobian)
print(torch.allclose(ft_jacobian, jacobian))
jacfwd_jac = jacfwd(predict, argnums=2)(weight, bias, x)
print(torch.allclose(jacfwd_jac, jacobian, atol=1e-6))
ft_jac_weight, ft_jac_bias = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(ft_jac_weight.shape, ft_jac_bias.shape)
print(torch.allclose(ft_jac_bias, torch.diag(1 - predict(weight, bias, x) ** 2), atol=1e-6))

Din, Dout = 32, 8
weight = torch.randn(Dout, Din)
bias = torch.randn(Dout)
x = torch.randn(Din)
using_fwd = jacfwd(predict, argnums=2)(weight, bias, x)
using_bwd = jacrev(predict, argnums=2)(weight, bias, x)
print(f"jacfwd shape: {using_fwd.shape}, jacrev shape: {using_bwd.shape}")
print(torch.allclose(using_fwd, using_bwd, atol=1e-6))

hess_api = hessian(predict, argnums=2)(weight, bias, x)
hess_fwdfwd = jacfwd(jacfwd(predict, argnums=2), argnums=2)(weight, bias, x)
hess_revrev = jacrev(jacrev(predict, argnums=2), argnums=2)(weight, bias, x)
print(hess_api[0, :2, :3], hess_api.abs().sum() > 0)
print(hess_api.shape, torch.allclose(hess_api, hess_fwdfwd, atol=1e-5), torch.allclose(hess_api, hess_revrev, atol=1e-5))

batch_size = 64
Din = 31
Dout = 33
weight = torch.randn(Dout, Din)
bias = torch.randn(Dout)
x = torch.randn(batch_size, Din)
compute_batch_jacobian = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))
batch_jacobian0 = compute_batch_jacobian(weight, bias, x)
print(f"weight shape = {weight.shape}")
print(batch_jacobian0.shape)


def predict_with_output_summed(weight, bias, x):
    return predict(weight, bias, x).sum(0)


batch_jacobian1 = jacrev(predict_with_output_summed, argnums=2)(weight, bias, x).movedim(1, 0)
print(torch.allclose(batch_jacobian0, batch_jacobian1, atol=1e-6))
compute_batch_hessian = vmap(hessian(predict, argnums=2), in_dims=(None, None, 0))
batch_hess = compute_batch_hessian(weight, bias, x)
print(batch_hess.shape, batch_hess[3, 0, :2, :2])


def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]


def f(x):
    return x.sin().sum()


x = torch.randn(2048)
tangent = torch.randn(2048)
result = hvp(f, (x,), (tangent,))
print(result.shape, torch.allclose(result, -x.sin() * tangent))


def hvp_revrev(f, primals, tangents):
    _, vjp_fn = vjp(grad(f), *primals)
    return vjp_fn(*tangents)


print(torch.allclose(hvp_revrev(f, (x,), (tangent,))[0], result))
print(torch.autograd.functional.hvp(lambda v: (v ** 3).sum(), torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0])))
print(torch.autograd.functional.vhp(lambda v: (v ** 3).sum(), torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0])))
