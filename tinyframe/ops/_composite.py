"""A way for a backward formula to reuse tinyframe's public functions, so that one formula serves
first and higher orders (a backward that reuses one op calls it with ``Op.call``).

``on_tensors(ctx, formula, g)`` runs a formula written with tinyframe's public functions on Tensors:
recorded while the backward is recorded, else under ``no_grad`` on the arrays wrapped as Tensors. It
suits formulas (linear algebra) that NumPy's names cannot express.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import _graph, grad_mode
from .._graph import Op


def on_tensors(ctx: Op, formula: Callable[..., Any], g: Any) -> Any:
    """``formula(ctx, g, *saved)`` on Tensors; returns its gradient(s) as the engine expects them."""
    saved = ctx.saved_tensors
    if ctx.recording:
        return formula(ctx, g, *(_tensor(s) for s in saved))
    with grad_mode.no_grad():
        grads = formula(ctx, _graph.wrap(g), *(_tensor(s) for s in saved))
    if isinstance(grads, tuple):
        return tuple(None if gi is None else gi._data for gi in grads)
    return grads._data


def _tensor(value: Any) -> Any:
    return value if value is None or isinstance(value, (_graph.Tensor, int, float)) else _graph.wrap(value)
