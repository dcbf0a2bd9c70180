"""Reductions over dimensions (sum, mean, max, var, norm, ...), the softmax family and cumsum.

``dim`` is an int or a sequence of ints (negative counts from the end); None, and for most ops an
empty sequence, means every dimension. A reduced dimension is dropped unless ``keepdim=True`` keeps
it with size 1. Backward formulas first restore the kept dimensions of the gradient (``_kept``), so
that it broadcasts against the input.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, dtypes, return_types
from .._dims import as_index, wrap_dim
from .._graph import MultiOutputOp, Op
from .._lazy import lazy_module
from ..device import array_module_of
from . import binary, shape, unary
from .complex import reject_complex, saved_conj
from .promotion import promote

if TYPE_CHECKING:
    from ..tensor import Tensor

# (numerics imports this module: its functions are reached at call time)
_numerics = lazy_module("tinyframe.ops.numerics")

__all__ = [
    "sum", "mean", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "var", "std", "var_mean",
    "std_mean", "norm", "logsumexp", "softmax", "log_softmax", "cumsum", "all", "any",
    "nansum", "nanmean", "logcumsumexp", "dist",
]

_INT64 = np.dtype(np.int64)
_UINT8 = np.dtype(np.uint8)
_INF = float("inf")


# --------------------------------------------------------------------------- dimension helpers
def _axes(dim: Any, ndim: int) -> tuple | None:
    """``dim`` as a tuple of non-negative axes; None (every dimension) for None, an empty sequence
    or a 0-d tensor."""
    if dim is None:
        return None
    if type(dim) is int and -ndim <= dim < ndim:  # fast path: one valid dim
        return (dim % ndim,)
    dims = tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)
    axes = []
    for d in dims:
        d = wrap_dim(as_index(d, expected="int or tuple of ints"), ndim)
        if d in axes:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        axes.append(d)
    return tuple(axes) if axes and ndim else None


def _dim_index(dim: Any, name: str) -> int:
    """``dim`` as an int, or the TypeError of PyTorch's argument parser (checked before anything else)."""
    if type(dim) is int:
        return dim
    try:
        return as_index(dim)
    except TypeError as exc:
        raise TypeError(f"{name}(): {exc}") from None


def _dim(dim: Any, ndim: int, name: str) -> int | None:
    """One dimension, wrapped; None for a 0-d tensor (whose only "dimension" is the element)."""
    dim = wrap_dim(_dim_index(dim, name), ndim)
    return dim if ndim else None


def _kept(ctx: Op, g: Any, viewed: bool = False) -> Any:
    """The gradient of a reduction's output with the reduced dimensions restored as size 1: one unsqueeze a
    dimension, as PyTorch's formulas (``unsqueeze_multiple``) record it, or one view where its formula views
    (``viewed``: amax, amin)."""
    axes = ctx.axes
    if ctx.keepdim or axes is None:  # a 0-d gradient broadcasts as it is
        return g
    if viewed:
        return g.reshape(tuple(1 if i in axes else n for i, n in enumerate(ctx.shape)))
    for axis in sorted(axes):
        g = shape.Unsqueeze.call(g, dim=axis)
    return g


def _spread(ctx: Op, g: Any) -> Any:
    """``g`` (with kept dimensions) broadcast to the input's shape.

    A 0-d gradient (the common ``loss.sum()``) goes through ``full``: one call that is much cheaper
    than ``broadcast_to``, and gives an array that a leaf keeps as ``.grad`` without a copy.
    CuPy's ``full`` takes only 0-d fill values.
    """
    if g.ndim == 0:
        if ctx.xp is np:  # empty + assign: a third of numpy.full's Python overhead
            spread = np.empty(ctx.shape, g.dtype)
            spread[...] = g
            return spread
        return ctx.xp.full(ctx.shape, g)
    return ctx.xp.broadcast_to(g, ctx.shape)


def _count(shape: tuple, axes: tuple | None) -> int:
    """The number of elements each output element reduces."""
    return math.prod(shape) if axes is None else math.prod(shape[a] for a in axes)


def _safe_divide(g: Any, d: Any, xp: Any) -> Any:
    """``g / d``, 0 where ``d == 0`` (PyTorch's convention at the kinks of norm and std)."""
    zero = d == 0
    return xp.where(zero, 0.0, g / xp.where(zero, 1.0, d))


def _scalar_type(x: Any) -> str:
    return dtypes.scalar_type_name(x.dtype)


def _require_nonempty(name: str, shape: tuple, axes: tuple | None) -> None:
    """PyTorch's errors for max-like reductions, which have no identity, over zero elements."""
    if axes is None:
        raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                           "Specify the reduction dim with the 'dim' argument.")
    for a in axes:
        if shape[a] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {a} to have non-zero size.")


def _np_dtype(dtype: Any) -> Any:
    return None if dtype is None else dtypes.as_dtype(dtype).numpy


# --------------------------------------------------------------------------- sum, mean, prod
class Sum(Op):
    row_major = True

    @staticmethod
    def forward(ctx: Sum, x: Any, *, axes: tuple | None, keepdim: bool, dtype: Any) -> Any:
        ctx.shape, ctx.axes, ctx.keepdim = x.shape, axes, keepdim
        if dtype is None and x.dtype.kind in "biu":
            dtype = _INT64  # PyTorch sums bools and integers as int64
        if type(x) is np.ndarray:  # the ufunc's reduce skips ndarray.sum's Python wrapper (tiny graph -1%)
            return np.add.reduce(x, axes, dtype, None, keepdim)  # type: ignore[call-overload]  # (stubs: a literal)
        return x.sum(axis=axes, keepdims=keepdim, dtype=dtype)

    @staticmethod
    def backward(ctx: Sum, g: Any) -> Any:
        return _spread(ctx, _kept(ctx, g))


class SumDim(Sum, node_name="SumBackward1"):
    pass


