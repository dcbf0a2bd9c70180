"""Indexing: ``tensor[index]``, ``tensor[index] = value``, gather, index_select, masked_fill, ...

An index is parsed once into the form NumPy executes. Basic indices (ints, slices, ``None``,
``...``) give views that share the input's storage and version counter; advanced indices (integer
and boolean tensors, arrays or lists) give copies. The gradient of indexing writes ``g`` into zeros
at the index and *accumulates* where an advanced index repeats; that scatter is itself an op
(``IndexPutImpl``) whose gradient indexes again, so higher derivatives follow. gather,
index_select, take_along_dim and masked_select are advanced indexing with a built index.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, dtypes
from .._dims import wrap_dim
from .._graph import Op
from ..device import add_at, array_module_of, device_of, move_array, unlock_read_only
from .shape import unsqueezed

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["gather", "index_select", "masked_fill", "scatter_add", "nonzero", "masked_select", "take_along_dim"]

_VALID_INDEX_TYPES = ("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
                      "valid indices")
_INDEX_DTYPES = "tensors used as indices must be long, int, byte or bool tensors"


# ------------------------------------------------------------------------------------------ the ops
class Slice(Op):
    """Basic indexing (``x[1:3]``, ``x[0, ::2]``): a view; the gradient is ``g`` placed in zeros."""

    is_view = True

    @staticmethod
    def forward(ctx: Slice, x: Any, *, index: tuple) -> Any:
        ctx.shape, ctx.index = x.shape, index
        return x[index]

    @staticmethod
    def backward(ctx: Slice, g: Any) -> Any:
        return _scatter(g, ctx.shape, ctx.index, None)


# PyTorch records a basic index as one node a step (``x[0, 1:3]``: SelectBackward0, then SliceBackward0),
# each a view of the last; a step's index leaves the dimensions before its own whole.
class Select(Slice):
    pass


class Unsqueeze(Slice):
    """``x[..., None]`` at one dimension, with PyTorch's stride for it (see ``shape.unsqueezed``)."""

    @staticmethod
    def forward(ctx: Slice, x: Any, *, index: tuple) -> Any:
        ctx.shape, ctx.index = x.shape, index
        return unsqueezed(ctx.xp, x, len(index) - 2)


class Alias(Slice):
    pass


class Index(Op):
    """Advanced indexing: ``out = x[pre][index]`` (``pre`` is None or a basic index, see ``_parse``).

    The gradient scatters ``g`` back, summing over repeated indices. ``expand`` broadcasts ``x``
    first (masked_select); the engine then sums the gradient back to ``x``'s shape. NumPy lays out an
    index along an inner dimension with that dimension outermost; PyTorch's result is row-major, which
    ``view`` after ``x[:, idx]``, ``index_select`` or ``interpolate`` relies on (``row_major``).
    """

    row_major = True

    @staticmethod
    def forward(ctx: Index, x: Any, *, index: tuple, pre: tuple | None = None, expand: tuple | None = None) -> Any:
        if expand is not None:
            x = ctx.xp.broadcast_to(x, expand)
        ctx.shape, ctx.index, ctx.pre = x.shape, index, pre
        out = (x if pre is None else x[pre])[index]
        if 1 in out.shape and out.flags.c_contiguous:  # NumPy may give a size-1 dimension another stride
            out = ctx.xp.lib.stride_tricks.as_strided(out, out.shape, _row_major_strides(out))
        return out

    @staticmethod
    def backward(ctx: Index, g: Any) -> Any:
        return _scatter(g, ctx.shape, ctx.index, ctx.pre)


class IndexSelect(Index):
    pass


class Gather(Index):
    pass


class MaskedSelect(Index):
    pass


class IndexPutImpl(Op):
    """The gradient of indexing: ``g`` written into zeros of ``shape`` at the index (summed where
    an advanced index repeats). Its own gradient indexes the incoming gradient again."""

    @staticmethod
    def forward(ctx: IndexPutImpl, g: Any, *, shape: tuple, index: tuple, pre: tuple | None) -> Any:
        ctx.index, ctx.pre = index, pre
        return _scatter_array(ctx.xp, g, shape, index, pre)

    @staticmethod
    def backward(ctx: IndexPutImpl, g: Any) -> Any:
        return _take(g, ctx.index, ctx.pre)


