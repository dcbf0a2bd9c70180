"""Ops that change a tensor's shape or layout but not its values.

The view ops (``view``, ``reshape`` where the memory layout allows, ``transpose``, ``permute``,
``squeeze``, ``unsqueeze``, ``expand``, ``narrow`` and the pieces of ``split``/``chunk``/``unbind``)
return tensors that share the input's storage and version counter, as PyTorch's views do, so an
in-place change of either shows in both. The others (``clone``, ``repeat``, ``flip``, ``cat``,
``stack``) copy. Every backward is again one of these ops, so higher-order gradients follow.
"""
from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, creation, dtypes
from .._dims import Size, wrap_dim
from .._graph import MultiOutputOp, Op
from ..device import storage_of
from ..memory_format import contiguous_format, is_channels_last, preserve_format

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = [
    "reshape", "ravel", "flatten", "unflatten", "transpose", "swapaxes", "swapdims", "t", "permute", "movedim",
    "moveaxis", "squeeze", "unsqueeze", "broadcast_to", "broadcast_tensors", "broadcast_shapes", "tile",
    "flip", "narrow", "split", "split_with_sizes", "chunk", "unsafe_split", "unsafe_chunk",
    "unbind", "clone", "cat", "concat",
    "concatenate", "stack", "hstack", "vstack", "constant_pad_nd", "tensor_split", "hsplit", "vsplit", "dsplit",
]


# --------------------------------------------------------------------------- views
class View(Op):
    """The same elements in a new shape, sharing storage (``view``, and ``reshape`` where possible)."""

    is_view = True

    @staticmethod
    def forward(ctx: View, a: Any, *, shape: tuple) -> Any:
        ctx.shape = a.shape
        return a.reshape(shape)

    @staticmethod
    def backward(ctx: View, g: Any) -> Any:
        return g.reshape(ctx.shape)


class ReshapeAlias(View):
    """``reshape`` of a layout that is not row-major but that a view can express (a slice, a
    permutation): PyTorch's ``_reshape_alias``."""


class UnsafeView(View):
    """``reshape`` of a layout that no view can express: the elements are copied first."""

    is_view = False

    @staticmethod
    def forward(ctx: View, a: Any, *, shape: tuple) -> Any:
        ctx.shape = a.shape
        return ctx.xp.ascontiguousarray(a).reshape(shape)


class Transpose(Op):
    is_view = True

    @staticmethod
    def forward(ctx: Transpose, a: Any, *, dim0: int, dim1: int) -> Any:
        ctx.dim0, ctx.dim1 = dim0, dim1
        return a.swapaxes(dim0, dim1) if a.ndim else a[...]  # NumPy has no axis 0 in a 0-dim array

    @staticmethod
    def backward(ctx: Transpose, g: Any) -> Any:
        return ctx.xp.swapaxes(g, ctx.dim0, ctx.dim1) if g.ndim else g


class MatrixTranspose(Op, node_name="TBackward0"):
    is_view = True

    @staticmethod
    def forward(ctx: MatrixTranspose, a: Any) -> Any:
        return a.T

    @staticmethod
    def backward(ctx: MatrixTranspose, g: Any) -> Any:
        return g.T


class Permute(Op):
    is_view = True

    @staticmethod
    def forward(ctx: Permute, a: Any, *, dims: tuple) -> Any:
        ctx.dims = dims
        return a.transpose(dims)

    @staticmethod
    def backward(ctx: Permute, g: Any) -> Any:
        inverse = [0] * len(ctx.dims)
        for i, d in enumerate(ctx.dims):
            inverse[d] = i
        return ctx.xp.transpose(g, inverse)


class Squeeze(Op):
    """Drops the size-1 dimensions ``axes``; SqueezeBackward0/1/2 name the forms squeeze(),
    squeeze(dim) and squeeze(dims)."""

    is_view = True

    @staticmethod
    def forward(ctx: Squeeze, a: Any, *, axes: tuple) -> Any:
        ctx.shape = a.shape
        return a.squeeze(axes)

    @staticmethod
    def backward(ctx: Squeeze, g: Any) -> Any:
        return g.reshape(ctx.shape)


class SqueezeDim(Squeeze, node_name="SqueezeBackward1"):
    pass


class SqueezeDims(Squeeze, node_name="SqueezeBackward2"):
    pass


class SqueezeDimInplace(Squeeze, node_name="SqueezeBackward4"):
    """``squeeze_(dim)``'s node: matmul squeezes a vector's row out of its product this way."""


class SqueezeInplace(Squeeze, node_name="SqueezeBackward3"):
    pass


class SqueezeDimsInplace(Squeeze, node_name="SqueezeBackward5"):
    pass


def unsqueezed(xp: Any, a: Any, dim: int) -> Any:
    """``a`` viewed with a size-1 dimension inserted at ``dim``, whose stride is PyTorch's: the span of the
    dimension it precedes (1 at the end), where NumPy's ``a[..., None]`` gives 0."""
    stride = a.shape[dim] * a.strides[dim] if dim < a.ndim else a.itemsize
    return xp.lib.stride_tricks.as_strided(a, a.shape[:dim] + (1,) + a.shape[dim:],
                                           a.strides[:dim] + (stride,) + a.strides[dim:])


