"""Pooling: ``max_pool1d/2d``, ``avg_pool1d/2d`` and ``adaptive_avg_pool1d/2d``.

Every 2-d pool here is separable: the max (or sum) over a ``kH x kW`` window is the max over
``kH`` rows of the max over ``kW`` columns. So each pool is two passes of one 1-d stage, first
along the width then along the height, and a stage is a loop over its ``k`` kernel offsets, each a
strided slice of the whole batch: ``kH + kW`` vectorised steps, no Python loop over pixels.
Ties go to the first element in row-major order, as in PyTorch: the width stage keeps the first
column of each row, the height stage the first row.

Max pooling keeps the winning offset of each stage (small integer arrays); its backward scatters
the gradient back through the two stages and is itself an op whose backward gathers, so
higher-order gradients work. Average pooling is linear: its backward is the adjoint (the
transposed stages), and the adjoint's backward is the pool again.

1-d pools and unbatched inputs run the same code on reshaped views (a height of 1, a batch of 1).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, dtypes
from .._graph import Op
from ..device import array_module_of
from . import reduction
from . import shape as shape_ops
from .convolution import drop_from_2d, lift_to_2d

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["max_pool1d", "max_pool2d", "avg_pool1d", "avg_pool2d", "adaptive_avg_pool1d",
           "adaptive_avg_pool2d"]


class _Window:
    """One axis of a pool: output ``o`` covers padded positions ``o*stride + i*dilation``, ``i < kernel``.

    ``scale`` multiplies the window sums of average pooling: None, a number, or one factor per
    output position (a NumPy vector).
    """

    __slots__ = ("kernel", "stride", "dilation", "pad", "size", "out", "padded", "disjoint", "scale")

    def __init__(self, kernel: int, stride: int, dilation: int, pad: int, size: int, out: int) -> None:
        self.kernel, self.stride, self.dilation = kernel, stride, dilation
        self.pad, self.size, self.out = pad, size, out
        self.padded = max(pad + size, (out - 1) * stride + dilation * (kernel - 1) + 1)
        self.disjoint = stride >= dilation * (kernel - 1) + 1  # no two windows share a position
        self.scale: Any = None

    def tap(self, a: Any, i: int, axis: int) -> Any:
        """The ``i``-th element of every window: a strided view along ``axis`` (2 or 3)."""
        start = i * self.dilation
        taps = slice(start, start + self.stride * (self.out - 1) + 1, self.stride)
        return a[:, :, taps] if axis == 2 else a[:, :, :, taps]

    def max(self, xp: Any, a: Any, axis: int) -> tuple:
        """The window maxima along ``axis`` and the offset of the first maximum (None if ``kernel == 1``)."""
        best = self.tap(a, 0, axis)
        if self.kernel == 1:
            return best, None
        index = None
        offset = xp.uint8 if self.kernel <= 256 else xp.int64
        for i in range(1, self.kernel):
            candidate = self.tap(a, i, axis)
            wins = candidate > best
            best = xp.maximum(best, candidate)
            # A later offset that wins is larger than any earlier winner: maximum keeps it
            # (cheaper than xp.where, which branches on every element of a random mask).
            index = wins.astype(offset) if index is None else xp.maximum(index, wins * offset(i))
        return best, index

    def gather(self, xp: Any, a: Any, index: Any, axis: int) -> Any:
        """The element at offset ``index`` of every window (the first if ``kernel == 1``)."""
        out = self.tap(a, 0, axis)
        for i in range(1, self.kernel):
            out = xp.where(index == i, self.tap(a, i, axis), out)
        return out

    def scatter(self, xp: Any, g: Any, index: Any, axis: int) -> Any:
        """The adjoint of ``gather``: ``g`` sent to offset ``index`` of its window (all offsets if None)."""
        shape = list(g.shape)
        shape[axis] = self.padded
        # Windows that tile the axis (a 2 x 2 pool of stride 2) write every position once: no zeros first.
        tiled = self.dilation == 1 and self.stride == self.kernel and self.out * self.stride == self.padded
        out = (xp.empty if tiled else xp.zeros)(tuple(shape), g.dtype)
        for i in range(self.kernel):
            target = self.tap(out, i, axis)
            if not self.disjoint:
                target += g if index is None else g * (index == i)
            elif index is None:
                target[...] = g
            else:
                xp.multiply(g, index == i, out=target)  # straight into place: no temporary product
        return out

    def sum(self, xp: Any, a: Any, axis: int) -> Any:
        """The scaled window sums along ``axis``."""
        out = self.tap(a, 0, axis) * 1 if self.kernel == 1 else self.tap(a, 0, axis) + self.tap(a, 1, axis)
        for i in range(2, self.kernel):
            out += self.tap(a, i, axis)
        return self._scaled(xp, out, axis)

    def spread(self, xp: Any, g: Any, axis: int) -> Any:
        """The adjoint of ``sum``: each scaled ``g`` added to every position of its window."""
        return self.scatter(xp, self._scaled(xp, g, axis), None, axis)

    def _scaled(self, xp: Any, a: Any, axis: int) -> Any:
        scale = self.scale
        if scale is None:
            return a
        if not isinstance(scale, float):
            scale = xp.asarray(scale, dtype=a.dtype).reshape((-1, 1) if axis == 2 else (-1,))
        return a * scale


class _Averages:
    """One axis of adaptive average pooling: output ``o`` averages ``[floor(o*L/n), ceil((o+1)*L/n))``,
    as the matrix ``(n, L)``; used where the windows are not all alike."""

    __slots__ = ("matrix", "pad", "size", "padded")

    def __init__(self, size: int, out: int) -> None:
        o = np.arange(out).reshape(-1, 1)
        start, end = o * size // out, -(-(o + 1) * size // out)
        position = np.arange(size)
        self.matrix = ((position >= start) & (position < end)) / (end - start)
        self.pad, self.size, self.padded = 0, size, size

    def sum(self, xp: Any, a: Any, axis: int) -> Any:
        m = xp.asarray(self.matrix, dtype=a.dtype)
        return xp.matmul(m, a) if axis == 2 else xp.matmul(a, m.T)

    def spread(self, xp: Any, g: Any, axis: int) -> Any:
        m = xp.asarray(self.matrix, dtype=g.dtype)
        return xp.matmul(m.T, g) if axis == 2 else xp.matmul(g, m)


class _Geometry:
    """A pool in 2-d form: the two axes, and how the user's layout maps onto ``(N, C, H, W)``."""

    __slots__ = ("rows", "cols", "nd", "batched")

    def __init__(self, rows: Any, cols: Any, nd: int, batched: bool) -> None:
        self.rows, self.cols, self.nd, self.batched = rows, cols, nd, batched

    def lift(self, a: Any) -> Any:
        return lift_to_2d(a, self.nd, self.batched)

    def drop(self, a: Any) -> Any:
        return drop_from_2d(a, self.nd, self.batched)

    def pad(self, xp: Any, x: Any, fill: Any) -> Any:
        """``x`` inside a canvas of the padded extent, ``fill`` around it."""
        rows, cols = self.rows, self.cols
        if (rows.pad, cols.pad, rows.padded, cols.padded) == (0, 0, rows.size, cols.size):
            return x
        canvas = xp.full(x.shape[:2] + (rows.padded, cols.padded), fill, x.dtype)
        canvas[:, :, rows.pad:rows.pad + rows.size, cols.pad:cols.pad + cols.size] = x
        return canvas

    def crop(self, xp: Any, a: Any) -> Any:
        rows, cols = self.rows, self.cols
        if (rows.pad, cols.pad, rows.padded, cols.padded) == (0, 0, rows.size, cols.size):
            return a
        return xp.ascontiguousarray(a[:, :, rows.pad:rows.pad + rows.size, cols.pad:cols.pad + cols.size])


