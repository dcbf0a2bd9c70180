"""Sparse COO tensors (PyTorch's ``torch.sparse_coo`` layout): the array they hold, and their ops.

A sparse tensor is a Tensor whose ``_data`` is a ``COO``: an ``(sparse_dim, nnz)`` int64 index array, a
``(nnz, *dense_shape)`` value array (NumPy or CuPy) and the shape, as PyTorch's SparseTensorImpl holds them.
The engine carries a sparse gradient as a ``COO`` too, so a sparse leaf gets a sparse ``.grad``.

Dense ops reach sparse tensors through the dispatch in ``_graph.Op.apply``: a ``COO`` raises
``_graph.SparseInput`` when a dense forward computes on it, or the op meets a sparse and a dense array, and
the op's kernel registered here in ``_graph.SPARSE_KERNELS`` runs instead (``mm``, ``t``, ``add``, ...), or
PyTorch's NotImplementedError. The few array operations a ``COO`` supports itself (scaling by a number,
adding, ``astype``) are those gradient accumulation and the optimizers use; they keep dense ops such as
``s * 2`` and ``s + s`` working with their own backward, as PyTorch's MulBackward0 and AddBackward0 do.

Loaded on first use (``ops.LAZY_FAMILIES``): ``import tinyframe`` does not pay for it.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, dtypes
from .._graph import Op, SparseInput
from .._tensor_str import _add_suffixes, _contents_and_size
from ..device import add_at, array_module_of, device, device_of, move_array
from ..dtypes import bool_, get_default_dtype, int64
from ..memory_format import sparse_coo
from . import binary, unary
from ._composite import composed

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["COO", "sparse_coo_tensor", "to_sparse", "to_dense", "coalesce", "sparse_mm", "sparse_sum",
           "sparse_repr", "is_sparse"]


class COO:
    """The storage of a sparse COO tensor: ``indices (sparse_dim, nnz)``, ``values (nnz, *dense_shape)``,
    ``shape``, and whether the indices are known sorted and unique (``coalesced``)."""

    layout = "sparse_coo"  # what ``_graph`` and ``Tensor.is_sparse`` recognise
    array_module: Any = np  # ``device.array_module_of``: CuPy for CuPy values (set per instance)
    base = None  # no array owns its memory (the engine's ``claim`` asks)
    __array_priority__ = 1000  # NumPy and CuPy arrays defer their operators to it

    def __init__(self, indices: Any, values: Any, shape: tuple, coalesced: bool) -> None:
        self.indices, self.values, self.shape, self.coalesced = indices, values, tuple(shape), coalesced
        xp = array_module_of(values)
        if xp is not np:
            self.array_module = xp

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def dtype(self) -> Any:
        return self.values.dtype

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def itemsize(self) -> int:
        return int(self.values.itemsize)

    @property
    def nnz(self) -> int:
        return int(self.indices.shape[1])

    @property
    def sparse_dim(self) -> int:
        return int(self.indices.shape[0])

    def copy(self) -> COO:
        return COO(self.indices.copy(), self.values.copy(), self.shape, self.coalesced)

    def astype(self, dtype: Any) -> COO:
        return COO(self.indices, self.values.astype(dtype), self.shape, self.coalesced)

    def moved_to(self, target: device) -> COO:
        """The same entries on the device ``target`` (``device.move_array``)."""
        return COO(move_array(self.indices, target), move_array(self.values, target), self.shape, self.coalesced)

    def with_values(self, values: Any) -> COO:
        """The same indices with other values (PyTorch's ``sparse_mask`` result, a scaled tensor)."""
        return COO(self.indices, values, self.shape, self.coalesced)

    def fill(self, value: Any) -> None:
        """Zeroing in place (``Optimizer.zero_grad(set_to_none=False)``): no entries left, as PyTorch's ``zero_``."""
        if value != 0:
            raise SparseInput("fill")
        self.indices, self.values, self.coalesced = self.indices[:, :0], self.values[:0], True

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # protocols (copy, pickle) ask with getattr and a default
            raise AttributeError(name)
        raise SparseInput(name)  # a dense computation asked for an array method

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        raise SparseInput("__array__")

    def __array_function__(self, *args: Any, **kwargs: Any) -> Any:
        raise SparseInput("__array_function__")

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        if method == "__call__":
            if ufunc in (np.add, np.subtract) and len(inputs) == 2:
                return _added(inputs[0], inputs[1], ufunc is np.subtract, kwargs.get("out"))
            sparse = _scaled_operand(ufunc, inputs)
            if sparse is not None and not kwargs:
                return sparse.with_values(ufunc(*(sparse.values if v is sparse else v for v in inputs)))
        raise SparseInput(ufunc.__name__)

    def __add__(self, other: Any) -> Any:
        return np.add(self, other)

    def __radd__(self, other: Any) -> Any:
        return np.add(other, self)

    def __iadd__(self, other: Any) -> Any:
        if isinstance(other, COO):  # a sparse ``.grad`` accumulating another, in place as PyTorch's
            total = _added(self, other, False, None)
            self.indices, self.values, self.coalesced = total.indices, total.values, total.coalesced
            return self
        return np.add(self, other)

    def __imul__(self, other: Any) -> Any:  # a sparse momentum buffer scaled in place (values not shared)
        self.values = self.values * other
        return self

    def __sub__(self, other: Any) -> Any:
        return np.subtract(self, other)

    def __rsub__(self, other: Any) -> Any:
        return np.subtract(other, self)

    def __mul__(self, other: Any) -> Any:
        return np.multiply(self, other)

    def __rmul__(self, other: Any) -> Any:
        return np.multiply(other, self)

    def __truediv__(self, other: Any) -> Any:
        return np.true_divide(self, other)

    def __neg__(self) -> Any:
        return np.negative(self)

    # (a dense forward that compares or raises a sparse array to a power gets SparseInput, and the op's kernel runs)
    def __pow__(self, other: Any) -> Any:
        return np.power(self, other)

    def __gt__(self, other: Any) -> Any:
        return np.greater(self, other)

    def __lt__(self, other: Any) -> Any:
        return np.less(self, other)


def _scaled_operand(ufunc: Any, inputs: tuple) -> COO | None:
    """The sparse operand of a ufunc that scales its values (``s * 2``, ``2 * s``, ``s / 2``, ``-s``), else None."""
    if ufunc is np.negative and len(inputs) == 1:
        return inputs[0]
    if ufunc not in (np.multiply, np.true_divide) or len(inputs) != 2:
        return None
    sparse, other = inputs if isinstance(inputs[0], COO) else inputs[::-1]
    if (ufunc is np.true_divide and sparse is not inputs[0]) or isinstance(other, COO):
        return None
    return sparse if getattr(other, "ndim", 0) == 0 else None  # a number or a 0-dim array


def _concatenated(a: COO, b: COO) -> tuple:
    xp = a.array_module
    return xp.concatenate([a.indices, b.indices], axis=1), xp.concatenate([a.values, b.values.astype(a.dtype)])


def _added(x: Any, y: Any, subtract: bool, out: Any) -> Any:
    """``x + y`` or ``x - y`` where one or both are sparse: sparse for two sparse arrays (the entries of both,
    repeated indices summed), else dense; into ``out`` (a dense ``+=``, as gradients accumulate)."""
    if isinstance(x, COO) and isinstance(y, COO):
        if x.shape != y.shape:
            raise RuntimeError(f"add: expected sizes of 'self' and 'other' to match, but {list(x.shape)} != "
                               f"{list(y.shape)}")
        # PyTorch's sum has the entries of both, repeated indices summed (not marked coalesced unless both were)
        indices, values = _concatenated(x, -y if subtract else y)
        summed = coalesced(COO(indices, values, x.shape, False))
        return COO(summed.indices, summed.values, x.shape, x.coalesced and y.coalesced)
    if out is not None:
        (target,) = out
        if target is not x or not isinstance(y, COO):
            raise SparseInput("add")
    elif isinstance(y, COO):
        target = x.copy()
    else:  # PyTorch adds a sparse tensor into a dense one only
        raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) instead.")
    add_at(target, tuple(y.indices), -y.values if subtract else y.values)
    return target


