"""Convolutions: ``conv1d``, ``conv2d``, ``conv_transpose1d`` and ``conv_transpose2d``.

A convolution is bilinear in its input and weight. Three linear maps make it up, and each one's
derivatives are the other two, so first- and higher-order gradients close over three ops:

    convolve(x, w)      -> y              (the forward)
    input_grad(g, w)    -> x-shaped       (the transposed convolution: conv_transpose's forward)
    weight_grad(x, g)   -> w-shaped

with ``<y, g> = <x, input_grad(g, w)> = <w, weight_grad(x, g)>``.

Speed: no Python loop over pixels or batch items. The input goes channel-major into a zero-padded
canvas whose windows are zero-copy strided views (``as_strided``); one copy turns them into
columns ``(C*kH*kW, N*OH*WQ)`` on a *wide* output grid of ``WQ = ceil(Wp/sW) >= OW`` columns per
row, so each kernel offset's columns are long contiguous runs. The forward is then one matmul
(per group: a batched one) and a copy into NCHW that adds the bias; the weight gradient is one
matmul of the widened gradient (zeros past ``OW``) with the same columns; the input gradient is
one matmul plus a ``kH*kW`` loop of strided slice-adds (col2im), or, for most stride-1 layers, a
convolution of the gradient with the flipped kernel (``_by_convolution``). On the CPU each of the three runs
over the batch in chunks of a few images, so that the columns stay in cache (``_chunks``).

1-d convolutions and unbatched inputs run the same 2-d code on reshaped views (a height of 1, a
batch of 1) inside the ops, so every result's ``grad_fn`` is PyTorch's ``ConvolutionBackward0``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _autocast, _graph, dtypes
from .._graph import Op
from ..device import MetaArray, meta_array
from ..dtypes import cpp_type_name
from ..memory_format import channels_last, channels_last_order
from ..threads import known_num_threads
from . import shape
from ._composite import composed_op

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d", "conv_tbc"]



def lift_to_2d(a: Any, nd: int, batched: bool) -> Any:
    """An activation in the user's layout (1-d or 2-d, batched or not) as ``(N, C, H, W)``."""
    if nd == 1:
        a = a.reshape(a.shape[:-1] + (1, a.shape[-1]))
    return a if batched else a.reshape((1,) + a.shape)


def drop_from_2d(a: Any, nd: int, batched: bool) -> Any:
    """The inverse of ``lift_to_2d``."""
    if not batched:
        a = a.reshape(a.shape[1:])
    return a.reshape(a.shape[:-2] + (a.shape[-1],)) if nd == 1 else a

class _Geometry:
    """Sizes of one convolution seen as ``x (N, C, H, W) -> y (N, O, OH, OW)``, in 2-d form.

    For a transposed convolution ``x`` is its output and ``y`` its input. ``padded`` is the extent
    the windows read: the input sits at ``padding`` inside it, and zeros fill the rest.
    """

    __slots__ = ("nd", "batched", "in_size", "out_size", "kernel", "stride", "dilation", "padding",
                 "groups", "padded", "bias_axes")

    def __init__(self, nd: int, batched: bool, in_size: tuple, out_size: tuple, kernel: tuple,
                 stride: tuple, dilation: tuple, padding: tuple, groups: int) -> None:
        self.nd, self.batched, self.groups = nd, batched, groups
        self.in_size, self.out_size, self.kernel = in_size, out_size, kernel
        self.stride, self.dilation, self.padding = stride, dilation, padding
        self.padded = tuple(max(p + n, (o - 1) * s + d * (k - 1) + 1) for p, n, o, s, d, k
                            in zip(padding, in_size, out_size, stride, dilation, kernel))
        channel = 1 if batched else 0
        self.bias_axes = tuple(a for a in range(channel + 1 + nd) if a != channel)

    def lift(self, a: Any) -> Any:
        return lift_to_2d(a, self.nd, self.batched)

    def drop(self, a: Any) -> Any:
        return drop_from_2d(a, self.nd, self.batched)

    def lift_weight(self, w: Any) -> Any:
        return w.reshape(w.shape[:2] + (1, w.shape[2])) if self.nd == 1 else w

    def drop_weight(self, w: Any) -> Any:
        return w.reshape(w.shape[:2] + (w.shape[3],)) if self.nd == 1 else w