# ------------------------------------------------------------------ the pools on arrays (N, C, H, W)

def _lowest(xp: Any, dtype: Any) -> Any:
    return -float("inf") if dtype.kind == "f" else xp.iinfo(dtype).min


def _maxima(xp: Any, x: Any, geo: _Geometry) -> tuple:
    """The window maxima and the winning offsets of both stages."""
    wide, col_index = geo.cols.max(xp, geo.pad(xp, x, _lowest(xp, x.dtype)), 3)
    y, row_index = geo.rows.max(xp, wide, 2)
    if geo.rows.kernel == 1 and geo.cols.kernel == 1:
        y = y.copy()  # a view of the input otherwise
    return y, row_index, col_index


def _gather(xp: Any, x: Any, geo: _Geometry, winners: tuple) -> Any:
    """``x`` at the winning positions: the max pool with the winners held fixed."""
    row_index, col_index = winners
    wide = geo.cols.gather(xp, geo.pad(xp, x, 0), col_index, 3)
    return xp.ascontiguousarray(geo.rows.gather(xp, wide, row_index, 2))


def _scatter(xp: Any, g: Any, geo: _Geometry, winners: tuple) -> Any:
    """The adjoint of ``_gather``: each gradient sent to its window's winner."""
    row_index, col_index = winners
    wide = geo.rows.scatter(xp, g, row_index, 2)
    return geo.crop(xp, geo.cols.scatter(xp, wide, col_index, 3))


