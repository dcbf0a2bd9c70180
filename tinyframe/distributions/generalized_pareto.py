"""The generalized Pareto distribution (PyTorch's ``torch.distributions.GeneralizedPareto``)."""
from __future__ import annotations

import math
from typing import Any

from .. import creation, functional
from ..tensor import Tensor
from . import constraints
from .distribution import Distribution
from .utils import broadcast_parameters

__all__ = ["GeneralizedPareto"]


class GeneralizedPareto(Distribution):
    """The generalized Pareto distribution: survival function ``(1 + concentration z)^(-1 / concentration)``
    for ``z = (x - loc) / scale`` (``exp(-z)`` at ``concentration = 0``); bounded above where
    ``concentration < 0``.

    Args:
        loc (float or Tensor): the location.
        scale (float or Tensor): the scale (positive).
        concentration (float or Tensor): the shape.
    """

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive, "concentration": constraints.real}
    has_rsample = True

    def __init__(self, loc: Any, scale: Any, concentration: Any, validate_args: bool | None = None) -> None:
        (self.loc, self.scale, self.concentration), batch_shape = broadcast_parameters(loc, scale, concentration)
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> GeneralizedPareto:
        return self._expand_parameters(GeneralizedPareto, batch_shape, _instance)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        u = creation.rand(self._extended_shape(sample_shape), dtype=self.loc.dtype, device=self.loc.device)
        return self.icdf(u)

    def _safe_concentration(self) -> tuple:
        """``(concentration == 0, concentration with 1 where it is 0)``: the 0 case has its own formula."""
        eq_zero = functional.isclose(self.concentration, creation.zeros_like(self.concentration))
        return eq_zero, functional.where(eq_zero, creation.ones_like(self.concentration), self.concentration)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero, safe_conc = self._safe_concentration()
        y = 1 / safe_conc + creation.ones_like(z)
        where_nonzero = functional.where(y == 0, y, y * functional.log1p(safe_conc * z))
        return -self.scale.log() - functional.where(eq_zero, z, where_nonzero)

    def log_survival_function(self, value: Tensor) -> Tensor:
        """``log(1 - cdf(value))``."""
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero, safe_conc = self._safe_concentration()
        return functional.where(eq_zero, -z, -functional.log1p(safe_conc * z) / safe_conc)

    def log_cdf(self, value: Tensor) -> Tensor:
        """``log(cdf(value))``."""
        return functional.log1p(-functional.exp(self.log_survival_function(value)))

    def cdf(self, value: Tensor) -> Tensor:
        return functional.exp(self.log_cdf(value))

    def icdf(self, value: Tensor) -> Tensor:
        eq_zero, safe_conc = self._safe_concentration()
        logu = functional.log1p(-value)
        where_nonzero = self.loc + self.scale / safe_conc * functional.expm1(-safe_conc * logu)
        return functional.where(eq_zero, self.loc - self.scale * logu, where_nonzero)

    def _z(self, x: Tensor) -> Tensor:
        return (x - self.loc) / self.scale

    @property
    def mean(self) -> Tensor:
        valid = self.concentration < 1
        safe_conc = functional.where(valid, self.concentration, 0.5)
        return functional.where(valid, self.loc + self.scale / (1 - safe_conc), math.nan)

    @property
    def variance(self) -> Tensor:
        valid = self.concentration < 0.5
        safe_conc = functional.where(valid, self.concentration, 0.25)
        result = self.scale**2 / ((1 - safe_conc) ** 2 * (1 - 2 * safe_conc))
        return functional.where(valid, result, math.nan)

    def entropy(self) -> Tensor:
        return functional.broadcast_to(functional.log(self.scale) + self.concentration + 1, self._batch_shape)

    @property
    def mode(self) -> Tensor:
        return self.loc

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self) -> Any:
        lower = self.loc
        upper = functional.where(self.concentration < 0, lower - self.scale / self.concentration, math.inf)
        return constraints.interval(lower, upper)
