"""Reading PyTorch's ``torch.save`` files (the zip format, PyTorch >= 1.6) without PyTorch.

Such a file is a zip archive ``<name>/data.pkl`` (a pickle of the saved object) with one member
``<name>/data/<key>`` of raw little-endian bytes per tensor storage. The pickle is read by an
unpickler that, like ``torch.load(weights_only=True)``, resolves only an allow-list of globals:
``torch._utils._rebuild_tensor_v2`` / ``_rebuild_parameter`` (rebuilt as tinyframe Tensors viewing
their storage), ``_rebuild_sparse_tensor`` with ``torch.serialization._get_layout`` (sparse COO tensors),
the storage classes, ``torch.Size``, PyTorch dtypes, ``collections.OrderedDict`` and
a few builtins containers. Every other global (``os.system``, ``builtins.eval``, any class) is
refused before anything is called, with ``pickle.UnpicklingError``. bfloat16 storages load as
bfloat16 tensors.
"""
from __future__ import annotations

import collections
import pickle
import zipfile
from typing import IO, Any

import numpy as np

from . import dtypes
from .memory_format import sparse_coo
from .ops import sparse
from .tensor import Size, Tensor

__all__ = ["is_torch_archive", "load", "Refused"]


class Refused(pickle.UnpicklingError):
    """A pickle asked for something a weights-only load does not do (a global off the allow-list, a
    tensor outside its storage); raised before anything it asked for runs."""

# Storage class -> the little-endian dtype of its bytes; BFloat16Storage's are reinterpreted as bfloat16.
_STORAGES = {
    "DoubleStorage": "<f8", "FloatStorage": "<f4", "HalfStorage": "<f2", "BFloat16Storage": "<u2",
    "LongStorage": "<i8", "IntStorage": "<i4", "ShortStorage": "<i2", "CharStorage": "i1",
    "ByteStorage": "u1", "BoolStorage": "?",
}
_DTYPES = {"float64": dtypes.float64, "float32": dtypes.float32, "float16": dtypes.float16, "int64": dtypes.int64,
           "int32": dtypes.int32, "int16": dtypes.int16, "int8": dtypes.int8, "uint8": dtypes.uint8,
           "bool": dtypes.bool_, "bfloat16": dtypes.bfloat16}
_BUILTINS = {"set": set, "frozenset": frozenset, "slice": slice, "complex": complex}


def is_torch_archive(fh: IO[bytes]) -> bool:
    """Whether the zip archive ``fh`` (at its start) was written by ``torch.save``."""
    start = fh.tell()
    try:
        with zipfile.ZipFile(fh) as archive:
            return any(name.endswith("/data.pkl") or name == "data.pkl" for name in archive.namelist())
    except zipfile.BadZipFile:
        return False
    finally:
        fh.seek(start)


def load(fh: IO[bytes]) -> tuple[Any, list[tuple[Tensor, str]]]:
    """The object in the ``torch.save`` archive ``fh``, with its tensors on the host, and each
    tensor's saved location (PyTorch's, such as ``'cpu'`` or ``'cuda:0'``) for the caller to place."""
    with zipfile.ZipFile(fh) as archive:
        pickles = [name for name in archive.namelist() if name.endswith("/data.pkl") or name == "data.pkl"]
        prefix = pickles[0][: -len("data.pkl")]
        byteorder = prefix + "byteorder"
        if byteorder in archive.namelist() and archive.read(byteorder) != b"little":
            raise RuntimeError("the archive's tensors are big-endian, which tinyframe does not read")
        with archive.open(pickles[0]) as data:
            unpickler = _WeightsUnpickler(data, archive, prefix)
            root = unpickler.load()
    saved_on = [(tensor, storage.location) for storage in unpickler.storages.values() for tensor in storage.tensors]
    return root, saved_on


class _Storage:
    """A storage's elements as a host array, where it was saved, and the tensors that view it."""

    def __init__(self, array: np.ndarray, location: str) -> None:
        self.array, self.location = array, location
        self.tensors: list[Tensor] = []


