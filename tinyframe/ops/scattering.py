"""Writing into a copy at indices: scatter, scatter_reduce, index_add, index_copy, index_fill, index_put,
put, masked_scatter, select_scatter and slice_scatter (the last four are compositions recorded as PyTorch's
nodes).

Each names its positions with an advanced index built once (``indexing._along`` for scatter's
per-element index, a slice-and-vector index for the ``index_*`` ops). The gradients read the
gradient back at those positions, or zero them where the written values replaced the input, with
indexing's own ops, so higher derivatives follow.
"""
from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, dtypes
from .._dims import wrap_dim
from .._graph import Op
from ..device import add_at, array_module_of, device_of, move_array
from . import binary, indexing, reduction
from ._composite import composed, on_tensors

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["scatter", "scatter_reduce", "index_add", "index_reduce", "index_copy", "index_fill", "index_put", "put",
           "masked_scatter", "select_scatter", "slice_scatter"]

_REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")
_UFUNCS = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum, "amin": np.minimum,
           "add": np.add, "multiply": np.multiply}
_IDENTITIES = {"sum": 0.0, "mean": 0.0, "prod": 1.0, "amax": -np.inf, "amin": np.inf}


def _identity(reduce: str, dtype: Any) -> Any:
    """The value ``reduce`` starts from in ``dtype``: an integer or bool dtype's own extremes for amax/amin."""
    if reduce in ("amax", "amin") and dtype.kind in "iub":
        info = np.iinfo(dtype) if dtype.kind != "b" else np.iinfo(np.uint8)
        return (info.min if reduce == "amax" else info.max) if dtype.kind != "b" else reduce == "amin"
    return _IDENTITIES[reduce]


# ------------------------------------------------------------------------------------------ the ops
def _written(xp: Any, shape: tuple, index: tuple) -> Any:
    """A boolean array of ``shape``: True at the positions ``index`` writes."""
    mask = xp.zeros(shape, dtype=bool)
    mask[index] = True
    return mask


class Scatter(Op):
    """``out = x`` with ``src`` written at ``index``; ``x`` gets the gradient where nothing was
    written, ``src`` the gradient at the positions it was written to."""

    @staticmethod
    def forward(ctx: Scatter, x: Any, src: Any, *, index: tuple) -> Any:
        ctx.index = index
        ctx.mask = _written(ctx.xp, x.shape, index)
        out = x.copy()
        out[index] = src
        return out

    @staticmethod
    def backward(ctx: Scatter, g: Any) -> tuple:
        needs_x, needs_src = ctx.needs_input_grad
        gx = ctx.xp.where(ctx.mask, 0.0, g) if needs_x else None
        return gx, indexing._take(g, ctx.index, None) if needs_src else None


class ScatterValue(Op, node_name="ScatterBackward1"):
    """``out = x`` with the number ``value`` written at ``index``."""

    @staticmethod
    def forward(ctx: ScatterValue, x: Any, *, index: tuple, value: Any) -> Any:
        ctx.mask = _written(ctx.xp, x.shape, index)
        out = x.copy()
        out[index] = dtypes.checked_integer(value, x.dtype) if type(value) is int and x.dtype.kind in "iu" else value
        return out

    @staticmethod
    def backward(ctx: ScatterValue, g: Any) -> Any:
        return ctx.xp.where(ctx.mask, 0.0, g)


class ScatterWithReduce(_graph.NotImplementedOp, node_name="NotImplemented"):
    """``scatter(..., reduce='add' | 'multiply')``, which PyTorch does not differentiate."""

    @staticmethod
    def forward(ctx: ScatterWithReduce, x: Any, src: Any, *, index: tuple, reduce: str) -> Any:
        return _reduce_into(x, src, index, reduce, include_self=True)

    @staticmethod
    def backward(ctx: ScatterWithReduce, g: Any) -> Any:
        raise RuntimeError("the derivative for 'scatter' with a reduce argument is not implemented; use "
                           "scatter_add or scatter_reduce, which have gradients")


