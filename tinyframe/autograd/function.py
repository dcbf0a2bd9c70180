"""Custom differentiable functions: subclass ``Function`` with static ``forward`` / ``backward``.

Example::

    class Exp(Function):
        @staticmethod
        def forward(ctx, x):
            result = x.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_output):
            (result,) = ctx.saved_tensors
            return grad_output * result

    y = Exp.apply(x)   # y.grad_fn is <ExpBackward object>
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, grad_mode
from .._graph import _FREED_MESSAGE, _INPUT, _OUTPUT, Node, _inplace_message, _new_counter, edges_of

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["Function", "FunctionCtx", "BackwardCFunction"]


class FunctionCtx:
    """What ``forward`` and ``backward`` of a custom Function share: saved tensors and any attribute."""

    needs_input_grad: tuple = ()
    _saved: list | None = None
    _freed = False
    _materialize_grads = True

    def save_for_backward(self, *tensors: Any) -> None:
        """Saves tensors (inputs, outputs or others) for backward; read them with ``saved_tensors``."""
        for t in tensors:
            if t is not None and not isinstance(t, _graph.Tensor):
                raise TypeError(f"save_for_backward can only save tensors, but argument was of type "
                                f"{type(t).__name__}")
        self._saved = list(tensors)

    def mark_non_differentiable(self, *tensors: Tensor) -> None:
        """Marks outputs that get no gradient (they will not require grad)."""
        self._non_differentiable = {id(t) for t in tensors}

    def set_materialize_grads(self, value: bool) -> None:
        """Whether undefined output gradients are passed to backward as zeros (default) or None."""
        self._materialize_grads = value

    @property
    def saved_tensors(self) -> tuple:
        if self._saved is None:
            if self._freed:
                raise RuntimeError(_FREED_MESSAGE)
            return ()
        return tuple(self._unpack(entry) for entry in self._saved)

    def _unpack(self, entry: tuple) -> Any:
        kind, value, counter, version = entry
        if counter is not None and counter[0] != version:
            raise RuntimeError(_inplace_message(self, value if kind != _INPUT else value._data,
                                                kind, counter[0], version))
        if kind == _OUTPUT:
            return _graph.wrap(value, self if grad_mode.STATE.enabled else None,
                                version_counter=counter)
        return value


class BackwardCFunction(FunctionCtx, Node):
    """The graph node of one call of a custom Function; it is also that call's ``ctx``."""

    function: type

    @staticmethod
    def backward(node: BackwardCFunction, g: Any) -> tuple:
        recording = grad_mode.STATE.enabled
        wrapped = g if recording else _graph.wrap(g)
        with grad_mode.set_grad_enabled(recording):
            grads = node.function.backward(node, wrapped)
        grads = grads if isinstance(grads, tuple) else (grads,)
        expected = len(node.next_functions)
        if len(grads) < expected or any(g is not None for g in grads[expected:]):
            raise RuntimeError(f"function {node.name()} returned an incorrect number of gradients "
                               f"(expected {expected}, got {len(grads)})")
        return tuple(_checked_grad(node, i, gi, recording) for i, gi in enumerate(grads[:expected]))


def _checked_grad(node: BackwardCFunction, i: int, gi: Any, recording: bool) -> Any:
    if gi is None or node.next_functions[i][0] is None:
        return None
    if not isinstance(gi, _graph.Tensor):
        raise TypeError(f"function {node.name()} returned a gradient of type {type(gi).__name__} for "
                        f"input {i}; expected a Tensor or None")
    shape = node.next_functions[i][0]._shape
    if gi._data.shape != shape and gi._data.size != 0:
        try:
            np.broadcast_shapes(shape, gi._data.shape)
        except ValueError:
            raise RuntimeError(f"Function {node.name()} returned an invalid gradient at index {i} - got "
                               f"{list(gi._data.shape)} but expected shape compatible with {list(shape)}") from None
    return gi if recording else gi._data


class _FunctionMeta(type):
    """Gives each Function subclass its own node class named ``<Name>Backward``."""

    def __init__(cls, name: str, bases: tuple, namespace: dict) -> None:
        super().__init__(name, bases, namespace)
        node_class = type(f"{name}Backward", (BackwardCFunction,), {"function": cls})
        node_class.__qualname__ = f"{name}Backward"
        cls._backward_cls = node_class


class Function(metaclass=_FunctionMeta):
    """Base of custom autograd operations; call them through ``apply`` (never instantiate)."""

    @staticmethod
    def forward(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError("You must implement either the backward or vjp method for your "
                                  "custom autograd.Function to use it with backward mode AD.")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Runs ``forward`` outside the graph and connects its result to the graph."""
        ctx = cls._backward_cls()
        ctx.needs_input_grad = tuple(isinstance(a, _graph.Tensor) and a._requires_grad for a in args)
        with grad_mode.no_grad():
            output = cls.forward(ctx, *args, **kwargs)
        if isinstance(output, tuple):
            raise NotImplementedError(f"{cls.__name__}.forward returned a tuple: custom Functions with "
                                      "several outputs are not supported yet; return one Tensor")
        if not isinstance(output, _graph.Tensor):
            raise TypeError(f"{cls.__name__}.forward must return a Tensor, got {type(output).__name__}")
        records = grad_mode.STATE.enabled and any(ctx.needs_input_grad)
        non_differentiable = id(output) in getattr(ctx, "_non_differentiable", ())
        if not records or non_differentiable or not output.is_floating_point():
            return _graph.wrap(output._data, None, False)
        result = _graph.wrap(output._data, ctx)
        ctx.next_functions = edges_of(args)
        ctx._shape, ctx._dtype = result._data.shape, result._data.dtype
        if ctx._saved is not None:
            arrays = [a._data if isinstance(a, _graph.Tensor) else a for a in args]
            ctx._saved = [_describe_saved_tensor(t, output, args, arrays, result) for t in ctx._saved]
        return result


def _describe_saved_tensor(t: Any, output: Tensor, args: tuple, arrays: list, result: Tensor) -> tuple:
    if t is output:
        return (_OUTPUT, result._data, _new_counter(result), 0)
    if isinstance(t, _graph.Tensor) and any(t is a for a in args):
        counter = t._version_counter()
        return (_INPUT, t, counter, counter[0])
    return (_INPUT, t, None, None) if t is not None else (_INPUT, None, None, None)