def copy_slices_name(node: Op) -> str:
    """``name()`` of PyTorch's CopySlices nodes (a write through a view, circular padding): the C++ class's,
    namespace included; their repr and type name show the class alone."""
    return "torch::autograd::CopySlices"


class IndexPut(Op):
    """``x[index] = value`` recorded out of place (PyTorch's ``index_put_``): ``out = x`` with ``value``
    (broadcast, cast to ``x``'s dtype) written at ``[pre][index]``. The gradient is ``g`` with the written
    region zeroed for ``x`` and ``g[index]`` for ``value``."""

    @staticmethod
    def forward(ctx: IndexPut, x: Any, value: Any, *, index: tuple, pre: tuple | None) -> Any:
        ctx.shape, ctx.index, ctx.pre, ctx.module = x.shape, index, pre, ctx.xp
        ctx.value_ndim = getattr(value, "ndim", 0)
        out = x.copy()
        basic = pre is None and not any(_is_array(i) for i in index)
        _assign(out if pre is None else out[pre], index, value, basic)
        return out

    @staticmethod
    def backward(ctx: IndexPut, g: Any) -> tuple:
        needs_x, needs_value = ctx.needs_input_grad
        gx = gv = None
        if needs_x:
            written = ctx.module.zeros(ctx.shape, dtype=bool)
            (written if ctx.pre is None else written[ctx.pre])[ctx.index] = True
            gx = ctx.xp.where(written, 0.0, g)
        if needs_value:
            gv = _take(g, ctx.index, ctx.pre)
            if gv.ndim < ctx.value_ndim:  # NumPy drops a value's leading 1-sized dimensions
                gv = gv.reshape((1,) * (ctx.value_ndim - gv.ndim) + tuple(gv.shape))
        return gx, gv


class MaskedFill(Op):
    """``value`` (a number) where ``mask`` is True, else ``x``; ``mask`` broadcasts with ``x``. As in
    PyTorch, the node has one edge, to ``x``."""
    row_major = True

    @staticmethod
    def forward(ctx: Op, x: Any, *, value: Any, mask: Any) -> Any:
        ctx.save_for_backward(mask)
        if type(value) is int and x.dtype.kind in "iu":  # PyTorch's checked cast of the value
            value = dtypes.checked_integer(value, x.dtype)
        out = ctx.xp.where(mask, value, x)
        return out if out.dtype == x.dtype else out.astype(x.dtype)

    @staticmethod
    def backward(ctx: MaskedFill, g: Any) -> Any:
        (mask,) = ctx.saved_tensors
        return ctx.xp.where(mask, ctx.xp.zeros_like(g), g)


class MaskedFillTensor(Op, node_name="MaskedFillBackward1"):
    """masked_fill with a 0-dim tensor value, which receives the sum of the masked gradient."""
    row_major = True

    @staticmethod
    def forward(ctx: MaskedFillTensor, x: Any, value: Any, *, mask: Any) -> Any:
        return MaskedFill.forward(ctx, x, value=value, mask=mask)

    @staticmethod
    def backward(ctx: MaskedFillTensor, g: Any) -> tuple:
        (mask,) = ctx.saved_tensors
        xp = ctx.xp
        needs_x, needs_value = ctx.needs_input_grad
        zero = xp.zeros_like(g)
        return (xp.where(mask, zero, g) if needs_x else None,
                xp.where(mask, g, zero) if needs_value else None)


