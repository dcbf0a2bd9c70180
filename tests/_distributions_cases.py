"""Cases shared by ``test_distributions.py`` and ``_distributions_record.py`` (which records PyTorch's
values into ``_distributions_expected.py``).

Each case: ``name -> (fn(lib, *tensors), input arrays, order)``, where ``lib`` is ``tinyframe`` (or
``torch`` when recording), ``fn`` builds distributions from the float64 tensors and returns a tuple of
tensors, and ``order`` is how many derivatives of the first output are checked against finite
differences (0: none; 1: gradcheck; 2: also gradgradcheck).
"""
from __future__ import annotations

import numpy as np

_rng = np.random.default_rng(11)


def _x(*shape: int) -> np.ndarray:
    return _rng.standard_normal(shape)


def _pos(*shape: int) -> np.ndarray:
    return np.abs(_rng.standard_normal(shape)) + 0.5


def _unit(*shape: int) -> np.ndarray:
    return _rng.uniform(0.1, 0.9, shape)


def _D(lib):  # noqa: ANN001, ANN202, N802
    return lib.distributions


def _ints(lib, values):  # noqa: ANN001, ANN202
    return lib.tensor(values)


def _cov(lib, a):  # noqa: ANN001, ANN202  a positive-definite matrix from any square one
    return a @ a.mT + lib.eye(a.shape[-1], dtype=a.dtype)


def _stats(d) -> tuple:  # noqa: ANN001
    return d.mean, d.variance, d.stddev


def _normal(lib, loc, scale, value):  # noqa: ANN001, ANN202
    d = _D(lib).Normal(loc, scale)
    return (d.log_prob(value), d.entropy(), d.cdf(value), d.icdf(lib.sigmoid(value)), *_stats(d), d.mode)


def _categorical(lib, logits, **kw):  # noqa: ANN001, ANN202
    d = _D(lib).Categorical(**{kw.get("as_", "logits"): logits})
    value = _ints(lib, [[0, 1], [2, 1], [3, 0]])
    return (d.log_prob(value), d.entropy(), d.probs, d.logits, d.mode, d.perplexity())


def _bernoulli(lib, param, value, as_):  # noqa: ANN001, ANN202
    d = _D(lib).Bernoulli(**{as_: param})
    return (d.log_prob(value), d.entropy(), *_stats(d), d.probs, d.logits)


def _uniform(lib, low, width, u):  # noqa: ANN001, ANN202
    d = _D(lib).Uniform(low, low + width)
    value = low + u * width
    return (d.log_prob(value), d.entropy(), d.cdf(value), d.icdf(u), *_stats(d))


def _mvn(lib, loc, a, value, as_):  # noqa: ANN001, ANN202
    cov = _cov(lib, a)
    matrix = {"covariance_matrix": cov, "scale_tril": lib.linalg.cholesky(cov),
              "precision_matrix": lib.linalg.inv(cov)}[as_]
    d = _D(lib).MultivariateNormal(loc, **{as_: matrix})
    return (d.log_prob(value), d.entropy(), d.variance, d.covariance_matrix, d.precision_matrix, d.scale_tril)


def _kl(lib, p, q):  # noqa: ANN001, ANN202
    return (_D(lib).kl_divergence(p, q),)


def _scalar_stats(d, value, cdf=True, icdf=True, entropy=True, mode=True):  # noqa: ANN001, ANN202
    """log_prob, then (where the distribution has them) entropy, cdf, icdf of sigmoid(value), mean,
    variance, stddev and mode."""
    out = [d.log_prob(value)]
    if entropy:
        out.append(d.entropy())
    if cdf:
        out.append(d.cdf(value))
    if icdf:
        out.append(d.icdf(value.sigmoid() if value.min() < 0 or value.max() > 1 else value))
    return (*out, *_stats(d), *([d.mode] if mode else []))


def _lowrank(lib, loc, w, d, value):  # noqa: ANN001, ANN202
    dist = _D(lib).LowRankMultivariateNormal(loc, w, d)
    return (dist.log_prob(value), dist.entropy(), dist.variance, dist.covariance_matrix, dist.precision_matrix,
            dist.scale_tril, dist.mean)


def _mixture(lib, logits, loc, scale, value):  # noqa: ANN001, ANN202
    d = _D(lib).MixtureSameFamily(_D(lib).Categorical(logits=logits), _D(lib).Normal(loc, scale))
    return (d.log_prob(value), d.cdf(value), d.mean, d.variance)


def _mixture_mvn(lib, logits, loc, scale, value):  # noqa: ANN001, ANN202
    d = _D(lib).MixtureSameFamily(_D(lib).Categorical(logits=logits),
                                  _D(lib).Independent(_D(lib).Normal(loc, scale), 1))
    return (d.log_prob(value), d.mean, d.variance)


