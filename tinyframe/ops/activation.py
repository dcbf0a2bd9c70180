"""Activations that PyTorch records as one node each: ``mish``, ``hardswish``, ``hardsigmoid``, ``glu``,
``threshold``, ``hardshrink``, ``softshrink`` and ``rrelu``'s kernel.

Each backward is written with ``ctx.xp``, so it runs on arrays or, when the backward pass is
recorded, on Tensors (second derivatives follow).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _autocast, _graph, dtypes
from .._graph import Op
from . import binary
from .inplace import memory_order
from .unary import HardshrinkGrad, RreluWithNoiseGrad, Sigmoid, SoftshrinkGrad, ThresholdGrad

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["mish", "hardswish", "hardsigmoid", "glu", "threshold", "hardshrink", "softshrink",
           "rrelu_with_noise", "prelu"]


def _tanh_softplus(xp: Any, x: Any) -> Any:
    """``tanh(log(1 + exp(x)))``, the softplus computed without overflow."""
    return xp.tanh(xp.maximum(x, 0.0) + xp.log(xp.exp(-xp.abs(x)) + 1.0))


class Mish(Op):
    """``x * tanh(softplus(x))``."""

    @staticmethod
    def forward(ctx: Mish, x: Any) -> Any:
        dtypes.check_kernel("mish_cpu", x.dtype, "f")
        ctx.save_for_backward(x)
        return x * _tanh_softplus(ctx.xp, x)

    @staticmethod
    def backward(ctx: Mish, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        xp = ctx.xp
        # PyTorch's formula and, when recorded, its nodes (softplus as log1p(exp(x)), which is inf where exp
        # overflows: tanh takes it to 1)
        with np.errstate(over="ignore"):
            t = xp.tanh(xp.log1p(xp.exp(x)))
        return g * (t + x * Sigmoid.call(x) * binary.Sub.call(1.0, t * t))


class Hardswish(Op):
    """``x * clamp(x + 3, 0, 6) / 6``; the gradient is 0 up to -3, ``x / 3 + 1/2`` below 3, then 1
    (PyTorch's values at the kinks)."""

    backward_node = "HardswishBackwardBackward0"

    @staticmethod
    def forward(ctx: Hardswish, x: Any) -> Any:
        dtypes.check_kernel("hardswish_cpu", x.dtype, "f")
        ctx.save_for_backward(x)
        return x * ctx.xp.clip(x + 3.0, 0.0, 6.0) / 6.0

    @staticmethod
    def backward(ctx: Hardswish, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        xp = ctx.xp
        return xp.where(x <= -3.0, 0.0, xp.where(x < 3.0, g * (x / 3.0 + 0.5), g))


class Hardsigmoid(Op):
    """``clamp(x + 3, 0, 6) / 6``; the gradient is ``1/6`` strictly between -3 and 3, else 0."""

    @staticmethod
    def forward(ctx: Hardsigmoid, x: Any) -> Any:
        dtypes.check_kernel("hardsigmoid_cpu", x.dtype, "f")
        ctx.save_for_backward(x)
        return ctx.xp.clip(x + 3.0, 0.0, 6.0) / 6.0

    @staticmethod
    def backward(ctx: Hardsigmoid, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        return HardsigmoidBackward.call(g, x)


class HardsigmoidBackward(_graph.NotImplementedOp, node_name="NotImplemented"):
    """Hardsigmoid's gradient, which PyTorch records without a derivative of its own (a second
    derivative raises)."""

    @staticmethod
    def forward(ctx: HardsigmoidBackward, g: Any, x: Any) -> Any:
        xp = ctx.xp
        return xp.where(x > -3.0, xp.where(x < 3.0, g / 6.0, 0.0), 0.0)

    @staticmethod
    def backward(ctx: HardsigmoidBackward, gg: Any) -> Any:
        raise RuntimeError("derivative for aten::hardsigmoid_backward is not implemented")


class PreluKernel(Op):
    """``x`` where positive, else ``weight * x`` (``weight`` broadcast against ``x``); the engine sums the
    weight's gradient back to its shape."""

    backward_node = "PreluKernelBackwardBackward0"

    @staticmethod
    def forward(ctx: PreluKernel, x: Any, weight: Any) -> Any:
        ctx.save_for_backward(x, weight)
        return ctx.xp.where(x > 0, x, weight * x)

    @staticmethod
    def backward(ctx: PreluKernel, g: Any) -> tuple:
        x, weight = ctx.saved_tensors
        xp = ctx.xp
        positive = x > 0
        return xp.where(positive, g, weight * g), xp.where(positive, 0.0, x * g)


class Glu(Op):
    """``a * sigmoid(b)``, ``a`` and ``b`` the halves of the input along ``dim``."""

    backward_node = "GluBackwardBackward0"

    @staticmethod
    def forward(ctx: Glu, x: Any, *, dim: int) -> Any:
        dtypes.check_kernel("glu_cpu", x.dtype, "f")
        ctx.save_for_backward(x)
        ctx.dim = dim
        a, b = ctx.xp.split(x, 2, axis=dim)
        return a * Sigmoid.call(b)

    @staticmethod
    def backward(ctx: Glu, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        xp, dim = ctx.xp, ctx.dim
        a, b = xp.split(x, 2, axis=dim)
        s = Sigmoid.call(b)
        half = a.shape[dim]
        before = [(0, 0)] * x.ndim
        after = [(0, 0)] * x.ndim
        after[dim], before[dim] = (0, half), (half, 0)
        # the two halves' gradients placed side by side (zero padding, so one formula serves recording)
        return xp.pad(g * s, after) + xp.pad(g * a * s * (1.0 - s), before)


class Threshold(Op):
    """``x`` where it is greater than ``threshold``, ``value`` elsewhere."""

    saved_options = ("threshold",)

    @staticmethod
    def forward(ctx: Threshold, x: Any, *, threshold: float, value: float) -> Any:
        dtypes.check_kernel("threshold_cpu", x.dtype, "iuf")
        ctx.save_for_backward(x)
        ctx.threshold = threshold
        if x.dtype.kind != "f":  # the result keeps an integer dtype: value is cast to it
            value = int(value)
        return ctx.xp.where(x <= threshold, ctx.xp.asarray(value, x.dtype), x)  # (NaN stays NaN, as PyTorch's)

    @staticmethod
    def backward(ctx: Threshold, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        return ThresholdGrad.call(g, x, threshold=ctx.threshold)


class Hardshrink(Op):
    """``x`` where ``|x| > lambd``, 0 elsewhere."""

    @staticmethod
    def forward(ctx: Hardshrink, x: Any, *, lambd: float) -> Any:
        ctx.save_for_backward(x)
        ctx.lambd = lambd
        return ctx.xp.where((x >= -lambd) & (x <= lambd), ctx.xp.zeros((), x.dtype), x)

    @staticmethod
    def backward(ctx: Hardshrink, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        return HardshrinkGrad.call(g, x, lambd=ctx.lambd)


class Softshrink(Op):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, 0 between."""

    @staticmethod
    def forward(ctx: Softshrink, x: Any, *, lambd: float) -> Any:
        ctx.save_for_backward(x)
        ctx.lambd = lambd
        xp = ctx.xp
        shrunk = xp.where(x > lambd, x - lambd, x + lambd).astype(x.dtype, copy=False)
        inside = (x >= -lambd) & (x <= lambd)
        out = xp.where(inside, xp.zeros((), x.dtype), shrunk)
        _signed_zero_tail(x, out, inside)
        return out

    @staticmethod
    def backward(ctx: Softshrink, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        return SoftshrinkGrad.call(g, x, lambd=ctx.lambd)


def _signed_zero_tail(x: Any, out: Any, inside: Any) -> None:
    """PyTorch's CPU softshrink gives the elements inside ``lambd`` as ``x * 0`` in its scalar loop (a -0 for a
    negative ``x``) and as +0 in its vector loop, which takes two 32-byte AVX2 vectors at a time: the scalar
    loop has the last ``numel % (64 / itemsize)`` elements in memory order (all of a small tensor)."""
    if not isinstance(x, np.ndarray) or x.dtype.kind != "f":
        return
    tail = x.size % (64 // x.dtype.itemsize)
    if tail:
        order = memory_order(x)
        xt, ot, it = (np.atleast_1d(a.transpose(order)) for a in (x, out, inside))
        index = np.unravel_index(np.arange(x.size - tail, x.size), xt.shape)
        ot[index] = np.where(it[index], xt[index] * 0, ot[index])


class RreluWithNoise(Op):
    """``x`` where positive, ``x * slopes`` elsewhere: ``slopes`` one number (evaluation) or an array of
    ``x``'s shape (training: drawn by the caller, so that nothing is drawn again in a recorded backward)."""

    @staticmethod
    def forward(ctx: RreluWithNoise, x: Any, *, slopes: Any) -> Any:
        ctx.save_for_backward(x)
        ctx.slopes = slopes
        return ctx.xp.where(x > 0, x, x * slopes)

    @staticmethod
    def backward(ctx: RreluWithNoise, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        return RreluWithNoiseGrad.call(g, x, slopes=ctx.slopes)


def rrelu_with_noise(input: Tensor, slopes: Any) -> Tensor:
    """``input`` where positive, ``input * slopes`` elsewhere (``RreluWithNoiseBackward0``)."""
    return RreluWithNoise.apply(input, slopes=slopes)


def threshold(input: Tensor, threshold: float, value: float) -> Tensor:
    """``input`` where it is greater than ``threshold``, ``value`` elsewhere (``ThresholdBackward0``)."""
    return Threshold.apply(input, threshold=threshold, value=value)


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``input`` where ``|input| > lambd``, 0 elsewhere (``HardshrinkBackward0``)."""
    dtypes.check_kernel("hardshrink_cpu", input.dtype, "f")
    return Hardshrink.apply(input, lambd=lambd)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``input`` moved ``lambd`` toward 0, and 0 within ``lambd`` of it (``SoftshrinkBackward0``)."""
    return Softshrink.apply(input, lambd=lambd)


def mish(input: Tensor) -> Tensor:
    """``input * tanh(softplus(input))`` (``MishBackward0``)."""
    return Mish.apply(input)


def hardswish(input: Tensor) -> Tensor:
    """``input * relu6(input + 3) / 6`` (``HardswishBackward0``)."""
    return Hardswish.apply(input)


def hardsigmoid(input: Tensor) -> Tensor:
    """``relu6(input + 3) / 6`` (``HardsigmoidBackward0``)."""
    return Hardsigmoid.apply(input)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """``a * sigmoid(b)`` with ``a, b`` the halves of ``input`` along ``dim`` (``GluBackward0``)."""
    return Glu.apply(input, dim=dim % input.ndim)


@_autocast.lower_precision
def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """``input`` where non-negative, ``weight * input`` elsewhere; ``weight`` has one value or one per
    channel (dimension 1)."""
    if not isinstance(input, _graph.Tensor):
        raise TypeError(f"prelu(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if weight.ndim > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.ndim}")
    if weight.numel() != 1:
        if input.ndim == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if input.ndim >= 2 else 1
        if weight.numel() != channels:
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                               f"{weight.numel()} and channel size = {channels}.")
        if input.ndim >= 2:  # (a view, as PyTorch's: the weight's gradient passes a ViewBackward0)
            weight = weight.view(channels, *([1] * (input.ndim - 2)))
    elif weight.ndim > input.ndim:  # a 0-d input: the result has its shape
        weight = weight.view(())
    if input.dtype != weight.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got {dtypes.scalar_type_name(input.dtype)} and "
                           f"{dtypes.scalar_type_name(weight.dtype)}")
    dtypes.check_kernel("prelu_cpu", input.dtype, "f")
    return PreluKernel.apply(input, weight)