# ----------------------------------------------------------------- index arithmetic

def _keys(indices: Any, shape: tuple) -> Any:
    """Each entry's position in the row-major order of the sparse dimensions (one int64 per entry)."""
    xp = array_module_of(indices)
    keys = xp.zeros(indices.shape[1], dtype=np.int64)
    for row, size in zip(indices, shape):
        keys = keys * size + row
    return keys


def _distinct(indices: Any, shape: tuple) -> Any:
    """The distinct columns of ``indices``, sorted (the indices of the coalesced tensor)."""
    xp = array_module_of(indices)
    sparse_shape = shape[:indices.shape[0]]
    keys = xp.unique(_keys(indices, sparse_shape))
    return xp.stack(xp.unravel_index(keys, sparse_shape)).astype(np.int64).reshape(len(sparse_shape), -1)


def coalesced(a: COO) -> COO:
    """``a`` with its indices sorted and unique, the values of repeated indices summed."""
    if a.coalesced:
        return a
    xp = a.array_module
    sparse_shape = a.shape[:a.sparse_dim]
    keys, inverse = xp.unique(_keys(a.indices, sparse_shape), return_inverse=True)
    values = xp.zeros((len(keys), *a.values.shape[1:]), dtype=a.dtype)
    _add_rows(values, inverse.reshape(-1), a.values)
    return COO(_distinct(a.indices, a.shape), values, a.shape, True)


def _add_rows(out: Any, rows: Any, contributions: Any) -> None:
    """``out[rows[k]] += contributions[k]`` for every entry k, repeated rows accumulating. On NumPy, as sums of
    runs of equal rows (``add.reduceat`` after a stable sort): ``add.at`` of (13k, 16) float32 rows into 2708
    takes 5.7 ms, this 1.8 ms (1.0 ms for rows already sorted, as a coalesced matrix's are). CuPy adds atomically."""
    if type(out) is not np.ndarray or not len(rows):
        add_at(out, rows, contributions)
        return
    if (rows[1:] < rows[:-1]).any():
        order = np.argsort(rows, kind="stable")
        rows, contributions = rows[order], contributions[order]
    starts = np.flatnonzero(np.concatenate([[True], rows[1:] != rows[:-1]]))
    out[rows[starts]] += np.add.reduceat(contributions, starts, axis=0)