class Unsqueeze(Op):
    is_view = True

    @staticmethod
    def forward(ctx: Unsqueeze, a: Any, *, dim: int) -> Any:
        ctx.shape = a.shape
        return unsqueezed(ctx.xp, a, dim)

    @staticmethod
    def backward(ctx: Unsqueeze, g: Any) -> Any:
        return g.reshape(ctx.shape)


class UnsqueezeInplace(Unsqueeze, node_name="UnsqueezeBackward1"):
    pass


class TransposeInplace(Transpose, node_name="TransposeBackward1"):
    pass


class MatrixTransposeInplace(MatrixTranspose, node_name="TBackward1"):
    pass


# The in-place forms' nodes (``t_``, ``transpose_``, ``squeeze_``, ``unsqueeze_``): the view op's, under
# PyTorch's name for the in-place form.
INPLACE_FORMS = {Squeeze: SqueezeInplace, SqueezeDim: SqueezeDimInplace, SqueezeDims: SqueezeDimsInplace,
                 Unsqueeze: UnsqueezeInplace, Transpose: TransposeInplace, MatrixTranspose: MatrixTransposeInplace}


def _expanded_strides(a: Any, shape: tuple) -> tuple:
    """PyTorch's strides (in bytes) of ``a`` expanded to ``shape``: 0 where a size grows, a kept dimension's
    own stride, and a new size-1 leading dimension's the row-major one (NumPy gives both of the last 0)."""
    strides = [0] * len(shape)
    for i in reversed(range(len(shape))):
        old = a.ndim - len(shape) + i
        if old >= 0:
            strides[i] = a.strides[old] if a.shape[old] == shape[i] else 0
        elif shape[i] == 1:
            strides[i] = shape[i + 1] * strides[i + 1] if i + 1 < len(shape) else a.itemsize
    return tuple(strides)


class Expand(Op):
    """A broadcast view; the engine sums the gradient back over the broadcast dimensions."""

    is_view = True

    @staticmethod
    def forward(ctx: Expand, a: Any, *, shape: tuple) -> Any:
        # writable where ``a`` is, as PyTorch's: in-place writes check for repeated memory themselves
        return ctx.xp.lib.stride_tricks.as_strided(a, shape, _expanded_strides(a, shape))

    @staticmethod
    def backward(ctx: Expand, g: Any) -> Any:
        return g


class Slice(Op):
    """The elements ``start:stop`` along ``dim`` (a view); the gradient is zero-padded back."""

    is_view = True

    @staticmethod
    def forward(ctx: Slice, a: Any, *, dim: int, start: int, stop: int) -> Any:
        ctx.shape, ctx.dim, ctx.start, ctx.stop = a.shape, dim, start, stop
        return a[(slice(None),) * dim + (slice(start, stop),)]

    @staticmethod
    def backward(ctx: Slice, g: Any) -> Any:
        widths = [(0, 0)] * len(ctx.shape)
        widths[ctx.dim] = (ctx.start, ctx.shape[ctx.dim] - ctx.stop)
        return ConstantPadNd.call(g, widths=tuple(widths))


class Split(MultiOutputOp):
    """The pieces ``bounds[k]:bounds[k + 1]`` along ``dim``, views of the input under one node
    (``split(int)``, ``chunk``); the gradient is the pieces' gradients concatenated."""

    outputs_are_views = True

    @staticmethod
    def forward(ctx: Split, a: Any, *, dim: int, bounds: tuple) -> Any:
        ctx.dim = dim
        lead = (slice(None),) * dim
        return tuple([a[lead + (slice(start, stop),)] for start, stop in zip(bounds, bounds[1:])])

    @staticmethod
    def backward(ctx: Split, grads: Any) -> Any:
        return ctx.xp.concatenate(ctx.filled(grads), ctx.dim)


class SplitWithSizes(Split):
    """``split(list of sizes)``."""


class UnsafeSplit(Split):
    """``unsafe_split`` / ``unsafe_chunk``: the pieces share the input's memory, but autograd does not
    treat them as views (PyTorch's RNN cells split their gates so)."""

    outputs_are_views = False


class UnsafeSplitWithSizes(UnsafeSplit):
    pass


class Unbind(MultiOutputOp):
    """The slices along ``dim`` without that dimension, views of the input under one node; the
    gradient is the slices' gradients stacked."""

    outputs_are_views = True

    @staticmethod
    def forward(ctx: Unbind, a: Any, *, dim: int) -> Any:
        ctx.dim = dim
        lead = (slice(None),) * dim
        return tuple([a[lead + (index, Ellipsis)] for index in range(a.shape[dim])])  # Ellipsis: 0-d stays a view

    @staticmethod
    def backward(ctx: Unbind, grads: Any) -> Any:
        return ctx.xp.stack(ctx.filled(grads), ctx.dim)


# --------------------------------------------------------------------------- copies
def copy_in_order(xp: Any, a: Any, order: list | None) -> Any:
    """A copy of the array ``a`` with its dimensions laid out from the outermost in memory as ``order`` says
    (None: row-major)."""
    if order is None:
        return a.copy()
    out = xp.empty(tuple(a.shape[d] for d in order), a.dtype).transpose(tuple(np.argsort(order)))
    out[...] = a
    return out


class Clone(Op):
    @staticmethod
    def forward(ctx: Clone, a: Any, *, order: list | None) -> Any:
        return copy_in_order(ctx.xp, a, order)

    @staticmethod
    def backward(ctx: Clone, g: Any) -> Any:
        return g


