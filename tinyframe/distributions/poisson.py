"""The Poisson distribution (PyTorch's ``torch.distributions.Poisson``)."""
from __future__ import annotations

from typing import Any

from .. import functional, grad_mode
from ..tensor import Tensor
from . import constraints
from .exp_family import ExponentialFamily
from .utils import broadcast_all, broadcast_parameters

__all__ = ["Poisson"]


class Poisson(ExponentialFamily):
    """The Poisson distribution: ``P(k) = rate^k exp(-rate) / k!``. Samples are not reparameterised.

    Args:
        rate (float or Tensor): the rate (non-negative).
    """

    arg_constraints = {"rate": constraints.nonnegative}
    support = constraints.nonnegative_integer

    def __init__(self, rate: Any, validate_args: bool | None = None) -> None:
        (self.rate,), batch_shape = broadcast_parameters(rate)
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Poisson:
        return self._expand_parameters(Poisson, batch_shape, _instance)

    @property
    def mean(self) -> Tensor:
        return self.rate

    @property
    def mode(self) -> Tensor:
        return self.rate.floor()

    @property
    def variance(self) -> Tensor:
        return self.rate

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        with grad_mode.no_grad():
            return functional.poisson(self.rate.expand(shape))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        rate, value = broadcast_all(self.rate, value)
        return value.xlogy(rate) - rate - (value + 1).lgamma()

    @property
    def _natural_params(self) -> tuple:
        return (functional.log(self.rate),)

    def _log_normalizer(self, x: Tensor) -> Tensor:
        return functional.exp(x)
