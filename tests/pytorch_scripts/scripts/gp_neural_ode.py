"""Scientific-ML code in plain torch, float64: exact Gaussian-process regression as the GPyTorch-free
tutorials write it (an RBF kernel from torch.cdist, hyperparameters through softplus, the Cholesky
factor with jitter from torch.linalg.cholesky, alpha by torch.cholesky_solve and by
torch.linalg.solve_triangular twice, the log marginal likelihood with log(diag(L)), predictive mean and
variance, hyperparameters fitted with Adam), a Bayesian linear regression with torch.linalg.solve and
slogdet, then a neural ODE with a hand-written RK4 integrator (torchdiffeq's spiral demo) trained
through the unrolled solver, and an Euler/RK4 error comparison."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)

train_x = torch.linspace(0, 1, 12).unsqueeze(-1)
train_y = torch.sin(train_x.squeeze(-1) * (2 * math.pi)) + 0.1 * torch.randn(12)
test_x = torch.linspace(0, 1, 5).unsqueeze(-1)


class ExactGP(nn.Module):
    def __init__(self):
        super().__init__()
        self.raw_lengthscale = nn.Parameter(torch.tensor(0.0))
        self.raw_outputscale = nn.Parameter(torch.tensor(0.0))
        self.raw_noise = nn.Parameter(torch.tensor(-2.0))

    @property
    def lengthscale(self):
        return F.softplus(self.raw_lengthscale)

    def kernel(self, a, b):
        dist = torch.cdist(a / self.lengthscale, b / self.lengthscale).pow(2)
        return F.softplus(self.raw_outputscale) * torch.exp(-0.5 * dist)

    def neg_mll(self, x, y):
        n = x.shape[0]
        K = self.kernel(x, x) + (F.softplus(self.raw_noise) + 1e-6) * torch.eye(n)
        L = torch.linalg.cholesky(K)
        alpha = torch.cholesky_solve(y.unsqueeze(-1), L)
        data_fit = 0.5 * (y.unsqueeze(-1) * alpha).sum()
        complexity = torch.log(torch.diagonal(L)).sum()
        return (data_fit + complexity + 0.5 * n * math.log(2 * math.pi)) / n

    def predict(self, x, y, xs):
        K = self.kernel(x, x) + F.softplus(self.raw_noise) * torch.eye(x.shape[0])
        L = torch.linalg.cholesky(K)
        Ks = self.kernel(x, xs)
        v = torch.linalg.solve_triangular(L, y.unsqueeze(-1), upper=False)
        alpha = torch.linalg.solve_triangular(L.T, v, upper=True)
        mean = (Ks.T @ alpha).squeeze(-1)
        w = torch.linalg.solve_triangular(L, Ks, upper=False)
        var = F.softplus(self.raw_outputscale) - (w * w).sum(0)
        return mean, var


gp = ExactGP()
optimizer = torch.optim.Adam(gp.parameters(), lr=0.1)
for i in range(30):
    optimizer.zero_grad()
    loss = gp.neg_mll(train_x, train_y)
    loss.backward()
    optimizer.step()
    if i % 10 == 0:
        print(f"iter {i} -mll {loss.item():.4f} lengthscale {gp.lengthscale.item():.4f}")
with torch.no_grad():
    mean, var = gp.predict(train_x, train_y, test_x)
print("mean", mean.round(decimals=3).tolist())
print("std", var.clamp_min(0).sqrt().round(decimals=3).tolist())
K = gp.kernel(train_x, train_x).detach() + 0.1 * torch.eye(12)
L = torch.linalg.cholesky(K)
print("chol ok", torch.allclose(L @ L.mT, K), L.grad_fn, torch.linalg.cholesky_ex(K).info.item())
sign, logdet = torch.linalg.slogdet(K)
print("logdet", sign.item(), round(logdet.item(), 4), round(2 * L.diagonal().log().sum().item(), 4))
try:
    torch.linalg.cholesky(-K)
except RuntimeError as e:
    print(type(e).__name__, str(e)[:70])

# Bayesian linear regression posterior
Phi = torch.stack([torch.ones(12), train_x.squeeze(-1), train_x.squeeze(-1) ** 2], dim=1)
A = Phi.T @ Phi / 0.1 + torch.eye(3)
mu = torch.linalg.solve(A, Phi.T @ train_y / 0.1)
print("posterior mean", mu.round(decimals=4).tolist(), torch.linalg.inv(A).diagonal().round(decimals=5).tolist())


# ---- neural ODE with RK4
def rk4_step(func, t, y, dt):
    k1 = func(t, y)
    k2 = func(t + dt / 2, y + dt * k1 / 2)
    k3 = func(t + dt / 2, y + dt * k2 / 2)
    k4 = func(t + dt, y + dt * k3)
    return y + dt * (k1 + 2 * k2 + 2 * k3 + k4) / 6


def odeint(func, y0, t, method="rk4"):
    ys = [y0]
    y = y0
    for t0, t1 in zip(t[:-1], t[1:]):
        dt = t1 - t0
        y = rk4_step(func, t0, y, dt) if method == "rk4" else y + dt * func(t0, y)
        ys.append(y)
    return torch.stack(ys)


true_A = torch.tensor([[-0.1, 2.0], [-2.0, -0.1]])


class Lambda(nn.Module):
    def forward(self, t, y):
        return torch.mm(y ** 3, true_A)


class ODEFunc(nn.Module):
    def __init__(self):
        super(ODEFunc, self).__init__()
        self.net = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))
        for m in self.net.modules():
            if isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, mean=0, std=0.1)
                nn.init.constant_(m.bias, val=0)

    def forward(self, t, y):
        return self.net(y ** 3)


true_y0 = torch.tensor([[2.0, 0.0]])
t = torch.linspace(0.0, 1.0, 11)
with torch.no_grad():
    true_y = odeint(Lambda(), true_y0, t)
    euler = odeint(Lambda(), true_y0, t, method="euler")
print("true_y", true_y.shape, true_y[-1].round(decimals=4).tolist(), "euler err",
      round((euler - true_y).abs().max().item(), 4))
func = ODEFunc()
optimizer = torch.optim.RMSprop(func.parameters(), lr=1e-2)
for itr in range(1, 6):
    optimizer.zero_grad()
    pred_y = odeint(func, true_y0, t)
    loss = torch.mean(torch.abs(pred_y - true_y))
    loss.backward()
    optimizer.step()
    print(f"Iter {itr:04d} | Total Loss {loss.item():.6f}")
print(pred_y.grad_fn.name(), pred_y.dtype, torch.get_default_dtype())
