"""The bilinear map of ``nn.Bilinear``: ``y[o] = x1^T W[o] x2 + b[o]``, composed of core ops."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..dtypes import cpp_type_name
from . import linalg, reduction, shape
from ._composite import composed

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["bilinear"]


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``y[..., o] = sum_{i, j} input1[..., i] * weight[o, i, j] * input2[..., j] + bias[o]`` for
    ``input1 (*, in1)``, ``input2 (*, in2)`` (same leading dims), ``weight (out, in1, in2)``.

    """
    _check_dtypes(input1, input2, weight, bias)
    if weight.ndim != 3:
        raise RuntimeError(f"bilinear(): weight must be 3-dimensional, got weight of size {list(weight.shape)}")
    out, in1, in2 = weight.shape
    if input1.ndim != input2.ndim:
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.ndim} and {input2.ndim}")
    for d in range(input1.ndim - 1):
        if input1.shape[d] != input2.shape[d]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {d}: got "
                               f"{input1.shape[d]} and {input2.shape[d]}")
    if input1.shape[-1] != in1:
        raise RuntimeError(f"bilinear(): input1 size does not match weight size: got {input1.shape[-1]} but "
                           f"expected {in1}")
    if input2.shape[-1] != in2:
        raise RuntimeError(f"bilinear(): input2 size does not match weight size: got {input2.shape[-1]} but "
                           f"expected {in2}")
    if bias is not None and tuple(bias.shape) != (out,):
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got {bias.shape[0] if bias.ndim else 0} "
                           f"but expected {out}")
    lead = tuple(input1.shape[:-1])
    # PyTorch's graph: the inputs viewed as rows, one Trilinear node, a view back, then the bias.
    rows = composed("TrilinearBackward0", _bilinear_rows, shape.reshape(input1, (-1, in1)), weight,
                    shape.reshape(input2, (-1, in2)))
    y = shape.reshape(rows, lead + (out,))
    return y if bias is None else y + bias


def _bilinear_rows(x1: Tensor, weight: Tensor, x2: Tensor) -> Tensor:
    """The map on rows ``x1 (B, in1)``, ``x2 (B, in2)``: one matmul ``x1 @ W`` (``W`` laid out
    ``(in1, out * in2)``) and a product with ``x2`` summed over ``in2``."""
    out, in1, in2 = weight.shape
    w = shape.reshape(shape.permute(weight, (1, 0, 2)), (in1, out * in2))
    mixed = shape.reshape(linalg.matmul(x1, w), (-1, out, in2))
    return reduction.sum(mixed * shape.reshape(x2, (-1, 1, in2)), -1)


def _check_dtypes(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None) -> None:
    """PyTorch refuses mixed dtypes here instead of promoting."""
    named = [("input1", input1), ("input2", input2), ("weight", weight)]
    if bias is not None:
        named.append(("bias", bias))
    if any(t.dtype != input1.dtype for _, t in named):
        listed = ", ".join(f"{name}: {cpp_type_name(t.dtype)}" for name, t in named)
        raise RuntimeError(f"All tensors must have the same dtype, got {listed}")