def dense_of(a: COO) -> Any:
    out = a.array_module.zeros(a.shape, dtype=a.dtype)
    add_at(out, tuple(a.indices), a.values)
    return out


def values_at(g: Any, indices: Any, shape: tuple) -> Any:
    """The values of the gradient ``g`` (dense or sparse) at each of ``indices`` (PyTorch's ``sparse_mask``):
    what a sparse tensor's values get from the gradient of the tensor."""
    if not isinstance(g, COO):
        return g[tuple(indices)]
    xp = array_module_of(indices)
    g = coalesced(g)
    found_keys, keys = _keys(g.indices, shape), _keys(indices, shape)
    position = xp.minimum(xp.searchsorted(found_keys, keys), max(g.nnz - 1, 0))
    if not g.nnz:
        return xp.zeros((len(keys), *g.values.shape[1:]), dtype=g.dtype)
    found = (found_keys[position] == keys).reshape(-1, *(1,) * (g.values.ndim - 1))
    return xp.where(found, g.values[position], 0).astype(g.dtype)


# ----------------------------------------------------------------- ops
# Each backward calls its adjoint ops through ``Op.call``: on arrays in a plain backward pass, recorded on
# Tensors (sparse ones included) with ``create_graph=True``, so higher-order gradients follow.

def _is_sparse_value(g: Any) -> bool:
    """Whether a gradient is sparse: a ``COO``, or a sparse Tensor in a recorded backward pass."""
    return isinstance(g, COO) or (isinstance(g, _graph.Tensor) and isinstance(g._data, COO))


class SparseCooTensorWithDimsAndTensors(Op):
    """Values placed at given indices: the sparse tensor (or, for ``dense``, its dense tensor, as the adjoint
    of ``_Gather`` from a dense array). The values' gradient is the gradient's values at the indices."""

    @staticmethod
    def forward(ctx: SparseCooTensorWithDimsAndTensors, values: Any, *, indices: Any, shape: tuple,
                coalesced: bool = False, dense: bool = False) -> Any:
        ctx.indices, ctx.shape = indices, shape
        out = COO(indices, values, shape, coalesced)
        return dense_of(out) if dense else out

    @staticmethod
    def backward(ctx: SparseCooTensorWithDimsAndTensors, g: Any) -> Any:
        return _Gather.call(g, indices=ctx.indices, shape=ctx.shape)


class _Gather(Op, node_name="SparseMaskBackward0"):
    """The values of ``g`` (dense or sparse) at each of ``indices``, zero where a sparse ``g`` has no entry."""

    mixes_layouts = True

    @staticmethod
    def forward(ctx: _Gather, g: Any, *, indices: Any, shape: tuple) -> Any:
        ctx.indices, ctx.shape, ctx.dense = indices, shape, not isinstance(g, COO)
        return values_at(g, indices, shape[:indices.shape[0]])

    @staticmethod
    def backward(ctx: _Gather, gv: Any) -> Any:
        return SparseCooTensorWithDimsAndTensors.call(gv, indices=ctx.indices, shape=ctx.shape, dense=ctx.dense)


def _masked(g: Any, mask: COO) -> Any:
    """PyTorch's ``g.sparse_mask(mask)``: ``g``'s values at ``mask``'s entries (coalesced), as a sparse tensor."""
    mask = coalesced(mask)
    values = _Gather.call(g, indices=mask.indices, shape=mask.shape)
    return SparseCooTensorWithDimsAndTensors.call(values, indices=mask.indices, shape=mask.shape)


class ToDense(Op):
    @staticmethod
    def forward(ctx: ToDense, a: COO) -> Any:
        ctx.mask = a
        return dense_of(a)

    @staticmethod
    def backward(ctx: ToDense, g: Any) -> Any:
        return _masked(g, ctx.mask)


class ToSparse(Op, node_name="ToSparseBackward1"):
    @staticmethod
    def forward(ctx: ToSparse, a: Any) -> Any:
        xp = ctx.xp
        indices = xp.stack(xp.nonzero(a)).astype(np.int64).reshape(a.ndim, -1)
        return COO(indices, a[tuple(indices)], a.shape, True)

    @staticmethod
    def backward(ctx: ToSparse, g: Any) -> Any:
        return ToDense.call(g) if _is_sparse_value(g) else g


class Coalesce(Op):
    @staticmethod
    def forward(ctx: Coalesce, a: COO) -> Any:
        return coalesced(a)

    @staticmethod
    def backward(ctx: Coalesce, g: Any) -> Any:
        return g


class Values(Op):
    """A coalesced sparse tensor's values; their gradient is sparse, at its indices."""

    @staticmethod
    def forward(ctx: Values, a: COO) -> Any:
        ctx.indices, ctx.shape = a.indices, a.shape
        return a.values

    @staticmethod
    def backward(ctx: Values, g: Any) -> Any:
        return SparseCooTensorWithDimsAndTensors.call(g, indices=ctx.indices, shape=ctx.shape, coalesced=True)


