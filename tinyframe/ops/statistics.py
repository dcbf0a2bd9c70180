"""Covariance and correlation matrices (``cov``, ``corrcoef``), composed of core ops as PyTorch composes
them, so their gradients (and ``grad_fn`` names) follow from those ops."""
from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from .. import _graph, dtypes
from . import binary, construction, linalg, reduction, shape, unary

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["cov", "corrcoef"]


def _observations(name: str, input: Tensor) -> Tensor:
    """``input`` as a matrix of variables (rows) by observations (columns)."""
    if input.ndim > 2:
        raise RuntimeError(f"{name}(): expected input to have two or fewer dimensions but got an input with "
                           f"{input.ndim} dimensions")
    if dtypes.kind(input._data.dtype) == "b":
        raise RuntimeError(f"{name}(): bool dtype is not supported for input")
    return input if input.ndim == 2 else shape.reshape(input, (1, -1))


def _weights(name: str, weights: Tensor | None, observations: int, integral: bool) -> Tensor | None:
    if weights is None:
        return None
    kind = "fweights" if integral else "aweights"
    if weights.ndim > 1:
        raise RuntimeError(f"cov(): expected {kind} to have one or fewer dimensions but got {kind} with "
                           f"{weights.ndim} dimensions")
    if weights.numel() != observations:
        raise RuntimeError(f"cov(): expected {kind} to have the same numel as there are observations in the "
                           f"input but got {weights.numel()} != {observations}")
    if integral and dtypes.kind(weights._data.dtype) not in "iu":
        raise RuntimeError(f"cov(): expected fweights to have integral dtype but got fweights with "
                           f"{weights.dtype} dtype")
    if not integral and dtypes.kind(weights._data.dtype) != "f":
        raise RuntimeError(f"cov(): expected aweights to have floating point dtype but got aweights with "
                           f"{weights.dtype} dtype")
    if bool((weights._data < 0).any()):
        raise RuntimeError(f"cov(): {kind} cannot be negative")
    return weights


def cov(input: Tensor, *, correction: int = 1, fweights: Tensor | None = None,
        aweights: Tensor | None = None) -> Tensor:
    """The covariance matrix of the variables in the rows of ``input`` (a 1-D ``input`` is one
    variable): ``sum_i w_i (a_i - mean_a)(b_i - mean_b) / (sum_i w_i - correction)``, with integer
    frequency weights ``fweights`` and floating ``aweights`` (their product when both are given; the
    correction is then scaled as NumPy's ``cov`` does). A single variable gives a 0-dim tensor."""
    x = _observations("cov", input)
    observations = x.shape[1]
    fw = _weights("cov", fweights, observations, integral=True)
    aw = _weights("cov", aweights, observations, integral=False)
    w = fw if aw is None else (aw if fw is None else binary.mul(fw, aw))
    w_sum: int | Tensor = observations
    if w is not None:
        w_sum = reduction.sum(w)
        if not bool(w_sum._data != 0):
            raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    weighted = x if w is None else binary.mul(x, w)
    average = binary.div(reduction.sum(weighted, 1), w_sum)
    norm_factor: Tensor | int
    if aw is not None and correction != 0:
        norm_factor = binary.sub(w_sum, binary.div(binary.mul(reduction.sum(binary.mul(w, aw)), correction), w_sum))
    else:
        norm_factor = binary.sub(w_sum, correction) if w is not None else w_sum - correction
    if bool(_value(norm_factor) <= 0):
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of "
                      "observations.", UserWarning, stacklevel=2)
        norm_factor = binary.mul(norm_factor, 0) if isinstance(norm_factor, _graph.Tensor) else 0
    centered = binary.sub(x, shape.unsqueeze(average, 1))
    other = centered if w is None else binary.mul(centered, w)
    return shape.squeeze(binary.div(linalg.mm(centered, shape.t(other)), norm_factor))


def _value(number: Any) -> Any:
    return number._data if isinstance(number, _graph.Tensor) else number


def corrcoef(input: Tensor) -> Tensor:
    """The Pearson correlation coefficients of the variables in the rows of ``input``:
    ``cov(input)`` divided by the standard deviations of both variables, clipped to [-1, 1]."""
    _observations("corrcoef", input)
    c = cov(input)
    if c.ndim == 0:  # one variable: nan for a zero, inf or nan variance, else 1
        return binary.div(c, c)
    stddev = shape.reshape(unary.sqrt(construction.diagonal(c)), (-1, 1))
    c = binary.div(binary.div(c, stddev), shape.reshape(stddev, (1, -1)))
    return binary.clamp(c, -1, 1)