class Mean(Op):
    row_major = True

    @staticmethod
    def forward(ctx: Mean, x: Any, *, axes: tuple | None, keepdim: bool, dtype: Any) -> Any:
        ctx.shape, ctx.axes, ctx.keepdim = x.shape, axes, keepdim
        ctx.count = _count(x.shape, axes)
        if ctx.count == 0:  # the mean of nothing is nan, as in PyTorch (and without NumPy's warning)
            return x.sum(axis=axes, keepdims=keepdim, dtype=dtype) * float("nan")
        if dtype is not None and dtype.itemsize == 2 and dtypes.kind(dtype) == "f":
            # PyTorch accumulates a half-precision mean in float32 (NumPy would in the dtype given, overflowing)
            return x.mean(axis=axes, keepdims=keepdim, dtype=np.float32).astype(dtype)
        return x.mean(axis=axes, keepdims=keepdim, dtype=dtype)

    @staticmethod
    def backward(ctx: Mean, g: Any) -> Any:
        g = _kept(ctx, g)
        return _spread(ctx, g / ctx.count if ctx.count else g)


class MeanDim(Mean, node_name="MeanBackward1"):
    pass


class Prod(Op):
    row_major = True

    @staticmethod
    def forward(ctx: Prod, x: Any, *, dim: int | None, keepdim: bool, dtype: Any) -> Any:
        ctx.shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
        ctx.axes = None if dim is None else (dim,)
        if dtype is None and x.dtype.kind in "biu":
            dtype = _INT64
        out = x.prod(axis=dim, keepdims=keepdim, dtype=dtype)
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx: Prod, g: Any) -> Any:
        x, out = saved_conj(ctx)
        xp, dim = ctx.xp, ctx.dim
        g, out = _kept(ctx, g), _kept(ctx, out)
        zeros = x == 0
        if _on_cpu(x) and not zeros.any():  # on a GPU the test would wait for it: the general form is exact too
            return g * (out / x)  # (PyTorch's grouping: its rounding, and its nodes when recorded)
        # With zeros, out / x is undefined. d out / d x_i is the product of the others, split into
        # the nonzero factors (p / x_i, x_i taken as 1 where it is 0) times the zero factors other
        # than x_i: 1 if there are none; if there is one, that zero itself (written as a sum over
        # the zeros, so that the second derivative through it is right too); else 0.
        count = xp.sum(zeros, dim, keepdims=True)
        ones = xp.where(zeros, 1.0, x)
        nonzero_part = xp.prod(ones, dim, keepdims=True) / ones
        zero_sum = xp.sum(xp.where(zeros, x, 0.0), dim, keepdims=True)
        zero_part = xp.where(zeros, (count == 1) + (count == 2) * (zero_sum - x),
                             (count == 0) + (count == 1) * zero_sum)
        return g * nonzero_part * zero_part


class ProdDim(Prod, node_name="ProdBackward1"):
    pass


def _on_cpu(x: Any) -> bool:
    """Whether ``x`` (an array, or a Tensor in a recorded backward) is on the cpu, where reading a value
    of it from Python costs no wait for a device."""
    return isinstance(x._data if isinstance(x, _graph.Tensor) else x, np.ndarray)


