"""PyTorch's memory formats (``torch.channels_last``, ...) and layouts (``torch.strided``), accepted where
PyTorch takes them.

A format is an order of the dimensions in memory: ``contiguous_format`` row-major, ``channels_last``
``(N, H, W, C)`` for a rank-4 tensor and ``channels_last_3d`` ``(N, D, H, W, C)`` for rank 5; a tensor in
another format is a NumPy/CuPy array with those strides, as in PyTorch (``x.stride()`` and
``x.is_contiguous()`` say so). ``preserve_format``, the default of ``clone`` and the ``*_like`` factories,
keeps the input's own order. Elementwise ops lay their result out as PyTorch's TensorIterator does
(``iteration_order``: the first operand's layout wins); padding, resampling, pooling and batch / group norm
keep channels last (``suggested_order``); others give row-major results where PyTorch may keep channels last
(a convolution's output): values never depend on it.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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


def iteration_order(arrays: Sequence[Any], shape: tuple) -> list | None:
    """The dimensions of ``shape`` from the outermost in memory to the innermost, in which PyTorch's
    TensorIterator lays out the result of an elementwise op of ``arrays`` (broadcast to ``shape``); None
    for row-major order. As its ``reorder_dimensions``: an insertion sort, innermost first, where the
    first array whose strides tell two dimensions apart decides (the smaller stride inside), a dimension
    it broadcasts (stride 0) telling nothing, and of equal strides the larger size goes outside. So the
    first operand's layout wins: channels-last plus row-major is channels-last, row-major plus
    channels-last row-major. One array: the order ``preserve_format`` keeps."""
    ndim = len(shape)
    operands = [[0] * (ndim - a.ndim) + [0 if n == 1 and shape[ndim - a.ndim + d] != 1 else stride
                                         for d, (n, stride) in enumerate(zip(a.shape, a.strides))]
                for a in arrays]

    def swap(inner: int, outer: int) -> int:  # 1: ``inner`` belongs outside ``outer``; -1: it does not; 0: unknown
        for strides in operands:
            if strides[inner] == 0 or strides[outer] == 0:
                continue
            if strides[inner] != strides[outer]:
                return 1 if strides[inner] > strides[outer] else -1
            if shape[inner] > shape[outer]:
                return 1
        return 0

    perm = list(range(ndim))[::-1]
    for i in range(1, ndim):
        moving = i
        for k in range(i - 1, -1, -1):
            verdict = swap(perm[k], perm[moving])
            if verdict > 0:
                perm[k], perm[moving] = perm[moving], perm[k]
                moving = k
            elif verdict < 0:
                break
    order = perm[::-1]
    return None if order == sorted(order) else order


def iterator_layout(xp: Any, arrays: Sequence[Any], out: Any) -> Any:
    """``out``, the result of an elementwise op of ``arrays`` (and numbers), or a copy of it laid out as
    PyTorch's TensorIterator lays out that result (see ``iteration_order``). Where every operand is
    row-major, so is NumPy's result, as PyTorch's; with one array of two or more dimensions, NumPy's
    order 'K' is its own, as PyTorch's."""
    tensors = [a for a in arrays if getattr(a, "ndim", 0) > 1]  # (a vector or a number decides nothing)
    if len(tensors) < 2 or all(a.flags.c_contiguous for a in tensors):
        return out
    return laid_out(xp, out, iteration_order(tensors, out.shape))


def suggested_order(a: Any) -> list | None:
    """The order of PyTorch's ``suggest_memory_format()`` for the array ``a``: channels last for a 4-d
    (5-d) array laid out so and not also row-major, else None (row-major)."""
    format = {4: channels_last, 5: channels_last_3d}.get(a.ndim)
    if format is None or a.flags.c_contiguous or not is_channels_last(a.shape, a.strides, a.itemsize, format):
        return None
    return _CHANNELS_LAST_ORDERS[format]


def laid_out(xp: Any, a: Any, order: list | None) -> Any:
    """``a``, or a copy of it if its strides are not those, laid out densely with its dimensions in
    ``order`` (outermost first; None: row-major)."""
    strides = [0] * a.ndim
    step = a.itemsize
    for d in reversed(order or range(a.ndim)):
        strides[d] = step
        step *= max(a.shape[d], 1)
    if tuple(strides) == a.strides:
        return a
    copy = xp.empty([a.shape[d] for d in order], a.dtype).transpose(_inverse(order)) if order else xp.empty_like(
        a, order="C")
    copy[...] = a
    return copy


def _inverse(order: list) -> list:
    inverse = [0] * len(order)
    for position, d in enumerate(order):
        inverse[d] = position
    return inverse


class layout(memory_format):
    """A tensor layout name (``torch.strided``, every tinyframe tensor's; ``torch.sparse_coo``)."""

    __slots__ = ()


strided = layout("strided")
sparse_coo = layout("sparse_coo")
