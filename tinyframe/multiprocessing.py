"""``torch.multiprocessing``: the standard library's ``multiprocessing`` with PyTorch's additions
(sharing strategies, ``spawn``). tinyframe's tensors pickle by value, so no shared-memory machinery
is needed between processes."""
from __future__ import annotations

import multiprocessing as _multiprocessing
from collections.abc import Callable
from multiprocessing import *  # noqa: F401,F403
from typing import Any

__all__ = [*_multiprocessing.__all__, "get_all_sharing_strategies", "get_sharing_strategy", "set_sharing_strategy",
           "spawn", "start_processes"]

_SHARING = ["file_system"]


def get_all_sharing_strategies() -> set:
    """The strategies ``set_sharing_strategy`` accepts."""
    return {"file_descriptor", "file_system"}


def get_sharing_strategy() -> str:
    """The strategy last set (PyTorch's default on Linux is ``file_descriptor``)."""
    return _SHARING[0]


def set_sharing_strategy(new_strategy: str) -> None:
    """Accepted and remembered: tinyframe's tensors are copied between processes whatever the strategy."""
    if new_strategy not in get_all_sharing_strategies():
        raise AssertionError(f"unsupported sharing strategy {new_strategy}")
    _SHARING[0] = new_strategy


def start_processes(fn: Callable[..., Any], args: tuple = (), nprocs: int = 1, join: bool = True,
                    daemon: bool = False, start_method: str = "spawn") -> Any:
    """Runs ``fn(i, *args)`` in ``nprocs`` processes; with ``join`` waits for them and raises if one
    failed, else returns the processes."""
    context = _multiprocessing.get_context(start_method)
    # Every concrete context has its Process class; typeshed's BaseContext (get_context of a str) does not.
    process = context.Process  # type: ignore[attr-defined]
    processes = [process(target=fn, args=(i, *args), daemon=daemon) for i in range(nprocs)]
    for process in processes:
        process.start()
    if not join:
        return processes
    for process in processes:
        process.join()
    failed = [i for i, p in enumerate(processes) if p.exitcode != 0]
    if failed:
        raise RuntimeError(f"process {failed[0]} terminated with exit code {processes[failed[0]].exitcode}")
    return None


def spawn(fn: Callable[..., Any], args: tuple = (), nprocs: int = 1, join: bool = True, daemon: bool = False,
          start_method: str = "spawn") -> Any:
    """``start_processes`` with the ``spawn`` start method."""
    return start_processes(fn, args, nprocs, join, daemon, start_method)
