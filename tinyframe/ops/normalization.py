"""Normalization: ``batch_norm``, ``layer_norm``, ``group_norm`` (one fused op each) and ``rms_norm``.

Each fused op normalises ``x`` over some axes, ``xhat = (x - mean) / sqrt(var + eps)`` with the
biased variance, then applies the affine map ``y = xhat * weight + bias``. Composed of about fifteen
small ops the step is bound by per-op overhead and temporaries; fused, the forward is two passes
over ``x`` for the statistics and two for the output, and the backward is the closed form

    gx = invstd * (gh - mean(gh) - xhat * mean(gh * xhat)),   gh = g * weight

with the means over the normalised axes. The statistics are saved as constants; when the backward
pass is recorded (``create_graph=True``) they are recomputed from ``x`` with the same formula on
Tensors, so the gradient flows through them and higher-order derivatives follow.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, dtypes
from .._graph import Op
from . import binary, reduction, unary

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["batch_norm", "layer_norm", "group_norm", "rms_norm", "cross_map_lrn2d"]


def _invstd(xp: Any, var: Any, eps: float) -> Any:
    return 1.0 / xp.sqrt(var + eps)


def _channel_dot(xp: Any, a: Any, b: Any) -> Any:
    """``sum(a * b)`` over every axis but 1, for ``(N, C, *)`` arrays, without a temporary."""
    n, c = a.shape[:2]
    return xp.einsum("ncl,ncl->c", a.reshape(n, c, -1), b.reshape(n, c, -1))


def _channel_sum(xp: Any, a: Any) -> Any:
    n, c = a.shape[:2]
    return xp.einsum("ncl->c", a.reshape(n, c, -1))


def _statistics(xp: Any, x: Any, axes: tuple, eps: float) -> tuple:
    """``(x - mean, invstd)`` over ``axes`` (kept), with the biased variance; arrays or Tensors."""
    centered = x - xp.mean(x, axes, keepdims=True)
    return centered, _invstd(xp, xp.mean(centered * centered, axes, keepdims=True), eps)


def _affine(xhat: Any, weight: Any, bias: Any, shape: tuple) -> Any:
    """``xhat * weight + bias`` with the per-channel vectors seen in ``shape`` (either may be None)."""
    if weight is not None:
        xhat = xhat * weight.reshape(shape)
    return xhat if bias is None else xhat + bias.reshape(shape)


class NativeBatchNorm(Op):
    """Per-channel normalisation of ``x (N, C, *)``: batch statistics (``training``) or running ones."""

    keeps_input_dtype = True
    suggests_format = True

    @staticmethod
    def forward(ctx: NativeBatchNorm, x: Any, weight: Any = None, bias: Any = None, *, training: bool,
                running_mean: Any, running_var: Any, momentum: float, eps: float) -> Any:
        xp = ctx.xp
        ctx.training, ctx.eps = training, eps
        channels = (-1,) + (1,) * (x.ndim - 2)
        if training:
            count = x.size // x.shape[1]
            # Accumulated in float64: a float32 sum over N*H*W elements loses digits the centring needs.
            total = x.sum(axis=(0, *range(2, x.ndim)), keepdims=True, dtype=xp.float64)
            mean = (total / count).astype(x.dtype)
            out = x - mean
            var = _channel_dot(xp, out, out) / count
            if running_mean is not None:  # the running variance tracks the unbiased estimate, as in PyTorch
                running_mean *= 1.0 - momentum
                running_mean += (momentum * mean.reshape(-1)).astype(running_mean.dtype, copy=False)
            if running_var is not None:
                running_var *= 1.0 - momentum
                running_var += (momentum * count / max(count - 1, 1) * var).astype(running_var.dtype, copy=False)
            invstd = _invstd(xp, var, eps).astype(x.dtype, copy=False)
        else:
            mean = running_mean.astype(x.dtype).reshape(channels)  # a copy: the buffer may change later
            out = x - mean
            invstd = _invstd(xp, running_var.astype(x.dtype, copy=False), eps)
        scale = invstd if weight is None else invstd * weight
        out *= scale.reshape(channels)
        if bias is not None:
            out += bias.reshape(channels)
        ctx.save_for_backward(x, weight, bias, mean, invstd)
        return out

    @staticmethod
    def compose(ctx: NativeBatchNorm) -> tuple:
        """The inputs and the output from recordable ops, for a recorded backward pass (the engine
        differentiates it): batch statistics recomputed from ``x``, running ones as constants."""
        x, weight, bias, mean, invstd = ctx.saved_tensors
        xp = ctx.xp
        channels = (-1,) + (1,) * (x.ndim - 2)
        if ctx.training:
            centered, invstd = _statistics(xp, x, (0, *range(2, x.ndim)), ctx.eps)
        else:
            centered, invstd = x - xp.asarray(mean), xp.asarray(invstd.reshape(channels))
        return (x, weight, bias), _affine(centered * invstd, weight, bias, channels)

    @staticmethod
    def backward(ctx: NativeBatchNorm, g: Any) -> tuple:
        x, weight, _, mean, invstd = ctx.saved_tensors
        needs_x, needs_weight, needs_bias = ctx.needs_input_grad
        xp = ctx.xp
        channels = (-1,) + (1,) * (x.ndim - 2)
        centered = x - mean
        grad_bias = _channel_sum(xp, g) if needs_bias or (needs_x and ctx.training) else None
        dot = _channel_dot(xp, g, centered) if needs_weight or (needs_x and ctx.training) else None
        gx = None
        if needs_x:
            scale = invstd if weight is None else invstd * weight
            gx = g * scale.reshape(channels)
            if ctx.training:
                count = x.size // x.shape[1]
                gx -= (scale * grad_bias / count).reshape(channels)
                centered *= (scale * dot * invstd * invstd / count).reshape(channels)
                gx -= centered
        return gx, dot * invstd if needs_weight else None, grad_bias if needs_bias else None


def _normalize_rows(xp: Any, rows: Any, eps: float) -> tuple:
    """``(xhat, mean, invstd)`` of each row of a 2-D array (statistics kept as ``(M, 1)``)."""
    mean = rows.sum(axis=1, keepdims=True) / rows.shape[1]  # sum, not mean: NumPy's mean is Python-level
    xhat = rows - mean
    invstd = _invstd(xp, xp.einsum("md,md->m", xhat, xhat).reshape(-1, 1) / rows.shape[1], eps)
    xhat *= invstd
    return xhat, mean, invstd


def _rows_backward(ctx: Op, x_rows: Any, mean: Any, invstd: Any, gh: Any) -> tuple:
    """``(xhat, gx)`` for rows normalised over their last axis, given ``gh()``, the gradient with
    respect to ``xhat`` (``gx`` is None when ``gh`` is: the input needs no gradient)."""
    xp = ctx.xp
    xhat = x_rows - mean
    xhat *= invstd
    if gh is None:
        return xhat, None
    grad_hat = gh()
    size = grad_hat.shape[1]
    gx = grad_hat - (xp.einsum("md->m", grad_hat) / size).reshape(-1, 1)
    projection = xhat * (xp.einsum("md,md->m", grad_hat, xhat) / size).reshape(-1, 1)
    gx -= projection
    gx *= invstd
    return xhat, gx


class NativeLayerNorm(Op):
    """Normalisation of each row of ``x (M, D)`` (the input seen with its normalised dims flattened)."""

    keeps_input_dtype = True

    @staticmethod
    def forward(ctx: NativeLayerNorm, x: Any, weight: Any = None, bias: Any = None, *, rows: tuple,
                normalized: tuple, eps: float) -> Any:
        ctx.rows, ctx.normalized, ctx.eps = rows, normalized, eps
        out, mean, invstd = _normalize_rows(ctx.xp, x.reshape(rows), eps)
        if weight is not None:
            out *= weight.reshape(-1)
        if bias is not None:
            out += bias.reshape(-1)
        ctx.save_for_backward(x, weight, bias, mean, invstd)
        return out.reshape(x.shape)

    @staticmethod
    def compose(ctx: NativeLayerNorm) -> tuple:
        """The inputs and the output from recordable ops, for a recorded backward pass."""
        x, weight, bias = ctx.saved_tensors[:3]
        centered, invstd = _statistics(ctx.xp, x.reshape(ctx.rows), (1,), ctx.eps)
        return (x, weight, bias), _affine(centered * invstd, weight, bias, (-1,)).reshape(x.shape)

    @staticmethod
    def backward(ctx: NativeLayerNorm, g: Any) -> tuple:
        x, weight, _, mean, invstd = ctx.saved_tensors
        xp = ctx.xp
        g2 = g.reshape(ctx.rows)
        needs_x, needs_weight, needs_bias = ctx.needs_input_grad
        xhat, gx = _rows_backward(ctx, x.reshape(ctx.rows), mean, invstd,
                                  (lambda: g2 if weight is None else g2 * weight.reshape((-1,))) if needs_x else None)
        gw = _sum_of_product(ctx, g2, xhat, (0,), "md,md->d").reshape(ctx.normalized) if needs_weight else None
        gb = xp.sum(g2, 0).reshape(ctx.normalized) if needs_bias else None
        return gx.reshape(x.shape) if gx is not None else None, gw, gb


def _sum_of_product(ctx: Op, a: Any, b: Any, axes: tuple, spec: str) -> Any:
    """``sum(a * b)`` over ``axes`` as one einsum, without the temporary product."""
    return ctx.xp.einsum(spec, a, b)


class NativeGroupNorm(Op):
    """Normalisation of ``x (N, C, *)`` over each group of ``C / G`` channels; affine per channel."""

    keeps_input_dtype = True
    suggests_format = True

    @staticmethod
    def forward(ctx: NativeGroupNorm, x: Any, weight: Any = None, bias: Any = None, *, groups: int,
                eps: float) -> Any:
        ctx.groups, ctx.eps = groups, eps
        n, c = x.shape[:2]
        spatial = math.prod(x.shape[2:])  # (not -1 in the reshapes: an empty batch leaves it ambiguous)
        out, mean, invstd = _normalize_rows(ctx.xp, x.reshape(n * groups, c // groups * spatial), eps)
        out = out.reshape(n, c, spatial)
        if weight is not None:
            out *= weight.reshape(-1, 1)
        if bias is not None:
            out += bias.reshape(-1, 1)
        ctx.save_for_backward(x, weight, bias, mean, invstd)
        return out.reshape(x.shape)

    @staticmethod
    def compose(ctx: NativeGroupNorm) -> tuple:
        """The inputs and the output from recordable ops, for a recorded backward pass."""
        x, weight, bias = ctx.saved_tensors[:3]
        n, c = x.shape[:2]
        centered, invstd = _statistics(ctx.xp, x.reshape((n * ctx.groups, -1)), (1,), ctx.eps)
        xhat = (centered * invstd).reshape((n, c, -1))
        return (x, weight, bias), _affine(xhat, weight, bias, (-1, 1)).reshape(x.shape)

    @staticmethod
    def backward(ctx: NativeGroupNorm, g: Any) -> tuple:
        x, weight, _, mean, invstd = ctx.saved_tensors
        xp = ctx.xp
        n, c = x.shape[:2]
        rows, channels = (n * ctx.groups, -1), (n, c, -1)
        g3 = g.reshape(channels)
        needs_x, needs_weight, needs_bias = ctx.needs_input_grad
        xhat, gx = _rows_backward(ctx, x.reshape(rows), mean, invstd,
                                  (lambda: (g3 if weight is None else g3 * weight.reshape((-1, 1))).reshape(rows))
                                  if needs_x else None)
        gw = _sum_of_product(ctx, g3, xhat.reshape(channels), (0, 2), "ncs,ncs->c") if needs_weight else None
        gb = xp.sum(g3, (0, 2)) if needs_bias else None
        return gx.reshape(x.shape) if gx is not None else None, gw, gb


# ------------------------------------------------------------------ checks

def _require_float(kernel: str, input: Tensor) -> None:
    if not isinstance(input, _graph.Tensor):
        raise TypeError(f"{kernel}(): argument 'input' must be Tensor, not {type(input).__name__}")
    dtypes.check_kernel(kernel, input.dtype, "f")


def _check_parameter_dtypes(input: Tensor, *parameters: Tensor | None) -> None:
    """PyTorch refuses weights, biases and running statistics of another dtype than the input
    instead of promoting, in the words of its CPU kernels; but a bfloat16 or float16 input takes
    float32 ones (mixed precision, the result in the input's dtype)."""
    given = [p for p in parameters if p is not None]
    reduced = input.dtype in (dtypes.bfloat16, dtypes.float16)
    if reduced and all(p.dtype == dtypes.float32 for p in given):
        return
    for parameter in given:
        if parameter.dtype != input.dtype:
            kernel = input.device.type.upper()
            if input.dtype == dtypes.float32 or reduced:
                raise RuntimeError(f"mixed dtype ({kernel}): expect parameter to have scalar type of Float")
            raise RuntimeError(f"mixed dtype ({kernel}): all inputs must share same datatype.")


# ------------------------------------------------------------------ public functions

def _empty_batch_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None) -> Tensor:
    out = input.clone()
    if weight is not None:
        out = binary.mul(out, weight[0])
    return out if bias is None else binary.add(out, bias[0])


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None, weight: Tensor | None = None,
               bias: Tensor | None = None, training: bool = False, momentum: float = 0.1,
               eps: float = 1e-5) -> Tensor:
    """Batch normalisation of ``input (N, C, *)`` per channel ``c``:
    ``y = (x - E[x]) / sqrt(Var[x] + eps) * weight[c] + bias[c]``.

    ``training=True`` uses the statistics of this batch (over ``N`` and ``*``; biased variance)
    and updates the running statistics in place when given:
    ``running = (1 - momentum) * running + momentum * batch_stat``, with the *unbiased* batch
    variance for ``running_var``. ``training=False`` normalises with ``running_mean`` and
    ``running_var``.
    """
    _require_float("batch_norm", input)
    if input.ndim < 2:
        raise IndexError(f"Dimension out of range (expected to be in range of [-{max(input.ndim, 1)}, "
                         f"{max(input.ndim, 1) - 1}], but got 1)")
    shape = tuple(input.shape)
    if training:
        if math.prod(shape) // shape[1] == 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input size "
                             f"tinyframe.Size({list(shape)})")
        if eps <= 0.0:
            raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    elif eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    elif running_mean is None or running_var is None:
        raise RuntimeError(f"{'running_mean' if running_mean is None else 'running_var'} must be defined in "
                           "evaluation mode")
    channels = shape[1]
    for name, tensor in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                         ("bias", bias)):
        if tensor is not None and tensor.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {tensor.numel()}")
    _check_parameter_dtypes(input, weight, bias, running_mean, running_var)
    if input.numel() == 0:  # PyTorch's answer for an empty batch: a copy, scaled and shifted by the first channel's
        return _empty_batch_norm(input, weight, bias)
    update = training and running_mean is not None
    out = NativeBatchNorm.apply(input, weight, bias, training=training,
                                running_mean=running_mean._data if running_mean is not None else None,
                                running_var=running_var._data if running_var is not None else None,
                                momentum=momentum if update else 0.0, eps=eps)
    if update and running_mean is not None:
        running_mean._bump_version()
        if running_var is not None:
            running_var._bump_version()
    return out


