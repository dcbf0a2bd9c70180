"""The ``mpi`` backend: collectives on NumPy arrays through mpi4py (imported only when a group is made).

Every rank must call the same collectives in the same order (MPI's rule); the non-blocking forms
(``Iallreduce``, ...) return MPI requests that ``Work.wait`` completes.
"""
from __future__ import annotations

import sys
import traceback
from typing import Any

import numpy as np

from .reduce_op import ReduceOp


def _mpi() -> Any:
    try:
        from mpi4py import MPI
    except ImportError as exc:
        raise RuntimeError("the mpi backend needs mpi4py and an MPI library: pip install 'tinyframe[distributed]'"
                           ) from exc
    return MPI


class MPIBackend:
    """Collectives of ``MPI.COMM_WORLD`` on CPU arrays; blocking calls return None, others requests."""

    name = "mpi"

    def __init__(self) -> None:
        self.MPI = _mpi()
        self.comm = self.MPI.COMM_WORLD
        self.rank, self.size = self.comm.Get_rank(), self.comm.Get_size()
        self._ops = {ReduceOp.SUM: self.MPI.SUM, ReduceOp.AVG: self.MPI.SUM, ReduceOp.PRODUCT: self.MPI.PROD,
                     ReduceOp.MIN: self.MPI.MIN, ReduceOp.MAX: self.MPI.MAX}

    def check_array(self, array: Any, what: str) -> None:
        if not isinstance(array, np.ndarray):
            raise RuntimeError(f"{what}: the mpi backend takes CPU tensors, got one on cuda; "
                               "use init_process_group('nccl') for CUDA tensors")

    def _op(self, array: np.ndarray, op: ReduceOp) -> tuple[np.ndarray, Any]:
        """The buffer MPI reduces and the MPI op: booleans are reduced as uint8 (SUM/MAX as OR,
        PRODUCT/MIN as AND), as MPI defines no arithmetic on C booleans."""
        if array.dtype == np.bool_:
            return array.view(np.uint8), self.MPI.MIN if op in (ReduceOp.PRODUCT, ReduceOp.MIN) else self.MPI.MAX
        return array, self._ops[op]

    def all_reduce(self, array: np.ndarray, op: ReduceOp) -> Any:
        buffer, mpi_op = self._op(array, op)
        return self.comm.Iallreduce(self.MPI.IN_PLACE, buffer, mpi_op)

    def broadcast(self, array: np.ndarray, src: int) -> Any:
        return self.comm.Ibcast(array, root=src)

    def all_gather(self, send: np.ndarray, recv: np.ndarray) -> Any:
        return self.comm.Iallgather(send, recv)

    def reduce_scatter(self, send: np.ndarray, recv: np.ndarray, op: ReduceOp) -> Any:
        send_buffer, mpi_op = self._op(send, op)
        recv_buffer, _ = self._op(recv, op)
        return self.comm.Ireduce_scatter_block(send_buffer, recv_buffer, mpi_op)

    def gather(self, send: np.ndarray, recv: np.ndarray | None, dst: int) -> Any:
        return self.comm.Igather(send, recv, root=dst)

    def scatter(self, send: np.ndarray | None, recv: np.ndarray, src: int) -> Any:
        return self.comm.Iscatter(send, recv, root=src)

    def barrier(self) -> Any:
        return self.comm.Ibarrier()

    def wait(self, requests: list) -> None:
        """Completes the requests (``None`` entries, from blocking calls, are skipped)."""
        self.MPI.Request.Waitall([r for r in requests if r is not None])

    def progress(self, requests: list) -> None:
        """Lets MPI move pending non-blocking collectives on (MPI progresses only inside MPI calls)."""
        self.MPI.Request.Testall([r for r in requests if r is not None])

    def all_gather_object(self, obj: Any) -> list:
        return self.comm.allgather(obj)

    def broadcast_object(self, obj: Any, src: int) -> Any:
        return self.comm.bcast(obj, root=src)

    def abort_on_uncaught_exception(self) -> Any:
        """Installs a ``sys.excepthook`` that prints the traceback with this rank's number, then aborts
        every rank (``MPI_Abort``): a rank that dies must not leave the others waiting in a collective.
        Returns the hook it replaced."""
        previous, comm, rank = sys.excepthook, self.comm, self.rank

        def abort(kind: type, value: BaseException, tb: Any) -> None:
            message = "".join(traceback.format_exception(kind, value, tb))
            sys.stderr.write(f"[rank {rank}] {message}[rank {rank}] aborting the job (MPI_Abort)\n")
            sys.stderr.flush()
            comm.Abort(1)

        sys.excepthook = abort
        return previous

    def local_rank(self) -> int:
        """This process's index among the ranks on its node."""
        return self.comm.Split_type(self.MPI.COMM_TYPE_SHARED).Get_rank()

    def close(self) -> None:
        """MPI itself stays initialised (mpi4py finalises it at exit), as MPI cannot be re-initialised."""
