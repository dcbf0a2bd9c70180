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

A ``forward`` may return a tuple: each Tensor in it is an output of the one node (``output_nr``
tells which) and ``backward`` receives one gradient per element of the tuple, zeros for outputs
that got none (or None, after ``ctx.set_materialize_grads(False)``), None for non-Tensor elements.
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, grad_mode
from .._graph import _FREED_MESSAGE, _INPUT, _OUTPUT, Node, _inplace_message, _new_counter, edges_of
from ..device import array_module_of
from ..ops import inplace

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["Function", "FunctionCtx", "BackwardCFunction", "once_differentiable"]


class FunctionCtx:
    """What ``forward`` and ``backward`` of a custom Function share: saved tensors and any attribute."""

    needs_input_grad: tuple = ()
    _saved: tuple | list | None = None
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

    def mark_dirty(self, *tensors: Tensor) -> None:
        """Marks inputs that forward modified in place; forward returns them, and they come back
        (the same objects) with this call as their ``grad_fn``."""
        self._dirty = {id(t) for t in tensors}

    def set_materialize_grads(self, value: bool) -> None:
        """Whether undefined output gradients are passed to backward as zeros (default) or None."""
        self._materialize_grads = value

    @property
    def saved_tensors(self) -> tuple:
        if not self._saved:
            if self._saved is _graph.FREED:
                raise RuntimeError(_FREED_MESSAGE)
            return ()
        return tuple(self._unpack(entry) for entry in self._saved)

    def _unpack(self, entry: tuple) -> Any:
        kind, value, counter, version, output_nr = entry
        if counter is not None and counter[0] != version and value.__class__ is not _graph.Packed:
            raise RuntimeError(_inplace_message(self, value, kind, counter[0], version, output_nr))
        value = _graph.unpacked(value, kind)
        if kind == _OUTPUT:
            recording = grad_mode.STATE.enabled
            t = _graph.wrap(value, self if recording else None, version_counter=counter)
            if recording and output_nr:
                t._output_nr = output_nr
            return t
        return value


class BackwardCFunction(FunctionCtx, Node):
    """The graph node of one call of a custom Function; it is also that call's ``ctx``."""

    function: type[Function]
    _xp: Any  # the array module of a multi-output call's results (its missing gradients are zeros of it)
    # Set by the engine while it records a backward pass (create_graph=True); the Function's
    # backward works on Tensors and does not read them.
    xp: Any = None
    recording = False
    _direct = True
    # A Python object's repr, as PyTorch's (its class lives in tinyframe.autograd.function)
    __repr__ = object.__repr__

    @staticmethod
    def backward(node: BackwardCFunction, g: Any) -> tuple:
        recording = grad_mode.STATE.enabled
        if node._output_shapes is None:
            grad_outputs = (g if recording else _graph.wrap(g),)
        else:
            grad_outputs = node._grad_outputs(g.slots, recording)
        with grad_mode.set_grad_enabled(recording):
            grads = node.function.backward(node, *grad_outputs)
        grads = grads if isinstance(grads, tuple) else (grads,)
        expected = node._num_inputs
        if len(grads) < expected or any(g is not None for g in grads[expected:]):
            raise RuntimeError(f"function {node.name()} returned an incorrect number of gradients "
                               f"(expected {expected}, got {len(grads)})")
        positions = node._tensor_positions
        for i, gi in enumerate(grads[:expected]):
            if gi is not None and i not in positions:
                raise RuntimeError(f"function {node.name()} returned a gradient different than None at position "
                                   f"{i + 1}, but the corresponding forward input was not a Variable")
        return tuple(_checked_grad(node, j, grads[i], recording) for j, i in enumerate(positions))

    def _connect_inputs(self, args: tuple) -> None:
        """Edges to the Tensor arguments only, as PyTorch's ``next_functions``; backward still
        returns one gradient per argument."""
        tensors = [a for a in args if isinstance(a, _graph.Tensor)]
        self.next_functions = edges_of(tensors)
        self._num_inputs = len(args)
        self._tensor_positions = tuple(i for i, a in enumerate(args) if isinstance(a, _graph.Tensor))
        self._input_shapes = tuple(t._data.shape for t in tensors)

    def _grad_outputs(self, slots: list, recording: bool) -> tuple:
        """One gradient per output of a multi-output call: the arrived one, else zeros of the
        output's shape and dtype (None when not materialized, and for non-Tensor outputs)."""
        grads = []
        shapes, dtypes = self._output_shapes, self._output_dtypes
        assert shapes is not None and dtypes is not None  # only a multi-output node gets slots
        for g, shape, dtype in zip(slots, shapes, dtypes):
            if g is None and shape is not None and self._materialize_grads:
                g = self._xp.zeros(shape, dtype)
                g = _graph.wrap(g) if recording else g
            grads.append(g if g is None or recording else _graph.wrap(g))
        return tuple(grads)