def _average(xp: Any, x: Any, geo: _Geometry) -> Any:
    return geo.rows.sum(xp, geo.cols.sum(xp, geo.pad(xp, x, 0), 3), 2)


def _spread(xp: Any, g: Any, geo: _Geometry) -> Any:
    return geo.crop(xp, geo.cols.spread(xp, geo.rows.spread(xp, g, 2), 3))


# ------------------------------------------------------------------ ops

class MaxPool2DWithIndices(Op):
    """``y = max over each window``; the winners' offsets are kept (constants) for the backward."""

    suggests_format = True

    @staticmethod
    def forward(ctx: MaxPool2DWithIndices, x: Any, *, geometry: _Geometry, winners: list | None = None) -> Any:
        y, row_index, col_index = _maxima(ctx.xp, geometry.lift(x), geometry)
        ctx.save_for_backward(row_index, col_index)
        ctx.geometry = geometry
        if winners is not None:
            winners.extend((row_index, col_index))
        return geometry.drop(y)

    @staticmethod
    def backward(ctx: MaxPool2DWithIndices, g: Any) -> Any:
        return _MaxPoolScatter.call(g, geometry=ctx.geometry, winners=ctx.saved_tensors)


class _MaxPoolScatter(Op, node_name="MaxPool2DWithIndicesBackwardBackward0"):
    """The backward of the max pool, each gradient to its window's winner; its own backward gathers."""

    @staticmethod
    def forward(ctx: _MaxPoolScatter, g: Any, *, geometry: _Geometry, winners: tuple) -> Any:
        ctx.geometry, ctx.winners = geometry, winners
        return geometry.drop(_scatter(ctx.xp, geometry.lift(g), geometry, winners))

    @staticmethod
    def backward(ctx: _MaxPoolScatter, g: Any) -> Any:
        return _MaxPoolGather.call(g, geometry=ctx.geometry, winners=ctx.winners)


class _MaxPoolGather(Op, node_name="MaxPool2DWithIndicesBackward0"):
    """The max pool with its winners held fixed: the derivative of its backward."""

    @staticmethod
    def forward(ctx: _MaxPoolGather, x: Any, *, geometry: _Geometry, winners: tuple) -> Any:
        ctx.geometry, ctx.winners = geometry, winners
        return geometry.drop(_gather(ctx.xp, geometry.lift(x), geometry, winners))

    @staticmethod
    def backward(ctx: _MaxPoolGather, g: Any) -> Any:
        return _MaxPoolScatter.call(g, geometry=ctx.geometry, winners=ctx.winners)


class AvgPool2D(Op):
    """``y = scaled sum over each window``: linear, so its backward is the adjoint op."""

    suggests_format = True

    adjoint: type[Op]

    @staticmethod
    def forward(ctx: AvgPool2D, x: Any, *, geometry: _Geometry) -> Any:
        ctx.geometry = geometry
        return geometry.drop(_average(ctx.xp, geometry.lift(x), geometry))

    @staticmethod
    def backward(ctx: AvgPool2D, g: Any) -> Any:
        return type(ctx).adjoint.call(g, geometry=ctx.geometry)


class _AvgPool2DAdjoint(Op, node_name="AvgPool2DBackwardBackward0"):
    """The backward of the average pool, each scaled gradient spread over its window; its own
    backward is the pool again."""

    adjoint: type[Op]

    @staticmethod
    def forward(ctx: _AvgPool2DAdjoint, g: Any, *, geometry: _Geometry) -> Any:
        ctx.geometry = geometry
        return geometry.drop(_spread(ctx.xp, geometry.lift(g), geometry))

    @staticmethod
    def backward(ctx: _AvgPool2DAdjoint, g: Any) -> Any:
        return type(ctx).adjoint.call(g, geometry=ctx.geometry)


class AdaptiveAvgPool2D(AvgPool2D):
    pass


class _AdaptiveAvgPool2DAdjoint(_AvgPool2DAdjoint, node_name="AdaptiveAvgPool2DBackwardBackward0"):
    pass