CASES = {
    "normal": (_normal, [_x(2, 3), _pos(2, 3), _x(4, 2, 3)], 2),
    "normal_broadcast": (lambda lib, loc, value: _normal(lib, loc, 2.0, value), [_x(3), _x(2, 3)], 2),
    "categorical_logits": (lambda lib, logits: _categorical(lib, logits), [_x(2, 4)], 2),
    "categorical_probs": (lambda lib, probs: _categorical(lib, probs, as_="probs"), [_pos(2, 4)], 2),
    "bernoulli_probs": (lambda lib, p, v: _bernoulli(lib, p, v.gt(0).to(p), "probs"), [_unit(2, 3), _x(2, 3)], 2),
    "bernoulli_logits": (lambda lib, p, v: _bernoulli(lib, p, v.gt(0).to(p), "logits"), [_x(2, 3), _x(2, 3)], 2),
    "uniform": (_uniform, [_x(2, 3), _pos(2, 3), _unit(2, 3)], 2),
    "independent_normal": (lambda lib, loc, scale, value: (
        lambda d: (d.log_prob(value), d.entropy(), d.mean, d.variance))(
            _D(lib).Independent(_D(lib).Normal(loc, scale), 1)), [_x(2, 3), _pos(2, 3), _x(2, 3)], 2),
    "mvn_covariance": (lambda lib, *t: _mvn(lib, *t, "covariance_matrix"), [_x(2, 3), _x(3, 3), _x(4, 2, 3)], 2),
    "mvn_scale_tril": (lambda lib, *t: _mvn(lib, *t, "scale_tril"), [_x(3), _x(2, 3, 3), _x(2, 3)], 2),
    "mvn_precision": (lambda lib, *t: _mvn(lib, *t, "precision_matrix"), [_x(3), _x(3, 3), _x(3)], 1),
    "laplace": (lambda lib, loc, scale, value: (lambda d: (
        d.log_prob(value), d.entropy(), d.cdf(value), d.icdf(lib.sigmoid(value)), *_stats(d)))(
            _D(lib).Laplace(loc, scale)), [_x(2, 3), _pos(2, 3), _x(2, 3)], 1),
    "exponential": (lambda lib, rate, value: (lambda d: (
        d.log_prob(value), d.entropy(), d.cdf(value), d.icdf(lib.sigmoid(value)), *_stats(d), d.mode))(
            _D(lib).Exponential(rate)), [_pos(2, 3), _pos(2, 3)], 2),
    "poisson": (lambda lib, rate: (lambda d: (d.log_prob(_ints(lib, [0.0, 1.0, 4.0]).to(rate)), *_stats(d), d.mode))(
        _D(lib).Poisson(rate)), [_pos(3)], 2),
    "binomial_probs": (lambda lib, p: (lambda d: (
        d.log_prob(_ints(lib, [0.0, 3.0, 5.0]).to(p)), d.entropy(), *_stats(d), d.mode))(
            _D(lib).Binomial(5, probs=p)), [_unit(3)], 2),
    "binomial_logits": (lambda lib, logits, n: (lambda d: (d.log_prob(_ints(lib, [0.0, 3.0, 5.0]).to(n)), d.mean))(
        _D(lib).Binomial(n.abs().round() + 5, logits=logits)), [_x(3), _x(3) * 4], 1),
    "gamma": (lambda lib, a, b, v: (lambda d: (d.log_prob(v), d.entropy(), *_stats(d), d.mode))(
        _D(lib).Gamma(a, b)), [_pos(2, 3) * 2, _pos(2, 3), _pos(2, 3)], 1),
    "beta": (lambda lib, a, b, v: (lambda d: (d.log_prob(v), d.entropy(), *_stats(d), d.mode))(
        _D(lib).Beta(a + 1, b + 1)), [_pos(3), _pos(3), _unit(3)], 1),
    "dirichlet": (lambda lib, a, v: (lambda d: (d.log_prob(v / v.sum(-1, keepdim=True)), d.entropy(), *_stats(d),
                                                d.mode))(_D(lib).Dirichlet(a)), [_pos(2, 4), _pos(2, 4)], 1),
    "one_hot_categorical": (lambda lib, logits: (lambda d: (
        d.log_prob(lib.eye(4, dtype=logits.dtype)[[1, 3]]), d.entropy(), d.mode, *_stats(d)))(
            _D(lib).OneHotCategorical(logits=logits)), [_x(2, 4)], 2),
    "log_normal": (lambda lib, loc, scale, v: (lambda d: (d.log_prob(v), d.entropy(), d.cdf(v), *_stats(d), d.mode))(
        _D(lib).LogNormal(loc, scale)), [_x(2, 3), _pos(2, 3), _pos(2, 3)], 2),
    "tanh_affine_transformed": (lambda lib, loc, scale, v: (lambda d: (d.log_prob(v),))(
        _D(lib).TransformedDistribution(_D(lib).Normal(loc, scale), [
            _D(lib).TanhTransform(), _D(lib).AffineTransform(1.0, 2.0)])), [_x(3), _pos(3), _unit(3) * 2], 2),
    "sigmoid_transformed": (lambda lib, loc, scale, v: (lambda d: (d.log_prob(v), d.cdf(v), d.icdf(v)))(
        _D(lib).TransformedDistribution(_D(lib).Normal(loc, scale), _D(lib).SigmoidTransform())),
        [_x(3), _pos(3), _unit(3)], 2),
    "exp_family_entropy": (lambda lib, loc, scale: (_D(lib).ExponentialFamily.entropy(_D(lib).Normal(loc, scale)),),
                           [_x(3), _pos(3)], 0),  # grads inside: gradcheck's no-grad evaluation cannot run it
    "kl_normal_normal": (lambda lib, a, b, c, d: _kl(lib, _D(lib).Normal(a, b), _D(lib).Normal(c, d)),
                         [_x(3), _pos(3), _x(3), _pos(3)], 2),
    "kl_categorical": (lambda lib, a, b: _kl(lib, _D(lib).Categorical(logits=a), _D(lib).Categorical(logits=b)),
                       [_x(2, 4), _x(2, 4)], 2),
    "kl_bernoulli": (lambda lib, a, b: _kl(lib, _D(lib).Bernoulli(a), _D(lib).Bernoulli(b)), [_unit(3), _unit(3)], 2),
    "kl_uniform": (lambda lib, a, b: _kl(lib, _D(lib).Uniform(a, a + b), _D(lib).Uniform(a - 1, a + b + 1)),
                   [_x(3), _pos(3)], 2),
    "kl_uniform_disjoint": (lambda lib, a: _kl(lib, _D(lib).Uniform(a - 1, a + 1), _D(lib).Uniform(a, a + 3)),
                            [_x(3)], 0),
    "kl_mvn": (lambda lib, a, b, c, d: _kl(lib, _D(lib).MultivariateNormal(a, _cov(lib, b)),
                                          _D(lib).MultivariateNormal(c, scale_tril=lib.linalg.cholesky(_cov(lib, d)))),
               [_x(2, 3), _x(3, 3), _x(3), _x(2, 3, 3)], 2),
    "kl_independent": (lambda lib, a, b, c, d: _kl(lib, _D(lib).Independent(_D(lib).Normal(a, b), 1),
                                                  _D(lib).Independent(_D(lib).Normal(c, d), 1)),
                       [_x(2, 3), _pos(2, 3), _x(2, 3), _pos(2, 3)], 2),
    "kl_gamma": (lambda lib, a, b, c, d: _kl(lib, _D(lib).Gamma(a, b), _D(lib).Gamma(c, d)),
                 [_pos(3), _pos(3), _pos(3), _pos(3)], 1),
    "kl_beta": (lambda lib, a, b, c, d: _kl(lib, _D(lib).Beta(a, b), _D(lib).Beta(c, d)),
                [_pos(3), _pos(3), _pos(3), _pos(3)], 1),
    "kl_dirichlet": (lambda lib, a, b: _kl(lib, _D(lib).Dirichlet(a), _D(lib).Dirichlet(b)),
                     [_pos(2, 3), _pos(2, 3)], 1),
    "kl_exponential": (lambda lib, a, b: _kl(lib, _D(lib).Exponential(a), _D(lib).Exponential(b)),
                       [_pos(3), _pos(3)], 2),
    "kl_laplace": (lambda lib, a, b, c, d: _kl(lib, _D(lib).Laplace(a, b), _D(lib).Laplace(c, d)),
                   [_x(3), _pos(3), _x(3), _pos(3)], 1),
    "kl_poisson": (lambda lib, a, b: _kl(lib, _D(lib).Poisson(a), _D(lib).Poisson(b)), [_pos(3), _pos(3)], 2),
    "kl_binomial": (lambda lib, a, b: _kl(lib, _D(lib).Binomial(4, a), _D(lib).Binomial(4, b)),
                    [_unit(3), _unit(3)], 2),
    "kl_one_hot": (lambda lib, a, b: _kl(lib, _D(lib).OneHotCategorical(logits=a), _D(lib).OneHotCategorical(logits=b)),
                   [_x(4), _x(4)], 2),
    "kl_log_normal": (lambda lib, a, b, c, d: _kl(lib, _D(lib).LogNormal(a, b), _D(lib).LogNormal(c, d)),
                      [_x(3), _pos(3), _x(3), _pos(3)], 2),
    "kl_uniform_normal": (lambda lib, a, b, c, d: _kl(lib, _D(lib).Uniform(a, a + b), _D(lib).Normal(c, d)),
                          [_x(3), _pos(3), _x(3), _pos(3)], 2),
    "kl_expfamily_bregman": (lambda lib, a, b, c, d: (_D(lib).kl._kl_expfamily_expfamily(
        _D(lib).Normal(a, b), _D(lib).Normal(c, d)),), [_x(3), _pos(3), _x(3), _pos(3)], 0),
    "cauchy": (lambda lib, loc, scale, v: _scalar_stats(_D(lib).Cauchy(loc, scale), v),
               [_x(2, 3), _pos(2, 3), _x(2, 3)], 2),
    "half_cauchy": (lambda lib, scale, v: _scalar_stats(_D(lib).HalfCauchy(scale), v), [_pos(2, 3), _pos(2, 3)], 2),
    "half_normal": (lambda lib, scale, v: _scalar_stats(_D(lib).HalfNormal(scale), v), [_pos(2, 3), _pos(2, 3)], 2),
    "gumbel": (lambda lib, loc, scale, v: _scalar_stats(_D(lib).Gumbel(loc, scale), v),
               [_x(2, 3), _pos(2, 3), _x(2, 3)], 2),
    "student_t": (lambda lib, df, loc, scale, v: _scalar_stats(_D(lib).StudentT(df, loc, scale), v, cdf=False,
                                                               icdf=False),
                  [_pos(2, 3) * 3, _x(2, 3), _pos(2, 3), _x(2, 3)], 1),
    "student_t_small_df": (lambda lib, df, v: _scalar_stats(_D(lib).StudentT(df * 2), v, cdf=False, icdf=False),
                           [_unit(4), _x(4)], 1),
    "chi2": (lambda lib, df, v: _scalar_stats(_D(lib).Chi2(df), v, icdf=False) + (_D(lib).Chi2(df).df,),
             [_pos(2, 3) * 2, _pos(2, 3)], 1),
    "gamma_cdf": (lambda lib, v: (  # differentiable in the value only, as PyTorch's igamma
        _D(lib).Gamma(_ints(lib, [0.3, 1.0, 2.5, 9.0]).to(v), _ints(lib, [2.0, 0.5, 1.0, 1.5]).to(v)).cdf(v),),
        [_pos(2, 4) * 2], 2),
    "chi2_cdf": (lambda lib, v: (_D(lib).Chi2(_ints(lib, [0.5, 1.0, 3.0, 7.5]).to(v)).cdf(v),), [_pos(4) * 2], 2),
    "geometric_probs": (lambda lib, p: _scalar_stats(_D(lib).Geometric(p), _ints(lib, [0.0, 2.0, 5.0]).to(p),
                                                     cdf=False, icdf=False) + (_D(lib).Geometric(p).logits,),
                        [_unit(3)], 2),
    "geometric_logits": (lambda lib, p: _scalar_stats(_D(lib).Geometric(logits=p), _ints(lib, [0.0, 2.0, 5.0]).to(p),
                                                      cdf=False, icdf=False) + (_D(lib).Geometric(logits=p).probs,),
                         [_x(3)], 2),
    "negative_binomial": (lambda lib, n, p: (lambda d: (
        d.log_prob(_ints(lib, [0.0, 2.0, 5.0]).to(p)), *_stats(d), d.mode))(_D(lib).NegativeBinomial(n, p)),
        [_pos(3) * 3, _unit(3)], 2),
    "negative_binomial_logits": (lambda lib, n, p: (lambda d: (
        d.log_prob(_ints(lib, [0.0, 2.0, 5.0]).to(p)), *_stats(d), d.probs))(_D(lib).NegativeBinomial(n, logits=p)),
        [_pos(3) * 3, _x(3)], 2),
    "multinomial": (lambda lib, logits: (lambda d: (
        d.log_prob(_ints(lib, [[2.0, 0.0, 1.0, 2.0], [0.0, 0.0, 5.0, 0.0]]).to(logits)), d.entropy(), d.mean,
        d.variance, d.probs))(_D(lib).Multinomial(5, logits=logits)), [_x(2, 4)], 2),
    "weibull": (lambda lib, scale, k, v: _scalar_stats(_D(lib).Weibull(scale, k), v, cdf=True, icdf=True),
                [_pos(2, 3), _pos(2, 3) * 2, _pos(2, 3)], 2),
    "pareto": (lambda lib, scale, alpha, v: _scalar_stats(_D(lib).Pareto(scale, alpha + 2), scale + v, icdf=False) + (
        _D(lib).Pareto(scale, alpha + 2).icdf(v.sigmoid()),), [_pos(2, 3), _pos(2, 3), _pos(2, 3)], 2),
    "kumaraswamy": (lambda lib, a, b, v: _scalar_stats(_D(lib).Kumaraswamy(a + 1, b + 1), v, cdf=True, icdf=True),
                    [_pos(2, 3), _pos(2, 3), _unit(2, 3)], 1),
    "logistic_normal": (lambda lib, loc, scale, v: (lambda d: (d.log_prob(v / v.sum(-1, keepdim=True)),))(
        _D(lib).LogisticNormal(loc, scale)), [_x(2, 3), _pos(2, 3), _pos(2, 4)], 2),
    "stick_breaking": (lambda lib, x: (lambda t: (t(x), t.inv(t(x)), t.log_abs_det_jacobian(x, t(x))))(
        _D(lib).StickBreakingTransform()), [_x(2, 3)], 2),
    "cumulative_distribution_transform": (lambda lib, loc, scale, v: (lambda d: (d.log_prob(v), d.cdf(v)))(
        _D(lib).TransformedDistribution(_D(lib).Normal(loc, scale), [
            _D(lib).CumulativeDistributionTransform(_D(lib).Normal(0.5, 2.0))])), [_x(3), _pos(3), _unit(3)], 2),
    "low_rank_mvn": (_lowrank, [_x(2, 3), _x(3, 2), _pos(3), _x(4, 2, 3)], 2),
    "low_rank_mvn_batched": (_lowrank, [_x(3), _x(2, 3, 1), _pos(2, 3), _x(3)], 1),
    "relaxed_bernoulli": (lambda lib, t, p, v: (lambda d: (d.log_prob(v), d.probs, d.logits, d.temperature))(
        _D(lib).RelaxedBernoulli(t, probs=p)), [_pos(), _unit(2, 3), _unit(2, 3)], 2),
    "relaxed_bernoulli_logits": (lambda lib, t, p, v: (lambda d: (d.log_prob(v), d.probs))(
        _D(lib).RelaxedBernoulli(t, logits=p)), [_pos(3), _x(2, 3), _unit(2, 3)], 2),
    "relaxed_one_hot": (lambda lib, t, logits, v: (lambda d: (d.log_prob(v / v.sum(-1, keepdim=True)), d.probs))(
        _D(lib).RelaxedOneHotCategorical(t, logits=logits)), [_pos(), _x(2, 4), _pos(2, 4)], 2),
    "continuous_bernoulli": (lambda lib, p, v: _scalar_stats(_D(lib).ContinuousBernoulli(p), v, mode=False),
                             [np.array([0.1, 0.4995, 0.7, 0.5005, 0.95, 0.3]), _unit(6)], 2),
    "continuous_bernoulli_logits": (lambda lib, p, v: _scalar_stats(_D(lib).ContinuousBernoulli(logits=p), v,
                                                                             mode=False),
                                    [_x(2, 3), _unit(2, 3)], 2),
    "fisher_snedecor": (lambda lib, d1, d2, v: (lambda d: (d.log_prob(v), *_stats(d), d.mode))(
        _D(lib).FisherSnedecor(d1, d2)), [_pos(6) * 3, np.array([1.5, 3.0, 4.5, 6.0, 2.5, 9.0]), _pos(6)], 2),
    "von_mises": (lambda lib, loc, k, v: (lambda d: (d.log_prob(v), d.mean, d.variance, d.mode))(
        _D(lib).VonMises(loc, k)), [_x(6), np.array([0.3, 1.0, 3.0, 3.9, 8.0, 20.0]), _x(6)], 2),
    "mixture_normal": (_mixture, [_x(2, 3), _x(2, 3), _pos(2, 3), _x(4, 2)], 2),
    "mixture_independent": (_mixture_mvn, [_x(3), _x(3, 2), _pos(3, 2), _x(5, 2)], 2),
}



