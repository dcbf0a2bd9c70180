"""PyTorch's typed storages, which older scripts still reach through ``Tensor.storage()``: the memory a
tensor views, as a flat sequence of its dtype's elements (``size()``, ``tolist()``, ``data_ptr()``), shared
by all views of it; and the legacy storage types (``torch.FloatStorage``, ...) that ``storage_type()`` names.
Loaded on first use."""
from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import dtypes
from .device import UntypedStorage, device, device_of, storage_of

__all__ = ["TypedStorage", "DoubleStorage", "FloatStorage", "HalfStorage", "BFloat16Storage", "LongStorage",
           "IntStorage", "ShortStorage", "CharStorage", "ByteStorage", "BoolStorage", "ComplexDoubleStorage",
           "ComplexFloatStorage"]

_DEPRECATION = ("TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the only "
                "storage class. This should only matter to you if you are using storages directly.  To access "
                "UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()")
_warned = False


def warn_deprecated() -> None:
    """PyTorch's deprecation warning for typed storages, given once per process as PyTorch gives it, at the
    line outside tinyframe that asked for a storage (past the argument-checking wrappers)."""
    global _warned
    if not _warned:
        _warned = True
        package = os.path.dirname(__file__)
        frame, stacklevel = sys._getframe(1), 2
        while frame.f_back is not None and frame.f_code.co_filename.startswith(package):
            frame, stacklevel = frame.f_back, stacklevel + 1
        warnings.warn(_DEPRECATION, UserWarning, stacklevel=stacklevel)


def _new_array(data: int | Sequence, d: dtypes.dtype) -> Any:
    if isinstance(data, int):
        return np.zeros(data, d.numpy)
    return np.asarray(data, dtype=d.numpy).reshape(-1)


def storage_of_array(array: Any) -> TypedStorage:
    """The typed storage that ``array`` views: its root's memory, seen as elements of ``array``'s dtype."""
    storage = TypedStorage.__new__(TypedStorage)
    storage._array = storage_of(array)[0].reshape(-1).view(array.dtype)
    return storage


class TypedStorage:
    """The memory a tensor views, as a flat sequence of elements of its dtype (what ``Tensor.storage()``
    returns; deprecated in PyTorch, in favour of ``Tensor.untyped_storage()``). Views of one tensor give
    storages with the same ``data_ptr()``, and writes through one are seen by the others."""

    _array: Any

    def __init__(self, data: int | Sequence = 0, *, dtype: dtypes.dtype | None = None) -> None:
        """New cpu memory: ``data`` elements (zeros), or the elements of the sequence ``data``, of ``dtype``
        (default: the default dtype)."""
        warn_deprecated()
        self._array = _new_array(data, dtypes.get_default_dtype() if dtype is None else dtype)

    @property
    def dtype(self) -> dtypes.dtype:
        """The element type."""
        return dtypes.from_numpy_dtype(self._array.dtype)

    @property
    def device(self) -> device:
        """The device of the memory."""
        return device_of(self._array)

    @property
    def is_cuda(self) -> bool:
        """Whether the memory is on a cuda device."""
        return self.device.type == "cuda"

    @property
    def _untyped_storage(self) -> UntypedStorage:
        return UntypedStorage(self._array)

    def untyped(self) -> UntypedStorage:
        """The same memory as bytes."""
        return self._untyped_storage

    def data_ptr(self) -> int:
        """The address of the first element."""
        return self._untyped_storage.data_ptr()

    def size(self) -> int:
        """The number of elements."""
        return int(self._array.size)

    __len__ = size

    def element_size(self) -> int:
        """The size of one element in bytes."""
        return int(self._array.itemsize)

    def nbytes(self) -> int:
        """The size in bytes."""
        return int(self._array.nbytes)

    def tolist(self) -> list:
        """The elements as a list of Python numbers."""
        return list(self)

    def __iter__(self) -> Any:
        return iter(self._array.tolist())

    def __getitem__(self, index: int) -> Any:
        return self._array[self._check_index(index)].item()

    def __setitem__(self, index: int, value: Any) -> None:
        self._array[self._check_index(index)] = value

    def _check_index(self, index: int) -> int:
        if not -self.size() <= index < self.size():
            raise IndexError(f"index {index} out of range for storage of size {self.size()}")
        return index

    def fill_(self, value: Any) -> TypedStorage:
        """Sets every element to ``value``; returns self."""
        self._array[...] = value
        return self

    def type(self) -> str:
        """The name of the legacy storage type: ``'torch.FloatStorage'`` for float32."""
        return f"torch.{dtypes.legacy_type_name(self.dtype)[:-len('Tensor')]}Storage"

    def is_shared(self) -> bool:
        """False: tinyframe shares no memory between processes."""
        return False

    def __repr__(self) -> str:
        elements = "\n ".join(str(value) for value in self)
        return (f" {elements}\n[tinyframe.storage.TypedStorage(dtype={self.dtype}, device={self.device}) "
                f"of size {self.size()}]")


class _LegacyStorageMeta(type):
    """The class of the legacy storage types: ``FloatStorage(3)`` makes a storage of 3 float32 elements,
    and ``isinstance(s, FloatStorage)`` checks ``s``'s dtype, as in PyTorch."""

    dtype: dtypes.dtype

    def __call__(cls, data: int | Sequence = 0) -> TypedStorage:
        warn_deprecated()
        return storage_of_array(_new_array(data, cls.dtype))

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, TypedStorage) and obj.dtype is cls.dtype


def _legacy_storage(d: dtypes.dtype) -> _LegacyStorageMeta:
    name = dtypes.legacy_type_name(d)[:-len("Tensor")] + "Storage"
    return _LegacyStorageMeta(name, (TypedStorage,), {"dtype": d, "__module__": "tinyframe", "__qualname__": name})


DoubleStorage = _legacy_storage(dtypes.float64)
FloatStorage = _legacy_storage(dtypes.float32)
HalfStorage = _legacy_storage(dtypes.float16)
BFloat16Storage = _legacy_storage(dtypes.bfloat16)
LongStorage = _legacy_storage(dtypes.int64)
IntStorage = _legacy_storage(dtypes.int32)
ShortStorage = _legacy_storage(dtypes.int16)
CharStorage = _legacy_storage(dtypes.int8)
ByteStorage = _legacy_storage(dtypes.uint8)
BoolStorage = _legacy_storage(dtypes.bool_)
ComplexDoubleStorage = _legacy_storage(dtypes.complex128)
ComplexFloatStorage = _legacy_storage(dtypes.complex64)
_BY_DTYPE = {cls.dtype: cls for cls in (DoubleStorage, FloatStorage, HalfStorage, BFloat16Storage, LongStorage,
                                        IntStorage, ShortStorage, CharStorage, ByteStorage, BoolStorage,
                                        ComplexDoubleStorage, ComplexFloatStorage)}


def storage_type(d: dtypes.dtype) -> type:
    """The legacy storage type of ``d`` (``FloatStorage`` for float32)."""
    return _BY_DTYPE[d]