def _expandable(shape: tuple, target: tuple) -> bool:
    """Whether ``shape`` expands to ``target`` (PyTorch's ``is_expandable_to``: a larger gradient is summed down to
    the input's shape; a smaller one is refused)."""
    try:
        return np.broadcast_shapes(shape, target) == tuple(target)
    except ValueError:
        return False


def _checked_grad(node: BackwardCFunction, i: int, gi: Any, recording: bool) -> Any:
    """The gradient for the i-th Tensor input, checked against its shape."""
    if gi is None or node.next_functions[i][0] is None:
        return None
    if not isinstance(gi, _graph.Tensor):
        raise TypeError(f"function {node.name()} returned a gradient of type {type(gi).__name__} for "
                        f"input {i}; expected a Tensor or None")
    shape = node._input_shapes[i]
    if gi._data.shape != shape and gi._data.size != 0 and not _expandable(shape, gi._data.shape):
        raise RuntimeError(f"Function {node.name()} returned an invalid gradient at index {i} - got "
                           f"{list(gi._data.shape)} but expected shape compatible with {list(shape)}")
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

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple, output: Any) -> None:
        """Optional: with it, ``forward(*args)`` takes no ``ctx`` and this fills the ctx from the
        inputs and output instead (PyTorch's newer style)."""
        raise NotImplementedError("setup_context is not implemented.")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Runs ``forward`` outside the graph and connects its result to the graph."""
        ctx = cls._backward_cls()
        ctx.needs_input_grad = tuple(isinstance(a, _graph.Tensor) and a._requires_grad for a in args)
        with grad_mode.no_grad():
            if cls.setup_context is Function.setup_context:
                output = cls.forward(ctx, *args, **kwargs)
            else:
                output = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, output)
        if isinstance(output, tuple):
            return _connect_outputs(ctx, args, output)
        if not isinstance(output, _graph.Tensor):
            raise TypeError(f"{cls.__name__}.forward must return a Tensor, got {type(output).__name__}")
        records = grad_mode.STATE.enabled and any(ctx.needs_input_grad)
        non_differentiable = id(output) in getattr(ctx, "_non_differentiable", ())
        differentiable = records and not non_differentiable and (output.is_floating_point() or output.is_complex())
        ctx._connect_inputs(args)  # before a dirty input takes this node: its edge is its old history
        result = _result(ctx, output, differentiable)
        if not differentiable:
            return result
        ctx._shape, ctx._dtype = result._data.shape, result._data.dtype
        if ctx._saved is not None:
            ctx._saved = [_describe_saved_tensor(t, [(output, result)], args) for t in ctx._saved]
        return result


def _connect_outputs(ctx: BackwardCFunction, args: tuple, outputs: tuple) -> tuple:
    """The results of a call whose forward returned a tuple: its Tensors become outputs of the one
    node ``ctx`` (but the non-differentiable ones); other elements are returned as they are."""
    records = grad_mode.STATE.enabled and any(ctx.needs_input_grad)
    non_differentiable = getattr(ctx, "_non_differentiable", ())
    ctx._connect_inputs(args)  # before a dirty input takes this node: its edge is its old history
    results: list = []
    for k, out in enumerate(outputs):
        if not isinstance(out, _graph.Tensor):
            results.append(out)
            continue
        differentiable = (records and id(out) not in non_differentiable
                          and (out.is_floating_point() or out.is_complex()))
        results.append(_result(ctx, out, differentiable, k))
    if not any(isinstance(r, _graph.Tensor) and r.grad_fn is ctx for r in results):
        return tuple(results)
    ctx._output_shapes = tuple(r._data.shape if isinstance(r, _graph.Tensor) else None for r in results)
    ctx._shape = None  # no single shape: the engine sends each gradient through ``OutputGrads``
    ctx._output_dtypes = tuple(r._data.dtype if isinstance(r, _graph.Tensor) else None for r in results)
    ctx._xp = array_module_of(next(r._data for r in results if isinstance(r, _graph.Tensor)))
    if ctx._saved is not None:
        pairs = list(zip(outputs, results))
        ctx._saved = [_describe_saved_tensor(t, pairs, args) for t in ctx._saved]
    return tuple(results)


def _result(ctx: BackwardCFunction, out: Tensor, differentiable: bool, k: int = 0) -> Tensor:
    """The Tensor a call returns for ``out``: a new one (with ``ctx`` as its node when differentiable),
    or, for an input marked dirty, that input itself, its version bumped and its history now ``ctx``."""
    if id(out) not in getattr(ctx, "_dirty", ()):
        result = _graph.wrap(out._data, ctx if differentiable else None, differentiable)
    else:
        out._bump_version()  # (before the checks below refuse it, as PyTorch's)
        base = out._base
        if base is not None and differentiable:
            inplace.check_view(out, base)
        elif out.grad_fn is None and out._requires_grad and grad_mode.STATE.enabled:
            raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")
        result = out
        if differentiable and base is not None:
            inplace.rebase_history(out, ctx)
        elif differentiable:
            result.grad_fn, result._requires_grad = ctx, True
    if differentiable and k:
        result._output_nr = k
    return result


def _describe_saved_tensor(t: Any, outputs: list, args: tuple) -> tuple:
    """How a saved tensor is kept: ``outputs`` pairs what forward returned with the results."""
    for k, (output, result) in enumerate(outputs):
        if t is output:
            if result.grad_fn is None:  # a non-differentiable output comes back without a node
                return (_INPUT, result, None, None, k)
            kept = _graph.Packed(result) if _graph.saved_tensors_hooks else result._data
            if result is output:  # an input marked dirty keeps its version counter
                counter = result._version_counter()
                return (_OUTPUT, kept, counter, counter[0], k)
            return (_OUTPUT, kept, _new_counter(result), 0, k)
    if isinstance(t, _graph.Tensor) and any(t is a for a in args):
        counter = t._version_counter()
        return (_INPUT, _graph.packed_if_hooked(t), counter, counter[0], 0)
    return (_INPUT, t, None, None, 0)


def once_differentiable(fn: Callable) -> Callable:
    """Decorates a custom Function's ``backward`` that cannot itself be differentiated: it runs
    without recording, and differentiating its result (double backward) raises, as in PyTorch."""

    @functools.wraps(fn)
    def wrapper(ctx: Any, *grad_outputs: Any) -> Any:
        with grad_mode.no_grad():
            grads = fn(ctx, *grad_outputs)
        if not grad_mode.is_grad_enabled():
            return grads
        anchor = next((g for g in grad_outputs if isinstance(g, _graph.Tensor) and g.requires_grad), None)
        if anchor is None:
            return grads
        if isinstance(grads, tuple):
            return tuple(_DelayedError.apply(g, anchor) if isinstance(g, _graph.Tensor) else g for g in grads)
        return _DelayedError.apply(grads, anchor) if isinstance(grads, _graph.Tensor) else grads

    return wrapper



class _DelayedError(Function):
    """Passes ``x`` through; its backward raises: the result of a once-differentiable backward,
    made to require grad through ``anchor`` (a gradient it was computed from) as in PyTorch."""

    @staticmethod
    def forward(ctx: Any, x: Tensor, anchor: Tensor) -> Tensor:
        return _graph.wrap(x._data)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Tensor:
        raise RuntimeError("trying to differentiate twice a function that was marked with @once_differentiable")
