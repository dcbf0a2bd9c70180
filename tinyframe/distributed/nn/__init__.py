"""``tinyframe.distributed.nn``: collectives that autograd differentiates through."""
from . import functional

__all__ = ["functional"]
