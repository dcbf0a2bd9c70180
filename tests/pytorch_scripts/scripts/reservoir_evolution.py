"""Gradient-free learning as reservoir-computing and evolution-strategies posts write it: an echo
state network whose random recurrent matrix is rescaled to a spectral radius from
torch.linalg.eigvals, washout, and a ridge-regression readout solved with torch.linalg.lstsq and
the normal equations; then OpenAI-style evolution strategies with antithetic Gaussian
perturbations of a flat parameter vector (parameters_to_vector / vector_to_parameters), fitness
shaping by centred ranks, and a CMA-free (1+1)-ES with the 1/5th success rule."""
import math

import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters

torch.manual_seed(0)

# Mackey-Glass-like signal: a sum of sines with a nonlinearity
t = torch.arange(0, 600, dtype=torch.float64)
signal = torch.sin(0.07 * t) * torch.cos(0.031 * t) + 0.3 * torch.sin(0.2 * t) ** 3
u, y = signal[:-1], signal[1:]


class ESN:
    def __init__(self, n_in, n_res, spectral_radius=0.9, density=0.2, leak=0.5):
        W = torch.rand(n_res, n_res, dtype=torch.float64) - 0.5
        W[torch.rand(n_res, n_res) > density] = 0.0
        rho = torch.linalg.eigvals(W).abs().max()
        self.W = W * (spectral_radius / rho)
        self.W_in = (torch.rand(n_res, n_in + 1, dtype=torch.float64) - 0.5) * 1.0
        self.leak = leak
        self.n_res = n_res

    def states(self, inputs):
        x = torch.zeros(self.n_res, dtype=torch.float64)
        out = []
        for v in inputs:
            pre = self.W_in @ torch.cat([torch.ones(1, dtype=torch.float64), v.view(1)]) + self.W @ x
            x = (1 - self.leak) * x + self.leak * torch.tanh(pre)
            out.append(x)
        return torch.stack(out)


esn = ESN(1, 60)
print("spectral radius", round(torch.linalg.eigvals(esn.W).abs().max().item(), 6), "nonzeros", int((esn.W != 0).sum()))
X = esn.states(u)
washout = 50
X_train, Y_train = X[washout:400], y[washout:400]
design = torch.cat([torch.ones(len(X_train), 1, dtype=torch.float64), X_train], dim=1)
ridge = 1e-6
W_out = torch.linalg.solve(design.T @ design + ridge * torch.eye(design.shape[1], dtype=torch.float64), design.T @ Y_train)
W_lstsq = torch.linalg.lstsq(design, Y_train.unsqueeze(1)).solution.squeeze(1)
test_design = torch.cat([torch.ones(len(X) - 400, 1, dtype=torch.float64), X[400:]], dim=1)
pred = test_design @ W_out
nrmse = torch.sqrt(((pred - y[400:]) ** 2).mean()) / y[400:].std()
print(f"ridge readout NRMSE {nrmse.item():.4f} lstsq train residual {(design @ W_lstsq - Y_train).norm().item():.2e}")
print("readout norm", round(W_out.norm().item(), 3), "state range", round(X.abs().max().item(), 4))

# free-running generation: feed predictions back in
x = X[399].clone()
v = y[399]
generated = []
for _ in range(20):
    pre = esn.W_in @ torch.stack([torch.ones((), dtype=torch.float64), v]) + esn.W @ x
    x = (1 - esn.leak) * x + esn.leak * torch.tanh(pre)
    v = torch.cat([torch.ones(1, dtype=torch.float64), x]) @ W_out
    generated.append(v)
gen = torch.stack(generated)
print("generative error (20 steps)", round((gen - y[400:420]).abs().max().item(), 4))

# evolution strategies on a tiny regression net
policy = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))
xs = torch.linspace(-2, 2, 32).unsqueeze(1)
ys = torch.sin(xs)


def fitness(vec):
    vector_to_parameters(vec, policy.parameters())
    with torch.no_grad():
        return -nn.functional.mse_loss(policy(xs), ys).item()


def centered_ranks(x):
    ranks = torch.empty(len(x))
    ranks[x.argsort()] = torch.arange(len(x), dtype=torch.float32)
    return ranks / (len(x) - 1) - 0.5


theta = parameters_to_vector(policy.parameters()).detach()
print("parameters", theta.numel(), "initial fitness", round(fitness(theta), 4))
sigma, alpha, npop = 0.1, 0.05, 20
for gen_i in range(30):
    eps = torch.randn(npop // 2, theta.numel())
    eps = torch.cat([eps, -eps])  # antithetic
    rewards = torch.tensor([fitness(theta + sigma * e) for e in eps])
    shaped = centered_ranks(rewards)
    theta = theta + alpha / (npop * sigma) * (shaped @ eps)
    if gen_i % 10 == 9:
        print(f"generation {gen_i + 1}: fitness {fitness(theta):.4f} best in population {rewards.max().item():.4f}")
print("ranks", centered_ranks(torch.tensor([3.0, -1.0, 2.0, 0.5])).tolist())

# (1+1)-ES with the 1/5th success rule on the Rosenbrock function
def rosenbrock(z):
    return ((1 - z[:-1]) ** 2 + 100 * (z[1:] - z[:-1] ** 2) ** 2).sum()


parent = torch.tensor([-1.0, 1.5], dtype=torch.float64)
f_parent = rosenbrock(parent)
step = 0.5
successes = []
for it in range(300):
    child = parent + step * torch.randn(2, dtype=torch.float64)
    f_child = rosenbrock(child)
    success = bool(f_child < f_parent)
    successes.append(success)
    if success:
        parent, f_parent = child, f_child
    if len(successes) == 10:
        rate = sum(successes) / 10
        step *= math.exp(0.5 * (rate - 0.2) / 0.8)
        successes = []
print("(1+1)-ES", [round(v, 3) for v in parent.tolist()], f"f={f_parent.item():.2e}", f"step={step:.2e}")