class ScatterAdd(Op):
    """``out = x`` plus ``src`` summed in at the positions a ``scatter_add`` index names."""

    @staticmethod
    def forward(ctx: ScatterAdd, x: Any, src: Any, *, index: tuple, index_shape: tuple) -> Any:
        ctx.index, ctx.index_shape, ctx.src_shape = index, index_shape, src.shape
        if src.shape != index_shape:
            src = src[_leading(index_shape)]
        out = x.copy()
        add_at(out, index, src)
        return out

    @staticmethod
    def backward(ctx: ScatterAdd, g: Any) -> tuple:
        needs_x, needs_src = ctx.needs_input_grad
        gs = None
        if needs_src:
            gs = _take(g, ctx.index, None)
            if ctx.src_shape != ctx.index_shape:
                gs = _scatter(gs, ctx.src_shape, _leading(ctx.index_shape), None)
        return g if needs_x else None, gs


# --------------------------------------------------------------------------- array-level helpers
def _row_major_strides(a: Any) -> tuple:
    """The row-major strides (bytes) of ``a``'s shape, as PyTorch gives a fresh tensor."""
    strides = [a.itemsize] * a.ndim
    for d in range(a.ndim - 2, -1, -1):
        strides[d] = strides[d + 1] * max(a.shape[d + 1], 1)
    return tuple(strides)


def _scatter(g: Any, shape: tuple, index: tuple, pre: tuple | None) -> Any:
    """``g`` written into zeros of ``shape`` at ``[pre][index]`` (an array, or a recorded Tensor)."""
    return IndexPutImpl.call(g, shape=shape, index=index, pre=pre)


def _take(a: Any, index: tuple, pre: tuple | None) -> Any:
    """``a[pre][index]`` (an array, or a recorded Tensor)."""
    if pre is None and not any(_is_array(i) for i in index):
        return Slice.call(a, index=index)
    return Index.call(a, index=index, pre=pre)


def _scatter_array(xp: Any, g: Any, shape: tuple, index: tuple, pre: tuple | None) -> Any:
    out = xp.zeros(shape, dtype=g.dtype)
    target = out if pre is None else out[pre]
    if any(_is_array(i) and i.dtype.kind != "b" for i in index):
        add_at(target, index, g)  # integer indices may repeat: their gradients add up
    else:
        target[index] = g
    return out


def storage_positions(xp: Any, shape: tuple, stride: tuple, offset: int) -> Any:
    """The storage position of every element of a ``shape`` view with ``stride`` from ``offset``."""
    positions = xp.full(shape, offset, dtype=np.int64)
    for d, (n, s) in enumerate(zip(shape, stride)):
        positions += (xp.arange(n) * s).reshape((n,) + (1,) * (len(shape) - d - 1))
    return positions


def _assign(target: Any, index: tuple, value: Any, basic: bool) -> None:
    """``target[index] = value`` with PyTorch's errors for a value that does not broadcast."""
    try:
        target[index] = dtypes.storable(value, target.dtype)
    except ValueError:
        if not unlock_read_only(target):
            raise _assign_error(value, target[index].shape, basic) from None
        target[index] = dtypes.storable(value, target.dtype)  # from_numpy of a read-only array, as PyTorch


def _assign_error(value: Any, target_shape: tuple, basic: bool) -> RuntimeError:
    shape = tuple(np.shape(value))
    if not basic:
        return RuntimeError(f"shape mismatch: value tensor of shape {list(shape)} cannot be broadcast to indexing "
                            f"result of shape {list(target_shape)}")
    core = shape
    while core and core[0] == 1:  # like NumPy, PyTorch drops a value's leading 1-sized dimensions
        core = core[1:]
    if len(core) > len(target_shape):
        name = dtypes.scalar_type_name(value.dtype)
        return RuntimeError(f"expand(tinyframe.{name}Tensor{{{list(core)}}}, size={list(target_shape)}): the number "
                            f"of sizes provided ({len(target_shape)}) must be greater or equal to the number of "
                            f"dimensions in the tensor ({len(core)})")
    for k in range(1, len(core) + 1):
        if core[-k] != 1 and core[-k] != target_shape[-k]:
            return RuntimeError(f"The expanded size of the tensor ({target_shape[-k]}) must match the existing size "
                                f"({core[-k]}) at non-singleton dimension {len(target_shape) - k}.  Target sizes: "
                                f"{list(target_shape)}.  Tensor sizes: {list(shape)}")
    return RuntimeError(f"cannot write a value of shape {list(shape)} into a region of shape {list(target_shape)}")


