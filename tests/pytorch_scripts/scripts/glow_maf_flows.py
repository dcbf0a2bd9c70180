"""Normalizing flows as in Glow / MAF / nflows re-implementations: ActNorm with data-dependent
initialisation, an invertible 1x1 convolution both with slogdet and with an LU parametrisation
(torch.linalg.lu, triangular masks, sign(diag)), a MADE with autoregressive masks through
register_buffer, a MAF layer and its sequential inverse, planar flows with the log|det| term, and training
by maximum likelihood under a standard normal base (torch.distributions)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, MultivariateNormal

torch.manual_seed(9)


class ActNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(1, dim))
        self.log_scale = nn.Parameter(torch.zeros(1, dim))
        self.register_buffer("initialized", torch.tensor(0, dtype=torch.uint8))

    def forward(self, x):
        if self.initialized.item() == 0:
            with torch.no_grad():
                self.loc.data.copy_(-x.mean(0, keepdim=True))
                self.log_scale.data.copy_(-torch.log(x.std(0, keepdim=True) + 1e-6))
                self.initialized.fill_(1)
        z = (x + self.loc) * torch.exp(self.log_scale)
        return z, self.log_scale.sum().expand(x.size(0))

    def inverse(self, z):
        return z * torch.exp(-self.log_scale) - self.loc


class Invertible1x1(nn.Module):
    def __init__(self, dim, lu=False):
        super().__init__()
        w = torch.linalg.qr(torch.randn(dim, dim))[0]
        self.lu = lu
        if lu:
            P, L, U = torch.linalg.lu(w)
            s = torch.diag(U)
            self.register_buffer("P", P)
            self.register_buffer("sign_s", torch.sign(s))
            self.register_buffer("l_mask", torch.tril(torch.ones(dim, dim), -1))
            self.register_buffer("eye", torch.eye(dim))
            self.L = nn.Parameter(L)
            self.log_s = nn.Parameter(torch.log(torch.abs(s)))
            self.U = nn.Parameter(torch.triu(U, 1))
        else:
            self.weight = nn.Parameter(w)

    def get_weight(self):
        if not self.lu:
            return self.weight, torch.slogdet(self.weight)[1]
        L = self.L * self.l_mask + self.eye
        U = self.U * self.l_mask.T + torch.diag(self.sign_s * torch.exp(self.log_s))
        return self.P @ L @ U, self.log_s.sum()

    def forward(self, x):
        w, logdet = self.get_weight()
        return x @ w, logdet.expand(x.size(0))

    def inverse(self, z):
        w, _ = self.get_weight()
        return z @ torch.inverse(w)


class MaskedLinear(nn.Linear):
    def __init__(self, in_features, out_features):
        super().__init__(in_features, out_features)
        self.register_buffer("mask", torch.ones(out_features, in_features))

    def set_mask(self, mask):
        self.mask.data.copy_(mask.float().T)

    def forward(self, x):
        return F.linear(x, self.mask * self.weight, self.bias)


class MADE(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.dim = dim
        self.l1, self.l2, self.l3 = MaskedLinear(dim, hidden), MaskedLinear(hidden, hidden), MaskedLinear(hidden, 2 * dim)
        degrees_in = torch.arange(1, dim + 1)
        degrees_h = torch.arange(hidden) % max(1, dim - 1) + 1
        self.l1.set_mask(degrees_in[:, None] <= degrees_h[None, :])
        self.l2.set_mask(degrees_h[:, None] <= degrees_h[None, :])
        out_deg = degrees_in.repeat(2)
        self.l3.set_mask(degrees_h[:, None] < out_deg[None, :])

    def forward(self, x):
        h = F.relu(self.l2(F.relu(self.l1(x))))
        mu, alpha = self.l3(h).chunk(2, dim=-1)
        return mu, alpha.clamp(-5, 5)


class MAF(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.made = MADE(dim, hidden)

    def forward(self, x):
        mu, alpha = self.made(x)
        u = (x - mu) * torch.exp(-alpha)
        return u, -alpha.sum(-1)

    def inverse(self, u):
        x = torch.zeros_like(u)
        for i in range(u.shape[1]):
            mu, alpha = self.made(x)
            x[:, i] = mu[:, i] + u[:, i] * torch.exp(alpha[:, i])
        return x


class PlanarFlow(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.u = nn.Parameter(torch.randn(1, dim) * 0.1)
        self.w = nn.Parameter(torch.randn(1, dim) * 0.1)
        self.b = nn.Parameter(torch.zeros(1))

    def forward(self, z):
        wu = (self.w * self.u).sum()
        u_hat = self.u + (-1 + F.softplus(wu) - wu) * self.w / (self.w.norm() ** 2)
        lin = z @ self.w.t() + self.b
        f = z + u_hat * torch.tanh(lin)
        psi = (1 - torch.tanh(lin) ** 2) * self.w
        logdet = torch.log(torch.abs(1 + psi @ u_hat.t()) + 1e-8).squeeze(-1)
        return f, logdet


class Flow(nn.Module):
    def __init__(self, layers, dim):
        super().__init__()
        self.layers = nn.ModuleList(layers)
        self.base = Normal(torch.zeros(dim), torch.ones(dim))

    def log_prob(self, x):
        log_det = torch.zeros(x.size(0))
        for layer in self.layers:
            x, ld = layer(x)
            log_det = log_det + ld
        return self.base.log_prob(x).sum(-1) + log_det

    def inverse(self, z):
        for layer in reversed(self.layers):
            z = layer.inverse(z)
        return z


def two_moons(n):
    t = torch.rand(n) * math.pi
    upper = torch.randint(0, 2, (n,)).bool()
    x = torch.where(upper, torch.cos(t), 1 - torch.cos(t))
    y = torch.where(upper, torch.sin(t), 0.5 - torch.sin(t))
    return torch.stack([x, y], 1) + 0.05 * torch.randn(n, 2)


w_layer = Invertible1x1(3, lu=True)
w, logdet = w_layer.get_weight()
print("lu weight", w.round(decimals=4), round(logdet.item(), 5), round(torch.linalg.slogdet(w)[1].item(), 5))
print("P", w_layer.P, "sign", w_layer.sign_s)
made = MADE(3, 8)
x = torch.randn(4, 3, requires_grad=True)
mu, alpha = made(x)
jac = torch.stack([torch.autograd.grad(mu[:, i].sum(), x, retain_graph=True)[0][0] for i in range(3)])
print("MADE jacobian is strictly lower triangular:", torch.equal(jac.triu() == 0, torch.ones(3, 3, dtype=torch.bool)), jac.round(decimals=4))

data = two_moons(256)
flow = Flow([ActNorm(2), MAF(2, 16), Invertible1x1(2, lu=True), MAF(2, 16), Invertible1x1(2)], 2)
with torch.no_grad():
    print("initial nll", -flow.log_prob(data).mean().item())
print("actnorm init", flow.layers[0].loc.data, flow.layers[0].initialized)
opt = torch.optim.Adam(flow.parameters(), lr=5e-3)
for step in range(80):
    batch = data[torch.randperm(256)[:128]]
    loss = -flow.log_prob(batch).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 19:
        print(f"step {step + 1} nll {loss.item():.4f}")
with torch.no_grad():
    z = torch.randn(5, 2)
    samples = flow.inverse(z)
    back = samples
    for layer in flow.layers:
        back, _ = layer(back)
    print("round trip", (back - z).abs().max().item() < 1e-4, samples.round(decimals=3))

target = MultivariateNormal(torch.tensor([1.0, -1.0]), torch.tensor([[1.0, 0.8], [0.8, 1.0]]))
planar = nn.ModuleList([PlanarFlow(2) for _ in range(4)])
opt = torch.optim.Adam(planar.parameters(), lr=1e-2)
base = Normal(torch.zeros(2), torch.ones(2))
for step in range(100):
    z0 = base.sample((128,))
    z, sum_logdet = z0, torch.zeros(128)
    for f in planar:
        z, ld = f(z)
        sum_logdet = sum_logdet + ld
    kl = (base.log_prob(z0).sum(-1) - sum_logdet - target.log_prob(z)).mean()
    opt.zero_grad()
    kl.backward()
    opt.step()
    if step % 25 == 24:
        print(f"planar step {step + 1} reverse KL {kl.item():.4f}")
print("planar mean", z.mean(0).detach().round(decimals=3))
