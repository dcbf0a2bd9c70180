"""Hamiltonian neural networks and neural ODEs written without torchdiffeq (as in the HNN paper's code
and blog posts): a fixed-step RK4 and Euler solver over a module, dynamics from autograd.grad of a learned
Hamiltonian with create_graph=True (symplectic gradient via a permutation matrix), a leapfrog integrator,
energy drift, and training on a spring (q' = p, p' = -q) by matching time derivatives."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)


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


class HNN(nn.Module):
    def __init__(self, input_dim=2, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(input_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
                                 nn.Linear(hidden, 1, bias=False))
        M = torch.eye(input_dim)
        self.register_buffer("M", torch.cat([M[input_dim // 2:], -M[:input_dim // 2]]))

    def hamiltonian(self, x):
        return self.net(x)

    def time_derivative(self, x):
        with torch.enable_grad():
            if not x.requires_grad:
                x = x.requires_grad_(True)
            H = self.hamiltonian(x).sum()
            dH = torch.autograd.grad(H, x, create_graph=True)[0]
        return dH @ self.M.t()

    def forward(self, t, x):
        return self.time_derivative(x)


class ODEFunc(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 2))
        self.nfe = 0

    def forward(self, t, y):
        self.nfe += 1
        return self.net(y)


def spring(t, y):
    q, p = y[..., :1], y[..., 1:]
    return torch.cat([p, -q], -1)


def leapfrog(grad_H, q, p, dt, steps):
    trajectory = []
    for _ in range(steps):
        p = p - 0.5 * dt * grad_H(q)
        q = q + dt * p
        p = p - 0.5 * dt * grad_H(q)
        trajectory.append(torch.cat([q, p], -1))
    return torch.stack(trajectory)


t = torch.linspace(0, 6.28, 33)
y0 = torch.tensor([[1.0, 0.0], [0.5, 0.5]])
true = odeint(spring, y0, t)
euler = odeint(spring, y0, t, method="euler")
print("rk4 end", true[-1], "euler end", euler[-1])
print("energy rk4", (0.5 * true.pow(2).sum(-1))[-1], "euler", (0.5 * euler.pow(2).sum(-1))[-1])
lf = leapfrog(lambda q: q, y0[:, :1], y0[:, 1:], 6.28 / 32, 32)
print("leapfrog energy", (0.5 * lf.pow(2).sum(-1))[-1])

x = torch.rand(128, 2) * 4 - 2
dxdt = spring(0, x)
hnn = HNN()
baseline = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 2))
opt = torch.optim.Adam(hnn.parameters(), lr=1e-2)
opt_b = torch.optim.Adam(baseline.parameters(), lr=1e-2)
for step in range(90):
    loss = (hnn.time_derivative(x) - dxdt).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    loss_b = (baseline(x) - dxdt).pow(2).mean()
    opt_b.zero_grad()
    loss_b.backward()
    opt_b.step()
    if step % 30 == 29:
        print(f"step {step + 1} hnn {loss.item():.6f} baseline {loss_b.item():.6f}")
with torch.no_grad():
    pred = odeint(hnn, y0, t)
    pred_b = odeint(lambda t, y: baseline(y), y0, t)
H_true = 0.5 * pred.pow(2).sum(-1)
print("hnn energy drift", (H_true[-1] - H_true[0]), "baseline drift", 0.5 * pred_b[-1].pow(2).sum(-1) - 0.5 * pred_b[0].pow(2).sum(-1))
print("hnn learned H", hnn.hamiltonian(y0).detach().squeeze(-1))

func = ODEFunc()
opt = torch.optim.RMSprop(func.parameters(), lr=1e-3)
t_short = t[:9]
batch_y0, batch_y = true[0], true[:9]
for itr in range(60):
    pred_y = odeint(func, batch_y0, t_short)
    loss = torch.mean(torch.abs(pred_y - batch_y))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if itr % 20 == 19:
        print(f"neural ode iter {itr + 1} loss {loss.item():.6f} nfe {func.nfe}")
torch.set_default_dtype(torch.float32)