def _is_array(item: Any) -> bool:
    return getattr(item, "dtype", None) is not None


def _is_full(item: Any) -> bool:
    """True for ``:`` (a slice that selects everything)."""
    return item.start is None and item.stop is None and item.step is None


def _takes_all(item: slice, size: int) -> bool:
    """Whether PyTorch skips the slice ``item`` of a tuple index, on a dimension of ``size``: as given,
    it starts at 0 (``-size:`` does not count), steps by 1 and stops at the end or beyond."""
    start, stop, step = item.start, item.stop, item.step
    return not start and (step is None or step == 1) and (stop is None or stop >= size)


def _leading(shape: tuple) -> tuple:
    """The basic index of the leading ``shape`` block of a larger array (its first element for ``()``:
    a 0-dim scatter index reads a vector src)."""
    return tuple(slice(0, n) for n in shape) or (0,)


# ---------------------------------------------------------------------------------- index parsing
def _parse(data: Any, index: Any, check_arrays: bool = False) -> tuple:
    """Parses ``index`` for an array ``data``: returns ``(op, index, pre)``.

    ``op`` is Select / Slice / Unsqueeze / Alias for a basic index, Index for an advanced one.
    Tensors, lists and arrays become arrays on ``data``'s device (0-dim integer ones become ints).
    Basic indices get a trailing ``...`` so that NumPy returns a 0-dim view rather than a scalar.

    PyTorch applies integers before tensors, so ``x[0, :, [0, 1]]`` keeps the slice's dimension
    first, where NumPy would move the advanced dimension to the front. An advanced index that
    mixes in integers is therefore split in two steps: ``x[pre][index]``.
    """
    shape = data.shape
    kind = type(index)
    if kind is int:  # fast path: x[i]
        _check_int(index, 0, shape)
        return Select, (index, Ellipsis), None
    if kind is slice and shape:  # fast path: x[a:b:c], a slice even where it takes everything, as PyTorch's x[:]
        _check_step(index)
        return Slice, (index,), None
    # x[indices]: NumPy checks bounds
    if kind is _graph.Tensor and shape and type(data) is np.ndarray and not check_arrays:
        array = index._data
        if type(array) is np.ndarray and array.ndim and array.dtype.kind == "i" and array.dtype.itemsize >= 4:
            return Index, (array,), None
    if kind is not tuple:
        index = tuple(index) if kind is list and _sequence_as_tuple(index) else (index,)

    items, used, ellipsis, has_array, has_int = [], 0, False, False, False
    for item in index:
        kind = type(item)
        if kind is slice:
            _check_step(item)
            used += 1
        elif item is None:
            pass
        elif item is Ellipsis:
            if ellipsis:
                raise IndexError("an index can only have a single ellipsis ('...')")
            ellipsis = True
        else:
            if kind is not int:
                item = _index_value(item, data)
            if type(item) is int:
                has_int = True
                used += 1
            else:
                has_array = True
                used += item.ndim if item.dtype.kind == "b" else 1
        items.append(item)
    if used > len(shape):
        if not shape and any(type(i) is slice for i in items):
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        if not shape and has_int:
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
        raise IndexError(f"too many indices for tensor of dimension {len(shape)}")

    op: type[Op] = Alias
    dim = 0
    check_arrays = check_arrays or not isinstance(data, np.ndarray)  # CuPy does not bounds-check
    for item in items:
        kind = type(item)
        if kind is int:
            _check_int(item, dim, shape)
            op, dim = Select, dim + 1
        elif kind is slice:
            if not _takes_all(item, shape[dim]):
                op = Slice
            dim += 1
        elif item is None:
            op = Unsqueeze
        elif item is Ellipsis:
            dim += len(shape) - used
        elif item.dtype.kind == "b":
            _check_mask(item, dim, shape)
            dim += item.ndim
        else:
            if check_arrays:
                _check_range(item, -shape[dim], shape[dim], dim, IndexError)
            dim += 1

    if not has_array:
        if not ellipsis:
            items.append(Ellipsis)
        return op, tuple(items), None
    if not has_int:
        return Index, tuple(items), None
    pre: list = []
    post: list = []
    for item in items:
        if type(item) is int:
            pre.append(item)
        elif item is None or type(item) is slice:
            pre.append(item)
            post.append(slice(None))
        elif item is Ellipsis:
            pre.append(item)
            post.append(item)
        else:
            pre.extend([slice(None)] * (item.ndim if item.dtype.kind == "b" else 1))
            post.append(item)
    return Index, tuple(post), tuple(pre)


