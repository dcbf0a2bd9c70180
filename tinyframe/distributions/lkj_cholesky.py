"""The LKJ distribution of Cholesky factors of correlation matrices (PyTorch's
``torch.distributions.LKJCholesky``)."""
from __future__ import annotations

import math
from typing import Any

from .. import creation, functional
from ..tensor import Tensor
from ..type_info import finfo
from . import constraints
from .beta import Beta
from .distribution import Distribution
from .utils import as_size, broadcast_all

__all__ = ["LKJCholesky"]


class LKJCholesky(Distribution):
    """The LKJ distribution (Lewandowski, Kurowicka and Joe, 2009) over lower Cholesky factors ``L`` of
    ``dim x dim`` correlation matrices ``L L^T``, with density proportional to
    ``det(L L^T)^(concentration - 1)``; sampled by the onion method.

    Args:
        dim (int): the size of the matrices (at least 2).
        concentration (float or Tensor): the shape (positive); 1 is uniform over correlation matrices.
    """

    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim: int, concentration: Any = 1.0, validate_args: bool | None = None) -> None:
        if dim < 2:
            raise ValueError(f"Expected dim to be an integer greater than or equal to 2. Found dim={dim}.")
        self.dim = dim
        (self.concentration,) = broadcast_all(concentration)
        # the onion method's squared row norms are Beta(i / 2, concentration + (dim - 2 - i) / 2), row i >= 1
        marginal_conc = self.concentration + 0.5 * (self.dim - 2)
        offset = creation.arange(self.dim - 1, dtype=self.concentration.dtype, device=self.concentration.device)
        offset = functional.cat([offset.new_zeros((1,)), offset])
        self._beta = Beta(offset + 0.5, marginal_conc.unsqueeze(-1) - 0.5 * offset)
        super().__init__(self.concentration.size(), (dim, dim), validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> LKJCholesky:
        new = self._get_checked_instance(LKJCholesky, _instance)
        batch_shape = as_size(batch_shape)
        new.dim = self.dim
        new.concentration = self.concentration.expand(batch_shape)
        new._beta = self._beta.expand(batch_shape + (self.dim,))
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def sample(self, sample_shape: Any = ()) -> Tensor:
        y = self._beta.sample(sample_shape).unsqueeze(-1)
        u_normal = creation.randn(self._extended_shape(sample_shape), dtype=y.dtype, device=y.device).tril(-1)
        u_hypersphere = u_normal / u_normal.norm(dim=-1, keepdim=True)
        u_hypersphere[..., 0, :] = 0.0  # the first row is (1, 0, ..., 0)
        w = functional.sqrt(y) * u_hypersphere
        diag_elems = functional.clamp(1 - functional.sum(w**2, dim=-1), min=finfo(w.dtype).tiny).sqrt()
        return w + functional.diag_embed(diag_elems)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        diag_elems = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        order = creation.arange(2, self.dim + 1, device=self.concentration.device)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalized_log_pdf = functional.sum(order * diag_elems.log(), dim=-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        denominator = functional.lgamma(alpha) * dm1
        numerator = functional.mvlgamma(alpha - 0.5, dm1)
        return unnormalized_log_pdf - (0.5 * dm1 * math.log(math.pi) + numerator - denominator)
