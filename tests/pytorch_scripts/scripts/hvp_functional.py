"""Second-order tools as used in influence-function, sharpness and meta-learning code: Hessian-vector
products by double backward (Pearlmutter), torch.autograd.functional.hvp / vhp / hessian / jacobian
(create_graph, vectorize=True, strategy="forward-mode"), torch.func.jvp / hessian / jacfwd / jacrev /
vjp, conjugate gradient on H x = v, power iteration for the top Hessian eigenvalue of a small network, the
diagonal Fisher from per-sample gradients with vmap(grad), and model ensembling with stack_module_state."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd.functional import hessian, hvp, jacobian, vhp, jvp
from torch.func import functional_call, grad, jacfwd, jacrev, stack_module_state, vmap, vjp

torch.manual_seed(0)


def f(x):
    return (x ** 3).sum() + (x[0] * x[1]) ** 2


x = torch.tensor([1.0, 2.0, -1.0])
v = torch.tensor([1.0, 0.0, 1.0])
print("hvp", hvp(f, x, v), "\nvhp", vhp(f, x, v))
print("hessian\n", hessian(f, x))
print("hessian vectorized\n", hessian(f, x, vectorize=True, outer_jacobian_strategy="forward-mode").detach())
print("torch.func.hessian\n", torch.func.hessian(f)(x))


def g(a, b):
    return torch.stack([a.sin() * b, a * b.exp()]).sum(-1)


a, b = torch.tensor([0.5, 1.0]), torch.tensor([0.2, -0.3])
ja, jb = jacobian(g, (a, b))
print("jacobian", ja, jb, sep="\n")
print("jacobian vectorized", torch.allclose(jacobian(g, (a, b), vectorize=True)[0], ja),
      torch.allclose(jacobian(g, (a, b), vectorize=True, strategy="forward-mode")[1], jb))
print("jacfwd == jacrev", torch.allclose(jacfwd(g, argnums=(0, 1))(a, b)[1], jacrev(g, argnums=1)(a, b)))
out, tangent = torch.func.jvp(lambda z: z.sin() * z, (a,), (torch.ones(2),))
print("func.jvp", out, tangent)
out, tang = jvp(lambda z: z.sin() * z, a, torch.ones(2))
print("autograd.functional.jvp", tang)
out, vjp_fn = vjp(lambda z: z.exp().cumsum(0), a)
print("vjp", vjp_fn(torch.tensor([1.0, 1.0])))

model = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
X, y = torch.randn(32, 3), torch.randn(32, 1)
params = [p for p in model.parameters()]


def loss_fn():
    return F.mse_loss(model(X), y)


def hessian_vector(vecs):
    loss = loss_fn()
    grads = torch.autograd.grad(loss, params, create_graph=True)
    dot = sum((g_ * v_).sum() for g_, v_ in zip(grads, vecs))
    return torch.autograd.grad(dot, params)


vecs = [torch.randn_like(p) for p in params]
hv = hessian_vector(vecs)
print("Hv norms", [round(h.norm().item(), 5) for h in hv])
eig = None
for i in range(20):
    norm = torch.sqrt(sum((v_ ** 2).sum() for v_ in vecs))
    vecs = [v_ / norm for v_ in vecs]
    hv = hessian_vector(vecs)
    eig = sum((h * v_).sum() for h, v_ in zip(hv, vecs)).item()
    vecs = [h.detach() for h in hv]
print("top eigenvalue", round(eig, 5))

flat = torch.cat([p.detach().flatten() for p in params])
names = [n for n, _ in model.named_parameters()]
shapes = [p.shape for p in params]


def loss_of_flat(w):
    chunks = torch.split(w, [s.numel() for s in shapes])
    state = {n: c.view(s) for n, c, s in zip(names, chunks, shapes)}
    return F.mse_loss(functional_call(model, state, (X,)), y)


H = torch.autograd.functional.hessian(loss_of_flat, flat)
print("full hessian", H.shape, "symmetric", torch.allclose(H, H.T, atol=1e-5), "top eig", round(torch.linalg.eigvalsh(H)[-1].item(), 5))
rhs = torch.autograd.grad(loss_of_flat(flat.requires_grad_(True)), flat)[0]
flat = flat.detach()
damping = 0.1
A = H + damping * torch.eye(len(flat))
xk = torch.zeros_like(rhs)
r = rhs.clone()
p = r.clone()
for it in range(30):
    Ap = hvp(loss_of_flat, flat, p)[1] + damping * p
    alpha = (r @ r) / (p @ Ap)
    xk = xk + alpha * p
    r_new = r - alpha * Ap
    if r_new.norm() < 1e-6:
        break
    p = r_new + (r_new @ r_new) / (r @ r) * p
    r = r_new
print("cg iterations", it, "residual small", (A @ xk - rhs).norm().item() < 1e-3)

params_dict = {k: v_.detach() for k, v_ in model.named_parameters()}


def sample_loss(prm, xs, ys):
    return F.mse_loss(functional_call(model, prm, (xs.unsqueeze(0),)), ys.unsqueeze(0))


per_sample = vmap(grad(sample_loss), in_dims=(None, 0, 0))(params_dict, X, y)
fisher = {k: g_.pow(2).mean(0) for k, g_ in per_sample.items()}
print("fisher diag", {k: round(v_.sum().item(), 5) for k, v_ in fisher.items()})
print("mean per-sample grad == full grad", torch.allclose(per_sample["2.bias"].mean(0),
      torch.autograd.grad(loss_fn(), model[2].bias)[0], atol=1e-6))

models = [nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1)) for _ in range(4)]
stacked_params, stacked_buffers = stack_module_state(models)
base = copy.deepcopy(models[0])


def fmodel(prm, buf, xs):
    return functional_call(base, (prm, buf), (xs,))


ens = vmap(fmodel, in_dims=(0, 0, None))(stacked_params, stacked_buffers, X[:5])
print("ensemble", ens.shape, torch.allclose(ens[2], models[2](X[:5])), ens.squeeze(-1)[:, 0])