def _sequence_as_tuple(index: list) -> bool:
    """PyTorch reads a list holding tensors, sequences, slices, None or ``...`` as a tuple."""
    return len(index) < 32 and any(
        isinstance(i, (_graph.Tensor, list, tuple, range, np.ndarray, slice)) or i is None or i is Ellipsis
        for i in index)


def _index_value(item: Any, data: Any) -> Any:
    """An int, or an integer/boolean index array on ``data``'s device."""
    if isinstance(item, _graph.Tensor):
        array = item._data
    elif isinstance(item, (bool, np.bool_)):
        array = np.asarray(item)
    elif isinstance(item, (int, np.integer)):
        return int(item)
    elif isinstance(item, (list, tuple, range)):
        array = np.asarray(item)
        if array.dtype == object:
            raise IndexError(f"{_VALID_INDEX_TYPES} (got a ragged sequence)")
        if array.size == 0:
            array = array.astype(np.int64)
    elif isinstance(item, np.ndarray) or hasattr(item, "__cuda_array_interface__"):
        array = item
    else:
        raise IndexError(f"{_VALID_INDEX_TYPES} (got {type(item).__name__})")
    dtype = array.dtype
    if dtype.kind == "u" and dtype.itemsize == 1:
        array = array.astype(bool)  # PyTorch reads uint8 index tensors as masks
    elif not (dtype.kind == "b" or (dtype.kind == "i" and dtype.itemsize >= 4)):
        raise IndexError(_INDEX_DTYPES)
    if array.ndim == 0 and array.dtype.kind == "i":
        return int(array)
    return _on_device_of(array, data)


def _on_device_of(array: Any, data: Any) -> Any:
    """An index array moved to ``data``'s device; CPU indices may index CUDA tensors, not the reverse."""
    if isinstance(array, np.ndarray) == isinstance(data, np.ndarray):
        return array
    if not isinstance(array, np.ndarray):
        raise RuntimeError(f"indices should be either on cpu or on the same device as the indexed tensor "
                           f"({device_of(data)})")
    return move_array(array, device_of(data))


def _check_step(item: slice) -> None:
    if item.step is not None and item.step <= 0:
        raise ValueError("step must be greater than zero" if item.step < 0 else "slice step cannot be zero")


def _check_int(i: int, dim: int, shape: tuple) -> None:
    if not shape:
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    n = shape[dim]
    if not -n <= i < n:
        raise IndexError(f"index {i} is out of bounds for dimension {dim} with size {n}")


def _check_mask(mask: Any, dim: int, shape: tuple) -> None:
    for k, n in enumerate(mask.shape):
        if n != shape[dim + k]:
            raise IndexError(f"The shape of the mask {list(mask.shape)} at index {k} does not match the shape "
                             f"of the indexed tensor {list(shape)} at index {dim + k}")


def _check_range(index: Any, low: int, high: int, dim: int, error: type, message: str | None = None) -> None:
    """Raises ``error`` unless every element of ``index`` lies in ``[low, high)``."""
    if index.size == 0:
        return
    outside = (index < low) | (index >= high)
    if outside.any():
        bad = int(index[outside].reshape(-1)[0])
        raise error(message or f"index {bad} is out of bounds for dimension {dim} with size {high}")


