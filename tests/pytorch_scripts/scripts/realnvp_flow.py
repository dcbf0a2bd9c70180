"""Normalizing flows as tutorials write them: a RealNVP with alternating checkerboard masks, coupling
layers whose scale net ends in Tanh, log_prob through MultivariateNormal prior and log-det sums,
sampling by the inverse pass, trained on a two-moons-like toy set; then a planar/affine flow through
torch.distributions.TransformedDistribution with AffineTransform, ExpTransform, SigmoidTransform and
ComposeTransform, log_abs_det_jacobian and Independent."""
import math
import torch
import torch.nn as nn
from torch import distributions
from torch.distributions import MultivariateNormal, Normal, TransformedDistribution, Independent
from torch.distributions.transforms import AffineTransform, ExpTransform, SigmoidTransform, ComposeTransform, TanhTransform

torch.manual_seed(0)


def make_moons(n):
    t = torch.rand(n) * math.pi
    upper = torch.stack([torch.cos(t), torch.sin(t)], 1)
    lower = torch.stack([1 - torch.cos(t), 0.5 - torch.sin(t)], 1)
    x = torch.cat([upper[: n // 2], lower[n // 2:]])
    return x + 0.05 * torch.randn_like(x)


class RealNVP(nn.Module):
    def __init__(self, nets, nett, mask, prior):
        super(RealNVP, self).__init__()
        self.prior = prior
        self.mask = nn.Parameter(mask, requires_grad=False)
        self.t = torch.nn.ModuleList([nett() for _ in range(len(mask))])
        self.s = torch.nn.ModuleList([nets() for _ in range(len(mask))])

    def g(self, z):
        x = z
        for i in range(len(self.t)):
            x_ = x * self.mask[i]
            s = self.s[i](x_) * (1 - self.mask[i])
            t = self.t[i](x_) * (1 - self.mask[i])
            x = x_ + (1 - self.mask[i]) * (x * torch.exp(s) + t)
        return x

    def f(self, x):
        log_det_J, z = x.new_zeros(x.shape[0]), x
        for i in reversed(range(len(self.t))):
            z_ = self.mask[i] * z
            s = self.s[i](z_) * (1 - self.mask[i])
            t = self.t[i](z_) * (1 - self.mask[i])
            z = (1 - self.mask[i]) * (z - t) * torch.exp(-s) + z_
            log_det_J -= s.sum(dim=1)
        return z, log_det_J

    def log_prob(self, x):
        z, logp = self.f(x)
        return self.prior.log_prob(z) + logp

    def sample(self, batchSize):
        z = self.prior.sample((batchSize, 1))
        logp = self.prior.log_prob(z)
        x = self.g(z)
        return x


nets = lambda: nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(), nn.Linear(32, 32), nn.LeakyReLU(), nn.Linear(32, 2), nn.Tanh())
nett = lambda: nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(), nn.Linear(32, 32), nn.LeakyReLU(), nn.Linear(32, 2))
masks = torch.from_numpy(__import__("numpy").array([[0, 1], [1, 0]] * 3).astype(__import__("numpy").float32))
prior = distributions.MultivariateNormal(torch.zeros(2), torch.eye(2))
flow = RealNVP(nets, nett, masks, prior)
print(len(list(flow.parameters())), flow.mask.requires_grad, flow.mask.shape)
optimizer = torch.optim.Adam([p for p in flow.parameters() if p.requires_grad == True], lr=1e-3)
for t in range(30):
    noisy_moons = make_moons(64)
    loss = -flow.log_prob(noisy_moons).mean()
    optimizer.zero_grad()
    loss.backward(retain_graph=True)
    optimizer.step()
    if t % 10 == 0:
        print('iter %s:' % t, 'loss = %.3f' % loss)
z, logdet = flow.f(noisy_moons[:4])
print(z, logdet)
print(torch.allclose(flow.g(z), noisy_moons[:4], atol=1e-5))
x = flow.sample(5)
print(x.shape, x.squeeze(1)[:2])
print(prior.log_prob(torch.zeros(3, 2)), prior.entropy(), prior.mean, prior.covariance_matrix.diagonal())

# distributions.TransformedDistribution
base = Normal(torch.zeros(3), torch.ones(3))
lognormal = TransformedDistribution(base, [ExpTransform()])
v = torch.tensor([0.5, 1.0, 2.0])
print(lognormal.log_prob(v), distributions.LogNormal(0.0, 1.0).log_prob(v))
logistic = TransformedDistribution(distributions.Uniform(torch.zeros(3), torch.ones(3)), [SigmoidTransform().inv, AffineTransform(loc=1.0, scale=2.0)])
print(logistic.log_prob(torch.tensor([0.0, 1.0, 3.0])), logistic.sample((2,)).shape)
chain = ComposeTransform([AffineTransform(0.5, 3.0), TanhTransform(cache_size=1)])
u = torch.tensor([-0.2, 0.1, 0.3])
y = chain(u)
print(y, chain.inv(y), chain.log_abs_det_jacobian(u, y))
squashed = TransformedDistribution(Normal(torch.zeros(2), torch.ones(2)), [TanhTransform(cache_size=1)])
a = squashed.rsample((4,))
print(a.shape, squashed.log_prob(a).shape, a.abs().max().item() < 1)
ind = Independent(Normal(torch.zeros(4, 2), torch.ones(4, 2)), 1)
print(ind.batch_shape, ind.event_shape, ind.log_prob(torch.zeros(4, 2)))
print(lognormal.batch_shape, lognormal.event_shape, lognormal)
