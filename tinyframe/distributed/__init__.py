"""``tinyframe.distributed``: PyTorch's ``torch.distributed`` API on MPI (mpi4py, CPU) and NCCL (CuPy, GPU).

Launch the ranks with ``mpiexec -n N python train.py``; in the script::

    import tinyframe.distributed as dist
    dist.init_process_group()          # nccl when every rank has a GPU, else mpi
    t = tinyframe.ones(3) * dist.get_rank()
    dist.all_reduce(t)                 # t is now the sum over ranks, on every rank

Importing this package does not import mpi4py or CuPy; ``init_process_group`` does.
"""
from .process_group import (
    Work,
    all_gather,
    all_gather_object,
    all_reduce,
    barrier,
    broadcast,
    broadcast_object_list,
    destroy_process_group,
    gather,
    get_backend,
    get_rank,
    get_world_size,
    init_process_group,
    is_available,
    is_initialized,
    is_mpi_available,
    is_nccl_available,
    reduce_scatter,
    scatter,
)
from .reduce_op import ReduceOp

__all__ = ["ReduceOp", "Work", "init_process_group", "destroy_process_group", "is_available", "is_initialized",
           "is_mpi_available", "is_nccl_available", "get_rank", "get_world_size", "get_backend", "barrier",
           "all_reduce", "broadcast", "all_gather", "reduce_scatter", "gather", "scatter", "all_gather_object",
           "broadcast_object_list"]