# ------------------------------------------------------------------ the three maps on arrays (N, C, H, W)

def columns_of(xp: Any, x: Any, geo: _Geometry, oh: int, wq: int) -> Any:
    """The windows of ``x (N, C, H, W)`` as columns ``(groups, C/groups*kH*kW, N*OH*WQ)`` (one copy).

    ``x`` goes channel-major into a zero canvas ``(C, N, Hp + 1, WQ*sW)`` whose windows are
    zero-copy strided views; ``WQ >= OW`` columns are taken per output row, and the ones past
    ``OW`` wrap into the next row (hence the extra row): garbage that the caller drops or that
    meets zeros of a widened gradient.
    """
    n, c, h, wd = x.shape
    groups, (kh, kw), (sh, sw), (dh, dw), (top, left) = geo.groups, geo.kernel, geo.stride, geo.dilation, geo.padding
    canvas = xp.zeros((c, n, geo.padded[0] + 1, wq * sw), x.dtype)
    canvas[:, :, top:top + h, left:left + wd] = x.transpose(1, 0, 2, 3)
    sc, sn, sr, se = canvas.strides
    windows = xp.lib.stride_tricks.as_strided(canvas, (c, kh, kw, n, oh, wq),
                                              (sc, sr * dh, se * dw, sn, sr * sh, se * sw))
    return windows.reshape(groups, c // groups * kh * kw, n * oh * wq)


def wide_width(geo: _Geometry) -> int:
    return -(-geo.padded[1] // geo.stride[1])


# Columns of about this many bytes per BLAS thread stay in the cores' L2 caches between the copy
# that makes them and the matmul that reads them. Measured on the project's 2-core machine (1 BLAS
# thread, conv 16->32 3x3 on 64 x 14 x 14): forward 6.4 -> 4.6 ms, weight grad 7.6 -> 4.7 ms, input
# grad 8.1 -> 7.0 ms, against the whole batch at once. On a GPU the whole batch goes in one piece.
_CHUNK_BYTES = 1 << 20


def _chunks(xp: Any, n: int, rows: int, oh: int, wq: int, dtype: Any) -> list:
    """Slices of the batch whose columns ``(rows, images*OH*WQ)`` take about ``_CHUNK_BYTES`` per
    BLAS thread."""
    if xp is not np:
        return [slice(None)]
    budget = _CHUNK_BYTES * known_num_threads()
    step = max(1, budget // (rows * oh * wq * np.dtype(dtype).itemsize))
    return [slice(start, start + step) for start in range(0, max(n, 1), step)]


def _convolve(xp: Any, x: Any, w: Any, geo: _Geometry, b: Any = None) -> Any:
    """``y[n, o] = b[o] + sum_{c, i, j} xpad[n, c, oh*sH + i*dH, ow*sW + j*dW] * w[o, c, i, j]`` per group:
    a few images at a time (``_chunks``), one matmul of the weights with their columns, whose result
    is copied into NCHW with the bias."""
    n, o, groups, (oh, ow) = x.shape[0], w.shape[0], geo.groups, geo.out_size
    wq = wide_width(geo)
    weights = w.reshape(groups, o // groups, -1)
    y = None
    for part in _chunks(xp, n, weights.shape[2] * groups, oh, wq, x.dtype):
        images = x[part]
        wide = xp.matmul(weights, columns_of(xp, images, geo, oh, wq))
        wide = wide.reshape(o, images.shape[0], oh, wq)[..., :ow].transpose(1, 0, 2, 3)
        if y is None:
            y = xp.empty((n, o, oh, ow), wide.dtype)
        if b is None:
            y[part] = wide
        else:
            xp.add(wide, b.reshape(-1, 1, 1), out=y[part])
    return y


def _widen(xp: Any, g: Any, geo: _Geometry) -> Any:
    """``g (N, O, OH, OW)`` channel-major on the wide grid ``(O, N, OH, WQ)``, zeros past ``OW``."""
    n, o, oh, ow = g.shape
    wide = xp.zeros((o, n, oh, wide_width(geo)), g.dtype)
    wide[..., :ow] = g.transpose(1, 0, 2, 3)
    return wide


def _weight_grad(xp: Any, x: Any, wide: Any, geo: _Geometry) -> Any:
    """``gw[o, c, i, j] = sum_{n, oh, ow} g[n, o, oh, ow] * xpad[n, c, oh*sH + i*dH, ow*sW + j*dW]``,
    summed over a few images at a time (``_chunks``).

    Where a group has at least as many columns' rows (``C*kH*kW``) as output channels, the product is
    taken as ``(columns @ g^T)^T``: OpenBLAS multiplies that orientation faster. Measured on the
    project's machine (1 thread, 3x3, batch 64): 16 -> 32 channels at 14 x 14 2.73 -> 2.03 ms,
    32 -> 64 8.05 -> 6.74 ms, 8 -> 32 1.38 -> 1.10 ms; with fewer rows than channels it is slower
    (3 -> 64 at 32 x 32, batch 16: 1.21 -> 1.40 ms)."""
    o, n, oh, wq = wide.shape
    c, groups, (kh, kw) = x.shape[1], geo.groups, geo.kernel
    columns_first = c // groups * kh * kw >= o // groups
    gw: Any = None
    for part in _chunks(xp, n, c * kh * kw, oh, wq, x.dtype):
        columns = columns_of(xp, x[part], geo, oh, wq)
        g = wide[:, part].reshape(groups, o // groups, -1)
        term = (xp.matmul(columns, g.transpose(0, 2, 1)) if columns_first
                else xp.matmul(g, columns.transpose(0, 2, 1)))
        if gw is None:
            gw = term
        else:
            gw += term
    if columns_first:
        gw = gw.transpose(0, 2, 1)
    return gw.reshape(o, c // groups, kh, kw)


def _input_grad(xp: Any, g: Any, w: Any, geo: _Geometry) -> Any:
    """The adjoint of ``_convolve`` in ``x``, for ``g (N, O, OH, OW)``: columns ``w^T g`` summed back
    onto the image (col2im), a few images at a time (``_chunks``); or, where ``_by_convolution``
    serves, a convolution."""
    if _by_convolution(w, geo):
        return _convolve(xp, g, _flipped(w, geo.groups), _flipped_geometry(geo))
    wide = _widen(xp, g, geo)
    o, n, oh, wq = wide.shape
    groups, (kh, kw) = geo.groups, geo.kernel
    c = w.shape[1] * groups
    weights = w.reshape(groups, o // groups, -1).transpose(0, 2, 1)
    images = []
    for part in _chunks(xp, n, c * kh * kw, oh, wq, wide.dtype):
        g = wide[:, part]
        columns = xp.matmul(weights, g.reshape(groups, o // groups, -1))
        images.append(col2im(xp, columns.reshape(c, kh, kw, g.shape[1], oh, wq), geo))
    return images[0] if len(images) == 1 else xp.concatenate(images)


def _by_convolution(w: Any, geo: _Geometry) -> bool:
    """Whether ``_input_grad`` is computed as a convolution of ``g`` with the flipped kernel: for a
    stride of 1 whose padding is at most the kernel's dilated extent, and at most twice as many output
    channels as input channels. Its columns then take no more memory than col2im's, and it needs no
    ``kH*kW`` slice-adds. Measured on the project's machine (1 thread, 3x3, batch 64): 16 -> 32
    channels at 14 x 14 3.32 -> 2.59 ms, 64 -> 16 at 8 x 8 (batch 32) 2.03 -> 0.67 ms, 32 -> 64
    9.60 -> 8.06 ms; with more output channels it is slower (8 -> 32 1.85 -> 1.93 ms, 1 -> 16 at
    28 x 28 0.84 -> 1.53 ms)."""
    return (geo.stride == (1, 1) and w.shape[0] <= 2 * w.shape[1] * geo.groups
            and all(p <= d * (k - 1) for p, d, k in zip(geo.padding, geo.dilation, geo.kernel)))


def _flipped(w: Any, groups: int) -> Any:
    """The kernel ``(O, C/groups, kH, kW)`` of the convolution whose forward is ``w``'s input gradient:
    ``(C, O/groups, kH, kW)``, each group's channel axes swapped and the window reversed."""
    o, c, kh, kw = w.shape
    per_group = w.reshape(groups, o // groups, c, kh, kw)[..., ::-1, ::-1]
    return per_group.transpose(0, 2, 1, 3, 4).reshape(c * groups, o // groups, kh, kw)


def _flipped_geometry(geo: _Geometry) -> _Geometry:
    """The geometry of that convolution: from ``y``'s size to ``x``'s, padded by the kernel's dilated
    extent less the padding."""
    padding = tuple(d * (k - 1) - p for p, d, k in zip(geo.padding, geo.dilation, geo.kernel))
    return _Geometry(geo.nd, geo.batched, geo.out_size, geo.in_size, geo.kernel, geo.stride, geo.dilation,
                     padding, geo.groups)


def col2im(xp: Any, columns: Any, geo: _Geometry) -> Any:
    """Columns ``(C, kH, kW, N, OH, WQ)`` on the wide grid summed back onto the image ``(N, C, H, W)``:
    the adjoint of ``columns_of``."""
    c, kh, kw, n, oh, wq = columns.shape
    (top, left), (h, wd) = geo.padding, geo.in_size
    (sh, sw), (dh, dw) = geo.stride, geo.dilation
    canvas = xp.zeros((c, n, geo.padded[0] + 1, wq * sw), columns.dtype)
    sc, sn, sr, se = canvas.strides
    for i in range(kh):
        for j in range(kw):
            # the canvas positions of kernel offset (i, j) for every output: a strided view
            target = xp.lib.stride_tricks.as_strided(canvas[:, :, i * dh:, j * dw:], (c, n, oh, wq),
                                                     (sc, sn, sr * sh, se * sw))
            target += columns[:, i, j]
    return xp.ascontiguousarray(canvas[:, :, top:top + h, left:left + wd].transpose(1, 0, 2, 3))


def _laid_out_as_operands(xp: Any, y: Any, x: Any, w: Any) -> Any:
    """The output ``y (N, C, H, W)`` laid out channels last where the input or the weight is (PyTorch's
    convolutions give the memory format their operands suggest: ``model.to(memory_format=channels_last)``
    makes every convolution's output channels last), else as it is."""
    if y.ndim == 4 and (_is_channels_last(x) or _is_channels_last(w)):
        return shape.copy_in_order(xp, y, channels_last_order(channels_last, 4))
    return y


def _is_channels_last(a: Any) -> bool:
    return a.ndim == 4 and not a.flags.c_contiguous and shape.is_contiguous(a, channels_last)


# ------------------------------------------------------------------ ops

class Convolution(Op, node_name="ConvolutionBackward0"):
    """``y = conv(x, w) + b``."""

    @staticmethod
    def forward(ctx: Convolution, x: Any, w: Any, b: Any = None, *, geometry: _Geometry) -> Any:
        ctx.save_for_backward(x, w)
        ctx.geometry = geometry
        if type(x) is MetaArray:  # (a shape and a dtype, no data: nothing to compute)
            return geometry.drop(meta_array((geometry.lift(x).shape[0], w.shape[0], *geometry.out_size),
                                            np.result_type(x, w)))
        y = _convolve(ctx.xp, geometry.lift(x), geometry.lift_weight(w), geometry, b)
        return geometry.drop(_laid_out_as_operands(ctx.xp, y, x, w))

    @staticmethod
    def backward(ctx: Convolution, g: Any) -> tuple:
        x, w = ctx.saved_tensors
        geo, xp = ctx.geometry, ctx.xp
        needs_x, needs_w, needs_b = ctx.needs_input_grad
        gb = xp.sum(g, axis=geo.bias_axes) if needs_b else None
        gx = _InputGrad.call(g, w, None, geometry=geo) if needs_x else None
        gw = _WeightGrad.call(x, g, geometry=geo) if needs_w else None
        return gx, gw, gb


class ConvolutionTranspose(Op, node_name="ConvolutionBackward0"):
    """``y = input_grad(x, w) + b``: the transposed convolution, ``x`` in the role of ``conv``'s output."""

    @staticmethod
    def forward(ctx: ConvolutionTranspose, x: Any, w: Any, b: Any = None, *, geometry: _Geometry) -> Any:
        ctx.save_for_backward(x, w)
        ctx.geometry = geometry
        xp = ctx.xp
        if type(x) is MetaArray:  # (a shape and a dtype, no data: nothing to compute)
            return geometry.drop(meta_array((geometry.lift(x).shape[0], w.shape[1] * geometry.groups,
                                             *geometry.in_size), np.result_type(x, w)))
        y = _input_grad(xp, geometry.lift(x), geometry.lift_weight(w), geometry)
        if b is not None:
            y += b.reshape(-1, 1, 1)
        return geometry.drop(_laid_out_as_operands(xp, y, x, w))

    @staticmethod
    def backward(ctx: ConvolutionTranspose, g: Any) -> tuple:
        x, w = ctx.saved_tensors
        geo, xp = ctx.geometry, ctx.xp
        needs_x, needs_w, needs_b = ctx.needs_input_grad
        gb = xp.sum(g, axis=geo.bias_axes) if needs_b else None
        gx = _Convolve.call(g, w, None, geometry=geo) if needs_x else None
        gw = _WeightGrad.call(g, x, geometry=geo) if needs_w else None
        return gx, gw, gb


class _Convolve(Convolution, node_name="ConvolutionBackwardBackward0"):
    """``convolve`` met as a derivative (of a transposed convolution or of a weight gradient)."""


class _InputGrad(ConvolutionTranspose, node_name="ConvolutionBackwardBackward0"):
    """``input_grad`` met as the derivative of a convolution in its input."""


class _WeightGrad(Op, node_name="ConvolutionBackwardBackward0"):
    """``gw = weight_grad(x, g)``, linear in each of ``x`` and ``g``."""

    @staticmethod
    def forward(ctx: _WeightGrad, x: Any, g: Any, *, geometry: _Geometry) -> Any:
        ctx.save_for_backward(x, g)
        ctx.geometry = geometry
        wide = _widen(ctx.xp, geometry.lift(g), geometry)
        return geometry.drop_weight(_weight_grad(ctx.xp, geometry.lift(x), wide, geometry))

    @staticmethod
    def backward(ctx: _WeightGrad, v: Any) -> tuple:
        # <weight_grad(x, g), v> = <g, convolve(x, v)> = <x, input_grad(g, v)>
        x, g = ctx.saved_tensors
        geo = ctx.geometry
        needs_x, needs_g = ctx.needs_input_grad
        gx = _InputGrad.call(g, v, None, geometry=geo) if needs_x else None
        gg = _Convolve.call(x, v, None, geometry=geo) if needs_g else None
        return gx, gg


# ------------------------------------------------------------------ argument checks

def _tuple(value: Any, name: str, nd: int) -> tuple:
    if isinstance(value, int):
        return (value,) * nd
    values = tuple(value)
    if len(values) == 1:
        return values * nd
    if len(values) != nd:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {nd} values to match "
                           f"the convolution dimensions, but got {name}={list(values)}")
    return values


def check_convolution_arguments(op: str, input: Any, weight: Any, bias: Any, nd: int, transposed: bool) -> None:
    """PyTorch's checks, and messages, of a convolution's tensors: their types, dimensions and dtypes."""
    if not isinstance(input, _graph.Tensor) or not isinstance(weight, _graph.Tensor):
        raise TypeError(f"{op}(): argument 'input' and 'weight' must be Tensors, got "
                        f"{type(input).__name__} and {type(weight).__name__}")
    if input.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to {op}, but got "
                           f"input of size: {list(input.shape)}")
    if weight.ndim != nd + 2:
        raise RuntimeError(f"{op}: expected weight to be {nd + 2}-dimensional, but got weight of size "
                           f"{list(weight.shape)}")
    # PyTorch refuses mixed dtypes; its convolution compares the bias first, its transposed one
    # ignores the bias's dtype (the result keeps the input's).
    if bias is not None and not transposed and bias.dtype != input.dtype:
        raise RuntimeError(f"Input type ({cpp_type_name(input.dtype)}) and bias type ({cpp_type_name(bias.dtype)}) "
                           "should be the same")
    dtypes.check_same(input.dtype, weight.dtype)


def _check_options(stride: tuple, padding: tuple, dilation: tuple, groups: int) -> None:
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("non-positive dilation is not supported")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")


def _check_weight(weight: Tensor, bias: Tensor | None, groups: int, channels: int, in_shape: tuple,
                  transposed: bool) -> None:
    """PyTorch's checks of weight and bias against the (batched) input shape."""
    shape = list(weight.shape)
    given = "Given transposed=1, weight of size" if transposed else "Given weight of size"
    if shape[0] < 1:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least 1 at dimension 0, but got "
                           f"weight of size {shape} instead")
    if shape[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
                           f"but got weight of size [{shape}] instead")
    expected = shape[0] if transposed else shape[1] * groups
    if channels != expected:
        kind = "transposed=1" if transposed else f"groups={groups}"
        raise RuntimeError(f"Given {kind}, weight of size {shape}, expected input{list(in_shape)} to have "
                           f"{expected} channels, but got {channels} channels instead")
    out_channels = shape[1] * groups if transposed else shape[0]
    if bias is not None and tuple(bias.shape) != (out_channels,):
        raise RuntimeError(f"{given} {shape}, expected bias to be 1-dimensional with {out_channels} elements, "
                           f"but got bias of size {list(bias.shape)} instead")


def _sizes(values: tuple) -> str:
    return " x ".join(str(v) for v in values)


# ------------------------------------------------------------------ public functions

def _conv(op: str, nd: int, input: Tensor, weight: Tensor, bias: Tensor | None, stride: Any, padding: Any,
          dilation: Any, groups: int) -> Tensor:
    check_convolution_arguments(op, input, weight, bias, nd, transposed=False)
    batched = input.ndim == nd + 2
    in_shape = tuple(input.shape) if batched else (1,) + tuple(input.shape)
    stride, dilation = _tuple(stride, "stride", nd), _tuple(dilation, "dilation", nd)
    kernel = tuple(weight.shape[2:])
    if isinstance(padding, str):
        if padding == "valid":
            before = after = (0,) * nd
        elif padding == "same":
            if any(s != 1 for s in stride):
                raise RuntimeError("padding='same' is not supported for strided convolutions")
            total = [d * (k - 1) for d, k in zip(dilation, kernel)]
            before = tuple(t // 2 for t in total)
            after = tuple(t - b for t, b in zip(total, before))
        else:
            raise RuntimeError(f"Invalid padding string: '{padding}'")
    else:
        before = after = _tuple(padding, "padding", nd)
    _check_options(stride, before, dilation, groups)
    _check_weight(weight, bias, groups, in_shape[1], in_shape, transposed=False)
    size = in_shape[2:]
    padded = tuple(n + b + a for n, b, a in zip(size, before, after))
    reach = tuple(d * (k - 1) + 1 for d, k in zip(dilation, kernel))
    if any(p < r for p, r in zip(padded, reach)):
        raise RuntimeError(f"Calculated padded input size per channel: ({_sizes(padded)}). Kernel size: "
                           f"({_sizes(reach)}). Kernel size can't be greater than actual input size")
    out_size = tuple((p - r) // s + 1 for p, r, s in zip(padded, reach, stride))
    geometry = _geometry(nd, batched, size, out_size, kernel, stride, dilation, before, groups)
    return Convolution.apply(input, weight, bias, geometry=geometry)


def _geometry(nd: int, batched: bool, in_size: tuple, out_size: tuple, kernel: tuple, stride: tuple,
              dilation: tuple, padding: tuple, groups: int) -> _Geometry:
    if nd == 1:  # a 1-d convolution is a 2-d one of height 1
        in_size, out_size, kernel = (1,) + in_size, (1,) + out_size, (1,) + kernel
        stride, dilation, padding = (1,) + stride, (1,) + dilation, (0,) + padding
    return _Geometry(nd, batched, in_size, out_size, kernel, stride, dilation, padding, groups)


@_autocast.lower_precision
def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0,
           dilation: Any = 1, groups: int = 1) -> Tensor:
    """1-d convolution (cross-correlation) of ``input (N, C_in, L)`` or ``(C_in, L)`` with
    ``weight (C_out, C_in/groups, kL)``, plus ``bias (C_out,)``.

    ``out[n, o, l] = bias[o] + sum_{c, k} input[n, c, l*stride - padding + k*dilation] * weight[o, c, k]``
    over the input channels ``c`` of ``o``'s group. ``padding`` is an int, a 1-tuple, ``'valid'``
    or ``'same'``. Output length ``floor((L + 2*padding - dilation*(kL-1) - 1) / stride) + 1``.
    """
    return _conv("conv1d", 1, input, weight, bias, stride, padding, dilation, groups)


@composed_op("ConvTbcBackward0", ("self", "weight", "bias"))
def conv_tbc(self: Tensor, weight: Tensor, bias: Tensor, pad: int = 0) -> Tensor:
    """1-d convolution over time-major ``input (T, N, C_in)`` ("TBC") with ``weight (kW, C_in, C_out)``
    and ``bias (C_out,)``, ``pad`` steps of zeros at both ends (a negative ``pad`` crops):
    ``out[t, n, o] = bias[o] + sum_{k, c} input[t + k - pad, n, c] * weight[k, c, o]``, of shape
    ``(T + 2 * pad - kW + 1, N, C_out)``. As ``conv1d`` on the inputs seen as ``(N, C, T)``."""
    checks = ((lambda: self.ndim == 3, "Input must have 3 dims: time, batch, in_channel"),
              (lambda: weight.ndim == 3, "Weight tensor must have 3 dims: kernel_width, in_channels, out_channels."),
              (lambda: bias.ndim == 1, "Bias must be 1-D"),
              (lambda: self.shape[2] == weight.shape[1],
               "Input dim 2 (input channels) is not == dim 1 in the weight tensor"),
              (lambda: bias.shape[0] == weight.shape[2],
               "Bias size must equal dim 2 in the weight tensor (output channels)."))
    for ok, message in checks:  # in order: the shape checks need the dimension checks before them
        if not ok():
            raise RuntimeError(message)
    length = self.shape[0] + 2 * pad - weight.shape[0] + 1
    if length < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {length}: "
                           f"[{length}, {self.shape[1]}, {weight.shape[2]}]")
    if pad < 0:
        self = shape.narrow(self, 0, -pad, self.shape[0] + 2 * pad)
    out = conv1d(shape.permute(self, 1, 2, 0), shape.permute(weight, 2, 1, 0), bias, padding=max(pad, 0))
    return shape.permute(out, 2, 0, 1)


@_autocast.lower_precision
def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0,
           dilation: Any = 1, groups: int = 1) -> Tensor:
    """2-d convolution (cross-correlation) of ``input (N, C_in, H, W)`` or ``(C_in, H, W)`` with
    ``weight (C_out, C_in/groups, kH, kW)``, plus ``bias (C_out,)``.

    ``out[n, o, h, w] = bias[o] + sum_{c, i, j} input[n, c, h*sH - pH + i*dH, w*sW - pW + j*dW] * weight[o, c, i, j]``
    over the input channels ``c`` of ``o``'s group, zeros outside the input. ``stride``,
    ``padding`` and ``dilation`` are ints or pairs; ``padding`` may also be ``'valid'`` (none) or
    ``'same'`` (output as large as the input; stride 1 only).
    ``H_out = floor((H + 2*pH - dH*(kH-1) - 1) / sH) + 1``, and likewise ``W_out``.
    """
    return _conv("conv2d", 2, input, weight, bias, stride, padding, dilation, groups)


def _conv_transpose(op: str, nd: int, input: Tensor, weight: Tensor, bias: Tensor | None, stride: Any,
                    padding: Any, output_padding: Any, groups: int, dilation: Any) -> Tensor:
    check_convolution_arguments(op, input, weight, bias, nd, transposed=True)
    if isinstance(padding, str):
        raise TypeError(f"{op}(): argument 'padding' must be tuple of ints, not str")
    batched = input.ndim == nd + 2
    in_shape = tuple(input.shape) if batched else (1,) + tuple(input.shape)
    stride, dilation = _tuple(stride, "stride", nd), _tuple(dilation, "dilation", nd)
    padding, output_padding = _tuple(padding, "padding", nd), _tuple(output_padding, "output_padding", nd)
    _check_options(stride, padding, dilation, groups)
    if any(p < 0 for p in output_padding):
        raise RuntimeError("negative output_padding is not supported")
    if any(p >= s and p >= d for p, s, d in zip(output_padding, stride, dilation)):
        names = ("height", "width") if nd == 2 else ("",)
        detail = " ".join(f"{what}{'_' + name if name else ''}: {v}" for what, values in
                          (("output_padding", output_padding), ("stride", stride), ("dilation", dilation))
                          for name, v in zip(names, values))
        raise RuntimeError(f"output padding must be smaller than either stride or dilation, but got {detail}")
    _check_weight(weight, bias, groups, in_shape[1], in_shape, transposed=True)
    kernel, size = tuple(weight.shape[2:]), in_shape[2:]
    out_size = tuple((n - 1) * s - 2 * p + d * (k - 1) + q + 1 for n, s, p, d, k, q
                     in zip(size, stride, padding, dilation, kernel, output_padding))
    if any(n <= 0 for n in out_size):
        raise RuntimeError(f"{op}: calculated output size ({_sizes(out_size)}) is too small for input size "
                           f"({_sizes(size)}) with padding {list(padding)}")
    # The transposed convolution is the input gradient of the convolution from out_size to size.
    geometry = _geometry(nd, batched, out_size, size, kernel, stride, dilation, padding, groups)
    return ConvolutionTranspose.apply(input, weight, bias, geometry=geometry)


@_autocast.lower_precision
def conv_transpose1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
                     padding: Any = 0, output_padding: Any = 0, groups: int = 1, dilation: Any = 1) -> Tensor:
    """1-d transposed convolution ("deconvolution") of ``input (N, C_in, L)`` or ``(C_in, L)`` with
    ``weight (C_in, C_out/groups, kL)``: the gradient of ``conv1d`` with respect to its input.

    Output length ``(L - 1)*stride - 2*padding + dilation*(kL - 1) + output_padding + 1``.
    """
    return _conv_transpose("conv_transpose1d", 1, input, weight, bias, stride, padding, output_padding,
                           groups, dilation)


@_autocast.lower_precision
def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
                     padding: Any = 0, output_padding: Any = 0, groups: int = 1, dilation: Any = 1) -> Tensor:
    """2-d transposed convolution ("deconvolution") of ``input (N, C_in, H, W)`` or ``(C_in, H, W)``
    with ``weight (C_in, C_out/groups, kH, kW)``: the gradient of ``conv2d`` with respect to its input.

    ``H_out = (H - 1)*sH - 2*pH + dH*(kH - 1) + output_padding_H + 1``, and likewise ``W_out``;
    ``output_padding`` (smaller than the stride or the dilation) picks among the input sizes that
    a strided ``conv2d`` maps to the same output size.
    """
    return _conv_transpose("conv_transpose2d", 2, input, weight, bias, stride, padding, output_padding,
                           groups, dilation)
