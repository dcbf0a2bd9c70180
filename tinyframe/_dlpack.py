"""DLPack exchange: tensors from any library's arrays and back, sharing memory (no copy)."""
from __future__ import annotations

import ctypes
from typing import Any

from .device import array_from_dlpack
from .tensor import Tensor

__all__ = ["from_dlpack", "to_dlpack"]

# An unconsumed capsule's name, and where its DLTensor starts: DLManagedTensor begins with it;
# DLManagedTensorVersioned puts a version (2 x uint32), manager_ctx, deleter and uint64 flags first.
_VERSIONED = (b"dltensor_versioned", 8 + 2 * ctypes.sizeof(ctypes.c_void_p) + 8)
_LEGACY = (b"dltensor", 0)


def from_dlpack(ext_tensor: Any) -> Tensor:
    """A tensor sharing memory with ``ext_tensor``: an object with ``__dlpack__`` (a NumPy array, a
    ``torch.Tensor``, a CuPy or JAX array) or a DLPack capsule (``to_dlpack``'s, PyTorch's). Writes
    through either one are seen by the other; NumPy imports a legacy capsule (PyTorch's
    ``to_dlpack``) read-only, since such a capsule cannot say whether its memory may be written.
    CPU memory gives a cpu tensor, CUDA memory a cuda tensor."""
    if not hasattr(ext_tensor, "__dlpack__"):
        ext_tensor = _Capsule(ext_tensor)
    return Tensor._make(array_from_dlpack(ext_tensor))


def to_dlpack(tensor: Tensor) -> Any:
    """A DLPack capsule sharing ``tensor``'s memory (DLPack 1.0, versioned), to be consumed once by
    ``from_dlpack`` here, in PyTorch or in CuPy."""
    try:
        return tensor.__dlpack__(max_version=(1, 0))
    except TypeError:  # an array library from before DLPack 1.0 (CuPy 13) makes only legacy capsules
        return tensor.__dlpack__()


class _Capsule:
    """A bare DLPack capsule presented through the ``__dlpack__`` protocol that importers read."""

    def __init__(self, capsule: Any) -> None:
        is_valid = ctypes.pythonapi.PyCapsule_IsValid
        is_valid.restype, is_valid.argtypes = ctypes.c_int, [ctypes.py_object, ctypes.c_char_p]
        kinds = [kind for kind in (_VERSIONED, _LEGACY)
                 if type(capsule).__name__ == "PyCapsule" and is_valid(capsule, kind[0])]
        if not kinds:
            raise RuntimeError("from_dlpack received an invalid capsule. Note that DLTensor capsules can be "
                               "consumed only once, so you might have already constructed a tensor from it once.")
        self.capsule, (self.name, self.offset) = capsule, kinds[0]

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.capsule

    def __dlpack_device__(self) -> tuple[int, int]:
        get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
        get_pointer.restype, get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
        dl_tensor = get_pointer(self.capsule, self.name) + self.offset
        # DLTensor: a data pointer, then DLDevice {int32 device_type, int32 device_id}.
        kind, index = (ctypes.c_int32 * 2).from_address(dl_tensor + ctypes.sizeof(ctypes.c_void_p))
        return kind, index
