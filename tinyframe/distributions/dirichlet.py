"""The Dirichlet distribution (PyTorch's ``torch.distributions.Dirichlet``)."""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import functional
from ..nn.functional import one_hot
from ..tensor import Tensor
from ..type_info import finfo
from . import constraints
from .exp_family import ExponentialFamily

__all__ = ["Dirichlet"]


class Dirichlet(ExponentialFamily):
    """The Dirichlet distribution on the simplex, of ``concentration`` (last dimension the event).

    ``rsample`` draws as PyTorch's CPU sampler does (float64 standard gamma samples, normalised, in
    the concentration's dtype within ``[tiny, 1)``) and is differentiated through those samples
    (implicit reparameterisation of each gamma), which is unbiased but not PyTorch's per-sample
    gradient (``_dirichlet_grad``, the exact derivative of the marginal Beta CDFs).

    Args:
        concentration (Tensor): the concentration parameters (positive).
    """

    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration: Tensor, validate_args: bool | None = None) -> None:
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        super().__init__(concentration.shape[:-1], concentration.shape[-1:], validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Dirichlet:
        return self._expand_parameters(Dirichlet, batch_shape, _instance)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        concentration = self.concentration.expand(self._extended_shape(sample_shape))
        gammas = functional._standard_gamma(concentration.double())
        x = (gammas / gammas.sum(-1, True)).to(concentration.dtype)
        below_one = float(np.nextafter(x.dtype.numpy.type(1.0), x.dtype.numpy.type(0.0)))
        return x.clamp(finfo(x.dtype).tiny, below_one)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return (functional.xlogy(self.concentration - 1.0, value).sum(-1)
                + functional.lgamma(self.concentration.sum(-1)) - functional.lgamma(self.concentration).sum(-1))

    @property
    def mean(self) -> Tensor:
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self) -> Tensor:
        concentrationm1 = (self.concentration - 1).clamp(min=0.0)
        mode = concentrationm1 / concentrationm1.sum(-1, True)
        mask = (self.concentration < 1).all(dim=-1)  # no interior mode: a vertex of the simplex
        mode[mask] = one_hot(mode[mask].argmax(dim=-1), concentrationm1.shape[-1]).to(mode)
        return mode

    @property
    def variance(self) -> Tensor:
        total = self.concentration.sum(-1, True)
        return self.concentration * (total - self.concentration) / (total.pow(2) * (total + 1))

    def entropy(self) -> Tensor:
        k = self.concentration.size(-1)
        a0 = self.concentration.sum(-1)
        return (functional.lgamma(self.concentration).sum(-1) - functional.lgamma(a0)
                - (k - a0) * functional.digamma(a0)
                - ((self.concentration - 1.0) * functional.digamma(self.concentration)).sum(-1))

    @property
    def _natural_params(self) -> tuple:
        return (self.concentration,)

    def _log_normalizer(self, x: Tensor) -> Tensor:
        return x.lgamma().sum(-1) - functional.lgamma(x.sum(-1))
