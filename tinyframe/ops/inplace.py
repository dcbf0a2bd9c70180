"""In-place ops, with PyTorch's autograd rules.

An in-place op computes its result with the out-of-place op of the same name, then writes it into
the tensor's storage and bumps the version counter, so a backward formula that saved the old value
raises instead of using the new one. While the graph is recorded, the op runs on a snapshot of the
old value and the tensor takes the op's ``grad_fn``.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import _graph, creation, dtypes, grad_mode, random
from ..device import array_module_of, device_of, element_addresses, move_array
from ..random import generator_for
from .indexing import Alias, CopySlices, Index, IndexPut, _assign, _indexing_error, _is_array, _is_full, _parse, getitem
from .shape import INPLACE_FORMS

if TYPE_CHECKING:
    from ..tensor import Tensor


def _records(target: Tensor, args: tuple) -> bool:
    if not grad_mode.STATE.enabled:
        return False
    return target._requires_grad or any(isinstance(a, _graph.Tensor) and a._requires_grad for a in args)


def _check_not_leaf(target: Tensor) -> None:
    if target.grad_fn is None and target._requires_grad and grad_mode.STATE.enabled:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")


def _write(target: Tensor, data: Any) -> None:
    array = target._data
    if data.shape != array.shape:
        raise RuntimeError(f"output with shape {list(array.shape)} doesn't match the broadcast shape "
                           f"{list(data.shape)}")
    if data.dtype.kind != array.dtype.kind and not dtypes.can_cast(dtypes.from_numpy_dtype(data.dtype),
                                                                     dtypes.from_numpy_dtype(array.dtype)):
        # PyTorch's rule for out= as well: never into a lower category (bool_tensor.add_(2) raises too)
        raise RuntimeError(f"result type {dtypes.scalar_type_name(data.dtype)} can't be cast to the desired "
                           f"output type {dtypes.scalar_type_name(array.dtype)}")
    _store(target, data)


def _store(target: Tensor, data: Any) -> None:
    """Writes ``data`` into ``target``'s storage and bumps its version."""
    try:
        target._data[...] = dtypes.storable(data, target._data.dtype)
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
        return _apply_to_index_view(target, base, op, args, kwargs)
    if base is not None:
        return _apply_to_strided_view(target, base, op, args, kwargs)
    snapshot = _graph.wrap(target._data.copy(), target.grad_fn, target._requires_grad)
    result = op(snapshot, *args, **kwargs)
    _write(target, result._data)
    target.grad_fn, target._requires_grad = result.grad_fn, result._requires_grad
    return target


def _apply_to_index_view(view: Tensor, base: Tensor, op: Callable[..., Tensor], args: tuple, kwargs: dict) -> Tensor:
    """An in-place op on ``base[index]``: writes through ``base[index] = ...`` so that the base's
    graph records it (PyTorch's CopySlices), then refreshes the view's ``grad_fn``."""
    index = view._view_index
    snapshot = _graph.wrap(view._data.copy(), view.grad_fn, view._requires_grad)
    setitem(base, index, op(snapshot, *args, **kwargs))
    view.grad_fn, view._requires_grad = getitem(base, index).grad_fn, True
    return view


def _apply_to_strided_view(view: Tensor, base: Tensor, op: Callable[..., Tensor], args: tuple, kwargs: dict) -> Tensor:
    """An in-place op on a view made by reshape, transpose, narrow, ... (PyTorch rebases any view):
    the base records the write of the result at the view's elements, found by memory address, as
    ``base[coords] = result``; the view's ``grad_fn`` is the result's."""
    if base.grad_fn is None and base._requires_grad:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    xp = array_module_of(base._data)
    base_addresses = element_addresses(base._data).reshape(-1)
    view_addresses = element_addresses(view._data).reshape(-1)
    order = xp.argsort(base_addresses)
    found = order[xp.minimum(xp.searchsorted(base_addresses[order], view_addresses), order.size - 1)]
    if bool((base_addresses[found] != view_addresses).any()) or xp.unique(found).size != found.size:
        raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a "
                           "single memory location. Please clone() the tensor before performing the operation.")
    snapshot = _graph.wrap(view._data.copy(), view.grad_fn, view._requires_grad)
    result = op(snapshot, *args, **kwargs)
    coords = tuple(_graph.wrap(c) for c in xp.unravel_index(found, base._data.shape))
    setitem(base, coords, result.reshape(-1))
    view.grad_fn, view._requires_grad = result.grad_fn, True
    return view


