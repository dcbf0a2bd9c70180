"""The affine map of ``nn.Linear``: ``y = x W^T + b``, composed as PyTorch composes it, so that its
backward graph shows PyTorch's nodes: ``AddmmBackward0(bias, input, TBackward0(weight))``."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from .. import _autocast
from ..dtypes import cpp_type_name, scalar_type_name
from . import binary, contraction, linalg, shape

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__: list[str] = []


@_autocast.lower_precision
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``y = input @ weight.T + bias``: input ``(*, in_features)``, weight ``(out_features, in_features)``.

    As in PyTorch: a matrix input is ``addmm(bias, input, weight.t())``; another contiguous input is
    flattened to a matrix for it and the result viewed back; without a bias it is
    ``matmul(input, weight.t())``. ``weight.t()`` is a view: the weight is never copied.
    """
    x_shape, w_shape = input._data.shape, weight._data.shape
    _check_shapes(x_shape, w_shape, bias is not None)
    _check_dtypes(input._data.dtype, weight._data.dtype, None if bias is None else bias._data.dtype)
    if len(w_shape) == 1:  # a vector weight: PyTorch's matmul of input and weight, no bias allowed
        return linalg.matmul(input, weight)
    weight_t = shape.MatrixTranspose.apply(weight)  # ``weight.t()``, its rank checked above
    if bias is None:
        return linalg.matmul(input, weight_t)
    if bias._data.shape != w_shape[:1]:  # another shape broadcasts against the output, as in PyTorch
        return binary.add(linalg.matmul(input, weight_t), bias)
    if len(x_shape) == 2:
        return contraction.Addmm.apply(bias, input, weight_t, beta=1, alpha=1)
    if input._data.flags.c_contiguous:
        rows = shape.view(input, math.prod(x_shape[:-1]), x_shape[-1])  # (not -1: ambiguous with no features)
        out = contraction.Addmm.apply(bias, rows, weight_t, beta=1, alpha=1)
        return shape.view(out, *x_shape[:-1], w_shape[0])
    return binary.add(linalg.matmul(input, weight_t), bias)


def _check_shapes(x_shape: tuple, w_shape: tuple, has_bias: bool) -> None:
    """PyTorch's messages, from the kernels it runs: ``t()`` of the weight, then ``addmm``/``mm``."""
    if not x_shape or not w_shape:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are {len(x_shape)}D and "
                           f"{len(w_shape)}D")
    if len(w_shape) > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {len(w_shape)}D")
    if len(w_shape) == 1:
        if has_bias:
            raise RuntimeError("mat2 must be a matrix, got 1-D tensor")
        return
    if x_shape[-1] != w_shape[1]:
        rows = math.prod(x_shape[:-1])
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{x_shape[-1]} and "
                           f"{w_shape[1]}x{w_shape[0]})")


def _check_dtypes(x: Any, weight: Any, bias: Any) -> None:
    """PyTorch refuses mixed dtypes instead of promoting; its messages come from the kernel it runs
    (addmm with a bias, mm without), which compares the bias to the weight first."""
    if bias is not None and bias != weight:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got {scalar_type_name(bias)} and "
                           f"{scalar_type_name(weight)}")
    if x != weight:
        if bias is None:
            raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {cpp_type_name(x)} != "
                               f"{cpp_type_name(weight)}")
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {scalar_type_name(x)} and "
                           f"{scalar_type_name(weight)}")
