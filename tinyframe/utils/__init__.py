"""``tinyframe.utils``: ``data`` (datasets, samplers and the DataLoader), ``dlpack``, ``safetensors``."""
from . import data, dlpack, safetensors

__all__ = ["data", "dlpack", "safetensors"]