def sum(input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """Sum of the elements over ``dim`` (every dimension when None or empty).

    Booleans and integers are summed as int64 unless ``dtype`` says otherwise; ``dtype`` casts the
    input before summing.
    """
    if dim is None:
        return Sum.apply(input, axes=None, keepdim=keepdim, dtype=_np_dtype(dtype))
    return SumDim.apply(input, axes=_axes(dim, input._data.ndim), keepdim=keepdim, dtype=_np_dtype(dtype))


def mean(input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """Mean of the elements over ``dim`` (every dimension when None or empty): ``sum / count``.

    Needs a floating input, or a floating ``dtype`` to cast the input to.
    """
    target = input._data.dtype if dtype is None else _np_dtype(dtype)
    if dtypes.kind(target) not in "fc":
        which = "Input" if dtype is None else "Optional"
        raise RuntimeError(f"mean(): could not infer output dtype. {which} dtype must be either a floating "
                           f"point or complex dtype. Got: {dtypes.scalar_type_name(target)}")
    dtype = None if dtype is None else target
    if dim is None:
        return Mean.apply(input, axes=None, keepdim=keepdim, dtype=dtype)
    return MeanDim.apply(input, axes=_axes(dim, input._data.ndim), keepdim=keepdim, dtype=dtype)


def prod(input: Tensor, dim: int | None = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """Product of the elements over one dimension ``dim`` (all elements when None).

    The gradient is the product of the other elements, also where the input has zeros.
    """
    if dim is None:
        return Prod.apply(input, dim=None, keepdim=keepdim, dtype=_np_dtype(dtype))
    return ProdDim.apply(input, dim=_dim(dim, input._data.ndim, "prod"), keepdim=keepdim,
                         dtype=_np_dtype(dtype))


class Nansum(Op):
    """``sum`` with NaN counted as zero; the gradient is zero at the NaNs."""
    row_major = True

    @staticmethod
    def forward(ctx: Nansum, x: Any, *, axes: tuple | None, keepdim: bool, dtype: Any) -> Any:
        ctx.shape, ctx.axes, ctx.keepdim = x.shape, axes, keepdim
        if dtype is None and x.dtype.kind in "biu":
            dtype = _INT64
        ctx.save_for_backward(ctx.xp.isnan(x))
        return ctx.xp.nansum(x, axis=axes, keepdims=keepdim, dtype=dtype)

    @staticmethod
    def backward(ctx: Nansum, g: Any) -> Any:
        (nan,) = ctx.saved_tensors
        # A product, as PyTorch's: inf and nan in g stay nan at the NaNs.
        return _spread(ctx, _kept(ctx, g)) * ctx.xp.asarray(~nan)


def nansum(input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """Sum of the elements over ``dim`` (every dimension when None), NaN counted as zero; booleans and
    integers are summed as int64 unless ``dtype`` says otherwise."""
    if input._data.dtype.kind == "c":
        raise RuntimeError("nansum on CPU does not support complex inputs")
    dtype = _np_dtype(dtype)
    if dtype is not None and dtype.kind == "c" and dtypes.kind(input._data.dtype) == "f":  # (integers: a sum)
        raise NotImplementedError(f"\"nansum_cpu\" not implemented for '{dtypes.scalar_type_name(dtype)}'")
    return Nansum.apply(input, axes=_axes(dim, input._data.ndim), keepdim=keepdim, dtype=dtype)


def nanmean(input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """Mean of the elements that are not NaN over ``dim`` (every dimension when None): ``nansum`` over the
    count of the others (NaN where there are none)."""
    if dtypes.kind(input._data.dtype) != "f":
        raise RuntimeError(f"nanmean(): expected input to have floating point or complex dtype but got "
                           f"{_scalar_type(input._data)}")
    if dtype is not None and dtypes.kind(_np_dtype(dtype)) not in "fc":
        raise RuntimeError(f"nanmean(): could not infer output dtype. Optional dtype must be either a floating "
                           f"point or complex dtype. Got: {dtypes.scalar_type_name(_np_dtype(dtype))}")
    present = _graph.wrap(~array_module_of(input._data).isnan(input._data))
    return binary.div(nansum(input, dim, keepdim, dtype=dtype), sum(present, dim, keepdim))


# --------------------------------------------------------------------------- max, min, amax, amin
class Amax(Op):
    row_major = True
    largest = True  # False in Amin

    @staticmethod
    def forward(ctx: Amax, x: Any, *, axes: tuple | None, keepdim: bool) -> Any:
        ctx.shape, ctx.axes, ctx.keepdim = x.shape, axes, keepdim
        out = x.max(axis=axes, keepdims=keepdim) if ctx.largest else x.min(axis=axes, keepdims=keepdim)
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx: Amax, g: Any) -> Any:
        # The gradient is split evenly between the elements equal to the extreme value.
        x, out = ctx.saved_tensors
        xp = ctx.xp
        g, out = _kept(ctx, g, viewed=True), _kept(ctx, out, viewed=True)
        hits = x == out
        count = xp.sum(hits, ctx.axes, keepdims=True, dtype=g.dtype)
        return g / count * hits  # (NaN throughout a slice whose extreme is NaN: no element equals it, as in PyTorch)


class Amin(Amax):
    largest = False


def evenly_distributed(xp: Any, g: Any, x: Any, out: Any) -> Any:
    """PyTorch's ``evenly_distribute_backward``, the gradient of ``max()``, ``min()``, ``median()`` and
    ``nanmedian()`` of every element: ``g`` shared evenly by the elements equal to the 0-d result ``out``,
    or by the NaNs where it is NaN (amax's gradient gives NaN no share)."""
    hits = xp.isnan(x) if xp.isnan(out) else x == out
    return xp.where(hits, g / xp.sum(hits, dtype=g.dtype), 0.0)


def _evenly_distributed_backward(ctx: Any, g: Any) -> Any:
    x, out = ctx.saved_tensors
    return evenly_distributed(ctx.xp, g, x, out)


class Max(Amax, node_name="MaxBackward1"):
    """``max()`` of every element: a 0-d tensor; ties share the gradient evenly."""

    backward = staticmethod(_evenly_distributed_backward)


class Min(Amin, node_name="MinBackward1"):
    """``min()`` of every element: a 0-d tensor; ties share the gradient evenly."""

    backward = staticmethod(_evenly_distributed_backward)


class MaxDim(Op, node_name="MaxBackward0"):
    """The values of ``max(dim)``; the gradient goes to the position in ``indices`` only."""
    row_major = True
    largest = True  # False in MinDim

    @staticmethod
    def forward(ctx: MaxDim, x: Any, *, dim: int | None, keepdim: bool, indices: Any) -> Any:
        ctx.shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
        ctx.axes = None if dim is None else (dim,)
        ctx.save_for_backward(indices)
        return x.max(axis=dim, keepdims=keepdim) if ctx.largest else x.min(axis=dim, keepdims=keepdim)

    @staticmethod
    def backward(ctx: MaxDim, g: Any) -> Any:
        (indices,) = ctx.saved_tensors  # a constant array in both modes, kept with the reduced dim
        dim = ctx.dim
        if dim is None:
            return g
        g = _kept(ctx, g)
        ndim = len(ctx.shape)
        positions = array_module_of(indices).arange(ctx.shape[dim]).reshape((-1,) + (1,) * (ndim - dim - 1))
        return ctx.xp.where(indices == positions, g, 0.0)


class MinDim(MaxDim, node_name="MinBackward0"):
    largest = False


def _reject_complex_kernel(kernel: str, x: Any) -> None:
    if x.dtype.kind == "c":
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_scalar_type(x)}'")


def _extreme(name: str, full: type[Op], by_dim: type[MaxDim], result: type, input: Tensor, dim: Any,
             keepdim: bool) -> Any:
    x = input._data
    if dim is None:
        _reject_complex_kernel(f"{name}_all", x)
        if x.size == 0:
            _require_nonempty(name, x.shape, None)
        return full.apply(input, axes=None, keepdim=False)
    reject_complex(name, x, message=f"{name}(): does not support complex input", error=RuntimeError)
    d = _dim(dim, x.ndim, name)
    if x.size == 0:
        _require_nonempty(name, x.shape, (d,))
    indices = x.argmax(axis=d, keepdims=True) if by_dim.largest else x.argmin(axis=d, keepdims=True)
    values = by_dim.apply(input, dim=d, keepdim=keepdim, indices=indices)
    if not keepdim:
        indices = indices.reshape(values._data.shape)
    return result(values, _graph.wrap(indices))


def max(input: Tensor, dim: int | Tensor | None = None, keepdim: bool = False) -> Any:  # (Tensor: maximum)
    """The largest element (a 0-d tensor); with ``dim``, the named tuple ``(values, indices)`` of the
    largest elements along ``dim`` and their first positions; with a Tensor, ``maximum``."""
    if isinstance(dim, _graph.Tensor):
        return binary.maximum(input, dim)
    return _extreme("max", Max, MaxDim, return_types.max, input, dim, keepdim)


def min(input: Tensor, dim: int | Tensor | None = None, keepdim: bool = False) -> Any:  # (Tensor: minimum)
    """The smallest element (a 0-d tensor); with ``dim``, the named tuple ``(values, indices)`` of the
    smallest elements along ``dim`` and their first positions; with a Tensor, ``minimum``."""
    if isinstance(dim, _graph.Tensor):
        return binary.minimum(input, dim)
    return _extreme("min", Min, MinDim, return_types.min, input, dim, keepdim)


def _amax_amin(name: str, op: type[Op], input: Tensor, dim: Any, keepdim: bool) -> Tensor:
    x = input._data
    _reject_complex_kernel(f"{name[1:]}_values_cpu", x)  # (amax: PyTorch's max_values_cpu)
    axes = _axes(dim, x.ndim)
    if x.size == 0:
        _require_nonempty(name, x.shape, axes)
    return op.apply(input, axes=axes, keepdim=keepdim)


def amax(input: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    """The largest elements over ``dim`` (every dimension when empty); ties share the gradient."""
    return _amax_amin("amax", Amax, input, dim, keepdim)


def amin(input: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    """The smallest elements over ``dim`` (every dimension when empty); ties share the gradient."""
    return _amax_amin("amin", Amin, input, dim, keepdim)


def _arg_extreme(name: str, input: Tensor, dim: Any, keepdim: bool) -> Tensor:
    x = input._data
    reject_complex(name, x, message=f"{name}(): does not support complex input", error=RuntimeError)
    if dim is not None:
        dim = _dim_index(dim, name)
    if x.dtype.kind == "b":
        raise RuntimeError(f"{name}(): does not support bool input")
    if dim is None:
        if x.size == 0:
            raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
        out = x.argmax() if name == "argmax" else x.argmin()
        return _graph.wrap(out.reshape((1,) * x.ndim) if keepdim else out)
    d = _dim(dim, x.ndim, name)
    if x.size == 0:
        _require_nonempty(name, x.shape, (d,))
    out = x.argmax(axis=d, keepdims=keepdim) if name == "argmax" else x.argmin(axis=d, keepdims=keepdim)
    return _graph.wrap(out)


def argmax(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """The int64 position of the (first) largest element along ``dim``, or in the flattened input."""
    return _arg_extreme("argmax", input, dim, keepdim)


def argmin(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """The int64 position of the (first) smallest element along ``dim``, or in the flattened input."""
    return _arg_extreme("argmin", input, dim, keepdim)


# --------------------------------------------------------------------------- var, std, norm
class Var(Op):
    row_major = True

    @staticmethod
    def forward(ctx: Var, x: Any, *, axes: tuple | None, correction: Any, keepdim: bool) -> Any:
        ctx.shape, ctx.axes, ctx.keepdim = x.shape, axes, keepdim
        ctx.dof = _count(x.shape, axes) - correction
        ctx.save_for_backward(x)
        return x.var(axis=axes, ddof=correction, keepdims=keepdim)

    @staticmethod
    def backward(ctx: Var, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        xp = ctx.xp
        scale = 2.0 / ctx.dof if ctx.dof > 0 else _INF
        return _kept(ctx, g) * scale * (x - xp.mean(x, ctx.axes, keepdims=True))


class Std(Op):
    row_major = True

    @staticmethod
    def forward(ctx: Std, x: Any, *, axes: tuple | None, correction: Any, keepdim: bool) -> Any:
        ctx.shape, ctx.axes, ctx.keepdim = x.shape, axes, keepdim
        ctx.dof = _count(x.shape, axes) - correction
        out = x.std(axis=axes, ddof=correction, keepdims=keepdim)
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx: Std, g: Any) -> Any:
        # d std / dx = (x - mean) / (dof * std); 0 where std is 0, as in PyTorch.
        x, out = ctx.saved_tensors
        xp = ctx.xp
        scale = _safe_divide(_kept(ctx, g), _kept(ctx, out), xp) * (1.0 / ctx.dof if ctx.dof > 0 else _INF)
        return scale * (x - xp.mean(x, ctx.axes, keepdims=True))


class VarMean(MultiOutputOp, Var):
    """``var_mean``: the variance and the mean, outputs of one node as in PyTorch."""

    @staticmethod
    def forward(ctx: Var, x: Any, *, axes: tuple | None, correction: Any, keepdim: bool) -> Any:
        return _and_mean(ctx, x, Var.forward(ctx, x, axes=axes, correction=correction, keepdim=keepdim))

    @staticmethod
    def backward(ctx: Var, grads: Any) -> Any:
        return _and_mean_grad(ctx, grads, Var.backward)


class StdMean(MultiOutputOp, Std):
    """``std_mean``: the standard deviation and the mean, outputs of one node as in PyTorch."""

    @staticmethod
    def forward(ctx: Std, x: Any, *, axes: tuple | None, correction: Any, keepdim: bool) -> Any:
        return _and_mean(ctx, x, Std.forward(ctx, x, axes=axes, correction=correction, keepdim=keepdim))

    @staticmethod
    def backward(ctx: Std, grads: Any) -> Any:
        return _and_mean_grad(ctx, grads, Std.backward)


def _and_mean(ctx: Op, x: Any, spread: Any) -> tuple:
    """``(spread, mean)`` over the axes the statistic's forward kept on ``ctx``."""
    ctx.count = _count(x.shape, ctx.axes)
    mean = x.mean(axis=ctx.axes, keepdims=ctx.keepdim) if ctx.count else spread * float("nan")
    return spread, mean


def _and_mean_grad(ctx: Op, grads: Any, spread_backward: Any) -> Any:
    """The input's gradient from the spread's and the mean's (either may be missing)."""
    g_spread, g_mean = grads.slots
    total = None if g_spread is None else spread_backward(ctx, g_spread)
    if g_mean is not None:
        g_mean = _kept(ctx, g_mean)
        from_mean = _spread(ctx, g_mean / ctx.count if ctx.count else g_mean)
        total = from_mean if total is None else total + from_mean
    return total


def _correction(name: str, input: Tensor, dim: Any, unbiased: Any, correction: Any) -> tuple:
    if isinstance(dim, bool):  # var(input, unbiased): the legacy positional form
        dim, unbiased = None, dim
    if unbiased is not None and correction is not None:
        raise TypeError(f"{name}() received both 'unbiased' and 'correction'; pass only correction")
    if dtypes.kind(input._data.dtype) != "f":
        raise RuntimeError("std and var only support floating point and complex dtypes")
    if correction is None:
        correction = 1 if unbiased is None else int(unbiased)
    return _axes(dim, input._data.ndim), correction


def var(input: Tensor, dim: Any = None, unbiased: bool | None = None, keepdim: bool = False, *,
        correction: Any = None) -> Tensor:
    """Variance over ``dim``: ``sum((x - mean)^2) / (N - correction)``, ``correction=1`` by default
    (Bessel's); ``unbiased=False`` means ``correction=0``."""
    if dtypes.kind(input._data.dtype) == "c":  # E|z - mean|^2: the variances of the two parts added
        return binary.add(var(input.real, dim, unbiased, keepdim, correction=correction),
                          var(input.imag, dim, unbiased, keepdim, correction=correction))
    axes, correction = _correction("var", input, dim, unbiased, correction)
    return Var.apply(input, axes=axes, correction=correction, keepdim=keepdim)


def std(input: Tensor, dim: Any = None, unbiased: bool | None = None, keepdim: bool = False, *,
        correction: Any = None) -> Tensor:
    """Standard deviation over ``dim``: ``sqrt(var(input, dim, correction=correction))``."""
    if dtypes.kind(input._data.dtype) == "c":
        return unary.sqrt(var(input, dim, unbiased, keepdim, correction=correction))
    axes, correction = _correction("std", input, dim, unbiased, correction)
    return Std.apply(input, axes=axes, correction=correction, keepdim=keepdim)


def var_mean(input: Tensor, dim: Any = None, unbiased: bool | None = None, keepdim: bool = False, *,
             correction: Any = None) -> tuple:
    """``(var(input, dim, ...), mean(input, dim))``, outputs of one node (``VarMeanBackward0``)."""
    if dtypes.kind(input._data.dtype) == "c":
        return _complex_spread_mean(var, input, dim, unbiased, keepdim, correction)
    axes, correction = _correction("var_mean", input, dim, unbiased, correction)
    return VarMean.apply(input, axes=axes, correction=correction, keepdim=keepdim)


def std_mean(input: Tensor, dim: Any = None, unbiased: bool | None = None, keepdim: bool = False, *,
             correction: Any = None) -> tuple:
    """``(std(input, dim, ...), mean(input, dim))``, outputs of one node (``StdMeanBackward0``)."""
    if dtypes.kind(input._data.dtype) == "c":
        return _complex_spread_mean(std, input, dim, unbiased, keepdim, correction)
    axes, correction = _correction("std_mean", input, dim, unbiased, correction)
    return StdMean.apply(input, axes=axes, correction=correction, keepdim=keepdim)


def _complex_spread_mean(spread: Any, input: Tensor, dim: Any, unbiased: Any, keepdim: bool, correction: Any) -> tuple:
    """``(var or std, mean)`` of a complex tensor: a real spread and the complex mean, composed (not one node)."""
    mean_dim = None if isinstance(dim, bool) else dim  # (``var_mean(input, unbiased)``: the legacy form)
    return spread(input, dim, unbiased, keepdim, correction=correction), mean(input, mean_dim, keepdim)


def _vector_norm(xp: Any, v: Any, ord: float, axes: tuple | None, keepdim: bool) -> Any:
    """``(sum |v|^ord)^(1/ord)`` over ``axes``; ord = inf / -inf is max / min |v|, ord = 0 counts nonzeros."""
    if v.dtype == xp.float16:  # PyTorch accumulates half in float32: |300|^2 + |400|^2 overflows float16
        return _vector_norm(xp, v.astype(xp.float32), ord, axes, keepdim).astype(xp.float16)
    if ord == 2:
        return xp.sqrt((v * v).sum(axis=axes, keepdims=keepdim))
    if ord == 1:
        return xp.abs(v).sum(axis=axes, keepdims=keepdim)
    if ord == _INF:
        return xp.abs(v).max(axis=axes, keepdims=keepdim)
    if ord == -_INF:
        return xp.abs(v).min(axis=axes, keepdims=keepdim)
    if ord == 0:
        return (v != 0).sum(axis=axes, keepdims=keepdim, dtype=v.dtype)
    return (xp.abs(v) ** ord).sum(axis=axes, keepdims=keepdim) ** (1.0 / ord)


class LinalgVectorNorm(Op):
    """``(sum |x|^p)^(1/p)`` over ``axes``; p = inf / -inf is max / min |x|, p = 0 counts nonzeros."""
    row_major = True

    @staticmethod
    def forward(ctx: LinalgVectorNorm, x: Any, *, ord: float, axes: tuple | None, keepdim: bool,
                dtype: Any) -> Any:
        ctx.shape, ctx.axes, ctx.keepdim, ctx.ord = x.shape, axes, keepdim, ord
        out = _vector_norm(ctx.xp, x if dtype is None else x.astype(dtype), ord, axes, keepdim)
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx: LinalgVectorNorm, g: Any) -> Any:
        x, out = ctx.saved_tensors
        return _vector_norm_grad(ctx.xp, x, _kept(ctx, out), _kept(ctx, g), ctx.ord, ctx.axes)


def _vector_norm_grad(xp: Any, x: Any, out: Any, g: Any, p: float, axes: tuple | None) -> Any:
    """The gradient of the p-norm ``out`` of ``x`` over ``axes`` (``out`` and ``g`` with kept dimensions)."""
    if p == 0:
        return None  # piecewise constant: PyTorch gives no gradient
    if p == 1:
        return g * xp.sign(x)
    if p == 2:
        return x * _safe_divide(g, out, xp)
    if p == _INF or p == -_INF:
        hits = xp.abs(x) == out  # ties share the gradient evenly, as in amax
        count = xp.sum(hits, axes, keepdims=True, dtype=g.dtype)
        return xp.sign(x) * xp.where(hits, g / count, 0.0)
    # sign(x) |x|^(p-1) / norm^(p-1), with 0 for x == 0 and where the norm is 0.
    magnitude = xp.abs(x)
    magnitude = xp.where(magnitude == 0, 1.0, magnitude)
    scale = _safe_divide(g, out ** (p - 1), xp)
    return xp.sign(x) * magnitude ** (p - 1) * scale


class Dist(Op):
    """``norm(input - other, p)`` of the broadcast difference; its gradient is the norm's, with
    opposite signs for the two operands."""

    @staticmethod
    def forward(ctx: Dist, x: Any, y: Any, *, p: float) -> Any:
        a, b = promote(x, y)
        ctx.ord = p
        out = _vector_norm(ctx.xp, a - b, p, None, False)
        ctx.save_for_backward(x, y, out)  # the operands, not the norm's difference: compose needs them
        return out

    @staticmethod
    def compose(ctx: Dist) -> tuple:
        x, y, _ = ctx.saved_tensors
        return (x, y), norm(binary.sub(x, y), ctx.ord)

    @staticmethod
    def backward(ctx: Dist, g: Any) -> tuple:
        x, y, out = ctx.saved_tensors
        grad = _vector_norm_grad(ctx.xp, x - y, out, g, ctx.ord, None)
        return (None, None) if grad is None else (grad, -grad)


def dist(input: Tensor, other: Tensor, p: float = 2) -> Tensor:
    """The p-norm of ``input - other`` (broadcast): ``(sum |input - other|^p)^(1/p)``; ``p`` may be
    ``inf``, ``-inf`` or 0 (the number of differing elements). The operands meet in their common dtype."""
    common = dtypes.result_type((input.dtype, input.ndim), (other.dtype, other.ndim))
    if common.is_complex:  # the norm of the complex difference's magnitudes
        return norm(binary.sub(input, other), p)
    if not common.is_floating_point:
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. Got "
                           f"{dtypes.scalar_type_name(common)} instead.")
    return Dist.apply(input, other, p=p)


def _check_norm_identity(shape: tuple, p: float, axes: tuple | None) -> None:
    """PyTorch's error for an ``inf`` or negative norm over an empty dimension."""
    where = "an empty tensor"
    if axes is not None:
        empty = [a for a in sorted(axes) if shape[a] == 0]
        if not empty:
            return
        where = f"the dimension {empty[0]}because this dimension is empty and"  # (sic: PyTorch's missing space)
    else:
        where += " because"
    raise RuntimeError(f"linalg.vector_norm cannot compute the {p:g} norm on {where} the operation does not have "
                       "an identity")


class Norm(LinalgVectorNorm, node_name="NormBackward1"):
    """The vector norm as PyTorch's own kernels call it (``at::norm(input, p, dim)`` in
    ``pairwise_distance``): the same op under that node's name."""


def norm(input: Tensor, p: Any = "fro", dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Tensor:
    """The vector p-norm over ``dim`` (every element when None): ``(sum |x|^p)^(1/p)``.

    ``p`` is a number, ``inf`` / ``-inf`` (max / min of ``|x|``), ``'fro'`` (2, over at most two
    dimensions) or ``'nuc'`` (the sum of the singular values over two dimensions). At a zero input the
    gradient is 0 (p=2) or the subgradient 0 (p=1). ``dtype`` casts the input first.
    """
    x = input._data
    if p == "nuc":  # (through the lazy family: decompositions imports this module)
        pair = tuple(range(x.ndim)) if dim is None else tuple(dim)
        if len(pair) != 2:
            raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, pair))}")
        return _numerics.nuclear_norm(input if dtype is None else input.to(dtype), pair, keepdim)
    if isinstance(p, str):
        if p != "fro":
            raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
        if dim is not None and not isinstance(dim, int) and len(dim) > 2:
            raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, dim))}")
        p = 2
    if dtype is not None and (x.dtype.kind == "c") != (dtypes.kind(_np_dtype(dtype)) == "c"):
        kind = "complex" if x.dtype.kind == "c" else "real"
        raise RuntimeError(f"linalg.vector_norm: dtype should be {kind} for {kind} inputs, but got "
                           f"{dtypes.scalar_type_name(_np_dtype(dtype))}")
    if x.dtype.kind == "c":  # the norm of the magnitudes (in dtype's precision), differentiated through abs
        return norm(unary.abs(input if dtype is None else input.to(dtype)), p, dim, keepdim)
    if dtypes.kind(x.dtype) != "f":
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                           f"Got {_scalar_type(x)}")
    dtype = _np_dtype(dtype)
    if dtype is not None and dtypes.kind(dtype) != "f":
        raise RuntimeError(f"linalg.vector_norm: dtype should be floating point or complex, but got "
                           f"{dtypes.scalar_type_name(dtype)}")
    axes = _axes(dim, x.ndim)
    if x.size == 0 and (p < 0 or p == _INF):  # a max, a min or a negative power has no value over nothing
        _check_norm_identity(x.shape, p, axes)
    return LinalgVectorNorm.apply(input, ord=p, axes=axes, keepdim=keepdim, dtype=dtype)


