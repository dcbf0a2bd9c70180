"""``nn.utils.parametrizations``: ``weight_norm`` and ``spectral_norm`` as parametrizations."""
from __future__ import annotations

from typing import Any

import numpy as np

from ... import creation
from ... import linalg as linalg_functions
from ...device import array_module_of
from ...grad_mode import no_grad
from ...ops import binary, linalg
from ...ops import reduction as reductions
from ...ops import shape as shape_ops
from ...tensor import Tensor
from .. import functional as F
from ..modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from ..modules.module import Module
from . import parametrize
from .weight_norm import norm_except_dim

__all__ = ["weight_norm", "spectral_norm", "orthogonal"]


class _WeightNorm(Module):
    """``weight = g * v / ||v||``, the norm over every dimension but ``dim`` (all of them for -1)."""

    def __init__(self, dim: int | None = 0) -> None:
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g: Tensor, weight_v: Tensor) -> Tensor:
        return binary.mul(weight_v, binary.div(weight_g, norm_except_dim(weight_v, 2, self.dim)))

    def right_inverse(self, weight: Tensor) -> tuple:
        return norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module: Module, name: str = "weight", dim: int | None = 0) -> Module:
    """Reparametrizes ``module.<name>`` by its magnitude and direction, ``w = g * v / ||v||``:
    ``parametrizations.<name>.original0`` is ``g`` (one norm per slice along ``dim``) and
    ``original1`` is ``v``, as in PyTorch."""
    return parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)


