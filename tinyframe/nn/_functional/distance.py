"""Distances: ``normalize``, ``cosine_similarity``, ``pairwise_distance`` (re-exported by ``nn.functional``)."""
from __future__ import annotations

from ... import dtypes, grad_mode
from ...ops import binary
from ...ops import reduction as reductions
from ...ops import shape as shape_ops
from ...tensor import Tensor


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out: Tensor | None = None) -> Tensor:
    """``input / max(||input||_p, eps)``, the norm taken along ``dim``."""
    norm = binary.clamp_min(reductions.norm(input, p, dim, keepdim=True), eps)
    result = binary.div(input, norm.expand_as(input))  # PyTorch's graph: Norm, ClampMin, Expand, Div
    if out is not None:
        out.copy_(result)
        return out
    return result


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """``sum(x1 / max(||x1||, eps) * x2 / max(||x2||, eps))`` along ``dim`` (inputs broadcast)."""
    common = dtypes.result_type((x1.dtype, x1.ndim), (x2.dtype, x2.ndim))
    if not common.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is "
                           f"{dtypes.scalar_type_name(common)}")
    # integers and bools are cast to it (vector_norm takes no integers); floating inputs are not
    x1, x2 = (x if x.dtype.is_floating_point else x.to(common) for x in (x1, x2))
    x1, x2 = shape_ops.broadcast_tensors(x1, x2)
    n1, n2 = (reductions.norm(x, 2, dim, keepdim=True).clone() for x in (x1, x2))
    with grad_mode.no_grad():  # as PyTorch: the floor changes the values, not the gradient's path
        n1.clamp_min_(eps)
        n2.clamp_min_(eps)
    return reductions.sum(binary.mul(binary.div(x1, n1), binary.div(x2, n2)), dim)


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> Tensor:
    """``||x1 - x2 + eps||_p`` along the last dimension."""
    difference = binary.AddScalar.apply(binary.sub(x1, x2), other=eps)
    axes = (difference.ndim - 1,) if difference.ndim else None  # (a 0-d difference is its own norm's input)
    return reductions.Norm.apply(difference, ord=p, axes=axes, keepdim=keepdim, dtype=None)