class Relayout(Clone, node_name="ToCopyBackward0"):
    """``to(memory_format=...)``'s copy into another layout: PyTorch's node for it is its copy's."""


class Repeat(Op):
    @staticmethod
    def forward(ctx: Repeat, a: Any, *, repeats: tuple) -> Any:
        ctx.shape, ctx.repeats = a.shape, repeats
        return ctx.xp.tile(a, repeats)

    @staticmethod
    def backward(ctx: Repeat, g: Any) -> Any:
        # The output's dimension i is repeats[i] copies of the input's; split it into
        # (copy, element) pairs and sum over the copies.
        shape = (1,) * (len(ctx.repeats) - len(ctx.shape)) + ctx.shape
        pairs: list = []
        for r, n in zip(ctx.repeats, shape):
            pairs += (r, n)
        return ctx.xp.sum(g.reshape(tuple(pairs)), axis=tuple(range(0, len(pairs), 2)))


class Flip(Op):
    @staticmethod
    def forward(ctx: Flip, a: Any, *, dims: tuple) -> Any:
        ctx.dims = dims
        return ctx.xp.flip(a, dims).copy()  # NumPy's flip is a view; PyTorch's flip copies

    @staticmethod
    def backward(ctx: Flip, g: Any) -> Any:
        return ctx.xp.flip(g, ctx.dims)


class ConstantPadNd(Op):
    """Pads with a constant: ``widths[i] = (before, after)`` elements along dimension i."""

    suggests_format = True

    @staticmethod
    def forward(ctx: ConstantPadNd, a: Any, *, widths: tuple, value: Any = 0) -> Any:
        ctx.widths = widths
        # A fill and one copy into the interior: NumPy's pad takes several passes and ~10x longer on
        # the small slices of an RNN's per-step split.
        out = ctx.xp.full(tuple(n + before + after for n, (before, after) in zip(a.shape, widths)), value, a.dtype)
        out[tuple(slice(before, before + n) for n, (before, _) in zip(a.shape, widths))] = a
        return out

    @staticmethod
    def backward(ctx: ConstantPadNd, g: Any) -> Any:
        xp = ctx.xp
        for axis, (before, after) in enumerate(ctx.widths):
            if before or after:
                g = xp.split(g, [before, g.shape[axis] - after], axis=axis)[1]
        return g


class Cat(Op):
    row_major = True

    @staticmethod
    def forward(ctx: Cat, *arrays: Any, dim: int, dtype: Any) -> Any:
        ctx.dim = dim
        ctx.sizes = [a.shape[dim] for a in arrays]
        return ctx.xp.concatenate([a if a.dtype == dtype else a.astype(dtype) for a in arrays], axis=dim)

    @staticmethod
    def backward(ctx: Cat, g: Any) -> tuple:
        # one slice per input (PyTorch's narrow: SliceBackward0 nodes under create_graph)
        pieces, start, lead = [], 0, (slice(None),) * ctx.dim
        for n in ctx.sizes:
            pieces.append(g[lead + (slice(start, start + n),)])
            start += n
        return tuple(pieces)


class Stack(Op):
    row_major = True

    @staticmethod
    def forward(ctx: Stack, *arrays: Any, dim: int, dtype: Any) -> Any:
        ctx.dim, ctx.shape = dim, arrays[0].shape
        return ctx.xp.stack([a if a.dtype == dtype else a.astype(dtype) for a in arrays], axis=dim)

    @staticmethod
    def backward(ctx: Stack, g: Any) -> tuple:
        return tuple(piece.reshape(ctx.shape) for piece in ctx.xp.split(g, g.shape[ctx.dim], axis=ctx.dim))


# --------------------------------------------------------------------------- argument parsing
def _int_tuple(name: str, values: tuple) -> tuple:
    """Sizes or dims given as varargs ``f(2, 3)`` or as one sequence ``f((2, 3))``."""
    if len(values) == 1 and not isinstance(values[0], int):
        values = values[0]
    try:
        for v in values:
            if type(v) is not int:  # NumPy integers, 0-dim integer tensors
                return tuple([operator.index(v) for v in values])
        return tuple(values)
    except TypeError:
        raise TypeError(f"{name}(): expected a tuple of ints, but got {values!r}") from None


def _infer_size(shape: tuple, numel: int) -> tuple:
    """``shape`` with its -1 entry (if any) replaced by the size that keeps ``numel`` elements."""
    inferred, known = None, 1
    for i, n in enumerate(shape):
        if n == -1:
            if inferred is not None:
                raise RuntimeError("only one dimension can be inferred")
            inferred = i
        elif n >= 0:
            known *= n
        else:
            raise RuntimeError(f"invalid shape dimension {n} at index {i} of shape {list(shape)}")
    if inferred is None:
        if known == numel:
            return shape
    elif known != 0 and numel % known == 0:
        return shape[:inferred] + (numel // known,) + shape[inferred + 1:]
    elif numel == 0:
        raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {list(shape)} because the "
                           "unspecified dimension size -1 can be any value and is ambiguous")
    raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")