def _reduce_into(x: Any, src: Any, index: tuple, reduce: str, include_self: bool) -> Any:
    """``x`` with ``src`` reduced in at ``index`` by ``reduce`` (on the host for CuPy arrays)."""
    host = np.array(move_array(x, device_of(np.empty(0))))
    values = np.asarray(move_array(src, device_of(np.empty(0))), dtype=host.dtype)
    where = tuple(np.asarray(move_array(i, device_of(np.empty(0)))) for i in index)
    if not include_self:
        host[where] = _identity(reduce, host.dtype)
    _UFUNCS[reduce].at(host, where, values)
    if reduce == "mean":
        counts = np.zeros(host.shape, dtype=np.int64)
        np.add.at(counts, where, 1)
        counts += include_self
        divided = host / np.maximum(counts, 1)
        host = divided.astype(host.dtype) if host.dtype.kind == "f" else np.floor(divided).astype(host.dtype)
    return move_array(host, device_of(x))


class ScatterReduce(Op):
    """``out = x`` with ``src`` reduced in at ``index`` by sum, prod, mean, amax or amin (the
    positions' old values take part when ``include_self``)."""

    @staticmethod
    def forward(ctx: ScatterReduce, x: Any, src: Any, *, index: tuple, reduce: str, include_self: bool) -> Any:
        ctx.index, ctx.reduce, ctx.include_self = index, reduce, include_self
        ctx.mask = _written(ctx.xp, x.shape, index)
        out = _reduce_into(x, src, index, reduce, include_self)
        if reduce == "mean":
            counts = array_module_of(x).zeros(x.shape, dtype=x.dtype)
            add_at(counts, index, 1)
            ctx.counts = ctx.xp.maximum(counts + include_self, 1)
        ctx.save_for_backward(x, src, out)
        return out

    @staticmethod
    def backward(ctx: ScatterReduce, g: Any) -> tuple:
        return on_tensors(ctx, _scatter_reduce_grads, g)


def _scatter_reduce_grads(ctx: ScatterReduce, g: Tensor, x: Tensor, src: Tensor, out: Tensor) -> tuple:
    index, reduce = ctx.index, ctx.reduce
    written = _graph.wrap(ctx.mask)
    kept = binary.where(written, 0.0, g)  # the gradient of positions nothing was reduced into

    def at(t: Tensor) -> Tensor:
        """``t`` at the scattered positions (shaped like ``src``)."""
        return indexing.Index.apply(t, index=index)
    if reduce == "sum":
        return (g if ctx.include_self else kept), at(g)
    if reduce == "mean":
        share = g / _graph.wrap(ctx.counts)
        return (binary.where(written, share, g) if ctx.include_self else kept), at(share)
    if reduce == "prod":
        gx = binary.where(written, g * out / x, g) if ctx.include_self else kept
        return gx, at(g * out) / src
    # amax / amin: the gradient is shared evenly by the values equal to the result. As in PyTorch an old
    # value equal to the result counts as a share even when include_self=False (that share is dropped).
    hits_x = (x == out).to(g.dtype)
    hits_src = src == at(out)
    count = indexing.IndexPutImpl.apply(hits_src.to(g.dtype), shape=tuple(g.shape), index=index, pre=None)
    share = g / binary.where(count + hits_x == 0, 1.0, count + hits_x)
    gx = binary.where(written, share * hits_x, g) if ctx.include_self else kept
    return gx, at(share) * hits_src.to(g.dtype)


class IndexAdd(Op):
    @staticmethod
    def forward(ctx: IndexAdd, x: Any, source: Any, *, index: tuple, alpha: Any) -> Any:
        ctx.index, ctx.alpha = index, alpha
        out = x.copy()
        add_at(out, index, source if alpha == 1 else source * alpha)
        return out

    @staticmethod
    def backward(ctx: IndexAdd, g: Any) -> tuple:
        needs_x, needs_source = ctx.needs_input_grad
        gs = indexing._take(g, ctx.index, None) if needs_source else None
        return g if needs_x else None, gs if gs is None or ctx.alpha == 1 else gs * ctx.alpha


class IndexCopy(Scatter):
    pass


class IndexReduce(ScatterReduce):
    """index_reduce: scatter_reduce at the positions of whole slices along one dimension."""


class IndexFill(ScatterValue, node_name="IndexFillBackward0"):
    pass