AvgPool2D.adjoint, _AvgPool2DAdjoint.adjoint = _AvgPool2DAdjoint, AvgPool2D
AdaptiveAvgPool2D.adjoint, _AdaptiveAvgPool2DAdjoint.adjoint = _AdaptiveAvgPool2DAdjoint, AdaptiveAvgPool2D


# ------------------------------------------------------------------ argument checks

def _pair(op: str, value: Any, name: str, nd: int, default: Any = None) -> tuple:
    if value is None or (not isinstance(value, int) and len(value) == 0):
        if default is not None:
            return default
        value = ()
    if isinstance(value, int):
        return (value,) * nd
    values = tuple(value)
    if len(values) == 1:
        return values * nd
    if len(values) != nd:
        if nd == 1:
            raise RuntimeError(f"{op}: {name} must be a single int, or a tuple of one int, got {list(values)}")
        what = {"kernel_size": "kernel_size must either be a single int",
                "stride": "stride must either be omitted, a single int",
                "padding": "padding must either be a single int",
                "dilation": "dilation must be either a single int"}[name]
        raise RuntimeError(f"{op}: {what}, or a tuple of two ints")
    return values


def _lift_shape(op: str, input: Tensor, nd: int) -> tuple:
    """The input's shape as ``(N, C, H, W)``, and whether it was batched."""
    if not isinstance(input, _graph.Tensor):
        raise TypeError(f"{op}(): argument 'input' must be a Tensor, not {type(input).__name__}")
    shape = tuple(input.shape)
    if len(shape) not in (nd + 1, nd + 2) or 0 in shape[-nd - 1:]:
        raise RuntimeError(f"{op}: Expected {nd + 1}D or {nd + 2}D (batch mode) tensor with optional 0 dim "
                           f"batch size for input, but got:{list(shape)}")
    batched = len(shape) == nd + 2
    shape = shape if batched else (1,) + shape
    return (shape[:2] + (1,) + shape[2:] if nd == 1 else shape), batched


def _output_size(size: int, kernel: int, pad: int, stride: int, dilation: int, ceil_mode: bool) -> int:
    """PyTorch's pooling_output_shape: the last window must start inside the input or left padding."""
    out = (size + 2 * pad - dilation * (kernel - 1) - 1 + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def _windows(op: str, input: Tensor, nd: int, kernel_size: Any, stride: Any, padding: Any, dilation: Any,
             ceil_mode: bool) -> tuple:
    """Validated windows of a max or average pool: (rows, cols, batched)."""
    shape, batched = _lift_shape(op, input, nd)
    kernel = _pair(op, kernel_size, "kernel_size", nd)
    stride = _pair(op, stride, "stride", nd, default=kernel)
    padding, dilation = _pair(op, padding, "padding", nd), _pair(op, dilation, "dilation", nd)
    if nd == 1:
        kernel, stride, padding, dilation = (1,) + kernel, (1,) + stride, (0,) + padding, (1,) + dilation
    if any(k <= 0 for k in kernel):
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {kernel[0]} kW: {kernel[1]}")
    if any(s == 0 for s in stride):
        raise RuntimeError("stride should not be zero")
    if any(s < 0 for s in stride):
        raise RuntimeError(f"stride should be greater than zero, but got dH: {stride[0]} dW: {stride[1]}")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {dilation[0]} "
                           f"dilationW: {dilation[1]}")
    for k, p, d in zip(kernel, padding, dilation):
        if p < 0:
            raise RuntimeError(f"pad must be non-negative, but got pad: {p}")
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, "
                               f"kernel_size={k} and dilation={d}")
    out = tuple(_output_size(n, k, p, s, d, ceil_mode)
                for n, k, p, s, d in zip(shape[2:], kernel, padding, stride, dilation))
    if any(o < 1 for o in out):
        raise RuntimeError(f"Given input size: ({shape[1]}x{shape[2]}x{shape[3]}). Calculated output size: "
                           f"({shape[1]}x{out[0]}x{out[1]}). Output size is too small")
    rows, cols = (_Window(k, s, d, p, n, o) for k, s, d, p, n, o
                  in zip(kernel, stride, dilation, padding, shape[2:], out))
    return rows, cols, batched


# ------------------------------------------------------------------ public functions

def _on_plane(nd: int, input: Tensor) -> Tensor:
    """The input of a 2-d pool: a 1-d input ``(..., L)`` as the plane ``(..., 1, L)``, as PyTorch pools it
    (so its graph is PyTorch's: Unsqueeze, the 2-d pool's node, Squeeze)."""
    return shape_ops.unsqueeze(input, -2) if nd == 1 else input