def _viewable(shape: tuple, strides: tuple, new_shape: tuple) -> bool:
    """Whether ``new_shape`` can view memory laid out with ``strides`` (PyTorch's computeStride).

    The input's dimensions fall into chunks that are contiguous among themselves; a view exists
    when each chunk is exactly covered by consecutive dimensions of the new shape.
    """
    numel = 1
    for n in shape:
        numel *= n
    if numel == 0 or not shape:
        return True
    view_d = len(new_shape) - 1
    chunk_base_stride = strides[-1]
    tensor_numel = view_numel = 1
    for d in range(len(shape) - 1, -1, -1):
        tensor_numel *= shape[d]
        if d == 0 or (shape[d - 1] != 1 and strides[d - 1] != tensor_numel * chunk_base_stride):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return False
            if d > 0:
                chunk_base_stride = strides[d - 1]
                tensor_numel = view_numel = 1
    return view_d == -1


def _wrap_dims(dims: Sequence[int], ndim: int) -> tuple:
    """Dims as non-negative indices; PyTorch's IndexError for one out of range."""
    wrapped = []
    for d in dims:
        if not -ndim <= d < ndim:
            d = wrap_dim(d, ndim)  # raises, except for the dims PyTorch allows on 0-dim tensors
        elif d < 0:
            d += ndim
        wrapped.append(d)
    return tuple(wrapped)


# --------------------------------------------------------------------------- reshaping
def reshape(input: Tensor, *shape: Any) -> Tensor:
    """The elements of ``input`` in shape ``shape`` (one entry may be -1: inferred).

    A view sharing storage when the memory layout allows it (ViewBackward0 of a row-major input,
    else ReshapeAliasBackward0), else a row-major copy reshaped (UnsafeViewBackward0 of
    CloneBackward0, as in PyTorch). Accepts ``reshape(2, 3)`` or
    ``reshape((2, 3))``.
    """
    return _reshape(input, _infer_size(_int_tuple("reshape", shape), input._data.size))


def _reshape(input: Tensor, shape: tuple) -> Tensor:
    a = input._data
    if a.flags.c_contiguous:
        return View.apply(input, shape=shape)
    if _viewable(a.shape, a.strides, shape):
        return ReshapeAlias.apply(input, shape=shape)
    # As PyTorch: a contiguous copy (CloneBackward0), then an unsafe view of it (UnsafeViewBackward0).
    return UnsafeView.apply(Clone.apply(input, order=None), shape=shape)


def view(input: Tensor, *shape: Any) -> Tensor:
    """A view of ``input`` with shape ``shape`` (one entry may be -1), sharing its storage.

    Raises when the memory layout cannot be viewed in that shape (e.g. flattening a transposed
    matrix); ``reshape`` copies in that case.
    """
    a = input._data
    shape = _infer_size(_int_tuple("view", shape), a.size)
    if not (a.flags.c_contiguous or _viewable(a.shape, a.strides, shape)):
        raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one "
                           "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
    return View.apply(input, shape=shape)


def view_dtype(input: Tensor, dtype: dtypes.dtype) -> Tensor:
    """``input``'s memory read as elements of ``dtype`` (``Tensor.view(dtype)``). With a smaller element
    size the last dimension (of stride 1) grows by the ratio of the sizes, with a larger one it shrinks by it.
    As in PyTorch the result is outside the graph (no gradient flows through a reinterpretation), but it
    shares ``input``'s version counter: writing through it bumps ``input``'s version."""
    a = input._data
    new = dtype.numpy
    if new.itemsize != a.itemsize:
        _check_reinterpretable(a, new)
    return _graph.wrap(a.view(new), None, False, input._version_counter())


def _check_reinterpretable(a: Any, new: Any) -> None:
    """PyTorch's conditions for viewing ``a`` with elements of another size."""
    what = (f"to view {dtypes.scalar_type_name(a.dtype)} as {dtypes.scalar_type_name(new)} "
            "(different element sizes)")
    if a.ndim == 0:
        raise RuntimeError(f"self.dim() cannot be 0 {what}")
    last = a.strides[-1] // a.itemsize
    if last != 1:
        raise RuntimeError(f"self.stride(-1) must be 1 {what}, but got {last}")
    ratio = new.itemsize // a.itemsize
    if ratio > 1:
        checks = [("size(-1)", a.shape[-1]), ("storage_offset()", storage_of(a)[1])]
        checks += [(f"stride({i})", stride // a.itemsize) for i, stride in enumerate(a.strides[:-1])]
        for name, value in checks:
            if value % ratio:
                raise RuntimeError(f"self.{name} must be divisible by {ratio} {what}, but got {value}")


def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """Merges dimensions ``start_dim..end_dim`` into one: ``(2, 3, 4).flatten(1) -> (2, 12)``.

    Returns ``input`` itself when there is nothing to merge; a 0-dim tensor becomes 1-D.
    """
    shape = input._data.shape
    ndim = len(shape)
    start, end = wrap_dim(start_dim, ndim), wrap_dim(end_dim, ndim)
    if ndim == 0:
        return _reshape(input, (1,))
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return input
    merged = 1
    for n in shape[start:end + 1]:
        merged *= n
    return _reshape(input, shape[:start] + (merged,) + shape[end + 1:])


def unflatten(input: Tensor, dim: int, sizes: Sequence[int]) -> Tensor:
    """Splits dimension ``dim`` into ``sizes`` (one may be -1): ``(2, 12).unflatten(1, (3, 4)) -> (2, 3, 4)``.
    Always a view."""
    shape = input._data.shape
    d = wrap_dim(dim, len(shape))
    sizes = _int_tuple("unflatten", (sizes,))
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    product = 1
    for n in sizes:
        product *= n
    if -1 not in sizes and product != shape[d]:
        raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {dim} "
                           f"({shape[d]}) in the input tensor")
    sizes = _infer_size(sizes, shape[d])
    return View.apply(input, shape=shape[:d] + sizes + shape[d + 1:])


def transpose(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """A view with dimensions ``dim0`` and ``dim1`` swapped."""
    ndim = input._data.ndim
    return Transpose.apply(input, dim0=wrap_dim(dim0, ndim), dim1=wrap_dim(dim1, ndim))


swapaxes = swapdims = transpose


def t(input: Tensor) -> Tensor:
    """The transpose of a matrix (a view); 0-D and 1-D tensors are returned as they are."""
    if input._data.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input._data.ndim}D")
    return MatrixTranspose.apply(input)


def permute(input: Tensor, *dims: Any) -> Tensor:
    """A view with the dimensions reordered: ``out.shape[i] == input.shape[dims[i]]``."""
    dims = _int_tuple("permute", dims)
    ndim = input._data.ndim
    if len(dims) != ndim:
        raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does not match the "
                           "length of the desired ordering of dimensions i.e. input.dim() = "
                           f"{ndim} is not equal to len(dims) = {len(dims)}")
    dims = _wrap_dims(dims, ndim)
    if len(set(dims)) != ndim:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return Permute.apply(input, dims=dims)


