"""The Bernoulli distribution (PyTorch's ``torch.distributions.Bernoulli``)."""
from __future__ import annotations

import math
from typing import Any

from .. import creation, functional, grad_mode
from ..nn.functional import binary_cross_entropy_with_logits
from ..tensor import Tensor
from . import constraints
from .exp_family import ExponentialFamily
from .utils import ProbsOrLogits, broadcast_all, broadcast_parameters

__all__ = ["Bernoulli"]


class Bernoulli(ProbsOrLogits, ExponentialFamily):
    """1 with probability ``probs`` and 0 otherwise; given by ``probs`` or by ``logits`` (log-odds).

    Args:
        probs (Number or Tensor): the probability of 1.
        logits (Number or Tensor): the log-odds of 1.
    """

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean
    has_enumerate_support = True
    _mean_carrier_measure = 0

    def __init__(self, probs: Any = None, logits: Any = None, validate_args: bool | None = None) -> None:
        self._check_one_given(probs, logits)
        name, given = ("probs", probs) if probs is not None else ("logits", logits)
        (self.__dict__[name],), batch_shape = broadcast_parameters(given)
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Bernoulli:
        return self._expand_parameters(Bernoulli, batch_shape, _instance)

    @property
    def mean(self) -> Tensor:
        return self.probs

    @property
    def mode(self) -> Tensor:
        mode = (self.probs >= 0.5).to(self.probs)
        mode[self.probs == 0.5] = math.nan
        return mode

    @property
    def variance(self) -> Tensor:
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        with grad_mode.no_grad():
            return functional.bernoulli(self.probs.expand(shape))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self) -> Tensor:
        return binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    def enumerate_support(self, expand: bool = True) -> Tensor:
        values = creation.arange(2, dtype=self._param.dtype, device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + self._batch_shape) if expand else values

    @property
    def _natural_params(self) -> tuple:
        return (functional.logit(self.probs),)

    def _log_normalizer(self, x: Tensor) -> Tensor:
        return functional.log1p(functional.exp(x))
