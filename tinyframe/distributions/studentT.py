"""Student's t distribution (PyTorch's ``torch.distributions.StudentT``)."""
from __future__ import annotations

import math
from typing import Any

from .. import functional
from ..tensor import Tensor
from . import constraints
from .chi2 import Chi2
from .distribution import Distribution
from .utils import _standard_normal, as_size, broadcast_all

__all__ = ["StudentT"]


class StudentT(Distribution):
    """Student's t distribution with ``df`` degrees of freedom, shifted by ``loc`` and scaled by ``scale``:
    ``loc + scale * X / sqrt(Z / df)`` for ``X ~ Normal(0, 1)`` and ``Z ~ Chi2(df)``.

    Args:
        df (float or Tensor): the degrees of freedom (positive).
        loc (float or Tensor): the location. Default: 0.
        scale (float or Tensor): the scale (positive). Default: 1.
    """

    arg_constraints = {"df": constraints.positive, "loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, df: Any, loc: Any = 0.0, scale: Any = 1.0, validate_args: bool | None = None) -> None:
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        self._chi2 = Chi2(self.df)
        super().__init__(self.df.size(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> StudentT:
        new = self._expand_parameters(StudentT, batch_shape, _instance)
        new._chi2 = self._chi2.expand(as_size(batch_shape))
        return new

    @property
    def mean(self) -> Tensor:
        m = self.loc.clone()
        m[self.df <= 1] = math.nan
        return m

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        m = self.df.clone()
        finite = self.df > 2
        m[finite] = self.scale[finite].pow(2) * self.df[finite] / (self.df[finite] - 2)
        m[(self.df <= 2) & (self.df > 1)] = math.inf
        m[self.df <= 1] = math.nan
        return m

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        x = _standard_normal(shape, dtype=self.df.dtype, device=self.df.device)
        z = self._chi2.rsample(sample_shape)
        return self.loc + self.scale * (x * functional.rsqrt(z / self.df))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        y = (value - self.loc) / self.scale
        z = (self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi) + functional.lgamma(0.5 * self.df)
             - functional.lgamma(0.5 * (self.df + 1.0)))
        return -0.5 * (self.df + 1.0) * functional.log1p(y**2.0 / self.df) - z

    def entropy(self) -> Tensor:
        lbeta = functional.lgamma(0.5 * self.df) + math.lgamma(0.5) - functional.lgamma(0.5 * (self.df + 1))
        return (self.scale.log() + 0.5 * (self.df + 1) * (functional.digamma(0.5 * (self.df + 1))
                                                          - functional.digamma(0.5 * self.df))
                + 0.5 * self.df.log() + lbeta)
