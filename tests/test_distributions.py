"""tinyframe.distributions against PyTorch 2.13: log_prob, entropy, moments, cdf/icdf and KL values
recorded from PyTorch on the same inputs; gradients through them and through rsample against finite
differences (float64); sample shapes and empirical moments under a fixed seed; PyTorch's argument
validation errors."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import tinyframe as tf
from tinyframe import distributions as D
from tinyframe.autograd import gradcheck, gradgradcheck
from tinyframe.distributions import constraints

from ._distributions_cases import CASES
from ._distributions_expected import EXPECTED


def _inputs(arrays: list, requires_grad: bool = False) -> list:
    return [tf.tensor(a, dtype=tf.float64, requires_grad=requires_grad) for a in arrays]


@pytest.mark.parametrize("name", list(CASES))
def test_values_match_pytorch(name: str) -> None:
    fn, arrays, _ = CASES[name]
    outs = fn(tf, *_inputs(arrays))
    assert len(outs) == len(EXPECTED[name])
    for out, expected in zip(outs, EXPECTED[name]):
        expected = np.asarray(expected)
        np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-7, atol=1e-9)
        assert out.dtype == (tf.int64 if expected.dtype.kind == "i" else tf.float64)


@pytest.mark.parametrize("name", [n for n, case in CASES.items() if case[2] >= 1])
def test_gradients_match_finite_differences(name: str) -> None:
    fn, arrays, order = CASES[name]

    def first_output(*tensors: tf.Tensor) -> tf.Tensor:
        return fn(tf, *tensors)[0]
    inputs = _inputs(arrays, requires_grad=True)
    assert gradcheck(first_output, inputs)
    if order >= 2:
        assert gradgradcheck(first_output, inputs)


def _seeded(rsample: object) -> object:
    def draw(*params: tf.Tensor) -> tf.Tensor:
        tf.manual_seed(3)  # the same noise on every call gradcheck makes
        return rsample(*params)
    return draw


@pytest.mark.parametrize("make", [
    lambda loc, scale: D.Normal(loc, scale).rsample((4,)),
    lambda loc, scale: D.Laplace(loc, scale).rsample((4,)),
    lambda loc, scale: D.Uniform(loc, loc + scale).rsample((4,)),
    lambda loc, scale: D.Exponential(scale).rsample((4,)),
    lambda loc, scale: D.LogNormal(loc, scale).rsample((4,)),
    lambda loc, scale: D.Independent(D.Normal(loc, scale), 1).rsample((4,)),
    lambda loc, scale: D.MultivariateNormal(loc, scale_tril=tf.diag_embed(scale) + 0.1 * tf.ones(3, 3).tril(-1)
                                            ).rsample((4,)),
    lambda loc, scale: D.TransformedDistribution(D.Normal(loc, scale), [D.TanhTransform()]).rsample((4,)),
], ids=["normal", "laplace", "uniform", "exponential", "log_normal", "independent", "mvn", "tanh"])
def test_rsample_is_differentiable_in_the_parameters(make: object) -> None:
    loc = tf.tensor([0.3, -1.0, 2.0], dtype=tf.float64, requires_grad=True)
    scale = tf.tensor([0.5, 1.5, 1.0], dtype=tf.float64, requires_grad=True)
    assert gradcheck(_seeded(make), (loc, scale))


# (alpha, x, dx/dalpha from the exact CDF (mpmath, 30 digits), torch._standard_gamma_grad's approximation)
_GAMMA_GRADS = [
    (0.05, 0.0045, 0.44378993840632486, 0.44378993840632447), (0.05, 0.3, 7.684733401293825, 7.684734651460045),
    (0.3, 0.45, 1.8897592693316332, 1.8897623824945526), (0.3, 5.4, 4.794257403310687, 4.797078822135969),
    (1.0, 1.5, 1.4309374423012802, 1.431010897885187), (1.0, 9.0, 2.8753021978183932, 2.8749120661919583),
    (2.5, 0.125, 0.1655108407643657, 0.16551084051232356), (2.5, 7.5, 1.7589076582016319, 1.7589336369503776),
    (7.0, 3.5, 0.7095106538001862, 0.7095001663253209), (7.0, 21.0, 1.6863867099557934, 1.6859859437802842),
    (30.0, 30.0, 1.0055737170827104, 1.0055671403463649), (30.0, 45.0, 1.223142506370333, 1.2231899289600177),
    (200.0, 180.0, 0.9490349251117779, 0.9491228739009201), (200.0, 230.0, 1.0724010427863757, 1.0724026932380917),
    (5000.0, 5000.0, 1.000033333999924, 1.0000333337500025), (5000.0, 5150.0, 1.0148860384012635, 1.0148838396591495),
]


def test_standard_gamma_grad_is_the_implicit_derivative() -> None:
    alpha, x, exact, pytorch = (tf.tensor(column, dtype=tf.float64) for column in zip(*_GAMMA_GRADS))
    grad = tf._standard_gamma_grad(alpha, x)
    np.testing.assert_allclose(grad.numpy(), exact.numpy(), rtol=1e-9)
    np.testing.assert_allclose(grad.numpy(), pytorch.numpy(), rtol=2e-3)  # PyTorch's approximation is within 1.2e-3


def test_gamma_beta_dirichlet_rsample_are_differentiable_in_the_concentration() -> None:
    concentration = tf.tensor([0.7, 2.0, 9.0], dtype=tf.float64, requires_grad=True)
    rate = tf.tensor(2.0, dtype=tf.float64, requires_grad=True)
    sample = D.Gamma(concentration, rate).rsample()
    sample.sum().backward()
    standard = sample.detach() * 2.0
    np.testing.assert_allclose(concentration.grad.numpy(),
                               tf._standard_gamma_grad(concentration.detach(), standard).numpy() / 2.0, rtol=1e-12)
    np.testing.assert_allclose(rate.grad.item(), -(sample.detach() / 2.0).sum().item(), rtol=1e-12)
    assert type(sample.grad_fn).__name__ == "DivBackward0"
    for d in (D.Beta(concentration[:2], concentration[1:]), D.Dirichlet(concentration)):
        concentration.grad = None
        d.rsample((5,)).pow(2).sum().backward()
        assert concentration.grad is not None and bool(tf.isfinite(concentration.grad).all())


def test_gamma_rsample_gradient_is_unbiased() -> None:
    # d/dalpha E[X^2] = d/dalpha alpha (alpha + 1) = 2 alpha + 1 for X ~ Gamma(alpha, 1)
    tf.manual_seed(0)
    alpha = tf.tensor(1.5, dtype=tf.float64, requires_grad=True)
    D.Gamma(alpha, 1.0).rsample((40000,)).pow(2).mean().backward()
    assert alpha.grad.item() == pytest.approx(4.0, rel=0.03)


@pytest.mark.parametrize("make, shape", [
    (lambda: D.Normal(tf.zeros(3), tf.ones(3)), (5, 2, 3)),
    (lambda: D.Categorical(tf.ones(2, 4)), (5, 2, 2)),
    (lambda: D.Bernoulli(tf.full((2, 3), 0.3)), (5, 2, 2, 3)),
    (lambda: D.MultivariateNormal(tf.zeros(2, 3), tf.eye(3)), (5, 2, 2, 3)),
    (lambda: D.OneHotCategorical(tf.ones(4)), (5, 2, 4)),
    (lambda: D.Dirichlet(tf.ones(3)), (5, 2, 3)),
    (lambda: D.Independent(D.Normal(tf.zeros(2, 3), 1.0), 2), (5, 2, 2, 3)),
])
def test_sample_shape_is_sample_shape_then_batch_then_event(make: object, shape: tuple) -> None:
    d = make()
    sample = d.sample((5, 2))
    assert sample.shape == shape
    assert sample.shape == d._extended_shape((5, 2))
    assert d.sample().shape == d.batch_shape + d.event_shape


@pytest.mark.parametrize("make, mean, var", [
    (lambda: D.Normal(1.5, 2.0), 1.5, 4.0),
    (lambda: D.Uniform(-1.0, 3.0), 1.0, 16 / 12),
    (lambda: D.Laplace(0.5, 1.5), 0.5, 4.5),
    (lambda: D.Exponential(2.0), 0.5, 0.25),
    (lambda: D.Poisson(3.0), 3.0, 3.0),
    (lambda: D.Bernoulli(0.3), 0.3, 0.21),
    (lambda: D.Binomial(10, tf.tensor(0.3)), 3.0, 2.1),
    (lambda: D.Gamma(3.0, 2.0), 1.5, 0.75),
    (lambda: D.Beta(2.0, 3.0), 0.4, 0.04),
    (lambda: D.LogNormal(0.0, 0.5), math.exp(0.125), (math.exp(0.25) - 1) * math.exp(0.25)),
    (lambda: D.Categorical(tf.tensor([0.2, 0.3, 0.5])), 1.3, 0.61),
])
def test_empirical_moments_match(make: object, mean: float, var: float) -> None:
    tf.manual_seed(0)
    samples = make().sample((40000,)).double()
    assert abs(samples.mean().item() - mean) < 0.03 * max(1.0, math.sqrt(var))
    assert abs(samples.var().item() - var) < 0.05 * max(var, 0.2)


def test_multivariate_normal_samples_have_its_covariance() -> None:
    tf.manual_seed(0)
    cov = tf.tensor([[2.0, 0.6], [0.6, 1.0]])
    samples = D.MultivariateNormal(tf.tensor([1.0, -1.0]), cov).sample((40000,))
    np.testing.assert_allclose(samples.mean(0).numpy(), [1.0, -1.0], atol=0.03)
    np.testing.assert_allclose(np.cov(samples.numpy().T), cov.numpy(), atol=0.05)


def test_same_seed_same_samples() -> None:
    draws = []
    for _ in range(2):
        tf.manual_seed(5)
        draws.append((D.Normal(0.0, 1.0).sample((3,)), D.Categorical(logits=tf.zeros(4)).sample((3,))))
    for first, second in zip(*draws):
        assert tf.equal(first, second)


def test_sample_is_not_differentiable_and_rsample_is() -> None:
    loc = tf.zeros(2, requires_grad=True)
    d = D.Normal(loc, 1.0)
    assert not d.sample().requires_grad
    assert d.rsample().requires_grad
    assert D.Categorical(logits=loc).sample().dtype == tf.int64


def test_float32_parameters_give_float32() -> None:
    d = D.Normal(tf.zeros(2), 1.0)
    assert d.scale.dtype == tf.float32
    assert d.log_prob(tf.zeros(2)).dtype == tf.float32 and d.rsample().dtype == tf.float32
    assert D.Categorical(logits=tf.zeros(3)).entropy().dtype == tf.float32


def test_validation_errors_are_pytorchs() -> None:
    with pytest.raises(ValueError) as raised:
        D.Normal(tf.tensor([0.0, 1.0]), tf.tensor([1.0, -1.0]))
    assert str(raised.value) == (
        "Expected parameter scale (Tensor of shape (2,)) of distribution Normal(loc: tinyframe.Size([2]), scale: "
        "tinyframe.Size([2])) to satisfy the constraint GreaterThan(lower_bound=0.0), but found invalid values:\n"
        "tensor([ 1., -1.])")
    with pytest.raises(ValueError, match=r"Expected parameter probs .* Simplex\(\)"):
        D.Categorical(probs=tf.tensor([0.5, -0.5]))
    with pytest.raises(ValueError, match=r"Bernoulli\(probs: 1.5\) to satisfy the constraint "
                                         r"Interval\(lower_bound=0.0, upper_bound=1.0\)"):
        D.Bernoulli(1.5)
    with pytest.raises(ValueError, match="Either `probs` or `logits` must be specified, but not both."):
        D.Categorical(tf.ones(2), tf.ones(2))
    with pytest.raises(ValueError, match="Exactly one of covariance_matrix or precision_matrix or scale_tril"):
        D.MultivariateNormal(tf.zeros(2))
    with pytest.raises(ValueError, match="Expected parameter covariance_matrix .* PositiveDefinite"):
        D.MultivariateNormal(tf.zeros(2), tf.tensor([[1.0, 2.0], [2.0, 1.0]]))
    with pytest.raises(ValueError, match=r"Expected parameter low .* LessThan"):
        D.Uniform(2.0, 1.0)


def test_log_prob_checks_its_value() -> None:
    with pytest.raises(ValueError, match=r"Expected value argument \(Tensor of shape \(2,\)\) to be within the "
                                         r"support \(IntegerInterval\(lower_bound=0, upper_bound=2\)\)"):
        D.Categorical(logits=tf.zeros(3)).log_prob(tf.tensor([1, 3]))
    with pytest.raises(ValueError, match="The value argument to log_prob must be a Tensor"):
        D.Normal(0.0, 1.0).log_prob(0.5)
    with pytest.raises(ValueError, match=r"Value is not broadcastable with batch_shape\+event_shape"):
        D.Normal(tf.zeros(3), 1.0).log_prob(tf.zeros(2))
    with pytest.raises(ValueError, match="The right-most size of value must match event_shape"):
        D.MultivariateNormal(tf.zeros(3), tf.eye(3)).log_prob(tf.zeros(2))
    assert D.Normal(0.0, 1.0, validate_args=False).log_prob(tf.tensor(0.0)).item() == pytest.approx(-0.9189385)


def test_set_default_validate_args_turns_checks_off() -> None:
    D.Distribution.set_default_validate_args(False)
    try:
        assert D.Normal(0.0, -1.0).scale.item() == -1.0
        assert math.isnan(D.Normal(0.0, -1.0).log_prob(tf.tensor(0.0)).item())
    finally:
        D.Distribution.set_default_validate_args(True)
    with pytest.raises(ValueError):
        D.Distribution.set_default_validate_args("yes")
    with pytest.raises(ValueError):
        D.Normal(0.0, -1.0)


def test_expand_broadcasts_parameters_without_checking_again() -> None:
    d = D.Normal(tf.tensor([0.0, 1.0]), 2.0).expand((3, 2))
    assert d.batch_shape == (3, 2) and d.loc.shape == (3, 2) and d.scale.shape == (3, 2)
    c = D.Categorical(logits=tf.zeros(4)).expand((2,))
    assert c.batch_shape == (2,) and c.logits.shape == (2, 4) and c.sample().shape == (2,)
    m = D.MultivariateNormal(tf.zeros(3), tf.eye(3)).expand((2,))
    assert m.batch_shape == (2,) and m.covariance_matrix.shape == (2, 3, 3) and m.log_prob(tf.zeros(3)).shape == (2,)
    i = D.Independent(D.Normal(tf.zeros(3), 1.0), 1).expand((4,))
    assert i.batch_shape == (4,) and i.event_shape == (3,) and i.base_dist.batch_shape == (4, 3)
    assert D.LogNormal(0.0, 1.0).expand((2,)).sample().shape == (2,)


def test_shapes_constraints_and_flags() -> None:
    d = D.Independent(D.Normal(tf.zeros(2, 3), 1.0), 1)
    assert (d.batch_shape, d.event_shape, d.has_rsample) == ((2,), (3,), True)
    assert repr(d.support) == "IndependentConstraint(Real(), 1)"
    assert repr(D.Uniform(0.0, 1.0).support) == "Interval(lower_bound=0.0, upper_bound=1.0)"
    assert D.Categorical(logits=tf.zeros(3)).support.upper_bound == 2
    assert D.Categorical.arg_constraints["probs"] is constraints.simplex
    assert constraints.is_dependent(D.Uniform.support) and constraints.is_dependent(D.Categorical.support)
    assert not D.Poisson.has_rsample and D.Normal.has_rsample and D.Categorical.has_enumerate_support
    assert repr(D.Normal(0.0, 1.0)) == "Normal(loc: 0.0, scale: 1.0)"
    assert repr(d) == "Independent(Normal(loc: tinyframe.Size([2, 3]), scale: tinyframe.Size([2, 3])), 1)"


def test_enumerate_support() -> None:
    c = D.Categorical(logits=tf.zeros(2, 3))
    assert c.enumerate_support().tolist() == [[0, 0], [1, 1], [2, 2]]
    assert c.enumerate_support(expand=False).shape == (3, 1)
    assert D.Bernoulli(tf.tensor([0.2, 0.4])).enumerate_support().tolist() == [[0.0, 0.0], [1.0, 1.0]]
    assert D.OneHotCategorical(logits=tf.zeros(3)).enumerate_support().tolist() == np.eye(3).tolist()


def test_kl_registry_dispatch_and_errors() -> None:
    class MyNormal(D.Normal):
        pass
    p, q = MyNormal(0.0, 1.0), D.Normal(1.0, 2.0)
    assert D.kl_divergence(p, q).item() == pytest.approx(0.5 * (0.25 + 0.25 - 1 - math.log(0.25)))

    @D.register_kl(MyNormal, D.Normal)
    def _always_one(p: D.Distribution, q: D.Distribution) -> tf.Tensor:
        return tf.tensor(1.0)
    assert D.kl_divergence(p, q).item() == 1.0
    with pytest.raises(NotImplementedError, match="No KL\\(p \\|\\| q\\) is implemented for p type Normal and q "
                                                  "type Categorical"):
        D.kl_divergence(q, D.Categorical(logits=tf.zeros(2)))


def test_tanh_transform_with_cache_inverts_its_own_samples_exactly() -> None:
    tanh = D.TanhTransform(cache_size=1)
    d = D.TransformedDistribution(D.Normal(tf.zeros(3), 1.0), [tanh])
    x = d.rsample()
    assert tanh.inv(x) is tanh._cached_x_y[0]
    assert d.log_prob(x).shape == (3,)
    with pytest.raises(ValueError, match="cache_size must be 0 or 1"):
        D.TanhTransform(cache_size=2)


def test_sampling_calls_the_primitives_pytorch_calls() -> None:
    # Normal.rsample is loc + scale * empty(shape).normal_(), Categorical.sample is multinomial of the
    # probabilities with replacement, transposed: the same draws as those functions under one seed.
    tf.manual_seed(1)
    drawn = D.Normal(tf.zeros(2, 3), tf.ones(2, 3)).rsample()
    tf.manual_seed(1)
    assert tf.equal(drawn, tf.empty(2, 3).normal_())
    probs = tf.tensor([[0.1, 0.9], [0.6, 0.4]])
    tf.manual_seed(2)
    drawn = D.Categorical(probs).sample((5,))
    tf.manual_seed(2)
    assert tf.equal(drawn, tf.multinomial(probs, 5, True).T)
    tf.manual_seed(4)
    drawn = D.Bernoulli(probs).sample()
    tf.manual_seed(4)
    assert tf.equal(drawn, tf.bernoulli(probs))


def test_distributions_sample_and_score_on_the_parameters_device(device: str) -> None:
    loc = tf.zeros(2, 3, device=device, requires_grad=True)
    normal = D.Normal(loc, 1.0)
    sample = normal.rsample((4,))
    assert sample.device == loc.device and normal.scale.device == loc.device
    normal.log_prob(sample).sum().backward()
    assert loc.grad.device == loc.device
    categorical = D.Categorical(logits=tf.zeros(2, 3, device=device))
    assert categorical.sample((5,)).device == loc.device and categorical.entropy().device == loc.device
    mvn = D.MultivariateNormal(tf.zeros(3, device=device), tf.eye(3, device=device))
    assert mvn.log_prob(mvn.sample((2,))).device == loc.device
    for d in (D.Bernoulli(tf.full((3,), 0.5, device=device)), D.Uniform(tf.zeros(3, device=device), 1.0),
              D.Laplace(tf.zeros(3, device=device), 1.0), D.Exponential(tf.ones(3, device=device)),
              D.Gamma(tf.ones(3, device=device), 1.0), D.Dirichlet(tf.ones(3, device=device)),
              D.Poisson(tf.ones(3, device=device)), D.Binomial(3, tf.full((3,), 0.5, device=device))):
        assert d.log_prob(d.sample()).device == loc.device


def _t(*values: float) -> tf.Tensor:
    return tf.tensor(list(values))


# (construction or scoring, exception, PyTorch 2.13's message)
_NEW_ERRORS = [
    (lambda: D.Geometric(_t(0.0, 0.5)), ValueError,
     "Expected parameter probs (Tensor of shape (2,)) of distribution Geometric(probs: tinyframe.Size([2])) to be "
     "positive but found invalid values:\ntensor([0.])"),
    (lambda: D.Multinomial(_t(3), _t(0.5, 0.5)), NotImplementedError, "inhomogeneous total_count is not supported"),
    (lambda: D.MixtureSameFamily(D.Normal(0.0, 1.0), D.Normal(_t(0.0, 1.0), 1.0)), ValueError,
     " The Mixture distribution needs to be an  instance of torch.distributions.Categorical"),
    (lambda: D.MixtureSameFamily(D.Categorical(_t(0.5, 0.5, 0.0)), D.Normal(_t(0.0, 1.0), 1.0)), ValueError,
     "`mixture_distribution component` (3) does not equal `component_distribution.batch_shape[-1]` (2)"),
    (lambda: D.MixtureSameFamily(D.Categorical(tf.ones(3, 2)), D.Normal(tf.zeros(4, 2), 1.0)), ValueError,
     "`mixture_distribution.batch_shape` (tinyframe.Size([3])) is not compatible with "
     "`component_distribution.batch_shape`(tinyframe.Size([4]))"),
    (lambda: D.LowRankMultivariateNormal(_t(0.0), tf.ones(2, 1), _t(1.0)), ValueError,
     "cov_factor must be a batch of matrices with shape 1 x m"),
    (lambda: D.LowRankMultivariateNormal(tf.zeros(3, 2), tf.ones(4, 2, 1), _t(1.0, 1.0)), ValueError,
     "Incompatible batch shapes: loc tinyframe.Size([3, 2]), cov_factor tinyframe.Size([4, 2, 1]), cov_diag "
     "tinyframe.Size([2])"),
    (lambda: D.StudentT(_t(-1.0, 2.0)), ValueError,
     "Expected parameter df (Tensor of shape (2,)) of distribution Chi2() to satisfy the constraint "
     "GreaterThan(lower_bound=0.0), but found invalid values:\ntensor([-1.,  2.])"),
    (lambda: D.ContinuousBernoulli(_t(1.5), validate_args=True), ValueError, "The parameter probs has invalid values"),
    (lambda: D.NegativeBinomial(_t(1.0), _t(1.0)), ValueError,
     "Expected parameter probs (Tensor of shape (1,)) of distribution NegativeBinomial(total_count: tensor([1.]), "
     "probs: tensor([1.])) to satisfy the constraint HalfOpenInterval(lower_bound=0.0, upper_bound=1.0), but found "
     "invalid values:\ntensor([1.])"),
    (lambda: D.RelaxedBernoulli(_t(0.5), _t(1.5)), ValueError,
     "Expected parameter probs (Tensor of shape (1,)) of distribution LogitRelaxedBernoulli(probs: tensor([1.5000])) "
     "to satisfy the constraint Interval(lower_bound=0.0, upper_bound=1.0), but found invalid values:\n"
     "tensor([1.5000])"),
    (lambda: D.FisherSnedecor(_t(1.0), _t(0.0)), ValueError,
     "Expected parameter concentration (Tensor of shape (1,)) of distribution Gamma(concentration: tensor([0.]), "
     "rate: tensor([0.])) to satisfy the constraint GreaterThan(lower_bound=0.0), but found invalid values:\n"
     "tensor([0.])"),
    (lambda: D.Pareto(_t(1.0), _t(2.0)).log_prob(_t(0.5)), ValueError,
     "Expected value argument (Tensor of shape (1,)) to be within the support (GreaterThanEq(lower_bound=tensor("
     "[1.]))) of the distribution Pareto(alpha: tensor([2.]), scale: tensor([1.])), but found invalid values:\n"
     "tensor([0.5000])"),
    (lambda: D.Multinomial(2, _t(0.5, 0.5)).log_prob(_t(2.0, 1.0)), ValueError,
     "Expected value argument (Tensor of shape (2,)) to be within the support (Multinomial()) of the distribution "
     "Multinomial(), but found invalid values:\ntensor([2., 1.])"),
    (lambda: D.MixtureSameFamily(D.Categorical(_t(0.5, 0.5)), D.Exponential(_t(1.0, 2.0))).log_prob(_t(-1.0)),
     ValueError, "Expected value argument (Tensor of shape (1,)) to be within the support (MixtureSameFamilyConstraint("
     "GreaterThanEq(lower_bound=0.0))) of the distribution MixtureSameFamily(\n  Categorical(probs: "
     "tinyframe.Size([2]), logits: tinyframe.Size([2])),\n  Exponential(rate: tinyframe.Size([2]))), but found "
     "invalid values:\ntensor([-1.])"),
]


@pytest.mark.parametrize("make, error, message", _NEW_ERRORS)
def test_new_distributions_validate_as_pytorch(make: object, error: type, message: str) -> None:
    with pytest.raises(error) as raised:
        make()
    assert str(raised.value) == message


# (distribution, batch_shape, event_shape, has_rsample, repr(support), PyTorch 2.13's)
_NEW_SHAPES = [
    (lambda: D.Cauchy(_t(0.5, -1.0), 2.0), (2,), (), True, "Real()"),
    (lambda: D.HalfCauchy(_t(1.0, 0.5)), (2,), (), True, "GreaterThanEq(lower_bound=0.0)"),
    (lambda: D.Gumbel(0.5, 1.0), (), (), True, "Real()"),
    (lambda: D.StudentT(_t(3.0, 1.5)), (2,), (), True, "Real()"),
    (lambda: D.Chi2(_t(3.0, 1.5)), (2,), (), True, "GreaterThanEq(lower_bound=0.0)"),
    (lambda: D.Geometric(logits=_t(0.2, 0.5)), (2,), (), False, "IntegerGreaterThan(lower_bound=0)"),
    (lambda: D.NegativeBinomial(_t(3.0, 1.5), _t(0.2, 0.5)), (2,), (), False, "IntegerGreaterThan(lower_bound=0)"),
    (lambda: D.Multinomial(10, _t(0.2, 0.5, 0.3)), (), (3,), False, "Multinomial()"),
    (lambda: D.MixtureSameFamily(D.Categorical(_t(0.2, 0.8)), D.Normal(_t(0.0, 1.0), 1.0)), (), (), False,
     "MixtureSameFamilyConstraint(Real())"),
    (lambda: D.Pareto(_t(1.0, 0.5), _t(3.0, 1.5)), (2,), (), True,
     "GreaterThanEq(lower_bound=tensor([1.0000, 0.5000]))"),
    (lambda: D.Kumaraswamy(_t(1.0, 0.5), _t(3.0, 1.5)), (2,), (), True, "Interval(lower_bound=0.0, upper_bound=1.0)"),
    (lambda: D.LogisticNormal(0.5, 1.0), (), (2,), True, "Simplex()"),
    (lambda: D.LogisticNormal(_t(0.5, -1.0), _t(1.0, 0.5)), (), (3,), True, "Simplex()"),
    (lambda: D.LowRankMultivariateNormal(_t(0.5, -1.0, 2.0), tf.ones(3, 2), _t(1.0, 0.5, 2.0)), (), (3,), True,
     "IndependentConstraint(Real(), 1)"),
    (lambda: D.RelaxedOneHotCategorical(_t(0.5), _t(0.2, 0.5, 0.3)), (), (3,), True, "Simplex()"),
    (lambda: D.ContinuousBernoulli(_t(0.2, 0.5)), (2,), (), True, "Interval(lower_bound=0.0, upper_bound=1.0)"),
    (lambda: D.FisherSnedecor(_t(3.0, 1.5), _t(3.0, 4.5)), (2,), (), True, "GreaterThan(lower_bound=0.0)"),
    (lambda: D.VonMises(_t(0.5, -1.0), _t(1.0, 0.5)), (2,), (), False, "Real()"),
    (lambda: D.Weibull(_t(1.0, 0.5), _t(3.0, 1.5)), (2,), (), True, "GreaterThan(lower_bound=0.0)"),
    (lambda: D.InverseGamma(_t(3.0, 1.5), _t(1.0, 2.0)), (2,), (), True, "GreaterThan(lower_bound=0.0)"),
    (lambda: D.GeneralizedPareto(_t(0.0, 1.0), _t(1.0, 2.0), _t(-0.5, 0.5)), (2,), (), True,
     "Interval(lower_bound=tensor([0., 1.]), upper_bound=tensor([2., inf]))"),
    (lambda: D.LKJCholesky(3, _t(0.5, 2.0)), (2,), (3, 3), False, "CorrCholesky()"),
]


def test_lkj_cholesky_samples_are_correlation_cholesky_factors() -> None:
    # The squared row norms are Beta draws, through tinyframe's gamma sampler: not PyTorch's draws
    tf.manual_seed(0)
    d = D.LKJCholesky(4, tf.tensor([0.5, 3.0], dtype=tf.float64))
    sample = d.sample((500,))
    assert sample.shape == (500, 2, 4, 4) and bool(constraints.corr_cholesky.check(sample).all())
    assert bool(tf.isfinite(d.log_prob(sample)).all())
    # E[corr_ij] = 0 and Var[corr_ij] = 1 / (2 concentration + dim - 1) off the diagonal
    corr = (sample @ sample.mT)[..., 1, 0]
    np.testing.assert_allclose(corr.var(0).numpy(), [1 / 4, 1 / 9], rtol=0.15)
    with pytest.raises(ValueError, match="Expected dim to be an integer greater than or equal to 2. Found dim=1."):
        D.LKJCholesky(1)


@pytest.mark.parametrize("make, batch_shape, event_shape, has_rsample, support", _NEW_SHAPES)
def test_new_distributions_shapes_supports_and_expand(make: object, batch_shape: tuple, event_shape: tuple,
                                                      has_rsample: bool, support: str) -> None:
    d = make()
    assert (d.batch_shape, d.event_shape, d.has_rsample, repr(d.support)) == (
        batch_shape, event_shape, has_rsample, support)
    assert d.sample((5,)).shape == (5, *batch_shape, *event_shape)
    assert d.sample().dtype == tf.float32
    e = d.expand((4, 2))
    assert type(e) is type(d) and (e.batch_shape, e.event_shape) == ((4, 2), d.event_shape)
    assert e.sample((5,)).shape == (5, 4, 2, *event_shape) and e.log_prob(e.sample()).shape == (4, 2)


def test_gamma_based_rsample_is_differentiable() -> None:
    # The draws go through _standard_gamma (tinyframe's own sampler, so not recorded from PyTorch); the
    # gradient in df is the implicit one, as for Gamma
    df = tf.tensor([0.5, 1.5, 4.0], dtype=tf.float64, requires_grad=True)
    assert gradcheck(_seeded(lambda loc, scale: D.StudentT(df.detach() * 4, loc, scale).rsample((4,))),
                     (df.detach().clone().requires_grad_(), tf.tensor([0.5, 1.5, 1.0], dtype=tf.float64,
                                                                       requires_grad=True)))
    sample = D.Chi2(df).rsample()
    sample.sum().backward()
    np.testing.assert_allclose(df.grad.numpy(), tf._standard_gamma_grad(df.detach() / 2, sample.detach() / 2).numpy(),
                               rtol=1e-12)
    df.grad = None
    D.FisherSnedecor(df, df + 1).rsample((3,)).sum().backward()
    assert bool(tf.isfinite(df.grad).all()) and bool((df.grad != 0).all())


def test_new_distributions_keep_float32() -> None:
    for d in (D.Cauchy(tf.zeros(2), 1.0), D.Gumbel(tf.zeros(2), 1.0), D.StudentT(tf.ones(2)),
              D.Weibull(tf.ones(2), 2.0), D.VonMises(tf.zeros(2), 1.0), D.Geometric(tf.full((2,), 0.5)),
              D.ContinuousBernoulli(tf.full((2,), 0.3)), D.LowRankMultivariateNormal(tf.zeros(2), tf.ones(2, 1),
                                                                                      tf.ones(2))):
        sample = d.sample()
        assert sample.dtype == tf.float32 and d.log_prob(sample).dtype == tf.float32, type(d).__name__
    assert D.Chi2(tf.ones(2)).cdf(tf.ones(2)).dtype == tf.float32


def test_new_distributions_on_the_parameters_device(device: str) -> None:
    ones = tf.ones(3, device=device)
    for d in (D.Cauchy(ones * 0, ones), D.HalfNormal(ones), D.Gumbel(ones * 0, ones), D.StudentT(ones * 3),
              D.Geometric(ones * 0.5), D.NegativeBinomial(ones, ones * 0.5), D.Weibull(ones, ones),
              D.Pareto(ones, ones), D.Kumaraswamy(ones, ones), D.LogisticNormal(ones * 0, ones),
              D.RelaxedBernoulli(ones[0], ones * 0.5), D.ContinuousBernoulli(ones * 0.3),
              D.FisherSnedecor(ones, ones), D.VonMises(ones * 0, ones), D.Multinomial(4, ones),
              D.LowRankMultivariateNormal(ones * 0, tf.ones(3, 2, device=device), ones),
              D.MixtureSameFamily(D.Categorical(ones), D.Normal(ones * 0, ones))):
        assert d.log_prob(d.sample()).device == ones.device, type(d).__name__
    assert D.Gamma(ones, ones).cdf(ones).device == ones.device


def test_wishart_rsample_is_positive_definite_with_the_wishart_mean() -> None:
    # Bartlett's decomposition over Chi2 draws (tinyframe's gamma sampler, so not PyTorch's values)
    tf.manual_seed(0)
    cov = tf.tensor([[2.0, 0.6], [0.6, 1.0]], dtype=tf.float64, requires_grad=True)
    d = D.Wishart(tf.tensor([4.0, 9.0], dtype=tf.float64), cov)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "Singular sample detected." for non-singular samples (PyTorch warns)
        sample = d.rsample((4000,))
    assert sample.shape == (4000, 2, 2, 2) and bool(constraints.positive_definite.check(sample).all())
    np.testing.assert_allclose(sample.mean(0).detach().numpy(), d.mean.detach().numpy(), rtol=0.05)
    sample.sum().backward()
    assert cov.grad is not None and bool(tf.isfinite(cov.grad).all())
    with pytest.raises(ValueError, match=r"Value of df=1.0 expected to be greater than ndim - 1 = 1."):
        D.Wishart(1.0, tf.eye(2))
    with pytest.raises(AssertionError, match="Exactly one of covariance_matrix or precision_matrix or scale_tril"):
        D.Wishart(3.0)
    assert D.Wishart(3.0, tf.eye(2)).expand((3,)).sample().shape == (3, 2, 2)


def test_constraint_registry_lookup_and_errors() -> None:
    assert D.biject_to(constraints.real) is D.identity_transform
    assert isinstance(D.biject_to(constraints.simplex), D.StickBreakingTransform)
    assert isinstance(D.transform_to(constraints.simplex), D.SoftmaxTransform)
    assert isinstance(D.biject_to(constraints.unit_interval), D.SigmoidTransform)
    with pytest.raises(NotImplementedError, match="Cannot transform _LowerCholesky constraints"):
        D.biject_to(constraints.lower_cholesky)
    with pytest.raises(TypeError, match="Expected constraint to be either a Constraint subclass or instance, but got"):
        D.transform_to.register(int, lambda c: D.ExpTransform())

    class Above(constraints.Constraint):
        pass
    D.transform_to.register(Above, lambda c: D.ExpTransform())
    assert isinstance(D.transform_to(Above()), D.ExpTransform)


def test_cat_and_stack_check_their_dimension_as_pytorch() -> None:
    x = tf.zeros(3, 4)
    with pytest.raises(AssertionError, match=r"^x.size\(0\) = 3 must equal length 1$"):
        D.CatTransform([D.ExpTransform()], dim=0)(x)
    with pytest.raises(AssertionError, match="^dim 3 out of range for tensor with 2 dimensions$"):
        D.StackTransform([D.ExpTransform()], dim=3)(x)
    with pytest.raises(AssertionError, match=r"^y.size\(0\) = 2 must equal len\(transforms\) 3$"):
        D.StackTransform([D.ExpTransform()] * 3, dim=0).log_abs_det_jacobian(x, x[:2])
    with pytest.raises(AssertionError, match="^dim 5 out of range for value with 2 dimensions$"):
        constraints.cat([constraints.real], dim=5).check(x)
    with pytest.raises(AssertionError, match="All elements of tseq must be Transform instances"):
        D.CatTransform([3])
    stacked = constraints.stack([constraints.positive, constraints.real], dim=-1)
    assert stacked.check(tf.tensor([[1.0, -1.0], [-1.0, 1.0]])).tolist() == [[True, True], [False, True]]
