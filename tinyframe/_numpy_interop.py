"""How NumPy's ufuncs treat tensors (``Tensor.__array_ufunc__``).

NumPy's binary operators on an ndarray (``ndarray + tensor``) and the matching ufuncs (``np.add``)
run as tinyframe ops, so the array becomes a tensor, the result is a Tensor and the graph is kept.
Every other ufunc (``np.exp``, ``np.isnan``, ``np.add.reduce``) computes in NumPy on the tensors'
arrays (refused for tensors that require grad or live on a GPU, as ``Tensor.numpy()`` is) and
returns Tensors, as PyTorch's tensors do.
"""
from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _graph, creation

if TYPE_CHECKING:
    pass

# The ufuncs behind Python's operators, each run through the Tensor operator it stands for.
_OPERATORS = {
    np.add: operator.add, np.subtract: operator.sub, np.multiply: operator.mul,
    np.true_divide: operator.truediv, np.floor_divide: operator.floordiv, np.remainder: operator.mod,
    np.power: operator.pow, np.matmul: operator.matmul, np.bitwise_and: operator.and_,
    np.bitwise_or: operator.or_, np.bitwise_xor: operator.xor, np.equal: operator.eq,
    np.not_equal: operator.ne, np.less: operator.lt, np.less_equal: operator.le, np.greater: operator.gt,
    np.greater_equal: operator.ge,
}


def array_ufunc(ufunc: np.ufunc, method: str, inputs: tuple, kwargs: dict) -> Any:
    """The result of ``getattr(ufunc, method)(*inputs, **kwargs)`` when an input is a Tensor."""
    if method == "__call__" and not kwargs and ufunc in _OPERATORS:
        return _OPERATORS[ufunc](*(operand(value) for value in inputs))
    out = kwargs.get("out")
    if out is not None:
        kwargs["out"] = tuple(_host(value) for value in out)
    result = getattr(ufunc, method)(*(_host(value) for value in inputs), **kwargs)
    if out is not None:
        return out[0] if len(out) == 1 else out
    return tuple(_wrap(value) for value in result) if isinstance(result, tuple) else _wrap(result)


def operand(value: Any) -> Any:
    """A NumPy operand as PyTorch takes it: an array becomes a tensor, a scalar a Python number."""
    if isinstance(value, np.ndarray):
        return creation.as_tensor(value)
    if isinstance(value, np.generic):
        return value.item()
    return value


def _host(value: Any) -> Any:
    return value.numpy() if isinstance(value, _graph.Tensor) else value


def _wrap(value: Any) -> Any:
    if isinstance(value, (np.ndarray, np.generic)):  # wrap makes a NumPy scalar a 0-d array
        return _graph.wrap(value)
    return value
