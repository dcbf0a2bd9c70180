"""The multinomial distribution (PyTorch's ``torch.distributions.Multinomial``)."""
from __future__ import annotations

import math
from typing import Any

from .. import creation, functional
from ..tensor import Tensor
from . import constraints
from .binomial import Binomial
from .categorical import CategoricalBacked
from .utils import as_size, broadcast_all

__all__ = ["Multinomial"]


class Multinomial(CategoricalBacked):
    """The counts of each of K categories in ``total_count`` independent draws from
    ``Categorical(probs)``; ``log_prob`` does not need ``total_count`` (the counts give it).

    Args:
        total_count (int): the number of draws (the same for the whole batch).
        probs (Tensor): event probabilities.
        logits (Tensor): event log-probabilities (unnormalised).
    """

    total_count: int

    def __init__(self, total_count: int = 1, probs: Tensor | None = None, logits: Tensor | None = None,
                 validate_args: bool | None = None) -> None:
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        super().__init__(probs, logits, validate_args=validate_args)
        self._binomial = Binomial(total_count=total_count, probs=self.probs)

    @constraints.dependent_property(is_discrete=True, event_dim=1)
    def support(self) -> Any:
        return constraints.multinomial(self.total_count)

    @property
    def mean(self) -> Tensor:
        return self.probs * self.total_count

    @property
    def variance(self) -> Tensor:
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        sample_shape = as_size(sample_shape)
        samples = self._categorical.sample(as_size((self.total_count,)) + sample_shape)
        samples = samples.permute(*range(1, samples.dim()), 0)  # the draws last
        # counted in the probabilities' dtype (PyTorch counts in int64, then casts): CuPy's scatter_add has no int64
        counts = creation.zeros(self._extended_shape(sample_shape), dtype=self.probs.dtype, device=samples.device)
        return counts.scatter_add_(-1, samples, creation.ones_like(samples, dtype=self.probs.dtype))

    def entropy(self) -> Tensor:
        n = creation.tensor(self.total_count)
        term1 = n * self._categorical.entropy() - functional.lgamma(n + 1)
        support = self._binomial.enumerate_support(expand=False)[1:]
        binomial_probs = functional.exp(self._binomial.log_prob(support))
        weights = functional.lgamma(support + 1)
        return term1 + (binomial_probs * weights).sum([0, -1])

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        logits = logits.clone()
        log_factorial_n = functional.lgamma(value.sum(-1) + 1)
        log_factorial_xs = functional.lgamma(value + 1).sum(-1)
        logits[(value == 0) & (logits == -math.inf)] = 0
        return log_factorial_n - log_factorial_xs + (logits * value).sum(-1)