class IndexFillTensor(Op, node_name="IndexFillBackward1"):
    """index_fill with a 0-dim tensor value, which receives the sum of the filled gradient."""

    @staticmethod
    def forward(ctx: IndexFillTensor, x: Any, value: Any, *, index: tuple) -> Any:
        ctx.mask = _written(ctx.xp, x.shape, index)
        out = x.copy()
        out[index] = value
        return out

    @staticmethod
    def backward(ctx: IndexFillTensor, g: Any) -> tuple:
        needs_x, needs_value = ctx.needs_input_grad
        xp = ctx.xp
        return (xp.where(ctx.mask, 0.0, g) if needs_x else None,
                xp.sum(xp.where(ctx.mask, g, 0.0)) if needs_value else None)


class IndexPutAccumulate(Op, node_name="IndexPutBackward0"):
    """``out = x`` with ``values`` (broadcast) added at an advanced index; repeats accumulate."""

    @staticmethod
    def forward(ctx: IndexPutAccumulate, x: Any, values: Any, *, index: tuple, pre: tuple | None) -> Any:
        ctx.index, ctx.pre = index, pre
        out = x.copy()
        target = out if pre is None else out[pre]  # a view: basic indexing
        add_at(target, index, ctx.xp.broadcast_to(values, target[index].shape).astype(x.dtype, copy=False))
        return out

    @staticmethod
    def backward(ctx: IndexPutAccumulate, g: Any) -> tuple:
        needs_x, needs_values = ctx.needs_input_grad
        return g if needs_x else None, indexing._take(g, ctx.index, ctx.pre) if needs_values else None


# ------------------------------------------------------------------------------ public functions
def _scatter_index(name: str, input: Tensor, dim: int, index: Tensor, src: Any) -> tuple:
    """``(dim, advanced index)`` of a scatter, with PyTorch's checks of shapes and bounds."""
    indexing._check_dtype(index, ("int32", "int64"), f"{name}(): Expected dtype int32/int64 for index")
    d = wrap_dim(dim, input.ndim)
    # PyTorch takes a 0-dim index or src as a 1-element vector
    if max(index.ndim, 1) != input.ndim and index.numel() > 0:
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    src_shape = src.shape if isinstance(src, _graph.Tensor) else index.shape
    if isinstance(src, _graph.Tensor) and max(src.ndim, 1) != input.ndim:
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    shapes = zip(index.shape or (1,), src_shape or (1,), input.shape)
    if any(n > s or (k != d and n > i) for k, (n, s, i) in enumerate(shapes)):
        raise RuntimeError(f"Expected index {list(index.shape)} to be no larger than self {list(input.shape)} apart "
                           f"from dimension {d} and to be no larger size than src {list(src_shape)}")
    idx = indexing._on_device_of(index._data, input._data)
    indexing._check_range(idx, 0, input.shape[d], d, RuntimeError)  # (PyTorch takes no negative index here)
    return d, indexing._along(idx, d, input.shape, idx.shape)


def _leading_block(src: Tensor, index: Tensor) -> Tensor:
    """The leading ``index``-shaped block of ``src`` (the part a scatter reads)."""
    if tuple(src.shape) == tuple(index.shape):
        return src
    return indexing.getitem(src, indexing._leading(tuple(index.shape)))


def _check_src(name: str, input: Tensor, src: Tensor) -> None:
    if src.dtype != input.dtype:
        raise RuntimeError(f"{name}(): Expected self.dtype to be equal to src.dtype")


