"""A way for a backward formula to reuse tinyframe's public functions, so that one formula serves
first and higher orders (a backward that reuses one op calls it with ``Op.call``).

``on_tensors(ctx, formula, g)`` runs a formula written with tinyframe's public functions on Tensors:
recorded while the backward is recorded, else on the arrays wrapped as Tensors (recording nothing). It
suits formulas (linear algebra) that NumPy's names cannot express.

``composed(node_name, function, *inputs)`` records a composition of ops as one node of PyTorch's name.
"""
from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from .. import _graph, grad_mode
from .._graph import Op


def on_tensors(ctx: Op, formula: Callable[..., Any], g: Any) -> Any:
    """``formula(ctx, g, *saved)`` on Tensors; its gradient(s) come back as ``g`` came, as with
    ``Op.call``: Tensors (the pass is recorded, and the formula's ops with it) or arrays (the formula
    ran on the arrays wrapped as Tensors that require no grad, so it recorded nothing)."""
    grads = formula(ctx, _tensor(g), *(_tensor(s) for s in ctx.saved_tensors))
    if isinstance(g, _graph.Tensor):
        return grads
    if isinstance(grads, tuple):
        return tuple(None if gi is None else gi._data for gi in grads)
    return grads._data


def _tensor(value: Any) -> Any:
    return value if value is None or isinstance(value, (_graph.Tensor, int, float)) else _graph.wrap(value)


class Composite(Op):
    """An op that tinyframe computes by composing others but PyTorch runs as one kernel: recorded as
    one node with PyTorch's name (``UpsampleBilinear2DBackward0``, ``PixelShuffleBackward0``, ...).

    ``forward`` runs ``function(*inputs, **options)`` on the input arrays wrapped as Tensors: leaves
    that require grad where the node will need their gradient (``tracked``), so that the composition's
    own graph is kept, apart from the caller's. The node has no ``backward`` of its own: the engine
    differentiates ``compose`` (that graph, or the function recomputed on the saved input Tensors while
    a backward pass is recorded), so first and higher orders come from one definition.
    Positional inputs are the node's graph inputs (its ``next_functions``), in PyTorch's order;
    ``options`` are constants (sizes, modes, index Tensors) and get no edge.

    A ``linear`` composition (upsampling, pixel shuffles, ``affine_grid``'s theta) has a gradient that
    does not depend on its inputs: as PyTorch's kernel, the node saves none of them, so it can run again
    after its graph was freed, and every pass, recorded or not, differentiates the kept composition.
    """

    backward = None
    _direct = False
    linear = False
    graph: tuple | None = None  # (leaves, output) of the forward's composition, when it was tracked

    @staticmethod
    def forward(ctx: Composite, *arrays: Any, function: Callable[..., Any], options: dict, tracked: tuple) -> Any:
        ctx.function, ctx.options = function, options
        if not ctx.linear:
            ctx.save_for_backward(*arrays)
        leaves = tuple(_tensor(a) if not track else _graph.wrap(a, requires_grad=True)
                       for a, track in zip(arrays, tracked))
        with grad_mode.set_grad_enabled(any(tracked)):
            result = function(*leaves, **options)
        if any(tracked):
            ctx.graph = (leaves, result)
        if isinstance(result, tuple):  # (a MultiComposite)
            return tuple(_own(ctx, r._data, arrays) for r in result)
        return _own(ctx, result._data, arrays)

    @staticmethod
    def compose(ctx: Composite) -> tuple:
        """The inputs and the output from recordable ops (see ``Node.compose``)."""
        if ctx.linear and ctx.graph is not None:  # (a node is recorded only where an input was tracked)
            return ctx.graph
        inputs = ctx.saved_tensors  # raises once the pass that used them freed them, as for any op
        if ctx.recording or ctx.graph is None:
            return inputs, ctx.function(*inputs, **ctx.options)
        return ctx.graph


def _own(ctx: Composite, out: Any, arrays: tuple) -> Any:
    """``out``, or a copy: the result is the op's own storage, as PyTorch's kernel's is, never a view of an
    input (a sparse result, ``ops.sparse.COO``, shares at most its indices, which no op writes in place)."""
    if isinstance(out, ctx.xp.ndarray) and any(hasattr(a, "shape") and ctx.xp.may_share_memory(out, a)
                                               for a in arrays):
        return out.copy()
    return out


class MultiComposite(_graph.MultiOutputOp, Composite):
    """A ``Composite`` whose function returns a tuple of Tensors: one node, each output's ``grad_fn``
    (a recorded backward of several inputs, ``PreluKernelBackwardBackward0``)."""


_COMPOSITES: dict[str, type[Composite]] = {}


def composed(node_name: str, function: Callable[..., Any], *inputs: Any, linear: bool = False,
             mixes_layouts: bool = False, suggests_format: bool = False, outputs: int = 1, **options: Any) -> Any:
    """``function(*inputs, **options)`` recorded as one node named ``node_name`` (see ``Composite``);
    ``linear``: the function is linear in ``inputs``; ``mixes_layouts``: its inputs may mix sparse and dense
    tensors (a sparse kernel, ``ops.sparse``); ``suggests_format``: see ``Op.suggests_format``; ``outputs``:
    how many Tensors the function returns (a tuple where more than one)."""
    op = _COMPOSITES.get(node_name)
    if op is None:
        attributes = {"linear": linear, "mixes_layouts": mixes_layouts, "suggests_format": suggests_format}
        base = MultiComposite if outputs > 1 else Composite
        op = _COMPOSITES[node_name] = type(node_name, (base,), attributes, node_name=node_name)
    tracked = tuple(grad_mode.STATE.enabled and isinstance(t, _graph.Tensor) and t._requires_grad for t in inputs)
    return op.apply(*inputs, function=function, options=options, tracked=tracked)


def composed_op(node_name: str, inputs: tuple,
                linear: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorates a function composed of ops so that, when it is differentiated, its result is one node
    named ``node_name`` (see ``Composite``); ``inputs`` names the parameters that are the node's graph
    inputs, in PyTorch's order; ``linear``: the function is linear in them. Without grad it runs as written."""
    def decorate(function: Callable[..., Any]) -> Callable[..., Any]:
        signature = inspect.signature(function)

        def on_inputs(*tensors: Any, **options: Any) -> Any:
            return function(**dict(zip(inputs, tensors)), **options)

        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            bound = signature.bind(*args, **kwargs)
            options = bound.arguments
            tensors = [options.pop(name, None) for name in inputs]
            if not (grad_mode.STATE.enabled and any(isinstance(t, _graph.Tensor) and t._requires_grad
                                                    for t in tensors)):
                return function(*args, **kwargs)
            return composed(node_name, on_inputs, *tensors, linear=linear, **options)
        return wrapper
    return decorate
