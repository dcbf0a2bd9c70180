"""The default process group and its collectives, as ``torch.distributed``'s.

Processes are started by ``mpiexec -n N python script.py``; ``init_process_group`` joins them
through MPI (``backend="mpi"``, CPU tensors) or NCCL (``backend="nccl"``, one GPU per rank). The
collectives work in place on tensors; with ``async_op=True`` they return a ``Work`` whose
``wait()`` completes them. Before any data moves, the ranks exchange each tensor's shape and dtype,
so that a mismatch is a clear error on every rank instead of a hang or garbage.
"""
from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from typing import Any

from .. import cuda
from ..device import array_module_of
from ..tensor import Tensor
from .mpi_backend import MPIBackend
from .nccl_backend import NCCLBackend
from .reduce_op import ReduceOp

__all__ = ["Work", "init_process_group", "destroy_process_group", "is_available", "is_initialized",
           "is_mpi_available", "is_nccl_available", "get_rank", "get_world_size", "get_backend", "barrier",
           "all_reduce", "broadcast", "all_gather", "reduce_scatter", "gather", "scatter", "all_gather_object",
           "broadcast_object_list"]

_NOT_INITIALIZED = ("Default process group has not been initialized, please make sure to call "
                    "init_process_group.")


class _ProcessGroup:
    def __init__(self, backend: Any, previous_excepthook: Any) -> None:
        self.backend, self.previous_excepthook = backend, previous_excepthook
        self.rank, self.size = backend.rank, backend.size


_STATE: dict = {"group": None}


class Work:
    """A collective launched with ``async_op=True``; ``wait()`` blocks until its result is in the tensors."""

    def __init__(self, backend: Any, requests: list, finish: Callable[[], None] | None) -> None:
        self._backend, self._requests, self._finish, self._done = backend, requests, finish, False

    def wait(self, timeout: Any = None) -> bool:
        if not self._done:
            self._backend.wait(self._requests)
            if self._finish is not None:
                self._finish()
            self._done = True
        return True

    def is_completed(self) -> bool:
        return self._done


def is_available() -> bool:
    """Whether a backend can be used: mpi4py is installed (it is not imported here)."""
    return is_mpi_available()


def is_mpi_available() -> bool:
    return importlib.util.find_spec("mpi4py") is not None


def is_nccl_available() -> bool:
    return is_mpi_available() and importlib.util.find_spec("cupy") is not None


def is_initialized() -> bool:
    return _STATE["group"] is not None


def _group(group: Any = None) -> _ProcessGroup:
    if group is not None and group is not _STATE["group"]:
        raise ValueError("tinyframe.distributed supports the default group only (group=None)")
    if _STATE["group"] is None:
        raise ValueError(_NOT_INITIALIZED)
    return _STATE["group"]


def init_process_group(backend: str | None = None, init_method: str | None = None, timeout: Any = None,
                       world_size: int = -1, rank: int = -1, store: Any = None, group_name: str = "",
                       pg_options: Any = None, device_id: Any = None) -> None:
    """Joins the processes started by ``mpiexec`` into the default group.

    ``backend`` is ``"mpi"`` (CPU tensors), ``"nccl"`` (CUDA tensors, rank ``r`` on GPU
    ``local_rank % device_count``) or ``None``: nccl when every rank sees a GPU, else mpi. Rank and world
    size come from MPI; ``world_size`` and ``rank``, when given, must agree with them. From here on
    an uncaught exception on any rank prints its traceback and aborts every rank (``MPI_Abort``).
    ``init_method``, ``timeout``, ``store``, ``group_name`` and ``pg_options`` are accepted for
    PyTorch compatibility and unused.
    """
    if _STATE["group"] is not None:
        raise ValueError("trying to initialize the default process group twice!")
    if backend is not None and str(backend).lower() not in ("mpi", "nccl"):
        raise ValueError(f"Invalid backend: '{backend}'; tinyframe.distributed supports 'mpi' and 'nccl'")
    control = MPIBackend()
    for name, given, actual in (("world_size", world_size, control.size), ("rank", rank, control.rank)):
        if given not in (-1, None) and given != actual:
            raise ValueError(f"init_process_group: {name}={given} but mpiexec started this process with "
                             f"{name} {actual}; launch with mpiexec -n <world_size> and leave {name} out")
    if backend is None:
        backend = "nccl" if all(control.all_gather_object(cuda.is_available())) else "mpi"
    chosen = NCCLBackend(control) if str(backend).lower() == "nccl" else control
    _STATE["group"] = _ProcessGroup(chosen, chosen.abort_on_uncaught_exception())


def destroy_process_group(group: Any = None) -> None:
    """Leaves the default group; the uncaught-exception hook is restored."""
    pg = _group(group)
    sys.excepthook = pg.previous_excepthook
    pg.backend.close()
    _STATE["group"] = None


def get_rank(group: Any = None) -> int:
    """This process's rank, ``0 .. world_size - 1``."""
    return _group(group).rank