# Families for the KL cases below: name -> (build(lib, *tensors), draws of its parameters)
_FAMILIES = {
    "Bernoulli": (lambda lib, p: _D(lib).Bernoulli(p), [lambda: _unit(3)]),
    "Beta": (lambda lib, a, b: _D(lib).Beta(a, b), [lambda: _pos(3), lambda: _pos(3)]),
    "Binomial": (lambda lib, p: _D(lib).Binomial(4, p), [lambda: _unit(3)]),
    "Cauchy": (lambda lib, loc, scale: _D(lib).Cauchy(loc, scale), [lambda: _x(3), lambda: _pos(3)]),
    "ContinuousBernoulli": (lambda lib, p: _D(lib).ContinuousBernoulli(p), [lambda: _unit(3)]),
    "Exponential": (lambda lib, rate: _D(lib).Exponential(rate), [lambda: _pos(3)]),
    "Gamma": (lambda lib, a, b: _D(lib).Gamma(a, b), [lambda: _pos(3), lambda: _pos(3)]),
    "Geometric": (lambda lib, p: _D(lib).Geometric(p), [lambda: _unit(3)]),
    "Gumbel": (lambda lib, loc, scale: _D(lib).Gumbel(loc, scale), [lambda: _x(3), lambda: _pos(3)]),
    "HalfNormal": (lambda lib, scale: _D(lib).HalfNormal(scale), [lambda: _pos(3)]),
    "Laplace": (lambda lib, loc, scale: _D(lib).Laplace(loc, scale), [lambda: _x(3), lambda: _pos(3)]),
    "Normal": (lambda lib, loc, scale: _D(lib).Normal(loc, scale), [lambda: _x(3), lambda: _pos(3)]),
    "Pareto": (lambda lib, scale, alpha: _D(lib).Pareto(scale, alpha + 2), [lambda: _pos(3), lambda: _pos(3)]),
    "Poisson": (lambda lib, rate: _D(lib).Poisson(rate), [lambda: _pos(3)]),
    "Uniform": (lambda lib, low, width: _D(lib).Uniform(low, low + width),
                [lambda: _unit(3) * 0.4, lambda: _unit(3) * 0.5]),
    "LowRankMultivariateNormal": (lambda lib, loc, w, d: _D(lib).LowRankMultivariateNormal(loc, w, d),
                                  [lambda: _x(2, 3), lambda: _x(3, 2), lambda: _pos(3)]),
    "MultivariateNormal": (lambda lib, loc, a: _D(lib).MultivariateNormal(loc, _cov(lib, a)),
                           [lambda: _x(3), lambda: _x(3, 3)]),
}