class _SpectralNorm(Module):
    """``weight / sigma``, ``sigma`` the largest singular value of the weight seen as a matrix
    (``dim`` first), estimated by power iteration on the buffers ``_u`` and ``_v``: one step per
    forward in training mode (15 when created), none in eval mode."""

    def __init__(self, weight: Tensor, n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12) -> None:
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError("Dimension out of range (expected to be in range of "
                             f"[-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            matrix = self._reshape_weight_to_matrix(weight.detach())
            rows, cols = matrix.shape
            self.register_buffer("_u", F.normalize(weight.new_empty(rows).normal_(0, 1), dim=0, eps=eps))
            self.register_buffer("_v", F.normalize(weight.new_empty(cols).normal_(0, 1), dim=0, eps=eps))
            self._power_method(matrix, 15)

    def _reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        if self.dim != 0:
            weight = shape_ops.permute(weight, self.dim, *(d for d in range(weight.ndim) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, matrix: Tensor, iterations: int) -> None:
        with no_grad():
            for _ in range(iterations):
                F.normalize(linalg.mv(matrix, self._v), dim=0, eps=self.eps, out=self._u)
                F.normalize(linalg.mv(shape_ops.transpose(matrix, 0, 1), self._u), dim=0, eps=self.eps,
                            out=self._v)

    def forward(self, weight: Tensor) -> Tensor:
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        matrix = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(matrix, self.n_power_iterations)
        u, v = self._u.clone(), self._v.clone()
        sigma = reductions.sum(binary.mul(u, linalg.mv(matrix, v)))
        return binary.div(weight, sigma)

    def right_inverse(self, value: Tensor) -> Tensor:
        return value


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12,
                  dim: Any = None) -> Module:
    """Divides ``module.<name>`` by its spectral norm on every access (``parametrizations.<name>.original``
    keeps the raw weight, ``parametrizations.<name>.0._u`` / ``._v`` the power-iteration vectors);
    ``dim`` defaults to 1 for transposed convolutions, else 0."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)) else 0
    return parametrize.register_parametrization(module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))


_ORTHOGONAL_MAPS = ("matrix_exp", "cayley", "householder")


class _Orthogonal(Module):
    """An orthogonal (semi-orthogonal when not square) matrix from an unconstrained one ``X``: the
    matrix exponential or the Cayley map of the skew-symmetric matrix of ``X``'s lower triangle, or
    the product of Householder reflections stored below ``X``'s diagonal. With the trivialization
    (the default) the result is multiplied by the buffer ``base``, set by ``right_inverse``."""

    def __init__(self, weight: Tensor, orthogonal_map: str, *, use_trivialization: bool = True) -> None:
        super().__init__()
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X: Tensor) -> Tensor:
        n, k = X.shape[-2], X.shape[-1]
        transposed = n < k
        if transposed:
            X, n, k = X.mT, k, n
        if self.orthogonal_map == "householder":
            A = X.tril(-1)
            Q = _householder_product(A, 2.0 / (1.0 + (A * A).sum(dim=-2)))
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)  # the sign of each reflection, no gradient
        else:
            X = X.tril()
            if n != k:  # embedded into a square matrix
                X = shape_ops.cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)], dim=-1)
            A = X - X.mH
            if self.orthogonal_map == "matrix_exp":
                Q = linalg_functions.matrix_exp(A)
            else:  # the Cayley retraction (I + A/2)(I - A/2)^-1
                eye = creation.eye(n, dtype=A.dtype, device=A.device)
                Q = linalg_functions.solve(binary.add(eye, A, alpha=-0.5), binary.add(eye, A, alpha=0.5))
            Q = Q[..., :k]
        if hasattr(self, "base"):  # right_inverse has set it by the time forward runs
            Q = self.base @ Q
        return Q.mT if transposed else Q

    def right_inverse(self, Q: Tensor) -> Tensor:
        with no_grad():
            return self._right_inverse(Q)

    def _right_inverse(self, Q: Tensor) -> Tensor:
        if Q.shape != self.shape:
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. Got a tensor of shape "
                             f"{Q.shape}.")
        Q_init = Q
        n, k = Q.shape[-2], Q.shape[-1]
        transposed = n < k
        if transposed:
            Q, n, k = Q.mT, k, n
        if not hasattr(self, "base"):
            if self.orthogonal_map != "householder":
                raise NotImplementedError("It is not possible to assign to the matrix exponential or the Cayley "
                                          "parametrizations when use_trivialization=False.")
            A = _reflections(Q)
            return A.mT if transposed else A
        if n == k:
            Q = Q.clone() if _is_orthogonal(Q) else _make_orthogonal(Q)
        else:  # completed to a square orthogonal matrix with normal samples, as PyTorch does
            filler = creation.randn(*Q.shape[:-2], n, n - k, dtype=Q.dtype, device=Q.device)
            Q = _make_orthogonal(shape_ops.cat([Q, filler], dim=-1))
        self.base = Q
        # -I: the Householder map sends it (and zeros) to the identity
        neg_eye = creation.zeros_like(Q_init)
        neg_eye.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
        return neg_eye


def _householder_product(A: Tensor, tau: Tensor) -> Tensor:
    """``H_1 H_2 ... H_k`` (first ``k`` columns), ``H_i = I - tau_i v_i v_i^T`` with ``v_i`` the part of
    column ``i`` of ``A`` below the diagonal and 1 on it (``torch.linalg.householder_product``)."""
    n, k = A.shape[-2], A.shape[-1]
    Q = creation.eye(n, dtype=A.dtype, device=A.device)
    rows = creation.arange(n, device=A.device)
    for i in range(k):
        v = (A[..., :, i] * (rows > i) + (rows == i)).unsqueeze(-1)
        Q = Q - tau[..., i, None, None] * ((Q @ v) @ v.mT)
    return Q[..., :k]


def _reflections(Q: Tensor) -> Tensor:
    """``geqrf(Q)``'s reflectors below the diagonal and, on it, the signs of R's diagonal (negated
    where LAPACK skipped the reflection): the X whose Householder map is Q's orthogonal factor."""
    xp = array_module_of(Q._data)
    h, tau = xp.linalg.qr(Q._data, mode="raw")  # h is geqrf's output transposed
    a = xp.swapaxes(h, -1, -2).astype(Q._data.dtype)
    diagonal = xp.sign(xp.diagonal(a, axis1=-2, axis2=-1)) * xp.where(tau == 0.0, -1, 1)
    index = xp.arange(min(a.shape[-2:]))
    a[..., index, index] = diagonal
    return Tensor._make(a)


def _is_orthogonal(Q: Tensor) -> bool:
    n, k = Q.shape[-2], Q.shape[-1]
    eye = creation.eye(k, dtype=Q.dtype, device=Q.device)
    return bool(((Q.mH @ Q) - eye).abs().le(10.0 * n * float(np.finfo(Q._data.dtype).eps)).all())


def _make_orthogonal(A: Tensor) -> Tensor:
    """The Q factor of the tall ``A = QR`` with the diagonal of R non-negative."""
    xp = array_module_of(A._data)
    q, r = xp.linalg.qr(A._data)
    signs = xp.sign(xp.diagonal(r, axis1=-2, axis2=-1))[..., None, :]
    return Tensor._make((q * signs).astype(A._data.dtype, copy=False))


def orthogonal(module: Module, name: str = "weight", orthogonal_map: str | None = None, *,
               use_trivialization: bool = True) -> Module:
    """Constrains ``module.<name>`` (a matrix or batch of matrices) to be orthogonal, or semi-orthogonal
    when not square: ``orthogonal_map`` is ``"matrix_exp"`` (default for square), ``"cayley"`` or
    ``"householder"`` (default otherwise); the current weight becomes the starting point."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError(f"Expected a matrix or batch of matrices. Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        orthogonal_map = "matrix_exp" if weight.shape[-2] == weight.shape[-1] else "householder"
    if orthogonal_map not in _ORTHOGONAL_MAPS:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", "householder". '
                         f"Got: {orthogonal_map}")
    orth = _Orthogonal(weight, orthogonal_map, use_trivialization=use_trivialization)
    return parametrize.register_parametrization(module, name, orth, unsafe=True)