def _off_plane(nd: int, out: Tensor) -> Tensor:
    return shape_ops.squeeze(out, -2) if nd == 1 else out


def _max_pool(op: str, nd: int, input: Tensor, kernel_size: Any, stride: Any, padding: Any, dilation: Any,
              ceil_mode: bool, return_indices: bool) -> Any:
    rows, cols, batched = _windows(op, input, nd, kernel_size, stride, padding, dilation, ceil_mode)
    # PyTorch's 1-d kernel without indices is built for floating dtypes only; with indices a row is a plane
    if nd == 1 and not return_indices:
        dtypes.check_kernel("max_pool1d_impl", input.dtype, "f")
    dtypes.check_kernel("max_pool2d", input.dtype, "uif")
    geometry = _Geometry(rows, cols, 2, batched)
    plane = _on_plane(nd, input)
    if not return_indices:
        return _off_plane(nd, MaxPool2DWithIndices.apply(plane, geometry=geometry))
    winners: list = []
    out = MaxPool2DWithIndices.apply(plane, geometry=geometry, winners=winners)
    indices = geometry.drop(_flat_indices(plane, winners, geometry))
    return _off_plane(nd, out), _graph.wrap(indices.reshape(indices.shape[:-2] + indices.shape[-1:]) if nd == 1
                                            else indices)


def _flat_indices(input: Tensor, winners: list, geo: _Geometry) -> Any:
    """PyTorch's indices: each winner's position ``h * W + w`` in its (unpadded) input plane."""
    xp = array_module_of(input._data)
    row_index, col_index = winners
    rows, cols = geo.rows, geo.cols
    if col_index is not None:
        col_index = rows.gather(xp, col_index, row_index, 2)  # the column winner of each row winner
    n, c = geo.lift(input._data).shape[:2]
    shape = (n, c, rows.out, cols.out)
    h = (xp.arange(rows.out) * rows.stride - rows.pad).reshape(-1, 1)
    w = xp.arange(cols.out) * cols.stride - cols.pad
    if row_index is not None:
        h = h + row_index.astype(xp.int64) * rows.dilation
    if col_index is not None:
        w = w + col_index.astype(xp.int64) * cols.dilation
    return xp.broadcast_to(h * cols.size + w, shape).astype(xp.int64)