def _indexing_error(exc: IndexError, data: Any, index: Any) -> IndexError:
    """PyTorch's wording for an IndexError NumPy raised while indexing."""
    try:
        _parse(data, index, check_arrays=True)
    except IndexError as precise:
        return precise
    if "could not be broadcast" in str(exc):
        key = _parse(data, index)[1]
        shapes = ", ".join(str([int(i.sum())] if i.dtype.kind == "b" else list(i.shape)) for i in key if _is_array(i))
        return IndexError(f"shape mismatch: indexing tensors could not be broadcast together with shapes {shapes}")
    return IndexError(str(exc))


# --------------------------------------------------------------------------- tensor[index]
def getitem(input: Tensor, index: Any) -> Tensor:
    """``input[index]`` with PyTorch's (NumPy's) indexing rules.

    Basic indices (ints, slices with positive steps, ``None``, ``...``) return a view sharing
    ``input``'s storage; integer and boolean tensors, arrays or lists index by value and return a
    copy whose gradient sums over repeated indices.
    """
    data = input._data
    op, key, pre = _parse(data, index)
    try:
        if type(index) is int or type(index) is slice:  # one node, as PyTorch's (``x[:]`` too)
            return op.apply(input, index=key)
        steps, advanced = _steps(data.shape, key if pre is None else pre)
        if pre is not None:
            advanced = key
        out = input
        for step, step_index in steps:
            out = step.apply(out, index=step_index)
        if advanced is not None:
            return Index.apply(out, index=advanced)
        return out if steps else Alias.apply(input, index=key)
    except IndexError as exc:
        raise _indexing_error(exc, data, index) from None


def _steps(shape: tuple, items: tuple) -> tuple:
    """PyTorch's order of work for a parsed index: ``(steps, advanced)``, the basic views one a step
    (``(op, index)``; a slice that takes all of its dimension is none) and the advanced index left for
    their result (None where ``items`` hold no array)."""
    used = sum(1 if type(i) in (int, slice) else i.ndim if i.dtype.kind == "b" else 1
               for i in items if i is not None and i is not Ellipsis)
    steps: list = []
    advanced: list = []
    dim = source = 0  # the dimension reached in the result so far, and in ``shape``
    for item in items:
        lead = (slice(None),) * dim
        if type(item) is int:
            steps.append((Select, lead + (item, Ellipsis)))
            source += 1
        elif type(item) is slice:
            if not _takes_all(item, shape[source]):
                steps.append((Slice, lead + (item, Ellipsis)))
            advanced.append(slice(None))
            dim, source = dim + 1, source + 1
        elif item is None:
            steps.append((Unsqueeze, lead + (None, Ellipsis)))
            advanced.append(slice(None))
            dim += 1
        elif item is Ellipsis:
            advanced.append(Ellipsis)
            dim, source = dim + len(shape) - used, source + len(shape) - used
        else:
            width = item.ndim if item.dtype.kind == "b" else 1
            advanced.append(item)
            dim, source = dim + width, source + width
    return steps, (tuple(advanced) if any(_is_array(i) for i in advanced) else None)


