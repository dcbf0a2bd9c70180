"""Fake quantisation (``torch.fake_quantize_per_tensor_affine`` / ``_per_channel_affine``): values
rounded to a grid of ``quant_max - quant_min + 1`` steps of ``scale`` and back to floating point, as
quantisation-aware training uses them. The gradient passes where the value was not clipped.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, dtypes
from .._dims import wrap_dim
from .._graph import Op

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["fake_quantize_per_tensor_affine", "fake_quantize_per_channel_affine"]


class _FakeQuantize(Op):
    """``(clamp(q, quant_min, quant_max) - zero_point) * scale`` with ``q = round(x / scale) + zero_point``
    (``x`` times the float32 reciprocal of ``scale``, rounded half to even, as PyTorch's kernel), or
    ``q = round(x / scale + zero_point)`` for a floating ``zero_point``; the gradient is ``g`` where
    ``quant_min <= q <= quant_max``, else 0."""

    @staticmethod
    def forward(ctx: _FakeQuantize, x: Any, *, scale: Any, zero_point: Any, quant_min: int, quant_max: int) -> Any:
        xp = ctx.xp
        dtypes.check_kernel("fake_quantize_tensor_cachemask_kernel_type_handling", x.dtype, "f")
        compute = np.float64 if x.dtype == np.float64 else np.float32
        scale = xp.asarray(scale, dtype=np.float32)
        values, zero = x.astype(compute), xp.asarray(zero_point).astype(compute)
        if zero_point.dtype.kind == "f":
            q = xp.rint(values / scale.astype(compute) + zero)
        else:
            q = xp.rint(values * (np.float32(1.0) / scale).astype(compute)) + zero
        ctx.mask = (q >= quant_min) & (q <= quant_max)
        return ((xp.clip(q, quant_min, quant_max) - zero) * scale.astype(compute)).astype(x.dtype)

    @staticmethod
    def backward(ctx: _FakeQuantize, g: Any) -> Any:
        return g * ctx.mask


class FakeQuantizePerTensor(_FakeQuantize, node_name="FakeQuantizePerTensorAffineCachemaskBackward0"):
    pass


class FakeQuantizePerTensorTensorQparams(
        _FakeQuantize, node_name="FakeQuantizePerTensorAffineCachemaskTensorQparamsBackward0"):
    pass


class FakeQuantizePerChannel(_FakeQuantize, node_name="FakeQuantizePerChannelAffineCachemaskBackward0"):
    pass


def _check_range(quant_min: int, quant_max: int, zero_point: Any) -> None:
    if quant_min > quant_max:
        raise RuntimeError("`quant_min` should be less than or         equal to `quant_max`.")
    if ((zero_point < quant_min) | (zero_point > quant_max)).any():
        raise RuntimeError("`zero_point` must be between `quant_min` and `quant_max`.")


def fake_quantize_per_tensor_affine(input: Tensor, scale: float | Tensor, zero_point: int | Tensor, quant_min: int,
                                    quant_max: int) -> Tensor:
    """``input`` quantised with one ``scale`` and ``zero_point`` to the integers
    ``[quant_min, quant_max]`` and dequantised: ``(clamp(round(input / scale) + zero_point, quant_min,
    quant_max) - zero_point) * scale`` in ``input``'s dtype (``scale`` taken as float32). The
    gradient is passed through where the value was not clamped (the straight-through estimator)."""
    qparams = isinstance(scale, _graph.Tensor) or isinstance(zero_point, _graph.Tensor)
    for name, value in (("scale", scale), ("zero_point", zero_point)):
        if isinstance(value, _graph.Tensor) and value.requires_grad:
            raise RuntimeError(f"The function '_fake_quantize_per_tensor_affine_cachemask_tensor_qparams' is not "
                               f"differentiable with respect to argument '{name}'. This input cannot have "
                               f"requires_grad True.")
    scale_value = float(scale.item() if isinstance(scale, _graph.Tensor) else scale)
    zero = np.asarray(int(zero_point.item() if isinstance(zero_point, _graph.Tensor) else zero_point))
    _check_range(quant_min, quant_max, zero)
    op = FakeQuantizePerTensorTensorQparams if qparams else FakeQuantizePerTensor
    return op.apply(input, scale=np.float32(scale_value), zero_point=zero, quant_min=quant_min, quant_max=quant_max)


def fake_quantize_per_channel_affine(input: Tensor, scale: Tensor, zero_point: Tensor, axis: int, quant_min: int,
                                     quant_max: int) -> Tensor:
    """``fake_quantize_per_tensor_affine`` with one ``scale[c]`` and ``zero_point[c]`` per index ``c``
    of ``input``'s dimension ``axis`` (``zero_point`` int32, or floating: then added before rounding)."""
    if scale.dtype not in (dtypes.float32, dtypes.bfloat16):
        raise RuntimeError(f"Scale must be Float or BFloat16, found {dtypes.scalar_type_name(scale.dtype.numpy)}")
    if zero_point.dtype not in (dtypes.int32, dtypes.float32, dtypes.float16):
        raise RuntimeError(f"Zero-point must be Int32, Float or Half, found "
                           f"{dtypes.scalar_type_name(zero_point.dtype.numpy)}")
    axis = wrap_dim(axis, input.ndim)
    if scale.ndim != 1 or tuple(scale.shape) != tuple(zero_point.shape):
        raise RuntimeError("scale and zero-point need to have the same dimensions")
    if scale.shape[0] != input.shape[axis]:
        raise RuntimeError("dimensions of scale and zero-point are not consistent with input tensor")
    xp_zero = zero_point._data
    _check_range(quant_min, quant_max, xp_zero)
    along = (-1,) + (1,) * (input.ndim - axis - 1)
    return FakeQuantizePerChannel.apply(input, scale=scale._data.reshape(along), zero_point=xp_zero.reshape(along),
                                        quant_min=quant_min, quant_max=quant_max)
