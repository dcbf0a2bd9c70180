"""The one seam between tinyframe and its array libraries: NumPy on ``cpu``, CuPy on ``cuda``.

Everything else asks this module for the array module of a device or an array; nothing else
imports CuPy. CuPy is imported the first time a CUDA device is used.
"""
from __future__ import annotations

import functools
import weakref
from types import ModuleType
from typing import Any

import numpy as np

__all__ = ["device", "DeviceLike", "as_device", "array_module", "device_of", "move_array", "cupy_module",
           "set_default_device", "get_default_device", "array_from_dlpack", "MetaArray", "meta_array", "NO_DATA"]


class device:
    """Where a tensor's storage lives: ``device('cpu')``, ``device('cuda')``, ``device('cuda', 1)``."""

    __slots__ = ("type", "index")
    type: str
    index: int | None

    def __init__(self, spec: str | "device" | int, index: int | None = None) -> None:
        if isinstance(spec, device):
            index, spec = spec.index if index is None else index, spec.type
        elif isinstance(spec, int):
            index, spec = spec, "cuda"
        if not isinstance(spec, str):
            raise TypeError(f"device() expects a string like 'cpu' or 'cuda:0', got {type(spec).__name__}")
        kind, _, number = spec.partition(":")
        if kind not in ("cpu", "cuda", "meta"):
            raise RuntimeError(f"Expected one of cpu, cuda device type at start of device string: {spec}")
        if number:
            if index is not None or not number.isdigit():
                raise RuntimeError(f"Invalid device string: '{spec}'")
            index = int(number)
        if kind == "cpu" and index not in (None, 0):
            raise RuntimeError(f"CPU device index must be 0 or None, got {index}")
        self.type = kind
        self.index = None if kind == "cpu" else index

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __enter__(self) -> device:
        """``with tinyframe.device('cuda'):`` makes factories without ``device=`` allocate here."""
        _DEFAULT.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        _DEFAULT.pop()


DeviceLike = device | str | int | None
CPU = device("cpu")
META = device("meta")


class MetaArray(np.ndarray):
    """The data of a tensor on the ``meta`` device (PyTorch's tensors with a shape and a dtype but no data):
    one zero element seen through zero strides (``meta_array``), so that a module of any size can be built
    on ``meta`` and materialised later (``Module.to_empty``). In-place writes into it do nothing, reading
    it out raises; an op on it runs as on a NumPy array of zeros, whose result NumPy keeps a ``MetaArray``."""


def meta_array(shape: tuple, dtype: Any) -> MetaArray:
    """A ``MetaArray`` of ``shape`` and ``dtype``: no memory but one element, writable (what an op writes
    into it is never read)."""
    return np.lib.stride_tricks.as_strided(np.zeros((), dtype), tuple(shape), (0,) * len(shape)).view(MetaArray)


NO_DATA = "Cannot copy out of meta tensor; no data!"
# The default device is the last entry: set_default_device replaces the bottom one, ``with device``
# blocks push and pop above it.
_DEFAULT: list = [CPU]


def set_default_device(spec: DeviceLike) -> None:
    """Sets the device that factories (``zeros``, ``tensor``, ``randn``, ...) use when called
    without ``device=``; ``None`` restores ``cpu`` (PyTorch's ``torch.set_default_device``)."""
    _DEFAULT[0] = CPU if spec is None else device(spec)


def get_default_device() -> device:
    """The device that factories use when called without ``device=``."""
    return as_device(_DEFAULT[-1])


@functools.cache
def cupy_module() -> ModuleType:
    """Imports CuPy on first use, with an error that says what to install."""
    try:
        import cupy
    except ImportError as exc:
        raise RuntimeError("CUDA tensors need CuPy: pip install 'tinyframe[cuda]' "
                           "(see the README for the CUDA 12 / 13 wheels)") from exc
    return cupy


