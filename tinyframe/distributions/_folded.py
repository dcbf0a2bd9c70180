"""The base of the half-normal and half-Cauchy distributions: ``|X|`` for ``X`` symmetric about 0."""
from __future__ import annotations

import math
from typing import Any

from .. import creation, functional
from ..tensor import Tensor
from . import constraints
from .transformed_distribution import TransformedDistribution

__all__ = ["Folded"]


class Folded(TransformedDistribution):
    """``|X|`` for ``X`` of a distribution symmetric about 0 with a ``scale``: twice its density on
    ``x >= 0``."""

    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    base_dist: Any  # the symmetric distribution given to TransformedDistribution.__init__

    def expand(self, batch_shape: Any, _instance: Any = None) -> Folded:
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
