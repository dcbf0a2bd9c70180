"""Pooling by index (adaptive max, unpooling) and 3-d pooling composed along depth (re-exported by
``nn.functional``)."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ... import _autocast, dtypes
from ...device import array_module_of
from ...ops import binary, indexing, scattering, unary
from ...ops import reduction as reductions
from ...ops import shape as shape_ops
from ...ops._composite import composed, composed_op
from ...ops.convolution import conv_transpose2d
from ...ops.padding import pad
from ...ops.pooling import adaptive_avg_pool2d, avg_pool2d, max_pool2d
from ...tensor import Tensor


def _adaptive_max_pool(op: str, nd: int, input: Tensor, output_size: Any, return_indices: bool) -> Any:
    """Max over adaptive windows; the maxima are gathered at their flat indices, so the gradient
    goes to each window's (first) maximum."""
    shape = tuple(input.shape)
    if len(shape) not in (nd + 1, nd + 2):
        raise RuntimeError(f"{op}(): Expected {nd + 1}D or {nd + 2}D tensor, but got {list(shape)}")
    sizes: tuple = (output_size,) * nd if isinstance(output_size, int) or output_size is None else tuple(output_size)
    if len(sizes) != nd:
        raise RuntimeError(f"{op}: internal error: output_size.size() must be {nd}")
    # PyTorch pools a row as a plane, in its 2-d kernel; neither is built for integers
    dtypes.check_kernel("adaptive_max_pool3d_cpu" if nd == 3 else "adaptive_max_pool2d", input.dtype, "f")
    spatial = shape[-nd:]
    sizes = tuple(n if o is None else int(o) for o, n in zip(sizes, spatial))
    xp = array_module_of(input._data)
    x = input._data.reshape(shape[:-nd] + (-1,))
    windows = [[(o * n // m, -(-(o + 1) * n // m)) for o in range(m)] for n, m in zip(spatial, sizes)]
    indices = xp.empty(shape[:-nd] + sizes, dtype=np.int64)
    for cell in np.ndindex(*sizes):
        ranges = [np.arange(*windows[a][c]) for a, c in enumerate(cell)]
        flat = xp.asarray(np.ravel_multi_index(np.meshgrid(*ranges, indexing="ij"), spatial).reshape(-1))
        indices[(...,) + cell] = flat[xp.argmax(x[..., flat], axis=-1)]
    index = Tensor._make(indices.reshape(shape[:-nd] + (-1,)))
    if nd == 1:  # PyTorch pools a row as a 1 x L plane: (Unsqueeze, AdaptiveMaxPool2D, Squeeze) nodes
        out = composed("AdaptiveMaxPool2DBackward0", _gather_maxima, input.unsqueeze(-2), suggests_format=True,
                       index=index, sizes=sizes)
        out = out.squeeze(-2)
    else:
        out = composed(f"AdaptiveMaxPool{nd}DBackward0", _gather_maxima, input, suggests_format=True, index=index,
                       sizes=sizes)
    if return_indices:
        return out, Tensor._make(indices)
    return out


def _gather_maxima(input: Tensor, index: Tensor, sizes: tuple) -> Tensor:
    """The elements of each plane of ``input`` at the flat positions ``index``, shaped ``sizes``."""
    lead = tuple(input.shape[:-len(sizes)])
    return indexing.gather(input.reshape(*lead, -1), -1, index.reshape(*lead, -1)).reshape(*lead, *sizes)


def adaptive_max_pool1d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """1-d adaptive max pooling of ``input (N, C, L)`` or ``(C, L)``: output ``o`` is the max of
    ``input[..., floor(o*L/n) : ceil((o+1)*L/n)]``; ``return_indices`` also gives its positions."""
    return _adaptive_max_pool("adaptive_max_pool1d", 1, input, output_size, return_indices)


def adaptive_max_pool2d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """2-d adaptive max pooling of ``input (N, C, H, W)`` or ``(C, H, W)``; indices are flat
    positions ``h * W + w`` in each input plane."""
    return _adaptive_max_pool("adaptive_max_pool2d", 2, input, output_size, return_indices)


def _max_unpool(op: str, nd: int, input: Tensor, indices: Tensor, kernel_size: Any, stride: Any, padding: Any,
                output_size: Any) -> Tensor:
    """Each value of ``input`` placed at its flat index in a zero plane (``scatter``)."""
    def tuple_of(value: Any) -> tuple:
        return (value,) * nd if isinstance(value, int) else tuple(value)
    kernel = tuple_of(kernel_size)
    strides = kernel if stride is None else tuple_of(stride)
    pads = tuple_of(padding)
    shape = tuple(input.shape)
    if len(shape) not in (nd + 1, nd + 2):
        raise RuntimeError(f"{op}: Expected {nd + 1}D or {nd + 2}D tensor, but got {list(shape)}")
    if tuple(indices.shape) != shape:
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor ({list(shape)}) but got "
                           f"indices tensor with shape: {list(indices.shape)}")
    default = tuple((n - 1) * s - 2 * p + k for n, s, p, k in zip(shape[-nd:], strides, pads, kernel))
    sizes = default if output_size is None else _unpool_output_size(output_size, default, strides)
    plane = math.prod(sizes)
    index_data = indices._data.reshape(-1)
    invalid = (index_data < 0) | (index_data >= plane)
    if bool(invalid.any()):
        raise RuntimeError(f"Found an invalid max index: {int(index_data[invalid][0])} (output volumes are of size "
                           f"{'x'.join(str(s) for s in sizes)})")
    flat_input = input.reshape(*shape[:-nd], -1)
    zeros = Tensor._make(array_module_of(input._data).zeros(shape[:-nd] + (plane,), input._data.dtype))
    # written, not added: windows that share a maximum put it there once, as PyTorch's kernel does
    out = scattering.scatter(zeros, -1, indices.reshape(*shape[:-nd], -1), flat_input)
    return out.reshape(*shape[:-nd], *sizes)


def _unpool_output_size(output_size: Any, default: tuple, strides: tuple) -> tuple:
    """PyTorch's checks of a requested unpooling size: ``nd`` (or ``nd + 2``) sizes, each within a
    stride of the default size."""
    nd = len(default)
    if len(output_size) == nd + 2:
        output_size = output_size[2:]
    if len(output_size) != nd:
        raise ValueError(f"output_size should be a sequence containing {nd} or {nd + 2} elements, but it has a "
                         f"length of '{len(output_size)}'")
    for d in range(nd):
        low, high = default[d] - strides[d], default[d] + strides[d]
        if not low < output_size[d] < high:
            raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between {low} and {high})')
    return tuple(output_size)


def max_unpool1d(input: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 output_size: Any = None) -> Tensor:
    """The partial inverse of ``max_pool1d``: the maxima back at their ``indices``, zeros elsewhere.
    Default output length ``(L - 1) * stride - 2 * padding + kernel_size``."""
    return _max_unpool("max_unpool1d", 1, input, indices, kernel_size, stride, padding, output_size)


def max_unpool2d(input: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 output_size: Any = None) -> Tensor:
    """The partial inverse of ``max_pool2d``: the maxima back at their flat ``indices`` (``h * W + w``),
    zeros elsewhere."""
    return _max_unpool("max_unpool2d", 2, input, indices, kernel_size, stride, padding, output_size)


# --------------------------------------------------------------------------- 3-d pooling, composed along depth
def _triple(value: Any) -> tuple:
    return (value,) * 3 if isinstance(value, int) else tuple(value)


def _pooled_size(size: int, kernel: int, stride: int, padding: int, dilation: int, ceil_mode: bool) -> int:
    """PyTorch's ``pooling_output_shape``: in ceil mode the last window must start inside the input
    or its left padding."""
    out = (size + 2 * padding - dilation * (kernel - 1) - 1 + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (out - 1) * stride >= size + padding:
        out -= 1
    return out


def _depth_slabs(x: Tensor, kernel: int, stride: int, padding: int, dilation: int, ceil_mode: bool,
                 fill: float) -> list:
    """For each kernel depth offset, the input slices ``(N, C, D_out, H, W)`` it meets, the depth
    padded with ``fill`` (including the overrun of a ceil-mode last window)."""
    depth = x.shape[2]
    out = _pooled_size(depth, kernel, stride, padding, dilation, ceil_mode)
    reach = (out - 1) * stride + dilation * (kernel - 1) + 1
    after = max(reach - depth - padding, 0)
    padded = pad(x, (0, 0, 0, 0, padding, after), value=fill) if padding or after else x
    return [padded[:, :, k * dilation:k * dilation + (out - 1) * stride + 1:stride] for k in range(kernel)]


# PyTorch's kernel of each 3-d pool and the dtypes it is built for: (name, dtype kinds, float16 and bfloat16 too)
_KERNELS_3D = {"max_pool3d": ("max_pool3d", "uif", True), "avg_pool3d": ("avg_pool3d_out_frame", "f", False),
               "adaptive_avg_pool3d": ("adaptive_avg_pool3d_cpu", "f", True)}


def _as_batched_3d(op: str, input: Tensor, window: tuple | None = None) -> tuple:
    """``input`` as ``(N, C, D, H, W)`` and whether it was; checked as PyTorch does: the dimensions, a
    pool's ``window`` (``_check_window_3d``'s arguments), then the dtype."""
    if input.ndim not in (4, 5):
        raise RuntimeError(f"{op}: Expected 4D or 5D tensor for input, but got: {list(input.shape)}")
    x = input if input.ndim == 5 else input.unsqueeze(0)
    if window is not None:
        _check_window_3d(x.shape, *window)
    if op in _KERNELS_3D:
        kernel, kinds, reduced = _KERNELS_3D[op]
        dtypes.check_kernel(kernel, input.dtype, kinds, half=reduced, bfloat16=reduced)
    return x, input.ndim == 5


def _check_window_3d(shape: tuple, kernel: tuple, strides: tuple, pads: tuple, dilations: tuple, ceil_mode: bool,
                     average: bool) -> None:
    """PyTorch's checks of a 3-d pool's windows (pooling_output_shape, then pool3d_shape_check)."""
    for k, p, d in zip(kernel, pads, dilations):
        if p > ((k - 1) * d + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, "
                               f"kernel_size={k} and dilation={d}")
    sizes = shape[2:]
    outs = [_pooled_size(*geometry, ceil_mode) for geometry in zip(sizes, kernel, strides, pads, dilations)]
    if average and any(n < k for n, k in zip(sizes, kernel)):
        raise RuntimeError("input image (T: {} H: {} W: {}) smaller than kernel size (kT: {} kH: {} kW: {})"
                           .format(*sizes, *kernel))
    if min(outs) < 1:
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, shape[1:]))}). Calculated output size: "
                           f"({'x'.join(map(str, (shape[1], *outs)))}). Output size is too small")


