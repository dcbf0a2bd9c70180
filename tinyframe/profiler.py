"""``torch.profiler`` (and ``torch.autograd.profiler``): the context managers and schedules that
training scripts wrap their loops in. tinyframe records no kernel timings; the profile's table lists
the ``record_function`` regions with their call counts and wall times."""
from __future__ import annotations

import enum
import functools
import time
from collections.abc import Callable
from typing import Any

__all__ = ["profile", "record_function", "ProfilerActivity", "ProfilerAction", "schedule",
           "tensorboard_trace_handler"]

_ACTIVE: list = []  # the profiles being recorded, innermost last


class ProfilerActivity(enum.Enum):
    CPU = 0
    CUDA = 1


class ProfilerAction(enum.Enum):
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def schedule(*, wait: int, warmup: int, active: int, repeat: int = 0, skip_first: int = 0) -> Callable[[int], Any]:
    """The action for each step: ``skip_first`` steps, then cycles of ``wait``, ``warmup`` and ``active`` steps."""
    def action(step: int) -> ProfilerAction:
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        cycle = wait + warmup + active
        if repeat and step // cycle >= repeat:
            return ProfilerAction.NONE
        position = step % cycle
        if position < wait:
            return ProfilerAction.NONE
        if position < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD_AND_SAVE if position == cycle - 1 else ProfilerAction.RECORD
    return action


def tensorboard_trace_handler(dir_name: str, worker_name: str | None = None, use_gzip: bool = False) -> Callable:
    """A trace handler for ``on_trace_ready``; tinyframe writes no trace files."""
    return lambda profiler: None


class _Averages(list):
    """``key_averages()``: one ``(name, count, total seconds)`` row per recorded region."""

    def table(self, sort_by: str | None = None, row_limit: int = -1, **kwargs: Any) -> str:
        rows = sorted(self, key=lambda row: -row[2])[:row_limit if row_limit > 0 else None]
        lines = [f"{'Name':<40}{'# of Calls':>12}{'CPU total':>14}"]
        lines += [f"{name:<40}{count:>12}{total * 1e3:>12.3f}ms" for name, count, total in rows]
        return "\n".join(lines)


class profile:
    """``with profile(...) as prof:`` records the ``record_function`` regions run inside;
    ``prof.step()`` advances the ``schedule``; ``prof.key_averages().table()`` lists them."""

    def __init__(self, *args: Any, schedule: Callable | None = None, on_trace_ready: Callable | None = None,
                 enabled: bool = True, **kwargs: Any) -> None:
        self.schedule, self.on_trace_ready, self.enabled = schedule, on_trace_ready, enabled
        self.step_num = 0
        self._regions: dict = {}

    def __enter__(self) -> profile:
        if self.enabled:
            _ACTIVE.append(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self in _ACTIVE:
            _ACTIVE.remove(self)
        if self.on_trace_ready is not None:
            self.on_trace_ready(self)

    def start(self) -> None:
        self.__enter__()

    def stop(self) -> None:
        self.__exit__()

    def step(self) -> None:
        self.step_num += 1
        if self.schedule is not None and self.on_trace_ready is not None and \
                self.schedule(self.step_num - 1) == ProfilerAction.RECORD_AND_SAVE:
            self.on_trace_ready(self)

    def key_averages(self, *args: Any, **kwargs: Any) -> _Averages:
        return _Averages((name, count, total) for name, (count, total) in self._regions.items())

    def export_chrome_trace(self, path: str) -> None:
        """Writes an empty trace (no kernel timings are recorded)."""
        with open(path, "w") as file:
            file.write('{"traceEvents": []}')

    def _record(self, name: str, seconds: float) -> None:
        count, total = self._regions.get(name, (0, 0.0))
        self._regions[name] = (count + 1, total + seconds)


class record_function:
    """A named region (context manager or decorator) that enclosing profiles time."""

    def __init__(self, name: str, args: str | None = None) -> None:
        self.name = name
        self._start = 0.0

    def __enter__(self) -> record_function:
        self._start = time.perf_counter()
        return self

    def __exit__(self, *exc: Any) -> None:
        elapsed = time.perf_counter() - self._start
        for active in _ACTIVE:
            active._record(self.name, elapsed)

    def __call__(self, fn: Callable) -> Callable:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with record_function(self.name):
                return fn(*args, **kwargs)
        return wrapper
