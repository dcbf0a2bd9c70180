"""Ops that build a tensor from parts of another: tril, triu, roll, diagonals (diag, diag_embed,
diagonal, trace), repeat_interleave, meshgrid and the sliding windows of ``Tensor.unfold``.

``diagonal`` and ``unfold`` are views sharing the input's storage, as in PyTorch. Each backward is
again one of these ops (the adjoint of ``diagonal`` writes onto a diagonal, that of ``unfold`` adds
the windows back), so higher-order gradients follow.
"""
from __future__ import annotations

import itertools
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, creation, dtypes
from .._dims import wrap_dim
from .._graph import Op
from ..device import add_at, array_module_of, storage_of
from . import indexing, inplace, scattering, shape, sorting
from ._composite import composed, on_tensors

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["tril", "triu", "roll", "diag", "diag_embed", "diagonal", "diagonal_scatter", "trace",
           "repeat_interleave", "meshgrid", "rot90", "fliplr", "flipud", "take", "tril_indices", "triu_indices",
           "block_diag", "cartesian_prod", "combinations", "atleast_1d", "atleast_2d", "atleast_3d", "column_stack",
           "dstack", "diff", "vander", "diagflat", "as_strided"]


# ------------------------------------------------------------------------------------------ the ops
class Tril(Op):
    """The lower triangle: elements with ``column - row <= diagonal`` (the others are zero). Its
    gradient is the same triangle of the incoming gradient."""

    keep = "tril"  # the array module's function that keeps the triangle

    @staticmethod
    def forward(ctx: Tril, a: Any, *, diagonal: int) -> Any:
        ctx.diagonal = diagonal
        return getattr(ctx.xp, ctx.keep)(a, diagonal)

    @staticmethod
    def backward(ctx: Tril, g: Any) -> Any:
        return type(ctx).call(g, diagonal=ctx.diagonal)


class Triu(Tril):
    """The upper triangle: elements with ``column - row >= diagonal``."""

    keep = "triu"


class Roll(Op):
    row_major = True

    @staticmethod
    def forward(ctx: Roll, a: Any, *, shifts: tuple, dims: tuple | None) -> Any:
        ctx.shifts, ctx.dims = shifts, dims
        if dims is None:
            return ctx.xp.roll(a.reshape(-1), shifts[0]).reshape(a.shape)
        return ctx.xp.roll(a, shifts, dims)

    @staticmethod
    def backward(ctx: Roll, g: Any) -> Any:
        return Roll.call(g, shifts=tuple(-s for s in ctx.shifts), dims=ctx.dims)


def _diagonal_view(xp: Any, a: Any, offset: int, dim1: int, dim2: int) -> Any:
    """The diagonal of ``a`` over ``dim1, dim2`` as a writable view, moved to the last dimension."""
    if xp is not np:
        return xp.diagonal(a, offset, dim1, dim2)
    n1, n2 = a.shape[dim1], a.shape[dim2]
    length = max(0, min(n1, n2 - offset) if offset >= 0 else min(n1 + offset, n2))
    start = [0] * a.ndim
    if length:
        start[dim2 if offset >= 0 else dim1] = abs(offset)
    base = a[tuple(slice(s, None) for s in start)] if length else a
    others = [k for k in range(a.ndim) if k not in (dim1, dim2)]
    new_shape = tuple(a.shape[k] for k in others) + (length,)
    strides = tuple(a.strides[k] for k in others) + (a.strides[dim1] + a.strides[dim2],)
    return np.lib.stride_tricks.as_strided(base, new_shape, strides)


class Diagonal(Op):
    """The diagonal ``offset`` over ``dim1, dim2``, as a new last dimension (a view)."""

    is_view = True

    @staticmethod
    def forward(ctx: Diagonal, a: Any, *, offset: int, dim1: int, dim2: int) -> Any:
        ctx.shape, ctx.offset, ctx.dim1, ctx.dim2 = a.shape, offset, dim1, dim2
        return _diagonal_view(ctx.xp, a, offset, dim1, dim2)

    @staticmethod
    def backward(ctx: Diagonal, g: Any) -> Any:
        return DiagonalBackward.call(g, shape=ctx.shape, offset=ctx.offset, dim1=ctx.dim1, dim2=ctx.dim2)


