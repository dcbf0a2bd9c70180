"""The continuous Bernoulli distribution (PyTorch's ``torch.distributions.ContinuousBernoulli``)."""
from __future__ import annotations

import math
from typing import Any

from .. import creation, functional, grad_mode
from ..nn.functional import binary_cross_entropy_with_logits
from ..tensor import Tensor
from . import constraints
from .exp_family import ExponentialFamily
from .utils import ProbsOrLogits, broadcast_all, broadcast_parameters, clamp_probs, lazy_property, logits_to_probs

__all__ = ["ContinuousBernoulli"]


class ContinuousBernoulli(ProbsOrLogits, ExponentialFamily):
    """The continuous Bernoulli distribution on [0, 1] (Loaiza-Ganem and Cunningham, 2019): density
    ``C(probs) probs^x (1 - probs)^(1 - x)``. Within ``lims`` of 1/2 the normaliser and moments use
    their Taylor expansions, which are stable there.

    Args:
        probs (Number or Tensor): the parameter, in [0, 1].
        logits (Number or Tensor): its log-odds.
        lims (tuple of float): the interval around 1/2 where the Taylor expansions are used.
    """

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    _mean_carrier_measure = 0
    has_rsample = True

    def __init__(self, probs: Any = None, logits: Any = None, lims: tuple = (0.499, 0.501),
                 validate_args: bool | None = None) -> None:
        self._check_one_given(probs, logits)
        name, given = ("probs", probs) if probs is not None else ("logits", logits)
        (param,), batch_shape = broadcast_parameters(given)
        if probs is not None:
            if validate_args is not None and not bool(self.arg_constraints["probs"].check(param).all()):
                raise ValueError("The parameter probs has invalid values")
            param = clamp_probs(param)
        self.__dict__[name] = param
        self._lims = lims
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> ContinuousBernoulli:
        new = self._expand_parameters(ContinuousBernoulli, batch_shape, _instance)
        new._lims = self._lims
        return new

    @lazy_property
    def probs(self) -> Tensor:
        return clamp_probs(logits_to_probs(self.logits, is_binary=True))

    def _outside_unstable_region(self) -> Tensor:
        return functional.max(functional.le(self.probs, self._lims[0]), functional.gt(self.probs, self._lims[1]))

    def _cut_probs(self) -> Tensor:
        return functional.where(self._outside_unstable_region(), self.probs,
                                self._lims[0] * creation.ones_like(self.probs))

    def _cont_bern_log_norm(self) -> Tensor:
        cut_probs = self._cut_probs()
        below_half = functional.le(cut_probs, 0.5)
        cut_probs_below_half = functional.where(below_half, cut_probs, creation.zeros_like(cut_probs))
        cut_probs_above_half = functional.where(functional.ge(cut_probs, 0.5), cut_probs,
                                                creation.ones_like(cut_probs))
        log_norm = (functional.log(functional.abs(functional.log1p(-cut_probs) - functional.log(cut_probs)))
                    - functional.where(below_half, functional.log1p(-2.0 * cut_probs_below_half),
                                       functional.log(2.0 * cut_probs_above_half - 1.0)))
        x = functional.pow(self.probs - 0.5, 2)
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return functional.where(self._outside_unstable_region(), log_norm, taylor)

    @property
    def mean(self) -> Tensor:
        cut_probs = self._cut_probs()
        mus = cut_probs / (2.0 * cut_probs - 1.0) + 1.0 / (functional.log1p(-cut_probs) - functional.log(cut_probs))
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * functional.pow(x, 2)) * x
        return functional.where(self._outside_unstable_region(), mus, taylor)

    @property
    def variance(self) -> Tensor:
        cut_probs = self._cut_probs()
        variances = (cut_probs * (cut_probs - 1.0) / functional.pow(1.0 - 2.0 * cut_probs, 2)
                     + 1.0 / functional.pow(functional.log1p(-cut_probs) - functional.log(cut_probs), 2))
        x = functional.pow(self.probs - 0.5, 2)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return functional.where(self._outside_unstable_region(), variances, taylor)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        u = creation.rand(self._extended_shape(sample_shape), dtype=self.probs.dtype, device=self.probs.device)
        with grad_mode.no_grad():
            return self.icdf(u)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        u = creation.rand(self._extended_shape(sample_shape), dtype=self.probs.dtype, device=self.probs.device)
        return self.icdf(u)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -binary_cross_entropy_with_logits(logits, value, reduction="none") + self._cont_bern_log_norm()

    def cdf(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        cut_probs = self._cut_probs()
        cdfs = ((functional.pow(cut_probs, value) * functional.pow(1.0 - cut_probs, 1.0 - value) + cut_probs - 1.0)
                / (2.0 * cut_probs - 1.0))
        unbounded_cdfs = functional.where(self._outside_unstable_region(), cdfs, value)
        return functional.where(functional.le(value, 0.0), creation.zeros_like(value),
                                functional.where(functional.ge(value, 1.0), creation.ones_like(value), unbounded_cdfs))

    def icdf(self, value: Tensor) -> Tensor:
        cut_probs = self._cut_probs()
        inverse = ((functional.log1p(-cut_probs + value * (2.0 * cut_probs - 1.0)) - functional.log1p(-cut_probs))
                   / (functional.log(cut_probs) - functional.log1p(-cut_probs)))
        return functional.where(self._outside_unstable_region(), inverse, value)

    def entropy(self) -> Tensor:
        log_probs0 = functional.log1p(-self.probs)
        log_probs1 = functional.log(self.probs)
        return self.mean * (log_probs0 - log_probs1) - self._cont_bern_log_norm() - log_probs0

    @property
    def _natural_params(self) -> tuple:
        return (self.logits,)

    def _log_normalizer(self, x: Tensor) -> Tensor:
        outside = functional.max(functional.le(x, self._lims[0] - 0.5), functional.gt(x, self._lims[1] - 0.5))
        cut_nat_params = functional.where(outside, x, (self._lims[0] - 0.5) * creation.ones_like(x))
        log_norm = (functional.log(functional.abs(functional.expm1(cut_nat_params)))
                    - functional.log(functional.abs(cut_nat_params)))
        taylor = 0.5 * x + functional.pow(x, 2) / 24.0 - functional.pow(x, 4) / 2880.0
        return functional.where(outside, log_norm, taylor)
