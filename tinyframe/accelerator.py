"""``torch.accelerator``: the current accelerator, which is CUDA when CuPy sees a GPU."""
from __future__ import annotations

from . import cuda
from .device import device

__all__ = ["is_available", "current_accelerator", "device_count"]


def is_available() -> bool:
    """True when a CUDA device is usable."""
    return cuda.is_available()


def current_accelerator(check_available: bool = False) -> device | None:
    """``device("cuda")`` when CUDA is usable, else None."""
    return device("cuda") if cuda.is_available() else None


def device_count() -> int:
    """The number of CUDA devices (0 without CuPy or a GPU)."""
    return cuda.device_count()
