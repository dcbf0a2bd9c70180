"""In-place ops, with PyTorch's autograd rules.

An in-place op computes its result with the out-of-place op of the same name, then writes it into
the tensor's storage and bumps the version counter, so a backward formula that saved the old value
raises instead of using the new one. While the graph is recorded, the op runs on a snapshot of the
old value and the tensor takes the op's ``grad_fn``.

On a view (``_base`` is the tensor whose storage it views) the write changes the base too, so it is
recorded as PyTorch records it: the base's history becomes ``CopySlices``, which runs the op's node on the
region the view occupies, and every live view of the base then reads its elements from that history
(``AsStridedBackward0``). The region is read from the arrays' addresses and strides, so one mechanism serves
views made by indexing, reshaping, transposing, ``diagonal``, ``unfold``, ``as_strided``, chains of them,
and ``tensor[index] = value``.
"""
from __future__ import annotations

import math
import re
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from .. import _graph, creation, dtypes, grad_mode, random
from ..device import MetaArray, address_of, array_module_of, device_of, move_array, unlock_read_only
from ..random import generator_for
from .complex import ViewAsComplex, ViewAsReal
from .indexing import (
    Alias,
    Index,
    IndexPut,
    _assign,
    _indexing_error,
    _is_array,
    _is_full,
    _parse,
    copy_slices_name,
    storage_positions,
)
from .shape import INPLACE_FORMS

if TYPE_CHECKING:
    from ..tensor import Tensor


def _records(target: Tensor, args: tuple) -> bool:
    if not grad_mode.STATE.enabled:
        return False
    if target._requires_grad or any(isinstance(a, _graph.Tensor) and a._requires_grad for a in args):
        return True
    base = target._base  # a view made in no_grad mode of a base that requires grad: refused in ``check_view``
    return base is not None and base._requires_grad


def _check_not_leaf(target: Tensor) -> None:
    if target.grad_fn is None and target._requires_grad and grad_mode.STATE.enabled:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")


def check_view(view: Tensor, base: Tensor) -> None:
    """PyTorch's refusals of a recorded in-place op on a view: one made in no_grad mode or as one of several
    outputs (its base's graph could not be rewritten correctly), and a view of a leaf that requires grad."""
    creation = view._creation
    if creation is not None:
        node = view.grad_fn
        if node is None:
            message = "A view was created in no_grad mode and is being modified inplace with grad mode enabled."
        else:
            name = re.sub(r"Backward\d*$", "", node.name())
            message = f"Output {view._output_nr} of {name} is a view and is being modified inplace."
        if creation == _graph.MULTI_OUTPUT_VIEW:
            raise RuntimeError(message + " This view is the output of a function that returns multiple views. Such "
                               "functions do not allow the output views to be modified inplace. You should replace "
                               "the inplace operation by an out-of-place one.")
        raise RuntimeError(message + " Given that this use case is ambiguous and error-prone, it is forbidden. You can "
                           "clarify your code by moving both the view and the inplace either both inside the no_grad "
                           "block (if you don't want the inplace to be tracked) or both outside (if you want the "
                           "inplace to be tracked).")
    if view._requires_grad and base.grad_fn is None and base._requires_grad:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")


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
    store(target, data)


_OVERLAP = ("unsupported operation: more than one element of the written-to tensor refers to a single memory "
            "location. Please clone() the tensor before performing the operation.")


def check_no_internal_overlap(array: Any) -> None:
    """PyTorch's error for a write into an array whose elements share memory (a dimension of size > 1
    with stride 0, as ``expand`` makes); an empty array has no element to share (PyTorch writes into it)."""
    if 0 in array.strides and array.size and any(step == 0 and n > 1 for step, n in zip(array.strides, array.shape)):
        raise RuntimeError(_OVERLAP)


def _check_not_inference(target: Tensor) -> None:
    if target._inference and not grad_mode.STATE.inference:
        raise RuntimeError("Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
                           "clone to get a normal tensor before doing inplace update.See "
                           "https://github.com/pytorch/rfcs/pull/17 for more details.")


def _bad_broadcast(shape: tuple, data: Any, exc: Exception) -> RuntimeError:
    """PyTorch's error for a value that does not broadcast to the in-place target's shape."""
    try:
        wanted = np.broadcast_shapes(shape, getattr(data, "shape", ()))
    except ValueError:
        return RuntimeError(f"in-place write into a tensor of shape {list(shape)}: {exc}")
    return RuntimeError(f"output with shape {list(shape)} doesn't match the broadcast shape {list(wanted)}")


