"""In-place ops, with PyTorch's autograd rules.

An in-place op computes its result with the out-of-place op of the same name, then writes it into
the tensor's storage and bumps the version counter, so a backward formula that saved the old value
raises instead of using the new one. While the graph is recorded, the op runs on a snapshot of the
old value and the tensor takes the op's ``grad_fn``.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import grad_mode
from ..device import array_module_of, device_of, move_array
from ..random import generator_for
from ..tensor import Tensor


def _records(target: Tensor, args: tuple) -> bool:
    if not grad_mode.STATE.enabled:
        return False
    return target._requires_grad or any(isinstance(a, Tensor) and a._requires_grad for a in args)


def _check_not_leaf(target: Tensor) -> None:
    if target.grad_fn is None and target._requires_grad and grad_mode.STATE.enabled:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")


def _write(target: Tensor, data: Any) -> None:
    array = target._data
    if data.shape != array.shape:
        raise RuntimeError(f"output with shape {list(array.shape)} doesn't match the broadcast shape "
                           f"{list(data.shape)}")
    if data.dtype != array.dtype and array.dtype.kind in "iub" and data.dtype.kind == "f":
        raise RuntimeError(f"result type {data.dtype} can't be cast to the desired output type {array.dtype}")
    _store(target, data)


def _store(target: Tensor, data: Any) -> None:
    """Writes ``data`` into ``target``'s storage and bumps its version."""
    try:
        target._data[...] = data
    except ValueError as exc:  # NumPy's read-only broadcast views (expand) and bad broadcasts
        if not target._data.flags.writeable:
            raise RuntimeError("unsupported operation: more than one element of the written-to tensor "
                               "refers to a single memory location. Please clone() the tensor before "
                               "performing the operation.") from exc
        raise RuntimeError(f"in-place write into a tensor of shape {list(target._data.shape)}: {exc}") from exc
    target._bump_version()


def apply(target: Tensor, op: Callable[..., Tensor], *args: Any, **kwargs: Any) -> Tensor:
    """Runs ``op(target, *args)`` and stores the result in ``target``; returns ``target``."""
    if not _records(target, args):
        with grad_mode.no_grad():
            result = op(target, *args, **kwargs)
        _write(target, result._data)
        return target
    _check_not_leaf(target)
    base = target._base
    if base is not None and target._view_index is not None:
        return _apply_to_index_view(target, op, args, kwargs)
    if base is not None:
        raise RuntimeError("an in-place operation on a view (made by reshape, transpose, expand, ...) is "
                           "recorded by autograd only for views made by indexing; call .clone() on the "
                           "view first")
    snapshot = Tensor._make(target._data.copy(), target.grad_fn, target._requires_grad)
    result = op(snapshot, *args, **kwargs)
    _write(target, result._data)
    target.grad_fn, target._requires_grad = result.grad_fn, result._requires_grad
    return target


def _apply_to_index_view(view: Tensor, op: Callable[..., Tensor], args: tuple, kwargs: dict) -> Tensor:
    """An in-place op on ``base[index]``: writes through ``base[index] = ...`` so that the base's
    graph records it (PyTorch's CopySlices), then refreshes the view's ``grad_fn``."""
    from .indexing import getitem, setitem
    base, index = view._base, view._view_index
    snapshot = Tensor._make(view._data.copy(), view.grad_fn, view._requires_grad)
    setitem(base, index, op(snapshot, *args, **kwargs))
    view.grad_fn, view._requires_grad = getitem(base, index).grad_fn, True
    return view


def fill(target: Tensor, value: Any) -> Tensor:
    """``target.fill_(value)``: every element set to ``value`` (a number or a 0-dim tensor)."""
    if isinstance(value, Tensor) and value.ndim != 0:
        raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                           f"{value.ndim} dimensions.")
    if not _records(target, (value,)):
        _store(target, value._data if isinstance(value, Tensor) else value)
        return target
    return apply(target, _replaced_by, value)


def copy(target: Tensor, src: Tensor) -> Tensor:
    """``target.copy_(src)``: copies ``src`` (broadcast, cast, from any device) into ``target``."""
    if not isinstance(src, Tensor):
        raise TypeError(f"copy_(): argument 'src' must be Tensor, not {type(src).__name__}")
    if not _records(target, (src,)):
        _store(target, move_array(src._data, device_of(target._data)))
        return target
    return apply(target, _replaced_by, src.to(target.device))


def _replaced_by(old: Tensor, new: Any) -> Tensor:
    """``new`` broadcast to ``old``'s shape, with a zero gradient for ``old`` (FillBackward)."""
    from .binary import where
    everywhere = Tensor._make(array_module_of(old._data).ones(old._data.shape, dtype=bool))
    return where(everywhere, new, old)


def random_fill(target: Tensor, kind: str, a: float, b: float | None = None, *, generator: Any = None) -> Tensor:
    """Fills ``target`` with samples: ``uniform`` on [a, b), ``normal`` (mean a, std b), ``bernoulli`` (p=a)."""
    _check_not_leaf(target)
    state = generator_for(device_of(target._data), generator).state
    shape = target._data.shape
    if kind == "uniform":
        uniform = state.random(shape) if hasattr(state, "random") else state.random_sample(shape)
        target._data[...] = uniform * (b - a) + a
    elif kind == "normal":
        target._data[...] = state.standard_normal(shape) * b + a
    else:
        uniform = state.random(shape) if hasattr(state, "random") else state.random_sample(shape)
        target._data[...] = uniform < a
    target._bump_version()
    return target
