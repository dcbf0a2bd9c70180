"""Registry cases for convolution and pooling, against naive loop references written from the
definitions (one output element at a time), small shapes so finite differences stay quick.

Uniform random inputs have no ties within a pooling window, so max pooling is differentiable there.
"""
from __future__ import annotations

import numpy as np

import tinyframe as tf
from tinyframe.nn import functional as nn_functional
from tinyframe.ops import activation, attention, normalization, quantization
from tinyframe.ops import convolution as conv
from tinyframe.ops import pooling as pool

from . import OpCase


def _pair(value: object, nd: int = 2) -> tuple:
    return (value,) * nd if isinstance(value, int) else tuple(value)


def _padding(padding: object, kernel: tuple, dilation: tuple) -> list:
    """(before, after) per spatial axis, 'same' putting the odd extra element after."""
    if padding == "valid":
        return [(0, 0)] * len(kernel)
    if padding == "same":
        total = [d * (k - 1) for k, d in zip(kernel, dilation)]
        return [(t // 2, t - t // 2) for t in total]
    return [(p, p) for p in _pair(padding, len(kernel))]


def conv_reference(x: np.ndarray, w: np.ndarray, b: np.ndarray | None = None, stride: object = 1,
                   padding: object = 0, dilation: object = 1, groups: int = 1) -> np.ndarray:
    """``out[n, o, *p] = b[o] + sum over o's group of channels and kernel offsets k of
    x[n, c, p*stride - padding + k*dilation] * w[o, c, k]`` for 1-d or 2-d, batched or not."""
    nd = w.ndim - 2
    unbatched = x.ndim == nd + 1
    x = x[None] if unbatched else x
    if nd == 1:
        x, w = x[:, :, None], w[:, :, None]
        stride, dilation = (1,) + _pair(stride, 1), (1,) + _pair(dilation, 1)
        pads = [(0, 0)] + _padding(padding, w.shape[3:], dilation[1:])
    else:
        stride, dilation = _pair(stride), _pair(dilation)
        pads = _padding(padding, w.shape[2:], dilation)
    x = np.pad(x, [(0, 0), (0, 0)] + pads)
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    oh = (h - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, o, oh, ow))
    for i in range(n):
        for j in range(o):
            group = j // (o // groups)
            for r in range(oh):
                for s in range(ow):
                    r0, s0 = r * stride[0], s * stride[1]
                    patch = x[i, group * cg:(group + 1) * cg, r0:r0 + dilation[0] * (kh - 1) + 1:dilation[0],
                              s0:s0 + dilation[1] * (kw - 1) + 1:dilation[1]]
                    out[i, j, r, s] = (patch * w[j]).sum() + (0.0 if b is None else b[j])
    out = out[:, :, 0] if nd == 1 else out
    return out[0] if unbatched else out


def conv_transpose_reference(x: np.ndarray, w: np.ndarray, b: np.ndarray | None = None, stride: object = 1,
                             padding: object = 0, output_padding: object = 0, groups: int = 1,
                             dilation: object = 1) -> np.ndarray:
    """Each input element scatters ``x[n, c, p] * w[c]`` onto the output at ``p*stride + k*dilation - padding``."""
    nd = w.ndim - 2
    unbatched = x.ndim == nd + 1
    x = x[None] if unbatched else x
    if nd == 1:
        x, w = x[:, :, None], w[:, :, None]
        stride, padding = (1,) + _pair(stride, 1), (0,) + _pair(padding, 1)
        output_padding, dilation = (0,) + _pair(output_padding, 1), (1,) + _pair(dilation, 1)
    else:
        stride, padding = _pair(stride), _pair(padding)
        output_padding, dilation = _pair(output_padding), _pair(dilation)
    n, c, h, wd = x.shape
    _, og, kh, kw = w.shape
    size = [(m - 1) * s - 2 * p + d * (k - 1) + q + 1 for m, s, p, d, k, q
            in zip((h, wd), stride, padding, dilation, (kh, kw), output_padding)]
    extent = [m + 2 * p + k * d for m, p, k, d in zip(size, padding, (kh, kw), dilation)]
    full = np.zeros((n, og * groups, *extent))
    for i in range(n):
        for j in range(c):
            group = j // (c // groups)
            for r in range(h):
                for s in range(wd):
                    r0, s0 = r * stride[0], s * stride[1]
                    full[i, group * og:(group + 1) * og, r0:r0 + dilation[0] * (kh - 1) + 1:dilation[0],
                         s0:s0 + dilation[1] * (kw - 1) + 1:dilation[1]] += x[i, j, r, s] * w[j]
    out = full[:, :, padding[0]:padding[0] + size[0], padding[1]:padding[1] + size[1]]
    if b is not None:
        out = out + b.reshape(-1, 1, 1)
    out = out[:, :, 0] if nd == 1 else out
    return out[0] if unbatched else out


def pool_output_size(size: int, kernel: int, stride: int, padding: int, dilation: int, ceil_mode: bool) -> int:
    """PyTorch's documented formula; in ceil mode the last window must start inside the input or left padding."""
    span = size + 2 * padding - dilation * (kernel - 1) - 1
    out = (-(-span // stride) if ceil_mode else span // stride) + 1
    if ceil_mode and (out - 1) * stride >= size + padding:
        out -= 1
    return out


def _pool_reference(x: np.ndarray, nd: int, reduce: object, kernel_size: object, stride: object, padding: object,
                    dilation: object, ceil_mode: bool) -> np.ndarray:
    """Applies ``reduce(window_values, window_positions_inside_padded, window_positions_inside_input)``."""
    unbatched = x.ndim == nd + 1
    x = x[None] if unbatched else x
    if nd == 1:
        x = x[:, :, None]
    kernel = _pair(kernel_size, nd)
    stride = kernel if stride is None else _pair(stride, nd)
    padding, dilation = _pair(padding, nd), _pair(dilation, nd)
    if nd == 1:
        kernel, stride, padding, dilation = (1,) + kernel, (1,) + stride, (0,) + padding, (1,) + dilation
    n, c, h, wd = x.shape
    out_size = [pool_output_size(m, k, s, p, d, ceil_mode)
                for m, k, s, p, d in zip((h, wd), kernel, stride, padding, dilation)]
    out = np.zeros((n, c) + tuple(out_size))
    for r in range(out_size[0]):
        for s in range(out_size[1]):
            rows = [r * stride[0] - padding[0] + i * dilation[0] for i in range(kernel[0])]
            cols = [s * stride[1] - padding[1] + j * dilation[1] for j in range(kernel[1])]
            out[:, :, r, s] = reduce(x, rows, cols, (h, wd), padding)
    out = out[:, :, 0] if nd == 1 else out
    return out[0] if unbatched else out


def max_pool_reference(x: np.ndarray, kernel_size: object, stride: object = None, padding: object = 0,
                       dilation: object = 1, ceil_mode: bool = False, nd: int = 2) -> np.ndarray:
    def window_max(x: np.ndarray, rows: list, cols: list, size: tuple, pad: tuple) -> np.ndarray:
        rows = [i for i in rows if 0 <= i < size[0]]
        cols = [j for j in cols if 0 <= j < size[1]]
        return x[:, :, rows][:, :, :, cols].max(axis=(2, 3))
    return _pool_reference(x, nd, window_max, kernel_size, stride, padding, dilation, ceil_mode)


def avg_pool_reference(x: np.ndarray, kernel_size: object, stride: object = None, padding: object = 0,
                       ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: int | None = None,
                       nd: int = 2) -> np.ndarray:
    def window_mean(x: np.ndarray, rows: list, cols: list, size: tuple, pad: tuple) -> np.ndarray:
        inside_rows = [i for i in rows if 0 <= i < size[0]]
        inside_cols = [j for j in cols if 0 <= j < size[1]]
        total = x[:, :, inside_rows][:, :, :, inside_cols].sum(axis=(2, 3))
        if divisor_override is not None:
            return total / divisor_override
        if count_include_pad:  # positions inside the padded input (not past it, in ceil mode)
            count = (len([i for i in rows if i < size[0] + pad[0]]) * len([j for j in cols if j < size[1] + pad[1]]))
        else:
            count = len(inside_rows) * len(inside_cols)
        return total / count
    return _pool_reference(x, nd, window_mean, kernel_size, stride, padding, 1, ceil_mode)


def adaptive_avg_pool_reference(x: np.ndarray, output_size: object, nd: int = 2) -> np.ndarray:
    sizes = _pair(output_size, nd)
    sizes = tuple(m if o is None else o for o, m in zip(sizes, x.shape[-nd:]))
    if nd == 1:
        x, sizes = x[..., None, :], (1,) + sizes
    h, w = x.shape[-2:]
    out = np.zeros(x.shape[:-2] + sizes)
    for r in range(sizes[0]):
        for s in range(sizes[1]):
            r0, r1 = r * h // sizes[0], -(-(r + 1) * h // sizes[0])
            s0, s1 = s * w // sizes[1], -(-(s + 1) * w // sizes[1])
            out[..., r, s] = x[..., r0:r1, s0:s1].mean(axis=(-2, -1))
    return out[..., 0, :] if nd == 1 else out


CASES: list[OpCase] = [
    OpCase("conv2d", conv.conv2d, conv_reference, [(2, 3, 5, 5), (4, 3, 3, 3), (4,)]),
    OpCase("conv2d_stride_padding", lambda x, w, b: conv.conv2d(x, w, b, stride=2, padding=1),
           lambda x, w, b: conv_reference(x, w, b, stride=2, padding=1), [(2, 2, 6, 5), (3, 2, 3, 2), (3,)]),
    OpCase("conv2d_dilation_tuples", lambda x, w: conv.conv2d(x, w, stride=(2, 1), padding=(1, 2), dilation=(2, 1)),
           lambda x, w: conv_reference(x, w, stride=(2, 1), padding=(1, 2), dilation=(2, 1)),
           [(2, 2, 6, 5), (3, 2, 2, 3)]),
    OpCase("conv2d_groups", lambda x, w, b: conv.conv2d(x, w, b, padding=1, groups=2),
           lambda x, w, b: conv_reference(x, w, b, padding=1, groups=2), [(2, 4, 5, 5), (6, 2, 3, 3), (6,)]),
    OpCase("conv2d_depthwise", lambda x, w: conv.conv2d(x, w, groups=3),
           lambda x, w: conv_reference(x, w, groups=3), [(2, 3, 5, 5), (3, 1, 3, 3)]),
    OpCase("conv2d_same_even_kernel", lambda x, w, b: conv.conv2d(x, w, b, padding="same"),
           lambda x, w, b: conv_reference(x, w, b, padding="same"), [(2, 2, 5, 6), (3, 2, 2, 3), (3,)]),
    OpCase("conv2d_same_dilated", lambda x, w: conv.conv2d(x, w, padding="same", dilation=2),
           lambda x, w: conv_reference(x, w, padding="same", dilation=2), [(2, 2, 5, 5), (2, 2, 3, 3)]),
    OpCase("conv2d_valid_unbatched", lambda x, w, b: conv.conv2d(x, w, b, padding="valid"),
           conv_reference, [(3, 5, 6), (2, 3, 3, 3), (2,)]),
    OpCase("conv1d", lambda x, w, b: conv.conv1d(x, w, b, stride=2, padding=1, dilation=2),
           lambda x, w, b: conv_reference(x, w, b, stride=2, padding=1, dilation=2), [(2, 3, 9), (4, 3, 3), (4,)]),
    OpCase("conv1d_same_unbatched", lambda x, w: conv.conv1d(x, w, padding="same"),
           lambda x, w: conv_reference(x, w, padding="same"), [(3, 7), (2, 3, 4)]),
    OpCase("conv_transpose2d", lambda x, w, b: conv.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1),
           lambda x, w, b: conv_transpose_reference(x, w, b, stride=2, padding=1, output_padding=1),
           [(2, 3, 4, 4), (3, 2, 3, 3), (2,)]),
    OpCase("conv_transpose2d_groups_dilation",
           lambda x, w: conv.conv_transpose2d(x, w, stride=(2, 1), padding=(0, 1), output_padding=(1, 0), groups=2,
                                              dilation=(1, 2)),
           lambda x, w: conv_transpose_reference(x, w, stride=(2, 1), padding=(0, 1), output_padding=(1, 0), groups=2,
                                                 dilation=(1, 2)),
           [(2, 4, 3, 4), (4, 1, 2, 3)]),
    OpCase("conv_transpose1d", lambda x, w, b: conv.conv_transpose1d(x, w, b, stride=3, padding=1, output_padding=2),
           lambda x, w, b: conv_transpose_reference(x, w, b, stride=3, padding=1, output_padding=2),
           [(2, 3, 4), (3, 2, 3), (2,)]),
    # the input gradient of a stride-1 convolution is itself a convolution where _by_convolution
    # allows, else col2im: each side of its three conditions
    OpCase("conv2d_many_output_channels", lambda x, w: conv.conv2d(x, w, padding=1),
           lambda x, w: conv_reference(x, w, padding=1), [(2, 1, 5, 4), (3, 1, 3, 3)]),
    OpCase("conv2d_wide_padding", lambda x, w: conv.conv2d(x, w, padding=(3, 1), dilation=(1, 2)),
           lambda x, w: conv_reference(x, w, padding=(3, 1), dilation=(1, 2)), [(2, 2, 4, 5), (3, 2, 3, 2)]),
    OpCase("conv_transpose2d_stride1_groups",
           lambda x, w, b: conv.conv_transpose2d(x, w, b, padding=(1, 0), groups=2, dilation=(2, 1)),
           lambda x, w, b: conv_transpose_reference(x, w, b, padding=(1, 0), groups=2, dilation=(2, 1)),
           [(2, 4, 3, 4), (4, 3, 2, 3), (6,)]),
    OpCase("max_pool2d", lambda x: pool.max_pool2d(x, 2), lambda x: max_pool_reference(x, 2), [(2, 3, 6, 6)]),
    OpCase("max_pool2d_stride_padding", lambda x: pool.max_pool2d(x, 3, stride=2, padding=1),
           lambda x: max_pool_reference(x, 3, 2, 1), [(2, 2, 6, 5)]),
    OpCase("max_pool2d_overlapping", lambda x: pool.max_pool2d(x, 3, stride=1, padding=1),
           lambda x: max_pool_reference(x, 3, 1, 1), [(2, 2, 5, 5)]),
    OpCase("max_pool2d_ceil_dilation",
           lambda x: pool.max_pool2d(x, (3, 2), stride=(2, 1), padding=1, dilation=(2, 1), ceil_mode=True),
           lambda x: max_pool_reference(x, (3, 2), (2, 1), 1, (2, 1), ceil_mode=True), [(2, 2, 6, 5)]),
    OpCase("max_pool2d_one_wide_strided", lambda x: pool.max_pool2d(x, (3, 1), stride=2, padding=(1, 0)),
           lambda x: max_pool_reference(x, (3, 1), 2, (1, 0)), [(2, 2, 6, 5)]),
    OpCase("max_pool2d_ceil_unbatched", lambda x: pool.max_pool2d(x, 2, ceil_mode=True),
           lambda x: max_pool_reference(x, 2, ceil_mode=True), [(3, 5, 5)]),
    OpCase("max_pool1d", lambda x: pool.max_pool1d(x, 3, stride=2, padding=1),
           lambda x: max_pool_reference(x, 3, 2, 1, nd=1), [(2, 3, 8)]),
    OpCase("avg_pool2d", lambda x: pool.avg_pool2d(x, 2), lambda x: avg_pool_reference(x, 2), [(2, 3, 6, 6)]),
    OpCase("avg_pool2d_padding_ceil", lambda x: pool.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True),
           lambda x: avg_pool_reference(x, 3, 2, 1, ceil_mode=True), [(2, 2, 6, 5)]),
    OpCase("avg_pool2d_exclude_pad",
           lambda x: pool.avg_pool2d(x, (2, 3), stride=2, padding=1, ceil_mode=True, count_include_pad=False),
           lambda x: avg_pool_reference(x, (2, 3), 2, 1, ceil_mode=True, count_include_pad=False), [(2, 2, 5, 6)]),
    OpCase("avg_pool2d_divisor_override", lambda x: pool.avg_pool2d(x, (2, 3), stride=(1, 2), divisor_override=5),
           lambda x: avg_pool_reference(x, (2, 3), (1, 2), divisor_override=5), [(3, 5, 6)]),
    OpCase("avg_pool1d", lambda x: pool.avg_pool1d(x, 3, stride=2, padding=1, count_include_pad=False),
           lambda x: avg_pool_reference(x, 3, 2, 1, count_include_pad=False, nd=1), [(2, 3, 7)]),
    OpCase("adaptive_avg_pool2d", lambda x: pool.adaptive_avg_pool2d(x, 3),
           lambda x: adaptive_avg_pool_reference(x, 3), [(2, 3, 6, 6)]),
    OpCase("adaptive_avg_pool2d_uneven", lambda x: pool.adaptive_avg_pool2d(x, (3, 4)),
           lambda x: adaptive_avg_pool_reference(x, (3, 4)), [(2, 2, 7, 5)]),
    OpCase("adaptive_avg_pool2d_none_unbatched", lambda x: pool.adaptive_avg_pool2d(x, (None, 1)),
           lambda x: adaptive_avg_pool_reference(x, (None, 1)), [(2, 5, 6)]),
    OpCase("adaptive_avg_pool1d", lambda x: pool.adaptive_avg_pool1d(x, 3),
           lambda x: adaptive_avg_pool_reference(x, 3, nd=1), [(2, 3, 7)]),
]


def _softplus(x: np.ndarray) -> np.ndarray:
    return np.logaddexp(0.0, x)


CASES += [
    OpCase("mish", activation.mish, lambda x: x * np.tanh(_softplus(x)), [(3, 4)], domain=(-4.0, 4.0)),
    OpCase("hardswish", activation.hardswish, lambda x: x * np.clip(x + 3, 0, 6) / 6, [(3, 5)], domain=(-5.0, 5.0)),
    # (PyTorch's hardsigmoid has no second derivative: its gradient's node is NotImplemented)
    OpCase("hardsigmoid", activation.hardsigmoid, lambda x: np.clip(x + 3, 0, 6) / 6, [(3, 5)], domain=(-5.0, 5.0),
           second_order=False),
    OpCase("glu", lambda x: activation.glu(x, 0), lambda x: x[:2] / (1 + np.exp(-x[2:])), [(4, 3)]),
    OpCase("threshold", lambda x: activation.threshold(x, 0.5, -2.0), lambda x: np.where(x > 0.5, x, -2.0), [(3, 4)]),
    OpCase("hardshrink", lambda x: activation.hardshrink(x, 0.5), lambda x: np.where(np.abs(x) > 0.5, x, 0.0),
           [(3, 4)]),
    OpCase("softshrink", lambda x: activation.softshrink(x, 0.5),
           lambda x: np.where(np.abs(x) > 0.5, x - 0.5 * np.sign(x), 0.0), [(3, 4)]),
    OpCase("rrelu_with_noise", lambda x: activation.rrelu_with_noise(x, 0.2), lambda x: np.where(x > 0, x, 0.2 * x),
           [(3, 4)]),
    # piecewise constant: finite differences cannot check the straight-through gradient (tests/test_quantization.py)
    OpCase("fake_quantize_per_tensor_affine",
           lambda x: quantization.fake_quantize_per_tensor_affine(x, 0.25, 1, -4, 3),
           lambda x: (np.clip(np.rint(x * 4) + 1, -4, 3) - 1) * 0.25, [(3, 4)], grad=False),
    OpCase("fake_quantize_per_channel_affine",
           lambda x: quantization.fake_quantize_per_channel_affine(
               x, tf.tensor([0.5, 0.25, 0.125]), tf.tensor([0, 1, -2], dtype=tf.int32), 0, -4, 3),
           lambda x: (np.clip(np.rint(x / [[0.5], [0.25], [0.125]]) + [[0], [1], [-2]], -4, 3)
                      - [[0], [1], [-2]]) * [[0.5], [0.25], [0.125]], [(3, 4)], grad=False),
]


SAMPLES_2D = np.array([[[0.70, 0.12], [0.25, 0.93]], [[0.05, 0.55], [0.81, 0.33]]])
SAMPLES_3D = np.array([[[0.70, 0.12, 0.44], [0.25, 0.93, 0.61]]])


def _starts(sample: float, size: int, out: int, kernel: int) -> list:
    """PyTorch's ``generate_intervals``, one start at a time."""
    alpha = (size - kernel) / (out - 1) if out > 1 else 0.0
    return [int((i + sample) * alpha) - int(sample * alpha) for i in range(out - 1)] + [size - kernel]


def fractional_max_pool_reference(x: np.ndarray, kernel: tuple, out: tuple, samples: np.ndarray) -> np.ndarray:
    """The max over each window, its starts from the plane's samples (2-d: (W, H); 3-d: (T, H, W))."""
    nd = len(kernel)
    result = np.empty(x.shape[:2] + tuple(out))
    for n, c in np.ndindex(*x.shape[:2]):
        order = samples[n, c][::-1] if nd == 2 else samples[n, c]
        starts = [_starts(u, size, o, k) for u, size, o, k in zip(order, x.shape[2:], out, kernel)]
        for cell in np.ndindex(*out):
            window = tuple(slice(s[i], s[i] + k) for s, i, k in zip(starts, cell, kernel))
            result[(n, c) + cell] = x[(n, c) + window].max()
    return result


def _fractional(nd: int, kernel: tuple, out: tuple, samples: np.ndarray):
    pool = nn_functional.fractional_max_pool2d if nd == 2 else nn_functional.fractional_max_pool3d

    def fn(x):
        return pool(x, kernel, output_size=out, _random_samples=x.new_tensor(samples))
    return fn


CASES += [
    OpCase("fractional_max_pool2d", _fractional(2, (2, 3), (3, 4), SAMPLES_2D),
           lambda x: fractional_max_pool_reference(x, (2, 3), (3, 4), SAMPLES_2D), [(2, 2, 6, 7)]),
    OpCase("fractional_max_pool3d", _fractional(3, (2, 2, 2), (2, 3, 2), SAMPLES_3D),
           lambda x: fractional_max_pool_reference(x, (2, 2, 2), (2, 3, 2), SAMPLES_3D), [(1, 2, 4, 5, 4)]),
]


def _attention_reference(q: np.ndarray, k: np.ndarray, v: np.ndarray, bias: np.ndarray | float = 0.0,
                         scale: float = 0.5) -> np.ndarray:
    scores = q @ np.swapaxes(k, -1, -2) * scale + bias
    e = np.exp(scores - scores.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True) @ v


_BIAS = np.array([[0.0, -1.0, 0.5], [1.0, 0.0, -np.inf]])

CASES += [
    OpCase("flash_attention", lambda q, k, v: attention.FlashAttention.apply(q, k, v, bias=None, scale=0.5),
           _attention_reference, [(1, 2, 2, 4), (1, 2, 3, 4), (1, 2, 3, 4)]),
    OpCase("flash_attention_bias",  # the bias on the inputs' device, with a -inf (a masked key)
           lambda q, k, v: attention.FlashAttention.apply(
               q, k, v, bias=tf.tensor(_BIAS, dtype=q.dtype, device=q.device)._data, scale=0.5),
           lambda q, k, v: _attention_reference(q, k, v, _BIAS), [(2, 1, 2, 4), (2, 1, 3, 4), (2, 1, 3, 4)]),
]


def conv_tbc_reference(x: np.ndarray, w: np.ndarray, b: np.ndarray, pad: int = 0) -> np.ndarray:
    """``out[t, n, o] = b[o] + sum_{k, c} x[t + k - pad, n, c] * w[k, c, o]``, zeros outside ``x``."""
    steps, kernel = x.shape[0], w.shape[0]
    out = np.tile(b, (steps + 2 * pad - kernel + 1, x.shape[1], 1))
    for t in range(out.shape[0]):
        for k in range(kernel):
            if 0 <= t + k - pad < steps:
                out[t] += x[t + k - pad] @ w[k]
    return out


def cross_map_lrn2d_one_channel(x: np.ndarray, size: int = 3, alpha: float = 0.5, beta: float = 0.75,
                                k: float = 1.5) -> np.ndarray:
    """``x * (k + alpha / size * x^2)^-beta``: with one channel PyTorch's windows are the channel itself,
    so its backward is the forward's derivative (with more channels they differ, see ``CrossMapLRN2d``)."""
    return x * (k + alpha / size * x * x) ** -beta


CASES += [
    OpCase("conv_tbc", conv.conv_tbc, conv_tbc_reference, [(5, 2, 3), (3, 3, 4), (4,)]),
    OpCase("conv_tbc_pad", lambda x, w, b: conv.conv_tbc(x, w, b, 2),
           lambda x, w, b: conv_tbc_reference(x, w, b, 2), [(4, 2, 2), (3, 2, 3), (3,)]),
    OpCase("conv_tbc_negative_pad_crops", lambda x, w, b: conv.conv_tbc(x, w, b, -1),
           lambda x, w, b: conv_tbc_reference(x[1:-1], w, b), [(6, 1, 2), (2, 2, 3), (3,)]),
    OpCase("cross_map_lrn2d_one_channel", lambda x: normalization.cross_map_lrn2d(x, 3, 0.5, 0.75, 1.5),
           cross_map_lrn2d_one_channel, [(2, 1, 3, 2)]),
]


_BAG_IDS, _BAG_OFFSETS = [1, 2, 4, 5, 4, 3, 2, 0, 5], [0, 2, 2, 5]


def embedding_bag_reference(weight: np.ndarray, per_sample_weights: np.ndarray | None = None, mode: str = "sum",
                            padding_idx: int | None = None) -> np.ndarray:
    """Each bag ``ids[offsets[b]:offsets[b+1]]``'s rows of ``weight`` (scaled by ``per_sample_weights``)
    reduced by ``mode``, ``padding_idx`` left out; zeros for an empty bag."""
    bounds = [*_BAG_OFFSETS, len(_BAG_IDS)]
    out = np.zeros((len(_BAG_OFFSETS), weight.shape[1]))
    for b, (start, end) in enumerate(zip(bounds, bounds[1:])):
        ids = np.array(_BAG_IDS[start:end], dtype=int)
        scales = np.ones(len(ids)) if per_sample_weights is None else per_sample_weights[start:end]
        rows = (weight[ids] * scales[:, None])[ids != padding_idx]
        if len(rows):
            out[b] = {"sum": rows.sum(0), "mean": rows.mean(0), "max": rows.max(0)}[mode]
    return out


def _bag(mode: str, **options: object) -> object:
    return lambda w, *psw: nn_functional.embedding_bag(tf.tensor(_BAG_IDS), w, tf.tensor(_BAG_OFFSETS), mode=mode,
                                                       per_sample_weights=psw[0] if psw else None, **options)


CASES += [
    OpCase("embedding_bag_sum_weights", _bag("sum"), embedding_bag_reference, [(6, 3), (9,)]),
    OpCase("embedding_bag_mean_padding", _bag("mean", padding_idx=2),
           lambda w: embedding_bag_reference(w, mode="mean", padding_idx=2), [(6, 3)]),
    OpCase("embedding_bag_max", _bag("max"), lambda w: embedding_bag_reference(w, mode="max"), [(6, 3)]),
]
