"""``nn.utils.parametrizations``: ``weight_norm`` and ``spectral_norm`` as parametrizations."""
from __future__ import annotations

from typing import Any

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

__all__ = ["weight_norm", "spectral_norm"]


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
