"""The stand-in's ``cupy.cuda``: one GPU, device 0, whose runtime answers as CUDA's does."""
from __future__ import annotations

import types


class CUDARuntimeError(RuntimeError):
    """``cupy_backends.cuda.api.runtime.CUDARuntimeError``."""


def invalid_device() -> CUDARuntimeError:
    return CUDARuntimeError("cudaErrorInvalidDevice: invalid device ordinal")


class Device:
    """``cupy.cuda.Device``: the one GPU of the stand-in, ``id`` 0."""

    def __init__(self, device: int | None = None) -> None:
        device = 0 if device is None else int(device)
        if device != 0:
            raise invalid_device()
        self.id = device

    def __enter__(self) -> Device:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def synchronize(self) -> None:
        return None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self) -> int:
        return self.id

    def __repr__(self) -> str:
        return f"<CUDA Device {self.id}>"


def get_device_count() -> int:
    return 1


def get_device() -> int:
    return 0


def set_device(device: int) -> None:
    Device(device)


runtime = types.ModuleType("cupy.cuda.runtime", "The stand-in's CUDA runtime: one device.")
runtime.CUDARuntimeError = CUDARuntimeError
runtime.getDeviceCount = get_device_count
runtime.getDevice = get_device
runtime.setDevice = set_device

MODULE = types.ModuleType("cupy.cuda", "The test stand-in for cupy.cuda (tests/fake_cupy).")
MODULE.Device = Device
MODULE.runtime = runtime
MODULE.is_available = lambda: True
