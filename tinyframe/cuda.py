"""``tinyframe.cuda``: whether CUDA (through CuPy) is usable, and device-wide controls."""
from __future__ import annotations

import functools

from .device import cupy_module

__all__ = ["is_available", "device_count", "current_device", "set_device", "synchronize",
           "manual_seed", "manual_seed_all"]


@functools.cache
def _probe() -> tuple[int, str]:
    """The number of visible GPUs, and why there are none when it is 0."""
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


def is_available() -> bool:
    """True when CuPy is installed and sees at least one GPU; never raises."""
    return _probe()[0] > 0


def device_count() -> int:
    """The number of visible GPUs (0 without CuPy, a driver or a GPU)."""
    return _probe()[0]


def _unavailable_reason() -> str:
    """Why CUDA cannot be used here (what is missing and what to install); '' when it can."""
    return _probe()[1]


def _require() -> None:
    """Raises RuntimeError, saying what is missing, unless CUDA is usable."""
    if not is_available():
        raise RuntimeError(f"No CUDA GPU was found: {_unavailable_reason()}. Use the cpu device instead.")


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
    from . import random
    from .device import device
    random.generator_for(device("cuda", current_device())).manual_seed(seed)


def manual_seed_all(seed: int) -> None:
    """Seeds every GPU's generator."""
    from . import random
    from .device import device
    for index in range(device_count()):
        random.generator_for(device("cuda", index)).manual_seed(seed)
