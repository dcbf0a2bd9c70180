"""``tinyframe.utils``: ``data`` (datasets, samplers and the DataLoader) and ``checkpoint``
(activation checkpointing)."""
from . import checkpoint, data

__all__ = ["data", "checkpoint"]