# --------------------------------------------------------------------------- t_, transpose_, squeeze_, unsqueeze_
def restride(target: Tensor, view: Callable[..., Tensor], *args: Any) -> Tensor:
    """``target`` becomes ``view(target, *args)``: the same elements seen with the view's shape and
    strides (PyTorch's in-place view ops); while autograd records, it takes the view's node, named as
    PyTorch names the in-place form (``TBackward1``, ``SqueezeBackward3``, ...)."""
    _check_not_leaf(target)
    result = view(target, *args)
    target._data = result._data
    node = result.grad_fn
    if node is not None:
        node.__class__ = INPLACE_FORMS[type(node)]  # same op, the in-place form's name
        target.grad_fn = node
    return target


def resize(target: Tensor, shape: tuple) -> Tensor:
    """``target`` given ``shape``, its elements kept in row-major order (as a view when their number
    is unchanged); new elements are zeros (PyTorch leaves them uninitialised)."""
    if target._requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    data = target._data
    new = creation.zeros(*shape, dtype=target.dtype, device=target.device)._data
    if new.size == data.size:
        target._data = data.reshape(new.shape)
    else:
        kept = min(new.size, data.size)
        new.reshape(-1)[:kept] = data.reshape(-1)[:kept]
        target._data = new
    target._bump_version()
    return target


# --------------------------------------------------------------------------- tensor[index] = value
def setitem(input: Tensor, index: Any, value: Any) -> None:
    """``input[index] = value``: ``value`` (a number or a tensor broadcast to ``input[index]``'s shape)
    is cast to ``input``'s dtype and written in place, bumping ``input``'s version.

    While autograd records, the write is the op CopySlices (IndexPutBackward0 for an advanced index):
    ``value`` receives ``g[index]`` and the overwritten elements of the old ``input`` receive zero.
    """
    data = input._data
    op, key, pre = _parse(data, index)
    if isinstance(value, _graph.Tensor):
        if value.device != input.device:
            if value.ndim != 0:
                raise RuntimeError(f"Expected all tensors to be on the same device, but found at least two devices, "
                                   f"{input.device} and {value.device}! Move the value with .to(device) first.")
            value = value.to(input.device)
        records = value._requires_grad
    elif isinstance(value, (int, float)):
        records = False
    else:
        value = creation.tensor(value, dtype=input.dtype, device=input.device)
        records = False
    if grad_mode.STATE.enabled and (records or input._requires_grad):
        if input.grad_fn is None and input._requires_grad:
            what = "a leaf Variable" if op is Index or op is Alias else "a view of a leaf Variable"
            raise RuntimeError(f"{what} that requires grad is being used in an in-place operation.")
        direct = op is Index and pre is None and all(
            i is Ellipsis or _is_array(i) or (type(i) is slice and _is_full(i)) for i in key)
        try:
            apply(input, _put, value, kind=IndexPut if direct else CopySlices, index=key, pre=pre)
        except IndexError as exc:
            raise _indexing_error(exc, data, index) from None
        return
    try:
        _assign(data if pre is None else data[pre], key, value._data if isinstance(value, _graph.Tensor) else value,
                basic=op is not Index)
    except IndexError as exc:
        raise _indexing_error(exc, data, index) from None
    input._bump_version()


def _put(old: Tensor, value: Any, *, kind: type[_graph.Op], index: tuple, pre: tuple | None) -> Tensor:
    return kind.apply(old, value, index=index, pre=pre)


