"""Shapes and dimension indices: ``Size`` and the wrapping of negative dimensions (no tinyframe imports)."""
from __future__ import annotations

import operator
from typing import Any, SupportsIndex, overload

import numpy as np

__all__ = ["Size", "as_index", "wrap_dim"]


class Size(tuple):
    """A tensor's shape; a tuple that prints as ``tinyframe.Size([2, 3])``."""

    def __repr__(self) -> str:
        return f"tinyframe.Size({list(self)})"

    # As torch.Size: concatenating, repeating and slicing give a Size, not a plain tuple.
    def __add__(self, other: tuple) -> Size:
        return Size(tuple(self) + tuple(other)) if isinstance(other, tuple) else NotImplemented

    def __radd__(self, other: tuple) -> Size:
        return Size(tuple(other) + tuple(self)) if isinstance(other, tuple) else NotImplemented

    def __mul__(self, count: SupportsIndex) -> Size:
        return Size(tuple(self) * count)

    __rmul__ = __mul__

    @overload
    def __getitem__(self, index: SupportsIndex) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> Size: ...

    def __getitem__(self, index: SupportsIndex | slice) -> int | Size:
        if isinstance(index, slice):
            return Size(tuple.__getitem__(self, index))
        return tuple.__getitem__(self, index)

    def numel(self) -> int:
        return int(np.prod(self, dtype=np.int64))


def as_index(value: Any, argument: str = "dim", expected: str = "int") -> int:
    """``value`` as PyTorch's argument parser takes an int: Python and NumPy integers and one-element
    integer tensors (their ``__index__``); anything else (a float, None, a tensor of several elements)
    is its TypeError ``argument 'dim' must be int, not float``."""
    try:
        if getattr(value, "ndim", 0):  # Tensor.__index__ takes tensor([1]); the parser wants a 0-d one
            raise TypeError
        return operator.index(value)
    except TypeError:
        raise TypeError(f"argument '{argument}' must be {expected}, not {type(value).__name__}") from None


def wrap_dim(dim: int, ndim: int) -> int:
    """A possibly negative dimension index as a non-negative one, with PyTorch's error message."""
    if type(dim) is not int:
        dim = as_index(dim)
    elif 0 <= dim < ndim:  # the common case, without the range's arithmetic
        return dim
    low, high = -max(ndim, 1), max(ndim, 1) - 1
    if not low <= dim <= high:
        raise IndexError(f"Dimension out of range (expected to be in range of [{low}, {high}], "
                         f"but got {dim})")
    return dim % max(ndim, 1)