def movedim(input: Tensor, source: int | Sequence[int], destination: int | Sequence[int]) -> Tensor:
    """A view with dimensions ``source`` moved to positions ``destination``; the other dimensions
    keep their order."""
    ndim = input._data.ndim
    source = (source,) if isinstance(source, int) else tuple(source)
    destination = (destination,) if isinstance(destination, int) else tuple(destination)
    if len(source) != len(destination):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({list(source)} dims) should "
                           f"contain the same number of dims as destination ({list(destination)} dims)")
    src, dst = _wrap_dims(source, ndim), _wrap_dims(destination, ndim)
    for name, dims, given in (("source", src, source), ("destination", dst, destination)):
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({list(given)})")
    if ndim == 0:  # dims 0 and -1 of a 0-dim tensor name no axis
        return Permute.apply(input, dims=())
    order = [d for d in range(ndim) if d not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return Permute.apply(input, dims=tuple(order))


moveaxis = movedim


def squeeze(input: Tensor, dim: int | Sequence[int] | None = None) -> Tensor:
    """A view without the size-1 dimensions: all of them, or those among ``dim`` (an int or a
    tuple); dimensions of other sizes in ``dim`` are left alone."""
    shape = input._data.shape
    ndim = len(shape)
    if dim is None:
        return Squeeze.apply(input, axes=tuple(i for i, n in enumerate(shape) if n == 1))
    if isinstance(dim, int):
        d = wrap_dim(dim, ndim)
        return SqueezeDim.apply(input, axes=(d,) if ndim and shape[d] == 1 else ())
    wrapped = _wrap_dims(dim, ndim)
    dims = sorted(set(wrapped))
    if len(dims) != len(wrapped):
        repeated = next(d for d in wrapped if wrapped.count(d) > 1)
        raise RuntimeError(f"dim {repeated} appears multiple times in the list of dims")
    return SqueezeDims.apply(input, axes=tuple(d for d in dims if ndim and shape[d] == 1))


def unsqueeze(input: Tensor, dim: int) -> Tensor:
    """A view with a size-1 dimension inserted at ``dim`` (in ``[-input.dim() - 1, input.dim()]``)."""
    return Unsqueeze.apply(input, dim=wrap_dim(dim, input._data.ndim + 1))


# --------------------------------------------------------------------------- broadcasting
def expand(input: Tensor, *sizes: Any) -> Tensor:
    """A view with size-1 dimensions repeated (no copy) to ``sizes``; new leading dimensions may be
    added and -1 keeps a dimension's size."""
    sizes = _int_tuple("expand", sizes)
    shape = input._data.shape
    lead = len(sizes) - len(shape)
    if lead < 0:
        raise RuntimeError(f"expand({_graph.type_string(input._data)}{{{list(shape)}}}, size={list(sizes)}): the "
                           f"number of sizes provided ({len(sizes)}) must be greater or equal to the number of "
                           f"dimensions in the tensor ({len(shape)})")
    target = list(sizes)
    for i, n in enumerate(sizes):
        if i < lead:
            if n < 0:
                raise RuntimeError(f"The expanded size of the tensor ({n}) isn't allowed in a leading, "
                                   f"non-existing dimension {i}")
            continue
        existing = shape[i - lead]
        if n == -1:
            target[i] = existing
        elif n != existing and (existing != 1 or n < 0):
            raise RuntimeError(f"The expanded size of the tensor ({n}) must match the existing size ({existing}) "
                               f"at non-singleton dimension {i}.  Target sizes: {list(sizes)}.  "
                               f"Tensor sizes: {list(shape)}")
    return Expand.apply(input, shape=tuple(target))


def broadcast_to(input: Tensor, size: Sequence[int]) -> Tensor:
    """``input`` expanded (a view) to shape ``size``, by the broadcasting rules."""
    return expand(input, size)


def broadcast_shapes(*shapes: Any) -> Size:
    """The shape that tensors of shapes ``shapes`` broadcast to."""
    result: list = []
    for index, shape in enumerate(shapes):
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        if len(shape) > len(result):
            result = [1] * (len(shape) - len(result)) + result
        for k in range(1, len(shape) + 1):
            n, have = shape[-k], result[-k]
            if have == 1:
                result[-k] = n
            elif n != 1 and n != have:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {n} at {-k}! Mismatching "
                                   f"argument at index {index} had {shape}; but expected shape should be "
                                   f"broadcastable to {result}")
    return Size(result)


