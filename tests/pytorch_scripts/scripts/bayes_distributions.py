"""Probabilistic modelling with torch.distributions as Bayesian-ML tutorials write it without Pyro:
conjugate updates (Beta-Bernoulli, Gamma-Poisson, Dirichlet-Categorical) with mean/variance/
entropy/cdf/icdf, batch_shape vs event_shape and Independent, expand and sample shapes,
mean-field variational inference for a Bayesian logistic regression with rsample and an analytic
kl_divergence(Normal, Normal), unconstrained parameters through constraints and biject_to /
transform_to, Gumbel-softmax with RelaxedOneHotCategorical and F.gumbel_softmax(hard=True),
enumerate_support, LowRankMultivariateNormal, StudentT/Laplace/Cauchy log-probs, and
validate_args errors."""
import torch
import torch.nn.functional as F
from torch.distributions import (Bernoulli, Beta, Categorical, Cauchy, Dirichlet, Gamma, Independent, Laplace,
                                 LowRankMultivariateNormal, Normal, OneHotCategorical, Poisson,
                                 RelaxedOneHotCategorical, StudentT, constraints, kl_divergence, biject_to, transform_to)

torch.manual_seed(0)

flips = Bernoulli(probs=0.7).sample((20,))
prior = Beta(torch.tensor(2.0), torch.tensor(2.0))
post = Beta(prior.concentration1 + flips.sum(), prior.concentration0 + (1 - flips).sum())
print("beta post", round(post.mean.item(), 4), round(post.variance.item(), 5), round(post.entropy().item(), 4),
      flips.sum().item())
counts = Poisson(torch.tensor(3.0)).sample((15,))
gpost = Gamma(1.0 + counts.sum(), 1.0 + len(counts))
print("gamma post", round(gpost.mean.item(), 4), round(gpost.stddev.item(), 4), gpost.batch_shape, gpost.event_shape)
cats = Categorical(probs=torch.tensor([0.2, 0.5, 0.3])).sample((30,))
dpost = Dirichlet(torch.ones(3) + torch.bincount(cats, minlength=3))
print("dirichlet", dpost.mean.round(decimals=4).tolist(), dpost.event_shape, round(dpost.log_prob(dpost.mean).item(), 4))
n = Normal(torch.zeros(3), torch.ones(3))
print("shapes", n.batch_shape, n.event_shape, n.sample((2,)).shape, Independent(n, 1).batch_shape,
      Independent(n, 1).event_shape, Independent(n, 1).log_prob(torch.zeros(3)).shape)
e = n.expand(torch.Size([4, 3]))
print("expand", e.batch_shape, e.rsample().shape, round(Normal(0.0, 1.0).icdf(torch.tensor(0.975)).item(), 4),
      round(Normal(0.0, 1.0).cdf(torch.tensor(1.96)).item(), 4))

# mean-field VI for Bayesian logistic regression
X = torch.randn(40, 2)
w_true = torch.tensor([2.0, -1.0])
y = Bernoulli(logits=X @ w_true).sample()
q_mu = torch.zeros(2, requires_grad=True)
q_rho = torch.full((2,), -1.0, requires_grad=True)
opt = torch.optim.Adam([q_mu, q_rho], lr=0.1)
p_w = Normal(torch.zeros(2), torch.ones(2))
for step in range(30):
    q = Normal(q_mu, F.softplus(q_rho))
    w = q.rsample((8,))
    loglik = Bernoulli(logits=w @ X.T).log_prob(y).sum(-1).mean()
    kl = kl_divergence(q, p_w).sum()
    elbo = loglik - kl
    opt.zero_grad()
    (-elbo).backward()
    opt.step()
    if step % 10 == 9:
        print(f"step {step} elbo {elbo.item():.3f} kl {kl.item():.4f}")
print("posterior", q_mu.detach().round(decimals=3).tolist(), F.softplus(q_rho).detach().round(decimals=3).tolist())
mc_kl = (q.log_prob(w) - p_w.log_prob(w)).sum(-1).mean()
print("kl analytic vs mc close:", abs(mc_kl.item() - kl.item()) < 1.0, kl.grad_fn is not None)

# constraints
print(constraints.positive.check(torch.tensor([-1.0, 2.0])).tolist(), constraints.simplex.check(torch.tensor([0.3, 0.7])).item(),
      constraints.unit_interval.check(torch.tensor(1.5)).item())
to_pos, to_simplex = biject_to(constraints.positive), transform_to(constraints.simplex)
u = torch.tensor([-1.0, 0.0, 2.0])
print("biject_to", to_pos(u).round(decimals=4).tolist(), to_pos.inv(to_pos(u)).round(decimals=4).tolist(),
      to_simplex(u).round(decimals=4).tolist(), to_simplex(u).sum().item())
print("log_abs_det", to_pos.log_abs_det_jacobian(u, to_pos(u)).tolist())
print(Gamma.arg_constraints["concentration"], Beta.support, Categorical(logits=torch.zeros(3)).support)

# Gumbel-softmax
logits = torch.tensor([[1.0, 2.0, 0.5]])
relaxed = RelaxedOneHotCategorical(temperature=torch.tensor(0.5), logits=logits)
s = relaxed.rsample()
print("relaxed", s.shape, round(s.sum().item(), 4), round(relaxed.log_prob(s).item(), 3))
hard = F.gumbel_softmax(logits.repeat(5, 1), tau=0.5, hard=True)
print("hard", hard.tolist(), hard.sum(1).tolist())
lg = logits.clone().requires_grad_()
(F.gumbel_softmax(lg, tau=1.0, hard=True) * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print("st grad", lg.grad.round(decimals=4).tolist())
print("enumerate", Bernoulli(torch.tensor([0.3, 0.6])).enumerate_support().tolist(),
      OneHotCategorical(probs=torch.tensor([0.2, 0.8])).enumerate_support().tolist())

# other families
lr = LowRankMultivariateNormal(torch.zeros(3), torch.tensor([[1.0], [0.5], [0.0]]), torch.ones(3))
print("lowrank", lr.covariance_matrix.tolist(), round(lr.log_prob(torch.ones(3)).item(), 4), round(lr.entropy().item(), 4))
x = torch.tensor([-2.0, 0.0, 3.0])
for d in (StudentT(3.0), Laplace(0.0, 1.0), Cauchy(0.0, 1.0)):
    print(type(d).__name__, d.log_prob(x).round(decimals=4).tolist())
print("kl cats", round(kl_divergence(Categorical(probs=torch.tensor([0.5, 0.5])),
                                     Categorical(probs=torch.tensor([0.9, 0.1]))).item(), 4),
      round(kl_divergence(Beta(2.0, 3.0), Beta(1.0, 1.0)).item(), 4))
try:
    Normal(0.0, -1.0)
except ValueError as err:
    print("ValueError", str(err)[:80])
try:
    Bernoulli(probs=0.5).log_prob(torch.tensor(0.5))
except ValueError as err:
    print("ValueError", str(err)[:60])