def _planes(x: Tensor) -> Tensor:
    """``(N, C, D, H, W)`` as ``(N, C*D, H, W)`` for the 2-d pools."""
    n, c, d = x.shape[:3]
    return x.reshape(n, c * d, *x.shape[3:])


def max_pool3d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """3-d max pooling of ``(N, C, D, H, W)`` or ``(C, D, H, W)``: the max over the depth offsets of a
    window, then ``max_pool2d`` over height and width. With ``return_indices`` also each maximum's
    flat position ``(d * H + h) * W + w`` (int64), and the maxima are gathered there."""
    if not return_indices:
        return _max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode)
    kernel = _triple(kernel_size)
    strides = kernel if stride is None else _triple(stride)
    pads, dilations = _triple(padding), _triple(dilation)
    x, batched = _as_batched_3d("max_pool3d", input, (kernel, strides, pads, dilations, ceil_mode, False))
    indices = _max_pool3d_indices(x._data, kernel, strides, pads, dilations, ceil_mode)
    indices = Tensor._make(indices if batched else indices[0])
    return _maxima_at(input, indices, batched), indices


@composed_op("MaxPool3DWithIndicesBackward0", ("input",))
def _max_pool3d(input: Tensor, kernel_size: Any, stride: Any, padding: Any, dilation: Any,
                ceil_mode: bool) -> Tensor:
    kernel = _triple(kernel_size)
    strides = kernel if stride is None else _triple(stride)
    pads, dilations = _triple(padding), _triple(dilation)
    x, batched = _as_batched_3d("max_pool3d", input, (kernel, strides, pads, dilations, ceil_mode, False))
    slabs = _depth_slabs(x, kernel[0], strides[0], pads[0], dilations[0], ceil_mode, float("-inf"))
    deepest = slabs[0]
    for slab in slabs[1:]:
        deepest = binary.maximum(deepest, slab)
    n, c, depth = deepest.shape[:3]
    out = max_pool2d(_planes(deepest), kernel[1:], strides[1:], pads[1:], dilations[1:], ceil_mode)
    out = out.reshape(n, c, depth, *out.shape[2:])
    return out if batched else out.squeeze(0)


