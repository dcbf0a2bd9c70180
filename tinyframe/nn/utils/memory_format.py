"""``nn.utils.convert_conv2d/3d_weight_memory_format``: the weights of a model's 2-d (3-d) convolutions, and
of their transposed forms, laid out in ``memory_format``, in place, as PyTorch's do."""
from __future__ import annotations

from typing import Any

from ..modules.conv import Conv2d, Conv3d, ConvTranspose2d, ConvTranspose3d
from ..modules.module import Module

__all__ = ["convert_conv2d_weight_memory_format", "convert_conv3d_weight_memory_format"]


def convert_conv2d_weight_memory_format(module: Module, memory_format: Any) -> Module:
    """Lays out the weight of every ``Conv2d`` and ``ConvTranspose2d`` in ``module`` in ``memory_format``."""
    return _convert(module, memory_format, (Conv2d, ConvTranspose2d))


def convert_conv3d_weight_memory_format(module: Module, memory_format: Any) -> Module:
    """Lays out the weight of every ``Conv3d`` and ``ConvTranspose3d`` in ``module`` in ``memory_format``."""
    return _convert(module, memory_format, (Conv3d, ConvTranspose3d))


def _convert(module: Module, memory_format: Any, kinds: tuple) -> Module:
    for layer in module.modules():
        if isinstance(layer, kinds):
            layer.weight.data = layer.weight.detach().contiguous(memory_format=memory_format)
    return module
