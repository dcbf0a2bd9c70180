"""The exponential distribution (PyTorch's ``torch.distributions.Exponential``)."""
from __future__ import annotations

from typing import Any

from .. import creation, functional
from ..tensor import Tensor
from . import constraints
from .exp_family import ExponentialFamily
from .utils import broadcast_parameters

__all__ = ["Exponential"]


class Exponential(ExponentialFamily):
    """The exponential distribution: density ``rate * exp(-rate * x)`` on ``x >= 0``.

    Args:
        rate (float or Tensor): the rate, 1 / scale (positive).
    """

    arg_constraints = {"rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, rate: Any, validate_args: bool | None = None) -> None:
        (self.rate,), batch_shape = broadcast_parameters(rate)
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Exponential:
        return self._expand_parameters(Exponential, batch_shape, _instance)

    @property
    def mean(self) -> Tensor:
        return self.rate.reciprocal()

    @property
    def mode(self) -> Tensor:
        return creation.zeros_like(self.rate)

    @property
    def stddev(self) -> Tensor:
        return self.rate.reciprocal()

    @property
    def variance(self) -> Tensor:
        return self.rate.pow(-2)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        return creation.empty(shape, dtype=self.rate.dtype, device=self.rate.device).exponential_() / self.rate

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return self.rate.log() - self.rate * value

    def cdf(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return 1 - functional.exp(-self.rate * value)

    def icdf(self, value: Tensor) -> Tensor:
        return -functional.log1p(-value) / self.rate

    def entropy(self) -> Tensor:
        return 1.0 - functional.log(self.rate)

    @property
    def _natural_params(self) -> tuple:
        return (-self.rate,)

    def _log_normalizer(self, x: Tensor) -> Tensor:
        return -functional.log(-x)