@functools.cache
def cuda_status() -> tuple[int, str]:
    """The number of visible GPUs, and why there are none when it is 0 (what is missing, what to install)."""
    try:
        cupy = cupy_module()
    except RuntimeError:
        return 0, "CuPy is not installed (pip install 'tinyframe[cuda]'; the README lists the CUDA 12 / 13 wheels)"
    try:
        count = int(cupy.cuda.runtime.getDeviceCount())
    except Exception as error:  # CuPy's CUDARuntimeError: cudaErrorInsufficientDriver, cudaErrorNoDevice, ...
        code = str(error).partition(":")[0]
        return 0, (f"CuPy is installed but the CUDA runtime reports no usable GPU ({code}): "
                   "this machine needs an NVIDIA GPU and its driver")
    return count, "" if count else "CuPy is installed but sees no GPU"


def require_cuda() -> None:
    """Raises RuntimeError, saying what is missing, unless CUDA is usable."""
    count, reason = cuda_status()
    if not count:
        raise RuntimeError(f"No CUDA GPU was found: {reason}. Use the cpu device instead.")


def as_device(spec: DeviceLike) -> device:
    """Normalises a device argument; ``None`` means the default device, ``cuda`` without an index the
    current CUDA device."""
    if spec is None:
        spec = _DEFAULT[-1]
        if spec is CPU:
            return CPU
    dev = spec if isinstance(spec, device) else device(spec)
    if dev.type == "cuda":
        require_cuda()  # our error, not CuPy's driver-version message from deep inside the first kernel
        if dev.index is None:
            dev = device("cuda", cupy_module().cuda.runtime.getDevice())
    return dev


def array_module(dev: device) -> ModuleType:
    """NumPy for ``cpu`` (and ``meta``), CuPy for ``cuda``."""
    return cupy_module() if dev.type == "cuda" else np


def array_module_of(array: Any) -> ModuleType:
    """The module that made ``array`` (or arrays of type ``array``): NumPy for ndarrays and NumPy scalars
    (what arithmetic on 0-dim arrays gives), else CuPy."""
    if (array is np.ndarray or isinstance(array, np.ndarray) or array is None or isinstance(array, np.generic)
            or array is MetaArray):
        return np
    sparse_module = getattr(array, "array_module", None)  # a sparse tensor's array (ops.sparse.COO) names its own
    if sparse_module is not None:
        return sparse_module
    return cupy_module()


def address_of(array: Any) -> int:
    """The memory address of the first element of a NumPy or CuPy array."""
    interface = array.__array_interface__ if isinstance(array, np.ndarray) else array.__cuda_array_interface__
    return int(interface["data"][0])


def storage_of(array: Any) -> tuple[Any, int]:
    """``(root, offset)``: the array whose memory ``array`` views (its ``.base`` chain followed to the
    end) and where ``array``'s first element sits in it, in elements (PyTorch's storage offset)."""
    root = array
    while True:
        base = root.base
        if not isinstance(base, type(array)):  # NumPy's as_strided puts an object holding the array between
            base = getattr(base, "base", None)
        if not isinstance(base, type(array)):
            break
        root = base
    return root, (address_of(array) - address_of(root)) // array.itemsize


class UntypedStorage:
    """The memory a tensor views, as bytes (what ``Tensor.untyped_storage()`` returns): code compares
    ``data_ptr()`` to see whether two tensors share memory and reads ``nbytes()``."""

    def __init__(self, array: Any) -> None:
        self._root = storage_of(array)[0]

    def data_ptr(self) -> int:
        """The address of the storage's first byte."""
        return address_of(self._root)

    def nbytes(self) -> int:
        """The storage's size in bytes."""
        return int(self._root.nbytes)

    size = nbytes
    __len__ = nbytes

    def element_size(self) -> int:
        """1: an untyped storage holds bytes."""
        return 1

    @property
    def device(self) -> device:
        """The device of the memory."""
        return device_of(self._root)

    def share_memory_(self) -> UntypedStorage:
        """Marks the memory as shared between processes (a no-op for CUDA memory), as PyTorch's moving
        it to shared memory: tinyframe's DataLoader workers are threads, which share memory already."""
        if self.device.type == "cpu":
            _SHARED[id(self._root)] = self._root
        return self

    def is_shared(self) -> bool:
        """Whether :meth:`share_memory_` was called on this memory (by any tensor viewing it); always True
        for CUDA memory."""
        return self.device.type == "cuda" or _SHARED.get(id(self._root)) is self._root


