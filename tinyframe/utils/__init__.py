"""``tinyframe.utils``: ``data`` (datasets, samplers and the DataLoader), ``checkpoint`` (activation
checkpointing), ``dlpack``, ``safetensors``."""
from . import checkpoint, data, dlpack, safetensors

__all__ = ["data", "checkpoint", "dlpack", "safetensors"]