class SparseAddmm(Op):
    """``sparse @ dense`` for a 2-D sparse matrix: the dense operand's gradient is ``sparse^T @ g``, the
    sparse one's the values of ``g @ dense^T`` at its entries only (sparse, as PyTorch's)."""

    mixes_layouts = True
    saved_inputs = ("mat1", "mat2")

    @staticmethod
    def forward(ctx: SparseAddmm, a: COO, x: Any) -> Any:
        ctx.save_for_backward(a, x)
        ctx.indices, ctx.shape = a.indices, a.shape
        rows, cols = a.indices
        out = a.array_module.zeros((a.shape[0], *x.shape[1:]), dtype=np.result_type(a.dtype, x.dtype))
        _add_rows(out, rows, a.values.reshape(-1, *(1,) * (x.ndim - 1)) * x[cols])  # (x a matrix or a vector)
        return out

    @staticmethod
    def backward(ctx: SparseAddmm, g: Any) -> tuple:
        a, x = ctx.saved_tensors
        needs_a, needs_x = ctx.needs_input_grad
        grad_a = None
        if needs_a:  # PyTorch's ``(g @ x^T).sparse_mask(a)``: at a's distinct entries
            indices = _distinct(ctx.indices, ctx.shape)
            values = _RowDot.call(g, x, indices=indices)
            grad_a = SparseCooTensorWithDimsAndTensors.call(values, indices=indices, shape=ctx.shape)
        grad_x = SparseAddmm.call(SparseTranspose.call(a, dim0=0, dim1=1), g) if needs_x else None
        return grad_a, grad_x


class SparseMm(SparseAddmm, node_name="MmBackward0"):
    """``torch.mm``, ``matmul`` and ``@`` of a sparse and a dense matrix, which PyTorch records as mm: the
    sparse operand's gradient is then dense, ``g @ dense^T``, as PyTorch's."""

    @staticmethod
    def backward(ctx: SparseAddmm, g: Any) -> tuple:
        grad_a, grad_x = SparseAddmm.backward(ctx, g) if ctx.needs_input_grad[1] else (None, None)
        if ctx.needs_input_grad[0]:
            _, x = ctx.saved_tensors
            grad_a = g @ x.T if x.ndim == 2 else g[:, None] * x[None, :]
        return grad_a, grad_x


class DenseSparseMm(Op, node_name="MmBackward0"):
    """``dense @ sparse`` of two matrices, as ``(sparse^T @ dense^T)^T``; both gradients dense, as PyTorch's mm
    gives them."""

    mixes_layouts = True
    saved_inputs = ("self", "mat2")

    @staticmethod
    def forward(ctx: DenseSparseMm, x: Any, a: COO) -> Any:
        ctx.save_for_backward(x, a)
        return SparseAddmm.call(_transposed(a, 0, 1), x.T).T.copy()

    @staticmethod
    def backward(ctx: DenseSparseMm, g: Any) -> tuple:
        x, a = ctx.saved_tensors
        needs_x, needs_a = ctx.needs_input_grad
        return SparseAddmm.call(a, g.T).T if needs_x else None, x.T @ g if needs_a else None


class SparseMv(SparseMm, node_name="MvBackward0"):
    """``torch.mv`` and ``@`` of a sparse matrix and a dense vector."""


class _RowDot(Op, node_name="SparseAddmmBackwardBackward0"):
    """``(g @ x^T)`` at the entries ``indices`` only: the values of a sparse matrix's gradient in ``s @ x``."""

    saved_inputs = ("grad", "mat2")

    @staticmethod
    def forward(ctx: _RowDot, g: Any, x: Any, *, indices: Any) -> Any:
        ctx.save_for_backward(g, x)
        ctx.indices = indices
        rows, cols = indices
        products = g[rows] * x[cols]
        return products.sum(axis=1) if products.ndim == 2 else products

    @staticmethod
    def backward(ctx: _RowDot, gv: Any) -> tuple:
        g, x = ctx.saved_tensors
        shape = (g.shape[0], x.shape[0])
        s = SparseCooTensorWithDimsAndTensors.call(gv, indices=ctx.indices, shape=shape)
        needs_g, needs_x = ctx.needs_input_grad
        return (SparseAddmm.call(s, x) if needs_g else None,
                SparseAddmm.call(SparseTranspose.call(s, dim0=0, dim1=1), g) if needs_x else None)


class SparseTranspose(Op, node_name="TransposeBackward0"):
    @staticmethod
    def forward(ctx: SparseTranspose, a: COO, *, dim0: int, dim1: int) -> Any:
        ctx.dims = dim0, dim1
        return _transposed(a, dim0, dim1)

    @staticmethod
    def backward(ctx: SparseTranspose, g: Any) -> Any:
        dim0, dim1 = ctx.dims
        return SparseTranspose.call(g, dim0=dim0, dim1=dim1) if _is_sparse_value(g) else g.swapaxes(dim0, dim1)