def broadcast_pair(a: tuple, b: tuple) -> tuple:
    """The broadcast shape of two tensors, with PyTorch's message for tensors that don't broadcast."""
    ndim = max(len(a), len(b))
    a, b = (1,) * (ndim - len(a)) + tuple(a), (1,) * (ndim - len(b)) + tuple(b)
    out = []
    for i, (m, n) in enumerate(zip(a, b)):
        if m != n and m != 1 and n != 1:
            raise RuntimeError(f"The size of tensor a ({m}) must match the size of tensor b ({n}) at "
                               f"non-singleton dimension {i}")
        out.append(n if m == 1 else m)
    return tuple(out)


def broadcast_tensors(*tensors: Tensor) -> tuple:
    """The tensors expanded (views) to their common broadcast shape."""
    shape: tuple = ()
    for tensor in tensors:
        shape = broadcast_pair(shape, tensor._data.shape)
    return tuple(tensor if tensor._data.shape == shape else Expand.apply(tensor, shape=shape) for tensor in tensors)


def repeat(input: Tensor, *repeats: Any) -> Tensor:
    """A copy tiled ``repeats[i]`` times along dimension i (extra leading repeats add dimensions):
    ``(2, 3).repeat(2, 1, 2) -> (2, 2, 6)``."""
    repeats = _int_tuple("repeat", repeats)
    shape = input._data.shape
    if len(repeats) < len(shape):
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions "
                           "of tensor")
    if any(r < 0 for r in repeats):
        padded = (1,) * (len(repeats) - len(shape)) + shape
        target = [r * n for r, n in zip(repeats, padded)]
        bad = next(n for n in target if n < 0)
        raise RuntimeError(f"Trying to create tensor with negative dimension {bad}: {target}")
    return Repeat.apply(input, repeats=repeats)


def tile(input: Tensor, dims: Sequence[int]) -> Tensor:
    """``repeat`` where fewer ``dims`` than the tensor's dimensions count from the last one."""
    dims = _int_tuple("tile", (dims,) if isinstance(dims, int) else tuple(dims))
    return repeat(input, (1,) * (input._data.ndim - len(dims)) + dims)


def flip(input: Tensor, *args: Any, dims: Any = None) -> Tensor:
    """A copy with the order of the elements reversed along ``dims`` (ints, a sequence, or ``dims=``)."""
    dims = _int_tuple("flip", args if dims is None else (dims,))
    ndim = input._data.ndim
    wrapped = _wrap_dims(dims, ndim) if ndim else ()  # dims 0 and -1 of a 0-dim tensor name no axis
    if len(set(wrapped)) != len(wrapped):
        repeated = next(d for d in wrapped if wrapped.count(d) > 1)
        raise RuntimeError(f"dim {repeated} appears multiple times in the list of dims")
    return Flip.apply(input, dims=wrapped)


# --------------------------------------------------------------------------- slicing
def narrow(input: Tensor, dim: int, start: int, length: int) -> Tensor:
    """A view of ``length`` elements from ``start`` along ``dim``."""
    shape = input._data.shape
    if not shape:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, len(shape))
    size = shape[d]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    start = start % size if start < 0 else start
    if length < 0 or start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return Slice.apply(input, dim=d, start=start, stop=start + length)


