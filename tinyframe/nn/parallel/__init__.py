"""``tinyframe.nn.parallel``: data-parallel training across processes (and ``DataParallel``, in one)."""
from .data_parallel import DataParallel
from .distributed import DistributedDataParallel

__all__ = ["DataParallel", "DistributedDataParallel"]
