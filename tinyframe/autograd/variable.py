"""``torch.autograd.Variable``: the pre-0.4 wrapper, now a name for tensors. ``Variable(t)`` gives ``t``'s
storage as a new leaf, and every tensor is an instance of ``Variable``."""
from __future__ import annotations

from typing import Any

from .. import _graph


class _VariableMeta(type):
    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, _graph.Tensor)


class Variable(metaclass=_VariableMeta):
    """``Variable(data, requires_grad=False)``: ``data`` (a tensor) as a new leaf sharing its storage."""

    def __new__(cls, data: Any = None, requires_grad: bool = False, volatile: bool = False) -> Any:
        if not isinstance(data, _graph.Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        return data.detach().requires_grad_(requires_grad)