def tensor_split(input: Tensor, indices_or_sections: Any, dim: int = 0) -> tuple:
    """Views of ``input`` cut along ``dim``: into ``n`` nearly equal pieces (the first ``size % n``
    one longer) for an int ``n``, or at the listed indices (a list or a 1-D integer tensor)."""
    if isinstance(indices_or_sections, _graph.Tensor):
        indices_or_sections = indices_or_sections.tolist()
    if input._data.ndim == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    d = wrap_dim(dim, input._data.ndim)
    size = input._data.shape[d]
    if isinstance(indices_or_sections, int):
        n = indices_or_sections
        if n <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {n}")
        lengths = [size // n + 1] * (size % n) + [size // n] * (n - size % n)
        cuts = [sum(lengths[:k]) for k in range(1, n)]
    else:
        cuts = list(indices_or_sections)
    bounds = [min(max(c, 0), size) for c in cuts]
    starts, stops = [0, *bounds], [*bounds, size]
    return tuple(narrow(input, d, start, max(stop - start, 0)) for start, stop in zip(starts, stops))


def _split_along(name: str, dim: int, min_dims: int) -> Any:
    def split_along(input: Tensor, indices_or_sections: Any) -> tuple:
        ndim = input._data.ndim
        if ndim < min_dims:
            raise RuntimeError(f"torch.{name} requires a tensor with at least {min_dims} dimension, but got a "
                               f"tensor with {ndim} dimensions!")
        along = 0 if name == "hsplit" and ndim == 1 else dim
        size = input._data.shape[along]
        if isinstance(indices_or_sections, int) and indices_or_sections and size % indices_or_sections:
            raise RuntimeError(f"torch.{name} attempted to split along dimension {along}, but the size of the "
                               f"dimension {size} is not divisible by the split_size {indices_or_sections}!")
        return tensor_split(input, indices_or_sections, along)
    split_along.__name__ = split_along.__qualname__ = name
    split_along.__doc__ = f"``tensor_split`` along dimension {dim}, into equal pieces when given an int."
    return split_along


hsplit = _split_along("hsplit", 1, 1)
vsplit = _split_along("vsplit", 0, 2)
dsplit = _split_along("dsplit", 2, 3)


def split(tensor: Tensor, split_size_or_sections: int | Sequence[int], dim: int = 0) -> tuple:
    """Views of consecutive pieces along ``dim``: of ``split_size_or_sections`` elements each (the
    last may be smaller), or of the listed sizes (which must add up to the dimension's size)."""
    return _split(tensor, split_size_or_sections, dim, Split, SplitWithSizes, "split")


def unsafe_split(tensor: Tensor, split_size_or_sections: int | Sequence[int], dim: int = 0) -> tuple:
    """``split`` whose pieces autograd does not treat as views of ``tensor`` (so each may be
    modified in place); they share its memory all the same."""
    return _split(tensor, split_size_or_sections, dim, UnsafeSplit, UnsafeSplitWithSizes, "unsafe_split")


def _split(tensor: Tensor, split_size_or_sections: int | Sequence[int], dim: int, even: type[Split],
           sized: type[Split], name: str) -> tuple:
    shape = tensor._data.shape
    if not shape:
        raise RuntimeError(f"{name} expects at least a 1-dimensional tensor")
    d = wrap_dim(dim, len(shape))
    size = shape[d]
    if isinstance(split_size_or_sections, int):
        step = split_size_or_sections
        if step < 0:
            raise RuntimeError(f"split expects split_size be non-negative, but got split_size={step}")
        if step == 0 and size != 0:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}")
        bounds = (*range(0, size, step), size) if size else (0, 0)
        return even.apply(tensor, dim=d, bounds=bounds)
    sizes = _int_tuple("split_with_sizes", (split_size_or_sections,))
    if any(n < 0 for n in sizes):
        raise RuntimeError(f"split_with_sizes expects split_sizes have only non-negative entries, but got "
                           f"split_sizes={list(sizes)}")
    if sum(sizes) != size:
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size "
                           f"at dimension {d}), but got split_sizes={list(sizes)}")
    bounds = (0,)
    for n in sizes:
        bounds += (bounds[-1] + n,)
    return sized.apply(tensor, dim=d, bounds=bounds) if sizes else ()


def split_with_sizes(input: Tensor, split_sizes: Sequence[int], dim: int = 0) -> tuple:
    """Views of the consecutive pieces of the sizes ``split_sizes`` along ``dim`` (which must add up to
    its size)."""
    return _split(input, list(split_sizes), dim, Split, SplitWithSizes, "split")


def chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple:
    """At most ``chunks`` views of equal size ``ceil(size / chunks)`` along ``dim`` (the last may be
    smaller, and fewer pieces come back when the size does not need them all)."""
    return _chunk(input, chunks, dim, split)


def unsafe_chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple:
    """``chunk`` whose pieces autograd does not treat as views (see ``unsafe_split``)."""
    return _chunk(input, chunks, dim, unsafe_split)


