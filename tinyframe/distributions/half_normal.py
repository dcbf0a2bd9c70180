"""The half-normal distribution (PyTorch's ``torch.distributions.HalfNormal``)."""
from __future__ import annotations

import math
from typing import Any

from ..tensor import Tensor
from ._folded import Folded
from .normal import Normal
from .transforms import AbsTransform

__all__ = ["HalfNormal"]


class HalfNormal(Folded):
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
