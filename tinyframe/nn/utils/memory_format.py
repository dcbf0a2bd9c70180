"""``nn.utils.convert_conv2d/3d_weight_memory_format``: tinyframe keeps one (contiguous) layout,
so these return the module unchanged, as PyTorch's do for the default format."""
from __future__ import annotations

from typing import Any

from ..modules.module import Module

__all__ = ["convert_conv2d_weight_memory_format", "convert_conv3d_weight_memory_format"]


def convert_conv2d_weight_memory_format(module: Module, memory_format: Any) -> Module:
    return module


def convert_conv3d_weight_memory_format(module: Module, memory_format: Any) -> Module:
    return module
