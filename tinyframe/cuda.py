"""``tinyframe.cuda``: whether CUDA (through CuPy) is usable, and device-wide controls."""
from __future__ import annotations

import functools

from . import random
from .device import cupy_module, device

__all__ = ["is_available", "device_count", "current_device", "set_device", "synchronize",
           "manual_seed", "manual_seed_all"]


@functools.cache
def _runtime_device_count() -> int:
    try:
        return int(cupy_module().cuda.runtime.getDeviceCount())
    except Exception:  # no CuPy, no driver or no GPU: CUDA is simply unavailable
        return 0


def is_available() -> bool:
    """True when CuPy is installed and sees at least one GPU; never raises."""
    return _runtime_device_count() > 0


def device_count() -> int:
    """The number of visible GPUs (0 without CuPy or a GPU)."""
    return _runtime_device_count()


def _require() -> None:
    if not is_available():
        raise RuntimeError("CUDA is not available: install CuPy (pip install 'tinyframe[cuda]') on a "
                           "machine with an NVIDIA GPU")


def current_device() -> int:
    _require()
    return int(cupy_module().cuda.runtime.getDevice())


def set_device(index: int) -> None:
    _require()
    cupy_module().cuda.runtime.setDevice(int(index))


def synchronize(device: int | None = None) -> None:
    """Waits for all kernels on the device to finish."""
    _require()
    cupy = cupy_module()
    with cupy.cuda.Device(device if device is not None else current_device()):
        cupy.cuda.Device().synchronize()


def manual_seed(seed: int) -> None:
    """Seeds the current GPU's generator."""
    random.generator_for(device("cuda", current_device())).manual_seed(seed)


def manual_seed_all(seed: int) -> None:
    """Seeds every GPU's generator."""
    for index in range(device_count()):
        random.generator_for(device("cuda", index)).manual_seed(seed)