class SparseMatrixTranspose(SparseTranspose, node_name="TBackward0"):
    pass


def _transposed(a: COO, dim0: int, dim1: int) -> COO:
    if max(dim0, dim1) >= a.sparse_dim:
        raise RuntimeError("transpose: transposing a dense dimension of a sparse tensor is not supported")
    order = list(range(a.ndim))
    order[dim0], order[dim1] = dim1, dim0
    return COO(a.indices[order[:a.sparse_dim]], a.values, tuple(a.shape[i] for i in order),
               a.coalesced and dim0 == dim1)


class SparseSum(Op, node_name="SumBackward0"):
    """The sum of all elements: a dense 0-dim tensor."""

    @staticmethod
    def forward(ctx: SparseSum, a: COO) -> Any:
        ctx.xp = a.array_module  # (``Op.apply`` knows the array module of a sparse input's class only: NumPy)
        ctx.indices, ctx.shape, ctx.dense_shape = a.indices, a.shape, a.values.shape[1:]
        return a.values.sum()

    @staticmethod
    def backward(ctx: SparseSum, g: Any) -> Any:
        # A sparse gradient has each index once (``_distinct``), as PyTorch's ``sparse_mask`` gives it
        indices = _distinct(ctx.indices, ctx.shape)
        values = ctx.xp.broadcast_to(g, (indices.shape[1], *ctx.dense_shape)) * 1  # (* 1: an array of its own)
        return SparseCooTensorWithDimsAndTensors.call(values, indices=indices, shape=ctx.shape)


class SparseSumDims(Op, node_name="SparseSumBackward0"):
    """The sum over some sparse dimensions: sparse over the other ones (coalesced)."""

    @staticmethod
    def forward(ctx: SparseSumDims, a: COO, *, dims: tuple) -> Any:
        kept = [d for d in range(a.sparse_dim) if d not in dims]
        shape = tuple(n for d, n in enumerate(a.shape) if d not in dims)
        ctx.indices, ctx.shape, ctx.kept, ctx.reduced_shape = a.indices, a.shape, kept, shape
        return coalesced(COO(a.indices[kept], a.values, shape, False))

    @staticmethod
    def backward(ctx: SparseSumDims, g: Any) -> Any:
        indices = _distinct(ctx.indices, ctx.shape)
        values = _Gather.call(g, indices=indices[ctx.kept], shape=ctx.reduced_shape)
        return SparseCooTensorWithDimsAndTensors.call(values, indices=indices, shape=ctx.shape)


class SparseSoftmax(Op):
    """Softmax (or log-softmax) along ``dim`` over each slice's stored entries only (absent ones count as
    minus infinity, as in PyTorch's ``torch.sparse.softmax``); the input is coalesced first."""

    log = False

    @staticmethod
    def forward(ctx: SparseSoftmax, a: COO, *, dim: int) -> Any:
        ctx.save_for_backward(a)
        ctx.dim = dim
        log = ctx.log
        a = coalesced(a)
        xp = ctx.xp = a.array_module  # (as in SparseSum)
        groups, count = _slices(a.indices, a.shape, dim)
        ctx.indices, ctx.shape, ctx.groups, ctx.count = a.indices, a.shape, groups, count
        peak = xp.full(count, -np.inf, dtype=a.dtype)
        xp.maximum.at(peak, groups, a.values)
        shifted = a.values - peak[groups]
        exp = xp.exp(shifted)
        total = xp.zeros(count, dtype=a.dtype)
        add_at(total, groups, exp)
        values = shifted - xp.log(total)[groups] if log else exp / total[groups]
        return COO(a.indices, values, a.shape, True)

    @staticmethod
    def backward(ctx: SparseSoftmax, g: Any) -> Any:
        (a,) = ctx.saved_tensors
        options = {"groups": ctx.groups, "count": ctx.count}
        y = Values.call(type(ctx).call(a, dim=ctx.dim))  # the output's values, recorded when needed
        gv = _Gather.call(g, indices=ctx.indices, shape=ctx.shape)
        if ctx.log:
            grad = gv - ctx.xp.exp(y) * _GroupGather.call(_GroupSum.call(gv, **options), **options)
        else:
            grad = y * (gv - _GroupGather.call(_GroupSum.call(gv * y, **options), **options))
        return SparseCooTensorWithDimsAndTensors.call(grad, indices=ctx.indices, shape=ctx.shape)


class SparseLogSoftmax(SparseSoftmax):
    log = True


def _slices(indices: Any, shape: tuple, dim: int) -> tuple:
    """For each entry, the number of its slice along ``dim`` (entries equal in every other index), and how
    many slices there are."""
    others = [d for d in range(indices.shape[0]) if d != dim]
    xp = array_module_of(indices)
    keys = _keys(indices[others], tuple(shape[d] for d in others))
    unique, groups = xp.unique(keys, return_inverse=True)
    return groups.reshape(-1), len(unique)