def fill(target: Tensor, value: Any) -> Tensor:
    """``target.fill_(value)``: every element set to ``value`` (a number or a 0-dim tensor)."""
    if isinstance(value, _graph.Tensor) and value.ndim != 0:
        raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                           f"{value.ndim} dimensions.")
    return _overwrite(target, FillTensor if isinstance(value, _graph.Tensor) else FillNumber, value)


def zero(target: Tensor) -> Tensor:
    """``target.zero_()``: every element set to zero."""
    return _overwrite(target, Zero, 0)


def copy(target: Tensor, src: Tensor) -> Tensor:
    """``target.copy_(src)``: copies ``src`` (broadcast, cast, from any device) into ``target``."""
    if not isinstance(src, _graph.Tensor):
        raise TypeError(f"copy_(): argument 'src' must be Tensor, not {type(src).__name__}")
    if not _records(target, (src,)):
        _store(target, move_array(src._data, device_of(target._data)))
        return target
    return apply(target, _replaced_by, Copy, src.to(target.device))


def _overwrite(target: Tensor, op: type[_graph.Op], value: Any) -> Tensor:
    if not _records(target, (value,)):
        _store(target, value._data if isinstance(value, _graph.Tensor) else value)
        return target
    return apply(target, _replaced_by, op, value)


def _replaced_by(old: Tensor, op: type[_graph.Op], new: Any) -> Tensor:
    return op.apply(old, new) if isinstance(new, _graph.Tensor) else op.apply(old, value=new)


class Copy(_graph.Op, node_name="CopyBackwards"):
    """``old`` overwritten by the tensor ``new``, broadcast and cast to ``old``'s dtype (``copy_``): ``old``
    gets a zero gradient, ``new`` the gradient (summed to its shape by the engine)."""

    @staticmethod
    def forward(ctx: Copy, old: Any, new: Any) -> Any:
        return ctx.xp.broadcast_to(new, old.shape).astype(old.dtype)

    @staticmethod
    def backward(ctx: Copy, g: Any) -> tuple:
        return ctx.xp.zeros_like(g), g


class FillTensor(Copy, node_name="FillBackward3"):
    """``fill_`` with a 0-dim tensor: the value gets the sum of the gradient."""


class FillNumber(_graph.Op, node_name="FillBackward2"):
    """``fill_`` with a number: ``old`` gets a zero gradient."""

    @staticmethod
    def forward(ctx: FillNumber, old: Any, *, value: Any) -> Any:
        return ctx.xp.full(old.shape, dtypes.storable(value, old.dtype), dtype=old.dtype)

    @staticmethod
    def backward(ctx: FillNumber, g: Any) -> Any:
        return ctx.xp.zeros_like(g)


class Zero(FillNumber, node_name="ZeroBackward0"):
    pass


def memory_order(array: Any) -> list[int]:
    """The axes of ``array`` from its largest stride to its smallest: the order in which PyTorch's
    TensorIterator walks a tensor (and so the order in which random samples land in it)."""
    return sorted(range(array.ndim), key=lambda axis: -abs(array.strides[axis]))


def random_fill(target: Tensor, kind: str, *parameters: Any, generator: Any = None) -> Tensor:
    """Fills ``target`` with the samples of ``tinyframe.random.<kind>(generator, shape, dtype,
    *parameters)`` (``uniform``, ``normal``, ``bernoulli``, ``randint``, ``random_bits``,
    ``exponential``, ``cauchy``, ``log_normal``, ``geometric``), in memory order as PyTorch does."""
    _check_not_leaf(target)
    gen = generator_for(device_of(target._data), generator)
    data = target._data
    order = memory_order(data)
    view = data.transpose(order)
    if kind == "normal":  # PyTorch's normal_ takes its 16-wide path on contiguous tensors only
        parameters += (data.flags.c_contiguous,)
    if kind == "bernoulli" and isinstance(parameters[0], _graph.Tensor):
        parameters = (array_module_of(data).broadcast_to(parameters[0]._data, data.shape).transpose(order),)
    view[...] = getattr(random, kind)(gen, view.shape, data.dtype, *parameters)
    target._bump_version()
    return target
