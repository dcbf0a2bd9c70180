"""The Laplace distribution (PyTorch's ``torch.distributions.Laplace``)."""
from __future__ import annotations

from typing import Any

from .. import creation, functional
from ..tensor import Tensor
from ..type_info import finfo
from . import constraints
from .distribution import Distribution
from .utils import broadcast_parameters

__all__ = ["Laplace"]


class Laplace(Distribution):
    """The Laplace distribution: density ``exp(-|x - loc| / scale) / (2 scale)``.

    Args:
        loc (float or Tensor): the mean.
        scale (float or Tensor): the scale (positive).
    """

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc: Any, scale: Any, validate_args: bool | None = None) -> None:
        (self.loc, self.scale), batch_shape = broadcast_parameters(loc, scale)
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Laplace:
        return self._expand_parameters(Laplace, batch_shape, _instance)

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        return 2 * self.scale.pow(2)

    @property
    def stddev(self) -> Tensor:
        return 2**0.5 * self.scale

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        eps = finfo(self.loc.dtype).eps
        u = creation.empty(shape, dtype=self.loc.dtype, device=self.loc.device).uniform_(eps - 1, 1)
        return self.loc - self.scale * u.sign() * functional.log1p(-u.abs())

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return -functional.log(2 * self.scale) - functional.abs(value - self.loc) / self.scale

    def cdf(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 - 0.5 * (value - self.loc).sign() * functional.expm1(-(value - self.loc).abs() / self.scale)

    def icdf(self, value: Tensor) -> Tensor:
        term = value - 0.5
        return self.loc - self.scale * term.sign() * functional.log1p(-2 * term.abs())

    def entropy(self) -> Tensor:
        return 1 + functional.log(2 * self.scale)