def _kl_case(p: str, q: str, order: int) -> tuple:
    """The case ``kl_divergence(p, q)`` for families named ``p`` and ``q``, on fresh parameters."""
    (build_p, draws_p), (build_q, draws_q) = _FAMILIES[p], _FAMILIES[q]
    arrays = [draw() for draw in draws_p + draws_q]

    def fn(lib, *tensors):  # noqa: ANN001, ANN202
        split = len(draws_p)
        return _kl(lib, build_p(lib, *tensors[:split]), build_q(lib, *tensors[split:]))
    return fn, arrays, order


_ANY = ("Beta", "ContinuousBernoulli", "Pareto", "Uniform")  # q families whose support is bounded
# The pairs PyTorch registers beyond those above, with the gradient order checked (0 where the
# divergence is infinite for these parameters)
_KL_PAIRS = [
    ("ContinuousBernoulli", "ContinuousBernoulli", 2), ("Cauchy", "Cauchy", 2), ("Geometric", "Geometric", 2),
    ("Gumbel", "Gumbel", 2), ("HalfNormal", "HalfNormal", 2), ("Pareto", "Pareto", 0),
    ("LowRankMultivariateNormal", "LowRankMultivariateNormal", 2),
    ("MultivariateNormal", "LowRankMultivariateNormal", 2), ("LowRankMultivariateNormal", "MultivariateNormal", 2),
    ("Bernoulli", "Poisson", 2), ("Beta", "ContinuousBernoulli", 1), ("Beta", "Exponential", 1), ("Beta", "Gamma", 1),
    ("Beta", "Normal", 1), ("Beta", "Uniform", 0), ("ContinuousBernoulli", "Exponential", 2),
    ("ContinuousBernoulli", "Normal", 2), ("ContinuousBernoulli", "Uniform", 0), ("Exponential", "Gumbel", 2),
    ("Exponential", "Normal", 2), ("Exponential", "Gamma", 1), ("Gamma", "Exponential", 1), ("Gamma", "Gumbel", 1),
    ("Gamma", "Normal", 1), ("Gumbel", "Normal", 2), ("Laplace", "Normal", 2), ("Normal", "Gumbel", 2),
    ("Normal", "Laplace", 2), ("Pareto", "Exponential", 2), ("Pareto", "Gamma", 1), ("Pareto", "Normal", 2),
    ("Uniform", "Beta", 1), ("Uniform", "ContinuousBernoulli", 2), ("Uniform", "Exponential", 2),
    ("Uniform", "Gamma", 1), ("Uniform", "Gumbel", 2), ("Uniform", "Pareto", 0),
    ("Beta", "Pareto", 0), ("ContinuousBernoulli", "Pareto", 0), ("Poisson", "Bernoulli", 0),
    ("Poisson", "Binomial", 0),
    *((p, q, 0) for p in ("Exponential", "Gamma") for q in _ANY),
    *((p, q, 0) for p in ("Gumbel", "Laplace", "Normal") for q in (*_ANY, "Exponential", "Gamma")),
    *(("Pareto", q, 0) for q in ("Beta", "ContinuousBernoulli", "Uniform")),
]
CASES.update({f"kl_{p}_{q}": _kl_case(p, q, order) for p, q, order in _KL_PAIRS})
CASES.update({  # the finite sides of the pairs that are infinite above
    "kl_pareto_pareto_finite": (lambda lib, s, a, b: _kl(lib, _D(lib).Pareto(s + 1, a), _D(lib).Pareto(s, b)),
                                [_pos(3), _pos(3), _pos(3)], 2),
    "kl_beta_uniform_finite": (lambda lib, a, b: _kl(lib, _D(lib).Beta(a, b), _D(lib).Uniform(0.0, 1.0)),
                               [_pos(3), _pos(3)], 1),
    "kl_continuous_bernoulli_uniform_finite": (lambda lib, p, w: _kl(
        lib, _D(lib).ContinuousBernoulli(p), _D(lib).Uniform(-w, 1 + w)), [_unit(3), _pos(3)], 2),
    "kl_uniform_pareto_finite": (lambda lib, low, w, alpha: _kl(
        lib, _D(lib).Uniform(low + 2, low + 2 + w), _D(lib).Pareto(low + 1, alpha)), [_unit(3), _pos(3), _pos(3)], 2),
})


