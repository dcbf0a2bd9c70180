"""The relaxed (Concrete / Gumbel-softmax) Bernoulli and one-hot categorical distributions (PyTorch's
``torch.distributions.RelaxedBernoulli``, ``LogitRelaxedBernoulli``, ``RelaxedOneHotCategorical`` and
``ExpRelaxedCategorical``): continuous, reparameterisable stand-ins for discrete samples, sharper as
``temperature`` goes to 0."""
from __future__ import annotations

from typing import Any

from .. import creation
from ..tensor import Tensor
from . import constraints
from .categorical import CategoricalBacked
from .distribution import Distribution
from .transformed_distribution import TransformedDistribution
from .transforms import ExpTransform, SigmoidTransform
from .utils import ProbsOrLogits, broadcast_all, broadcast_parameters, clamp_probs

__all__ = ["LogitRelaxedBernoulli", "RelaxedBernoulli", "ExpRelaxedCategorical", "RelaxedOneHotCategorical"]


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


class ExpRelaxedCategorical(CategoricalBacked):
    """The log of a :class:`RelaxedOneHotCategorical` sample: ``log_softmax((logits + G) / temperature)``
    for standard Gumbel noise ``G``.

    Args:
        temperature (Tensor): the relaxation temperature.
        probs (Tensor): event probabilities.
        logits (Tensor): event log-probabilities (unnormalised).
    """

    support = constraints.real_vector
    has_rsample = True

    def __init__(self, temperature: Tensor, probs: Tensor | None = None, logits: Tensor | None = None,
                 validate_args: bool | None = None) -> None:
        self.temperature = temperature
        super().__init__(probs, logits, validate_args=validate_args)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        uniforms = clamp_probs(creation.rand(shape, dtype=self.logits.dtype, device=self.logits.device))
        gumbels = -(-uniforms.log()).log()
        scores = (self.logits + gumbels) / self.temperature
        return scores - scores.logsumexp(dim=-1, keepdim=True)

    def log_prob(self, value: Tensor) -> Tensor:
        k = self._categorical._num_events
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        log_scale = creation.full_like(self.temperature, float(k)).lgamma() - self.temperature.log().mul(-(k - 1))
        score = logits - value.mul(self.temperature)
        score = (score - score.logsumexp(dim=-1, keepdim=True)).sum(-1)
        return score + log_scale


class _Relaxed(TransformedDistribution):
    """A relaxed distribution: its ``base_dist`` (the relaxed logits) pushed through a transform, with the
    base's ``temperature``, ``probs`` and ``logits``."""

    has_rsample = True
    base_dist: Any

    def expand(self, batch_shape: Any, _instance: Any = None) -> _Relaxed:
        new = self._get_checked_instance(type(self), _instance)
        super().expand(batch_shape, _instance=new)
        return new

    @property
    def temperature(self) -> Tensor:
        return self.base_dist.temperature

    @property
    def logits(self) -> Tensor:
        return self.base_dist.logits

    @property
    def probs(self) -> Tensor:
        return self.base_dist.probs


class RelaxedBernoulli(_Relaxed):
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


class RelaxedOneHotCategorical(_Relaxed):
    """``exp`` of an :class:`ExpRelaxedCategorical` sample: points of the simplex.

    Args:
        temperature (Tensor): the relaxation temperature.
        probs (Tensor): event probabilities.
        logits (Tensor): event log-probabilities (unnormalised).
    """

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.simplex
    base_dist: ExpRelaxedCategorical

    def __init__(self, temperature: Tensor, probs: Tensor | None = None, logits: Tensor | None = None,
                 validate_args: bool | None = None) -> None:
        base_dist = ExpRelaxedCategorical(temperature, probs, logits, validate_args=validate_args)
        super().__init__(base_dist, ExpTransform(), validate_args=validate_args)
