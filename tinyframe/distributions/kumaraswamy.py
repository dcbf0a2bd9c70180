"""The Kumaraswamy distribution (PyTorch's ``torch.distributions.Kumaraswamy``)."""
from __future__ import annotations

import math
from typing import Any

from .. import creation, functional
from ..tensor import Tensor
from . import constraints
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, PowerTransform
from .uniform import Uniform
from .utils import broadcast_all, euler_constant

__all__ = ["Kumaraswamy"]


def _moments(a: Tensor, b: Tensor, n: int) -> Tensor:
    """The ``n``-th raw moment ``b B(1 + n / a, b)`` of Kumaraswamy(a, b)."""
    arg1 = 1 + n / a
    log_value = functional.lgamma(arg1) + functional.lgamma(b) - functional.lgamma(arg1 + b)
    return b * functional.exp(log_value)


class Kumaraswamy(TransformedDistribution):
    """The Kumaraswamy distribution on ``[0, 1]``: density ``a b x^(a - 1) (1 - x^a)^(b - 1)``, sampled as
    ``(1 - U^(1 / b))^(1 / a)`` for uniform ``U``.

    Args:
        concentration1 (float or Tensor): ``a`` (positive).
        concentration0 (float or Tensor): ``b`` (positive).
    """

    arg_constraints = {"concentration1": constraints.positive, "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1: Any, concentration0: Any, validate_args: bool | None = None) -> None:
        self.concentration1, self.concentration0 = broadcast_all(concentration1, concentration0)
        base_dist = Uniform(creation.full_like(self.concentration0, 0), creation.full_like(self.concentration0, 1),
                            validate_args=validate_args)
        transforms = [PowerTransform(exponent=self.concentration0.reciprocal()), AffineTransform(loc=1.0, scale=-1.0),
                      PowerTransform(exponent=self.concentration1.reciprocal())]
        super().__init__(base_dist, transforms, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Kumaraswamy:
        new = self._get_checked_instance(Kumaraswamy, _instance)
        new.concentration1 = self.concentration1.expand(batch_shape)
        new.concentration0 = self.concentration0.expand(batch_shape)
        super().expand(batch_shape, _instance=new)
        return new

    @property
    def mean(self) -> Tensor:
        return _moments(self.concentration1, self.concentration0, 1)

    @property
    def mode(self) -> Tensor:
        log_mode = (self.concentration0.reciprocal() * (-self.concentration0).log1p()
                    - (-self.concentration0 * self.concentration1).log1p())
        log_mode[(self.concentration0 < 1) | (self.concentration1 < 1)] = math.nan
        return log_mode.exp()

    @property
    def variance(self) -> Tensor:
        return _moments(self.concentration1, self.concentration0, 2) - functional.pow(self.mean, 2)

    def entropy(self) -> Tensor:
        t1 = 1 - self.concentration1.reciprocal()
        t0 = 1 - self.concentration0.reciprocal()
        h0 = functional.digamma(self.concentration0 + 1) + euler_constant
        return t0 + t1 * h0 - functional.log(self.concentration1) - functional.log(self.concentration0)