class _GroupSum(Op, node_name="SparseSoftmaxBackwardBackward0"):
    """The sum of the values of each slice (``_slices``)."""

    @staticmethod
    def forward(ctx: _GroupSum, v: Any, *, groups: Any, count: int) -> Any:
        ctx.groups, ctx.count = groups, count
        out = ctx.xp.zeros(count, dtype=v.dtype)
        add_at(out, groups, v)
        return out

    @staticmethod
    def backward(ctx: _GroupSum, g: Any) -> Any:
        return _GroupGather.call(g, groups=ctx.groups, count=ctx.count)


class _GroupGather(Op, node_name="SparseSoftmaxBackwardBackward1"):
    """Each entry's slice's value: the adjoint of ``_GroupSum``."""

    @staticmethod
    def forward(ctx: _GroupGather, v: Any, *, groups: Any, count: int) -> Any:
        ctx.groups, ctx.count = groups, count
        return v[groups]

    @staticmethod
    def backward(ctx: _GroupGather, g: Any) -> Any:
        return _GroupSum.call(g, groups=ctx.groups, count=ctx.count)


class SparseToDevice(Op, node_name="ToCopyBackward0"):
    widens_bfloat16 = False

    @staticmethod
    def forward(ctx: SparseToDevice, a: COO, *, target: device) -> Any:
        ctx.source = device_of(a)
        return a.moved_to(target)

    @staticmethod
    def backward(ctx: SparseToDevice, g: Any) -> Any:
        if isinstance(g, _graph.Tensor):
            return g.to(ctx.source)
        return move_array(g, ctx.source)


# ----------------------------------------------------------------- functions

def is_sparse(t: Any) -> bool:
    return isinstance(t, _graph.Tensor) and isinstance(t._data, COO)


def _require_sparse(t: Tensor, name: str) -> COO:
    if not is_sparse(t):
        raise RuntimeError(f"{name} expected sparse coordinate tensor layout but got Strided")
    return t._data


def sparse_coo_tensor(indices: Any, values: Any, size: Any = None, *, dtype: Any = None, device: Any = None,
                      requires_grad: bool = False, check_invariants: bool | None = None,
                      is_coalesced: bool | None = None) -> Tensor:
    """A sparse COO tensor with ``values`` at ``indices`` (``(sparse_dim, nnz)`` integers); ``size`` defaults
    to the smallest that holds every index. Values that require grad get ``SparseCooTensorWithDimsAndTensors``
    as the result's ``grad_fn``; ``requires_grad=True`` makes a sparse leaf, whose ``.grad`` is sparse."""
    from .. import creation
    index_tensor = indices if isinstance(indices, _graph.Tensor) else creation.tensor(indices, device=device)
    value_tensor = values if isinstance(values, _graph.Tensor) else creation.tensor(values, dtype=dtype, device=device)
    if dtype is not None and value_tensor.dtype is not dtype:
        value_tensor = value_tensor.to(dtype)
    if device is not None:
        index_tensor, value_tensor = index_tensor.to(device), value_tensor.to(device)
    index_array = index_tensor._data
    if index_array.dtype.kind not in "iu":
        raise RuntimeError("indices must be an int64 tensor")
    if index_array.ndim != 2:
        raise RuntimeError(f"indices must be sparse_dim x nnz, but got: {list(index_array.shape)}")
    sparse_dim, nnz = index_array.shape
    if value_tensor.ndim == 0 or value_tensor.shape[0] != nnz:
        raise RuntimeError(f"indices and values must have same nnz, but got nnz from indices: {nnz}, nnz from "
                           f"values: {value_tensor.shape[0] if value_tensor.ndim else 0}")
    dense_shape = tuple(value_tensor.shape[1:])
    if size is None:
        xp = array_module_of(index_array)
        size = (*(int(n) + 1 for n in (xp.max(index_array, axis=1) if nnz else [-1] * sparse_dim)), *dense_shape)
    size = tuple(int(n) for n in size)
    if len(size) != sparse_dim + len(dense_shape):
        raise RuntimeError(f"'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = {len(size)}, "
                           f"sparse_dim = {sparse_dim}, dense_dim = {len(dense_shape)}")
    out = SparseCooTensorWithDimsAndTensors.apply(value_tensor, indices=index_array.astype(np.int64), shape=size,
                                                  coalesced=bool(is_coalesced) or nnz <= 1, dense=False)
    if requires_grad:
        out.requires_grad_(True)
    return out


def to_sparse(input: Tensor, sparse_dim: int | None = None) -> Tensor:
    """The nonzero elements of a dense tensor as a coalesced sparse COO tensor."""
    if is_sparse(input):
        if sparse_dim is not None and sparse_dim != input._data.sparse_dim:
            raise RuntimeError("to_sparse: conversion to a different sparse_dim is not supported")
        return input
    if sparse_dim is not None and sparse_dim != input.ndim:
        raise NotImplementedError("to_sparse: tinyframe makes sparse tensors of sparse_dim == ndim only")
    return ToSparse.apply(input)


def values(input: Tensor) -> Tensor:
    """A coalesced sparse tensor's values (differentiable, unlike ``_values()``)."""
    if not _require_sparse(input, "values").coalesced:
        raise RuntimeError("Cannot get values on an uncoalesced tensor, please call .coalesce() first")
    return Values.apply(input)


