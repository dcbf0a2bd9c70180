"""``tinyframe.utils``: ``data`` (datasets, samplers and the DataLoader), ``checkpoint`` (activation
checkpointing), ``dlpack``, ``safetensors``, ``tensorboard`` (importable; its writers raise)."""
from . import checkpoint, data, dlpack, safetensors, tensorboard

__all__ = ["data", "checkpoint", "dlpack", "safetensors", "tensorboard"]
