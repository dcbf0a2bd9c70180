"""The logistic-normal distribution (PyTorch's ``torch.distributions.LogisticNormal``)."""
from __future__ import annotations

from typing import Any, cast

from ..tensor import Tensor
from . import constraints
from .independent import Independent
from .normal import Normal
from .transformed_distribution import TransformedDistribution
from .transforms import StickBreakingTransform

__all__ = ["LogisticNormal"]


class LogisticNormal(TransformedDistribution):
    """A distribution on the simplex: ``StickBreakingTransform()(X)`` for ``X ~ Normal(loc, scale)``, whose
    last batch dimension (of size K - 1) becomes an event of size K.

    Args:
        loc (float or Tensor): the mean of the normal distribution.
        scale (float or Tensor): its standard deviation (positive).
    """

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.simplex
    has_rsample = True
    base_dist: Independent

    def __init__(self, loc: Any, scale: Any, validate_args: bool | None = None) -> None:
        base_dist = Normal(loc, scale, validate_args=validate_args)
        if not base_dist.batch_shape:
            base_dist = base_dist.expand([1])
        super().__init__(base_dist, StickBreakingTransform(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> LogisticNormal:
        new = self._get_checked_instance(LogisticNormal, _instance)
        super().expand(batch_shape, _instance=new)
        return new

    @property
    def _normal(self) -> Normal:
        return cast(Normal, self.base_dist.base_dist)

    @property
    def loc(self) -> Tensor:
        return self._normal.loc

    @property
    def scale(self) -> Tensor:
        return self._normal.scale
