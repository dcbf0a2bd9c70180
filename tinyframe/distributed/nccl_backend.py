"""The ``nccl`` backend: collectives on CuPy arrays through ``cupy.cuda.nccl``, one GPU per rank.

The ranks are started by ``mpiexec``; rank 0 makes NCCL's unique id and MPI broadcasts it. Every
collective is queued on the current CUDA stream, so later work on that stream sees its result;
Python objects, barriers and the abort on an uncaught exception go through MPI.
"""
from __future__ import annotations

from typing import Any

from ..cuda import device_count
from ..device import cupy_module
from .mpi_backend import MPIBackend
from .reduce_op import ReduceOp


class NCCLBackend:
    """Collectives of every rank's GPU (device ``local_rank % device_count``) over one NCCL communicator."""

    name = "nccl"

    def __init__(self, control: MPIBackend) -> None:
        cupy = cupy_module()
        from cupy.cuda import nccl
        self.nccl, self.cupy, self.control = nccl, cupy, control
        self.rank, self.size = control.rank, control.size
        self.device_index = control.local_rank() % device_count()
        cupy.cuda.Device(self.device_index).use()
        unique_id = control.broadcast_object(nccl.get_unique_id() if self.rank == 0 else None, 0)
        self.comm = nccl.NcclCommunicator(self.size, unique_id, self.rank)
        self._ops = {ReduceOp.SUM: nccl.NCCL_SUM, ReduceOp.AVG: nccl.NCCL_SUM, ReduceOp.PRODUCT: nccl.NCCL_PROD,
                     ReduceOp.MIN: nccl.NCCL_MIN, ReduceOp.MAX: nccl.NCCL_MAX}
        self._types = {"int8": nccl.NCCL_INT8, "uint8": nccl.NCCL_UINT8, "int32": nccl.NCCL_INT32,
                       "int64": nccl.NCCL_INT64, "float16": nccl.NCCL_FLOAT16, "float32": nccl.NCCL_FLOAT32,
                       "float64": nccl.NCCL_FLOAT64, "bool": nccl.NCCL_UINT8}

    def check_array(self, array: Any, what: str) -> None:
        if not isinstance(array, self.cupy.ndarray):
            raise RuntimeError(f"{what}: the nccl backend takes CUDA tensors, got a CPU tensor; "
                               "move it with .cuda() or use init_process_group('mpi')")
        if array.dtype.name not in self._types:
            raise RuntimeError(f"{what}: NCCL has no {array.dtype.name} type; cast the tensor to a supported dtype "
                               f"({', '.join(self._types)})")

    def _args(self, array: Any) -> tuple:
        return array.data.ptr, array.size, self._types[array.dtype.name]

    def _op(self, array: Any, op: ReduceOp) -> Any:
        if array.dtype.name == "bool":  # as uint8: SUM/MAX are OR, PRODUCT/MIN are AND
            return self.nccl.NCCL_MIN if op in (ReduceOp.PRODUCT, ReduceOp.MIN) else self.nccl.NCCL_MAX
        return self._ops[op]

    @property
    def _stream(self) -> int:
        return self.cupy.cuda.get_current_stream().ptr

    def all_reduce(self, array: Any, op: ReduceOp) -> None:
        pointer, count, kind = self._args(array)
        self.comm.allReduce(pointer, pointer, count, kind, self._op(array, op), self._stream)

    def broadcast(self, array: Any, src: int) -> None:
        pointer, count, kind = self._args(array)
        self.comm.broadcast(pointer, pointer, count, kind, src, self._stream)

    def all_gather(self, send: Any, recv: Any) -> None:
        pointer, count, kind = self._args(send)
        self.comm.allGather(pointer, recv.data.ptr, count, kind, self._stream)

    def reduce_scatter(self, send: Any, recv: Any, op: ReduceOp) -> None:
        pointer, count, kind = self._args(recv)
        self.comm.reduceScatter(send.data.ptr, pointer, count, kind, self._op(recv, op), self._stream)

    def gather(self, send: Any, recv: Any, dst: int) -> None:
        """Point-to-point sends to ``dst`` in one NCCL group (NCCL has no gather)."""
        pointer, count, kind = self._args(send)
        self.nccl.groupStart()
        self.comm.send(pointer, count, kind, dst, self._stream)
        if self.rank == dst:
            for peer in range(self.size):
                self.comm.recv(recv[peer].data.ptr, count, kind, peer, self._stream)
        self.nccl.groupEnd()

    def scatter(self, send: Any, recv: Any, src: int) -> None:
        """Point-to-point sends from ``src`` in one NCCL group (NCCL has no scatter)."""
        pointer, count, kind = self._args(recv)
        self.nccl.groupStart()
        if self.rank == src:
            for peer in range(self.size):
                self.comm.send(send[peer].data.ptr, count, kind, peer, self._stream)
        self.comm.recv(pointer, count, kind, src, self._stream)
        self.nccl.groupEnd()

    def barrier(self) -> None:
        self.cupy.cuda.get_current_stream().synchronize()
        self.control.wait([self.control.barrier()])

    def wait(self, requests: list) -> None:
        """Nothing to wait for on the host: the collective is ordered on the current stream."""

    def progress(self, requests: list) -> None:
        """NCCL progresses on the GPU by itself."""

    def all_gather_object(self, obj: Any) -> list:
        return self.control.all_gather_object(obj)

    def broadcast_object(self, obj: Any, src: int) -> Any:
        return self.control.broadcast_object(obj, src)

    def abort_on_uncaught_exception(self) -> Any:
        return self.control.abort_on_uncaught_exception()

    def close(self) -> None:
        self.comm.destroy()
