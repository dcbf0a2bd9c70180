"""Convolution layers: ``Conv1d``, ``Conv2d``, ``ConvTranspose1d`` and ``ConvTranspose2d``."""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ... import creation
from ...tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["Conv1d", "Conv2d", "ConvTranspose1d", "ConvTranspose2d", "Conv3d", "ConvTranspose3d"]

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


def _ntuple(value: Any, n: int) -> tuple:
    """An int repeated ``n`` times, or the given sequence as a tuple (PyTorch's ``_pair``)."""
    if isinstance(value, (list, tuple)):
        return tuple(value)
    return (value,) * n


class _ConvNd(Module):
    """Shared state of the convolution layers.

    ``weight`` is ``(out_channels, in_channels / groups, *kernel_size)`` (``(in_channels,
    out_channels / groups, *kernel_size)`` when transposed) and starts, like ``bias``, as in PyTorch:
    ``kaiming_uniform_(a=sqrt(5))``, i.e. U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for both.
    """

    _dims = 2
    transposed = False

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 output_padding: Any = 0, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        n = self._dims
        kernel_size, stride, dilation = _ntuple(kernel_size, n), _ntuple(stride, n), _ntuple(dilation, n)
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {{'same', 'valid'}}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        else:
            padding = _ntuple(padding, n)
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"padding_mode must be one of {set(_PADDING_MODES)}, but got "
                             f"padding_mode='{padding_mode}'")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride, self.padding, self.dilation = kernel_size, stride, padding, dilation
        self.output_padding = _ntuple(output_padding, n)
        self.groups, self.padding_mode = groups, padding_mode
        self._reversed_padding_repeated_twice = _reversed_padding(padding, kernel_size, dilation)
        shape = ((in_channels, out_channels // groups) if self.transposed
                 else (out_channels, in_channels // groups)) + kernel_size
        self.weight = Parameter(creation.empty(*shape, device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(creation.empty(out_channels, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.weight.shape[1] * math.prod(self.kernel_size)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if isinstance(self.padding, str) or self.padding != (0,) * len(self.padding):
            s += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


def _reversed_padding(padding: Any, kernel_size: tuple, dilation: tuple) -> tuple:
    """The padding as ``F.pad`` takes it: ``(last_left, last_right, ..., first_left, first_right)``."""
    if padding == "valid":
        return (0, 0) * len(kernel_size)
    if padding == "same":
        totals = [d * (k - 1) for d, k in zip(dilation, kernel_size)]
        return tuple(v for total in reversed(totals) for v in (total // 2, total - total // 2))
    return tuple(p for p in reversed(padding) for _ in range(2))


class _Conv(_ConvNd):
    """A convolution: ``F.conv1d`` / ``F.conv2d``, after ``F.pad`` for a non-zero ``padding_mode``."""

    _function: Any

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, 0, device, dtype)

    def _conv_forward(self, input: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
        if self.padding_mode != "zeros":
            return type(self)._function(F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode),
                                        weight, bias, self.stride, 0, self.dilation, self.groups)
        return type(self)._function(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input: Tensor) -> Tensor:
        return self._conv_forward(input, self.weight, self.bias)


class Conv1d(_Conv):
    """1-d convolution over ``(N, C_in, L)`` or ``(C_in, L)``:
    ``out[n, o] = bias[o] + sum_c weight[o, c] * input[n, c]`` (``*`` the cross-correlation).

    ``L_out = floor((L + 2*padding - dilation*(kernel_size - 1) - 1) / stride) + 1``.
    """

    _dims = 1
    _function = staticmethod(F.conv1d)


class Conv2d(_Conv):
    """2-d convolution over ``(N, C_in, H, W)`` or ``(C_in, H, W)``:
    ``out[n, o] = bias[o] + sum_c weight[o, c] * input[n, c]`` (``*`` the cross-correlation).

    ``padding`` is an int, a pair, ``'valid'`` or ``'same'``; ``padding_mode`` is ``'zeros'``,
    ``'reflect'``, ``'replicate'`` or ``'circular'``.
    ``H_out = floor((H + 2*padding[0] - dilation[0]*(kernel_size[0] - 1) - 1) / stride[0]) + 1``.
    """

    _dims = 2
    _function = staticmethod(F.conv2d)


class _ConvTranspose(_ConvNd):
    """A transposed convolution: the gradient of the convolution with respect to its input."""

    transposed = True
    _function: Any

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 output_padding: Any = 0, groups: int = 1, bias: bool = True, dilation: Any = 1,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None) -> None:
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, output_padding, device, dtype)

    def _output_padding(self, input: Tensor, output_size: Sequence[int] | None) -> tuple:
        """``output_padding``, or the one that makes the output ``output_size``."""
        if output_size is None:
            return self.output_padding
        n = self._dims
        lead = 2 if input.ndim == n + 2 else 1
        output_size = tuple(output_size)
        if len(output_size) == lead + n:
            output_size = output_size[lead:]
        if len(output_size) != n:
            raise ValueError(f"ConvTranspose{n}D: for {input.ndim}D input, output_size must have {n} or {lead + n} "
                             f"elements (got {len(output_size)})")
        low = [(input.shape[lead + d] - 1) * self.stride[d] - 2 * self.padding[d]
               + self.dilation[d] * (self.kernel_size[d] - 1) + 1 for d in range(n)]
        high = [size + self.stride[d] - 1 for d, size in enumerate(low)]
        for size, a, b in zip(output_size, low, high):
            if not a <= size <= b:
                raise ValueError(f"requested an output size of {list(output_size)}, but valid sizes range from "
                                 f"{low} to {high} (for an input of {input.shape[lead:]})")
        return tuple(size - a for size, a in zip(output_size, low))

    def forward(self, input: Tensor, output_size: Sequence[int] | None = None) -> Tensor:
        return type(self)._function(input, self.weight, self.bias, self.stride, self.padding,
                                    self._output_padding(input, output_size), self.groups, self.dilation)


class ConvTranspose1d(_ConvTranspose):
    """1-d transposed convolution over ``(N, C_in, L)`` or ``(C_in, L)``:
    ``L_out = (L - 1)*stride - 2*padding + dilation*(kernel_size - 1) + output_padding + 1``."""

    _dims = 1
    _function = staticmethod(F.conv_transpose1d)


class ConvTranspose2d(_ConvTranspose):
    """2-d transposed convolution ("deconvolution") over ``(N, C_in, H, W)`` or ``(C_in, H, W)``:
    ``H_out = (H - 1)*stride[0] - 2*padding[0] + dilation[0]*(kernel_size[0] - 1) + output_padding[0] + 1``.

    ``forward(input, output_size)`` picks the ``output_padding`` that gives ``output_size``.
    """

    _dims = 2
    _function = staticmethod(F.conv_transpose2d)


class Conv3d(_Conv):
    """3-d convolution over ``(N, C_in, D, H, W)`` or ``(C_in, D, H, W)``:
    ``out[n, o] = bias[o] + sum_c weight[o, c] * input[n, c]`` (``*`` the cross-correlation), with
    ``weight (out_channels, in_channels / groups, kD, kH, kW)``.
    """

    _dims = 3
    _function = staticmethod(F.conv3d)


class ConvTranspose3d(_ConvTranspose):
    """3-d transposed convolution over ``(N, C_in, D, H, W)`` or ``(C_in, D, H, W)``:
    ``D_out = (D - 1)*stride[0] - 2*padding[0] + dilation[0]*(kernel_size[0] - 1) + output_padding[0] + 1``,
    and likewise ``H_out``, ``W_out``."""

    _dims = 3
    _function = staticmethod(F.conv_transpose3d)
