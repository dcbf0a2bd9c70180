"""The half-Cauchy distribution (PyTorch's ``torch.distributions.HalfCauchy``)."""
from __future__ import annotations

import math
from typing import Any

from .. import creation
from ..tensor import Tensor
from ._folded import Folded
from .cauchy import Cauchy
from .transforms import AbsTransform

__all__ = ["HalfCauchy"]


class HalfCauchy(Folded):
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
