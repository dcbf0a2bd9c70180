"""``tinyframe.cuda``: whether CUDA (through CuPy) is usable, and device-wide controls."""
from __future__ import annotations

from types import ModuleType

from . import random
from .device import cuda_status, cupy_module, device, require_cuda

# ``torch.cuda.amp``: set by tinyframe/__init__.py, as tinyframe.amp lies in a layer above this module's.
amp: ModuleType

__all__ = ["is_available", "is_bf16_supported", "device_count", "current_device", "set_device", "synchronize",
           "manual_seed", "manual_seed_all"]


def is_available() -> bool:
    """True when CuPy is installed and sees at least one GPU; never raises."""
    return cuda_status()[0] > 0


def is_bf16_supported(including_emulation: bool = True) -> bool:
    """False: tinyframe has bfloat16 tensors on the cpu only (CuPy has no bfloat16 type)."""
    return False


def device_count() -> int:
    """The number of visible GPUs (0 without CuPy, a driver or a GPU)."""
    return cuda_status()[0]


def current_device() -> int:
    require_cuda()
    return int(cupy_module().cuda.runtime.getDevice())


def set_device(index: int) -> None:
    require_cuda()
    cupy_module().cuda.runtime.setDevice(int(index))


def synchronize(device: int | None = None) -> None:
    """Waits for all kernels on the device to finish."""
    require_cuda()
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