class DiagonalCopy(Diagonal, node_name="DiagonalBackward0_copy"):
    """``diag`` of a matrix: the diagonal copied out."""

    is_view = False

    @staticmethod
    def forward(ctx: Diagonal, a: Any, *, offset: int, dim1: int, dim2: int) -> Any:
        return Diagonal.forward(ctx, a, offset=offset, dim1=dim1, dim2=dim2).copy()


class DiagonalBackward(Op, node_name="DiagonalBackwardBackward0"):
    """Zeros of ``shape`` with ``g`` written on the diagonal ``offset`` over ``dim1, dim2``."""

    @staticmethod
    def forward(ctx: DiagonalBackward, g: Any, *, shape: tuple, offset: int, dim1: int, dim2: int) -> Any:
        ctx.offset, ctx.dim1, ctx.dim2 = offset, dim1, dim2
        out = ctx.xp.zeros(shape, dtype=g.dtype)
        _diagonal_view(array_module_of(out), out, offset, dim1, dim2)[...] = g
        return out

    @staticmethod
    def backward(ctx: DiagonalBackward, g: Any) -> Any:
        return Diagonal.call(g, offset=ctx.offset, dim1=ctx.dim1, dim2=ctx.dim2)


class DiagEmbed(DiagonalBackward, node_name="DiagEmbedBackward0"):
    pass


class DiagonalScatter(Op):
    """``input`` with ``src`` written on a diagonal: ``src`` gets that diagonal of the gradient and
    ``input`` the rest."""

    @staticmethod
    def forward(ctx: DiagonalScatter, a: Any, src: Any, *, offset: int, dim1: int, dim2: int) -> Any:
        ctx.offset, ctx.dim1, ctx.dim2 = offset, dim1, dim2
        out = a.copy()
        _diagonal_view(ctx.xp, out, offset, dim1, dim2)[...] = src
        return out

    @staticmethod
    def backward(ctx: DiagonalScatter, g: Any) -> tuple:
        needs_a, needs_src = ctx.needs_input_grad
        options = {"offset": ctx.offset, "dim1": ctx.dim1, "dim2": ctx.dim2}
        diagonal_of_g = Diagonal.call(g, **options)
        ga = DiagonalScatter.call(g, diagonal_of_g * 0.0, **options) if needs_a else None
        return ga, diagonal_of_g if needs_src else None


class Trace(Op):
    """The sum of the main diagonal of a matrix; the gradient is ``g`` on that diagonal."""

    @staticmethod
    def forward(ctx: Trace, a: Any) -> Any:
        ctx.shape = a.shape
        return a.trace(dtype=np.int64 if a.dtype.kind in "biu" else None)

    @staticmethod
    def backward(ctx: Trace, g: Any) -> Any:
        n = min(ctx.shape)
        return DiagonalBackward.call(ctx.xp.broadcast_to(g, (n,)), shape=ctx.shape, offset=0, dim1=0, dim2=1)


class Unfold(Op):
    """The windows of ``size`` elements every ``step`` along ``dim``: that dimension becomes the
    window count and the window is a new last dimension (a view)."""

    is_view = True

    @staticmethod
    def forward(ctx: Unfold, a: Any, *, dim: int, size: int, step: int) -> Any:
        ctx.shape, ctx.dim, ctx.size, ctx.step = a.shape, dim, size, step
        if a.ndim == 0:
            return a.reshape(1)
        count = (a.shape[dim] - size) // step + 1
        new_shape = a.shape[:dim] + (count,) + a.shape[dim + 1:] + (size,)
        strides = a.strides[:dim] + (a.strides[dim] * step,) + a.strides[dim + 1:] + (a.strides[dim],)
        if ctx.xp is np:
            return np.lib.stride_tricks.as_strided(a, new_shape, strides)
        return ctx.xp.lib.stride_tricks.as_strided(a, new_shape, strides)

    @staticmethod
    def backward(ctx: Unfold, g: Any) -> Any:
        return UnfoldBackward.call(g, shape=ctx.shape, dim=ctx.dim, size=ctx.size, step=ctx.step)


