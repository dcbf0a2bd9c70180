"""``unfold`` (im2col) and ``fold`` (col2im): sliding local blocks as columns and back.

They are the two halves of a convolution, and each other's adjoint, so the backward of one is the
other and higher-order gradients close over the pair. Both run the convolution's own window code
(``columns_of`` and ``col2im`` in ``convolution.py``) on its wide output grid.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._dims import wrap_dim
from .._graph import Op
from .convolution import _Geometry, col2im, columns_of, wide_width

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["unfold", "fold"]


def _im2col(xp: Any, x: Any, geo: _Geometry) -> Any:
    """``x (N, C, H, W)`` as blocks ``(N, C*kH*kW, OH*OW)``."""
    n, c = x.shape[:2]
    (kh, kw), (oh, ow) = geo.kernel, geo.out_size
    wq = wide_width(geo)
    columns = columns_of(xp, x, geo, oh, wq).reshape(c * kh * kw, n, oh, wq)[..., :ow]
    return xp.ascontiguousarray(columns.transpose(1, 0, 2, 3)).reshape(n, c * kh * kw, oh * ow)


def _col2im(xp: Any, blocks: Any, geo: _Geometry) -> Any:
    """Blocks ``(N, C*kH*kW, OH*OW)`` summed onto the image ``(N, C, H, W)`` (overlaps add up)."""
    n = blocks.shape[0]
    (kh, kw), (oh, ow) = geo.kernel, geo.out_size
    c = blocks.shape[1] // (kh * kw)
    wide = xp.zeros((c, kh, kw, n, oh, wide_width(geo)), blocks.dtype)
    wide[..., :ow] = blocks.reshape(n, c, kh, kw, oh, ow).transpose(1, 2, 3, 0, 4, 5)
    return col2im(xp, wide, geo)


class Im2Col(Op):
    """``blocks = unfold(x)``."""

    @staticmethod
    def forward(ctx: Im2Col, x: Any, *, geometry: _Geometry) -> Any:
        ctx.geometry = geometry
        return _im2col(ctx.xp, x, geometry)

    @staticmethod
    def backward(ctx: Im2Col, g: Any) -> Any:
        return Col2Im.call(g, geometry=ctx.geometry)


class Col2Im(Op):
    """``x = fold(blocks)``."""

    @staticmethod
    def forward(ctx: Col2Im, blocks: Any, *, geometry: _Geometry) -> Any:
        ctx.geometry = geometry
        return _col2im(ctx.xp, blocks, geometry)

    @staticmethod
    def backward(ctx: Col2Im, g: Any) -> Any:
        return Im2Col.call(g, geometry=ctx.geometry)


def _pair(value: Any, name: str) -> tuple:
    values = (value, value) if isinstance(value, int) else tuple(value)
    if len(values) != 2:
        raise RuntimeError(f"{name} must be an int or a pair of ints, got {value}")
    return values


def _block_geometry(op: str, size: tuple, kernel_size: Any, dilation: Any, padding: Any, stride: Any) -> _Geometry:
    """The geometry of the blocks of an image of spatial ``size``."""
    kernel, dilation = _pair(kernel_size, "kernel_size"), _pair(dilation, "dilation")
    padding, stride = _pair(padding, "padding"), _pair(stride, "stride")
    if any(k <= 0 for k in kernel):
        raise RuntimeError(f"{op}: kernel size should be greater than zero, but got kernel_height: {kernel[0]} "
                           f"kernel_width: {kernel[1]}")
    if any(s <= 0 for s in stride):
        raise RuntimeError(f"{op}: stride should be greater than zero, but got stride_height: {stride[0]} "
                           f"stride_width: {stride[1]}")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"{op}: dilation should be greater than zero, but got dilation_height: {dilation[0]} "
                           f"dilation_width: {dilation[1]}")
    if any(p < 0 for p in padding):
        raise RuntimeError(f"{op}: padding should be non-negative, but got pad_height: {padding[0]} "
                           f"pad_width: {padding[1]}")
    out = tuple((n + 2 * p - d * (k - 1) - 1) // s + 1
                for n, p, d, k, s in zip(size, padding, dilation, kernel, stride))
    if any(o < 1 for o in out):
        raise RuntimeError(f"Given input with spatial size ({size[0]}, {size[1]}), kernel_size=({kernel[0]}, "
                           f"{kernel[1]}), dilation=({dilation[0]}, {dilation[1]}), padding=({padding[0]}, "
                           f"{padding[1]}), calculated shape of the array of sliding blocks as ({out[0]}, {out[1]}), "
                           "but its components must be at least one.")
    return _Geometry(2, True, tuple(size), out, kernel, stride, dilation, padding, 1)


def unfold(input: Tensor, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Tensor:
    """Extracts sliding local blocks (im2col): ``input (N, C, H, W)`` or ``(C, H, W)`` gives
    ``(N, C*kH*kW, L)``, ``L = OH*OW`` the number of blocks, with
    ``out[n, c*kH*kW + i*kW + j, oh*OW + ow] = xpad[n, c, oh*sH + i*dH, ow*sW + j*dW]``.
    """
    if input.ndim < 3:  # PyTorch's unfold first asks a lower-dimensional input for dimension ``ndim``
        if input.ndim == 0:
            raise IndexError("Dimension specified as 1 but tensor has no dimensions")
        wrap_dim(input.ndim, input.ndim)
    if input.ndim > 4:
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
                           f"dimensions for input, but got: {list(input.shape)}")
    batched = input.ndim == 4
    x = input if batched else input.unsqueeze(0)
    geometry = _block_geometry("im2col", tuple(x.shape[2:]), kernel_size, dilation, padding, stride)
    out = Im2Col.apply(x, geometry=geometry)
    return out if batched else out.squeeze(0)


def fold(input: Tensor, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
         stride: Any = 1) -> Tensor:
    """Combines sliding local blocks into an image (col2im), the adjoint of ``unfold``:
    ``input (N, C*kH*kW, L)`` or ``(C*kH*kW, L)`` gives ``(N, C, *output_size)``, overlapping
    values summed."""
    if input.ndim not in (2, 3):
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
                           f"dimensions for input, but got: {list(input.shape)}")
    batched = input.ndim == 3
    x = input if batched else input.unsqueeze(0)
    geometry = _block_geometry("col2im", _pair(output_size, "output_size"), kernel_size, dilation, padding, stride)
    kh, kw = geometry.kernel
    if x.shape[1] % (kh * kw):
        raise RuntimeError(f"Expected size of input's dimension 1 to be divisible by the product of kernel_size, "
                           f"but got input.size(1)={x.shape[1]} and kernel_size=({kh}, {kw})")
    blocks = geometry.out_size[0] * geometry.out_size[1]
    if x.shape[2] != blocks:
        raise RuntimeError(f"Given output_size=({geometry.in_size[0]}, {geometry.in_size[1]}), kernel_size=({kh}, "
                           f"{kw}), dilation=({geometry.dilation[0]}, {geometry.dilation[1]}), padding=("
                           f"{geometry.padding[0]}, {geometry.padding[1]}), stride=({geometry.stride[0]}, "
                           f"{geometry.stride[1]}), expected size of input's dimension 2 to match the calculated "
                           f"number of sliding blocks {geometry.out_size[0]} * {geometry.out_size[1]} = {blocks}, "
                           f"but got input.size(2)={x.shape[2]}.")
    out = Col2Im.apply(x, geometry=geometry)
    return out if batched else out.squeeze(0)
