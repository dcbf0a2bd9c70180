"""The negative binomial distribution (PyTorch's ``torch.distributions.NegativeBinomial``)."""
from __future__ import annotations

from typing import Any

from .. import functional, grad_mode
from ..nn.functional import logsigmoid
from ..tensor import Tensor
from . import constraints
from .distribution import Distribution
from .gamma import Gamma
from .utils import ProbsOrLogits, broadcast_all, lazy_property

__all__ = ["NegativeBinomial"]


class NegativeBinomial(ProbsOrLogits, Distribution):
    """The number of successes before ``total_count`` failures in independent trials that each succeed
    with probability ``probs`` (log-odds ``logits``); sampled as a Poisson of a gamma-distributed rate.

    Args:
        total_count (float or Tensor): the number of failures (non-negative; need not be an integer).
        probs (Tensor): the success probability, in ``[0, 1)``.
        logits (Tensor): the success log-odds.
    """

    arg_constraints = {"total_count": constraints.greater_than_eq(0),
                       "probs": constraints.half_open_interval(0.0, 1.0), "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, total_count: Any, probs: Any = None, logits: Any = None,
                 validate_args: bool | None = None) -> None:
        self._check_one_given(probs, logits)
        name, given = ("probs", probs) if probs is not None else ("logits", logits)
        total_count, self.__dict__[name] = broadcast_all(total_count, given)
        self.total_count = total_count.type_as(self._param)
        super().__init__(self._param.size(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> NegativeBinomial:
        return self._expand_parameters(NegativeBinomial, batch_shape, _instance)

    @property
    def mean(self) -> Tensor:
        return self.total_count * functional.exp(self.logits)

    @property
    def mode(self) -> Tensor:
        return ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.0)

    @property
    def variance(self) -> Tensor:
        return self.mean / functional.sigmoid(-self.logits)

    @lazy_property
    def _gamma(self) -> Gamma:
        return Gamma(concentration=self.total_count, rate=functional.exp(-self.logits), validate_args=False)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        with grad_mode.no_grad():
            return functional.poisson(self._gamma.sample(sample_shape))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        log_unnormalized_prob = self.total_count * logsigmoid(-self.logits) + value * logsigmoid(self.logits)
        log_normalization = (-functional.lgamma(self.total_count + value) + functional.lgamma(1.0 + value)
                             + functional.lgamma(self.total_count))
        log_normalization = log_normalization.masked_fill(self.total_count + value == 0.0, 0.0)
        return log_unnormalized_prob - log_normalization
