"""``Variable``: PyTorch's deprecated tensor wrapper, kept for code written before Tensor and Variable merged."""
from __future__ import annotations

from typing import Any

from .. import _graph, creation

__all__ = ["Variable"]


class _VariableMeta(type):
    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, _graph.Tensor)  # every tensor is a Variable, as in PyTorch


class Variable(metaclass=_VariableMeta):
    """``Variable(tensor, requires_grad=False)`` is a tensor sharing ``tensor``'s data, outside its graph
    (``Variable()`` an empty one), and every Tensor is a Variable, as in PyTorch since 0.4 (old code and
    tools such as torchviz still name it); new code uses tensors."""

    def __new__(cls, data: Any = None, requires_grad: bool = False, volatile: bool = False) -> Any:
        if data is None:
            return creation.tensor([], requires_grad=requires_grad)
        if not isinstance(data, _graph.Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        return data.detach().requires_grad_(requires_grad)
