"""``set_num_threads`` / ``get_num_threads``: the CPU thread pools NumPy computes with.

NumPy runs matrix products in its BLAS library (OpenBLAS, MKL or Accelerate), which sizes its
thread pool from the machine's core count when it loads. On a machine shared with other work that
over-subscribes the cores: every BLAS call then waits for threads that are not scheduled. These
functions resize the BLAS and OpenMP pools at run time through ``threadpoolctl`` (a dependency of
tinyframe), as PyTorch's ``torch.set_num_threads`` does for its own pool. In an environment made
by hand without it, ``set_num_threads`` warns that it changed nothing.
"""
from __future__ import annotations

import os
import warnings
from types import ModuleType

__all__ = ["set_num_threads", "get_num_threads"]


def set_num_threads(num: int) -> None:
    """Sets the number of threads the CPU's BLAS and OpenMP pools use (PyTorch's intra-op threads)."""
    if isinstance(num, bool) or not isinstance(num, int):
        raise RuntimeError(f"set_num_threads expects an int, but got {type(num).__name__}")
    if num < 1:
        raise RuntimeError("set_num_threads expects a positive integer")
    threadpoolctl = _threadpoolctl()
    if threadpoolctl is None:
        warnings.warn(f"set_num_threads({num}) changed nothing: threadpoolctl is not installed "
                      "(pip install threadpoolctl), so NumPy's BLAS keeps its thread count", RuntimeWarning,
                      stacklevel=2)
        return
    threadpoolctl.threadpool_limits(limits=num)
    global _known_count
    _known_count = num


def get_num_threads() -> int:
    """The number of threads the CPU's BLAS pool uses (the largest pool's, if several are loaded);
    without threadpoolctl, the core count BLAS starts with."""
    threadpoolctl = _threadpoolctl()
    if threadpoolctl is None:
        return os.cpu_count() or 1
    return max((pool["num_threads"] for pool in threadpoolctl.threadpool_info()), default=1)


_known_count: int | None = None  # what get_num_threads() returned or set_num_threads() set last


def known_num_threads() -> int:
    """``get_num_threads()``, queried once and then as ``set_num_threads`` changes it: cheap enough for
    an op to size its work by (the query reads every loaded library's pool). A pool resized behind
    tinyframe's back (threadpoolctl directly) is not seen."""
    global _known_count
    if _known_count is None:
        _known_count = get_num_threads()
    return _known_count


def _threadpoolctl() -> ModuleType | None:
    try:
        import threadpoolctl
    except ImportError:
        return None
    return threadpoolctl
