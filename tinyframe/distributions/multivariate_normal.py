"""The multivariate normal distribution (PyTorch's ``torch.distributions.MultivariateNormal``)."""
from __future__ import annotations

import math
from typing import Any

from .. import creation, functional, linalg
from .._dims import Size
from ..tensor import Tensor
from . import constraints
from .distribution import Distribution
from .utils import _standard_normal, lazy_property

__all__ = ["MultivariateNormal"]


def _batch_mv(bmat: Tensor, bvec: Tensor) -> Tensor:
    """Matrix-vector products, batched and broadcast."""
    return functional.matmul(bmat, bvec.unsqueeze(-1)).squeeze(-1)


def _batch_mahalanobis(bL: Tensor, bx: Tensor) -> Tensor:  # noqa: N803  PyTorch's names
    """The squared Mahalanobis distance ``x^T (L L^T)^{-1} x`` for lower-triangular ``L``, batched and
    broadcast: ``|L^{-1} x|^2`` by one triangular solve."""
    return linalg.solve_triangular(bL, bx.unsqueeze(-1), upper=False).squeeze(-1).pow(2).sum(-1)


def _precision_to_scale_tril(P: Tensor) -> Tensor:  # noqa: N803
    """The lower Cholesky factor of ``P^{-1}``, from the Cholesky factor of ``P`` with its rows and
    columns reversed (no explicit inverse of ``P``)."""
    Lf = linalg.cholesky(functional.flip(P, (-2, -1)))  # noqa: N806
    L_inv = functional.transpose(functional.flip(Lf, (-2, -1)), -2, -1)  # noqa: N806
    identity = creation.eye(P.shape[-1], dtype=P.dtype, device=P.device)
    return linalg.solve_triangular(L_inv, identity, upper=False)


class MultivariateNormal(Distribution):
    """The multivariate normal distribution with mean ``loc`` and a covariance given by exactly one of
    ``covariance_matrix``, ``precision_matrix`` (its inverse) or ``scale_tril`` (its lower Cholesky factor).

    Args:
        loc (Tensor): the mean (last dimension the event).
        covariance_matrix (Tensor): positive-definite covariance matrix.
        precision_matrix (Tensor): positive-definite precision matrix.
        scale_tril (Tensor): lower-triangular factor of the covariance, positive diagonal.
    """

    arg_constraints = {"loc": constraints.real_vector, "covariance_matrix": constraints.positive_definite,
                       "precision_matrix": constraints.positive_definite, "scale_tril": constraints.lower_cholesky}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc: Tensor, covariance_matrix: Tensor | None = None, precision_matrix: Tensor | None = None,
                 scale_tril: Tensor | None = None, validate_args: bool | None = None) -> None:
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        given = {name: matrix for name, matrix in (("scale_tril", scale_tril), ("covariance_matrix", covariance_matrix),
                                                   ("precision_matrix", precision_matrix)) if matrix is not None}
        if len(given) != 1:
            raise ValueError("Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.")
        (name, matrix), = given.items()
        if matrix.dim() < 2:
            label = "scale_tril matrix" if name == "scale_tril" else name
            raise ValueError(f"{label} must be at least two-dimensional, with optional leading batch dimensions")
        batch_shape = functional.broadcast_shapes(matrix.shape[:-2], loc.shape[:-1])
        self.__dict__[name] = matrix.expand(batch_shape + (-1, -1))
        self.loc = loc.expand(batch_shape + (-1,))
        super().__init__(batch_shape, self.loc.shape[-1:], validate_args=validate_args)
        if name == "scale_tril":
            self._unbroadcasted_scale_tril = matrix
        elif name == "covariance_matrix":
            self._unbroadcasted_scale_tril = linalg.cholesky(matrix)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(matrix)

    def expand(self, batch_shape: Any, _instance: Any = None) -> MultivariateNormal:
        new = self._expand_parameters(MultivariateNormal, batch_shape, _instance)
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril
        return new

    def _matrix_shape(self) -> Size:
        return self._batch_shape + self._event_shape + self._event_shape

    @lazy_property
    def scale_tril(self) -> Tensor:
        return self._unbroadcasted_scale_tril.expand(self._matrix_shape())

    @lazy_property
    def covariance_matrix(self) -> Tensor:
        factor = self._unbroadcasted_scale_tril
        return functional.matmul(factor, factor.mT).expand(self._matrix_shape())

    @lazy_property
    def precision_matrix(self) -> Tensor:
        return functional.cholesky_inverse(self._unbroadcasted_scale_tril).expand(self._matrix_shape())

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        return self._unbroadcasted_scale_tril.pow(2).sum(-1).expand(self._batch_shape + self._event_shape)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        eps = _standard_normal(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + _batch_mv(self._unbroadcasted_scale_tril, eps)

    def _half_log_det(self) -> Tensor:
        return self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        M = _batch_mahalanobis(self._unbroadcasted_scale_tril, value - self.loc)  # noqa: N806
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + M) - self._half_log_det()

    def entropy(self) -> Tensor:
        H = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + self._half_log_det()  # noqa: N806
        return H.expand(self._batch_shape) if len(self._batch_shape) else H