def max_pool1d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """1-d max pooling of ``input (N, C, L)`` or ``(C, L)``:
    ``out[n, c, l] = max_k input[n, c, l*stride - padding + k*dilation]``.

    ``stride`` defaults to ``kernel_size``; ``padding`` (at most half the window) pads with -inf.
    With ``return_indices`` also returns each maximum's position in its input row (int64).
    """
    return _max_pool("max_pool1d", 1, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def max_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """2-d max pooling of ``input (N, C, H, W)`` or ``(C, H, W)``:
    ``out[n, c, h, w] = max_{i, j} input[n, c, h*sH - pH + i*dH, w*sW - pW + j*dW]``.

    ``stride`` defaults to ``kernel_size``; ``padding`` (at most half the window) pads with -inf.
    ``H_out = floor((H + 2*pH - dH*(kH-1) - 1) / sH) + 1`` (``ceil`` with ``ceil_mode``, keeping
    the last window starting inside the input). The gradient goes to the first maximum of each
    window. With ``return_indices`` also returns each maximum's flat position ``h * W + w`` (int64).
    """
    return _max_pool("max_pool2d", 2, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def _avg_pool(op: str, nd: int, input: Tensor, kernel_size: Any, stride: Any, padding: Any, ceil_mode: bool,
              count_include_pad: bool, divisor_override: int | None) -> Tensor:
    dtypes.check_kernel("avg_pool2d", input.dtype, "f")  # PyTorch pools a row as a plane, in its 2-d kernel
    rows, cols, batched = _windows(op, input, nd, kernel_size, stride, padding, 1, ceil_mode)
    if divisor_override is not None:
        if divisor_override == 0:
            raise RuntimeError("divisor must be not zero")
        rows.scale = 1.0 / divisor_override
    else:
        for window in (rows, cols):
            window.scale = _divisors(window, count_include_pad)
    return _off_plane(nd, AvgPool2D.apply(_on_plane(nd, input), geometry=_Geometry(rows, cols, 2, batched)))


def _divisors(window: _Window, count_include_pad: bool) -> Any:
    """PyTorch's divisor along one axis: the window clipped to the padded input (or to the input)."""
    start = np.arange(window.out) * window.stride - window.pad
    end = np.minimum(start + window.kernel, window.size + window.pad)
    if not count_include_pad:
        start, end = np.maximum(start, 0), np.minimum(end, window.size)
    counts = end - start
    if (counts == window.kernel).all():
        return 1.0 / window.kernel
    return 1.0 / counts


def avg_pool1d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    """1-d average pooling of ``input (N, C, L)`` or ``(C, L)`` over windows of ``kernel_size``
    (see ``avg_pool2d``)."""
    return _avg_pool("avg_pool1d", 1, input, kernel_size, stride, padding, ceil_mode, count_include_pad, None)


def avg_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """2-d average pooling of ``input (N, C, H, W)`` or ``(C, H, W)``:
    ``out[n, c, h, w] = sum_{i, j} input[n, c, h*sH - pH + i, w*sW - pW + j] / divisor``.

    The divisor counts the window's positions inside the zero-padded input (only those inside the
    input itself with ``count_include_pad=False``), or is ``divisor_override``. Output size as in
    ``max_pool2d`` without dilation.
    """
    return _avg_pool("avg_pool2d", 2, input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override)


def _adaptive_avg_pool(op: str, nd: int, input: Tensor, output_size: Any) -> Tensor:
    if not isinstance(input, _graph.Tensor):
        raise TypeError(f"{op}(): argument 'input' must be a Tensor, not {type(input).__name__}")
    dtypes.check_kernel("adaptive_avg_pool2d", input.dtype, "f")  # a row is pooled as a plane, as in PyTorch
    shape = tuple(input.shape)
    if len(shape) not in (nd + 1, nd + 2):
        raise RuntimeError(f"{op}(): Expected {nd + 1}D or {nd + 2}D tensor, but got {list(shape)}")
    for dim in range(len(shape) - nd - 1 + (len(shape) == nd + 1), len(shape)):
        if shape[dim] == 0:
            raise RuntimeError(f"{op}(): Expected input to have non-zero size for non-batch dimensions, but "
                               f"input has sizes {list(shape)} with dimension {dim} being empty")
    sizes: tuple = (output_size,) * nd if isinstance(output_size, int) or output_size is None else tuple(output_size)
    if len(sizes) != nd:
        raise RuntimeError(f"{op}: output_size must be {nd}")
    sizes = tuple(n if o is None else o for o, n in zip(sizes, shape[-nd:]))
    if any(o < 0 for o in sizes):
        raise RuntimeError(f"{op}: elements of output_size must be greater than or equal to 0 but received "
                           f"{{{', '.join(str(o) for o in sizes)}}}")
    batched = len(shape) == nd + 2
    if nd == 1:
        sizes, shape = (1,) + sizes, shape[:-1] + (1, shape[-1])
    plane = _on_plane(nd, input)
    if sizes == (1, 1):  # global average pooling: PyTorch takes the mean (MeanBackward1)
        return _off_plane(nd, reduction.mean(plane, (-2, -1), keepdim=True))
    rows, cols = (_adaptive_axis(n, o) for n, o in zip(shape[-2:], sizes))
    return _off_plane(nd, AdaptiveAvgPool2D.apply(plane, geometry=_Geometry(rows, cols, 2, batched)))


def _adaptive_axis(size: int, out: int) -> Any:
    """Equal windows (kernel = stride = size / out) where they divide evenly, else the averaging matrix."""
    if out == 0 or size % out:
        return _Averages(size, out)
    window = _Window(size // out, size // out, 1, 0, size, out)
    window.scale = 1.0 / window.kernel if window.kernel > 1 else None
    return window


def adaptive_avg_pool1d(input: Tensor, output_size: Any) -> Tensor:
    """1-d adaptive average pooling of ``input (N, C, L)`` or ``(C, L)`` to length ``output_size``:
    output ``o`` averages ``input[..., floor(o*L/n) : ceil((o+1)*L/n)]``."""
    return _adaptive_avg_pool("adaptive_avg_pool1d", 1, input, output_size)


def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:
    """2-d adaptive average pooling of ``input (N, C, H, W)`` or ``(C, H, W)`` to ``output_size``
    (an int or a pair; None keeps that input size): output ``(h, w)`` averages rows
    ``[floor(h*H/OH), ceil((h+1)*H/OH))`` and likewise columns."""
    return _adaptive_avg_pool("adaptive_avg_pool2d", 2, input, output_size)