def store(target: Tensor, data: Any, *, repeated_ok: bool = False) -> None:
    """Writes ``data`` into ``target``'s storage and bumps its version; unless ``repeated_ok`` (fill_ and
    zero_, which PyTorch lets write one value into memory that elements share), not into shared memory."""
    _check_not_inference(target)
    if type(target._data) is MetaArray:  # (no data to write: PyTorch's meta kernels only check)
        target._bump_version()
        return
    if not repeated_ok:
        check_no_internal_overlap(target._data)
    try:
        target._data[...] = dtypes.storable(data, target._data.dtype)
    except ValueError as exc:  # NumPy's read-only arrays and broadcast views, and bad broadcasts
        if not unlock_read_only(target._data):
            if getattr(target._data.flags, "writeable", True):  # (CuPy's arrays are all writable)
                raise _bad_broadcast(target._data.shape, data, exc) from exc
            raise RuntimeError(_OVERLAP) from exc
        target._data[...] = dtypes.storable(data, target._data.dtype)
    target._bump_version()


def apply(target: Tensor, op: Callable[..., Tensor], *args: Any, **kwargs: Any) -> Tensor:
    """Runs ``op(target, *args)`` and stores the result in ``target``; returns ``target``."""
    if not _records(target, args):
        with grad_mode.no_grad():
            result = op(target, *args, **kwargs)
        _write(target, result._data)
        return target
    base = target._base
    if base is not None:
        return _apply_to_view(target, base, op, args, kwargs)
    _check_not_leaf(target)
    snapshot = _graph.wrap(target._data.copy(), target.grad_fn, target._requires_grad)
    result = op(snapshot, *args, **kwargs)
    _write(target, result._data)
    target.grad_fn, target._requires_grad = result.grad_fn, result._requires_grad
    if len(target._vc or ()) > 1:  # the base of live views
        rebase_views(target)
    return target


def _apply_to_view(view: Tensor, base: Tensor, op: Callable[..., Tensor], args: tuple, kwargs: dict) -> Tensor:
    """A recorded in-place op on a view, as PyTorch records it: the op's node ``fn`` runs on the view's old
    value; the base's history becomes ``CopySlices(base's old history, fn)``, and the view's ``grad_fn`` the
    view of the new base (``AsStridedBackward0``), so that later uses of either see the write."""
    check_view(view, base)
    _check_not_leaf(view)
    snapshot = _graph.wrap(view._data.copy(), view.grad_fn, view._requires_grad)
    result = op(snapshot, *args, **kwargs)
    _write(view, result._data)
    if result.grad_fn is not None:  # (None for an op without a derivative, on integers say)
        rebase_history(view, result.grad_fn)
    return view


def rebase_history(view: Tensor, fn: _graph.Node) -> None:
    """Records that ``fn``, the node of an in-place op, wrote ``view``'s elements: ``fn`` becomes part of the
    history of ``view``'s base (CopySlices), and every view of the base reads from that (PyTorch's
    ``rebase_history``; the op itself, or a custom Function that marked ``view`` dirty)."""
    base = view._base
    assert base is not None
    region = _locate(base._data, view._data)
    base.grad_fn, base._requires_grad = CopySlices.wrapping(fn, base, region), True
    rebase_views(base, view, region)


def rebase_views(base: Tensor, written: Tensor | None = None, region: _Region | None = None) -> None:
    """After a recorded in-place op on ``base`` or on its view ``written`` (at ``region``): each live view of
    ``base`` (those that its version counter lists, see ``_graph.mark_view``, and ``written``) reads its
    elements from the base's new history (``AsStridedBackward0``), as PyTorch regenerates a view's ``grad_fn``."""
    counter = base._version_counter()
    counter[1:] = [ref for ref in counter[1:] if ref() is not None]  # (the dead ones dropped)
    # (the counter is shared with ``base.detach()`` and the views of that too, which are not rebased)
    views = [view for view in (ref() for ref in counter[1:]) if view is not None and view._base is base]
    if written is not None and all(view is not written for view in views):
        views.append(written)
        counter.append(weakref.ref(written))
    with grad_mode.enable_grad():
        for view in views:
            where = region if view is written and region is not None else _locate(base._data, view._data)
            view.grad_fn = _read(where, base).grad_fn
            view._requires_grad = True


