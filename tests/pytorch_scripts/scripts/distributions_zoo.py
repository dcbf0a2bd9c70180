"""torch.distributions as used in probabilistic programming tutorials and RL / VAE code: log_prob,
entropy, mean, variance, cdf / icdf and rsample for Beta, Gamma, Dirichlet, Poisson, Binomial,
NegativeBinomial, Geometric, LogNormal, StudentT, Laplace, Gumbel, HalfNormal, Exponential, Uniform, Cauchy,
Bernoulli with logits, RelaxedOneHotCategorical, OneHotCategorical; Independent and its batch/event shapes,
MixtureSameFamily, TransformedDistribution with Affine/Exp/Sigmoid/Tanh transforms, kl_divergence
pairs, expand, and a reparameterised ELBO gradient."""
import torch
import torch.nn.functional as F
from torch import distributions as D

torch.manual_seed(31)
x = torch.tensor([0.2, 0.5, 0.9])
dists = {
    "Beta": D.Beta(torch.tensor([2.0, 0.5, 1.0]), torch.tensor([3.0, 0.5, 2.0])),
    "Gamma": D.Gamma(torch.tensor([2.0, 0.5, 4.0]), torch.tensor([1.0, 2.0, 0.5])),
    "LogNormal": D.LogNormal(torch.zeros(3), torch.tensor([0.5, 1.0, 2.0])),
    "StudentT": D.StudentT(torch.tensor([1.0, 3.0, 10.0]), torch.zeros(3), torch.ones(3)),
    "Laplace": D.Laplace(torch.tensor([0.0, 1.0, -1.0]), torch.tensor([1.0, 0.5, 2.0])),
    "Gumbel": D.Gumbel(torch.zeros(3), torch.tensor([1.0, 2.0, 0.5])),
    "HalfNormal": D.HalfNormal(torch.tensor([1.0, 2.0, 0.5])),
    "Exponential": D.Exponential(torch.tensor([1.0, 2.0, 0.5])),
    "Uniform": D.Uniform(torch.zeros(3), torch.tensor([1.0, 2.0, 3.0])),
    "Cauchy": D.Cauchy(torch.zeros(3), torch.ones(3)),
}
for name, d in dists.items():
    line = f"{name:11s} log_prob {d.log_prob(x)} entropy {d.entropy()}"
    try:
        line += f" mean {d.mean} var {d.variance}"
    except Exception as e:
        line += f" {type(e).__name__}"
    print(line)
for name in ("LogNormal", "Laplace", "Gumbel", "HalfNormal", "Exponential", "Uniform", "Cauchy"):
    d = dists[name]
    try:
        print(f"{name:11s} cdf {d.cdf(x)} icdf {d.icdf(torch.tensor([0.1, 0.5, 0.9]))}")
    except NotImplementedError:
        print(f"{name:11s} cdf {d.cdf(x)} icdf not implemented")

counts = torch.tensor([0.0, 2.0, 5.0])
discrete = {
    "Poisson": D.Poisson(torch.tensor([1.0, 2.5, 4.0])),
    "Binomial": D.Binomial(10, probs=torch.tensor([0.1, 0.3, 0.5])),
    "NegativeBinomial": D.NegativeBinomial(torch.tensor([3.0, 5.0, 2.0]), probs=torch.tensor([0.4, 0.5, 0.6])),
    "Geometric": D.Geometric(probs=torch.tensor([0.2, 0.5, 0.7])),
    "Bernoulli": D.Bernoulli(logits=torch.tensor([-1.0, 0.0, 2.0])),
}
for name, d in discrete.items():
    value = counts.clamp(max=1) if name == "Bernoulli" else counts
    print(f"{name:16s} log_prob {d.log_prob(value)} mean {d.mean} var {d.variance}")
print("Binomial entropy", D.Binomial(5, probs=torch.tensor([0.3])).entropy(), "Bernoulli entropy", discrete["Bernoulli"].entropy())

alpha = torch.tensor([[1.0, 2.0, 3.0], [0.5, 0.5, 0.5]])
dirichlet = D.Dirichlet(alpha)
p = torch.tensor([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])
print("Dirichlet", dirichlet.log_prob(p), dirichlet.entropy(), dirichlet.mean[0], dirichlet.batch_shape, dirichlet.event_shape)
ohc = D.OneHotCategorical(logits=torch.tensor([0.5, 1.0, -1.0]))
print("OneHotCategorical", ohc.log_prob(torch.tensor([0.0, 1.0, 0.0])), ohc.entropy(), ohc.mean)
relaxed = D.RelaxedOneHotCategorical(torch.tensor(0.5), logits=torch.tensor([0.5, 1.0, -1.0]))
print("RelaxedOneHot", relaxed.log_prob(torch.tensor([0.2, 0.7, 0.1])))