# --------------------------------------------------------------------------- logsumexp, softmax
class Logsumexp(Op):
    row_major = True

    @staticmethod
    def forward(ctx: Logsumexp, x: Any, *, axes: tuple | None, keepdim: bool) -> Any:
        ctx.shape, ctx.axes, ctx.keepdim = x.shape, axes, keepdim
        xp = ctx.xp
        if x.dtype.kind == "c":
            out = _complex_logsumexp(xp, x, axes, keepdim)
            ctx.save_for_backward(x, out)
            return out
        if dtypes.kind(x.dtype) != "f":  # integers and bools give the default float dtype
            x = x.astype(dtypes.get_default_dtype().numpy)
        if x.size == 0:  # log(0): the sum of no exponentials is 0
            out = xp.full(x.sum(axis=axes, keepdims=keepdim).shape, -_INF, dtype=x.dtype)
        else:
            # log sum exp(x) = m + log sum exp(x - m) with m the max, so that exp never overflows.
            m = x.max(axis=axes, keepdims=True)
            finite = xp.isfinite(m)
            if _on_cpu(x) and finite.all():  # on a GPU the test would wait for it: the general form is exact too
                out = xp.log(xp.exp(x - m).sum(axis=axes, keepdims=True)) + m
            else:  # shift infinite maxima by 0: a slice of -inf gives log(0) = -inf, one with +inf gives +inf
                m = xp.where(finite, m, 0.0)
                total = xp.exp(x - m).sum(axis=axes, keepdims=True)
                nothing = total == 0
                out = xp.log(xp.where(nothing, 1.0, total)) + xp.where(nothing, -_INF, m)
            if not keepdim:
                out = xp.squeeze(out, axis=axes)
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx: Logsumexp, g: Any) -> Any:
        x, out = saved_conj(ctx)  # (holomorphic for complex input: the conjugate derivative)
        return _kept(ctx, g) * ctx.xp.exp(x - _kept(ctx, out))