# ------------------------------------------------------------------------------ public functions
def gather(input: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:
    """Values along ``dim`` at ``index``: for ``dim=0``, ``out[i][j][k] = input[index[i][j][k]][j][k]``.

    ``index`` has ``input``'s number of dimensions and is no larger than ``input`` in the others;
    ``out`` has ``index``'s shape. The gradient scatter-adds into ``input``'s shape.
    """
    _check_dtype(index, ("int32", "int64"), "gather(): Expected dtype int32/int64 for index")
    d = wrap_dim(dim, input.ndim)
    if input.ndim == 0 == index.ndim:  # a scalar's one element
        _check_range(index._data, 0, 1, d, RuntimeError)
        return Gather.apply(input, index=(Ellipsis,))
    if max(index.ndim, 1) != input.ndim:  # a 0-dim index counts as a vector
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    for k in range(index.ndim):
        if k != d and index.shape[k] > input.shape[k]:
            raise RuntimeError(f"Size does not match at dimension {k} expected index {list(index.shape)} to be no "
                               f"larger than self {list(input.shape)} apart from dimension {d}")
    idx = _on_device_of(index._data, input._data)
    _check_range(idx, 0, input.shape[d], d, RuntimeError)
    return Gather.apply(input, index=_along(idx, d, input.shape, idx.shape))


def take_along_dim(input: Tensor, indices: Tensor, dim: int | None = None) -> Tensor:
    """Values at ``indices`` along ``dim`` (NumPy's ``take_along_axis``); ``input`` and ``indices``
    broadcast in the other dimensions. With ``dim=None`` both are read flattened (a 1-D result)."""
    if not isinstance(indices, _graph.Tensor):
        raise TypeError(f"take_along_dim(): argument 'indices' must be Tensor, not {type(indices).__name__}")
    if dim is not None and input.ndim != indices.ndim:
        raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same number of dimensions, "
                           f"but got {input.ndim} dimensions for input, and {indices.ndim} dimensions for indices")
    _check_dtype(indices, ("int64",), "torch.take_along_dim(): dtype of indices should be Long but got "
                 f"{dtypes.scalar_type_name(indices.dtype)}")
    data = input._data
    idx = _on_device_of(indices._data, data)
    if dim is None:
        _check_range(idx, 0, data.size, 0, RuntimeError)
        return Gather.apply(input, index=array_module_of(data).unravel_index(idx.reshape(-1), data.shape))
    d = wrap_dim(dim, input.ndim)
    out_shape = tuple(idx.shape[k] if k == d else _broadcast_size(data.shape[k], idx.shape[k], k)
                      for k in range(idx.ndim))
    _check_range(idx, -data.shape[d], data.shape[d], d, RuntimeError)
    return Gather.apply(input, index=_along(idx, d, data.shape, out_shape))


def index_select(input: Tensor, dim: int, index: Tensor) -> Tensor:
    """The slices of ``input`` along ``dim`` at the positions in the vector ``index`` (repeats allowed)."""
    _check_dtype(index, ("int32", "int64"), "index_select(): Expected dtype int32 or int64 for index")
    if index.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    d = wrap_dim(dim, input.ndim)
    idx = _on_device_of(index._data, input._data).reshape(-1)
    if input.ndim == 0:  # a scalar takes one index, 0
        if idx.size != 1:
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got {idx.size} value(s)")
        _check_range(idx, 0, 1, d, IndexError, "index out of range in self")
        return IndexSelect.apply(input, index=(Ellipsis,))
    _check_range(idx, 0, input.shape[d], d, IndexError, "index out of range in self")
    return IndexSelect.apply(input, index=(slice(None),) * d + (idx,))


def masked_fill(input: Tensor, mask: Tensor, value: Any) -> Tensor:
    """``value`` where the boolean ``mask`` (broadcast with ``input``) is True, else ``input``.

    ``value`` is a number or a 0-dim tensor, cast to ``input``'s dtype; a tensor value receives
    the sum of the gradient over the masked positions.
    """
    mask_data = _mask_data(input, mask)
    if mask.dtype.name != "bool":
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{dtypes.cpp_type_name(mask.dtype)}")
    _broadcast_shape(mask.shape, input.shape)
    if isinstance(value, _graph.Tensor):
        if value.ndim != 0:
            raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value.ndim} dimension(s).")
        if value.device != input.device:
            value = value.to(input.device)
        return MaskedFillTensor.apply(input, value, mask=mask_data)
    return MaskedFill.apply(input, value=value, mask=mask_data)


def masked_select(input: Tensor, mask: Tensor) -> Tensor:
    """A 1-D tensor of the elements of ``input`` where the boolean ``mask`` is True (both broadcast)."""
    mask_data = _mask_data(input, mask)
    if mask.dtype.name != "bool":
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    shape = _broadcast_shape(mask.shape, input.shape)
    if mask_data.shape != shape:
        mask_data = array_module_of(mask_data).broadcast_to(mask_data, shape)
    return MaskedSelect.apply(input, index=(mask_data,), expand=shape if tuple(input.shape) != shape else None)


