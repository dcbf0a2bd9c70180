"""Sorting and selection: sort, argsort, topk, kthvalue, median, mode, quantile, unique, searchsorted,
and the cumulative ops cumprod, cummax, cummin.

The values these ops select are one op, ``Index`` (advanced indexing at positions found by a stable
sort), under the ``grad_fn`` name PyTorch gives each: the gradient flows to the selected positions
and higher derivatives follow from indexing's own. Ties are broken by a stable sort, so among equal
elements the first (for sort, kthvalue, median) or last (for mode, cummax, cummin) position is
chosen; PyTorch's kernels choose among ties by their own algorithm.
"""
from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, dtypes, return_types
from .._dims import wrap_dim
from .._graph import Op
from ..device import array_module_of, device_of, move_array
from . import binary, indexing, reduction, shape
from .complex import reject_complex, saved_conj

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = [
    "sort", "argsort", "msort", "topk", "kthvalue", "median", "nanmedian", "mode", "quantile", "nanquantile",
    "unique", "unique_consecutive", "searchsorted", "bucketize", "cumprod", "cummax", "cummin", "aminmax",
    "bincount", "histc", "histogram", "count_nonzero", "argwhere", "isin",
]


# ------------------------------------------------------------------------------------------ the ops
class Sort(indexing.Index):
    """The values of ``sort``: ``x`` at the sorted positions; the gradient goes back to them."""


class Topk(indexing.Index):
    pass


class Kthvalue(indexing.Index):
    pass


class Median(Op):
    """``median()`` of every element (a 0-dim result), the element at ``index``; ties (the NaNs where it is
    NaN) share the gradient evenly, as in PyTorch."""

    @staticmethod
    def forward(ctx: Median, x: Any, *, index: tuple) -> Any:
        out = ctx.xp.asarray(x[index])
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx: Median, g: Any) -> Any:
        x, out = ctx.saved_tensors
        return reduction.evenly_distributed(ctx.xp, g, x, out)


class MedianDim(indexing.Index, node_name="MedianBackward1"):
    pass


class Nanmedian(Median):
    pass


class NanmedianDim(indexing.Index, node_name="NanmedianBackward1"):
    pass


class Mode(indexing.Index):
    pass


class Cummax(indexing.Index):
    pass


class Cummin(indexing.Index):
    pass


class Cumprod(Op):
    """``out_i = x_1 * ... * x_i`` along ``dim``.

    The gradient ``dx_k = sum_{i >= k} g_i * out_i / x_k`` is the reversed cumulative sum of
    ``g * out`` divided by ``x``; where ``x`` has a zero that division is undefined and the products
    without ``x_k`` are formed explicitly (quadratic in the length of ``dim``).
    """
    row_major = True

    @staticmethod
    def forward(ctx: Cumprod, x: Any, *, dim: int | None, dtype: Any) -> Any:
        ctx.dim = dim
        if dtype is None and x.dtype.kind in "biu":
            dtype = np.dtype(np.int64)
        cast = x if dtype is None or dtype == x.dtype else x.astype(dtype)
        out = reduction.in_float32_if_half(cast, lambda wide: ctx.xp.cumprod(wide, axis=dim))
        if dim is None:
            out = out.reshape(x.shape)  # a 0-d input stays 0-d
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx: Cumprod, g: Any) -> Any:
        x, out = saved_conj(ctx)  # (holomorphic for complex input: the conjugate derivative)
        xp, dim = ctx.xp, ctx.dim
        if dim is None:
            return g
        has_zero = (x == 0).any()
        if not bool(has_zero._data if isinstance(has_zero, _graph.Tensor) else has_zero):
            return _reverse_cumsum(xp, g * out, dim) / x
        return _cumprod_grad_with_zeros(ctx, x, g, dim)


def _reverse_cumsum(xp: Any, a: Any, dim: int) -> Any:
    return xp.flip(xp.cumsum(xp.flip(a, dim), dim), dim)


def _cumprod_grad_with_zeros(ctx: Cumprod, x: Any, g: Any, dim: int) -> Any:
    """``dx_k = sum_{i >= k} g_i prod_{j <= i, j != k} x_j``: for each k, the cumulative product of
    ``x`` with ``x_k`` replaced by 1, kept where ``i >= k``; k runs along a new leading axis."""
    xp = ctx.xp
    n = x.shape[dim]
    arrays = array_module_of(x._data if isinstance(x, _graph.Tensor) else x)
    k = arrays.arange(n).reshape((n,) + (1,) * x.ndim)
    i = arrays.arange(n).reshape((1,) * (dim + 1) + (n,) + (1,) * (x.ndim - dim - 1))
    without_k = xp.where(k == i, 1.0, xp.expand_dims(x, 0))  # shape (n, *x.shape)
    products = Cumprod.call(without_k, dim=dim + 1, dtype=None)
    grad = xp.sum(xp.where(i >= k, products * xp.expand_dims(g, 0), 0.0), axis=dim + 1)  # k leads
    return xp.transpose(grad, list(range(1, dim + 1)) + [0] + list(range(dim + 1, x.ndim)))




