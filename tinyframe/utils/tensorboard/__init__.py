"""``tinyframe.utils.tensorboard``: importable, as ``torch.utils.tensorboard`` is, but its writers raise.

PyTorch's ``SummaryWriter`` turns tensors into TensorBoard's protocol buffers with code of its own and the
``tensorboard`` package; tinyframe has neither, so constructing a writer says so instead of failing later
with an AttributeError. Log with the ``tensorboard`` or ``tensorboardX`` package directly, on ``.numpy()``
values.
"""
from __future__ import annotations

from typing import Any

__all__ = ["SummaryWriter", "FileWriter"]


class _Unsupported:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError(f"tinyframe.utils.tensorboard.{type(self).__name__} is not supported: tinyframe does not "
                           "write TensorBoard event files (PyTorch's writer needs the tensorboard package and "
                           "PyTorch's own summary code). Log tensor.numpy() values with the tensorboard or "
                           "tensorboardX package instead.")


class SummaryWriter(_Unsupported):
    """Not supported (see the module's docstring): constructing one raises a RuntimeError."""


class FileWriter(_Unsupported):
    """Not supported (see the module's docstring): constructing one raises a RuntimeError."""