def _complex_logsumexp(xp: Any, x: Any, axes: tuple | None, keepdim: bool) -> Any:
    """``log(sum(exp(x)))`` of complex ``x``, shifted by the largest real part (finite) against overflow."""
    if x.size == 0:
        return xp.full(x.sum(axis=axes, keepdims=keepdim).shape, -_INF, dtype=x.dtype)
    m = x.real.max(axis=axes, keepdims=True)
    m = xp.where(xp.isfinite(m), m, 0.0)
    out = xp.log(xp.exp(x - m).sum(axis=axes, keepdims=True)) + m
    return out if keepdim else xp.squeeze(out, axis=axes)


def softmax_array(xp: Any, x: Any, dim: int | None, safe: bool = False) -> Any:
    """The softmax of the array ``x`` along ``dim``; with ``safe``, rows of ``-inf`` only (attention
    masked throughout) are zeros rather than NaN."""
    if x.size == 0:
        return xp.ones_like(x)
    if dim is None:  # a 0-d input is its own only element: 1, or NaN where x - x is (infinities, NaN)
        return xp.exp(x - x)
    peak = x.max(axis=dim, keepdims=True)
    masked = (peak == -_INF) if safe else None  # rows of -inf only: exp gives zeros, divided by 1
    if masked is not None and masked.any():
        peak = xp.where(masked, 0, peak)
    else:
        masked = None
    out = x - peak  # shifting by the max keeps exp from overflowing
    xp.exp(out, out=out)
    total = out.sum(axis=dim, keepdims=True)
    if masked is not None:
        total[masked] = 1
    out /= total
    return out


