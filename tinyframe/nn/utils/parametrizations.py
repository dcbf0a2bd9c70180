"""``nn.utils.parametrizations``: ``weight_norm`` as a parametrization."""
from __future__ import annotations

from ...ops import binary
from ...tensor import Tensor
from ..modules.module import Module
from . import parametrize
from .weight_norm import norm_except_dim

__all__ = ["weight_norm"]


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
