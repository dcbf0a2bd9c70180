"""``torch.nn.grad``: the gradients of a convolution with respect to its input and to its weight, given
the gradient of its output (what ``conv*d``'s backward computes), for custom backward passes."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import autograd, creation, grad_mode
from ..tensor import Tensor
from . import functional as F

__all__ = ["conv1d_input", "conv1d_weight", "conv2d_input", "conv2d_weight", "conv3d_input", "conv3d_weight"]


def _gradient(convolution: Callable[..., Tensor], input: Tensor, weight: Tensor, grad_output: Tensor,
              wanted: Tensor, options: tuple) -> Tensor:
    with grad_mode.enable_grad():
        out = convolution(input, weight, None, *options)
        return autograd.grad(out, wanted, grad_output)[0]


def _input_gradient(convolution: Callable[..., Tensor]) -> Callable[..., Tensor]:
    def input_gradient(input_size: Any, weight: Tensor, grad_output: Tensor, stride: Any = 1, padding: Any = 0,
                       dilation: Any = 1, groups: int = 1) -> Tensor:
        input = creation.zeros(*input_size, dtype=grad_output.dtype, device=grad_output.device, requires_grad=True)
        return _gradient(convolution, input, weight.detach(), grad_output, input, (stride, padding, dilation, groups))
    input_gradient.__doc__ = (f"The gradient of ``{convolution.__name__}`` with respect to an input of "
                              "``input_size``, given ``weight`` and the gradient of the output.")
    return input_gradient


def _weight_gradient(convolution: Callable[..., Tensor]) -> Callable[..., Tensor]:
    def weight_gradient(input: Tensor, weight_size: Any, grad_output: Tensor, stride: Any = 1, padding: Any = 0,
                        dilation: Any = 1, groups: int = 1) -> Tensor:
        weight = creation.zeros(*weight_size, dtype=grad_output.dtype, device=grad_output.device,
                                requires_grad=True)
        return _gradient(convolution, input.detach(), weight, grad_output, weight, (stride, padding, dilation, groups))
    weight_gradient.__doc__ = (f"The gradient of ``{convolution.__name__}`` with respect to a weight of "
                               "``weight_size``, given ``input`` and the gradient of the output.")
    return weight_gradient


conv1d_input, conv2d_input, conv3d_input = (_input_gradient(c) for c in (F.conv1d, F.conv2d, F.conv3d))
conv1d_weight, conv2d_weight, conv3d_weight = (_weight_gradient(c) for c in (F.conv1d, F.conv2d, F.conv3d))