# --------------------------------------------------------------------------- array-level helpers
def _stable_argsort(xp: Any, a: Any, axis: int, descending: bool) -> Any:
    """Positions that sort ``a`` along ``axis``; NaN counts as the largest value, and equal elements
    keep their order (a descending sort is the reversed ascending sort of the reversed input)."""
    a = _sortable(a)
    if not descending:
        return xp.argsort(a, axis=axis, kind="stable")
    n = a.shape[axis]
    reversed_order = xp.argsort(xp.flip(a, axis), axis=axis, kind="stable")
    return n - 1 - xp.flip(reversed_order, axis)


def _select(input: Tensor, op: type[Op], indices: Any, dim: int, keepdim: bool = True) -> Tensor:
    """``input`` at ``indices`` along ``dim`` (indices have ``input``'s rank, size k along ``dim``;
    without ``keepdim`` that dimension has size 1 and is dropped)."""
    if input.ndim == 0:
        return op.apply(input, index=(Ellipsis,))
    if not keepdim:
        indices = indices.reshape(indices.shape[:dim] + indices.shape[dim + 1:])
        return op.apply(input, index=_index_without(indices, dim, input.shape))
    return op.apply(input, index=indexing._along(indices, dim, input.shape, indices.shape))


def _index_without(indices: Any, dim: int, input_shape: tuple) -> tuple:
    """The advanced index reading ``input[..., indices[...], ...]`` whose result drops ``dim``."""
    xp = array_module_of(indices)
    ndim = indices.ndim
    parts = []
    for k, n in enumerate(input_shape):
        if k == dim:
            parts.append(indices)
        else:
            axis = k if k < dim else k - 1
            parts.append(xp.arange(n).reshape((1,) * axis + (n,) + (1,) * (ndim - axis - 1)))
    return tuple(parts)


def _long(array: Any) -> Tensor:
    return _graph.wrap(array.astype(np.int64, copy=False))


def _dim_of(input: Tensor, dim: int) -> int:
    return wrap_dim(dim, input.ndim)  # a 0-d tensor takes dim 0 or -1, as PyTorch


_SORT_COMPLEX = (RuntimeError, " Sort does not support complex dtypes on CPU")  # (sic: PyTorch's leading space)
# PyTorch's errors for a complex input, where its kernels raise their own
_COMPLEX_ERRORS: dict = {
    "sort": _SORT_COMPLEX, "argsort": _SORT_COMPLEX,
    "topk": (RuntimeError, " topk does not support complex dtypes on CPU"),
    **{name: (NotImplementedError, f"\"{kernel}\" not implemented for '{{}}'") for name, kernel in (
        ("unique", "unique"), ("unique_dim", "unique_dim"), ("unique_consecutive", "unique"),
        ("cummax", "cummax_cpu"), ("cummin", "cummin_cpu"), ("aminmax", "aminmax_cpu"))},
}


