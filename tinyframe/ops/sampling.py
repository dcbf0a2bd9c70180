"""Sampling from distributions given by tensors: normal (tensor mean / std), bernoulli, multinomial,
poisson, binomial, and the standard gamma distribution (``_standard_gamma``, for
tinyframe.distributions).

As in PyTorch, the samples are not reparameterised: where a parameter requires grad the result is
recorded (NormalBackward1, BernoulliBackward0, ...) but its gradient is zero.
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, dtypes, random
from .._graph import Op
from ..creation import _random, _size
from ..device import array_module_of, device_of
from ..random import Generator, generator_for
from . import reduction, unary

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["normal", "bernoulli", "multinomial", "poisson", "binomial", "_standard_gamma", "_standard_gamma_grad"]


class Sample(Op, node_name="NormalBackward3"):
    """Samples drawn beforehand (``samples``); every parameter's gradient is zero."""

    @staticmethod
    def forward(ctx: Sample, *parameters: Any, samples: Any) -> Any:
        return samples

    @staticmethod
    def backward(ctx: Sample, g: Any) -> tuple:
        zero = g * 0.0
        return tuple(zero for _ in ctx.next_functions)


class NormalMean(Sample, node_name="NormalBackward1"):
    pass


class NormalStd(Sample, node_name="NormalBackward2"):
    pass


class Bernoulli(Sample, node_name="BernoulliBackward0"):
    pass


class Poisson(Sample, node_name="PoissonBackward0"):
    pass


class StandardGamma(Op, node_name="StandardGammaBackward0"):
    """Samples drawn beforehand (``samples``), differentiated as PyTorch does by implicit
    reparameterisation: ``dx/dalpha`` at a fixed value of the CDF (:class:`StandardGammaGrad`)."""

    @staticmethod
    def forward(ctx: StandardGamma, concentration: Any, samples: Any) -> Any:
        ctx.save_for_backward(samples, concentration)
        return samples

    @staticmethod
    def backward(ctx: StandardGamma, g: Any) -> Any:
        samples, concentration = ctx.saved_tensors
        return g * StandardGammaGrad.call(samples, concentration)


# StandardGammaGrad takes elements in chunks of _CHUNK (the quadrature holds 96 values per element).
_CHUNK = 1 << 16


@functools.cache
def _gauss_legendre() -> tuple[Any, Any]:
    """The 96-point Gauss-Legendre rule on [-1, 1], made on first use: building it imports
    numpy.polynomial, a tenth of ``import tinyframe``'s own time."""
    return np.polynomial.legendre.leggauss(96)


def _implicit_gamma_grad(xp: Any, x: Any, alpha: Any) -> Any:
    """``dx/dalpha`` for 1-D float64 ``x`` and ``alpha`` (see :class:`StandardGammaGrad`)."""
    log_x, spread = xp.log(x), 10.0 / xp.sqrt(alpha)
    lower = x <= alpha
    start = xp.where(lower, log_x - 40.0 / alpha - spread, log_x)
    end = xp.where(lower, log_x, xp.log(x + 40.0 + 10.0 * xp.sqrt(alpha)))
    half = (end - start)[:, None] / 2
    nodes, weights = _gauss_legendre()
    u = (end + start)[:, None] / 2 + half * xp.asarray(nodes)
    # t p(t) / p(x) at t = e^u: the density in u relative to the density at x
    ratio = xp.exp(alpha[:, None] * (u - log_x[:, None]) - xp.exp(u) + (x + log_x)[:, None])
    digamma = unary.Digamma.call(alpha)[:, None]
    integral = (xp.asarray(weights) * (u - digamma) * ratio * half).sum(-1)
    return xp.where(lower, -integral, integral)


