"""The geometric distribution (PyTorch's ``torch.distributions.Geometric``)."""
from __future__ import annotations

from typing import Any

from .. import creation, grad_mode
from ..nn.functional import binary_cross_entropy_with_logits
from ..tensor import Tensor
from ..type_info import finfo
from . import constraints
from .distribution import Distribution
from .utils import ProbsOrLogits, broadcast_all, broadcast_parameters

__all__ = ["Geometric"]


class Geometric(ProbsOrLogits, Distribution):
    """The number of failures before the first success in independent trials that each succeed with
    probability ``probs`` (``0 < probs <= 1``): ``P(k) = (1 - probs)^k probs``.

    Args:
        probs (Number or Tensor): the success probability.
        logits (Number or Tensor): the success log-odds.
    """

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, probs: Any = None, logits: Any = None, validate_args: bool | None = None) -> None:
        self._check_one_given(probs, logits)
        name, given = ("probs", probs) if probs is not None else ("logits", logits)
        (self.__dict__[name],), batch_shape = broadcast_parameters(given)
        super().__init__(batch_shape, validate_args=validate_args)
        if self._validate_args and probs is not None:
            valid = self.probs > 0
            if not bool(valid.all()):
                raise ValueError(f"Expected parameter probs ({type(self.probs).__name__} of shape "
                                 f"{tuple(self.probs.shape)}) of distribution {self!r} to be positive but found "
                                 f"invalid values:\n{self.probs.data[~valid]}")

    def expand(self, batch_shape: Any, _instance: Any = None) -> Geometric:
        return self._expand_parameters(Geometric, batch_shape, _instance)

    @property
    def mean(self) -> Tensor:
        return 1.0 / self.probs - 1.0

    @property
    def mode(self) -> Tensor:
        return creation.zeros_like(self.probs)

    @property
    def variance(self) -> Tensor:
        return (1.0 / self.probs - 1.0) / self.probs

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        tiny = finfo(self.probs.dtype).tiny
        with grad_mode.no_grad():
            u = creation.empty(shape, dtype=self.probs.dtype, device=self.probs.device).uniform_(tiny, 1)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        probs = probs.clone()
        probs[(probs == 1) & (value == 0)] = 0
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self) -> Tensor:
        return binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none") / self.probs