def _chunk(input: Tensor, chunks: int, dim: int, splitter: Any) -> tuple:
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    shape = input._data.shape
    if not shape:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    size = shape[wrap_dim(dim, len(shape))]
    if size == 0:
        return splitter(input, [0] * chunks, dim)
    return splitter(input, -(-size // chunks), dim)


def unbind(input: Tensor, dim: int = 0) -> tuple:
    """The slices along ``dim`` with that dimension removed, as views: ``(3, 4).unbind(0)`` is three
    tensors of shape ``(4,)``."""
    shape = input._data.shape
    if not shape:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    d = wrap_dim(dim, len(shape))
    return Unbind.apply(input, dim=d) if shape[d] else ()


# --------------------------------------------------------------------------- copies
def clone(input: Tensor, *, memory_format: Any = None) -> Tensor:
    """A copy with its own storage, in the graph (its gradient is the output's), laid out in memory as
    ``input`` is (PyTorch's default ``preserve_format``), or as ``memory_format`` says (see
    ``creation.format_order``)."""
    try:
        order = creation.format_order(input._data, memory_format)
    except _graph.SparseInput:  # a sparse tensor has no strides: its copy (``COO.copy``) keeps its layout
        order = None
    return Clone.apply(input, order=order)


def ravel(input: Tensor) -> Tensor:
    """The elements as a 1-D tensor: ``contiguous().view(-1)`` (a view when they are already in order)."""
    return view(contiguous(input), -1)


def contiguous(input: Tensor, memory_format: Any = None) -> Tensor:
    """``input`` itself when its elements are laid out in ``memory_format`` (row-major by default, or
    ``channels_last`` / ``channels_last_3d``), else a copy so laid out."""
    if is_contiguous(input._data, memory_format):
        return input
    return Clone.apply(input, order=creation.format_order(input._data, memory_format or contiguous_format))


def is_contiguous(data: Any, memory_format: Any = None) -> bool:
    """Whether the array ``data`` is laid out densely in ``memory_format`` (row-major by default)."""
    if memory_format in _ROW_MAJOR:
        return bool(data.flags.c_contiguous)
    return is_channels_last(data.shape, data.strides, data.itemsize, memory_format)


_ROW_MAJOR = (None, contiguous_format, preserve_format)


def constant_pad_nd(input: Tensor, pad: Sequence[int], value: Any = 0) -> Tensor:
    """Pads with ``value``: ``pad = (last_before, last_after, second_last_before, ...)``, pairs from
    the last dimension backwards. Negative amounts remove elements."""
    pad = _int_tuple("constant_pad_nd", (pad,))
    ndim = input._data.ndim
    if len(pad) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    if len(pad) // 2 > ndim:
        raise RuntimeError("Length of pad should be no more than twice the number of dimensions of the input. "
                           f"Pad length is {len(pad)} while the input has {ndim} dimensions.")
    widths = [(0, 0)] * ndim
    for i in range(len(pad) // 2):
        widths[ndim - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    for d, (before, after) in enumerate(widths):
        if before < 0 or after < 0:  # cropping first
            size = input._data.shape[d]
            input = narrow(input, d, max(-before, 0), size - max(-before, 0) - max(-after, 0))
    return pad_widths(input, tuple((max(b, 0), max(a, 0)) for b, a in widths), value)


def pad_widths(input: Tensor, widths: Sequence[tuple], value: Any = 0) -> Tensor:
    """Pads with ``value`` by NumPy's ``pad_width``: ``widths[i] = (before, after)`` for dimension i."""
    return ConstantPadNd.apply(input, widths=tuple(tuple(w) for w in widths), value=value)


# --------------------------------------------------------------------------- joining
def _tensor_list(name: str, tensors: Any) -> list:
    if isinstance(tensors, _graph.Tensor) or not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not "
                        f"{type(tensors).__name__}")
    for i, tensor in enumerate(tensors):
        if not isinstance(tensor, _graph.Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(tensor).__name__}")
    return list(tensors)


def _common_dtype(tensors: list) -> Any:
    """The NumPy dtype that PyTorch's promotion gives the joined tensors."""
    first = tensors[0]._data.dtype
    if all(t._data.dtype == first for t in tensors):
        return first
    return dtypes.result_type(*((t.dtype, 1) for t in tensors)).numpy


def cat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """The tensors joined along the existing dimension ``dim``; the other sizes must match.
    Dtypes promote; 1-D empty tensors are skipped (PyTorch's legacy rule)."""
    tensors = _tensor_list("cat", tensors)
    if not tensors:
        raise ValueError("cat(): expected a non-empty list of Tensors")
    for i, tensor in enumerate(tensors):
        if tensor._data.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    dtype = _common_dtype(tensors)  # the skipped empty tensors take part in type promotion, as in PyTorch
    kept = [t for t in tensors if t._data.shape != (0,)] or tensors[:1]
    if len(kept) < len(tensors):
        tensors = kept
    first = tensors[0]._data.shape
    d = wrap_dim(dim, len(first))
    for i, tensor in enumerate(tensors[1:], 1):
        shape = tensor._data.shape
        if len(shape) != len(first):
            raise RuntimeError(f"Tensors must have same number of dimensions: got {len(first)} and {len(shape)}")
        for k, (expected, got) in enumerate(zip(first, shape)):
            if k != d and expected != got:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. Expected size {expected} "
                                   f"but got size {got} for tensor number {i} in the list.")
    return Cat.apply(*tensors, dim=d, dtype=dtype)


def concatenate(tensors: Sequence[Tensor], axis: int = 0) -> Tensor:
    """Alias of ``cat`` with NumPy's argument name."""
    return cat(tensors, axis)


concat = cat


def stack(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """The tensors (all of one shape) joined along a new dimension ``dim``: n tensors of shape
    ``(a, b)`` stack to ``(n, a, b)`` at dim 0. Dtypes promote."""
    tensors = _tensor_list("stack", tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    first = tensors[0]._data.shape
    for i, tensor in enumerate(tensors[1:], 1):
        if tensor._data.shape != first:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(first)} at entry 0 and "
                               f"{list(tensor._data.shape)} at entry {i}")
    d = wrap_dim(dim, len(first) + 1)
    return Stack.apply(*tensors, dim=d, dtype=_common_dtype(tensors))


def hstack(tensors: Sequence[Tensor]) -> Tensor:
    """The tensors joined column-wise: along dim 1, or dim 0 for 1-D tensors (0-D become 1-D)."""
    tensors = [t if t._data.ndim else _reshape(t, (1,)) for t in _tensor_list("hstack", tensors)]
    return cat(tensors, 0 if tensors and tensors[0]._data.ndim == 1 else 1)


def vstack(tensors: Sequence[Tensor]) -> Tensor:
    """The tensors joined row-wise along dim 0; 1-D tensors of length n become rows ``(1, n)``."""
    tensors = [t if t._data.ndim > 1 else _reshape(t, (1, t._data.size)) for t in _tensor_list("vstack", tensors)]
    return cat(tensors, 0)
