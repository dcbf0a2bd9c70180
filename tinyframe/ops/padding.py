"""``pad``: constant, reflection, replication and circular padding.

Constant padding is ``constant_pad_nd``. The other modes pick, along each padded dimension, a source
index for every output position (``-1 -> 1`` for reflect, ``-1 -> 0`` for replicate, ``-1 -> L-1``
for circular), so each is one gather ``x.take(index, axis)`` per dimension; its adjoint folds the
gradient back with a scatter-add. Each of the two is an op whose backward is the other.
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .. import _graph
from .._graph import Op
from ..device import add_at, array_module_of
from .indexing import copy_slices_name
from .shape import constant_pad_nd

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["pad"]


def _gather(xp: Any, x: Any, sources: tuple) -> Any:
    for axis, index in sources:
        x = xp.take(x, index, axis=axis)
    return x


def _fold(xp: Any, g: Any, sources: tuple, shape: tuple) -> Any:
    for axis, index in reversed(sources):
        target = list(g.shape)
        target[axis] = shape[axis]
        out = xp.zeros(tuple(target), dtype=g.dtype)
        add_at(out, (slice(None),) * axis + (index,), g)
        g = out
    return g


class _IndexPad(Op):
    """``out = x.take(index_d, axis=d)`` for each padded dimension ``d``."""

    adjoint: type[Op]

    @staticmethod
    def forward(ctx: _IndexPad, x: Any, *, sources: tuple) -> Any:
        ctx.sources = sources
        ctx.save_for_backward(x)  # as PyTorch's node: a second pass after the graph was freed raises
        return _gather(ctx.xp, x, sources)

    @staticmethod
    def backward(ctx: _IndexPad, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        return type(ctx).adjoint.call(g, sources=ctx.sources, shape=x.shape)


class _IndexPadAdjoint(Op):
    """The backward of a padding: each output gradient added back onto its source element."""

    adjoint: type[Op]

    @staticmethod
    def forward(ctx: _IndexPadAdjoint, g: Any, *, sources: tuple, shape: tuple) -> Any:
        ctx.sources = sources
        return _fold(ctx.xp, g, sources, shape)

    @staticmethod
    def backward(ctx: _IndexPadAdjoint, gg: Any) -> Any:
        return type(ctx).adjoint.call(gg, sources=ctx.sources)


@functools.cache  # made on first use: the 18 classes cost ~2M instructions of `import tinyframe`
def _pad_op(mode: str, dims: int) -> type[_IndexPad]:
    """The op (with its adjoint) for a mode, named after PyTorch's nodes (circular padding is CopySlices there)."""
    kind = {"reflect": "Reflection", "replicate": "Replication"}.get(mode)
    name = f"{kind}Pad{dims}DBackward0" if kind else "CopySlices"
    backward_name = f"{kind}Pad{dims}DBackwardBackward0" if kind else "CopySlicesBackward0"
    # (PyTorch's reflection and replication pads keep channels last; its circular pad is row-major)
    attributes = {"suggests_format": True} if kind else {"name": copy_slices_name, "row_major": True}
    op: type[_IndexPad] = type(name, (_IndexPad,), attributes, node_name=name)
    adjoint: type[_IndexPadAdjoint] = type(backward_name, (_IndexPadAdjoint,), {}, node_name=backward_name)
    op.adjoint, adjoint.adjoint = adjoint, op
    return op


def _source_index(xp: Any, mode: str, size: int, before: int, after: int) -> Any:
    if mode == "circular":  # negative amounts crop first; the padding wraps around what is left
        low, kept = max(-before, 0), size - max(-before, 0) - max(-after, 0)
        return xp.arange(-max(before, 0), kept + max(after, 0)) % kept + low
    positions = xp.arange(-before, size + after)
    if mode == "reflect":
        positions = xp.abs(positions)
        return xp.where(positions >= size, 2 * (size - 1) - positions, positions)
    return xp.clip(positions, 0, size - 1)


_UNSUPPORTED = ("Padding size {} is not supported for {}D input tensor.\nSupported combinations for non-constant "
                "padding:\n  - 2D or 3D input: padding size = 2 (pads last dimension)\n  - 3D or 4D input: padding "
                "size = 4 (pads last 2 dimensions)\n  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")


def pad(input: Tensor, pad: Sequence[int], mode: str = "constant", value: float | None = None) -> Tensor:
    """Pads ``input``; ``pad = (last_left, last_right, second_last_left, ...)`` from the last dimension
    backwards (negative amounts crop).

    ``mode``: ``'constant'`` (fill with ``value``, default 0), ``'reflect'`` (mirror without the edge:
    ``x[1], x[0], x[1]...``), ``'replicate'`` (repeat the edge) or ``'circular'`` (wrap around). The
    non-constant modes pad the last 1, 2 or 3 dimensions of an input with one or two more dimensions.
    """
    if not isinstance(input, _graph.Tensor):
        raise TypeError(f"pad(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    pad = tuple(int(p) for p in pad)
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * input.ndim:
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {input.ndim}")
    if mode == "constant":
        return constant_pad_nd(input, pad, 0 if value is None else value)
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    dims, ndim = len(pad) // 2, input.ndim
    if dims not in (1, 2, 3) or ndim not in (dims + 1, dims + 2):
        raise NotImplementedError(_UNSUPPORTED.format(len(pad), ndim))
    xp = array_module_of(input._data)
    sources = []
    for i in range(dims):
        axis = ndim - 1 - i
        before, after, size = pad[2 * i], pad[2 * i + 1], input.shape[axis]
        if mode == "reflect" and (before >= size or after >= size):
            raise RuntimeError(f"Argument #4: Padding size should be less than the corresponding input dimension, "
                               f"but got: padding ({before}, {after}) at dimension {axis} of input "
                               f"{list(input.shape)}")
        if mode == "circular" and (before > size or after > size):
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if size + before + after <= 0:
            raise RuntimeError(f"input tensor's dimension {axis} ({size}) is too small for padding "
                               f"({before}, {after})")
        if before or after:
            sources.append((axis, _source_index(xp, mode, size, before, after)))
    return _pad_op(mode, dims).apply(input, sources=tuple(sources))