def scatter(input: Tensor, dim: int, index: Tensor, src: Any = None, *, value: Any = None,
            reduce: str | None = None) -> Tensor:
    """A copy of ``input`` with ``src`` (a tensor, or a number ``value``) written along ``dim`` at
    ``index``: for ``dim=0``, ``out[index[i][j]][j] = src[i][j]``. With ``reduce='add'`` or
    ``'multiply'`` the values are combined with the old ones instead (without a gradient)."""
    if src is None:
        src = value
    d, where = _scatter_index("scatter", input, dim, index, src)
    if reduce is not None:
        if reduce not in ("add", "multiply"):
            raise RuntimeError("reduce argument must be either add or multiply.")
        if isinstance(src, _graph.Tensor):
            warnings.warn("The reduce argument of torch.scatter with Tensor src is deprecated and will be removed "
                          "in a future PyTorch release. Use torch.scatter_reduce instead for more reduction "
                          "options.", UserWarning, stacklevel=2)
            _check_src("scatter", input, src)
            return ScatterWithReduce.apply(input, _leading_block(src, index), index=where, reduce=reduce)
        values = _graph.wrap(array_module_of(input._data).full(index.shape, src, dtype=input._data.dtype))
        return ScatterWithReduce.apply(input, values, index=where, reduce=reduce)
    if isinstance(src, _graph.Tensor):
        _check_src("scatter", input, src)
        return Scatter.apply(input, _leading_block(src, index), index=where)
    return ScatterValue.apply(input, index=where, value=src)


def scatter_reduce(input: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *,
                   include_self: bool = True) -> Tensor:
    """A copy of ``input`` with ``src`` reduced in along ``dim`` at ``index`` by ``reduce`` ('sum',
    'prod', 'mean', 'amax' or 'amin'); with ``include_self=False`` the old values of the positions
    written to take no part. Gradients: sum and mean spread, amax/amin share evenly among ties, prod
    divides the product (its gradient assumes no zero factors)."""
    if reduce not in _REDUCTIONS:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    _check_src("scatter_reduce", input, src)
    _, where = _scatter_index("scatter_reduce", input, dim, index, src)
    return ScatterReduce.apply(input, _leading_block(src, index), index=where, reduce=reduce,
                               include_self=include_self)


def _index_positions(name: str, input: Tensor, dim: int, index: Tensor) -> tuple:
    """``(dim, advanced index)`` of index_add, index_copy_ or index_fill at ``index``, with PyTorch's checks
    (index_fill alone takes negative positions, and index_add alone an int32 index)."""
    if name == "index_add":
        indexing._check_dtype(index, ("int32", "int64"), f"{name}(): Expected dtype int32/int64 for index")
    elif index.dtype.name != "int64":
        raise (IndexError("index_fill_(): Expected dtype int64 for index.") if name == "index_fill" else
               RuntimeError("index_copy_(): Expected a long tensor for index, but got "
                            f"{dtypes.scalar_type_name(index.dtype)}"))
    if index.ndim > 1:
        raise IndexError(f"{name}(): Index is supposed to be a vector")
    d = wrap_dim(dim, input.ndim)
    idx = indexing._on_device_of(index._data, input._data).reshape(-1)
    size = input.shape[d] if input.ndim else 1
    prefix = f"{name}(): " if name == "index_copy_" else ""
    if name == "index_add":  # PyTorch adds into a vector with index_select's check, else as scatter does
        error, message = (IndexError, "index out of range in self") if input.ndim <= 1 else (RuntimeError, None)
    else:
        error, message = IndexError, None
    low = -size if name == "index_fill" else 0
    indexing._check_range(idx, low, size, d, error,
                          message or (None if not idx.size else _range_message(prefix, idx, low, size, d)))
    if not input.ndim:  # a scalar's one element, or none for an empty index
        return d, (Ellipsis,) if idx.size else (array_module_of(idx).zeros((), bool),)
    return d, (slice(None),) * d + (idx % size,)


def _range_message(prefix: str, idx: Any, low: int, size: int, dim: int) -> str:
    bad = idx[(idx < low) | (idx >= size)]
    first = int(bad.reshape(-1)[0]) if bad.size else 0
    return f"{prefix}index {first} is out of bounds for dimension {dim} with size {size}"


def _check_source(input: Tensor, source: Tensor, d: int, count: int) -> None:
    expected = tuple(count if k == d else n for k, n in enumerate(input.shape))
    if input.ndim and tuple(source.shape) != expected:
        raise RuntimeError(f"source tensor shape must match self tensor shape, excluding the specified "
                           f"dimension. Got self.shape = {list(input.shape)} source.shape = {list(source.shape)}")