def _draws(make, rsample=True):  # noqa: ANN001, ANN202
    """A case drawing ``sample`` and (with ``rsample``) ``rsample`` of ``make(lib, *tensors)`` after
    ``manual_seed(3)``: the same values as PyTorch's where both call the same random primitive, and (the
    seed fixed on every call) an ``rsample`` that gradcheck can differentiate."""
    def fn(lib, *tensors):  # noqa: ANN001, ANN202
        lib.manual_seed(3)
        d = make(lib, *tensors)
        return (d.rsample((4,)), d.sample((2,))) if rsample else (d.sample((4,)),)
    return fn


CASES.update({  # samples: the draws of PyTorch's samplers, through tinyframe's bit-identical random streams
    "draws_cauchy": (_draws(lambda lib, loc, scale: _D(lib).Cauchy(loc, scale)), [_x(3), _pos(3)], 2),
    "draws_half_cauchy": (_draws(lambda lib, scale: _D(lib).HalfCauchy(scale)), [_pos(3)], 2),
    "draws_half_normal": (_draws(lambda lib, scale: _D(lib).HalfNormal(scale)), [_pos(3)], 2),
    "draws_gumbel": (_draws(lambda lib, loc, scale: _D(lib).Gumbel(loc, scale)), [_x(3), _pos(3)], 2),
    "draws_weibull": (_draws(lambda lib, scale, k: _D(lib).Weibull(scale, k)), [_pos(3), _pos(3)], 2),
    "draws_pareto": (_draws(lambda lib, scale, alpha: _D(lib).Pareto(scale, alpha)), [_pos(3), _pos(3)], 2),
    "draws_kumaraswamy": (_draws(lambda lib, a, b: _D(lib).Kumaraswamy(a, b)), [_pos(3), _pos(3)], 2),
    "draws_logistic_normal": (_draws(lambda lib, loc, scale: _D(lib).LogisticNormal(loc, scale)), [_x(3), _pos(3)],
                              2),
    "draws_low_rank_mvn": (_draws(lambda lib, loc, w, d: _D(lib).LowRankMultivariateNormal(loc, w, d)),
                           [_x(3), _x(3, 2), _pos(3)], 2),
    "draws_relaxed_bernoulli": (_draws(lambda lib, t, p: _D(lib).RelaxedBernoulli(t, p)), [_pos(), _unit(3)], 2),
    "draws_relaxed_one_hot": (_draws(lambda lib, t, logits: _D(lib).RelaxedOneHotCategorical(t, logits=logits)),
                              [_pos(), _x(2, 3)], 2),
    "draws_continuous_bernoulli": (_draws(lambda lib, p: _D(lib).ContinuousBernoulli(p)), [_unit(3)], 2),
    "draws_geometric": (_draws(lambda lib, p: _D(lib).Geometric(p), rsample=False), [_unit(3)], 0),
    "draws_multinomial": (_draws(lambda lib, logits: _D(lib).Multinomial(7, logits=logits), rsample=False),
                          [_x(2, 4)], 0),
    "draws_mixture": (_draws(lambda lib, logits, loc, scale: _D(lib).MixtureSameFamily(
        _D(lib).Categorical(logits=logits), _D(lib).Independent(_D(lib).Normal(loc, scale), 1)), rsample=False),
        [_x(3), _x(3, 2), _pos(3, 2)], 0),
    "draws_von_mises": (_draws(lambda lib, loc, k: _D(lib).VonMises(loc, k), rsample=False),
                        [_x(4), np.array([0.5, 2.0, 8.0, 1e-6])], 0),
})


