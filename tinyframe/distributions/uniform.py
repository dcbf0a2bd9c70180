"""The continuous uniform distribution (PyTorch's ``torch.distributions.Uniform``)."""
from __future__ import annotations

import math
from typing import Any

from .. import creation, functional
from ..tensor import Tensor
from . import constraints
from .distribution import Distribution
from .utils import broadcast_parameters

__all__ = ["Uniform"]


class Uniform(Distribution):
    """The uniform distribution on the half-open interval ``[low, high)``.

    Args:
        low (float or Tensor): the lower bound (inclusive).
        high (float or Tensor): the upper bound (exclusive).
    """

    has_rsample = True

    def __init__(self, low: Any, high: Any, validate_args: bool | None = None) -> None:
        (self.low, self.high), batch_shape = broadcast_parameters(low, high)
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def arg_constraints(self) -> dict:
        return {"low": constraints.less_than(self.high), "high": constraints.greater_than(self.low)}

    def expand(self, batch_shape: Any, _instance: Any = None) -> Uniform:
        return self._expand_parameters(Uniform, batch_shape, _instance)

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self) -> Any:
        return constraints.interval(self.low, self.high)

    @property
    def mean(self) -> Tensor:
        return (self.high + self.low) / 2

    @property
    def mode(self) -> Tensor:
        return math.nan * self.high

    @property
    def stddev(self) -> Tensor:
        return (self.high - self.low) / 12**0.5

    @property
    def variance(self) -> Tensor:
        return (self.high - self.low).pow(2) / 12

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        rand = creation.rand(shape, dtype=self.low.dtype, device=self.low.device)
        return self.low + rand * (self.high - self.low)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        lower = self.low.le(value).type_as(self.low)
        upper = self.high.gt(value).type_as(self.low)
        return functional.log(lower.mul(upper)) - functional.log(self.high - self.low)

    def cdf(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return ((value - self.low) / (self.high - self.low)).clamp(min=0, max=1)

    def icdf(self, value: Tensor) -> Tensor:
        return value * (self.high - self.low) + self.low

    def entropy(self) -> Tensor:
        return functional.log(self.high - self.low)
