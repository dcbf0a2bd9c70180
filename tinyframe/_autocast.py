"""The state of ``autocast`` regions, and the casts PyTorch's CPU autocast makes at the ops of its lists.

Bottom layer, so that the ops mark themselves: a function decorated ``@lower_precision`` (PyTorch's CPU list
``lower_precision_fp``: linear, matmul, mm, bmm, addmm, baddbmm, addbmm, convolutions, prelu, attention) gets
its floating inputs cast to the region's dtype (bfloat16 by default), one decorated ``@float32`` (the losses
of PyTorch's CPU ``fp32`` list) gets them cast to float32; every other op runs in its inputs' dtype, so a
softmax of a bfloat16 matmul is bfloat16. float64 tensors are never cast, as in PyTorch. The casts are
recorded (``ToCopyBackward0``), so gradients flow back in each input's own dtype.

Only 'cpu' regions cast: tinyframe's 'cuda' regions are accepted and reported but cast nothing (PyTorch's
CUDA lists are other lists).
"""
from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from . import dtypes

__all__ = ["is_enabled", "region_dtype", "enter", "leave", "lower_precision", "float32"]

_STATE = threading.local()  # per thread: {device_type: (enabled, dtype)}
_OPEN = [0]  # enabled 'cpu' regions open in any thread: while none is, the marked ops skip every check
F = TypeVar("F", bound=Callable[..., Any])


def _regions() -> dict:
    regions = getattr(_STATE, "regions", None)
    if regions is None:
        regions = _STATE.regions = {}
    return regions


def is_enabled(device_type: str) -> bool:
    """Whether an enabled region for ``device_type`` is open in this thread."""
    return _regions().get(device_type, (False, None))[0]


def region_dtype(device_type: str) -> Any:
    """The dtype of the innermost open region for ``device_type`` in this thread, or None."""
    return _regions().get(device_type, (False, None))[1]


def enter(device_type: str, enabled: bool, dtype: Any) -> tuple:
    """Opens a region; returns what ``leave`` needs to restore the one around it."""
    regions = _regions()
    previous = regions.get(device_type, (False, None))
    regions[device_type] = (enabled, dtype)
    if device_type == "cpu":
        _OPEN[0] += bool(enabled) - bool(previous[0])
    return previous


def leave(device_type: str, previous: tuple) -> None:
    """Closes the innermost region, restoring ``previous`` (from ``enter``)."""
    regions = _regions()
    if device_type == "cpu":
        _OPEN[0] += bool(previous[0]) - bool(regions.get(device_type, (False, None))[0])
    regions[device_type] = previous


def _cast_to(target: Callable[[], Any]) -> Callable[[F], F]:
    def mark(function: F) -> F:
        @functools.wraps(function)
        def cast_first(*args: Any, **kwargs: Any) -> Any:
            if _OPEN[0] and is_enabled("cpu"):
                dtype = target()
                args = tuple(_cast(a, dtype) for a in args)
                kwargs = {k: _cast(v, dtype) for k, v in kwargs.items()}
            return function(*args, **kwargs)
        return cast_first  # type: ignore[return-value]
    return mark


def _cast(value: Any, dtype: Any) -> Any:
    # PyTorch's eligible inputs: floating cpu tensors other than float64 (``value.to`` records the cast)
    data = getattr(value, "_data", None)
    if (type(data) is not np.ndarray or not hasattr(value, "grad_fn") or data.dtype == np.float64
            or dtypes.kind(data.dtype) != "f"):
        return value
    return value if data.dtype == dtype.numpy else value.to(dtype)


lower_precision = _cast_to(lambda: region_dtype("cpu"))
float32 = _cast_to(lambda: dtypes.float32)