def _max_pool3d_indices(x: Any, kernel: tuple, strides: tuple, pads: tuple, dilations: tuple,
                        ceil_mode: bool) -> Any:
    """The flat position ``(d * H + h) * W + w`` of the first maximum of each window of ``x``
    ``(N, C, D, H, W)`` (positions in the padding never win)."""
    xp = array_module_of(x)
    positions = []
    for axis in range(3):
        out = _pooled_size(x.shape[2 + axis], kernel[axis], strides[axis], pads[axis], dilations[axis], ceil_mode)
        at = np.arange(out)[:, None] * strides[axis] - pads[axis] + np.arange(kernel[axis]) * dilations[axis]
        positions.append(xp.asarray(at[None, None]))
    return _window_argmax(x, positions)


def _window_argmax(x: Any, positions: list) -> Any:
    """For ``x (N, C, *sizes)`` and, per spatial axis, the input positions ``(N or 1, C or 1, out, kernel)``
    of each window, the flat index of each window's first maximum ``(N, C, *outs)``; positions outside
    the input never win."""
    xp = array_module_of(x)
    nd, sizes = len(positions), x.shape[2:]
    flat: Any = 0
    inside: Any = True
    for axis, at in enumerate(positions):  # axis a's windows at dimension 2 + a, its offsets at 2 + nd + a
        spread = at.shape[:2] + tuple(at.shape[2] if d == axis else 1 for d in range(nd)) + \
            tuple(at.shape[3] if d == axis else 1 for d in range(nd))
        at = at.reshape(spread)
        inside = inside & (at >= 0) & (at < sizes[axis])
        flat = flat * sizes[axis] + xp.clip(at, 0, sizes[axis] - 1)
    outs = tuple(at.shape[2] for at in positions)
    shape = x.shape[:2] + outs + (-1,)
    flat = xp.broadcast_to(flat, x.shape[:2] + flat.shape[2:]).reshape(shape)
    values = xp.take_along_axis(x.reshape(x.shape[:2] + (-1,)), flat.reshape(x.shape[:2] + (-1,)), axis=2)
    values = xp.where(xp.broadcast_to(inside, x.shape[:2] + inside.shape[2:]).reshape(shape), values.reshape(shape),
                      -xp.inf)
    choice = xp.argmax(values, axis=-1)[..., None]
    return xp.take_along_axis(flat, choice, axis=-1)[..., 0].astype(np.int64)