class AsStrided(Op):
    """A view with ``size`` and ``stride`` (in elements) into the storage the input lies in, from
    element ``offset`` of it. The gradient is summed in storage positions (where windows overlap)
    and read back at the input's own positions."""

    is_view = True

    @staticmethod
    def forward(ctx: AsStrided, a: Any, *, size: tuple, stride: tuple, offset: int | None) -> Any:
        xp = ctx.xp
        storage, start = _storage_of(xp, a)
        offset = start if offset is None else offset
        needed = offset + sum((n - 1) * s for n, s in zip(size, stride)) + 1 if all(size) else 0
        if needed > storage.size:
            raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, and "
                               f"itemsize {a.itemsize} requiring a storage size of {needed * a.itemsize} are out of "
                               f"bounds for storage of size {storage.size * a.itemsize}")
        ctx.storage_size = storage.size
        ctx.read = indexing.storage_positions(xp, size, stride, offset)
        ctx.own = indexing.storage_positions(xp, a.shape, tuple(n // a.itemsize for n in a.strides), start)
        return xp.lib.stride_tricks.as_strided(storage[offset:], size, tuple(n * a.itemsize for n in stride))

    @staticmethod
    def backward(ctx: AsStrided, g: Any) -> Any:
        return on_tensors(ctx, _as_strided_grad, g)


def _storage_of(xp: Any, a: Any) -> tuple:
    """``(storage, start)``: the 1-D array of the memory ``a`` views and where ``a`` starts in it (``a``
    itself, copied if need be, when that memory is not one row-major block)."""
    if xp is np:
        root, start = storage_of(a)
        if root.flags.c_contiguous:
            return root.reshape(-1), start
    return xp.ascontiguousarray(a).reshape(-1), 0


def _as_strided_grad(ctx: AsStrided, g: Tensor) -> Tensor:
    storage = _graph.wrap(array_module_of(g._data).zeros(ctx.storage_size, dtype=g._data.dtype))
    summed = scattering.index_add(storage, 0, _graph.wrap(ctx.read.reshape(-1)), shape.reshape(g, (-1,)))
    return take(summed, _graph.wrap(ctx.own))


def as_strided(input: Tensor, size: Sequence[int], stride: Sequence[int], storage_offset: int | None = None) -> Tensor:
    """A view of ``input``'s storage with the given ``size`` and ``stride`` (in elements), starting at
    element ``storage_offset`` of the storage (the input's own start by default)."""
    if any(step < 0 for step in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, got strides: {list(stride)}")
    return AsStrided.apply(input, size=tuple(size), stride=tuple(stride), offset=storage_offset)


class UnfoldBackward(Op, node_name="UnfoldBackwardBackward0"):
    """The windows added back into zeros of the unfolded tensor's ``shape``."""

    @staticmethod
    def forward(ctx: UnfoldBackward, g: Any, *, shape: tuple, dim: int, size: int, step: int) -> Any:
        ctx.dim, ctx.size, ctx.step = dim, size, step
        xp = array_module_of(g)
        if not shape:
            return g.reshape(())
        out = xp.zeros(shape, dtype=g.dtype)
        count = g.shape[dim]
        positions = xp.arange(count).reshape(-1, 1) * step + xp.arange(size).reshape(1, -1)
        add_at(out, (slice(None),) * dim + (positions,), xp.moveaxis(g, -1, dim + 1))
        return out

    @staticmethod
    def backward(ctx: UnfoldBackward, g: Any) -> Any:
        return Unfold.call(g, dim=ctx.dim, size=ctx.size, step=ctx.step)


class Rot90(Op):
    """A quarter turn ``k`` times in the plane ``dims`` (from the first towards the second); the
    gradient turns back."""

    @staticmethod
    def forward(ctx: Rot90, a: Any, *, k: int, dims: tuple) -> Any:
        ctx.k, ctx.dims = k, dims
        return ctx.xp.rot90(a, k, dims).copy()

    @staticmethod
    def backward(ctx: Rot90, g: Any) -> Any:
        return Rot90.call(g, k=-ctx.k, dims=ctx.dims)


class Take(indexing.Index):
    """``take``: the elements at flat positions."""


# ------------------------------------------------------------------------------ public functions
def _triangle(name: str, op: type[Op], input: Tensor, diagonal: int) -> Tensor:
    if input.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    return op.apply(input, diagonal=int(diagonal))


def tril(input: Tensor, diagonal: int = 0) -> Tensor:
    """The lower triangle of the matrices (the last two dimensions) of ``input``: the elements with
    ``j - i <= diagonal``, the others zero."""
    return _triangle("tril", Tril, input, diagonal)


def triu(input: Tensor, diagonal: int = 0) -> Tensor:
    """The upper triangle of the matrices of ``input``: the elements with ``j - i >= diagonal``."""
    return _triangle("triu", Triu, input, diagonal)


def roll(input: Tensor, shifts: int | Sequence[int], dims: int | Sequence[int] | None = None) -> Tensor:
    """The elements shifted ``shifts`` places along ``dims`` (those leaving at one end come back at
    the other); without ``dims`` the flattened tensor is shifted and the shape restored."""
    shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    if dims is None:
        if len(shifts) != 1:
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:0")
        return Roll.apply(input, shifts=shifts, dims=None)
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    return Roll.apply(input, shifts=shifts, dims=tuple(wrap_dim(d, input.ndim) for d in dims))


def _diagonal_dims(input: Tensor, dim1: int, dim2: int, ndim: int | None = None) -> tuple:
    ndim = input.ndim if ndim is None else ndim
    d1, d2 = wrap_dim(dim1, ndim), wrap_dim(dim2, ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return d1, d2


def diagonal(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """A view of the diagonal ``offset`` (above the main one when positive) of the matrices over
    dimensions ``dim1, dim2``; the diagonal becomes the last dimension."""
    d1, d2 = _diagonal_dims(input, dim1, dim2)
    return Diagonal.apply(input, offset=offset, dim1=d1, dim2=d2)


def diag_embed(input: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """Matrices (over the new dimensions ``dim1, dim2``) whose diagonal ``offset`` holds the last
    dimension of ``input``, zeros elsewhere."""
    ndim = input.ndim + 1
    d1, d2 = _diagonal_dims(input, dim1, dim2, ndim)
    n = input.shape[-1] + abs(offset) if input.ndim else 1 + abs(offset)
    batch = list(input.shape[:-1])
    out_shape = []
    for k in range(ndim):
        out_shape.append(n if k in (d1, d2) else batch.pop(0))
    return DiagEmbed.apply(input, shape=tuple(out_shape), offset=offset, dim1=d1, dim2=d2)


def diagonal_scatter(input: Tensor, src: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """A copy of ``input`` with ``src`` written on the diagonal ``offset`` over ``dim1, dim2``."""
    d1, d2 = _diagonal_dims(input, dim1, dim2)
    expected = _diagonal_view(array_module_of(input._data), input._data, offset, d1, d2).shape
    if tuple(src.shape) != expected:
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = {list(src.shape)}, "
                           f"slice size = {list(expected)}")
    return DiagonalScatter.apply(input, src, offset=offset, dim1=d1, dim2=d2)


def diagflat(input: Tensor, offset: int = 0) -> Tensor:
    """The square matrix with the elements of ``input`` (flattened) on its ``offset`` diagonal, zeros elsewhere."""
    return diag_embed(shape.reshape(input, (-1,)), offset)


def diag(input: Tensor, diagonal: int = 0) -> Tensor:
    """For a vector, the square matrix with it on the diagonal ``diagonal``; for a matrix, the
    vector of its diagonal ``diagonal`` (a copy)."""
    if input.ndim == 1:
        return diag_embed(input, diagonal, 0, 1)
    if input.ndim != 2:
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input.ndim}D")
    return DiagonalCopy.apply(input, offset=diagonal, dim1=0, dim2=1)


def trace(input: Tensor) -> Tensor:
    """The sum of the main diagonal of a matrix (integers give int64)."""
    dtypes.check_kernel("trace", input.dtype, "uifc")  # (PyTorch checks the dtype first)
    if input.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.ndim}")
    return Trace.apply(input)


def unfold(input: Tensor, dimension: int, size: int, step: int) -> Tensor:
    """A view of every window of ``size`` elements, ``step`` apart, along ``dimension`` (PyTorch's
    ``Tensor.unfold``): ``dimension`` then counts the windows and a last dimension holds them."""
    d = wrap_dim(dimension, input.ndim)
    length = input.shape[d] if input.ndim else 1
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {length} but size is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    return Unfold.apply(input, dim=d, size=size, step=step)


def repeat_interleave(input: Tensor, repeats: int | Tensor | None = None, dim: int | None = None, *,
                      output_size: int | None = None) -> Tensor:
    """Each element (or slice along ``dim``) repeated ``repeats`` times in place: ``[1, 2] -> [1, 1, 2, 2]``.
    ``repeats`` is an int or a tensor of one count per slice; without ``dim`` the flattened tensor is
    repeated. ``repeat_interleave(counts)`` alone gives ``i`` repeated ``counts[i]`` times."""
    if repeats is None:
        counts = input._data
        xp = array_module_of(counts)
        return _graph.wrap(xp.repeat(xp.arange(counts.shape[0], dtype=np.int64), counts))
    if dim is None:
        input, d = shape.reshape(input, (-1,)), 0
    else:
        d = wrap_dim(dim, input.ndim)
    n = input.shape[d] if input.ndim else 1
    if isinstance(repeats, _graph.Tensor) and repeats.numel() != 1:
        if repeats.ndim != 1:
            raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
        if repeats.shape[0] != n:
            raise RuntimeError(f"repeats must have the same size as input along dim, but got repeats.size(0) = "
                               f"{repeats.shape[0]} and input.size({d}) = {n}")
        xp = array_module_of(input._data)
        index = xp.repeat(xp.arange(n), xp.asarray(repeats._data))
        return indexing.index_select(input, d, _graph.wrap(index.astype(np.int64)))
    count = int(repeats.item() if isinstance(repeats, _graph.Tensor) else repeats)
    if count < 0:
        raise RuntimeError("repeats can not be negative")
    # PyTorch's own way: a size-count dimension after d, expanded (a view) and merged with d.
    widened = shape.unsqueeze(input, d + 1)
    sizes = list(widened.shape)
    sizes[d + 1] = count
    merged = list(input.shape)
    merged[d] *= count
    return shape.reshape(shape.contiguous(shape.expand(widened, sizes)), merged)


def meshgrid(*tensors: Any, indexing: str | None = None) -> tuple:
    """Coordinate grids from 1-D tensors: with ``indexing='ij'`` the i-th output varies along
    dimension i; with ``'xy'`` the first two dimensions are swapped (Cartesian). The outputs are
    expanded views."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
                      "argument.", UserWarning, stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    for t in tensors:
        if t.ndim > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t}")
    if any(t.dtype != tensors[0].dtype for t in tensors):
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    swap = indexing == "xy" and len(tensors) >= 2
    order = list(tensors)
    if swap:
        order[0], order[1] = order[1], order[0]
    sizes = [t.numel() for t in order]
    grids = []
    for i, t in enumerate(order):
        view = shape.reshape(t, [-1 if k == i else 1 for k in range(len(order))])
        grids.append(shape.expand(view, sizes))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


# --------------------------------------------------------------------------- more assembling
def rot90(input: Tensor, k: int = 1, dims: Sequence[int] = (0, 1)) -> Tensor:
    """``input`` turned by 90 degrees ``k`` times in the plane ``dims``, from the first dimension
    towards the second."""
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if input.ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {input.ndim}")
    d0, d1 = (wrap_dim(d, input.ndim) for d in dims)
    if d0 == d1:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}")
    return Rot90.apply(input, k=k % 4, dims=(d0, d1))


def fliplr(input: Tensor) -> Tensor:
    """``input`` with its columns (dimension 1) in reverse order."""
    if input.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return shape.flip(input, 1)


def flipud(input: Tensor) -> Tensor:
    """``input`` with its rows (dimension 0) in reverse order."""
    if input.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return shape.flip(input, 0)


def take(input: Tensor, index: Tensor) -> Tensor:
    """The elements of ``input`` read as a flat vector at ``index`` (the result has ``index``'s shape)."""
    indexing._check_dtype(index, ("int64",), "take(): Expected a long tensor for index")
    data = input._data
    idx = indexing._on_device_of(index._data, data)
    outside = (idx < -data.size) | (idx >= data.size)
    if idx.size and bool(outside.any()):
        raise IndexError(f"out of range: tried to access index {int(idx[outside].reshape(-1)[0])} on a tensor of "
                         f"{data.size} elements.")
    return Take.apply(input, index=array_module_of(data).unravel_index(idx % max(data.size, 1), data.shape))


def _triangle_indices(lower: bool, row: int, col: int, offset: int, dtype: Any, device: Any) -> Tensor:
    rows, cols = np.tril_indices(row, offset, col) if lower else np.triu_indices(row, offset, col)
    return creation.tensor(np.stack([rows, cols]), dtype=dtype or "int64", device=device)


def tril_indices(row: int, col: int, offset: int = 0, *, dtype: Any = None, device: Any = None) -> Tensor:
    """The ``(2, N)`` coordinates of the lower triangle (``j - i <= offset``) of a ``row x col`` matrix,
    row by row."""
    return _triangle_indices(True, row, col, offset, dtype, device)


def triu_indices(row: int, col: int, offset: int = 0, *, dtype: Any = None, device: Any = None) -> Tensor:
    """The ``(2, N)`` coordinates of the upper triangle (``j - i >= offset``) of a ``row x col`` matrix."""
    return _triangle_indices(False, row, col, offset, dtype, device)


def block_diag(*tensors: Tensor) -> Tensor:
    """The block-diagonal matrix of the given matrices (a 0-d tensor is a 1 x 1 block, a vector a
    1 x n block), zeros elsewhere."""
    return composed("BlockDiagBackward0", _block_diag, *tensors, linear=True) if tensors else _block_diag()


def _block_diag(*tensors: Tensor) -> Tensor:
    blocks = [shape.reshape(t, (1, -1) if t.ndim < 2 else tuple(t.shape)) for t in tensors]
    width = sum(b.shape[1] for b in blocks)
    rows, left = [], 0
    for b in blocks:
        rows.append(shape.constant_pad_nd(b, (left, width - left - b.shape[1])))
        left += b.shape[1]
    return shape.cat(rows, 0)


def cartesian_prod(*tensors: Tensor) -> Tensor:
    """Every combination of one element of each 1-D tensor, as the rows of a matrix (one tensor:
    itself)."""
    for t in tensors:
        _require_vector(t)
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(*tensors, indexing="ij")
    return shape.stack([shape.reshape(g, (-1,)) for g in grids], 1)


def _require_vector(t: Tensor) -> None:
    if t.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")


def combinations(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:
    """The length-``r`` combinations of the elements of a 1-D tensor, as the rows of a matrix."""
    if not isinstance(r, int):
        raise TypeError(f"combinations(): argument 'r' must be int, not {type(r).__name__}")
    _require_vector(input)
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    chosen = np.array(list(pick(range(input.shape[0]), r)) if r else [], dtype=np.int64).reshape(-1, max(r, 1))
    if chosen.size == 0:  # PyTorch's empty answers: (0, r), or (0,) for r = 0
        return _graph.wrap(array_module_of(input._data).zeros((0, r) if r else (0,), dtype=input._data.dtype))
    index = _graph.wrap(array_module_of(input._data).asarray(chosen.reshape(-1)))
    return shape.reshape(indexing.index_select(input, 0, index), (-1, r))


def _at_least(tensors: tuple, ndim: int) -> Any:
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    out = tuple(_expanded_rank(t, ndim) for t in tensors)
    return out[0] if len(out) == 1 else out


def _expanded_rank(t: Tensor, ndim: int) -> Tensor:
    if t.ndim >= ndim:
        return t
    if t.ndim == 0:
        return shape.reshape(t, (1,) * ndim)
    if ndim == 2:
        return shape.unsqueeze(t, 0)
    # PyTorch's unsqueezes: (n,) -> (1, n, 1), (m, n) -> (m, n, 1)
    return shape.unsqueeze(shape.unsqueeze(t, 0) if t.ndim == 1 else t, -1)


def atleast_1d(*tensors: Tensor) -> Any:
    """Each tensor as a view of at least one dimension (0-d tensors become ``(1,)``)."""
    return _at_least(tensors, 1)


def atleast_2d(*tensors: Tensor) -> Any:
    """Each tensor with at least two dimensions: a vector ``(n,)`` becomes ``(1, n)``."""
    return _at_least(tensors, 2)


def atleast_3d(*tensors: Tensor) -> Any:
    """Each tensor with at least three dimensions: ``(n,) -> (1, n, 1)``, ``(m, n) -> (m, n, 1)``."""
    return _at_least(tensors, 3)


def column_stack(tensors: Sequence[Tensor]) -> Tensor:
    """The tensors side by side as columns: vectors (and 0-d tensors) become ``(n, 1)`` columns."""
    return shape.hstack([shape.reshape(t, (-1, 1)) if t.ndim < 2 else t for t in tensors])


def dstack(tensors: Sequence[Tensor]) -> Tensor:
    """The tensors stacked along a third dimension (after ``atleast_3d``)."""
    return shape.cat([_expanded_rank(t, 3) for t in tensors], 2)


def diff(input: Tensor, n: int = 1, dim: int = -1, prepend: Tensor | None = None,
         append: Tensor | None = None) -> Tensor:
    """The ``n``-th forward difference along ``dim``: ``out[i] = input[i + 1] - input[i]``, after
    ``prepend`` / ``append`` are joined on (booleans give ``!=``)."""
    d = wrap_dim(dim, input.ndim)
    if prepend is not None or append is not None:
        pieces = [t for t in (prepend, input, append) if t is not None]
        input = shape.cat(pieces, d)
    for _ in range(n):
        length = input.shape[d]
        later, earlier = shape.narrow(input, d, 1, length - 1), shape.narrow(input, d, 0, length - 1)
        input = later != earlier if input.dtype.name == "bool" else later - earlier
    return input


def vander(x: Tensor, N: int | None = None, increasing: bool = False) -> Tensor:
    """The Vandermonde matrix of the 1-D ``x``: column ``j`` holds ``x ** (N - 1 - j)`` (``x ** j`` with
    ``increasing=True``), ``N`` columns (``len(x)`` by default). Integers give int64, as PyTorch's
    cumulative product does; built as PyTorch builds it (ones, then a cumulative product written into
    the columns after the first), so the gradient flows through CopySlices."""
    if x.ndim != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    data = x._data
    dtype = data.dtype if dtypes.kind(data.dtype) == "f" else np.dtype(np.int64)
    result = _graph.wrap(array_module_of(data).ones((data.shape[0], n), dtype=dtype))
    if n > 1:
        powers = sorting.cumprod(shape.expand(shape.unsqueeze(x, 1), data.shape[0], n - 1), 1)
        inplace.setitem(result, (slice(None), slice(1, None)), powers)
    return result if increasing else shape.flip(result, (1,))
