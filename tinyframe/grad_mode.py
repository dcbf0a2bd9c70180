"""Grad mode: whether ops record the graph. Thread-local, as in PyTorch."""
from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode",
           "is_inference_mode_enabled"]


class _GradState(threading.local):
    enabled = True
    inference = False


STATE = _GradState()


class _AnomalyState:
    """Anomaly detection's switches (``autograd.detect_anomaly``), kept at this layer so that the graph's
    errors can word their hint as PyTorch does in that mode. Global, as PyTorch's."""

    enabled = False
    check_nan = True


ANOMALY = _AnomalyState()


def is_grad_enabled() -> bool:
    """True when ops record the autograd graph in this thread."""
    return STATE.enabled


class _GradModeContext:
    """Base of the grad-mode switches: a context manager that is also a decorator, with or without
    parentheses (``@no_grad()`` and ``@no_grad``)."""

    mode: bool

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if len(args) == 1 and not kwargs and callable(args[0]):
            return cls()(args[0])
        return super().__new__(cls)

    def __enter__(self) -> None:
        self._previous = STATE.enabled
        STATE.enabled = self.mode

    def __exit__(self, *exc: object) -> None:
        STATE.enabled = self._previous

    def _fresh(self) -> _GradModeContext:
        """A new switch of the same mode, for one call of a decorated function."""
        return type(self)()

    def __call__(self, fn: Callable) -> Callable:
        if inspect.isgeneratorfunction(fn):
            return self._wrap_generator(fn)

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self._fresh():
                return fn(*args, **kwargs)
        return wrapper

    def _wrap_generator(self, fn: Callable) -> Callable:
        """A decorated generator function runs each step of its generator under the switch (and the
        caller's code between steps outside it), as PyTorch's decorators do."""
        @functools.wraps(fn)
        def generator(*args: Any, **kwargs: Any) -> Any:
            gen = fn(*args, **kwargs)
            try:
                with self._fresh():
                    response = gen.send(None)
                while True:
                    try:
                        request = yield response
                    except GeneratorExit:
                        with self._fresh():
                            gen.close()
                        raise
                    except BaseException as exc:  # noqa: B036  thrown into the generator, as PyTorch does
                        with self._fresh():
                            response = gen.throw(exc)
                    else:
                        with self._fresh():
                            response = gen.send(request)
            except StopIteration as stop:
                return stop.value
        return generator


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


def is_inference_mode_enabled() -> bool:
    """True inside an ``inference_mode()`` block."""
    return STATE.inference


class inference_mode(_GradModeContext):
    """Context manager and decorator for evaluation code: records no graph, like ``no_grad``.

    ``inference_mode(False)`` turns it off and grad mode on (even inside ``no_grad``, as in
    PyTorch). Tensors made inside (but views of normal tensors) are inference tensors
    (``is_inference()``): outside the mode, an op recorded for autograd may not save one for backward,
    an in-place op may not write one, and none may be set to require grad (PyTorch's RuntimeErrors).
    """

    def __init__(self, mode: bool = True) -> None:
        self.inference = bool(mode)

    def __enter__(self) -> None:
        self._previous, self._previous_inference = STATE.enabled, STATE.inference
        STATE.enabled, STATE.inference = not self.inference, self.inference

    def __exit__(self, *exc: object) -> None:
        STATE.enabled, STATE.inference = self._previous, self._previous_inference

    def _fresh(self) -> inference_mode:
        return inference_mode(self.inference)