def _at_indices(input: Tensor, indices: Tensor, batched: bool) -> Tensor:
    """``input (N, C, *sizes)`` (``(C, *sizes)`` when not ``batched``) at the flat spatial ``indices``:
    the gradient goes to those positions."""
    lead = 2 if batched else 1
    flat = indexing.gather(input.flatten(lead), lead, indices.flatten(lead))
    return flat.reshape(indices.shape)


def max_pool3d_with_indices(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
                            dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = True) -> tuple:
    return max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


_maxima_at = composed_op("MaxPool3DWithIndicesBackward0", ("input",))(_at_indices)


@composed_op("AvgPool3DBackward0", ('input',))
def avg_pool3d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """3-d average pooling of ``(N, C, D, H, W)`` or ``(C, D, H, W)``: window sums (along depth, then
    ``avg_pool2d`` sums) divided by the window size, or by the positions inside the input when
    ``count_include_pad=False``, or by ``divisor_override``."""
    kernel = _triple(kernel_size)
    strides = kernel if stride is None else _triple(stride)
    pads = _triple(padding)
    x, batched = _as_batched_3d("avg_pool3d", input, (kernel, strides, pads, (1, 1, 1), ceil_mode, True))
    slabs = _depth_slabs(x, kernel[0], strides[0], pads[0], 1, ceil_mode, 0.0)
    total = slabs[0]
    for slab in slabs[1:]:
        total = binary.add(total, slab)
    n, c, depth = total.shape[:3]
    sums = avg_pool2d(_planes(total), kernel[1:], strides[1:], pads[1:], ceil_mode, True, 1)
    sums = sums.reshape(n, c, depth, *sums.shape[2:])
    if divisor_override is not None:
        out = binary.div(sums, divisor_override)
    else:
        counts = [_window_counts(size, out, k, s, p, count_include_pad)
                  for size, out, k, s, p in zip(x.shape[2:], sums.shape[2:], kernel, strides, pads)]
        divisor = counts[0][:, None, None] * counts[1][None, :, None] * counts[2][None, None, :]
        out = binary.div(sums, Tensor._make(array_module_of(x._data).asarray(divisor.astype(x._data.dtype))))
    return out if batched else out.squeeze(0)


