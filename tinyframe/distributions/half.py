"""The half-normal and half-Cauchy distributions (PyTorch's ``torch.distributions.HalfNormal`` and
``HalfCauchy``): ``|X|`` for ``X`` centred at 0."""
from __future__ import annotations

import math
from typing import Any

from .. import creation, functional
from ..tensor import Tensor
from . import constraints
from .cauchy import Cauchy
from .normal import Normal
from .transformed_distribution import TransformedDistribution
from .transforms import AbsTransform

__all__ = ["HalfCauchy", "HalfNormal"]


class _Folded(TransformedDistribution):
    """``|X|`` for ``X`` of a distribution symmetric about 0 with a ``scale``: twice its density on
    ``x >= 0``."""

    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    base_dist: Any  # the symmetric distribution given to TransformedDistribution.__init__

    def expand(self, batch_shape: Any, _instance: Any = None) -> _Folded:
        new = self._get_checked_instance(type(self), _instance)
        super().expand(batch_shape, _instance=new)
        return new

    @property
    def scale(self) -> Tensor:
        return self.base_dist.scale

    @property
    def mode(self) -> Tensor:
        return creation.zeros_like(self.scale)

    def log_prob(self, value: Any) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        value = creation.as_tensor(value, dtype=self.scale.dtype, device=self.scale.device)
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return functional.where(value >= 0, log_prob, -math.inf)

    def cdf(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob: Tensor) -> Tensor:
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self) -> Tensor:
        return self.base_dist.entropy() - math.log(2)


class HalfNormal(_Folded):
    """``|X|`` for ``X ~ Normal(0, scale)``.

    Args:
        scale (float or Tensor): the scale of the normal distribution folded (positive).
    """

    base_dist: Normal

    def __init__(self, scale: Any, validate_args: bool | None = None) -> None:
        super().__init__(Normal(0, scale, validate_args=False), AbsTransform(), validate_args=validate_args)

    @property
    def mean(self) -> Tensor:
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def variance(self) -> Tensor:
        return self.scale.pow(2) * (1 - 2 / math.pi)


class HalfCauchy(_Folded):
    """``|X|`` for ``X ~ Cauchy(0, scale)``; its mean and variance are infinite.

    Args:
        scale (float or Tensor): the scale of the Cauchy distribution folded (positive).
    """

    base_dist: Cauchy

    def __init__(self, scale: Any, validate_args: bool | None = None) -> None:
        super().__init__(Cauchy(0, scale, validate_args=False), AbsTransform(), validate_args=validate_args)

    @property
    def mean(self) -> Tensor:
        return creation.full(self._extended_shape(), math.inf, dtype=self.scale.dtype, device=self.scale.device)

    @property
    def variance(self) -> Tensor:
        return self.base_dist.variance
