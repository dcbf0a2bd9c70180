"""A way for a backward formula to reuse tinyframe's public functions, so that one formula serves
first and higher orders (a backward that reuses one op calls it with ``Op.call``).

``on_tensors(ctx, formula, g)`` runs a formula written with tinyframe's public functions on Tensors:
recorded while the backward is recorded, else on the arrays wrapped as Tensors (recording nothing). It
suits formulas (linear algebra) that NumPy's names cannot express.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import _graph
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
