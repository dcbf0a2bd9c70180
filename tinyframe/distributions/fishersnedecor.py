"""The Fisher-Snedecor (F) distribution (PyTorch's ``torch.distributions.FisherSnedecor``)."""
from __future__ import annotations

import math
from typing import Any

from .. import functional
from ..tensor import Tensor
from ..type_info import finfo
from . import constraints
from .distribution import Distribution
from .gamma import Gamma
from .utils import as_size, broadcast_parameters

__all__ = ["FisherSnedecor"]


class FisherSnedecor(Distribution):
    """The F distribution: ``(X1 / df1) / (X2 / df2)`` for independent ``X1 ~ Chi2(df1)``, ``X2 ~ Chi2(df2)``.

    Args:
        df1 (float or Tensor): the numerator's degrees of freedom (positive).
        df2 (float or Tensor): the denominator's degrees of freedom (positive).
    """

    arg_constraints = {"df1": constraints.positive, "df2": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, df1: Any, df2: Any, validate_args: bool | None = None) -> None:
        (self.df1, self.df2), batch_shape = broadcast_parameters(df1, df2)
        self._gamma1 = Gamma(self.df1 * 0.5, self.df1)
        self._gamma2 = Gamma(self.df2 * 0.5, self.df2)
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> FisherSnedecor:
        new = self._expand_parameters(FisherSnedecor, batch_shape, _instance)
        new._gamma1 = self._gamma1.expand(as_size(batch_shape))
        new._gamma2 = self._gamma2.expand(as_size(batch_shape))
        return new

    @property
    def mean(self) -> Tensor:
        df2 = self.df2.clone()
        df2[df2 <= 2] = math.nan
        return df2 / (df2 - 2)

    @property
    def mode(self) -> Tensor:
        mode = (self.df1 - 2) / self.df1 * self.df2 / (self.df2 + 2)
        mode[self.df1 <= 2] = math.nan
        return mode

    @property
    def variance(self) -> Tensor:
        df2 = self.df2.clone()
        df2[df2 <= 4] = math.nan
        return 2 * df2.pow(2) * (self.df1 + df2 - 2) / (self.df1 * (df2 - 2).pow(2) * (df2 - 4))

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        x1 = self._gamma1.rsample(sample_shape).view(shape)
        x2 = self._gamma2.rsample(sample_shape).view(shape)
        tiny = finfo(x2.dtype).tiny
        # out of place, where PyTorch clamps in place: tinyframe records in-place ops on indexing views only
        return (x1 / x2.clamp(min=tiny)).clamp(min=tiny)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        ct1 = self.df1 * 0.5
        ct2 = self.df2 * 0.5
        ct3 = self.df1 / self.df2
        t1 = (ct1 + ct2).lgamma() - ct1.lgamma() - ct2.lgamma()
        t2 = ct1 * ct3.log() + (ct1 - 1) * functional.log(value)
        t3 = (ct1 + ct2) * functional.log1p(ct3 * value)
        return t1 + t2 - t3