def _normalized_shape(normalized_shape: Any) -> tuple:
    if isinstance(normalized_shape, int):
        return (normalized_shape,)
    return tuple(int(n) for n in normalized_shape)


def layer_norm(input: Tensor, normalized_shape: Sequence[int] | int, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Layer normalisation over the last ``len(normalized_shape)`` dimensions:
    ``y = (x - E[x]) / sqrt(Var[x] + eps) * weight + bias`` (biased variance), with ``weight`` and
    ``bias`` of shape ``normalized_shape``."""
    _require_float("LayerNormKernelImpl", input)
    normalized = _normalized_shape(normalized_shape)
    shape = tuple(input.shape)
    k = len(normalized)
    if k == 0 or len(shape) < k or shape[len(shape) - k:] != normalized:
        raise RuntimeError(f"Given normalized_shape={list(normalized)}, expected input with shape "
                           f"[*, {', '.join(str(n) for n in normalized)}], but got input of size{list(shape)}")
    for name, tensor in (("weight", weight), ("bias", bias)):
        if tensor is not None and tuple(tensor.shape) != normalized:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                               f"{list(tensor.shape)} and normalized_shape = {list(normalized)}")
    _check_parameter_dtypes(input, weight, bias)
    size = math.prod(normalized)
    return NativeLayerNorm.apply(input, weight, bias, rows=(math.prod(shape) // size if size else 0, size),
                                 normalized=normalized, eps=eps)


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-5) -> Tensor:
    """Group normalisation of ``input (N, C, *)``: the channels split into ``num_groups`` groups, each
    normalised over its channels and ``*``; then ``y = xhat * weight[c] + bias[c]``."""
    _require_float("GroupNormKernelImpl", input)
    shape = tuple(input.shape)
    if len(shape) < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {len(shape)}")
    channels = shape[1]
    if num_groups <= 0 or channels % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input "
                           f"of shape {list(shape)} and num_groups={num_groups}")
    if shape[0] * channels // num_groups * math.prod(shape[2:]) == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size "
                         f"{[shape[0] * channels // num_groups, num_groups, *shape[2:]]}")
    for name, tensor in (("weight", weight), ("bias", bias)):
        if tensor is not None and (tensor.ndim != 1 or tensor.numel() != channels):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of channels in input, "
                               f"but got {name} of shape {list(tensor.shape)} and input of shape {list(shape)}")
    _check_parameter_dtypes(input, weight, bias)
    return NativeGroupNorm.apply(input, weight, bias, groups=num_groups, eps=eps)


def rms_norm(input: Tensor, normalized_shape: Sequence[int] | int, weight: Tensor | None = None,
             eps: float | None = None) -> Tensor:
    """Root-mean-square normalisation over the last ``len(normalized_shape)`` dimensions:
    ``y = x / sqrt(mean(x^2) + eps) * weight``; ``eps`` defaults to the machine epsilon of the
    input's dtype (float32's for half precision)."""
    normalized = _normalized_shape(normalized_shape)
    shape = tuple(input.shape)
    k = len(normalized)
    if k == 0 or len(shape) < k or shape[len(shape) - k:] != normalized:
        raise RuntimeError(f"Given normalized_shape={list(normalized)}, expected input with shape "
                           f"[*, {', '.join(str(n) for n in normalized)}], but got input of size{list(shape)}")
    if eps is None:
            eps = float(np.finfo(np.float64 if input._data.dtype == np.float64 else np.float32).eps)
    dims = tuple(range(len(shape) - k, len(shape)))
    # PyTorch's nodes: Pow, Mean, Add (of a Scalar), Rsqrt, Mul
    squares = binary.pow(input, 2)
    out = input * unary.rsqrt(binary.AddScalar.apply(reduction.mean(squares, dims, keepdim=True), other=eps))
    return out if weight is None else out * weight


# ------------------------------------------------------------------ cross-map LRN (legacy)

class CrossMapLRN2d(Op, node_name="CrossMapLRN2dBackward"):
    """``out = x * (k + alpha / size * s)^-beta`` for ``x (N, C, H, W)``, ``s`` a sum of squares over
    neighbouring channels: PyTorch's legacy ``CrossMapLRN2d`` Function, windows included.

    PyTorch's running window never drops channel 0 (its recurrence subtracts channel ``c - pre_pad``
    only for ``c > pre_pad``), and its backward sums over another window, ``c - (size - (size - 1) / 2)``
    to ``c + (size - 1) / 2`` rounded as it does; both are kept so that values and gradients are
    PyTorch's. The backward is therefore not the forward's derivative wherever the windows differ.
    """

    saved_inputs = ("self",)

    @staticmethod
    def forward(ctx: CrossMapLRN2d, x: Any, *, size: int, alpha: float, beta: float, k: float) -> Any:
        ctx.size, ctx.alpha, ctx.beta, ctx.k = size, alpha, beta, k
        channels = x.shape[1]
        # the windows as constant (C, C) arrays of x's dtype and device
        ctx.windows = [ctx.xp.asarray(window(channels, size).astype(x.dtype))
                       for window in (_forward_window, _backward_window)]
        ctx.save_for_backward(x)
        return _scale(ctx, x) ** -beta * x

    @staticmethod
    def backward(ctx: CrossMapLRN2d, g: Any) -> Any:
        # The scale is recomputed from x (not saved), so that a recorded backward is differentiable.
        (x,) = ctx.saved_tensors
        xp = ctx.xp
        scale = _scale(ctx, x)
        n, c = x.shape[:2]
        ratio = (g * (scale ** -ctx.beta * x) / scale).reshape((n, c, -1))
        accumulated = xp.matmul(xp.asarray(ctx.windows[1]), ratio).reshape(x.shape)
        return scale ** -ctx.beta * g - (2 * ctx.alpha * ctx.beta / ctx.size) * x * accumulated


def _scale(ctx: CrossMapLRN2d, x: Any) -> Any:
    """``k + alpha / size * (the sum of squares over the forward window of each channel)``."""
    n, c = x.shape[:2]
    squares = (x * x).reshape((n, c, -1))
    return (ctx.xp.matmul(ctx.xp.asarray(ctx.windows[0]), squares) * (ctx.alpha / ctx.size) + ctx.k).reshape(x.shape)


def _forward_window(channels: int, size: int) -> Any:
    """``W (C, C)``, ``W[c, j] = 1`` when PyTorch's forward sums channel ``j``'s square into ``c``'s
    scale: its recurrence run on indicator rows."""
    pre_pad = int((size - 1) / 2 + 1)
    eye = np.eye(channels)
    rows = [eye[:min(pre_pad, channels)].sum(0)]
    for c in range(1, channels):
        row = rows[-1].copy()
        if c < channels - pre_pad + 1:
            row += eye[c + pre_pad - 1]
        if c > pre_pad:
            row -= eye[c - pre_pad]
        rows.append(row)
    return np.stack(rows)


def _backward_window(channels: int, size: int) -> Any:
    """``W (C, C)``, ``W[c, j] = 1`` for the channels ``j`` whose ratios PyTorch's backward sums into
    channel ``c``'s gradient: ``c - int(size - (size - 1) / 2)`` to ``c + size - 1 - int(...)``."""
    offset = int(size - (size - 1) / 2)
    j = np.arange(channels)
    distance = j[None, :] - j[:, None]
    return ((distance >= -offset) & (distance <= size - 1 - offset)).astype(np.float64)


def cross_map_lrn2d(input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1) -> Tensor:
    """``nn.CrossMapLRN2d``'s normalisation of ``input (N, C, H, W)`` across channels (see ``CrossMapLRN2d``)."""
    if input.ndim != 4:
        raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.ndim}D instead.")
    return CrossMapLRN2d.apply(input, size=size, alpha=alpha, beta=beta, k=k)
