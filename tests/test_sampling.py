"""Sampling with tensor parameters: multinomial, normal(mean/std tensors), bernoulli, poisson, as in
PyTorch 2.13 (shapes, dtypes, grad_fn names, zero gradients, errors)."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as tf


def test_multinomial_with_replacement_follows_the_weights(device: str) -> None:
    weights = tf.tensor([1.0, 2.0, 7.0], device=device)  # unnormalised
    draws = tf.multinomial(weights, 20000, replacement=True)
    assert draws.dtype == tf.int64 and draws.shape == (20000,)
    frequencies = np.bincount(draws.cpu().numpy(), minlength=3) / 20000
    np.testing.assert_allclose(frequencies, [0.1, 0.2, 0.7], atol=0.02)


def test_multinomial_without_replacement_draws_distinct_categories_by_weight(device: str) -> None:
    weights = tf.tensor([[0.0, 1.0, 1.0, 8.0], [5.0, 0.0, 0.0, 5.0]], device=device)
    draws = weights.multinomial(2)
    assert draws.shape == (2, 2)
    for row in draws.cpu().numpy():
        assert len(set(row)) == 2
    assert sorted(draws.cpu().numpy()[1]) == [0, 3]  # the zero-weight categories are never drawn first
    firsts = [tf.multinomial(weights[0], 1).item() for _ in range(400)]
    assert firsts.count(3) / 400 == pytest.approx(0.8, abs=0.07)
    assert tf.multinomial(tf.tensor([1.0, 0.0, 1.0]), 3).shape == (3,)  # zero weights fill in last


def test_multinomial_generator_makes_draws_reproducible() -> None:
    p = tf.tensor([0.1, 0.2, 0.7])
    first = p.multinomial(2, generator=tf.Generator().manual_seed(3))
    again = p.multinomial(2, generator=tf.Generator().manual_seed(3))
    assert first.tolist() == again.tolist()


@pytest.mark.parametrize("weights, num_samples, message", [
    ([0.1, 0.2, 0.7], 4, r"cannot sample n_sample > prob_dist.size\(-1\) samples without replacement"),
    ([1.0, -1.0], 1, "probability tensor contains either `inf`, `nan` or element < 0"),
    ([0.0, 0.0], 1, r"invalid multinomial distribution \(sum of probabilities <= 0\)"),
    ([[[1.0]]], 1, "prob_dist must be 1 or 2 dim"),
    ([1, 2], 1, "multinomial only supports floating-point dtypes for input, got: Long"),
])
def test_multinomial_errors_match_pytorch(weights: list, num_samples: int, message: str) -> None:
    with pytest.raises(RuntimeError, match=message):
        tf.multinomial(tf.tensor(weights), num_samples)


def test_normal_with_tensor_parameters_broadcasts_and_has_zero_gradients() -> None:
    mean = tf.zeros(2, 3, requires_grad=True)
    std = tf.ones(2, 3, requires_grad=True)
    out = tf.normal(mean, std)
    assert out.shape == (2, 3) and out.dtype == tf.float32 and type(out.grad_fn).__name__ == "NormalBackward3"
    out.sum().backward()
    assert mean.grad.tolist() == [[0.0] * 3] * 2 and std.grad.tolist() == [[0.0] * 3] * 2
    assert type(tf.normal(mean, 2.0).grad_fn).__name__ == "NormalBackward1"
    assert type(tf.normal(0.0, std).grad_fn).__name__ == "NormalBackward2"
    assert tf.normal(tf.zeros(3), tf.ones(2, 3)).shape == (2, 3)
    assert tf.normal(tf.zeros(2, dtype=tf.float64), 1.0).dtype == tf.float64
    assert tf.normal(2, 3, (2,), dtype=tf.float64).dtype == tf.float64
    assert tf.normal(0.0, 1.0, size=(2, 2)).shape == (2, 2)
    big = tf.normal(tf.full((20000,), 3.0), tf.full((20000,), 2.0)).numpy()
    assert big.mean() == pytest.approx(3.0, abs=0.05) and big.std() == pytest.approx(2.0, abs=0.05)
    with pytest.raises(RuntimeError, match="normal expects std >= 0.0, but found std -1"):
        tf.normal(tf.zeros(2), -1)


def test_bernoulli_forms_dtype_and_errors() -> None:
    p = tf.full((3,), 0.5, requires_grad=True)
    out = tf.bernoulli(p)
    assert out.dtype == tf.float32 and type(out.grad_fn).__name__ == "BernoulliBackward0"
    out.sum().backward()
    assert p.grad.tolist() == [0.0, 0.0, 0.0]
    assert tf.bernoulli(tf.zeros(1000), 1.0).sum().item() == 1000.0  # the number p replaces the input's values
    assert tf.full((3,), 0.5, dtype=tf.float64).bernoulli().dtype == tf.float64
    with pytest.raises(NotImplementedError, match="not implemented for 'Long'"):
        tf.bernoulli(tf.tensor([0, 1]))
    with pytest.raises(RuntimeError, match="Expected p_in >= 0 && p_in <= 1"):
        tf.bernoulli(tf.full((3,), 1.5))


def test_poisson_and_randperm() -> None:
    rates = tf.full((20000,), 3.0)
    samples = tf.poisson(rates)
    assert samples.dtype == tf.float32 and samples.numpy().mean() == pytest.approx(3.0, abs=0.05)
    assert tf.randperm(5).dtype == tf.int64 and sorted(tf.randperm(5).tolist()) == [0, 1, 2, 3, 4]
    assert tf.randperm(5, dtype=tf.float32).dtype == tf.float32 and tf.randperm(0).shape == (0,)


def test_binomial_standard_gamma_and_exponential_have_their_moments(device: str) -> None:
    tf.manual_seed(0)
    counts = tf.full((20000,), 10.0, device=device)
    successes = tf.binomial(counts, tf.full((20000,), 0.3, device=device))
    assert successes.dtype == tf.float32 and successes.device == counts.device
    assert successes.cpu().numpy().mean() == pytest.approx(3.0, abs=0.05)
    assert successes.cpu().numpy().var() == pytest.approx(2.1, abs=0.1)
    concentration = tf.full((20000,), 2.5, dtype=tf.float64, device=device, requires_grad=True)
    gammas = tf._standard_gamma(concentration)
    assert gammas.dtype == tf.float64 and gammas.detach().cpu().numpy().mean() == pytest.approx(2.5, abs=0.05)
    gammas.sum().backward()  # d/dalpha E[X] = 1 for X ~ Gamma(alpha, 1)
    assert concentration.grad.device == concentration.device
    assert concentration.grad.cpu().numpy().mean() == pytest.approx(1.0, abs=0.02)
    assert gammas.detach().cpu().numpy().var() == pytest.approx(2.5, abs=0.15)
    exponential = tf.empty(20000, device=device).exponential_(4.0)
    assert exponential.cpu().numpy().mean() == pytest.approx(0.25, abs=0.01)
    assert exponential.cpu().numpy().min() >= 0


def test_standard_gamma_is_differentiated_by_implicit_reparameterisation() -> None:
    concentration = tf.tensor([1.5, 2.0], dtype=tf.float64, requires_grad=True)
    samples = tf._standard_gamma(concentration)
    assert type(samples.grad_fn).__name__ == "StandardGammaBackward0"
    samples.sum().backward()
    expected = tf._standard_gamma_grad(concentration.detach(), samples.detach())
    np.testing.assert_allclose(concentration.grad.numpy(), expected.numpy())
    with pytest.raises(NotImplementedError, match="_standard_gamma_grad"):
        tf.autograd.grad(tf._standard_gamma(concentration).sum(), concentration, create_graph=True)[0].sum().backward()
