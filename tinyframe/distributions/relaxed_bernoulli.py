"""The relaxed Bernoulli distribution (PyTorch's ``torch.distributions.RelaxedBernoulli`` and
``relaxed_bernoulli.LogitRelaxedBernoulli``)."""
from __future__ import annotations

from typing import Any

from .. import creation
from ..tensor import Tensor
from . import constraints
from ._relaxed import Relaxed
from .distribution import Distribution
from .transforms import SigmoidTransform
from .utils import ProbsOrLogits, broadcast_all, broadcast_parameters, clamp_probs

__all__ = ["LogitRelaxedBernoulli", "RelaxedBernoulli"]


class LogitRelaxedBernoulli(ProbsOrLogits, Distribution):
    """The logit of a :class:`RelaxedBernoulli` sample: ``(logit(U) + logits) / temperature`` for
    uniform ``U``.

    Args:
        temperature (Tensor): the relaxation temperature.
        probs (Number or Tensor): the probability of 1.
        logits (Number or Tensor): the log-odds of 1.
    """

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.real

    def __init__(self, temperature: Tensor, probs: Any = None, logits: Any = None,
                 validate_args: bool | None = None) -> None:
        self.temperature = temperature
        self._check_one_given(probs, logits)
        name, given = ("probs", probs) if probs is not None else ("logits", logits)
        (self.__dict__[name],), batch_shape = broadcast_parameters(given)
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> LogitRelaxedBernoulli:
        new = self._expand_parameters(LogitRelaxedBernoulli, batch_shape, _instance)
        new.temperature = self.temperature
        return new

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        probs = clamp_probs(self.probs.expand(shape))
        uniforms = clamp_probs(creation.rand(shape, dtype=probs.dtype, device=probs.device))
        return (uniforms.log() - (-uniforms).log1p() + probs.log() - (-probs).log1p()) / self.temperature

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        diff = logits - value.mul(self.temperature)
        return self.temperature.log() + diff - 2 * diff.exp().log1p()


class RelaxedBernoulli(Relaxed):
    """``sigmoid`` of a :class:`LogitRelaxedBernoulli` sample: values in (0, 1).

    Args:
        temperature (Tensor): the relaxation temperature.
        probs (Number or Tensor): the probability of 1.
        logits (Number or Tensor): the log-odds of 1.
    """

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    base_dist: LogitRelaxedBernoulli

    def __init__(self, temperature: Tensor, probs: Any = None, logits: Any = None,
                 validate_args: bool | None = None) -> None:
        base_dist = LogitRelaxedBernoulli(temperature, probs, logits)
        super().__init__(base_dist, SigmoidTransform(), validate_args=validate_args)