def index_add(input: Tensor, dim: int, index: Tensor, source: Tensor, *, alpha: Any = 1) -> Tensor:
    """A copy of ``input`` with ``alpha * source`` added along ``dim``: ``out[index[i]] += alpha *
    source[i]`` for ``dim=0`` (repeated indices accumulate)."""
    d, where = _index_positions("index_add", input, dim, index)
    _check_source(input, source, d, index.numel())
    _check_same_dtype("index_add_(): self ({}) and source ({}) must have the same scalar type", input, source)
    return IndexAdd.apply(input, source, index=where, alpha=alpha)


_INDEX_REDUCE_WARNED = [False]


def index_reduce(input: Tensor, dim: int, index: Tensor, source: Tensor, reduce: str, *,
                 include_self: bool = True) -> Tensor:
    """A copy of ``input`` with the slices of ``source`` along ``dim`` reduced into the slices ``index``
    names by ``reduce`` ('prod', 'mean', 'amax' or 'amin'); with ``include_self=False`` the old values of
    the slices written to take no part. Gradients as ``scatter_reduce``'s."""
    if not _INDEX_REDUCE_WARNED[0]:  # PyTorch warns once per process
        _INDEX_REDUCE_WARNED[0] = True
        warnings.warn("index_reduce() is in beta and the API may change at any time.", UserWarning, stacklevel=2)
    if reduce not in _REDUCTIONS[1:]:
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
    if index.dtype.name not in ("int32", "int64"):
        raise RuntimeError(f"index_reduce_(): Expected dtype int32/int64 for index but got: "
                           f"{dtypes.scalar_type_name(index.dtype)}")
    d = wrap_dim(dim, input.ndim)
    if index.ndim > 1:
        raise IndexError("index_reduce_(): Index is supposed to be a vector")
    if index.numel() != source.shape[d]:
        raise RuntimeError(f"index_reduce_(): Number of indices ({index.numel()}) should be equal to source.size(dim): "
                           f"({source.shape[d]}), for dim: {d}")
    _check_same_dtype("index_reduce_(): self ({}) and source ({}) must have the same scalar type", input, source)
    idx = indexing._on_device_of(index._data, input._data).reshape(-1)
    size = input.shape[d]
    indexing._check_range(idx, 0, size, d, IndexError, "index out of range in self")  # no negative indices
    per_element = idx.reshape((1,) * d + (-1,) + (1,) * (source.ndim - d - 1))
    xp = array_module_of(idx)
    where = indexing._along(xp.broadcast_to(per_element, source.shape), d, input.shape, tuple(source.shape))
    return IndexReduce.apply(input, source, index=where, reduce=reduce, include_self=include_self)


def index_copy(input: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    """A copy of ``input`` with the slices of ``source`` written along ``dim`` at ``index``."""
    d, where = _index_positions("index_copy_", input, dim, index)
    _check_source(input, source, d, index.numel())
    if source.dtype != input.dtype:
        raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, but got (self) "
                           f"{reduction._scalar_type(input._data)} and (source) {reduction._scalar_type(source._data)}")
    return IndexCopy.apply(input, source, index=where)


def index_fill(input: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    """A copy of ``input`` with the slices along ``dim`` at ``index`` set to ``value`` (a number or
    a 0-dim tensor, which receives the sum of their gradient)."""
    _, where = _index_positions("index_fill", input, dim, index)
    if isinstance(value, _graph.Tensor):
        if value.ndim != 0:
            raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value.ndim} dimension(s).")
        return IndexFillTensor.apply(input, value.to(input.dtype), index=where)
    return IndexFill.apply(input, index=where, value=value)


