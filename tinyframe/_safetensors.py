"""The safetensors format, read and written without the ``safetensors`` package.

A file is an 8-byte little-endian header length ``N``, ``N`` bytes of JSON, then one byte buffer:

    {"weight": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]}, ...,
     "__metadata__": {"format": "pt"}}

Each tensor's bytes are C-ordered, little-endian, at ``data_offsets`` (relative to the buffer); the
tensors tile the buffer without gaps or overlaps. Files written here are read by
``safetensors.torch.load_file`` / ``safetensors.numpy.load_file``, and theirs are read here.
BF16 tensors are bfloat16 tensors (ml_dtypes' NumPy type).
"""
from __future__ import annotations

import json
import struct
from collections.abc import Mapping
from typing import IO, Any

import numpy as np

from . import dtypes
from .device import CPU, as_device, move_array
from .tensor import Tensor

__all__ = ["save", "load", "write", "read"]

_CODES: dict[np.dtype[Any], str] = {
    np.dtype(np.float16): "F16", np.dtype(np.float32): "F32", np.dtype(np.float64): "F64",
    np.dtype(np.uint8): "U8", np.dtype(np.int8): "I8", np.dtype(np.int16): "I16", np.dtype(np.int32): "I32",
    np.dtype(np.int64): "I64", np.dtype(np.bool_): "BOOL"}
_TYPES = {code: np_dtype.newbyteorder("<") for np_dtype, code in _CODES.items()}
_MAX_HEADER = 100_000_000  # the safetensors library's own limit


def save(tensors: Mapping[str, Tensor], metadata: Mapping[str, str] | None = None) -> bytes:
    """The safetensors bytes of a flat ``{name: Tensor}`` dict (a ``state_dict()``); ``metadata`` is
    a ``{str: str}`` dict stored under ``__metadata__``."""
    header: dict[str, Any] = {}
    if metadata is not None:
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()):
            raise TypeError("safetensors metadata must be a dict of str to str")
        header["__metadata__"] = dict(metadata)
    chunks, offset = [], 0
    for name, tensor in _checked(tensors).items():
        array = np.asarray(move_array(tensor._data, CPU), order="C")  # keeps 0-d tensors 0-d
        bfloat16 = tensor.dtype is dtypes.bfloat16
        code = "BF16" if bfloat16 else _CODES[array.dtype]
        header[name] = {"dtype": code, "shape": list(array.shape), "data_offsets": [offset, offset + array.nbytes]}
        stored = _little_endian_bits(array) if bfloat16 else array.astype(_TYPES[code], copy=False)
        chunks.append(stored.tobytes())
        offset += array.nbytes
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 8)  # the buffer starts 8-byte aligned, as the library writes it
    return b"".join([struct.pack("<Q", len(text)), text, *chunks])


def load(data: bytes, device: Any = "cpu") -> dict[str, Tensor]:
    """The ``{name: Tensor}`` dict stored in safetensors bytes, on ``device``; raises ValueError naming
    the problem for a damaged or foreign file."""
    if len(data) < 8:
        raise ValueError("too short for a safetensors file (no header length)")
    (length,) = struct.unpack("<Q", data[:8])
    if length > min(_MAX_HEADER, len(data) - 8):
        raise ValueError(f"header length {length} runs past the end of the {len(data)}-byte file")
    header = json.loads(bytes(data[8:8 + length]).decode("utf-8"))
    if not isinstance(header, dict):
        raise ValueError("the header is not a JSON object")
    header.pop("__metadata__", None)
    buffer = memoryview(data)[8 + length:]
    entries = sorted(header.items(), key=lambda item: item[1]["data_offsets"][0])
    expected = 0
    tensors = {}
    for name, entry in entries:
        begin, end = entry["data_offsets"]
        if begin != expected:
            raise ValueError(f"tensor {name!r} starts at byte {begin}, expected {expected} (gap or overlap)")
        tensors[name] = _array(name, entry, buffer[begin:end])
        expected = end
    if expected != len(buffer):
        raise ValueError(f"the tensors cover {expected} bytes of a {len(buffer)}-byte buffer")
    target = CPU if device is None else as_device(device)
    return {name: Tensor._make(move_array(tensors[name], target)) for name in sorted(tensors)}


def write(tensors: Mapping[str, Tensor], fh: IO[bytes], metadata: Mapping[str, str] | None = None) -> None:
    fh.write(save(tensors, metadata))


def read(fh: IO[bytes], device: Any = "cpu") -> dict[str, Tensor]:
    return load(fh.read(), device)


def _checked(tensors: Any) -> Mapping[str, Tensor]:
    if not isinstance(tensors, Mapping):
        raise TypeError(f"safetensors stores a dict of str to Tensor (a state_dict), got {type(tensors).__name__}")
    for name, tensor in tensors.items():
        if not isinstance(name, str) or not isinstance(tensor, Tensor):
            raise TypeError(f"safetensors stores a dict of str to Tensor; entry {name!r} is a "
                            f"{type(name).__name__} -> {type(tensor).__name__}")
    return tensors


def _little_endian_bits(array: np.ndarray) -> np.ndarray:
    """The bits of a bfloat16 array as little-endian 16-bit integers, as safetensors stores BF16."""
    return array.view(np.uint16).astype("<u2", copy=False)


def _array(name: str, entry: dict, raw: memoryview) -> np.ndarray:
    code, shape = entry["dtype"], tuple(int(n) for n in entry["shape"])
    if code == "BF16":
        array = np.frombuffer(raw, dtype="<u2").astype(np.uint16).view(dtypes.bfloat16.numpy)
    elif code in _TYPES:
        array = np.frombuffer(raw, dtype=_TYPES[code]).astype(_TYPES[code].newbyteorder("="))
    else:
        raise ValueError(f"tensor {name!r} has dtype {code}, which tinyframe cannot hold (it has "
                         f"{', '.join(sorted([*_TYPES, 'BF16']))})")
    if array.size != int(np.prod(shape, dtype=np.int64)):
        raise ValueError(f"tensor {name!r} of shape {list(shape)} and dtype {code} does not fit its "
                         f"{raw.nbytes} bytes")
    return array.reshape(shape)