def scatter_add(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """A copy of ``input`` with ``src`` summed in along ``dim``: for ``dim=0``,
    ``out[index[i][j]][j] += src[i][j]``. ``index`` is no larger than ``src``, nor than ``input``
    outside ``dim``; only the leading ``index``-shaped block of ``src`` is used."""
    _check_dtype(index, ("int32", "int64"), "scatter(): Expected dtype int32/int64 for index")  # (sic: PyTorch's)
    if not isinstance(src, _graph.Tensor):
        raise TypeError(f"scatter_add(): argument 'src' must be Tensor, not {type(src).__name__}")
    if src.dtype != input.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    d = wrap_dim(dim, input.ndim)
    if not max(index.ndim, 1) == input.ndim == max(src.ndim, 1):  # 0-dim index and src count as vectors
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    shapes = zip(index.shape or (1,), src.shape or (1,), input.shape)
    if any(n > s or (k != d and n > i) for k, (n, s, i) in enumerate(shapes)):
        raise RuntimeError(f"Expected index {list(index.shape)} to be no larger than self {list(input.shape)} apart "
                           f"from dimension {d} and to be no larger size than src {list(src.shape)}")
    idx = _on_device_of(index._data, input._data)
    _check_range(idx, 0, input.shape[d], d, RuntimeError)
    return ScatterAdd.apply(input, src, index=_along(idx, d, input.shape, idx.shape), index_shape=idx.shape)


def nonzero(input: Tensor, *, as_tuple: bool = False) -> Any:
    """The indices of the nonzero elements: an ``(n, input.ndim)`` int64 tensor, or with
    ``as_tuple=True`` one 1-D tensor per dimension (a 0-dim input counts as 1-D)."""
    data = input._data
    xp = array_module_of(data)
    if as_tuple:
        return tuple(_graph.wrap(a.astype(xp.int64, copy=False)) for a in xp.nonzero(xp.atleast_1d(data)))
    return _graph.wrap(xp.argwhere(data).astype(xp.int64, copy=False))


# ------------------------------------------------------------------------------- argument helpers
def _along(index: Any, dim: int, input_shape: tuple, out_shape: tuple) -> tuple:
    """The advanced index reading ``input[..., index[...], ...]`` at ``dim`` and each output position
    elsewhere (a size-1 input dimension is broadcast: its coordinate stays 0)."""
    if not out_shape:  # a 0-dim index into a vector: PyTorch takes 0-dim tensors as 1-element vectors here
        return (index,)
    xp = array_module_of(index)
    ndim = len(out_shape)
    parts = []
    for k in range(ndim):
        if k == dim:
            parts.append(index)
        else:
            n = 1 if input_shape[k] == 1 else out_shape[k]
            parts.append(xp.arange(n).reshape((1,) * k + (n,) + (1,) * (ndim - k - 1)))
    return tuple(parts)


def _check_dtype(index: Any, allowed: tuple, message: str) -> None:
    if not isinstance(index, _graph.Tensor):
        raise TypeError(f"expected index to be a Tensor, got {type(index).__name__}")
    if index.dtype.name not in allowed:
        raise RuntimeError(message)


def _mask_data(input: Tensor, mask: Any) -> Any:
    if not isinstance(mask, _graph.Tensor):
        raise TypeError(f"expected mask to be a Tensor, got {type(mask).__name__}")
    return _on_device_of(mask._data, input._data)


def _broadcast_size(a: int, b: int, dim: int) -> int:
    if a != b and a != 1 and b != 1:
        raise RuntimeError(f"The size of tensor a ({a}) must match the size of tensor b ({b}) at non-singleton "
                           f"dimension {dim}")
    return max(a, b) if a and b else 0


def _broadcast_shape(a: tuple, b: tuple) -> tuple:
    """The broadcast of two shapes, with PyTorch's error naming the first mismatching dimension."""
    ndim = max(len(a), len(b))
    a, b = (1,) * (ndim - len(a)) + tuple(a), (1,) * (ndim - len(b)) + tuple(b)
    return tuple(_broadcast_size(m, n, k) for k, (m, n) in enumerate(zip(a, b)))