def index_put(input: Tensor, indices: tuple, values: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of ``input`` with ``values`` (broadcast) written at ``input[indices]`` (a tuple of index
    tensors, as in advanced indexing); with ``accumulate=True`` they are added, repeats summing up."""
    if not isinstance(indices, (tuple, list)):
        raise TypeError(f"index_put(): argument 'indices' must be tuple of Tensors, not {type(indices).__name__}")
    if not isinstance(values, _graph.Tensor):
        raise TypeError(f"index_put(): argument 'values' must be Tensor, not {type(values).__name__}")
    if values.dtype != input.dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{reduction._scalar_type(input._data)} for the destination and "
                           f"{reduction._scalar_type(values._data)} for the source.")
    _, key, pre = indexing._parse(input._data, tuple(indices), check_arrays=True)
    if accumulate:
        return IndexPutAccumulate.apply(input, values, index=key, pre=pre)
    return indexing.IndexPut.apply(input, values, index=key, pre=pre)


def _check_same_dtype(message: str, input: Tensor, source: Tensor) -> None:
    if source.dtype != input.dtype:
        raise RuntimeError(message.format(reduction._scalar_type(input._data), reduction._scalar_type(source._data)))


def _put_rows(input: Tensor, source: Tensor, index: tuple, accumulate: bool) -> Tensor:
    return index_put(input, index, source.reshape(-1), accumulate)


def put(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of ``input`` with the elements of ``source`` written at the positions ``index`` of
    ``input`` read as a flat vector (negative positions count from the end); with ``accumulate``
    they are added, repeats summing up."""
    indexing._check_dtype(index, ("int64",), "put_(): Expected a long tensor for index, but got "
                          f"{reduction._scalar_type(index._data) if hasattr(index, '_data') else ''}")
    _check_same_dtype("put_(): self and source expected to have the same dtype, but got self.dtype = {} and "
                      "source.dtype = {}", input, source)
    if source.numel() != index.numel():
        raise IndexError(f"put_(): Expected source and index to have the same number of elements, but got "
                         f"source.numel() = {source.numel()}, index.numel() = {index.numel()}")
    data = input._data
    idx = indexing._on_device_of(index._data, data).reshape(-1)
    outside = (idx < -data.size) | (idx >= data.size)
    if idx.size and bool(outside.any()):
        raise IndexError(f"out of range: tried to access index {int(idx[outside][0])} on a tensor of "
                         f"{data.size} elements.")
    where = tuple(_graph.wrap(i) for i in array_module_of(data).unravel_index(idx % max(data.size, 1), data.shape))
    return composed("PutBackward0", _put_rows, input, source, index=where, accumulate=accumulate)


def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """A copy of ``input`` with the positions where ``mask`` (broadcast to ``input``) is True filled,
    in row-major order, with the first elements of ``source``."""
    if mask.dtype.name != "bool":
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype "
                           f"{reduction._scalar_type(mask._data)}")
    _check_same_dtype("masked_scatter: expected self and source to have same dtypes but got{} and {}", input, source)
    positions = array_module_of(input._data).broadcast_to(indexing._mask_data(input, mask), input.shape).nonzero()
    if positions[0].size > source.numel():
        raise RuntimeError("Number of elements of source < number of ones in mask")
    where = tuple(_graph.wrap(p) for p in positions)
    return composed("MaskedScatterBackward0", _scatter_rows, input, source, index=where)


def _scatter_rows(input: Tensor, source: Tensor, index: tuple) -> Tensor:
    return index_put(input, index, source.reshape(-1)[:index[0].shape[0]])


def _written_at(input: Tensor, src: Tensor, index: tuple) -> Tensor:
    out = input.clone()
    out[index] = src
    return out


def _scatter_into(node: str, input: Tensor, src: Tensor, index: tuple) -> Tensor:
    """A copy of ``input`` with ``src`` written at ``input[index]``, which it must match in shape."""
    expected = input._data[index].shape
    if tuple(src.shape) != expected:
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = {list(src.shape)}, "
                           f"slice size = {list(expected)}")
    return composed(node, _written_at, input, src, index=index)


def select_scatter(input: Tensor, src: Tensor, dim: int, index: int) -> Tensor:
    """A copy of ``input`` with ``src`` written at ``input.select(dim, index)``."""
    d = wrap_dim(dim, input.ndim)
    return _scatter_into("SelectScatterBackward0", input, src, (slice(None),) * d + (index,))


def slice_scatter(input: Tensor, src: Tensor, dim: int = 0, start: int | None = None, end: int | None = None,
                  step: int = 1) -> Tensor:
    """A copy of ``input`` with ``src`` written at ``input[start:end:step]`` along ``dim``."""
    d = wrap_dim(dim, input.ndim)
    return _scatter_into("SliceScatterBackward0", input, src, (slice(None),) * d + (slice(start, end, step),))