class StandardGammaGrad(Op, node_name="StandardGammaGradBackward0"):
    """``dx/dalpha`` for ``x ~ Gamma(alpha, 1)`` at a fixed CDF value: ``-(dP(alpha, x)/dalpha) / p(x)``
    (PyTorch's ``_standard_gamma_grad``). ``dP/dalpha = E[(log T - digamma(alpha)) 1{T < x}]`` is
    integrated over ``u = log t`` on the side of ``x`` away from the mode (below ``x`` when
    ``x <= alpha``, else above, where it equals minus the upper integral), so the integrand stays
    bounded by ``x`` relative to ``p(x)`` and decays to nothing within the interval taken
    (``exp(-40)`` or less at its far end)."""

    @staticmethod
    def forward(ctx: StandardGammaGrad, x: Any, alpha: Any) -> Any:
        xp = ctx.xp
        x, alpha = xp.broadcast_arrays(x, alpha)
        flat_x = xp.maximum(x, np.finfo(x.dtype).tiny).astype(np.float64).reshape(-1)
        flat_alpha = alpha.astype(np.float64).reshape(-1)
        out = xp.empty_like(flat_x)
        for start in range(0, flat_x.size, _CHUNK):
            block = slice(start, start + _CHUNK)
            out[block] = _implicit_gamma_grad(xp, flat_x[block], flat_alpha[block])
        return out.reshape(x.shape).astype(x.dtype)

    @staticmethod
    def backward(ctx: StandardGammaGrad, g: Any) -> tuple:
        raise NotImplementedError("the derivative of _standard_gamma_grad is not implemented (nor is it in "
                                  "PyTorch)")


def _generator(like: Any, generator: Generator | None) -> Generator:
    return generator_for(device_of(like), generator)


def normal(mean: Any, std: Any = 1.0, size: Sequence[int] | None = None, *, generator: Generator | None = None,
           dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """Normal samples: elementwise ``N(mean, std^2)`` for tensor ``mean`` and/or ``std`` (broadcast),
    or ``size`` samples of ``N(mean, std^2)`` for numbers. As in PyTorch, tensor parameters scale
    standard samples drawn in the result's dtype: ``z * std + mean``."""
    mean_tensor, std_tensor = isinstance(mean, _graph.Tensor), isinstance(std, _graph.Tensor)
    if not mean_tensor and not std_tensor:
        if size is None:
            raise TypeError("normal() received an invalid combination of arguments - got (float, float): give a "
                            "size, or a tensor mean or std")
        return _random(_size(tuple(size)), lambda gen, shape, dt: random.normal(gen, shape, dt, mean, std),
                       dtype, device, generator, requires_grad)
    if not std_tensor and std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    if std_tensor and bool((std._data < 0).any()):
        raise RuntimeError("normal expects all elements of std >= 0.0")
    like = mean if mean_tensor else std
    data = like._data
    mean_data = mean._data if mean_tensor else mean
    std_data = std._data if std_tensor else std
    shape = np.broadcast_shapes(getattr(mean_data, "shape", ()), getattr(std_data, "shape", ()))
    dtypes.check_kernel("normal_kernel_cpu", data.dtype, "fc")
    dtype_np = data.dtype
    gen = _generator(data, generator)
    if std_tensor:
        samples = random.normal(gen, shape, dtype_np) * std_data + (mean_data if mean_tensor else dtype_np.type(mean))
    else:
        samples = random.normal(gen, shape, dtype_np, 0.0, std) + mean_data
    samples = array_module_of(data).asarray(samples).astype(dtype_np, copy=False)
    if mean_tensor and std_tensor:
        return Sample.apply(mean, std, samples=samples)
    return (NormalMean if mean_tensor else NormalStd).apply(like, samples=samples)


def bernoulli(input: Tensor, p: float | None = None, *, generator: Generator | None = None) -> Tensor:
    """1 with probability ``input`` (or the number ``p``) elementwise, else 0, in ``input``'s dtype."""
    data = input._data
    dtypes.check_kernel("bernoulli_tensor_cpu_self_", data.dtype, "buif")
    dtypes.check_kernel("bernoulli_tensor_cpu_p_", data.dtype, "f")
    probability = data if p is None else p
    draws = random.bernoulli(_generator(data, generator), data.shape, data.dtype, probability)
    return Bernoulli.apply(input, samples=draws)


def poisson(input: Tensor, generator: Generator | None = None) -> Tensor:
    """Poisson samples with rates ``input`` (elementwise), in ``input``'s dtype; on the CPU PyTorch's
    samples for its seed."""
    data = input._data
    dtypes.check_kernel("poisson_cpu", data.dtype, "f")
    samples = random.poisson(_generator(data, generator), data)
    return Poisson.apply(input, samples=array_module_of(data).asarray(samples))


def binomial(count: Tensor, prob: Tensor, generator: Generator | None = None) -> Tensor:
    """Binomial samples: successes in ``count`` trials of probability ``prob`` (elementwise, broadcast),
    in ``count``'s dtype. Not differentiable."""
    return _graph.wrap(random.binomial(_generator(count._data, generator), count._data, prob._data))


def _standard_gamma(input: Tensor, generator: Generator | None = None) -> Tensor:
    """Samples of the gamma distribution of concentration ``input`` and rate 1 (elementwise), in
    ``input``'s dtype."""
    data = input._data
    samples = random.standard_gamma(_generator(data, generator), data)
    return StandardGamma.apply(input, samples=samples)


def _standard_gamma_grad(input: Tensor, output: Tensor) -> Tensor:
    """The derivative of gamma samples ``output`` in their concentration ``input`` (implicit
    reparameterisation), as PyTorch's ``torch._standard_gamma_grad``."""
    return StandardGammaGrad.apply(output, input)


def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *,
                generator: Generator | None = None) -> Tensor:
    """``num_samples`` category indices per row of ``input`` (1-D or 2-D non-negative weights, not
    necessarily normalised), int64, drawn as PyTorch's CPU kernels draw them. With replacement: a
    float64 uniform per sample located in the normalised cumulative sum. Without replacement (or for
    one sample): the categories with the largest ``p / E`` (``E`` exponential samples); once the
    positive weights run out, zero-weight categories follow in index order (PyTorch's order among
    those ties is its ``topk``'s sorting order)."""
    data = input._data
    if dtypes.kind(data.dtype) != "f":
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{reduction._scalar_type(data)}")
    if data.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    xp = array_module_of(data)
    rows = data.reshape(1, -1) if data.ndim == 1 else data
    categories = rows.shape[1]
    if num_samples <= 0:
        raise RuntimeError(f"cannot sample n_sample <= 0 samples (got {num_samples})")
    if not replacement and num_samples > categories:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    _check_probabilities(rows, replacement and num_samples > 1)
    totals = rows.sum(axis=1, keepdims=True)
    if bool((totals <= 0).any()):
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    gen = _generator(data, generator)
    if replacement and num_samples > 1:
        picks = _with_replacement(gen, rows, num_samples)
    else:  # PyTorch's exponential trick: the largest p / q with q ~ Exp(1), drawn in input's dtype
        keys = rows / xp.asarray(random.exponential(gen, rows.shape, rows.dtype))
        picks = xp.argsort(-keys, axis=1, kind="stable")[:, :num_samples]
    picks = picks.astype(np.int64)
    return _graph.wrap(picks.reshape(-1) if data.ndim == 1 else picks)


