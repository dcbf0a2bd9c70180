"""Bayes by Backprop and friends as in the Blundell et al. re-implementations and uncertainty tutorials:
a BayesianLinear layer with softplus(rho) scales and the reparameterisation trick, a scale-mixture prior,
closed-form KL between diagonal Gaussians against torch.distributions.kl_divergence, the ELBO with
KL re-weighting over minibatches, predictive mean/std from several forward passes, MC dropout with
model.train() at test time, a heteroscedastic Gaussian NLL head (F.gaussian_nll_loss), and local
reparameterisation."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, kl_divergence

torch.manual_seed(29)


class ScaleMixturePrior:
    def __init__(self, pi=0.5, sigma1=1.0, sigma2=math.exp(-6)):
        self.pi = pi
        self.g1, self.g2 = Normal(0.0, sigma1), Normal(0.0, sigma2)

    def log_prob(self, w):
        return torch.log(self.pi * torch.exp(self.g1.log_prob(w)) + (1 - self.pi) * torch.exp(self.g2.log_prob(w))).sum()


class BayesianLinear(nn.Module):
    def __init__(self, in_features, out_features, prior_sigma=1.0, local_reparam=False):
        super().__init__()
        self.w_mu = nn.Parameter(torch.empty(out_features, in_features).uniform_(-0.2, 0.2))
        self.w_rho = nn.Parameter(torch.empty(out_features, in_features).uniform_(-5, -4))
        self.b_mu = nn.Parameter(torch.empty(out_features).uniform_(-0.2, 0.2))
        self.b_rho = nn.Parameter(torch.empty(out_features).uniform_(-5, -4))
        self.prior_sigma, self.local_reparam = prior_sigma, local_reparam
        self.mixture = ScaleMixturePrior()
        self.log_prior = self.log_variational_posterior = 0

    def forward(self, x, sample=True):
        w_sigma, b_sigma = F.softplus(self.w_rho), F.softplus(self.b_rho)
        if not sample:
            return F.linear(x, self.w_mu, self.b_mu)
        if self.local_reparam:
            act_mu = F.linear(x, self.w_mu, self.b_mu)
            act_var = F.linear(x.pow(2), w_sigma.pow(2), b_sigma.pow(2))
            return act_mu + act_var.sqrt() * torch.randn_like(act_mu)
        w = self.w_mu + w_sigma * torch.randn_like(w_sigma)
        b = self.b_mu + b_sigma * torch.randn_like(b_sigma)
        self.log_prior = self.mixture.log_prob(w) + self.mixture.log_prob(b)
        self.log_variational_posterior = Normal(self.w_mu, w_sigma).log_prob(w).sum() + Normal(self.b_mu, b_sigma).log_prob(b).sum()
        return F.linear(x, w, b)

    def kl(self):
        def kl_term(mu, sigma):
            return (torch.log(self.prior_sigma / sigma) + (sigma ** 2 + mu ** 2) / (2 * self.prior_sigma ** 2) - 0.5).sum()
        return kl_term(self.w_mu, F.softplus(self.w_rho)) + kl_term(self.b_mu, F.softplus(self.b_rho))


class BNN(nn.Module):
    def __init__(self, local_reparam=False):
        super().__init__()
        self.l1 = BayesianLinear(1, 32, local_reparam=local_reparam)
        self.l2 = BayesianLinear(32, 1, local_reparam=local_reparam)

    def forward(self, x, sample=True):
        return self.l2(torch.relu(self.l1(x, sample)), sample)

    def kl(self):
        return self.l1.kl() + self.l2.kl()


x = torch.linspace(-2, 2, 64).unsqueeze(1)
y = torch.sin(2 * x) + 0.1 * torch.randn_like(x)
layer = BayesianLinear(3, 2)
analytic = layer.kl()
torch_kl = kl_divergence(Normal(layer.w_mu, F.softplus(layer.w_rho)), Normal(0.0, 1.0)).sum() + \
    kl_divergence(Normal(layer.b_mu, F.softplus(layer.b_rho)), Normal(0.0, 1.0)).sum()
print("kl", analytic.item(), torch_kl.item())
out = layer(torch.ones(4, 3))
print("mixture prior", layer.log_prior.item(), "posterior", layer.log_variational_posterior.item())

for local in (False, True):
    torch.manual_seed(0)
    model = BNN(local_reparam=local)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    n_batches = 4
    for epoch in range(20):
        perm = torch.randperm(64)
        for i in range(n_batches):
            idx = perm[i * 16:(i + 1) * 16]
            pi_weight = 2 ** (n_batches - i - 1) / (2 ** n_batches - 1)
            pred = model(x[idx])
            nll = F.mse_loss(pred, y[idx], reduction="sum") / (2 * 0.1 ** 2)
            loss = nll + pi_weight * model.kl()
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        samples = torch.stack([model(x) for _ in range(20)])
        mean, std = samples.mean(0), samples.std(0)
        deterministic = model(x, sample=False)
    print(f"local={local} loss {loss.item():.3f} kl {model.kl().item():.3f} rmse {(mean - y).pow(2).mean().sqrt().item():.4f} "
          f"std {std.mean().item():.4f} det rmse {(deterministic - y).pow(2).mean().sqrt().item():.4f}")

torch.manual_seed(1)
mc = nn.Sequential(nn.Linear(1, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, 2))
opt = torch.optim.Adam(mc.parameters(), lr=1e-2, weight_decay=1e-4)
for epoch in range(60):
    out = mc(x)
    mean, log_var = out[:, :1], out[:, 1:]
    loss = F.gaussian_nll_loss(mean, y, log_var.exp(), full=True)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("hetero nll", round(loss.item(), 4))
mc.eval()
with torch.no_grad():
    eval_pred = mc(x[:3])[:, 0]
mc.train()
with torch.no_grad():
    preds = torch.stack([mc(x[:3])[:, 0] for _ in range(30)])
print("eval", eval_pred, "mc mean", preds.mean(0), "mc std", preds.std(0))
aleatoric = mc(x[:3])[:, 1].exp().detach()
print("aleatoric var", aleatoric, "gaussian nll reductions", F.gaussian_nll_loss(x[:3], y[:3], torch.ones(3, 1), reduction="none").squeeze(1))
