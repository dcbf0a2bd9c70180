"""``torch.cpu``: the CPU's device-agnostic API (the counterpart of ``torch.cuda`` that device-generic code
calls: ``getattr(torch, device_type).synchronize()``), where there is one device and nothing to wait for.
``torch.cpu.amp`` holds the deprecated ``autocast`` and ``GradScaler`` for the cpu device type."""
from __future__ import annotations

import contextlib
from typing import Any

__all__ = ["is_available", "is_initialized", "device_count", "current_device", "set_device", "synchronize",
           "current_stream", "stream", "Stream", "StreamContext", "Event", "amp"]


def is_available() -> bool:
    """True: the CPU is always available."""
    return True


def is_initialized() -> bool:
    """True: the CPU needs no initialization."""
    return True


def device_count() -> int:
    """1: the CPU is one device."""
    return 1


def current_device() -> str:
    """``'cpu'``."""
    return "cpu"


def set_device(device: Any) -> None:
    """Does nothing: there is one CPU device."""


def synchronize(device: Any = None) -> None:
    """Returns at once: CPU work is done when its call returns."""


class Stream:
    """The CPU's stream: work runs in order as it is called, so recording and waiting are no-ops."""

    def __init__(self, priority: int = -1) -> None:
        self.priority = priority

    def wait_stream(self, stream: Any) -> None:
        """Nothing to wait for."""

    def wait_event(self, event: Any) -> None:
        """Nothing to wait for."""

    def record_event(self, event: Any = None) -> Any:
        """Nothing to record."""


class Event:
    """The CPU's event: always complete."""

    def __init__(self, enable_timing: bool = False) -> None:
        self.enable_timing = enable_timing

    def query(self) -> bool:
        """True: CPU work is done when its call returns."""
        return True

    def record(self, stream: Any = None) -> None:
        """Nothing to record."""

    def synchronize(self) -> None:
        """Nothing to wait for."""

    def wait(self, stream: Any = None) -> None:
        """Nothing to wait for."""


_CURRENT = [Stream()]


def current_stream(device: Any = None) -> Stream:
    """The CPU's stream."""
    return _CURRENT[0]


class StreamContext(contextlib.AbstractContextManager):
    """Makes ``stream`` current inside the block."""

    def __init__(self, stream: Stream | None) -> None:
        self.stream = stream

    def __enter__(self) -> None:
        self._previous = _CURRENT[0]
        if self.stream is not None:
            _CURRENT[0] = self.stream

    def __exit__(self, *exc: object) -> None:
        _CURRENT[0] = self._previous


def stream(stream: Stream) -> StreamContext:
    """A context manager that makes ``stream`` current (``StreamContext``)."""
    return StreamContext(stream)


from . import amp  # noqa: E402  (torch.cpu.amp)