def _check_probabilities(rows: Any, per_entry: bool) -> None:
    """PyTorch's checks: the sampling kernel with replacement names the first bad entry (NaN reads as
    negative); the exponential path checks the whole tensor at once."""
    xp = array_module_of(rows)
    negative, infinite = ~(rows >= 0), xp.isinf(rows)
    if not per_entry:
        if bool((negative | infinite).any()):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        return
    bad = (negative | infinite).reshape(-1)
    if bool(bad.any()):
        first = int(xp.argmax(bad))
        kind = "< 0" if bool(negative.reshape(-1)[first]) else "= infinity or NaN"
        raise RuntimeError(f"invalid multinomial distribution (encountering probability entry {kind})")


def _with_replacement(gen: Generator, rows: Any, num_samples: int) -> Any:
    """PyTorch's CPU kernel: per row, the cumulative sum (in the input's dtype) divided by its total,
    the last entry set to 1, then the first entry not below each float64 uniform."""
    xp = array_module_of(rows)
    cumulative = xp.cumsum(rows, axis=1)
    cumulative /= cumulative[:, -1:]
    cumulative[:, -1] = 1
    draws = xp.asarray(random.uniform(gen, (rows.shape[0], num_samples), np.float64))
    return xp.stack([xp.searchsorted(c.astype(np.float64), u, side="left") for c, u in zip(cumulative, draws)])