class Softmax(Op):
    row_major = True
    backward_node = "SoftmaxBackwardDataBackward0"
    safe = False

    @staticmethod
    def forward(ctx: Softmax, x: Any, *, dim: int | None) -> Any:
        ctx.dim = dim
        out = softmax_array(ctx.xp, x, dim, ctx.safe)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Softmax, g: Any) -> Any:
        (out,) = ctx.saved_tensors
        # (the method: ``np.sum``'s Python wrapper is about 5K instructions more per call)
        return out * (g - (g * out).sum(axis=ctx.dim, keepdims=True))


class SafeSoftmax(Softmax):
    """Softmax whose rows of only ``-inf`` (an attention row masked entirely) are zeros, not NaN
    (PyTorch's ``_safe_softmax``, which attention uses)."""

    safe = True


class LogSoftmax(Op):
    row_major = True
    backward_node = "LogSoftmaxBackwardDataBackward0"

    @staticmethod
    def forward(ctx: LogSoftmax, x: Any, *, dim: int | None) -> Any:
        ctx.dim = dim
        xp = ctx.xp
        if x.size == 0:
            out = xp.zeros_like(x)
        elif dim is None:  # 0, or NaN for infinities and NaN as PyTorch's x - log(exp(x))
            out = x - x
        else:
            out = x - x.max(axis=dim, keepdims=True)
            total = xp.exp(out).sum(axis=dim, keepdims=True)
            if ctx._widened and dim in (-1, x.ndim - 1):
                # PyTorch's last-dimension kernel for bfloat16 rounds the sum and its log to bfloat16
                total = dtypes.round_to_bfloat16(xp.log(dtypes.round_to_bfloat16(total)))
            else:
                total = xp.log(total, out=total)
            out -= total
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: LogSoftmax, g: Any) -> Any:
        (out,) = ctx.saved_tensors
        xp = ctx.xp
        return g - xp.exp(out) * g.sum(axis=ctx.dim, keepdims=True)  # (the method, as in Softmax)


