"""``Parameter``: a leaf tensor that a Module registers as one of its parameters."""
from __future__ import annotations

from typing import Any

from ..creation import empty
from ..tensor import Tensor

__all__ = ["Parameter", "Buffer", "UninitializedParameter", "UninitializedBuffer"]


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
        self.requires_grad = requires_grad

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (Parameter, (Tensor._make(self._host_array().copy()), self._requires_grad))

    def __deepcopy__(self, memo: dict) -> Parameter:
        copied = Parameter(Tensor._make(self._data.copy(order="K")), self._requires_grad)
        if self._grad is not None:
            copied._grad = Tensor._make(self._grad._data.copy(order="K"))
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


class UninitializedParameter(Parameter):
    """A parameter whose shape is not known yet (a lazy module's, before its first input);
    ``materialize(shape)`` gives it storage and makes it a plain ``Parameter``."""

    cls_to_become = Parameter

    def __init__(self, requires_grad: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__(empty(0, device=device, dtype=dtype), requires_grad)

    def materialize(self: Any, shape: Any, device: Any = None, dtype: Any = None) -> None:  # also UninitializedBuffer's
        like = empty(*tuple(shape), device=device or self.device, dtype=dtype or self.dtype)
        self._data = like._data
        self.__class__ = self.cls_to_become

    def __repr__(self) -> str:
        return "<UninitializedParameter>"


class UninitializedBuffer(Tensor):
    """A buffer whose shape is not known yet; ``materialize(shape)`` makes it a plain Tensor."""

    cls_to_become = Tensor

    def __init__(self, requires_grad: bool = False, device: Any = None, dtype: Any = None) -> None:
        self._data = empty(0, device=device, dtype=dtype)._data
        self.grad_fn = None
        self._requires_grad = False
        self._grad = None

    materialize = UninitializedParameter.materialize

    def __repr__(self) -> str:
        return "<UninitializedBuffer>"
