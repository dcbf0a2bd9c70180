"""``tinyframe.utils``: ``data`` (datasets, samplers and the DataLoader), ``dlpack``."""
from . import data, dlpack

__all__ = ["data", "dlpack"]
