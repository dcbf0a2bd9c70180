"""Mixture density networks as tutorials write them: the inverted-sine toy problem, an MDN head with
pi (softmax / log_softmax), sigma (exp) and mu, the loss by logsumexp over components of
Normal.log_prob, the same loss through MixtureSameFamily(Categorical, Independent(Normal)), sampling
by Categorical + gather, and the mixture's mean/variance/cdf."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical, Normal, MixtureSameFamily, Independent, MultivariateNormal

torch.manual_seed(0)
n = 200
y_data = torch.rand(n, 1) * 2 - 1
x_data = torch.sin(3 * y_data) + 0.3 * y_data + 0.05 * torch.randn(n, 1)


class MDN(nn.Module):
    def __init__(self, n_hidden, n_gaussians):
        super(MDN, self).__init__()
        self.z_h = nn.Sequential(nn.Linear(1, n_hidden), nn.Tanh())
        self.z_pi = nn.Linear(n_hidden, n_gaussians)
        self.z_sigma = nn.Linear(n_hidden, n_gaussians)
        self.z_mu = nn.Linear(n_hidden, n_gaussians)

    def forward(self, x):
        z_h = self.z_h(x)
        pi = F.softmax(self.z_pi(z_h), -1)
        sigma = torch.exp(self.z_sigma(z_h))
        mu = self.z_mu(z_h)
        return pi, sigma, mu


oneDivSqrtTwoPI = 1.0 / math.sqrt(2.0 * math.pi)


def gaussian_distribution(y, mu, sigma):
    result = (y.expand_as(mu) - mu) * torch.reciprocal(sigma)
    result = -0.5 * (result * result)
    return (torch.exp(result) * torch.reciprocal(sigma)) * oneDivSqrtTwoPI


def mdn_loss_fn(pi, sigma, mu, y):
    result = gaussian_distribution(y, mu, sigma) * pi
    result = torch.sum(result, dim=1)
    result = -torch.log(result)
    return torch.mean(result)


def mdn_loss_stable(pi, sigma, mu, y):
    log_prob = Normal(mu, sigma).log_prob(y.expand_as(mu))
    return -torch.logsumexp(torch.log(pi) + log_prob, dim=1).mean()


def mdn_loss_mixture(pi, sigma, mu, y):
    mix = Categorical(probs=pi)
    comp = Normal(mu, sigma)
    gmm = MixtureSameFamily(mix, comp)
    return -gmm.log_prob(y.squeeze(1)).mean()


network = MDN(n_hidden=16, n_gaussians=3)
optimizer = torch.optim.Adam(network.parameters(), lr=0.01)
for epoch in range(60):
    pi_variable, sigma_variable, mu_variable = network(x_data)
    loss = mdn_loss_fn(pi_variable, sigma_variable, mu_variable, y_data)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 20 == 0:
        print(epoch, loss.item())
pi, sigma, mu = network(x_data[:5])
print(mdn_loss_fn(pi, sigma, mu, y_data[:5]).item(), mdn_loss_stable(pi, sigma, mu, y_data[:5]).item(), mdn_loss_mixture(pi, sigma, mu, y_data[:5]).item())


def gumbel_sample(x, axis=1):
    z = torch.rand_like(x)
    return (torch.log(x) - torch.log(-torch.log(z))).argmax(dim=axis)


with torch.no_grad():
    x_test = torch.linspace(-1, 1, 6).unsqueeze(1)
    pi, sigma, mu = network(x_test)
    k = gumbel_sample(pi)
    indices = (torch.arange(6), k)
    rn = torch.randn(6)
    sampled = rn * sigma[indices] + mu[indices]
    print(k, sampled)
    k2 = Categorical(pi).sample().unsqueeze(1)
    print(torch.gather(mu, 1, k2).squeeze(1))
    gmm = MixtureSameFamily(Categorical(probs=pi), Normal(mu, sigma))
    print(gmm.mean, gmm.variance, gmm.cdf(torch.zeros(6)))
    print(gmm.batch_shape, gmm.event_shape, gmm.sample((2,)).shape)

# 2-D mixture with Independent components, as in the torch.distributions docs
mix = Categorical(torch.ones(5,))
comp = Independent(Normal(torch.randn(5, 2), torch.rand(5, 2) + 0.5), 1)
gmm2 = MixtureSameFamily(mix, comp)
pts = torch.randn(4, 2)
print(gmm2.log_prob(pts), gmm2.batch_shape, gmm2.event_shape)
mvn_comp = MultivariateNormal(torch.randn(3, 2), scale_tril=torch.diag_embed(torch.rand(3, 2) + 0.5))
gmm3 = MixtureSameFamily(Categorical(logits=torch.randn(3)), mvn_comp)
print(gmm3.log_prob(pts), gmm3.mean)
print(gmm2)
