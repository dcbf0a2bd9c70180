"""``tinyframe.utils.safetensors``: the functions of ``safetensors.torch``, for tinyframe tensors.

Files are read and written by tinyframe itself (no ``safetensors`` package needed) and are
interchangeable with ``safetensors.torch.save_file`` / ``load_file``: a PyTorch model's
``state_dict()`` saved by either side loads into the matching model on the other.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from .. import _safetensors
from ..serialization import _write_atomically
from ..tensor import Tensor

__all__ = ["save_file", "load_file", "save", "load"]


def save_file(tensors: Mapping[str, Tensor], filename: str | os.PathLike,
              metadata: Mapping[str, str] | None = None) -> None:
    """Saves a flat ``{name: Tensor}`` dict (a ``state_dict()``) to ``filename``, atomically;
    ``metadata`` is an optional ``{str: str}`` dict."""
    _write_atomically(os.fspath(filename), lambda fh: _safetensors.write(tensors, fh, metadata))


def load_file(filename: str | os.PathLike, device: Any = "cpu") -> dict[str, Tensor]:
    """The ``{name: Tensor}`` dict in the safetensors file ``filename``, on ``device``."""
    with open(filename, "rb") as fh:
        return _safetensors.read(fh, device)


def save(tensors: Mapping[str, Tensor], metadata: Mapping[str, str] | None = None) -> bytes:
    """The safetensors bytes of a flat ``{name: Tensor}`` dict."""
    return _safetensors.save(tensors, metadata)


def load(data: bytes) -> dict[str, Tensor]:
    """The ``{name: Tensor}`` dict in safetensors bytes, on the cpu."""
    return _safetensors.load(data)