def _generalized_pareto(lib, loc, scale, c, v):  # noqa: ANN001, ANN202
    # PyTorch 2.13 compares the concentration with a tensor of the default dtype, so it scores float64
    # only under that default
    lib.set_default_dtype(lib.float64)
    try:
        d = _D(lib).GeneralizedPareto(loc, scale, c * 0.4)
        return (d.log_prob(loc + v), d.cdf(loc + v), d.log_survival_function(loc + v), d.icdf(v.sigmoid()),
                d.entropy(), d.mean, d.variance, d.mode)
    finally:
        lib.set_default_dtype(lib.float32)


def _lkj_value(lib, a):  # noqa: ANN001, ANN202  a correlation Cholesky factor from any square matrix
    low = a.tril(-1) + lib.eye(a.shape[-1], dtype=a.dtype) * 2
    return low / low.norm(dim=-1, keepdim=True)


CASES.update({
    "inverse_gamma": (lambda lib, a, b, v: _scalar_stats(_D(lib).InverseGamma(a * 3, b), v, cdf=False, icdf=False),
                      [_pos(2, 3), _pos(2, 3), _pos(2, 3)], 1),
    "generalized_pareto": (_generalized_pareto, [_x(6), _pos(6), np.array([-1.0, -0.4, 0.1, 0.3, 0.8, 1.2]), _unit(6)],
                           2),
    "generalized_pareto_exponential": (_generalized_pareto, [_x(2), _pos(2), np.zeros(2), _unit(2)], 0),  # c = 0
    "lkj_cholesky": (lambda lib, c, a: (_D(lib).LKJCholesky(3, c).log_prob(_lkj_value(lib, a)),),
                     [_pos(2), _x(2, 3, 3)], 2),
    "draws_generalized_pareto": (_draws(lambda lib, loc, scale, c: _D(lib).GeneralizedPareto(loc, scale, c)),
                                 [_x(3), _pos(3), np.array([-0.3, 0.2, 0.4])], 2),
})


