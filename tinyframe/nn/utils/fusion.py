"""``nn.utils.fusion``: fold an eval-mode BatchNorm into the convolution or linear layer before it.

``bn(conv(x)) = conv'(x)`` with ``w' = w * gamma / sqrt(var + eps)`` (per output channel) and
``b' = (b - mean) * gamma / sqrt(var + eps) + beta``.
"""
from __future__ import annotations

import copy
from typing import Any

from ... import creation
from ...grad_mode import no_grad
from ...tensor import Tensor
from ..parameter import Parameter

__all__ = ["fuse_conv_bn_eval", "fuse_conv_bn_weights", "fuse_linear_bn_eval", "fuse_linear_bn_weights"]


def fuse_conv_bn_weights(conv_w: Tensor, conv_b: Tensor | None, bn_rm: Tensor, bn_rv: Tensor, bn_eps: float,
                         bn_w: Tensor | None, bn_b: Tensor | None, transpose: bool = False) -> tuple:
    """The fused ``(weight, bias)`` Parameters; ``transpose`` for a transposed convolution's weight
    (output channels in dimension 1)."""
    with no_grad():
        bias = conv_b if conv_b is not None else creation.zeros_like(bn_rm)
        scale = (bn_w if bn_w is not None else creation.ones_like(bn_rm)) * (bn_rv + bn_eps).rsqrt()
        shift = bn_b if bn_b is not None else creation.zeros_like(bn_rm)
        shape = [1, -1] if transpose else [-1, 1]
        fused_w = (conv_w * scale.reshape(*shape, *([1] * (conv_w.ndim - 2)))).to(conv_w.dtype)
        fused_b = ((bias - bn_rm) * scale + shift).to(bias.dtype if conv_b is not None else conv_w.dtype)
    return Parameter(fused_w, conv_w.requires_grad), Parameter(fused_b, bias.requires_grad)


def fuse_conv_bn_eval(conv: Any, bn: Any, transpose: bool = False) -> Any:
    """A copy of ``conv`` that computes ``bn(conv(x))`` (both in eval mode)."""
    if conv.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")
    fused = copy.deepcopy(conv)
    fused.weight, fused.bias = fuse_conv_bn_weights(fused.weight, fused.bias, bn.running_mean, bn.running_var,
                                                    bn.eps, bn.weight, bn.bias, transpose)
    return fused


def fuse_linear_bn_weights(linear_w: Tensor, linear_b: Tensor | None, bn_rm: Tensor, bn_rv: Tensor, bn_eps: float,
                           bn_w: Tensor, bn_b: Tensor) -> tuple:
    """The fused ``(weight, bias)`` Parameters of a Linear followed by a BatchNorm1d."""
    with no_grad():
        bias = linear_b if linear_b is not None else creation.zeros_like(bn_rm)
        scale = bn_w * (bn_rv + bn_eps).rsqrt()
        fused_w = linear_w * scale.unsqueeze(-1).to(linear_w.dtype)
        fused_b = ((bias - bn_rm) * scale + bn_b).to(bias.dtype if linear_b is not None else linear_w.dtype)
    return Parameter(fused_w, linear_w.requires_grad), Parameter(fused_b, bias.requires_grad)


def fuse_linear_bn_eval(linear: Any, bn: Any) -> Any:
    """A copy of ``linear`` that computes ``bn(linear(x))`` (both in eval mode)."""
    if linear.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    if linear.out_features != bn.num_features:
        raise AssertionError("To fuse, linear.out_features must equal bn.num_features or bn.num_features must be 1")
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")
    fused = copy.deepcopy(linear)
    fused.weight, fused.bias = fuse_linear_bn_weights(fused.weight, fused.bias, bn.running_mean, bn.running_var,
                                                      bn.eps, bn.weight, bn.bias)
    return fused
