"""Writing PyTorch's ``torch.save`` zip format without PyTorch (``tinyframe.save(obj, f, format="torch")``).

The archive holds ``<name>/data.pkl``, a protocol-2 pickle emitted opcode by opcode here (PyTorch's
globals cannot be pickled by reference without importing PyTorch), one ``<name>/data/<key>``
member of raw little-endian bytes per tensor storage, ``<name>/byteorder`` and ``<name>/version``.
The pickle uses only what ``torch.load(weights_only=True)`` and ``tinyframe.load`` accept:
``torch._utils._rebuild_tensor_v2``, storage classes, ``torch.Size``, dtypes and
``collections.OrderedDict`` (and, for sparse COO tensors, ``torch._utils._rebuild_sparse_tensor`` with
``torch.serialization._get_layout``), around dicts, lists, tuples, strings, numbers, bools and None.
"""
from __future__ import annotations

import struct
import zipfile
from collections import OrderedDict
from typing import IO, Any

import numpy as np

from . import _graph, dtypes
from .device import CPU, move_array
from .tensor import Size, Tensor

__all__ = ["write"]

_STORAGE_OF = {np.dtype(np.float64): "DoubleStorage", np.dtype(np.float32): "FloatStorage",
               np.dtype(np.float16): "HalfStorage", np.dtype(np.int64): "LongStorage",
               np.dtype(np.int32): "IntStorage", np.dtype(np.int16): "ShortStorage", np.dtype(np.int8): "CharStorage",
               np.dtype(np.uint8): "ByteStorage", np.dtype(np.bool_): "BoolStorage"}


def write(obj: Any, fh: IO[bytes], name: str = "archive") -> None:
    """Writes ``obj`` to ``fh`` as ``torch.save`` would; TypeError names a value it cannot hold."""
    emitter = _Emitter()
    emitter.emit(obj, "obj")
    with zipfile.ZipFile(fh, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr(f"{name}/data.pkl", b"\x80\x02" + b"".join(emitter.out) + b".")
        archive.writestr(f"{name}/byteorder", "little")
        for key, array in enumerate(emitter.storages):
            if array.dtype.kind == "V":  # bfloat16 (ml_dtypes): its bits, little-endian
                array = array.view(np.uint16)
            archive.writestr(f"{name}/data/{key}", array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes())
        archive.writestr(f"{name}/version", "3\n")


class _Emitter:
    """Appends the pickle opcodes of one object at a time to ``out``."""

    def __init__(self) -> None:
        self.out: list[bytes] = []
        self.storages: list[np.ndarray] = []
        self._storage_keys: dict[int, int] = {}  # id(tensor._data) -> storage key

    def emit(self, obj: Any, where: str) -> None:
        out = self.out
        if obj is None:
            out.append(b"N")
        elif obj is True or obj is False:
            out.append(b"\x88" if obj else b"\x89")
        elif type(obj) is int:
            out.append(_int(obj))
        elif type(obj) is float:
            out.append(b"G" + struct.pack(">d", obj))
        elif type(obj) is str:
            encoded = obj.encode("utf-8", "surrogatepass")
            out.append(b"X" + struct.pack("<I", len(encoded)) + encoded)
        elif isinstance(obj, Tensor):
            self._tensor(obj)
        elif type(obj) is Size:
            out.append(b"ctorch\nSize\n")
            self._tuple(tuple(obj), where)
            out.append(b"\x85R")  # TUPLE1 of the shape tuple, then REDUCE: torch.Size((...))
        elif type(obj) is dtypes.dtype:
            out.append(f"ctorch\n{obj.name}\n".encode())
        elif type(obj) is tuple:
            self._tuple(obj, where)
        elif type(obj) is list:
            out.append(b"]")
            self._items(((None, value) for value in obj), b"e", where)
        elif type(obj) in (dict, OrderedDict):
            out.append(b"ccollections\nOrderedDict\n)R" if type(obj) is OrderedDict else b"}")
            self._items(obj.items(), b"u", where)
        else:
            raise TypeError(f"cannot save object of type {type(obj).__name__} at {where} in PyTorch's format: "
                            "it stores Tensors, numbers, bools, strings, None, Size, dtype and dicts, lists and "
                            "tuples of them")

    def _tuple(self, items: tuple, where: str) -> None:
        self.out.append(b"(")
        for i, value in enumerate(items):
            self.emit(value, f"{where}[{i}]")
        self.out.append(b"t")

    def _items(self, pairs: Any, closing: bytes, where: str) -> None:
        start = len(self.out)
        self.out.append(b"(")
        for key, value in pairs:
            if closing == b"u":
                self.emit(key, where)
            self.emit(value, f"{where}[{key!r}]" if closing == b"u" else where)
        if len(self.out) == start + 1:
            self.out.pop()  # empty container: no MARK ... APPENDS/SETITEMS
        else:
            self.out.append(closing)

    def _tensor(self, t: Tensor) -> None:
        if t.is_sparse:
            self._sparse(t)
            return
        key = self._storage_keys.get(id(t._data))
        if key is None:
            key = self._storage_keys[id(t._data)] = len(self.storages)
            self.storages.append(np.asarray(move_array(t._data, CPU), order="C"))
        array = self.storages[key]
        storage = "BFloat16Storage" if t.dtype is dtypes.bfloat16 else _STORAGE_OF.get(array.dtype)
        if storage is None:
            raise TypeError(f"cannot save a {array.dtype} tensor in PyTorch's format")
        out = self.out
        out.append(b"ctorch._utils\n_rebuild_tensor_v2\n(")
        out.append(f"(X\x07\x00\x00\x00storagectorch\n{storage}\n".encode())
        self.emit(str(key), "storage key")
        self.emit(str(t.device), "storage location")
        self.emit(int(array.size), "storage size")
        out.append(b"tQ")  # the persistent id tuple, then BINPERSID
        self.emit(0, "offset")
        self.emit(tuple(int(n) for n in array.shape), "size")
        self.emit(tuple(s // array.itemsize for s in array.strides), "stride")
        self.emit(t.requires_grad, "requires_grad")
        out.append(b"ccollections\nOrderedDict\n)Rt")  # backward_hooks, closing the argument tuple
        out.append(b"R")


    def _sparse(self, t: Tensor) -> None:
        """A sparse COO tensor as PyTorch pickles one: ``_rebuild_sparse_tensor(layout, (indices, values, size,
        is_coalesced))``, its layout from ``torch.serialization._get_layout('torch.sparse_coo')``."""
        a = t._data
        self.out.append(b"ctorch._utils\n_rebuild_sparse_tensor\nctorch.serialization\n_get_layout\n")
        self.emit("torch.sparse_coo", "layout")
        self.out.append(b"\x85R(")  # TUPLE1, REDUCE: the layout; MARK the data tuple
        self._tensor(_graph.wrap(a.indices))
        self._tensor(_graph.wrap(a.values))
        self.emit(Size(a.shape), "size")
        self.emit(a.coalesced, "is_coalesced")
        self.out.append(b"t\x86R")  # the data tuple, TUPLE2 (layout, data), REDUCE


def _int(n: int) -> bytes:
    if 0 <= n < 256:
        return b"K" + bytes([n])
    if 0 <= n < 65536:
        return b"M" + struct.pack("<H", n)
    if -(2 ** 31) <= n < 2 ** 31:
        return b"J" + struct.pack("<i", n)
    encoded = n.to_bytes((n.bit_length() + 8) // 8, "little", signed=True)
    return b"\x8a" + bytes([len(encoded)]) + encoded
