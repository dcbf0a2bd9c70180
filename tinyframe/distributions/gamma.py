"""The gamma distribution (PyTorch's ``torch.distributions.Gamma``)."""
from __future__ import annotations

from typing import Any

from .. import creation, functional
from ..ops import special
from ..tensor import Tensor
from ..type_info import finfo
from . import constraints
from .exp_family import ExponentialFamily
from .utils import broadcast_parameters

__all__ = ["Gamma"]


class Gamma(ExponentialFamily):
    """The gamma distribution of shape ``concentration`` and ``rate`` (1 / scale). ``rsample`` is
    ``_standard_gamma(concentration) / rate``, differentiable in both by implicit reparameterisation.

    Args:
        concentration (float or Tensor): the shape (positive).
        rate (float or Tensor): the rate (positive).
    """

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, concentration: Any, rate: Any, validate_args: bool | None = None) -> None:
        (self.concentration, self.rate), batch_shape = broadcast_parameters(concentration, rate)
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Gamma:
        return self._expand_parameters(Gamma, batch_shape, _instance)

    @property
    def mean(self) -> Tensor:
        return self.concentration / self.rate

    @property
    def mode(self) -> Tensor:
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self) -> Tensor:
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        value = functional._standard_gamma(self.concentration.expand(shape)) / self.rate.expand(shape)
        value.detach().clamp_(min=finfo(value.dtype).tiny)  # never exactly 0, whose log_prob is -inf
        return value

    def log_prob(self, value: Any) -> Tensor:
        value = creation.as_tensor(value, dtype=self.rate.dtype, device=self.rate.device)
        if self._validate_args:
            self._validate_sample(value)
        return (functional.xlogy(self.concentration, self.rate) + functional.xlogy(self.concentration - 1, value)
                - self.rate * value - functional.lgamma(self.concentration))

    def cdf(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return special.igamma(self.concentration, self.rate * value)

    def entropy(self) -> Tensor:
        return (self.concentration - functional.log(self.rate) + functional.lgamma(self.concentration)
                + (1.0 - self.concentration) * functional.digamma(self.concentration))

    @property
    def _natural_params(self) -> tuple:
        return (self.concentration - 1, -self.rate)

    def _log_normalizer(self, x: Tensor, y: Tensor) -> Tensor:
        return functional.lgamma(x + 1) + (x + 1) * functional.log(-y.reciprocal())