def _wishart(lib, df, a, value, as_):  # noqa: ANN001, ANN202
    cov = _cov(lib, a)
    matrix = {"covariance_matrix": cov, "scale_tril": lib.linalg.cholesky(cov),
              "precision_matrix": lib.linalg.inv(cov)}[as_]
    d = _D(lib).Wishart(df + 3, **{as_: matrix})
    return (d.log_prob(_cov(lib, value)), d.entropy(), d.mean, d.variance, d.mode, d.covariance_matrix,
            d.precision_matrix, d.scale_tril)


CASES.update({
    "wishart_covariance": (lambda lib, *t: _wishart(lib, *t, "covariance_matrix"), [_pos(2), _x(3, 3), _x(4, 2, 3, 3)],
                           2),
    "wishart_scale_tril": (lambda lib, *t: _wishart(lib, *t, "scale_tril"), [_pos(), _x(2, 3, 3), _x(2, 3, 3)], 2),
    "wishart_precision": (lambda lib, *t: _wishart(lib, *t, "precision_matrix"), [_pos(2), _x(2, 2, 2), _x(2, 2, 2)],
                          1),
    "kl_wishart_bregman": (lambda lib, df, a, b: _kl(lib, _D(lib).Wishart(df + 3, _cov(lib, a)),
                                                     _D(lib).Wishart(df + 4, _cov(lib, b))),
                           [_pos(2), _x(3, 3), _x(2, 3, 3)], 0),
})


