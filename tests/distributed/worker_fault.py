"""Run under ``mpiexec -n 2``: the last rank raises while the others wait in a barrier; the job must end
(MPI_Abort from the uncaught-exception hook) with that rank's traceback on stderr."""
import tinyframe.distributed as dist

dist.init_process_group("mpi")
if dist.get_rank() == dist.get_world_size() - 1:
    raise ValueError(f"rank {dist.get_rank()} fails on purpose")
dist.barrier()  # never completes: the failing rank aborts the job