def logsumexp(input: Tensor, dim: Any, keepdim: bool = False) -> Tensor:
    """``log(sum(exp(input)))`` over ``dim``, computed without overflow; integers give floats."""
    x = input._data
    if isinstance(dim, (tuple, list)) and not dim and not keepdim and x.ndim and x.size:
        # PyTorch reduces over every dimension into a kept shape, then fails to write it to its 0-d output
        raise RuntimeError(f"output with shape [] doesn't match the broadcast shape {[1] * x.ndim}")
    return Logsumexp.apply(input, axes=_axes(dim, x.ndim), keepdim=keepdim)


def _softmax_input(name: str, input: Tensor, dim: int, dtype: Any) -> tuple:
    """The input cast to ``dtype`` (recorded as ToCopyBackward0, as in PyTorch) and the wrapped dim."""
    if dtype is not None:
        input = input.to(dtype)
    x = input._data
    d = _dim(dim, x.ndim, name)
    if dtypes.kind(x.dtype) != "f" and x.size:  # (an empty tensor reaches no kernel in PyTorch)
        kernel = "lastdim_kernel_impl" if d is None or d == x.ndim - 1 else "kernel_impl"
        raise NotImplementedError(f'"{name}_{kernel}" not implemented for \'{_scalar_type(x)}\'')
    return input, d


def softmax(input: Tensor, dim: int, dtype: Any = None) -> Tensor:
    """``exp(x_i) / sum_j exp(x_j)`` along ``dim``, computed without overflow; ``dtype`` casts the
    input first."""
    input, dim = _softmax_input("softmax", input, dim, dtype)
    return Softmax.apply(input, dim=dim)