def _window_counts(size: int, out: int, kernel: int, stride: int, padding: int, include_pad: bool) -> np.ndarray:
    """How many positions each window along one axis divides by (PyTorch's rule, per axis)."""
    start = np.arange(out) * stride - padding
    end = np.minimum(start + kernel, size + padding)
    if include_pad:
        return end - start
    return np.minimum(end, size) - np.maximum(start, 0)


def adaptive_avg_pool3d(input: Tensor, output_size: Any) -> Tensor:
    """3-d adaptive average pooling of ``(N, C, D, H, W)`` or ``(C, D, H, W)``: the mean over adaptive
    windows (of the whole volume, as PyTorch takes it, for an output of size 1)."""
    if output_size == 1 or (not isinstance(output_size, int) and tuple(output_size) == (1, 1, 1)):
        _as_batched_3d("adaptive_avg_pool3d", input)
        return reductions.mean(input, (-3, -2, -1), keepdim=True)
    return _adaptive_avg_pool3d(input, output_size)


@composed_op("AdaptiveAvgPool3DBackward0", ("input",))
def _adaptive_avg_pool3d(input: Tensor, output_size: Any) -> Tensor:
    """Averages over adaptive depth windows, then ``adaptive_avg_pool2d``."""
    x, batched = _as_batched_3d("adaptive_avg_pool3d", input)
    sizes = _triple(output_size) if output_size is not None else (None,) * 3
    sizes = tuple(n if o is None else o for o, n in zip(sizes, x.shape[2:]))
    depth = x.shape[2]
    windows = [(o * depth // sizes[0], -(-(o + 1) * depth // sizes[0])) for o in range(sizes[0])]
    means = shape_ops.stack([reductions.mean(x[:, :, a:b], 2) for a, b in windows], 2)
    n, c = x.shape[:2]
    out = adaptive_avg_pool2d(_planes(means), sizes[1:]).reshape(n, c, *sizes)
    return out if batched else out.squeeze(0)


def adaptive_max_pool3d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """3-d adaptive max pooling of ``(N, C, D, H, W)`` or ``(C, D, H, W)``; indices are flat positions
    in each ``D*H*W`` volume."""
    return _adaptive_max_pool("adaptive_max_pool3d", 3, input, output_size, return_indices)


def max_unpool3d(input: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 output_size: Any = None) -> Tensor:
    """The partial inverse of a 3-d max pool: values back at their flat ``indices``, zeros elsewhere."""
    return _max_unpool("max_unpool3d", 3, input, indices, kernel_size, stride, padding, output_size)


def lp_pool3d(input: Tensor, norm_type: float, kernel_size: Any, stride: Any = None,
              ceil_mode: bool = False) -> Tensor:
    """``(sum over each window of x^p)^(1/p)`` on ``(N, C, D, H, W)``."""
    kernel = _triple(kernel_size)
    return _lp_pool((avg_pool3d, max_pool3d), input, norm_type, kernel, stride, ceil_mode, math.prod(kernel))


@composed_op("ConvolutionBackward0", ('input', 'weight', 'bias'))
@_autocast.lower_precision
def conv_transpose3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0,
                     output_padding: Any = 0, groups: int = 1, dilation: Any = 1) -> Tensor:
    """3-d transposed convolution of ``(N, C_in, D, H, W)`` or ``(C_in, D, H, W)`` with
    ``weight (C_in, C_out/groups, kD, kH, kW)``: each kernel depth ``k`` is a 2-d transposed
    convolution of every input depth slice ``d``, landing at output depth ``d*sD + k*dD - pD``.
    ``D_out = (D - 1)*sD - 2*pD + dD*(kD - 1) + output_padding_D + 1``, and likewise ``H``, ``W``."""
    x, batched = _as_batched_3d("conv_transpose3d", input)
    strides, pads, extras, dilations = _triple(stride), _triple(padding), _triple(output_padding), _triple(dilation)
    if weight.ndim != 5:
        raise RuntimeError(f"conv_transpose3d: expected weight to be 5-dimensional, but got weight of size "
                           f"{list(weight.shape)}")
    n, c, depth = x.shape[:3]
    k_depth = weight.shape[2]
    full = (depth - 1) * strides[0] + dilations[0] * (k_depth - 1) + 1 + extras[0]
    planes = shape_ops.transpose(x, 1, 2).reshape(n * depth, c, *x.shape[3:])
    out: Any = None  # the sum of the depth slices
    for k in range(k_depth):
        y = conv_transpose2d(planes, weight[:, :, k], None, strides[1:], pads[1:], extras[1:], groups, dilations[1:])
        y = y.reshape(n, depth, *y.shape[1:])
        if strides[0] > 1:  # (s - 1) zero slices after each input depth
            zeros = binary.mul(y, 0.0)
            y = shape_ops.stack([y] + [zeros] * (strides[0] - 1), 2).reshape(n, depth * strides[0], *y.shape[2:])
            y = y[:, :(depth - 1) * strides[0] + 1]
        before = k * dilations[0]
        y = pad(y, (0, 0, 0, 0, 0, 0, before, full - before - y.shape[1]))
        out = y if out is None else binary.add(out, y)
    out = shape_ops.transpose(out[:, pads[0]:full - pads[0]], 1, 2)
    if bias is not None:
        out = binary.add(out, bias.reshape(-1, 1, 1, 1))
    return out if batched else out.squeeze(0)


def _lp_pool(pools: tuple, input: Tensor, norm_type: float, kernel_size: Any, stride: Any, ceil_mode: bool,
             window: int) -> Tensor:
    """``(window * mean of x^p)^(1/p)`` by the average pool ``pools[0]`` of ``x^p`` (negative means, from
    rounding, give 0); an infinite ``p`` as PyTorch 2.13: the max pool ``pools[1]`` of ``|x|`` (the min for
    ``-inf``)."""
    average, maximum = pools
    if norm_type == math.inf:
        return maximum(unary.abs(input), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -math.inf:
        return unary.neg(maximum(unary.neg(unary.abs(input)), kernel_size, stride, 0, 1, ceil_mode))
    pooled = average(binary.pow(input, norm_type), kernel_size, stride, 0, ceil_mode)
    signed = binary.mul(unary.sign(pooled), unary.relu(unary.abs(pooled)))
    return binary.pow(binary.mul(signed, window), 1.0 / norm_type)