def to_dense(input: Tensor) -> Tensor:
    """The dense tensor of a sparse one (repeated indices summed); a dense tensor as it is."""
    return ToDense.apply(input) if is_sparse(input) else input


def coalesce(input: Tensor) -> Tensor:
    """The sparse tensor with sorted unique indices, the values of repeated ones summed."""
    a = _require_sparse(input, "coalesce")
    return input if a.coalesced else Coalesce.apply(input)


def sparse_mm(sparse: Tensor, dense: Tensor, node: type[SparseAddmm] = SparseAddmm) -> Tensor:
    """``sparse @ dense`` for a 2-D sparse and a dense matrix (``torch.sparse.mm``)."""
    if not is_sparse(sparse):
        raise RuntimeError("sparse.mm: expected a sparse first argument")
    a, x = sparse._data, dense._data
    if a.ndim != 2 or a.sparse_dim != 2:
        raise RuntimeError(f"addmm: matrices expected, got {a.ndim}D tensor")
    if x.ndim != 2:
        raise RuntimeError(f"addmm: matrices expected, got {x.ndim}D tensor")
    if x.shape[0] != a.shape[1]:
        raise RuntimeError(f"addmm: Argument #3 (dense): Expected dim 0 size {a.shape[1]}, got {x.shape[0]}")
    if type(a.values) is not type(x):
        _graph._raise_device_mismatch((sparse, dense))
    return node.apply(sparse, dense)


def sparse_sum(input: Tensor, dim: Any = None, dtype: Any = None) -> Tensor:
    """The sum of all elements (a dense 0-dim tensor), or over the sparse dimensions ``dim`` (sparse over the
    others; dense where every sparse dimension is summed)."""
    a = _require_sparse(input, "sparse.sum")
    if dtype is not None:
        input = input.to(dtype)
    if dim is None:
        return SparseSum.apply(input)
    dims = tuple(sorted(d % a.ndim for d in ((dim,) if isinstance(dim, int) else dim)))
    if any(d >= a.sparse_dim for d in dims):
        raise NotImplementedError("sparse.sum over a dense dimension is not supported by tinyframe")
    out = SparseSumDims.apply(input, dims=dims)
    return to_dense(out) if len(dims) == a.sparse_dim else out


def sparse_softmax(input: Tensor, dim: int, dtype: Any = None, log: bool = False) -> Tensor:
    """Softmax (``log``: log-softmax) of a sparse tensor along ``dim``, over the stored entries of each slice."""
    a = _require_sparse(input, "sparse.softmax")
    if a.ndim != a.sparse_dim:
        raise NotImplementedError("sparse.softmax of a sparse tensor with dense dimensions is not supported")
    if dtype is not None:
        input = input.to(dtype)
    dim = dim % a.ndim if -a.ndim <= dim < a.ndim else dim
    if not 0 <= dim < a.ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-a.ndim}, {a.ndim - 1}], but got "
                         f"{dim})")
    return (SparseLogSoftmax if log else SparseSoftmax).apply(input, dim=dim)


def sparse_repr(t: Tensor) -> str:
    """PyTorch's ``repr`` of a sparse tensor: its indices, values, size, nnz and layout."""
    a, prefix = t._data, "tensor("
    indent = len(prefix)
    parts = []
    for name, array, dtype in (("indices", a.indices, int64), ("values", a.values, t.dtype)):
        host = array if isinstance(array, np.ndarray) else array.get()
        contents, _ = _contents_and_size(host, dtype, indent + len(name) + len("=tensor("))
        if host.size == 0:
            contents += f", size={host.shape}"
        parts.append(f"{name}=tensor({contents})")
    suffixes = [f"size={a.shape}", f"nnz={a.nnz}"]
    if t.device.type != "cpu":
        suffixes.insert(0, f"device='{t.device}'")
    if t.dtype not in (get_default_dtype(), int64, bool_):
        suffixes.append(f"dtype={t.dtype}")
    suffixes.append(f"layout={sparse_coo}")
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{type(t.grad_fn).__name__}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    text = prefix + f",\n{' ' * indent}".join(parts) + f",\n{' ' * indent}{suffixes[0]}"
    return _add_suffixes(text, suffixes[1:], indent)


# ----------------------------------------------------------------- kernels of dense ops

def _mm_kernel(input: Tensor, mat2: Tensor) -> Tensor:
    if is_sparse(input):
        return sparse_mm(input, mat2, SparseMm)
    if mat2._data.sparse_dim != 2 or type(mat2._data.values) is not type(input._data):
        raise NotImplementedError("mm: tinyframe multiplies a dense matrix by a 2-D sparse one on its device only")
    return DenseSparseMm.apply(input, mat2)


def _mv_kernel(input: Tensor, vec: Tensor) -> Tensor:
    if not is_sparse(input) or input._data.sparse_dim != 2:
        raise NotImplementedError("mv: tinyframe computes a sparse matrix times a dense vector only")
    return SparseMv.apply(input, vec)


