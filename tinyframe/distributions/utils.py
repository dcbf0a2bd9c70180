"""Helpers shared by the distributions (PyTorch's ``torch.distributions.utils``)."""
from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from functools import update_wrapper
from typing import Any

from .. import creation, dtypes, functional, grad_mode
from .._dims import Size
from ..tensor import Tensor
from ..type_info import finfo

__all__ = ["broadcast_all", "logits_to_probs", "clamp_probs", "probs_to_logits", "lazy_property", "euler_constant",
           "broadcast_parameters", "tril_matrix_to_vec", "vec_to_tril_matrix"]

euler_constant = 0.5772156649015329


def broadcast_all(*values: Any) -> tuple:
    """Broadcasts tensors and numbers together; numbers become tensors of the first tensor's dtype
    and device (else the default dtype)."""
    if not all(isinstance(v, (Tensor, numbers.Number)) for v in values):
        raise ValueError("Input arguments must all be instances of Number, torch.Tensor or objects implementing "
                         "__torch_function__.")
    like = next((v for v in values if isinstance(v, Tensor)), None)
    options = {"dtype": like.dtype, "device": like.device} if like is not None else {
        "dtype": dtypes.get_default_dtype()}
    tensors = [v if isinstance(v, Tensor) else creation.tensor(v, **options) for v in values]
    return tuple(functional.broadcast_tensors(*tensors))


def broadcast_parameters(*values: Any) -> tuple:
    """``(tensors, batch_shape)``: the values broadcast together (``broadcast_all``), and their shape,
    which is ``()`` where every value is a number."""
    tensors = broadcast_all(*values)
    numbers_only = all(isinstance(v, numbers.Number) for v in values)
    return tensors, Size() if numbers_only else tensors[0].size()


def _standard_normal(shape: Sequence[int], dtype: Any, device: Any) -> Tensor:
    """Standard normal samples drawn as PyTorch draws them (``empty(shape).normal_()``)."""
    return creation.empty(shape, dtype=dtype, device=device).normal_()


def _sum_rightmost(value: Tensor, dim: int) -> Tensor:
    """Sums the rightmost ``dim`` dimensions of ``value``."""
    if dim == 0:
        return value
    return value.reshape(tuple(value.shape[:-dim]) + (-1,)).sum(-1)


def logits_to_probs(logits: Tensor, is_binary: bool = False) -> Tensor:
    """Probabilities from logits: sigmoid for a binary event, softmax over the last dimension otherwise."""
    if is_binary:
        return functional.sigmoid(logits)
    return functional.softmax(logits, dim=-1)


def clamp_probs(probs: Tensor) -> Tensor:
    """``probs`` clamped into ``[eps, 1 - eps]`` (eps of its dtype), so their logs stay finite."""
    eps = finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs: Tensor, is_binary: bool = False) -> Tensor:
    """Logits from probabilities: log-odds for a binary event, log-probabilities otherwise."""
    clamped = clamp_probs(probs)
    if is_binary:
        return functional.log(clamped) - functional.log1p(-clamped)
    return functional.log(clamped)


def _tril_mask(n: int, diag: int, device: Any) -> Tensor:
    """The ``n x n`` boolean mask of the elements on and below diagonal ``diag``."""
    arange = creation.arange(n, device=device)
    return arange < arange.view(-1, 1) + (diag + 1)


def tril_matrix_to_vec(mat: Tensor, diag: int = 0) -> Tensor:
    """The elements of (a batch of) ``D x D`` matrices on and below diagonal ``diag``, in row order."""
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    return mat[..., _tril_mask(n, diag, mat.device)]


def vec_to_tril_matrix(vec: Tensor, diag: int = 0) -> Tensor:
    """The (batch of) ``D x D`` lower-triangular matrices whose elements on and below diagonal ``diag``
    are ``vec``'s, in row order: the inverse of :func:`tril_matrix_to_vec`."""
    # the positive root of D^2 + (1 + 2 diag) D - |diag| (diag + 1) - 2 len(vec) = 0
    n = (-(1 + 2 * diag) + ((1 + 2 * diag) ** 2 + 8 * vec.shape[-1] + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    if round(n) - n > finfo(vec.dtype).eps:
        raise ValueError(f"The size of last dimension is {vec.shape[-1]} which cannot be expressed as the lower "
                         "triangular part of a square D x D matrix.")
    n = round(n)
    mat = vec.new_zeros(tuple(vec.shape[:-1]) + (n, n))
    mat[..., _tril_mask(n, diag, vec.device)] = vec
    return mat


class lazy_property:  # noqa: N801  PyTorch's name
    """A property computed once on first access (with grad enabled) and then stored on the instance."""

    def __init__(self, wrapped: Callable) -> None:
        self.wrapped = wrapped
        update_wrapper(self, wrapped)  # type: ignore[arg-type]  # copies the docstring onto a descriptor

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return self
        with grad_mode.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


class ProbsOrLogits:
    """For a distribution given by ``probs`` or by ``logits`` (binary unless ``_binary`` is False):
    the one not given is computed from the other on first use."""

    _binary = True

    @staticmethod
    def _check_one_given(probs: Any, logits: Any) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")

    @lazy_property
    def logits(self) -> Tensor:
        return probs_to_logits(self.probs, is_binary=self._binary)

    @lazy_property
    def probs(self) -> Tensor:
        return logits_to_probs(self.logits, is_binary=self._binary)

    @property
    def _param(self) -> Tensor:
        """The parameter as given (its dtype and device are the distribution's)."""
        return self.__dict__["probs"] if "probs" in self.__dict__ else self.__dict__["logits"]

    @property
    def param_shape(self) -> Size:
        return self._param.size()


def as_size(sample_shape: Any) -> Size:
    """``sample_shape`` as a Size (a tuple or Size given to ``sample``)."""
    return sample_shape if isinstance(sample_shape, Size) else Size(sample_shape)