base = D.Normal(torch.zeros(4, 3), torch.ones(4, 3))
ind = D.Independent(base, 1)
print("Independent", ind.batch_shape, ind.event_shape, ind.log_prob(torch.zeros(4, 3)), base.expand((2, 4, 3)).batch_shape)
mix = D.MixtureSameFamily(D.Categorical(torch.tensor([0.3, 0.7])), D.Normal(torch.tensor([-1.0, 2.0]), torch.tensor([0.5, 1.0])))
print("Mixture", mix.log_prob(torch.tensor([-1.0, 0.0, 2.0])), mix.mean, mix.variance, mix.cdf(torch.tensor([0.0])))
mix2d = D.MixtureSameFamily(D.Categorical(logits=torch.zeros(3)), D.Independent(D.Normal(torch.randn(3, 2), torch.ones(3, 2)), 1))
print("Mixture 2d", mix2d.log_prob(torch.zeros(2, 2)), mix2d.event_shape)

affine = D.TransformedDistribution(D.Normal(0.0, 1.0), [D.transforms.AffineTransform(2.0, 3.0)])
print("Affine", affine.log_prob(torch.tensor([2.0, 5.0])), D.Normal(2.0, 3.0).log_prob(torch.tensor([2.0, 5.0])))
lognormal = D.TransformedDistribution(D.Normal(0.0, 0.5), [D.transforms.ExpTransform()])
print("Exp", lognormal.log_prob(x), dists["LogNormal"].log_prob(x)[0])
logit_normal = D.TransformedDistribution(D.Normal(0.0, 1.0), [D.transforms.SigmoidTransform()])
print("Sigmoid", logit_normal.log_prob(x))
tanh_normal = D.TransformedDistribution(D.Normal(torch.zeros(3), torch.ones(3)), [D.transforms.TanhTransform(cache_size=1)])
print("Tanh", tanh_normal.log_prob(torch.tensor([-0.5, 0.0, 0.5])))
chain = D.transforms.ComposeTransform([D.transforms.AffineTransform(1.0, 2.0), D.transforms.ExpTransform()])
print("compose", chain(torch.tensor([0.0, 1.0])), chain.inv(torch.tensor([1.0, 10.0])), chain.log_abs_det_jacobian(torch.tensor([0.0]), chain(torch.tensor([0.0]))))
print("stick breaking", D.transforms.StickBreakingTransform()(torch.tensor([0.0, 1.0])), D.constraints.simplex.check(torch.tensor([0.2, 0.8])))

pairs = [(D.Normal(0.0, 1.0), D.Normal(1.0, 2.0)), (D.Beta(2.0, 3.0), D.Beta(1.0, 1.0)),
         (D.Gamma(2.0, 1.0), D.Gamma(3.0, 2.0)), (D.Categorical(logits=torch.tensor([0.0, 1.0])), D.Categorical(probs=torch.tensor([0.5, 0.5]))),
         (D.Bernoulli(0.3), D.Bernoulli(0.6)), (D.Poisson(2.0), D.Poisson(3.0)), (D.Dirichlet(alpha[0]), D.Dirichlet(alpha[1])),
         (D.Exponential(1.0), D.Exponential(2.0)), (D.Laplace(0.0, 1.0), D.Laplace(1.0, 2.0)),
         (D.Uniform(0.0, 1.0), D.Uniform(-1.0, 2.0)), (D.Independent(base, 1), D.Independent(D.Normal(torch.ones(4, 3), 2 * torch.ones(4, 3)), 1))]
for a, b in pairs:
    print(f"KL({type(a).__name__}||{type(b).__name__})", D.kl_divergence(a, b))

mu = torch.tensor([0.5, -0.3], requires_grad=True)
log_sigma = torch.tensor([0.0, -1.0], requires_grad=True)
q = D.Normal(mu, log_sigma.exp())
z = q.rsample((64,))
elbo = (D.Normal(0.0, 1.0).log_prob(z) - q.log_prob(z)).sum(-1).mean()
elbo.backward()
print("elbo", elbo.item(), mu.grad, log_sigma.grad)
print("gumbel softmax", F.gumbel_softmax(torch.tensor([[1.0, 2.0, 0.5]]), tau=0.5, hard=True))
print("sample shapes", D.Gamma(torch.ones(3), 1.0).sample((2,)).shape, D.Dirichlet(alpha).rsample().sum(-1))
