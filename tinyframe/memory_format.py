"""PyTorch's memory formats (``torch.channels_last``, ...) and layouts (``torch.strided``), accepted where
PyTorch takes them.

A format is an order of the dimensions in memory: ``contiguous_format`` row-major, ``channels_last``
``(N, H, W, C)`` for a rank-4 tensor and ``channels_last_3d`` ``(N, D, H, W, C)`` for rank 5; a tensor in
another format is a NumPy/CuPy array with those strides, as in PyTorch (``x.stride()`` and
``x.is_contiguous()`` say so). ``preserve_format``, the default of ``clone`` and the ``*_like`` factories,
keeps the input's own order. Elementwise ops keep a layout (NumPy's order ``'K'``); others give row-major
results where PyTorch may keep channels last (a convolution's output): values never depend on it.
"""
from __future__ import annotations

from collections.abc import Sequence

__all__ = ["memory_format", "contiguous_format", "channels_last", "channels_last_3d", "preserve_format", "layout",
           "strided", "sparse_coo"]


class memory_format:
    """A memory layout name, printed as PyTorch prints it (``torch.channels_last``)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"


contiguous_format = memory_format("contiguous_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")
preserve_format = memory_format("preserve_format")

# The dimensions of a channels-last tensor from the outermost in memory to the innermost
_CHANNELS_LAST_ORDERS = {channels_last: [0, 2, 3, 1], channels_last_3d: [0, 2, 3, 4, 1]}


def channels_last_order(format: memory_format, ndim: int) -> list:
    """The dimension order of ``channels_last`` / ``channels_last_3d`` for a tensor of ``ndim`` dimensions,
    which must be the format's rank (PyTorch's RuntimeError otherwise)."""
    order = _CHANNELS_LAST_ORDERS.get(format)
    if order is None:
        raise RuntimeError(f"unsupported memory format {format!r}")
    if ndim != len(order):
        raise RuntimeError(f"required rank {len(order)} tensor to use {format.name} format")
    return order


def is_channels_last(shape: Sequence[int], strides: Sequence[int], itemsize: int, format: memory_format) -> bool:
    """Whether ``strides`` (in bytes) lay ``shape`` out densely in ``format``'s order, dimensions of size 1
    aside (PyTorch's ``is_contiguous(memory_format=...)`` for the channels-last formats)."""
    order = _CHANNELS_LAST_ORDERS[format]
    if len(shape) != len(order):
        return False
    expected = itemsize
    for d in reversed(order):
        if shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= shape[d]
    return True


class layout(memory_format):
    """A tensor layout name (``torch.strided``, every tinyframe tensor's; ``torch.sparse_coo``)."""

    __slots__ = ()


strided = layout("strided")
sparse_coo = layout("sparse_coo")
