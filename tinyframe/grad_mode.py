"""Grad mode: whether ops record the graph. Thread-local, as in PyTorch."""
from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled"]


class _GradState(threading.local):
    enabled = True


STATE = _GradState()


def is_grad_enabled() -> bool:
    """True when ops record the autograd graph in this thread."""
    return STATE.enabled


class _GradModeContext:
    """Base of the grad-mode switches: a context manager that is also a decorator."""

    mode: bool

    def __enter__(self) -> None:
        self._previous = STATE.enabled
        STATE.enabled = self.mode

    def __exit__(self, *exc: object) -> None:
        STATE.enabled = self._previous

    def _fresh(self) -> _GradModeContext:
        """A new switch of the same mode, for one call of a decorated function."""
        return type(self)()

    def __call__(self, fn: Callable) -> Callable:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self._fresh():
                return fn(*args, **kwargs)
        return wrapper


class no_grad(_GradModeContext):
    """Context manager and decorator that disables graph recording (``with tinyframe.no_grad():``)."""

    mode = False


class enable_grad(_GradModeContext):
    """Context manager and decorator that enables graph recording inside a ``no_grad`` block."""

    mode = True


class set_grad_enabled(_GradModeContext):
    """Sets grad mode to ``mode``; takes effect at once, and as a context manager restores on exit.

    Used as a decorator, it switches only around each call, as in PyTorch.
    """

    def __init__(self, mode: bool) -> None:
        self.mode = bool(mode)
        self._previous = STATE.enabled
        STATE.enabled = self.mode

    def __enter__(self) -> None:
        STATE.enabled = self.mode

    def _fresh(self) -> set_grad_enabled:
        return set_grad_enabled(self.mode)

    def __call__(self, fn: Callable) -> Callable:
        STATE.enabled = self._previous  # decorating must not switch the mode for the rest of the program
        return super().__call__(fn)