# Memory marked shared, by id: weak values, so an entry goes with its array and an id is never reused.
_SHARED: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def device_of(array: Any) -> device:
    """The device of a NumPy or CuPy array (or NumPy scalar, what arithmetic on 0-dim arrays gives)."""
    if isinstance(array, np.ndarray):
        return META if type(array) is MetaArray else CPU
    if isinstance(array, np.generic):
        return CPU
    sparse_values = getattr(array, "values", None)  # a sparse tensor's array (ops.sparse.COO): its values'
    if sparse_values is not None:
        return device_of(sparse_values)
    return device("cuda", array.device.id)


def unlock_read_only(array: Any) -> bool:
    """Makes a NumPy array marked read-only (``from_numpy`` of one, and its views) writable and returns True:
    PyTorch writes into such an array's memory, after the warning ``from_numpy`` gives. False for a writable
    array (CuPy's all are) and for a broadcast view (its elements share memory); raises where the memory
    itself is read-only (bytes, a read-only mapping)."""
    if getattr(array.flags, "writeable", True) or 0 in array.strides:
        return False
    chain = [array]
    while isinstance(chain[-1].base, np.ndarray):
        chain.append(chain[-1].base)
    try:
        for owner_first in reversed(chain):
            owner_first.flags.writeable = True
    except (ValueError, AttributeError):
        raise RuntimeError("cannot write into this tensor: its memory is a read-only NumPy array (from_numpy of a "
                           "non-writable array); clone() it, or copy the array, before writing") from None
    return True


def add_at(target: Any, index: Any, values: Any) -> None:
    """``target[index] += values`` without buffering: repeated indices accumulate."""
    if isinstance(target, np.ndarray):
        np.add.at(target, index, values)
    else:
        import cupyx
        cupyx.scatter_add(target, index, values)


def check_dtype_on(np_dtype: Any, dev: device) -> None:
    """Raises TypeError for bfloat16 on a cuda device: CuPy has no bfloat16 type."""
    if dev.type == "cuda" and np_dtype.name == "bfloat16":
        raise TypeError(f"tinyframe has no bfloat16 tensors on {dev}: CuPy has no bfloat16 type; keep bfloat16 "
                        "tensors on the cpu, or use float16 (torch.half) or float32 on cuda")


def move_array(array: Any, dev: device) -> Any:
    """``array`` on ``dev``; the same object when it is already there."""
    current = device_of(array)
    if current == dev:
        return array
    if dev.type == "meta":
        return meta_array(array.shape, array.dtype)
    if current.type == "meta":
        raise NotImplementedError(NO_DATA)
    if getattr(array, "layout", None) == "sparse_coo":  # a sparse tensor's array (ops.sparse.COO) moves its parts
        return array.moved_to(dev)
    if dev.type == "cpu":
        return array.get()
    check_dtype_on(array.dtype, dev)
    cupy = cupy_module()
    with cupy.cuda.Device(dev.index):
        return cupy.asarray(array)


# DLPack's device types (dlpack.h): kDLCPU, kDLCUDA, kDLCUDAHost (pinned host memory NumPy can read).
_DLPACK_CPU, _DLPACK_CUDA, _DLPACK_CUDA_HOST = 1, 2, 3


def array_from_dlpack(source: Any) -> Any:
    """A NumPy or CuPy array sharing the memory of ``source``, an object with ``__dlpack__`` and
    ``__dlpack_device__`` (a NumPy, PyTorch, CuPy or JAX array)."""
    kind, index = source.__dlpack_device__()
    if kind in (_DLPACK_CPU, _DLPACK_CUDA_HOST):
        return np.from_dlpack(source)
    if kind == _DLPACK_CUDA:
        cupy = cupy_module()
        with cupy.cuda.Device(int(index)):
            return cupy.from_dlpack(source)
    raise RuntimeError(f"from_dlpack: unsupported DLPack device type {int(kind)}; tinyframe takes CPU (1) and "
                       "CUDA (2) memory")