def _check_tensor(name: str, input: Any, kernel: str | None = None, kinds: str = "uif") -> None:
    """A Tensor argument, of a dtype that PyTorch's ``kernel`` (if named) has an implementation for."""
    if not isinstance(input, _graph.Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if kernel is not None:
        dtypes.check_kernel(kernel, input.dtype, kinds)
    if input.dtype.is_complex and name in _COMPLEX_ERRORS:
        error, message = _COMPLEX_ERRORS[name]
        raise error(message.format(dtypes.scalar_type_name(input.dtype)))
    reject_complex(name, input, message=f"{name} does not support complex dtypes: complex numbers have no order",
                   error=RuntimeError)


# ------------------------------------------------------------------------------ sort, topk, ...
def sort(input: Tensor, dim: int = -1, descending: bool = False, *, stable: bool = False) -> Any:
    """The elements of ``input`` sorted along ``dim``: the named tuple ``(values, indices)`` with
    ``values = input.gather(dim, indices)``. NaN sorts as the largest value; the sort is stable
    (equal elements keep their order) whatever ``stable`` says."""
    _check_tensor("sort", input)
    d = _dim_of(input, dim)
    x = input._data
    if x.ndim == 0:
        return return_types.sort(Sort.apply(input, index=(Ellipsis,)), _long(array_module_of(x).zeros((), int)))
    order = _stable_argsort(array_module_of(x), x, d, descending)
    return return_types.sort(_select(input, Sort, order, d), _long(order))


def argsort(input: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> Tensor:
    """The int64 positions that sort ``input`` along ``dim`` (``sort(...).indices``)."""
    _check_tensor("argsort", input)
    x, d = input._data, _dim_of(input, dim)
    if x.ndim == 0:
        return _long(array_module_of(x).zeros((), int))
    return _long(_stable_argsort(array_module_of(x), x, d, descending))


def msort(input: Tensor) -> Tensor:
    """``input`` sorted along its first dimension (``sort(input, dim=0).values``)."""
    return sort(input, 0).values


def topk(input: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Any:
    """The ``k`` largest (or with ``largest=False`` smallest) elements along ``dim``, as the named
    tuple ``(values, indices)``, in sorted order."""
    _check_tensor("topk", input)
    d = _dim_of(input, dim)
    x = input._data
    size = x.shape[d] if x.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    if x.dtype.kind == "b":
        raise RuntimeError("topk does not support bool dtypes on CPU")
    if x.ndim == 0:
        return return_types.topk(Topk.apply(input, index=(Ellipsis,)), _long(array_module_of(x).zeros((), int)))
    order = _stable_argsort(array_module_of(x), x, d, largest)
    order = order[(slice(None),) * d + (slice(0, k),)]
    return return_types.topk(_select(input, Topk, order, d), _long(order))


def _kth_positions(input: Tensor, name: str, dim: int, rank: Any) -> tuple:
    """``(dim, positions)``: the positions (with ``dim`` kept as size 1) of the elements of sorted
    rank ``rank`` (an int or an array broadcasting against the kept shape) along ``dim``."""
    x = input._data
    xp = array_module_of(x)
    d = _dim_of(input, dim)
    if x.ndim == 0:
        return d, xp.zeros((), np.int64)
    if x.shape[d] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    order = _stable_argsort(xp, x, d, False)
    if isinstance(rank, int):
        return d, order[(slice(None),) * d + (slice(rank, rank + 1),)]
    return d, xp.take_along_axis(order, rank, axis=d)


def kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = False) -> Any:
    """The ``k``-th smallest element (``k`` counts from 1) along ``dim`` and its position."""
    if not isinstance(input, _graph.Tensor):
        _check_tensor("kthvalue", input)  # (PyTorch's TypeError)
    d = _dim_of(input, dim)
    size = input.shape[d] if input.ndim else 1
    if size == 0:  # PyTorch's checks in its order: the dimension, then k, then the dtype
        raise IndexError(f"kthvalue(): Expected reduction dim {d} to have non-zero size.")
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    _check_tensor("kthvalue", input, "kthvalue_cpu")
    d, positions = _kth_positions(input, "kthvalue", dim, k - 1)
    return _reduced_result(return_types.kthvalue, Kthvalue, input, positions, d, keepdim)


def _reduced_result(result: type, op: type, input: Tensor, positions: Any, d: int, keepdim: bool) -> Any:
    values = _select(input, op, positions, d, keepdim)
    if input.ndim and not keepdim:
        positions = positions.reshape(values.shape)
    return result(values, _long(positions))


def _median_rank(x: Any, d: int, ignore_nan: bool) -> Any:
    """The sorted rank of the lower median along ``d``, kept as size 1.

    NaN sorts last; ``median`` returns the first NaN of a slice that has one, ``nanmedian`` the
    lower median of the other elements (NaN when all are NaN).
    """
    xp = array_module_of(x)
    n = x.shape[d]
    if dtypes.kind(x.dtype) != "f":
        return xp.full(_kept_shape(x.shape, d), (n - 1) // 2, dtype=np.int64)
    valid = xp.sum(~xp.isnan(x), axis=d, keepdims=True)
    if ignore_nan:
        return xp.maximum(valid - 1, 0) // 2
    return xp.where(valid < n, valid, (n - 1) // 2)


def _kept_shape(shape: tuple, d: int) -> tuple:
    return tuple(1 if k == d else s for k, s in enumerate(shape))


def _median(name: str, ops: tuple, result: type, input: Tensor, dim: Any, keepdim: bool) -> Any:
    if dim is not None and isinstance(input, _graph.Tensor):
        _dim_of(input, dim)  # PyTorch checks the dim before the dtype
    _check_tensor(name, input, "median_cpu" if dim is None else "median_out")
    x = input._data
    ignore_nan = name == "nanmedian"
    if dim is None:
        if x.size == 0:  # the median of nothing is NaN, as in PyTorch
            return _graph.wrap(array_module_of(x).full((), np.nan, dtype=x.dtype))
        flat = shape.reshape(input, (-1,)) if x.ndim != 1 else input
        rank = _median_rank(x.reshape(-1), 0, ignore_nan)
        _, position = _kth_positions(flat, name, 0, rank)
        index = array_module_of(x).unravel_index(position.reshape(()), x.shape)
        return ops[0].apply(input, index=tuple(index))
    d = _dim_of(input, dim)
    if x.ndim == 0:
        return result(ops[1].apply(input, index=(Ellipsis,)), _long(array_module_of(x).zeros((), int)))
    _, positions = _kth_positions(input, name, d, _median_rank(x, d, ignore_nan))
    return _reduced_result(result, ops[1], input, positions, d, keepdim)


def median(input: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
    """The lower median (the element of sorted rank ``(n - 1) // 2``) of every element, or with
    ``dim`` the named tuple ``(values, indices)`` of the lower medians along ``dim``. A NaN makes the
    median NaN."""
    return _median("median", (Median, MedianDim), return_types.median, input, dim, keepdim)


def nanmedian(input: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
    """``median`` ignoring NaN values (NaN only where every element is NaN)."""
    return _median("nanmedian", (Nanmedian, NanmedianDim), return_types.nanmedian, input, dim, keepdim)


def mode(input: Tensor, dim: int = -1, keepdim: bool = False) -> Any:
    """The most frequent value along ``dim`` (the smallest of equally frequent ones) and the position
    of its last occurrence, as the named tuple ``(values, indices)``."""
    _check_tensor("mode", input, "mode_cpu", "buif")
    x = input._data
    d = _dim_of(input, dim)
    if x.ndim == 0:
        return return_types.mode(Mode.apply(input, index=(Ellipsis,)), _long(array_module_of(x).zeros((), int)))
    if x.shape[d] == 0:
        raise IndexError(f"mode(): Expected reduction dim {d} to have non-zero size.")
    host = np.moveaxis(_sortable(np.asarray(move_array(x, device_of(np.empty(0))))), d, -1)
    order = np.argsort(host, axis=-1, kind="stable")
    values = np.take_along_axis(host, order, -1)
    n = host.shape[-1]
    positions = np.broadcast_to(np.arange(n), host.shape)
    starts = np.concatenate([np.ones(host.shape[:-1] + (1,), bool), values[..., 1:] != values[..., :-1]], -1)
    ends = np.concatenate([starts[..., 1:], np.ones(host.shape[:-1] + (1,), bool)], -1)
    run_start = np.maximum.accumulate(np.where(starts, positions, 0), axis=-1)
    run_end = np.flip(np.minimum.accumulate(np.flip(np.where(ends, positions, n - 1), -1), axis=-1), -1)
    best = np.argmax(run_end - run_start, axis=-1)[..., None]  # first longest run: the smallest value
    last = np.take_along_axis(order, np.take_along_axis(run_end, best, -1), -1)  # stable: the last occurrence
    positions = move_array(np.moveaxis(last, -1, d), device_of(x))
    return _reduced_result(return_types.mode, Mode, input, positions, d, keepdim)


def aminmax(input: Tensor, *, dim: int | None = None, keepdim: bool = False) -> Any:
    """The named tuple ``(min, max)`` of the elements (over ``dim`` when given)."""
    _check_tensor("aminmax", input)
    dims = () if dim is None else dim
    return return_types.aminmax(reduction.amin(input, dims, keepdim), reduction.amax(input, dims, keepdim))


# ------------------------------------------------------------------------------------- quantile
_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(name: str, input: Tensor, q: Any, dim: int | None, keepdim: bool, interpolation: str) -> Tensor:
    _check_tensor(name, input)
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(f"{name}() interpolation must be one of linear, lower, higher, midpoint or nearest, "
                           f"but got {interpolation}")
    if input.dtype.name not in ("float32", "float64"):
        raise RuntimeError(f"{name}() input tensor must be either float or double dtype")
    q_tensor = q if isinstance(q, _graph.Tensor) else None
    q_values = np.asarray(q._host_array() if q_tensor is not None else q, dtype=np.float64)
    if q_values.ndim > 1:
        raise RuntimeError(f"{name}() q must be a scalar or 1D tensor")
    if q_tensor is not None and q_tensor.dtype != input.dtype:
        raise RuntimeError(f"{name}() q tensor must be same dtype as the input tensor")
    if ((q_values < 0) | (q_values > 1)).any():
        if q_tensor is None:
            raise RuntimeError(f"{name}() q must be in the range [0, 1] but got {q}")
        raise RuntimeError(f"{name}() q values must be in the range [0, 1]")
    if input._data.size == 0:
        raise RuntimeError(f"{name}() input tensor must be non-empty")
    return _quantile_compute(input, q_values, dim, keepdim, interpolation, name == "nanquantile")


def _quantile_compute(input: Tensor, q: Any, dim: int | None, keepdim: bool, interpolation: str,
                      ignore_nan: bool) -> Tensor:
    """PyTorch's ``quantile_compute``, op for op (so the graph is PyTorch's): the input sorted along
    the reduced dimension moved last, the ranks ``q * (n - 1)`` (a NaN's slice ranked last, or ranks
    over the non-NaN elements when ``ignore_nan``), the values below and above gathered and
    interpolated, the q axis moved first by in-place view ops."""
    x = input._data
    xp = array_module_of(x)
    d = _dim_of(input, dim if dim is not None else 0)
    shape_out = list(x.shape) if dim is not None and x.ndim else [1] * x.ndim if keepdim else []
    if dim is not None and x.ndim:
        if keepdim:
            shape_out[d] = 1
        else:
            del shape_out[d]
    if dim is None:
        ordered = sort(shape.flatten(input)).values
    elif d == x.ndim - 1:
        ordered = sort(input).values
    else:
        ordered = sort(shape.transpose(shape.unsqueeze(input, -1), d, -1)).values
    ordered = shape.view(ordered, *shape_out, ordered.shape[-1])
    values = ordered._data
    n = values.shape[-1]
    qs = xp.asarray(q, dtype=x.dtype)  # in the input's dtype, as PyTorch computes (0.6 * 5 is 3 in float32)
    if ignore_nan:
        ranks = qs * (xp.sum(~xp.isnan(values), axis=-1, keepdims=True) - 1).astype(x.dtype)
        ranks = xp.where(ranks < 0, x.dtype.type(0), ranks)
    else:
        ranks = xp.where(xp.isnan(values).any(axis=-1, keepdims=True), x.dtype.type(n - 1), qs * x.dtype.type(n - 1))
    if interpolation in ("lower", "higher", "nearest"):
        ranks = {"lower": xp.floor, "higher": xp.ceil, "nearest": xp.round}[interpolation](ranks)
    below = ranks.astype(np.int64)
    out = indexing.gather(ordered, -1, _long(below))
    if interpolation in ("linear", "midpoint"):
        weights = xp.full_like(ranks, 0.5) if interpolation == "midpoint" else (ranks - below).astype(x.dtype)
        out = binary.lerp(out, indexing.gather(ordered, -1, _long(xp.ceil(ranks))), _graph.wrap(weights))
    if q.ndim == 0:
        return out.squeeze_(-1)
    return out.unsqueeze_(0).transpose_(0, -1).squeeze_(-1)


def quantile(input: Tensor, q: Any, dim: int | None = None, keepdim: bool = False, *,
             interpolation: str = "linear") -> Tensor:
    """The ``q``-quantiles (``q`` a number or 1-D tensor in [0, 1]) of ``input`` along ``dim`` (of the
    flattened input when None). Between the sorted elements of ranks ``floor(r)`` and ``ceil(r)``,
    ``r = q (n - 1)``, ``interpolation`` picks linear, lower, higher, midpoint or nearest. With a 1-D
    ``q`` the quantiles are the first dimension of the result. A NaN makes its quantiles NaN."""
    return _quantile("quantile", input, q, dim, keepdim, interpolation)


def nanquantile(input: Tensor, q: Any, dim: int | None = None, keepdim: bool = False, *,
                interpolation: str = "linear") -> Tensor:
    """``quantile`` ignoring NaN values (NaN only where every element is NaN)."""
    return _quantile("nanquantile", input, q, dim, keepdim, interpolation)


# ------------------------------------------------------------------------------- unique, search
def unique(input: Tensor, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False,
           dim: int | None = None) -> Any:
    """The distinct elements of ``input`` in ascending order (the flattened input, or with ``dim``
    the distinct slices along ``dim``). With ``return_inverse``, also the position of each input
    element (slice) in the result; with ``return_counts``, how often each occurs."""
    _check_tensor("unique" if dim is None else "unique_dim", input)
    x = input._data
    host = _sortable(np.asarray(move_array(x, device_of(np.empty(0)))))
    if dim is None:
        values, inverse, counts = np.unique(host, return_inverse=True, return_counts=True, equal_nan=False)
        inverse = inverse.reshape(host.shape)
    else:
        d = _unique_dim(input, dim)
        values, inverse, counts = np.unique(host, return_inverse=True, return_counts=True, axis=d)
        inverse = inverse.reshape(-1)
    return _unique_result(values.astype(x.dtype), inverse, counts, x, return_inverse, return_counts)


def _sortable(host: Any) -> Any:
    """``host`` itself, or for bfloat16 its exact float32 values: ml_dtypes' bfloat16 sorts out of order
    around NaN."""
    return host.astype(np.float32) if host.dtype.kind == "V" else host


def _unique_dim(input: Tensor, dim: int) -> int:
    """``dim`` wrapped, with PyTorch's errors for unique along a dimension."""
    if input.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = _dim_of(input, dim)
    if any(n == 0 for k, n in enumerate(input.shape) if k != d):
        raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")
    return d


def _unique_result(values: Any, inverse: Any, counts: Any, like: Any, return_inverse: bool,
                   return_counts: bool) -> Any:
    dev = device_of(like)
    out = _graph.wrap(move_array(np.ascontiguousarray(values), dev))
    extra = []
    if return_inverse:
        extra.append(_long(move_array(np.asarray(inverse), dev)))
    if return_counts:
        extra.append(_long(move_array(np.asarray(counts), dev)))
    return (out, *extra) if extra else out


def unique_consecutive(input: Tensor, return_inverse: bool = False, return_counts: bool = False,
                       dim: int | None = None) -> Any:
    """The elements (or slices along ``dim``) of ``input`` with each run of equal consecutive ones
    collapsed to one; ``return_inverse`` and ``return_counts`` as in ``unique``."""
    _check_tensor("unique_consecutive", input)
    x = input._data
    host = np.asarray(move_array(x, device_of(np.empty(0))))
    d = 0 if dim is None else _unique_dim(input, dim)
    moved = host.reshape(-1) if dim is None else np.moveaxis(host, d, 0)
    rows = moved.reshape(moved.shape[0], math.prod(moved.shape[1:]))  # (-1 is ambiguous for no rows)
    starts = np.ones(rows.shape[0], bool)
    starts[1:] = (rows[1:] != rows[:-1]).any(axis=1)
    run = np.cumsum(starts) - 1
    values = moved[starts]
    counts = np.diff(np.append(np.flatnonzero(starts), rows.shape[0]))
    if dim is not None:
        values = np.moveaxis(values, 0, d)
    inverse = run.reshape(host.shape) if dim is None else run
    return _unique_result(values, inverse, counts, x, return_inverse, return_counts)


def searchsorted(sorted_sequence: Tensor, input: Any, *, out_int32: bool = False, right: bool = False,
                 side: str | None = None, sorter: Tensor | None = None) -> Tensor:
    """For each value of ``input``, the position in ``sorted_sequence`` (sorted along its last
    dimension) where it would be inserted to keep the order: the first such position, or the last
    with ``right=True`` / ``side='right'``. An N-D ``sorted_sequence`` searches each of its rows
    with the matching row of ``input``."""
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of "
                               "left while right was True")
        right = side == "right"
    seq = sorted_sequence._data
    scalar = not isinstance(input, _graph.Tensor)
    values = array_module_of(seq).asarray(input) if scalar else input._data
    if scalar and seq.ndim != 1:
        raise RuntimeError(f"torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension "
                           f"is 1, but we got boundaries tensor dim({seq.ndim}) and input value's dim(0) numel(1)")
    if sorter is not None:
        seq = array_module_of(seq).take_along_axis(seq, sorter._data, axis=-1)
    if seq.ndim > 1 and seq.shape[:-1] != values.shape[:-1]:
        raise RuntimeError(f"torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                           f"dimensions of boundaries tensor and input value tensor must match, but we got "
                           f"boundaries tensor {list(seq.shape)} and input value tensor {list(values.shape)}")
    common = dtypes.result_type((sorted_sequence.dtype, seq.ndim), input if scalar else (input.dtype, values.ndim))
    dtypes.check_kernel("searchsorted_out_cpu", common, "uif")
    xp = array_module_of(seq)
    how = "right" if right else "left"
    if seq.ndim <= 1:
        out = xp.searchsorted(seq, values, side=how)
    else:
        rows, row_values = seq.reshape(-1, seq.shape[-1]), values.reshape(-1, values.shape[-1])
        out = xp.stack([xp.searchsorted(r, v, side=how) for r, v in zip(rows, row_values)]).reshape(values.shape)
    return _graph.wrap(xp.asarray(out).astype(np.int32 if out_int32 else np.int64))


def bucketize(input: Any, boundaries: Tensor, *, out_int32: bool = False, right: bool = False) -> Tensor:
    """The bucket of each value of ``input`` among the 1-D increasing ``boundaries``: ``i`` with
    ``boundaries[i-1] < x <= boundaries[i]`` (``boundaries[i-1] <= x < boundaries[i]`` with
    ``right=True``)."""
    if boundaries.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.ndim})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


def isin(elements: Any, test_elements: Any, *, assume_unique: bool = False, invert: bool = False) -> Tensor:
    """Bool tensor of ``elements``' shape: whether each element is one of ``test_elements`` (either may
    be a number); ``invert=True`` gives the opposite."""
    if not isinstance(elements, _graph.Tensor) and not isinstance(test_elements, _graph.Tensor):
        raise TypeError("isin() expects a Tensor for elements or test_elements")
    like = elements if isinstance(elements, _graph.Tensor) else test_elements
    xp = array_module_of(like._data)
    values, tests = (v._data if isinstance(v, _graph.Tensor) else xp.asarray(v) for v in (elements, test_elements))
    return _graph.wrap(xp.asarray(xp.isin(values, tests, assume_unique=assume_unique, invert=invert)))


# --------------------------------------------------------------------------- cumulative ops
def cumprod(input: Tensor, dim: int, *, dtype: Any = None) -> Tensor:
    """Cumulative products along ``dim``: ``out_i = x_1 * ... * x_i``; integers give int64."""
    if not isinstance(input, _graph.Tensor):
        _check_tensor("cumprod", input)  # (PyTorch's TypeError; complex tensors have products too)
    d = reduction._dim(dim, input.ndim, "cumprod")
    reduction.check_cumulative_dtype("cumprod", dtype)
    return Cumprod.apply(input, dim=d, dtype=reduction._np_dtype(dtype))


def _cumulative_extreme(name: str, op: type[Op], result: type, input: Tensor, dim: int) -> Any:
    _check_tensor(name, input)
    x = input._data
    if x.ndim == 0 or x.size == 0:  # (an empty input is returned before its dim is looked at, as in PyTorch)
        if x.ndim == 0:
            _dim_of(input, dim)
        return result(op.apply(input, index=(Ellipsis,)), _long(array_module_of(x).zeros(x.shape, int)))
    d = _dim_of(input, dim)
    # The running position of the extreme: a position is a new extreme when it is >= (<=) every
    # earlier element, so ties move it to the last occurrence; once a NaN is seen, only NaNs are.
    host = np.moveaxis(_sortable(np.asarray(move_array(x, device_of(np.empty(0))))), d, -1)
    running = (np.fmax if name == "cummax" else np.fmin).accumulate(host, axis=-1) if host.dtype.kind == "f" \
        else (np.maximum if name == "cummax" else np.minimum).accumulate(host, axis=-1)
    positions = np.arange(host.shape[-1])
    is_nan = np.isnan(host) if host.dtype.kind == "f" else np.zeros(host.shape, bool)
    first_nan = np.where(is_nan, positions, host.shape[-1]).min(axis=-1, keepdims=True)
    hit = ((host == running) & (positions < first_nan)) | is_nan
    last = np.maximum.accumulate(np.where(hit, positions, 0), axis=-1)
    indices = move_array(np.ascontiguousarray(np.moveaxis(last, -1, d)), device_of(x))
    return result(_select(input, op, indices, d), _long(indices))


def cummax(input: Tensor, dim: int) -> Any:
    """The running maximum along ``dim`` and the (last) position where it was reached, as the named
    tuple ``(values, indices)``; a NaN, once reached, stays the maximum."""
    return _cumulative_extreme("cummax", Cummax, return_types.cummax, input, dim)


def cummin(input: Tensor, dim: int) -> Any:
    """The running minimum along ``dim`` and the (last) position where it was reached."""
    return _cumulative_extreme("cummin", Cummin, return_types.cummin, input, dim)



# ------------------------------------------------------------------------------------- counting
def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """How often each value ``0 .. max(input)`` occurs in a 1-D non-negative integer tensor (at least
    ``minlength`` bins); with ``weights``, the sum of the weights of its occurrences (in their dtype)."""
    # PyTorch's checks in its order: the kernel's dtypes, minlength, the input's shape and sign, the weights
    dtypes.check_kernel("bincount_cpu", input.dtype, "ui")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    host = np.asarray(move_array(input._data, device_of(np.empty(0))))
    if input.ndim != 1 or (host.size and host.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is not None and (weights.ndim != 1 or weights.shape[0] != host.shape[0]):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    if weights is None:
        counts = np.bincount(host, minlength=minlength).astype(np.int64)
    else:
        w = np.asarray(move_array(weights._data, device_of(np.empty(0))))
        counts = np.bincount(host, w, minlength=minlength).astype(w.dtype if w.dtype.kind == "f" else np.float64)
    return _graph.wrap(move_array(counts, device_of(input._data)))


def histc(input: Tensor, bins: int = 100, min: float = 0, max: float = 0) -> Tensor:
    """A histogram of ``bins`` equal bins over ``[min, max]`` (the data's range when both are 0);
    elements outside are ignored."""
    if not isinstance(bins, int):
        raise TypeError(f"histc(): argument 'bins' must be int, not {type(bins).__name__}")
    # PyTorch's kernels in the order it runs them: the bin edges (no bool), the range (no complex), the counts
    dtypes.check_kernel("linspace_cpu", input.dtype, "uifc")
    dtypes.check_kernel("aminmax_cpu", input.dtype, "buif")
    dtypes.check_kernel("histogram_cpu", input.dtype, "f")
    host = np.asarray(move_array(input._data, device_of(np.empty(0))))
    low, high = (float(host.min()), float(host.max())) if min == max == 0 and host.size else (min, max)
    if low == high:
        low, high = low - 1, high + 1
    counts, _ = np.histogram(host, bins=bins, range=(low, high))
    return _graph.wrap(move_array(counts.astype(host.dtype), device_of(input._data)))


def histogram(input: Tensor, bins: int | Tensor, *, range: tuple | None = None, weight: Tensor | None = None,
              density: bool = False) -> Any:
    """``(hist, bin_edges)``: the counts (or summed ``weight``) of ``input``'s elements in ``bins``
    equal bins over ``range`` (the data's range; widened by 0.5 each side when it is one value), or
    in the bins between the given edges (a 1-D tensor). Each bin holds its left edge, the last also
    its right; elements outside are ignored. ``density`` divides by the total and the bin widths."""
    dtypes.check_kernel("histogramdd", input.dtype, "f")
    host = np.asarray(move_array(input._data, device_of(np.empty(0))))
    edges = bin_edges(host.reshape(-1), bins, range, 0)
    hist = binned_counts(host.reshape(-1, 1), [edges], weight, density)
    where = device_of(input._data)
    return return_types.histogram(_graph.wrap(move_array(hist, where)), _graph.wrap(move_array(edges, where)))


def bin_edges(values: Any, bins: int | Tensor, range: Any, d: int) -> Any:
    """The edges (on the host, in ``values``' dtype) of dimension ``d``'s bins: ``bins`` equal bins over
    ``range`` (the values' range; widened by 0.5 each side when it is one value), or the given edges."""
    if isinstance(bins, _graph.Tensor):
        if bins.dtype != dtypes.from_numpy_dtype(values.dtype):
            raise RuntimeError(f"torch.histogramdd: input tensor and bins tensors should have the same dtype, but got "
                               f"input with dtype {dtypes.scalar_type_name(values.dtype).lower()} and bins for "
                               f"dimension {d} with dtype {dtypes.scalar_type_name(bins._data.dtype).lower()}")
        return np.asarray(move_array(bins._data, device_of(np.empty(0))))
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension {d}")
    low, high = (float(range[0]), float(range[1])) if range is not None else (
        (float(values.min()), float(values.max())) if values.size else (0.0, 0.0))
    if low > high:
        raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {low:g} max {high:g} for "
                           f"dimension {d}")
    if not (np.isfinite(low) and np.isfinite(high)):
        raise RuntimeError(f"torch.histogramdd: dimension {d}'s range [{low:g}, {high:g}] is not finite")
    if low == high:
        low, high = low - 0.5, high + 0.5
    return np.linspace(low, high, bins + 1).astype(values.dtype)


def binned_counts(points: Any, edges: list, weight: Tensor | None, density: bool) -> Any:
    """The counts (or summed ``weight``) of the host array's rows ``points`` (one column a dimension) in the
    bins between ``edges`` (one array a dimension): each bin holds its left edge, the last also its right;
    points outside are ignored. ``density`` divides by the total and the bins' volumes."""
    inside = np.ones(points.shape[0], dtype=bool)
    for column, e in zip(points.T, edges):
        inside &= (column >= e[0]) & (column <= e[-1])
    shape = tuple(e.size - 1 for e in edges)
    which = [np.minimum(np.searchsorted(e, column[inside], side="right") - 1, e.size - 2)
             for column, e in zip(points.T, edges)]
    flat = np.ravel_multi_index(which, shape) if shape else np.zeros(0, dtype=np.int64)
    weights = None if weight is None else np.asarray(move_array(weight._data, device_of(np.empty(0)))).reshape(-1)
    hist = np.bincount(flat, None if weights is None else weights[inside], minlength=math.prod(shape))
    hist = hist.reshape(shape).astype(points.dtype)
    if density:
        volumes = functools.reduce(np.multiply.outer, [np.diff(e) for e in edges])
        hist = (hist / (hist.sum() * volumes)).astype(points.dtype)
    return hist


def count_nonzero(input: Tensor, dim: Any = None) -> Tensor:
    """The number of nonzero elements (over ``dim``), int64."""
    x = input._data
    axes = reduction._axes(dim, x.ndim)
    xp = array_module_of(x)
    out = xp.count_nonzero(x, axis=axes).astype(np.int64)
    return _graph.wrap(out if out.flags.c_contiguous else xp.ascontiguousarray(out))  # row-major (Op.row_major)


def argwhere(input: Tensor) -> Tensor:
    """The ``(n, input.dim())`` int64 coordinates of the nonzero elements."""
    return indexing.nonzero(input)
