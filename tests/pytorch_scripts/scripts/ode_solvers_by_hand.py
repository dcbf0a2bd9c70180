"""ODE solvers written with tensors, as torchdiffeq-free notebooks and the "Neural ODEs from scratch"
posts do: explicit Euler, classical RK4, adaptive Dormand-Prince 5(4) with an error-controlled step
size, a batched solve with torch.stack over time, the adjoint sensitivity method by hand
(torch.autograd.grad of f with vector-Jacobian products integrated backwards) checked against
backpropagation through the solver, and fitting a spiral with a small neural ODE."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)


def euler(f, y0, t):
    ys = [y0]
    for i in range(len(t) - 1):
        ys.append(ys[-1] + (t[i + 1] - t[i]) * f(t[i], ys[-1]))
    return torch.stack(ys)


def rk4(f, y0, t):
    ys = [y0]
    for i in range(len(t) - 1):
        h = t[i + 1] - t[i]
        y = ys[-1]
        k1 = f(t[i], y)
        k2 = f(t[i] + h / 2, y + h / 2 * k1)
        k3 = f(t[i] + h / 2, y + h / 2 * k2)
        k4 = f(t[i] + h, y + h * k3)
        ys.append(y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4))
    return torch.stack(ys)


# Dormand-Prince tableau
C = [0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1, 1]
A = [[], [1 / 5], [3 / 40, 9 / 40], [44 / 45, -56 / 15, 32 / 9],
     [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729],
     [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656],
     [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84]]
B5 = torch.tensor([35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0], dtype=torch.float64)
B4 = torch.tensor([5179 / 57600, 0, 7571 / 16695, 393 / 640, -92097 / 339200, 187 / 2100, 1 / 40], dtype=torch.float64)


def dopri5(f, y0, t0, t1, rtol=1e-6, atol=1e-8, h=0.1):
    t, y = t0, y0
    n_accept = n_reject = 0
    while t < t1 - 1e-12:
        h = min(h, t1 - t)
        k = []
        for i in range(7):
            yi = y + h * sum(a * kj for a, kj in zip(A[i], k)) if i else y
            k.append(f(t + C[i] * h, yi))
        K = torch.stack(k)
        y5 = y + h * torch.tensordot(B5, K, dims=1)
        y4 = y + h * torch.tensordot(B4, K, dims=1)
        scale = atol + rtol * torch.maximum(y.abs(), y5.abs())
        err = torch.sqrt(torch.mean(((y5 - y4) / scale) ** 2)).item()
        if err <= 1:
            t, y = t + h, y5
            n_accept += 1
        else:
            n_reject += 1
        h = h * min(5.0, max(0.2, 0.9 * err ** -0.2 if err > 0 else 5.0))
    return y, n_accept, n_reject


def harmonic(t, y):
    return torch.stack([y[..., 1], -y[..., 0]], dim=-1)


y0 = torch.tensor([1.0, 0.0], dtype=torch.float64)
ts = torch.linspace(0, 2 * math.pi, 41, dtype=torch.float64)
exact = torch.stack([torch.cos(ts), -torch.sin(ts)], dim=1)
for name, solver in [("euler", euler), ("rk4", rk4)]:
    sol = solver(harmonic, y0, ts)
    print(name, sol.shape, f"max error {(sol - exact).abs().max().item():.3e}")
y_end, acc, rej = dopri5(harmonic, y0, 0.0, 2 * math.pi)
print(f"dopri5 error {(y_end - y0).abs().max().item():.2e} accepted {acc} rejected {rej}")

# batched initial conditions, stiff-ish linear system via matrix exponential for reference
M = torch.tensor([[-2.0, 1.0], [1.0, -3.0]], dtype=torch.float64)
Y0 = torch.randn(5, 2, dtype=torch.float64)
sol = rk4(lambda t, y: y @ M.T, Y0, torch.linspace(0, 1, 51, dtype=torch.float64))
ref = Y0 @ torch.linalg.matrix_exp(M).T
print("batched rk4", tuple(sol.shape), f"{(sol[-1] - ref).abs().max().item():.2e}")


class ODEFunc(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))
        for m in self.net.modules():
            if isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, mean=0, std=0.1)
                nn.init.constant_(m.bias, val=0)

    def forward(self, t, y):
        return self.net(y)


func = ODEFunc().double()
t_grid = torch.linspace(0, 1, 11, dtype=torch.float64)
z0 = torch.tensor([[0.5, -0.3]], dtype=torch.float64, requires_grad=True)

# backprop through the solver
zT = rk4(func, z0, t_grid)[-1]
loss = (zT ** 2).sum()
params = list(func.parameters())
bp_grads = torch.autograd.grad(loss, [z0] + params)


def adjoint_grads(func, z0, t_grid, dL_dzT):
    """Integrate z, a = dL/dz and dL/dtheta backwards with RK4 on the augmented state."""
    with torch.no_grad():
        zT = rk4(func, z0, t_grid)[-1]
    params = list(func.parameters())
    sizes = [p.numel() for p in params]

    def aug_dynamics(t, state):
        z, a = state[:, :2], state[:, 2:4]
        with torch.enable_grad():
            z = z.detach().requires_grad_(True)
            f = func(t, z)
            vjps = torch.autograd.grad(f, [z] + params, grad_outputs=a, allow_unused=True)
        flat = torch.cat([v.reshape(1, -1) for v in vjps[1:]], dim=1)
        return torch.cat([f, -vjps[0], -flat], dim=1)

    state = torch.cat([zT, dL_dzT, torch.zeros(1, sum(sizes), dtype=torch.float64)], dim=1)
    back = rk4(aug_dynamics, state, t_grid.flip(0))[-1]
    a0 = back[:, 2:4]
    theta_grads = back[0, 4:].split(sizes)
    return back[:, :2], a0, [g.view_as(p) for g, p in zip(theta_grads, params)]


z_back, a0, theta = adjoint_grads(func, z0.detach(), t_grid, 2 * zT.detach())
print("reconstructed z0", z_back.round(decimals=6).tolist())
print("dL/dz0 adjoint", a0.round(decimals=6).tolist(), "backprop", bp_grads[0].round(decimals=6).tolist())
print("dL/dtheta max diff", f"{max((g - b).abs().max().item() for g, b in zip(theta, bp_grads[1:])):.1e}")

# fit a spiral with a neural ODE trained through the solver
true_A = torch.tensor([[-0.1, 2.0], [-2.0, -0.1]], dtype=torch.float64)
t_obs = torch.linspace(0, 2, 21, dtype=torch.float64)
true_y = rk4(lambda t, y: y @ true_A.T, torch.tensor([[2.0, 0.0]], dtype=torch.float64), t_obs)
model = ODEFunc().double()
opt = torch.optim.RMSprop(model.parameters(), lr=1e-2)
for itr in range(40):
    opt.zero_grad()
    pred_y = rk4(model, true_y[0], t_obs)
    loss = torch.mean(torch.abs(pred_y - true_y))
    loss.backward()
    opt.step()
    if itr % 10 == 0:
        print("Iter {:04d} | Total Loss {:.6f}".format(itr, loss.item()))
print("final", round(loss.item(), 6), "pred end", pred_y[-1].detach().round(decimals=4).tolist())