class _WeightsUnpickler(pickle.Unpickler):
    def __init__(self, data: IO[bytes], archive: zipfile.ZipFile, prefix: str) -> None:
        super().__init__(data)
        self.archive, self.prefix = archive, prefix
        self.storages: dict[str, _Storage] = {}

    def find_class(self, module: str, name: str) -> Any:
        if module == "collections" and name == "OrderedDict":
            return collections.OrderedDict
        if module == "builtins" and name in _BUILTINS:
            return _BUILTINS[name]
        if module == "torch._utils" and name == "_rebuild_tensor_v2":
            return _rebuild_tensor
        if module == "torch._utils" and name == "_rebuild_parameter":
            return _rebuild_parameter
        if module == "torch._utils" and name == "_rebuild_sparse_tensor":
            return self._rebuild_sparse_tensor
        if module == "torch.serialization" and name == "_get_layout":
            return _get_layout
        if module == "torch" and name in _STORAGES:
            return name  # only ever seen inside a persistent id, where it names the element type
        if module == "torch" and name == "Size":
            return Size
        if module == "torch" and name in _DTYPES:
            return _DTYPES[name]
        raise Refused(
            f"Weights only load failed: unsupported global {module}.{name}. tinyframe.load reads PyTorch "
            "files like torch.load(weights_only=True): tensors, OrderedDicts and plain Python values; it "
            "never imports or calls anything else. Load the file with PyTorch if you trust it.")

    def _rebuild_sparse_tensor(self, layout: Any, data: tuple) -> Tensor:
        """``torch._utils._rebuild_sparse_tensor``: a sparse COO tensor of ``(indices, values, size[,
        is_coalesced])``, indices unchecked as in PyTorch 2.13 (NumPy checks them where they are used); it
        takes the place of its indices and values among the tensors of the values' storage, to be placed whole."""
        if layout is not sparse_coo or not 3 <= len(data) <= 4:
            raise Refused("Weights only load failed: a sparse tensor was rebuilt from something other than COO "
                          "data")
        indices, values, size = data[:3]
        if not (isinstance(indices, Tensor) and isinstance(values, Tensor)):
            raise Refused("Weights only load failed: a sparse tensor was rebuilt from something other than tensors")
        out = sparse.sparse_coo_tensor(indices, values, size, is_coalesced=len(data) == 4 and bool(data[3]))
        for storage in self.storages.values():
            if any(t is values for t in storage.tensors):
                storage.tensors.append(out)
            storage.tensors[:] = [t for t in storage.tensors if t is not indices and t is not values]
        return out

    def persistent_load(self, pid: Any) -> _Storage:
        if not (isinstance(pid, tuple) and len(pid) == 5 and pid[0] == "storage" and pid[1] in _STORAGES):
            raise Refused(f"Weights only load failed: unsupported persistent id {pid!r}")
        _, kind, key, location, numel = pid
        if key not in self.storages:
            raw = self.archive.read(f"{self.prefix}data/{key}")
            array = np.frombuffer(raw, dtype=_STORAGES[kind]).astype(np.dtype(_STORAGES[kind]).newbyteorder("="))
            if array.size != numel:
                raise Refused(f"storage {key} holds {array.size} elements, the pickle says {numel}")
            if kind == "BFloat16Storage":
                array = array.view(dtypes.bfloat16.numpy)
            self.storages[key] = _Storage(array, str(location))
        return self.storages[key]


def _rebuild_tensor(storage: _Storage, offset: int, size: tuple, stride: tuple, requires_grad: bool,
                    backward_hooks: Any, metadata: Any = None) -> Tensor:
    """``torch._utils._rebuild_tensor_v2``: a tensor viewing ``storage`` at ``offset`` with ``size``
    and ``stride`` (in elements), checked to stay inside the storage."""
    if not isinstance(storage, _Storage):
        raise Refused("Weights only load failed: a tensor was rebuilt from something other "
                                     "than a storage")
    base = storage.array
    size, stride, offset = tuple(int(n) for n in size), tuple(int(n) for n in stride), int(offset)
    if len(size) != len(stride) or offset < 0 or any(n < 0 for n in size + stride):
        raise Refused(f"invalid tensor layout: size {size}, stride {stride}, offset {offset}")
    last = offset + sum((n - 1) * s for n, s in zip(size, stride)) if all(size) else offset - 1
    if last >= base.size:
        raise Refused(f"a tensor of size {list(size)}, stride {list(stride)} at offset {offset} "
                                     f"runs past its storage of {base.size} elements")
    view = np.lib.stride_tricks.as_strided(base[offset:], size, [s * base.itemsize for s in stride])
    tensor = Tensor._make(view, None, bool(requires_grad) and dtypes.kind(base.dtype) == "f")
    storage.tensors.append(tensor)
    return tensor


def _rebuild_parameter(data: Tensor, requires_grad: bool, backward_hooks: Any) -> Tensor:
    """``torch._utils._rebuild_parameter``: a Parameter saved on its own, here a leaf tensor."""
    return data.requires_grad_(bool(requires_grad))


def _get_layout(name: str) -> Any:
    """``torch.serialization._get_layout``: the layout a sparse tensor was saved with (COO only)."""
    if name != "torch.sparse_coo":
        raise Refused(f"Weights only load failed: tinyframe has no {name} layout (it reads sparse COO tensors)")
    return sparse_coo

