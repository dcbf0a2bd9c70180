"""The categorical distribution (PyTorch's ``torch.distributions.Categorical``)."""
from __future__ import annotations

import math
from typing import Any

from .. import creation, dtypes, functional
from .._dims import Size
from ..tensor import Tensor
from ..type_info import finfo
from . import constraints
from .distribution import Distribution
from .utils import ProbsOrLogits, as_size

__all__ = ["Categorical", "CategoricalBacked"]


class Categorical(ProbsOrLogits, Distribution):
    """A distribution over the category indices ``0 .. K-1``, given by ``probs`` (non-negative weights
    along the last dimension, normalised to sum to 1) or by ``logits`` (unnormalised log-probabilities).
    The leading dimensions are batch dimensions.

    Args:
        probs (Tensor): event probabilities.
        logits (Tensor): event log-odds.
    """

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    has_enumerate_support = True
    _binary = False

    def __init__(self, probs: Tensor | None = None, logits: Tensor | None = None,
                 validate_args: bool | None = None) -> None:
        self._check_one_given(probs, logits)
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
        elif logits is not None:  # exactly one is given (checked above)
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
        batch_shape = self._param.size()[:-1] if self._param.dim() > 1 else Size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Categorical:
        return self._expand_parameters(Categorical, batch_shape, _instance)

    @property
    def _num_events(self) -> int:
        return self._param.size()[-1]

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self) -> Any:
        return constraints.integer_interval(0, self._num_events - 1)

    def _undefined(self) -> Tensor:
        return creation.full(self._extended_shape(), math.nan, dtype=self.probs.dtype, device=self.probs.device)

    @property
    def mean(self) -> Tensor:
        return self._undefined()

    @property
    def mode(self) -> Tensor:
        return self.probs.argmax(dim=-1)

    @property
    def variance(self) -> Tensor:
        return self._undefined()

    def sample(self, sample_shape: Any = ()) -> Tensor:
        sample_shape = as_size(sample_shape)
        probs_2d = self.probs.reshape(-1, self._num_events)
        samples_2d = functional.multinomial(probs_2d, sample_shape.numel(), True).T
        return samples_2d.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        value, log_pmf = functional.broadcast_tensors(value, self.logits)
        return log_pmf.gather(-1, value[..., :1]).squeeze(-1)

    def entropy(self) -> Tensor:
        logits = functional.clamp(self.logits, min=finfo(self.logits.dtype).min)  # -inf logits: 0 * min, not nan
        return -(logits * self.probs).sum(-1)

    def enumerate_support(self, expand: bool = True) -> Tensor:
        values = creation.arange(self._num_events, dtype=dtypes.int64, device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + self._batch_shape) if expand else values


class CategoricalBacked(Distribution):
    """A distribution over vectors of length K parameterised as a :class:`Categorical` (kept as
    ``_categorical``): its ``probs``, ``logits`` and ``param_shape`` are the categorical's, the event
    shape is ``(K,)``, and ``expand`` expands the categorical."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}

    def __init__(self, probs: Tensor | None = None, logits: Tensor | None = None,
                 validate_args: bool | None = None) -> None:
        self._categorical = Categorical(probs, logits)
        batch_shape = self._categorical.batch_shape
        super().__init__(batch_shape, self._categorical.param_shape[-1:], validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> CategoricalBacked:
        new = self._get_checked_instance(type(self), _instance)
        batch_shape = as_size(batch_shape)
        new.__dict__.update({k: v for k, v in self.__dict__.items() if k not in ("_batch_shape", "_event_shape")})
        new._categorical = self._categorical.expand(batch_shape)
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def _param(self) -> Tensor:
        return self._categorical._param

    @property
    def probs(self) -> Tensor:
        return self._categorical.probs

    @property
    def logits(self) -> Tensor:
        return self._categorical.logits

    @property
    def param_shape(self) -> Size:
        return self._categorical.param_shape
