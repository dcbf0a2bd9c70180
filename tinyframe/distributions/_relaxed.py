"""The base of the relaxed (Concrete / Gumbel-softmax) distributions, continuous and reparameterisable
stand-ins for discrete samples that are sharper as ``temperature`` goes to 0."""
from __future__ import annotations

from typing import Any

from ..tensor import Tensor
from .transformed_distribution import TransformedDistribution

__all__ = ["Relaxed"]


class Relaxed(TransformedDistribution):
    """A relaxed distribution: its ``base_dist`` (the relaxed logits) pushed through a transform, with the
    base's ``temperature``, ``probs`` and ``logits``."""

    has_rsample = True
    base_dist: Any

    def expand(self, batch_shape: Any, _instance: Any = None) -> Relaxed:
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