def _region(base: Any, view: Any) -> Any:
    """Where ``view``'s elements lie in ``base`` (an array of the same storage and dtype): their positions in
    ``base``'s elements in row-major order, an integer array of ``view``'s shape. It is read from the arrays'
    addresses and strides, so it holds for views made any way, and for views of views."""
    xp = array_module_of(base)
    size = base.itemsize
    start = (address_of(view) - address_of(base)) // size
    at = storage_positions(xp, view.shape, tuple(s // size for s in view.strides), start)
    if base.flags.c_contiguous:
        return at
    own = storage_positions(xp, base.shape, tuple(s // size for s in base.strides), 0).reshape(-1)
    order = xp.argsort(own)  # memory positions to row-major positions of ``base``
    return order[xp.searchsorted(own[order], at)]


class _Region(NamedTuple):
    """Where a view's elements lie in its base: at the row-major positions ``at`` of the base, or of the base
    seen as (real, imaginary) pairs for a real view of a complex base (``real_base``: real, imag, view_as_real);
    a complex view of a real base (``complex_view``: view_as_complex) is read there as pairs."""

    at: Any
    real_base: bool = False
    complex_view: bool = False


def _locate(base: Any, view: Any) -> _Region:
    if base.dtype.kind == "c" and view.dtype.kind != "c":
        return _Region(_region(base[..., None].view(view.dtype), view), real_base=True)
    if view.dtype.kind == "c" and base.dtype.kind != "c":
        return _Region(_region(base, view[..., None].view(base.dtype)), complex_view=True)
    return _Region(_region(base, view))


def _read(region: _Region, base: Any) -> Any:
    """The view's elements read from ``base`` (an array, or a Tensor and the read recorded)."""
    source = ViewAsReal.call(base) if region.real_base else base
    out = AsStridedView.call(source, at=region.at)
    return ViewAsComplex.call(out) if region.complex_view else out


def _written(region: _Region, base: Any, values: Any) -> Any:
    """``base`` with ``values`` (of the view's shape, or a number) at the view's elements."""
    source = ViewAsReal.call(base) if region.real_base else base
    if region.complex_view and not isinstance(values, int):
        values = ViewAsReal.call(values)
    out = Overwritten.call(source, values, at=region.at)
    return ViewAsComplex.call(out) if region.real_base else out


class AsStridedView(_graph.Op, node_name="AsStridedBackward0"):
    """The elements of ``x`` at the row-major positions ``at`` (from ``_region``): a view read back from its
    base after an in-place op on it (PyTorch's regenerated view node). The gradient is ``g`` put back there."""

    @staticmethod
    def forward(ctx: AsStridedView, x: Any, *, at: Any) -> Any:
        ctx.shape, ctx.at = x.shape, at
        return x.reshape(-1)[at]

    @staticmethod
    def backward(ctx: AsStridedView, g: Any) -> Any:
        return AsStridedViewBackward.call(g, shape=ctx.shape, at=ctx.at)


class AsStridedViewBackward(_graph.Op, node_name="AsStridedBackwardBackward0"):
    """``g`` at the row-major positions ``at`` of zeros of ``shape``; its gradient reads them back."""

    @staticmethod
    def forward(ctx: AsStridedViewBackward, g: Any, *, shape: tuple, at: Any) -> Any:
        ctx.at = at
        out = ctx.xp.zeros(shape, dtype=g.dtype)
        out.reshape(-1)[at] = g
        return out

    @staticmethod
    def backward(ctx: AsStridedViewBackward, gg: Any) -> Any:
        return AsStridedView.call(gg, at=ctx.at)


class Overwritten(_graph.Op, node_name="AsStridedScatterBackward0"):
    """``x`` with ``values`` (broadcast) at its row-major positions ``at``: the gradient is ``g`` with those
    positions zeroed for ``x``, and ``g`` read there for ``values``."""

    @staticmethod
    def forward(ctx: Overwritten, x: Any, values: Any, *, at: Any) -> Any:
        ctx.at = at
        out = x.copy()
        out.reshape(-1)[at] = values
        return out

    @staticmethod
    def backward(ctx: Overwritten, g: Any) -> tuple:
        needs_x, needs_values = ctx.needs_input_grad
        return (Overwritten.call(g, 0, at=ctx.at) if needs_x else None,
                AsStridedView.call(g, at=ctx.at) if needs_values else None)


class CopySlices(_graph.Op, node_name="CopySlices"):
    """The history of a base after an in-place op on one of its views: the base's old value with the
    op's node ``fn`` applied at ``region`` (PyTorch's CopySlices). Its inputs are the base's old value, then
    ``fn``'s other inputs; the gradient of ``fn``'s result goes through ``fn`` to them, and what ``fn`` gives
    its first input goes to the base's old value at ``region``, where the rest of the base's gradient is kept."""

    name = copy_slices_name

    @classmethod
    def wrapping(cls, fn: _graph.Node, base: Tensor, region: _Region) -> CopySlices:
        node = _graph._new_node(cls)
        if not isinstance(base._data, np.ndarray):
            node.xp = array_module_of(base._data)
        node.fn, node.region = fn, region
        node._saved = []  # (as PyTorch's, it is freed after a pass without retain_graph: another pass raises)
        node.next_functions = fn.next_functions = (_graph.edge_of(base), *fn.next_functions[1:])
        node._shape, node._dtype = base._data.shape, base._data.dtype
        return node

    @staticmethod
    def backward(ctx: CopySlices, g: Any) -> tuple:
        if ctx._saved is _graph.FREED:
            raise RuntimeError(_graph._FREED_MESSAGE)
        grads = _graph.run_backward(ctx.fn, _read(ctx.region, g))
        if not ctx.needs_input_grad[0]:
            return (None, *grads[1:])
        own = grads[0] if grads and grads[0] is not None else 0
        return (_written(ctx.region, g, own), *grads[1:])


# --------------------------------------------------------------------------- t_, transpose_, squeeze_, unsqueeze_
def restride(target: Tensor, view: Callable[..., Tensor], *args: Any) -> Tensor:
    """``target`` becomes ``view(target, *args)``: the same elements seen with the view's shape and
    strides (PyTorch's in-place view ops); while autograd records, it takes the view's node, named as
    PyTorch names the in-place form (``TBackward1``, ``SqueezeBackward3``, ...)."""
    _check_not_leaf(target)
    result = view(target, *args)
    target._data = result._data
    target._bump_version()  # (as PyTorch's: the tensor's metadata changed in place)
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
    _check_not_inference(input)
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
        if op is Index and pre is None and all(
                i is Ellipsis or _is_array(i) or (type(i) is slice and _is_full(i)) for i in key):
            target, at = input, key  # index_put_ on the tensor itself (IndexPutBackward0)
        elif op is Index:  # PyTorch writes through a view (hence CopySlices): of the part before the tensors
            target, at = Alias.apply(input, index=pre or (Ellipsis,)), key
        else:  # or of the region itself
            target, at = op.apply(input, index=key), (Ellipsis,)
        try:
            apply(target, _put, value, index=at)
        except IndexError as exc:
            raise _indexing_error(exc, data, index) from None
        return
    target_data = data if pre is None else data[pre]
    if op is not Index and 0 in data.strides:  # the region written to (advanced indexing PyTorch allows)
        check_no_internal_overlap(target_data[key])
    try:
        _assign(target_data, key, value._data if isinstance(value, _graph.Tensor) else value, basic=op is not Index)
    except IndexError as exc:
        raise _indexing_error(exc, data, index) from None
    input._bump_version()


def _put(old: Tensor, value: Any, *, index: tuple) -> Tensor:
    return IndexPut.apply(old, value, index=index, pre=None)


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
        store(target, move_array(src._data, device_of(target._data)))
        return target
    return apply(target, _replaced_by, Copy, src.to(target.device))


def _overwrite(target: Tensor, op: type[_graph.Op], value: Any) -> Tensor:
    if not _records(target, (value,)):
        store(target, value._data if isinstance(value, _graph.Tensor) else value, repeated_ok=True)
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
    if type(target._data) is MetaArray:
        return target
    gen = generator_for(device_of(target._data), generator)
    data = target._data
    check_no_internal_overlap(data)
    order = memory_order(data)
    view = data.transpose(order)
    shape, dtype = view.shape, data.dtype
    as_real = dtype.kind == "c" and kind in ("uniform", "normal")
    if as_real:
        # PyTorch fills view_as_real(target): real and imaginary parts in turn, each with variance std**2 / 2
        shape, dtype = shape + (2,), np.finfo(dtype).dtype
        if kind == "normal":
            parameters = (parameters[0], parameters[1] / math.sqrt(2))
    if kind == "normal":  # PyTorch's normal_ takes its 16-wide path on contiguous tensors only
        parameters += (data.flags.c_contiguous,)
    if kind == "bernoulli" and isinstance(parameters[0], _graph.Tensor):
        parameters = (array_module_of(data).broadcast_to(parameters[0]._data, data.shape).transpose(order),)
    samples = getattr(random, kind)(gen, shape, dtype, *parameters)
    view[...] = samples[..., 0] + 1j * samples[..., 1] if as_real else samples
    target._bump_version()
    return target
