"""``tinyframe.nn.parallel``: data-parallel training across processes (and ``DataParallel``, in one)."""
from typing import Any

from .data_parallel import DataParallel

__all__ = ["DataParallel", "DistributedDataParallel"]


def __getattr__(name: str) -> Any:
    """``DistributedDataParallel``, loaded (with ``tinyframe.distributed``) when first asked for."""
    if name == "DistributedDataParallel":
        from .distributed import DistributedDataParallel
        return DistributedDataParallel
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), "DistributedDataParallel"])
