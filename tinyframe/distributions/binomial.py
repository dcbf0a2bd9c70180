"""The binomial distribution (PyTorch's ``torch.distributions.Binomial``)."""
from __future__ import annotations

from typing import Any

from .. import creation, functional, grad_mode
from ..tensor import Tensor
from . import constraints
from .distribution import Distribution
from .utils import ProbsOrLogits, broadcast_all

__all__ = ["Binomial"]


def _clamp_by_zero(x: Tensor) -> Tensor:
    """``max(x, 0)`` with gradient 1/2 at 0 (the mean of the one-sided gradients)."""
    return (x.clamp(min=0) + x - x.clamp(max=0)) / 2


class Binomial(ProbsOrLogits, Distribution):
    """The number of successes in ``total_count`` independent trials, each succeeding with probability
    ``probs`` (or log-odds ``logits``). Samples are not reparameterised.

    Args:
        total_count (int or Tensor): the number of trials.
        probs (Tensor): the success probability.
        logits (Tensor): the success log-odds.
    """

    arg_constraints = {"total_count": constraints.nonnegative_integer, "probs": constraints.unit_interval,
                       "logits": constraints.real}
    has_enumerate_support = True

    def __init__(self, total_count: Any = 1, probs: Any = None, logits: Any = None,
                 validate_args: bool | None = None) -> None:
        self._check_one_given(probs, logits)
        name, given = ("probs", probs) if probs is not None else ("logits", logits)
        total_count, self.__dict__[name] = broadcast_all(total_count, given)
        self.total_count = total_count.type_as(self._param)
        super().__init__(self._param.size(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Binomial:
        return self._expand_parameters(Binomial, batch_shape, _instance)

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self) -> Any:
        return constraints.integer_interval(0, self.total_count)

    @property
    def mean(self) -> Tensor:
        return self.total_count * self.probs

    @property
    def mode(self) -> Tensor:
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self) -> Tensor:
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        with grad_mode.no_grad():
            return functional.binomial(self.total_count.expand(shape), self.probs.expand(shape))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        log_factorial_n = functional.lgamma(self.total_count + 1)
        log_factorial_k = functional.lgamma(value + 1)
        log_factorial_nmk = functional.lgamma(self.total_count - value + 1)
        # n * log(1 + exp(logits)), computed without overflow
        normalize_term = (self.total_count * _clamp_by_zero(self.logits)
                          + self.total_count * functional.log1p(functional.exp(-functional.abs(self.logits)))
                          - log_factorial_n)
        return value * self.logits - log_factorial_k - log_factorial_nmk - normalize_term

    def _homogeneous_count(self, what: str) -> int:
        total_count = int(self.total_count.max())
        if not self.total_count.min() == total_count:
            raise NotImplementedError(f"Inhomogeneous total count not supported by `{what}`.")
        return total_count

    def entropy(self) -> Tensor:
        self._homogeneous_count("entropy")
        log_prob = self.log_prob(self.enumerate_support(False))
        return -(functional.exp(log_prob) * log_prob).sum(0)

    def enumerate_support(self, expand: bool = True) -> Tensor:
        total_count = self._homogeneous_count("enumerate_support")
        values = creation.arange(1 + total_count, dtype=self._param.dtype, device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + self._batch_shape) if expand else values