def _add_kernel(input: Any, other: Any, alpha: Any = 1) -> Tensor:
    if not is_sparse(input):  # dense + sparse: a dense sum, the sparse operand's gradient sparse
        from . import binary
        return binary.Add.apply(input, ToDense.apply(other), alpha)
    raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) instead.")


def _to_device_kernel(input: Tensor, *, target: device) -> Tensor:
    return SparseToDevice.apply(input, target=target)


def _sum_kernel(input: Tensor, *, axes: tuple | None, keepdim: bool, dtype: Any) -> Tensor:
    if axes is not None or keepdim:
        raise NotImplementedError("sum of a sparse tensor over dimensions: use torch.sparse.sum")
    return sparse_sum(input, None, None if dtype is None else dtypes.from_numpy_dtype(dtype))


def _t_kernel(input: Tensor) -> Tensor:
    return SparseMatrixTranspose.apply(input, dim0=0, dim1=1)


def _on_values(input: Tensor, *, op: type[Op], op_options: dict) -> Tensor:
    """``op`` on the values of the coalesced ``input``: a coalesced sparse tensor of the same indices."""
    a = coalesce(input)
    out = op.apply(Values.apply(a), **op_options)
    return SparseCooTensorWithDimsAndTensors.apply(out, indices=a._data.indices, shape=a._data.shape, coalesced=True)


def _values_kernel(op: type[Op]) -> Callable[..., Tensor]:
    """The SparseCPU kernel of an elementwise op that maps zero to zero (``abs``, ``sqrt``, ``relu``, ...): the
    op on the stored values, recorded as one node of the dense op's name, the input's gradient sparse."""
    def kernel(input: Tensor, **options: Any) -> Tensor:
        if op is binary.Pow and options["exponent"] == 0:
            raise RuntimeError("pow: cannot raise to zeroth power on sparse tensor; it would make the result "
                               "tensor dense")
        return composed(op.__name__, _on_values, input, op=op, op_options=options)
    return kernel


def _product(x: Tensor, y: Tensor) -> Tensor:
    """``x * y`` for ``x`` sparse and ``y`` sparse or dense (broadcast to ``x``'s shape): sparse, at the entries
    of ``x`` (PyTorch's ``sparse_mask``), marked coalesced where both operands were."""
    marked = x._data.coalesced and getattr(y._data, "coalesced", True)
    a = coalesce(x)
    if not is_sparse(y):
        y = y.expand(*a.shape)
    other = _Gather.apply(y, indices=a._data.indices, shape=a._data.shape)
    return SparseCooTensorWithDimsAndTensors.apply(Values.apply(a) * other, indices=a._data.indices,
                                                   shape=a._data.shape, coalesced=marked)


def _mul_kernel(input: Tensor, other: Tensor) -> Tensor:
    operands = (input, other)
    if is_sparse(input) and is_sparse(other):
        if input.shape != other.shape:
            raise RuntimeError(f"mul: expected 'self' and 'other' to have same sizes, but {list(input.shape)} != "
                               f"{list(other.shape)}")
        if other._data.nnz < input._data.nnz:  # the entries of the operand with fewer, as PyTorch's
            operands = (other, input)
    elif not is_sparse(input):
        operands = (other, input)
    if operands[1].ndim > operands[0].ndim:
        raise NotImplementedError("mul: tinyframe multiplies a sparse tensor by a dense one of no more dimensions")
    return composed("MulBackward0", _product, *operands, mixes_layouts=True)


def _sum_dims_kernel(input: Tensor, *, axes: tuple, keepdim: bool, dtype: Any) -> Tensor:
    if keepdim:
        raise NotImplementedError("sum of a sparse tensor with keepdim=True is not supported by tinyframe")
    return composed("SumBackward1", sparse_sum, input, dim=axes,
                    dtype=None if dtype is None else dtypes.from_numpy_dtype(dtype))


# The elementwise ops PyTorch's SparseCPU and SparseCUDA kernels compute on the stored values (they map 0 to 0).
_ON_VALUES = (unary.Abs, unary.Relu, unary.Sqrt, unary.Sin, unary.Sinh, unary.Tan, unary.Tanh, unary.Asin,
              unary.Asinh, unary.Atan, unary.Atanh, unary.Erf, unary.Erfinv, unary.Expm1, unary.Log1p, unary.Floor,
              unary.Ceil, unary.Round, unary.Trunc, unary.Frac, unary.Sign, unary.Sgn, unary.NanToNum,
              unary.Deg2rad, unary.Rad2deg, binary.Pow)

_graph.SPARSE_KERNELS.update({op.__name__: _values_kernel(op) for op in _ON_VALUES})
_graph.SPARSE_KERNELS.update({
    "MulBackward0": _mul_kernel,
    "SumBackward1": _sum_dims_kernel,
    "MmBackward0": _mm_kernel,
    "MvBackward0": _mv_kernel,
    "AddBackward0": _add_kernel,
    "TBackward0": _t_kernel,
    "TransposeBackward0": SparseTranspose.apply,
    "ToCopyBackward0": _to_device_kernel,
    "SumBackward0": _sum_kernel,
})
