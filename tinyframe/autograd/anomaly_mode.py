"""Anomaly detection: backward checks each node's gradients for NaN (PyTorch's ``detect_anomaly``)."""
from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

from ..device import array_module_of
from ..grad_mode import ANOMALY

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled", "is_anomaly_check_nan_enabled"]


STATE = ANOMALY  # (grad_mode holds it, for the graph's messages)


def is_anomaly_enabled() -> bool:
    """True while anomaly detection is on."""
    return STATE.enabled


def is_anomaly_check_nan_enabled() -> bool:
    """True while anomaly detection checks backward's gradients for NaN."""
    return STATE.check_nan


class set_detect_anomaly:
    """Turns anomaly detection on or off at once; as a context manager, restores on exit."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self._previous = (STATE.enabled, STATE.check_nan)
        STATE.enabled, STATE.check_nan = bool(mode), bool(check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        STATE.enabled, STATE.check_nan = self._previous


class detect_anomaly:
    """Context manager and decorator: inside it, a backward node that produces NaN raises a
    RuntimeError naming the node, instead of letting NaN spread into ``.grad``."""

    def __init__(self, check_nan: bool = True) -> None:
        self.check_nan = check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime and should "
                      "only be enabled for debugging.", UserWarning, stacklevel=2)

    def __enter__(self) -> None:
        self._previous = (STATE.enabled, STATE.check_nan)
        STATE.enabled, STATE.check_nan = True, self.check_nan

    def __exit__(self, *exc: object) -> None:
        STATE.enabled, STATE.check_nan = self._previous

    def __call__(self, fn: Callable) -> Callable:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self:
                return fn(*args, **kwargs)
        return wrapper


def check_gradients(node: Any, gradients: tuple) -> None:
    """Raises PyTorch's error when a node's backward returned NaN for one of its inputs."""
    for i, g in enumerate(gradients):
        data = getattr(g, "_data", g)  # an array, or a Tensor while backward is recorded
        if data is not None and bool(array_module_of(data).isnan(data).any()):
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")