def get_world_size(group: Any = None) -> int:
    return _group(group).size


def get_backend(group: Any = None) -> str:
    return _group(group).backend.name


def _launch(pg: _ProcessGroup, request: Any, finish: Callable[[], None] | None, async_op: bool) -> Work | None:
    work = Work(pg.backend, [request], finish)
    if async_op:
        return work
    work.wait()
    return None


def barrier(group: Any = None, async_op: bool = False, device_ids: Any = None) -> Work | None:
    """Blocks until every rank has reached this barrier."""
    pg = _group(group)
    return _launch(pg, pg.backend.barrier(), None, async_op)


def _array(pg: _ProcessGroup, tensor: Any, what: str) -> Any:
    if not isinstance(tensor, Tensor):
        raise TypeError(f"{what}: expected a Tensor, got {type(tensor).__name__}")
    pg.backend.check_array(tensor._data, what)
    return tensor._data


def _prepare(pg: _ProcessGroup, what: str, tensor: Any, checks: Callable[[Any], Any] = lambda array: None) -> tuple:
    """``tensor``'s array and what ``checks(array)`` returns, once every rank has checked its arguments.

    The ranks exchange their tensor's shape and dtype and the error their own checks raised, if any:
    when one rank's arguments are wrong or the tensors differ, every rank raises (none is left waiting
    in a collective that the others never start).
    """
    array = checked = error = None
    try:
        array = _array(pg, tensor, what)
        checked = checks(array)
    except (TypeError, ValueError, RuntimeError) as exc:
        error = exc
    mine = (None if array is None else (tuple(array.shape), array.dtype.name),
            None if error is None else f"{type(error).__name__}: {error}")
    everyone = pg.backend.all_gather_object(mine)
    if error is not None:
        raise error
    for rank, (_, message) in enumerate(everyone):
        if message is not None:
            raise RuntimeError(f"{what}: rank {rank} failed: {message}")
    signatures = [signature for signature, _ in everyone]
    if any(signature != signatures[0] for signature in signatures):
        found = ", ".join(f"rank {r} has shape {list(s)} {d}" for r, (s, d) in enumerate(signatures))
        raise RuntimeError(f"{what}: the tensors differ across ranks ({found}); every rank must pass a tensor "
                           "of the same shape and dtype")
    return array, checked


def _check_list(pg: _ProcessGroup, what: str, name: str, tensors: Any, like: Any) -> list:
    """The arrays of ``tensors``: one per rank, each of ``like``'s shape and dtype."""
    if not isinstance(tensors, (list, tuple)) or len(tensors) != pg.size:
        size = len(tensors) if isinstance(tensors, (list, tuple)) else type(tensors).__name__
        raise ValueError(f"{what}: {name} must be a list of world_size={pg.size} tensors, got {size}")
    arrays = [_array(pg, t, what) for t in tensors]
    for i, array in enumerate(arrays):
        if array.shape != like.shape or array.dtype != like.dtype:
            raise ValueError(f"{what}: {name}[{i}] has shape {list(array.shape)} {array.dtype.name}, expected "
                             f"{list(like.shape)} {like.dtype.name} like the tensor of this rank")
    return arrays


def _check_avg(what: str, array: Any, op: ReduceOp) -> None:
    if not isinstance(op, ReduceOp):
        raise TypeError(f"{what}: op must be a ReduceOp, got {op!r}")
    if op is ReduceOp.AVG and array.dtype.kind not in "fc":
        raise TypeError(f"{what}: ReduceOp.AVG needs a floating point tensor, got {array.dtype.name}")


def _contiguous(array: Any) -> Any:
    return array if array.flags.c_contiguous else array_module_of(array).ascontiguousarray(array)


def _write(tensor: Tensor, value: Any) -> None:
    """Puts a collective's result into ``tensor``'s storage (in place, as PyTorch's collectives)."""
    if value is not tensor._data:
        tensor._data[...] = value
    tensor._bump_version()


def _averaged(pg: _ProcessGroup, buffer: Any, op: ReduceOp) -> Any:
    if op is ReduceOp.AVG:
        buffer /= pg.size
    return buffer


def all_reduce(tensor: Tensor, op: ReduceOp = ReduceOp.SUM, group: Any = None,
               async_op: bool = False) -> Work | None:
    """Reduces ``tensor`` across ranks with ``op``; every rank gets the result in ``tensor``."""
    pg = _group(group)
    array, _ = _prepare(pg, "all_reduce", tensor, lambda a: _check_avg("all_reduce", a, op))
    buffer = _contiguous(array)
    request = pg.backend.all_reduce(buffer, op)
    return _launch(pg, request, lambda: _write(tensor, _averaged(pg, buffer, op)), async_op)


