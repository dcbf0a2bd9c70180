"""``Parameter``: a leaf tensor that a Module registers as one of its parameters."""
from __future__ import annotations

from typing import Any

from ..creation import empty
from ..tensor import Tensor

__all__ = ["Parameter", "Buffer"]


class Parameter(Tensor):
    """A Tensor that is a module parameter: assigning it to a Module attribute registers it.

    ``Parameter(data, requires_grad=True)`` shares ``data``'s storage, as in PyTorch.
    """

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        if data is None:
            data = empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Parameter expects a Tensor, got {type(data).__name__}")
        self._data = data._data
        self.grad_fn = None
        self._requires_grad = False
        self._grad = None
        self.requires_grad_(requires_grad)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (Parameter, (Tensor._make(self._host_array().copy()), self._requires_grad))

    def __deepcopy__(self, memo: dict) -> Parameter:
        copied = Parameter(Tensor._make(self._data.copy()), self._requires_grad)
        if self._grad is not None:
            copied._grad = Tensor._make(self._grad._data.copy())
        memo[id(self)] = copied
        return copied


class Buffer(Tensor):
    """Marks a tensor as a module buffer when assigned to a Module attribute (``nn.Buffer``)."""

    def __init__(self, data: Tensor, *, persistent: bool = True) -> None:
        self._data = data._data
        self.grad_fn = None
        self._requires_grad = False
        self._grad = None
        self.persistent = persistent