def _transform_outputs(t, x):  # noqa: ANN001, ANN202
    """``t(x)``, ``t.inv(t(x))`` and (for transforms that have one) the log-Jacobian."""
    y = t(x)
    return (y, t.inv(y)) + ((t.log_abs_det_jacobian(x, y),) if t.bijective else ())


CASES.update({
    "independent_transform": (lambda lib, x: _transform_outputs(
        _D(lib).IndependentTransform(_D(lib).SigmoidTransform(), 1), x), [_x(2, 3)], 2),
    "reshape_transform": (lambda lib, x: _transform_outputs(_D(lib).ReshapeTransform((2, 3), (3, 2)), x),
                          [_x(4, 2, 3)], 2),
    "softmax_transform": (lambda lib, x: _transform_outputs(_D(lib).SoftmaxTransform(), x), [_x(2, 4)], 2),
    "lower_cholesky_transform": (lambda lib, x: _transform_outputs(_D(lib).LowerCholeskyTransform(), x),
                                 [_x(2, 3, 3)], 2),
    "positive_definite_transform": (lambda lib, x: _transform_outputs(_D(lib).PositiveDefiniteTransform(), x),
                                    [_x(2, 3, 3)], 1),
    "reshape_transformed_mvn": (lambda lib, loc, v: (_D(lib).TransformedDistribution(
        _D(lib).MultivariateNormal(loc, lib.eye(6, dtype=loc.dtype)), _D(lib).ReshapeTransform((6,), (2, 3))
    ).log_prob(v),), [_x(6), _x(2, 3)], 2),
})


def _registry_outputs(lib, x, registry, constraint):  # noqa: ANN001, ANN202
    C = _D(lib).constraints  # noqa: N806
    c = {"greater_than": C.greater_than(2.0), "less_than": C.less_than(-1.0), "interval": C.interval(-2.0, 3.0),
         "unit_interval": C.unit_interval, "simplex": C.simplex, "independent": C.independent(C.positive, 1),
         "corr_cholesky": C.corr_cholesky, "lower_cholesky": C.lower_cholesky,
         "positive_definite": C.positive_definite}[constraint]
    return _transform_outputs(getattr(_D(lib), registry)(c), x)


CASES.update({
    "corr_cholesky_transform": (lambda lib, x: _transform_outputs(_D(lib).CorrCholeskyTransform(), x), [_x(2, 6)], 2),
    "tril_matrix_to_vec": (lambda lib, m: (lambda u: (u.tril_matrix_to_vec(m, -1), u.vec_to_tril_matrix(
        u.tril_matrix_to_vec(m), 0), u.vec_to_tril_matrix(u.tril_matrix_to_vec(m, 1), 1)))(_D(lib).utils),
        [_x(2, 4, 4)], 2),
    **{f"{registry}_{constraint}": (lambda lib, x, r=registry, c=constraint: _registry_outputs(lib, x, r, c),
                                    [_x(2, 3)], 2)
       for registry in ("biject_to", "transform_to")
       for constraint in ("greater_than", "less_than", "interval", "unit_interval", "simplex", "independent",
                          "corr_cholesky")},
    **{f"transform_to_{constraint}": (lambda lib, x, c=constraint: _registry_outputs(lib, x, "transform_to", c),
                                      [_x(2, 3, 3)], 1) for constraint in ("lower_cholesky", "positive_definite")},
})
CASES.update({
    "cat_transform": (lambda lib, x: _transform_outputs(_D(lib).CatTransform(
        [_D(lib).ExpTransform(), _D(lib).SoftplusTransform()], dim=-1, lengths=[1, 3]), x), [_x(3, 4)], 2),
    "stack_transform": (lambda lib, x: _transform_outputs(_D(lib).StackTransform(
        [_D(lib).ExpTransform(), _D(lib).SigmoidTransform(), _D(lib).TanhTransform()], dim=0), x), [_x(3, 4)], 2),
    "biject_to_cat": (lambda lib, x: _transform_outputs(_D(lib).biject_to(_D(lib).constraints.cat(
        [_D(lib).constraints.positive, _D(lib).constraints.unit_interval], dim=1, lengths=[2, 2])), x), [_x(3, 4)], 2),
    "transform_to_stack": (lambda lib, x: _transform_outputs(_D(lib).transform_to(_D(lib).constraints.stack(
        [_D(lib).constraints.positive, _D(lib).constraints.real, _D(lib).constraints.interval(-1.0, 2.0)], dim=-1)),
        x), [_x(2, 3)], 2),
})
