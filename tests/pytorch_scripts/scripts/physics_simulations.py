"""Small physics simulations written with tensors, as in computational-physics course notebooks:
the 2-D Ising model with checkerboard Metropolis updates (torch.roll neighbours, masks), Conway's
Game of Life as a conv2d with a circular pad, the heat equation by explicit finite differences and
by torch.linalg.solve for the implicit step, an N-body leapfrog integrator with pairwise forces by
broadcasting, and a damped spring solved with torch.linalg.matrix_exp."""
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)

# Ising model
L = 16
spins = torch.where(torch.rand(L, L) < 0.5, -1.0, 1.0)
checker = ((torch.arange(L).view(-1, 1) + torch.arange(L)) % 2).bool()


def neighbours(s):
    return s.roll(1, 0) + s.roll(-1, 0) + s.roll(1, 1) + s.roll(-1, 1)


def energy(s, J=1.0):
    return -J * (s * (s.roll(1, 0) + s.roll(1, 1))).sum()


for beta in (0.2, 0.6):
    s = spins.clone()
    for sweep in range(30):
        for color in (checker, ~checker):
            dE = 2 * s * neighbours(s)
            accept = (torch.rand(L, L) < torch.exp(-beta * dE)) & color
            s = torch.where(accept, -s, s)
    print(f"ising beta={beta}: |m|={s.mean().abs().item():.4f} E/N={energy(s).item() / L ** 2:.4f}")

# Game of life with a glider on a torus
board = torch.zeros(1, 1, 12, 12)
board[0, 0, 1, 2] = board[0, 0, 2, 3] = board[0, 0, 3, 1] = board[0, 0, 3, 2] = board[0, 0, 3, 3] = 1
kernel = torch.ones(1, 1, 3, 3)
kernel[0, 0, 1, 1] = 0
for gen in range(8):
    n = F.conv2d(F.pad(board, (1, 1, 1, 1), mode="circular"), kernel)
    board = ((n == 3) | ((board == 1) & (n == 2))).float()
alive = torch.nonzero(board[0, 0]).tolist()
print("glider after 8 generations", alive, "population", int(board.sum()))

# heat equation u_t = a u_xx on [0, 1], u = 0 at both ends
nx, a = 21, 1.0
x = torch.linspace(0, 1, nx, dtype=torch.float64)
dx = x[1] - x[0]
u0 = torch.sin(math.pi * x) + 0.5 * torch.sin(3 * math.pi * x)
dt = 0.4 * dx ** 2 / a
u = u0.clone()
steps = 50
for _ in range(steps):
    u[1:-1] = u[1:-1] + a * dt / dx ** 2 * (u[2:] - 2 * u[1:-1] + u[:-2])
t = steps * dt
exact = torch.exp(-math.pi ** 2 * t) * torch.sin(math.pi * x) + 0.5 * torch.exp(-9 * math.pi ** 2 * t) * torch.sin(3 * math.pi * x)
print(f"explicit t={t.item():.5f} max err {(u - exact).abs().max().item():.2e}")
r = (a * dt / dx ** 2).item()
A = torch.eye(nx - 2, dtype=torch.float64) * (1 + 2 * r) - r * (torch.diag(torch.ones(nx - 3, dtype=torch.float64), 1)
                                                                 + torch.diag(torch.ones(nx - 3, dtype=torch.float64), -1))
ui = u0[1:-1].clone()
for _ in range(steps):
    ui = torch.linalg.solve(A, ui)
print(f"implicit max err {(ui - exact[1:-1]).abs().max().item():.2e}", "tridiagonal", A.diagonal(1).unique().tolist())

# N-body leapfrog
n_bodies = 5
pos = torch.randn(n_bodies, 2, dtype=torch.float64)
vel = torch.randn(n_bodies, 2, dtype=torch.float64) * 0.1
mass = torch.rand(n_bodies, dtype=torch.float64) + 0.5
G, soft = 1.0, 0.1


def accelerations(pos):
    diff = pos.unsqueeze(0) - pos.unsqueeze(1)  # r_j - r_i
    dist3 = (diff.pow(2).sum(-1) + soft ** 2).pow(1.5)
    return G * (mass.view(1, -1, 1) * diff / dist3.unsqueeze(-1)).sum(1)


def total_energy(pos, vel):
    kinetic = 0.5 * (mass * vel.pow(2).sum(1)).sum()
    d = torch.cdist(pos, pos)
    iu = torch.triu_indices(n_bodies, n_bodies, 1)
    potential = -(G * mass[iu[0]] * mass[iu[1]] / torch.sqrt(d[iu[0], iu[1]] ** 2 + soft ** 2)).sum()
    return kinetic + potential


E0 = total_energy(pos, vel)
p0 = (mass.unsqueeze(1) * vel).sum(0)
dt = 0.01
acc = accelerations(pos)
for _ in range(200):
    vel += 0.5 * dt * acc
    pos += dt * vel
    acc = accelerations(pos)
    vel += 0.5 * dt * acc
print("nbody energy drift", f"{((total_energy(pos, vel) - E0) / E0).abs().item():.2e}",
      "momentum change", f"{((mass.unsqueeze(1) * vel).sum(0) - p0).abs().max().item():.1e}")
print("centre of mass", ((mass.unsqueeze(1) * pos).sum(0) / mass.sum()).round(decimals=4).tolist())

# damped harmonic oscillator x'' + 2 zeta w x' + w^2 x = 0 via the matrix exponential
w, zeta = 2.0, 0.1
M = torch.tensor([[0.0, 1.0], [-w ** 2, -2 * zeta * w]], dtype=torch.float64)
state0 = torch.tensor([1.0, 0.0], dtype=torch.float64)
ts = torch.linspace(0, 5, 6, dtype=torch.float64)
traj = torch.stack([torch.linalg.matrix_exp(M * t) @ state0 for t in ts])
wd = w * math.sqrt(1 - zeta ** 2)
analytic = torch.exp(-zeta * w * ts) * (torch.cos(wd * ts) + zeta * w / wd * torch.sin(wd * ts))
print("oscillator", traj[:, 0].round(decimals=5).tolist(), torch.allclose(traj[:, 0], analytic))
batch = torch.linalg.matrix_exp(M.unsqueeze(0) * ts.view(-1, 1, 1))
print("batched expm", tuple(batch.shape), torch.allclose(batch @ state0, traj))