def safe_softmax(input: Tensor, dim: int) -> Tensor:
    """``softmax`` with the rows that are ``-inf`` throughout (fully masked) zeros instead of NaN."""
    input, dim = _softmax_input("softmax", input, dim, None)
    return SafeSoftmax.apply(input, dim=dim)


def log_softmax(input: Tensor, dim: int, dtype: Any = None) -> Tensor:
    """``x_i - log(sum_j exp(x_j))`` along ``dim``, computed without overflow; ``dtype`` casts the
    input first."""
    input, dim = _softmax_input("log_softmax", input, dim, dtype)
    return LogSoftmax.apply(input, dim=dim)


# --------------------------------------------------------------------------- cumsum, all, any
class Cumsum(Op):
    row_major = True

    @staticmethod
    def forward(ctx: Cumsum, x: Any, *, dim: int | None, dtype: Any) -> Any:
        ctx.dim = dim
        if dtype is None and x.dtype.kind in "biu":
            dtype = _INT64
        if dtype is not None and dtype != x.dtype:
            x = x.astype(dtype)
        out = in_float32_if_half(x, lambda wide: ctx.xp.cumsum(wide, axis=dim))
        return out if dim is not None else out.reshape(x.shape)  # a 0-d input stays 0-d

    @staticmethod
    def backward(ctx: Cumsum, g: Any) -> Any:
        # Each input element reaches every later output: the reversed cumulative sum of g.
        dim, xp = ctx.dim, ctx.xp
        if dim is None:
            return g
        return xp.flip(xp.cumsum(xp.flip(g, dim), dim), dim)


class Logcumsumexp(Op):
    row_major = True

    @staticmethod
    def forward(ctx: Logcumsumexp, x: Any, *, dim: int | None) -> Any:
        ctx.dim = dim
        if dim is None:
            out = x.copy()
        else:
            out = in_float32_if_half(x, lambda wide: _log_cumulative_sum_exp(ctx.xp, wide, dim))
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx: Logcumsumexp, g: Any) -> Any:
        x, out = ctx.saved_tensors
        xp, dim = ctx.xp, ctx.dim
        if dim is None:
            return g
        # PyTorch's formula: sum over j >= i of g_j exp(x_i - out_j), in log space for the positive and
        # the negative parts of g, so that nothing overflows.
        lowest = float(np.finfo(getattr(g, "_data", g).dtype).min)
        with np.errstate(divide="ignore", over="ignore"):  # log(0) where g is 0: that part is not taken
            log_abs = xp.log(xp.abs(g))
            parts = [_reverse_logcumsumexp(xp, xp.where(sign * g > 0, log_abs, lowest) - out, dim) for sign in (1, -1)]
            return xp.exp(parts[0] + x) - xp.exp(parts[1] + x)


def in_float32_if_half(x: Any, compute: Any) -> Any:
    """``compute(x)``, for a float16 ``x`` on ``x`` in float32 with the result rounded back: PyTorch's
    cumulative kernels accumulate float16 in float32 (a float16 running sum of ones stops at 2048)."""
    if x.dtype != np.float16:
        return compute(x)
    return compute(x.astype(np.float32)).astype(np.float16)


def _log_cumulative_sum_exp(xp: Any, x: Any, dim: int) -> Any:
    """The inclusive scan of ``logaddexp`` along ``dim`` by doubling (Hillis and Steele): after the step
    with shift ``s``, each element combines the ``2s`` elements ending at it. Every step is a stable
    ``logaddexp``, so nothing overflows or underflows, on any array module."""
    out = xp.moveaxis(x, dim, -1).copy()
    shift = 1
    while shift < out.shape[-1]:
        out[..., shift:] = xp.logaddexp(out[..., shift:], out[..., :-shift])
        shift *= 2
    return xp.moveaxis(out, -1, dim)


def _reverse_logcumsumexp(xp: Any, v: Any, dim: int) -> Any:
    return xp.flip(Logcumsumexp.call(xp.flip(v, dim), dim=dim), dim)


def logcumsumexp(input: Tensor, dim: int) -> Tensor:
    """``log(cumsum(exp(input)))`` along ``dim``, computed without overflow."""
    x = input._data
    if dtypes.kind(x.dtype) != "f":
        raise NotImplementedError(f'"logcumsumexp_out_cpu" not implemented for \'{_scalar_type(x)}\'')
    return Logcumsumexp.apply(input, dim=_dim(dim, x.ndim, "logcumsumexp"))


def cumsum(input: Tensor, dim: int, *, dtype: Any = None) -> Tensor:
    """Cumulative sums along ``dim``: ``out_i = x_1 + ... + x_i``; integers give int64."""
    d = _dim(dim, input._data.ndim, "cumsum")
    check_cumulative_dtype("cumsum", dtype)
    return Cumsum.apply(input, dim=d, dtype=_np_dtype(dtype))


def check_cumulative_dtype(name: str, dtype: Any) -> None:
    """PyTorch's cumulative sum and product have no bool kernel: ``dtype=torch.bool`` raises."""
    if dtype is not None and dtypes.as_dtype(dtype) == dtypes.bool_:
        raise NotImplementedError(f"\"{name}_out_cpu\" not implemented for 'Bool'")


def _logical_reduction(input: Tensor, dim: Any, keepdim: bool, test_all: bool) -> Tensor:
    x = input._data
    # PyTorch's all / any reduce over no dimension for dim=() (the other reductions reduce over all of them).
    axes = () if isinstance(dim, (tuple, list)) and not dim else _axes(dim, x.ndim)
    out = x.all(axis=axes, keepdims=keepdim) if test_all else x.any(axis=axes, keepdims=keepdim)
    if x.dtype == _UINT8:  # PyTorch keeps uint8 for uint8 inputs
        out = out.astype(_UINT8)
    if not out.flags.c_contiguous:  # row-major, as PyTorch's (see Op.row_major)
        out = array_module_of(x).ascontiguousarray(out)
    return _graph.wrap(out)


def all(input: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    """True where every element over ``dim`` is nonzero (True for no elements)."""
    return _logical_reduction(input, dim, keepdim, True)


def any(input: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    """True where some element over ``dim`` is nonzero (False for no elements)."""
    return _logical_reduction(input, dim, keepdim, False)