def broadcast(tensor: Tensor, src: int, group: Any = None, async_op: bool = False) -> Work | None:
    """Copies rank ``src``'s ``tensor`` into ``tensor`` on every rank."""
    pg = _group(group)
    array, _ = _prepare(pg, "broadcast", tensor, lambda a: _check_rank(pg, "broadcast", "src", src))
    buffer = _contiguous(array)
    request = pg.backend.broadcast(buffer, src)
    return _launch(pg, request, lambda: _write(tensor, buffer), async_op)


def _check_rank(pg: _ProcessGroup, what: str, name: str, rank: int) -> None:
    if not 0 <= rank < pg.size:
        raise ValueError(f"{what}: {name}={rank} is not a rank of this group (world_size={pg.size})")


def all_gather(tensor_list: list, tensor: Tensor, group: Any = None, async_op: bool = False) -> Work | None:
    """Fills ``tensor_list[r]`` with rank ``r``'s ``tensor``, on every rank."""
    pg = _group(group)
    array, _ = _prepare(pg, "all_gather", tensor,
                        lambda a: _check_list(pg, "all_gather", "tensor_list", tensor_list, a))
    received = array_module_of(array).empty((pg.size, *array.shape), array.dtype)
    request = pg.backend.all_gather(_contiguous(array), received)
    return _launch(pg, request, lambda: _write_each(tensor_list, received), async_op)


def _write_each(tensors: list, stacked: Any) -> None:
    for tensor, value in zip(tensors, stacked):
        tensor._data[...] = value
        tensor._bump_version()


def reduce_scatter(output: Tensor, input_list: list, op: ReduceOp = ReduceOp.SUM, group: Any = None,
                   async_op: bool = False) -> Work | None:
    """Reduces ``input_list[r]`` across ranks with ``op`` into ``output`` of rank ``r``."""
    pg = _group(group)
    def checks(array: Any) -> list:
        _check_avg("reduce_scatter", array, op)
        return _check_list(pg, "reduce_scatter", "input_list", input_list, array)

    array, inputs = _prepare(pg, "reduce_scatter", output, checks)
    buffer = _contiguous(array)
    request = pg.backend.reduce_scatter(array_module_of(array).stack(inputs), buffer, op)
    return _launch(pg, request, lambda: _write(output, _averaged(pg, buffer, op)), async_op)


def gather(tensor: Tensor, gather_list: list | None = None, dst: int = 0, group: Any = None,
           async_op: bool = False) -> Work | None:
    """Fills ``gather_list[r]`` on rank ``dst`` with rank ``r``'s ``tensor``; other ranks pass no list."""
    pg = _group(group)
    def checks(array: Any) -> Any:
        """The array that receives every rank's tensor on ``dst``; None elsewhere."""
        _check_rank(pg, "gather", "dst", dst)
        if pg.rank != dst:
            if gather_list:
                raise ValueError("Argument ``gather_list`` must NOT be specified on non-destination ranks.")
            return None
        _check_list(pg, "gather", "gather_list", gather_list, array)
        return array_module_of(array).empty((pg.size, *array.shape), array.dtype)

    array, received = _prepare(pg, "gather", tensor, checks)
    request = pg.backend.gather(_contiguous(array), received, dst)
    finish = (lambda: _write_each(gather_list, received)) if received is not None and gather_list is not None else None
    return _launch(pg, request, finish, async_op)


def scatter(tensor: Tensor, scatter_list: list | None = None, src: int = 0, group: Any = None,
            async_op: bool = False) -> Work | None:
    """Copies ``scatter_list[r]`` of rank ``src`` into ``tensor`` of rank ``r``; other ranks pass no list."""
    pg = _group(group)
    def checks(array: Any) -> Any:
        """The stacked tensors to send from ``src``; None elsewhere."""
        _check_rank(pg, "scatter", "src", src)
        if pg.rank != src:
            if scatter_list:
                raise ValueError("Argument ``scatter_list`` must NOT be specified on non-source ranks.")
            return None
        return array_module_of(array).stack(_check_list(pg, "scatter", "scatter_list", scatter_list, array))

    array, sent = _prepare(pg, "scatter", tensor, checks)
    buffer = _contiguous(array)
    request = pg.backend.scatter(sent, buffer, src)
    return _launch(pg, request, lambda: _write(tensor, buffer), async_op)


def all_gather_object(object_list: list, obj: Any, group: Any = None) -> None:
    """Fills ``object_list[r]`` with rank ``r``'s ``obj`` (any picklable object), on every rank."""
    pg = _group(group)
    if len(object_list) != pg.size:
        raise ValueError(f"all_gather_object: object_list must have world_size={pg.size} entries, "
                         f"got {len(object_list)}")
    object_list[:] = pg.backend.all_gather_object(obj)


def broadcast_object_list(object_list: list, src: int = 0, group: Any = None, device: Any = None) -> None:
    """Replaces the entries of ``object_list`` on every rank with those of rank ``src``'s list."""
    pg = _group(group)
    _check_rank(pg, "broadcast_object_list", "src", src)
    object_list[:] = pg.backend.broadcast_object(list(object_list) if pg.rank == src else None, src)
