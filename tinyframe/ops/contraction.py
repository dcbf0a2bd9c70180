"""Products that contract or combine dimensions: einsum, tensordot, cross, kron, cdist, and the
fused ``beta * input + alpha * product`` forms addmm, addmv, addr, baddbmm, addbmm.

``einsum`` is one op whose gradient for each operand is again an einsum (of the output's gradient
with the other operands), written onto the diagonal where the operand repeats a label; the others
are composed from existing ops (matmul, reshape, vector norm), so their gradients and higher
derivatives follow.
"""
from __future__ import annotations

import math
import string
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _autocast, _graph, dtypes
from .._dims import wrap_dim
from .._graph import Op
from ..device import array_module_of
from . import binary, indexing, linalg, reduction, shape
from ._composite import composed, on_tensors
from .complex import conj, conj_of

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["einsum", "tensordot", "cross", "kron", "cdist", "addmm", "addmv", "addr", "baddbmm", "addbmm"]


# ------------------------------------------------------------------------------------------- einsum
class Einsum(Op):
    """``numpy.einsum`` of operands whose subscripts are letters (no ellipsis, sizes agreeing); applied
    through its subclasses below, which carry PyTorch's node names."""

    @staticmethod
    def forward(ctx: Einsum, *arrays: Any, inputs: tuple, output: str, sizes: dict) -> Any:
        ctx.inputs, ctx.output, ctx.sizes = inputs, output, sizes
        ctx.save_for_backward(*arrays)
        return ctx.xp.einsum(f"{','.join(inputs)}->{output}", *arrays)

    @staticmethod
    def backward(ctx: Einsum, g: Any) -> tuple:
        return on_tensors(ctx, _einsum_grads, g)


# PyTorch's einsum is composed of other ops; its result's node is that of the last one: a sum or a permute
# for one operand, and for several the view after a contraction or the product when nothing is summed.
class _SummedEinsum(Einsum, node_name="SumBackward1"):
    pass


class _PermutedEinsum(Einsum, node_name="PermuteBackward0"):
    pass


class _ContractedEinsum(Einsum, node_name="ViewBackward0"):
    pass


class _MultipliedEinsum(Einsum, node_name="MulBackward0"):
    pass


def _einsum_op(inputs: tuple, output: str) -> type[Einsum]:
    """The Einsum named as PyTorch's composition would name the node of ``inputs -> output``."""
    summed = any(label not in output for labels in inputs for label in labels)
    if len(inputs) == 1:
        return _SummedEinsum if summed else _PermutedEinsum
    return _ContractedEinsum if summed else _MultipliedEinsum


def _einsum_grads(ctx: Einsum, g: Tensor, *operands: Tensor) -> tuple:
    needs = ctx.needs_input_grad
    return tuple(_einsum_grad(ctx, g, operands, i) if needs[i] else None for i in range(len(operands)))


def _einsum_grad(ctx: Einsum, g: Tensor, operands: tuple, i: int) -> Tensor:
    """The gradient of operand ``i``: the einsum of ``g`` and the other operands onto its labels."""
    labels = ctx.inputs[i]
    unique = "".join(dict.fromkeys(labels))
    # the conjugates of the other operands: a complex einsum is holomorphic in each operand
    others = [(ctx.inputs[j], conj_of(operands[j])) for j in range(len(operands)) if j != i]
    available = set(ctx.output).union(*(set(s) for s, _ in others))
    reached = "".join(label for label in unique if label in available)
    spec = ",".join([ctx.output] + [s for s, _ in others]) + "->" + reached
    grad_inputs = tuple(spec.split("->")[0].split(","))
    grad = _einsum_op(grad_inputs, reached).apply(g, *(t for _, t in others), inputs=grad_inputs, output=reached,
                                                  sizes=ctx.sizes)
    if reached != unique:  # labels summed within this operand alone: every element gets the gradient
        grad = shape.reshape(grad, [ctx.sizes[label] if label in reached else 1 for label in unique])
        grad = shape.expand(grad, [ctx.sizes[label] for label in unique])
    if unique != labels:  # a repeated label reads a diagonal: write the gradient back onto it
        xp = array_module_of(grad._data)
        index = tuple(_label_positions(xp, unique, label, ctx.sizes[label]) for label in labels)
        grad = indexing.IndexPutImpl.apply(grad, shape=tuple(ctx.sizes[label] for label in labels), index=index,
                                           pre=None)
    return grad


def _label_positions(xp: Any, unique: str, label: str, size: int) -> Any:
    k = unique.index(label)
    return xp.arange(size).reshape((1,) * k + (size,) + (1,) * (len(unique) - k - 1))


def _parse_equation(equation: str, operands: tuple) -> tuple:
    """``(input subscripts, output subscripts)`` with every ``...`` replaced by letters of its own."""
    equation = equation.replace(" ", "")
    lhs, arrow, rhs = equation.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(operands):
        more = len(operands) > len(terms)
        raise RuntimeError("einsum(): more operands were provided than specified in the equation" if more else
                           "einsum(): fewer operands were provided than were specified in the equation")
    free = [c for c in string.ascii_letters if c not in equation]
    ellipsis_ndims = []
    for k, (term, op) in enumerate(zip(terms, operands)):
        named = len(term.replace("...", ""))
        if "..." in term:
            ellipsis_ndims.append(op.ndim - named)
        elif named != op.ndim:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({named}) does not match the "
                               f"number of dimensions ({op.ndim}) for operand {k} and no ellipsis was given")
        else:
            ellipsis_ndims.append(0)
    ellipsis = "".join(free[:max(ellipsis_ndims, default=0)])
    inputs = tuple(term.replace("...", ellipsis[len(ellipsis) - n:] if n else "")
                   for term, n in zip(terms, ellipsis_ndims))
    if arrow:
        output = rhs.replace("...", ellipsis)
        subscripts = rhs.replace("...", "")
        for c in subscripts:  # PyTorch's checks of the output's subscripts
            if subscripts.count(c) > 1:
                raise RuntimeError(f"einsum(): output subscript {c} appears more than once in the output")
            if c not in lhs:
                raise RuntimeError(f"einsum(): output subscript {c} does not appear in the equation for any input "
                                   f"operand")
    else:
        counts: dict = {}
        for term in terms:
            for c in term.replace("...", ""):
                counts[c] = counts.get(c, 0) + 1
        output = ellipsis + "".join(sorted(c for c, n in counts.items() if n == 1))
    for c in "".join(inputs) + output:
        if c not in string.ascii_letters:
            raise RuntimeError(f"einsum(): invalid subscript given at index {equation.index(c)} in the equation "
                               f"string, subscripts must be in [a-zA-Z]")
    return inputs, output


def einsum(equation: Any, *operands: Any) -> Tensor:
    """Sums products of the operands' elements over the subscripts the equation names, as in
    ``einsum("ij,jk->ik", a, b) == a @ b``. Letters label dimensions; ``...`` stands for broadcast
    dimensions; without ``->`` the output has the ``...`` dimensions then the letters that appear
    once, in alphabetical order. A label of size 1 broadcasts against the same label's other size.
    The sublist form ``einsum(a, [0, 1], b, [1, 2], [0, 2])`` labels dimensions with integers in
    ``[0, 52)`` (and ``...`` with ``Ellipsis``)."""
    if not isinstance(equation, str):
        equation, operands = _sublist_equation((equation, *operands))
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    inputs, output = _parse_equation(equation, operands)
    for op in operands[1:]:
        dtypes.check_same(operands[0].dtype, op.dtype)
    sizes: dict = {}
    for k, (labels, op) in enumerate(zip(inputs, operands)):
        for label, n in zip(labels, op.shape):
            seen = sizes.get(label, 1)
            if n != seen and n != 1 and seen != 1:
                raise RuntimeError(f"einsum(): subscript {label} has size {n} for operand {k} which does not "
                                   f"broadcast with previously seen size {seen}")
            sizes[label] = max(seen, n) if n and seen else 0
    expanded = []
    for labels, op in zip(inputs, operands):
        target = [sizes[label] for label in labels]
        expanded.append(op if list(op.shape) == target else shape.expand(op, target))
    einsum_op, dtype = _einsum_op(inputs, output), operands[0].dtype
    if einsum_op is _SummedEinsum and not (dtype.is_floating_point or dtype.is_complex):
        expanded[0] = expanded[0].to(dtypes.int64)  # PyTorch sums: integers and bools add up in int64
    elif einsum_op is _ContractedEinsum and dtype == dtypes.bool_:
        raise NotImplementedError("\"bmm\" not implemented for 'Bool'")  # PyTorch contracts with bmm
    return einsum_op.apply(*expanded, inputs=inputs, output=output, sizes=sizes)


def _sublist_equation(arguments: tuple) -> tuple:
    """``(equation, operands)`` of einsum's sublist form: operands and their subscript lists in turn,
    then the output's list if any; subscripts 0-25 are 'A'-'Z' and 26-51 'a'-'z', as in PyTorch."""
    def letters(sublist: Any) -> str:
        out = []
        for label in sublist:
            if label is Ellipsis:
                out.append("...")
            elif not 0 <= int(label) < 52:
                raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")
            else:
                out.append(chr(ord("A") + label) if label < 26 else chr(ord("a") + label - 26))
        return "".join(out)
    operands, terms = arguments[0::2], [letters(sublist) for sublist in arguments[1::2]]
    if len(arguments) % 2:  # the output's subscripts close the list
        operands, output = operands[:-1], letters(arguments[-1])
        return ",".join(terms) + "->" + output, operands
    return ",".join(terms), operands


# ----------------------------------------------------------------------------- tensordot, kron
def tensordot(a: Tensor, b: Tensor, dims: Any = 2) -> Tensor:
    """Contracts ``dims`` dimensions of ``a`` with as many of ``b``: the last ``dims`` of ``a`` with the
    first ``dims`` of ``b`` for an int, or the listed pairs ``([a dims], [b dims])``."""
    if isinstance(dims, _graph.Tensor):
        dims = dims.tolist()
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > a.ndim or dims > b.ndim:
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a, dims_b = list(range(a.ndim - dims, a.ndim)), list(range(dims))
    else:
        dims_a, dims_b = ([d] if isinstance(d, int) else list(d) for d in dims)
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    dims_a = [wrap_dim(d, a.ndim) for d in dims_a]
    dims_b = [wrap_dim(d, b.ndim) for d in dims_b]
    for da, db in zip(dims_a, dims_b):
        if a.shape[da] != b.shape[db]:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {a.shape[da]} in dim "
                               f"{da} and second has size {b.shape[db]} in dim {db}")
    free_a = [d for d in range(a.ndim) if d not in dims_a]
    free_b = [d for d in range(b.ndim) if d not in dims_b]
    inner = 1
    for d in dims_a:
        inner *= a.shape[d]
    outer_a, outer_b = math.prod(a.shape[d] for d in free_a), math.prod(b.shape[d] for d in free_b)
    left = shape.reshape(shape.permute(a, free_a + dims_a), (outer_a, inner))  # (sizes, not -1: they may be 0)
    right = shape.reshape(shape.permute(b, dims_b + free_b), (inner, outer_b))
    out = linalg.mm(left, right)
    return shape.reshape(out, [a.shape[d] for d in free_a] + [b.shape[d] for d in free_b])


def kron(input: Tensor, other: Tensor) -> Tensor:
    """The Kronecker product: ``out[i*m + k, j*n + l] = input[i, j] * other[k, l]`` for matrices,
    and likewise in every dimension (the shorter shape is padded with leading 1s)."""
    ndim = max(input.ndim, other.ndim)
    a_shape = (1,) * (ndim - input.ndim) + tuple(input.shape)
    b_shape = (1,) * (ndim - other.ndim) + tuple(other.shape)
    # a's dims interleaved with size-1 dims, b's with size-1 dims before: the product pairs them up
    # reshaped as PyTorch's kernel reshapes (UnsafeView nodes)
    a = shape.UnsafeView.apply(input, shape=tuple(n for size in a_shape for n in (size, 1)))
    b = shape.UnsafeView.apply(other, shape=tuple(n for size in b_shape for n in (1, size)))
    return shape.UnsafeView.apply(binary.mul(a, b), shape=tuple(m * n for m, n in zip(a_shape, b_shape)))


# ------------------------------------------------------------------------------------------ cross
class LinalgCross(Op):
    """The cross product of 3-vectors along ``dim`` (inputs broadcast); the gradients are
    ``other x g`` and ``g x input``."""

    @staticmethod
    def forward(ctx: LinalgCross, a: Any, b: Any, *, dim: int) -> Any:
        ctx.dim = dim
        ctx.save_for_backward(a, b)
        return ctx.xp.cross(a, b, axis=dim)

    @staticmethod
    def backward(ctx: LinalgCross, g: Any) -> tuple:
        a, b = ctx.saved_tensors
        needs_a, needs_b = ctx.needs_input_grad
        return (LinalgCross.call(b, g, dim=ctx.dim) if needs_a else None,
                LinalgCross.call(g, a, dim=ctx.dim) if needs_b else None)


def _cross(input: Tensor, other: Tensor, dim: int, name: str) -> Tensor:
    if input.ndim != other.ndim:
        raise RuntimeError(f"{name}: inputs must have the same number of dimensions.")
    d = wrap_dim(dim, input.ndim)
    if input.shape[d] != 3 or other.shape[d] != 3:
        raise RuntimeError(f"{name}: inputs dimension {dim} must have length 3. Got {input.shape[d]} and "
                           f"{other.shape[d]}")
    shape.broadcast_pair(tuple(input.shape), tuple(other.shape))
    dtypes.check_same(input.dtype, other.dtype)  # no promotion, as PyTorch
    dtypes.check_kernel("cross", input.dtype, "uifc")
    return LinalgCross.apply(input, other, dim=d)


def cross(input: Tensor, other: Tensor, dim: int | None = None) -> Tensor:
    """The cross product of the 3-vectors along ``dim`` (the first dimension of size 3 when None, with
    PyTorch's deprecation warning; ``linalg.cross`` defaults to the last)."""
    if dim is None:
        warnings.warn("Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim "
                      "explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to agree "
                      "with that of linalg.cross in a future release.", UserWarning, stacklevel=2)
        sizes = shape.broadcast_pair(tuple(input.shape), tuple(other.shape))
        dim = next((k for k, n in enumerate(sizes) if n == 3), -1)
    return _cross(input, other, dim, "linalg.cross")


def vecdot(x: Tensor, y: Tensor, dim: int) -> Tensor:
    """``linalg.vecdot``: ``sum(conj(x) * y, dim)`` of a floating or complex ``x`` and a ``y`` of its dtype."""
    for argument, value in (("x", x), ("y", y)):
        if not isinstance(value, _graph.Tensor):
            raise TypeError(f"linalg_vecdot(): argument '{argument}' must be Tensor, not {type(value).__name__}")
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        raise RuntimeError(f"linalg.vecdot: Expected a floating point or complex tensor as input. Got "
                           f"{dtypes.scalar_type_name(x.dtype)}")
    if x.dtype != y.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found x of type "
                           f"{dtypes.scalar_type_name(x.dtype)} and y of type {dtypes.scalar_type_name(y.dtype)} "
                           "instead")
    return reduction.sum(binary.mul(conj(x), y), dim)


# ------------------------------------------------------------------------------------------ cdist
def cdist(x1: Tensor, x2: Tensor, p: float = 2.0, compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """The p-norm distances between the rows of ``x1`` ``(..., P, M)`` and of ``x2`` ``(..., R, M)``:
    ``out[..., i, j] = ||x1[..., i, :] - x2[..., j, :]||_p`` (batch dimensions broadcast)."""
    if x1.ndim < 2 or x2.ndim < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X{1 if x1.ndim < 2 else 2} got: "
                           f"{min(x1.ndim, x2.ndim)}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}")
    for k, x in enumerate((x1, x2), 1):
        if not x.dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, X{k} got: "
                               f"{dtypes.scalar_type_name(x.dtype)}")
    dtypes.check_kernel("cdist", x1.dtype, "f", half=False, bfloat16=False)
    dtypes.check_same(x1.dtype, x2.dtype)
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    rows1, rows2 = x1.shape[-2], x2.shape[-2]
    euclidean = p == 2 and (compute_mode == "use_mm_for_euclid_dist"
                            or (compute_mode == "use_mm_for_euclid_dist_if_necessary" and max(rows1, rows2) > 25))
    if not euclidean:
        return composed("CdistBackward0", _distances, x1, x2, p=p)
    # PyTorch's matrix-product path: batches broadcast and flattened, one EuclideanDist node, a view back.
    batch = tuple(np.broadcast_shapes(tuple(x1.shape[:-2]), tuple(x2.shape[:-2])))
    if batch:
        x1, x2 = (shape.reshape(shape.contiguous(shape.expand(x, batch + tuple(x.shape[-2:]))),
                                (-1,) + tuple(x.shape[-2:])) for x in (x1, x2))
    distances = composed("EuclideanDistBackward0", _distances, x1, x2, p=2.0)
    return shape.reshape(distances, batch + (rows1, rows2))


def _distances(x1: Tensor, x2: Tensor, p: float) -> Tensor:
    differences = binary.sub(shape.unsqueeze(x1, -2), shape.unsqueeze(x2, -3))  # (..., P, R, M)
    return reduction.norm(differences, p, -1)


# --------------------------------------------------------------------------- beta * input + alpha * product
class Addmm(Op):
    """``beta * input + alpha * (mat1 @ mat2)``; ``beta = 0`` ignores ``input`` (even NaN and inf in it).

    The gradients are ``beta * g`` for ``input`` (summed to its shape by the engine) and
    ``alpha * g @ mat2^T``, ``alpha * mat1^T @ g`` for the factors; a vector factor (addmv) is a
    column whose dimension the product dropped.
    """

    saved_inputs, saved_options = ("mat1", "mat2"), ("alpha", "beta")
    kernel: str | None = "addmm_impl_cpu_"  # PyTorch's kernel, named in its error for bool operands

    @staticmethod
    def product(a: Any, b: Any) -> Any:
        return a @ b

    @staticmethod
    def forward(ctx: Addmm, input: Any, mat1: Any, mat2: Any, *, beta: Any, alpha: Any) -> Any:
        if ctx.kernel is not None:
            linalg.reject_bool(ctx.kernel, mat1)
        ctx.beta, ctx.alpha = beta, alpha
        ctx.save_for_backward(mat1, mat2)
        transposed = ctx.mat2_transposed = linalg.is_transposed(mat2)
        if beta == 1 and alpha == 1 and mat1.ndim == mat2.ndim == 2 and input.dtype == mat1.dtype == mat2.dtype:
            return linalg.matmul_add(ctx.xp, mat1, mat2, input, b_transposed=transposed)  # nn.Linear's path
        product = ctx.product(mat1, mat2)
        if alpha != 1:
            product = product * alpha
        if beta == 0:
            return product
        if beta == 1 and input.dtype == product.dtype:
            product += input  # the product is a fresh array: no second one for the sum
            return product
        return product + (input if beta == 1 else input * beta)

    @staticmethod
    def backward(ctx: Addmm, g: Any) -> tuple:
        mat1, mat2 = ctx.saved_tensors
        needs_input, needs_mat1, needs_mat2 = ctx.needs_input_grad
        scaled = g if ctx.alpha == 1 else g * ctx.alpha
        g_input = (g * ctx.beta if ctx.beta != 1 else g) if needs_input else None
        if mat1.ndim == 2 and mat2.ndim == 2:  # addmm: every linear layer's path, kept short
            g_mat1 = scaled @ mat2.T if needs_mat1 else None
            g_mat2 = linalg.second_factor_grad(mat1, scaled, ctx.mat2_transposed) if needs_mat2 else None
            return g_input, g_mat1, g_mat2
        xp = ctx.xp
        if mat1.ndim == 1:  # addr: an outer product of a column and a row
            g_mat1 = scaled @ mat2 if needs_mat1 else None
            g_mat2 = xp.swapaxes(scaled, 0, 1) @ mat1 if needs_mat2 else None
        elif mat2.ndim == 1:  # addmv: mat2 is a column
            g_mat1 = xp.expand_dims(scaled, -1) * mat2 if needs_mat1 else None
            g_mat2 = xp.swapaxes(mat1, -1, -2) @ scaled if needs_mat2 else None
        else:  # baddbmm, addbmm
            g_mat1 = scaled @ xp.swapaxes(mat2, -1, -2) if needs_mat1 else None
            g_mat2 = xp.swapaxes(mat1, -1, -2) @ scaled if needs_mat2 else None
        return g_input, g_mat1, g_mat2


class Addmv(Addmm):
    kernel = "addmv_impl_cpu"


class Baddbmm(Addmm):
    kernel = "baddbmm"


class Addbmm(Addmm):
    """The products of a batch summed; ``g @ mat2^T`` broadcasts ``g`` over the batch."""

    @staticmethod
    def product(a: Any, b: Any) -> Any:
        return (a @ b).sum(axis=0)


class Addr(Addmm):
    kernel = None  # an outer product: bool operands are PyTorch's logical and

    @staticmethod
    def product(a: Any, b: Any) -> Any:
        return a[:, None] * b


def _fused(op: type[Op], input: Tensor, a: Tensor, b: Tensor, product_shape: tuple, beta: Any, alpha: Any) -> Tensor:
    if tuple(input.shape) != product_shape:
        shape.expand(input, product_shape)  # PyTorch's error for an input that does not broadcast
    return op.apply(input, a, b, beta=beta, alpha=alpha)


@_autocast.lower_precision
def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * (mat1 @ mat2)`` for matrices; ``input`` broadcasts to the product.
    With ``beta = 0`` ``input`` is ignored (NaN and inf in it do not propagate)."""
    if mat1.ndim != 2 or mat2.ndim != 2 or mat1.shape[1] != mat2.shape[0] or mat1.dtype != mat2.dtype:
        linalg.mm(mat1, mat2)  # PyTorch's error
    if input.dtype != mat1.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got {_names(input, mat2)}")
    return _fused(Addmm, input, mat1, mat2, (mat1.shape[0], mat2.shape[1]), beta, alpha)


def _names(*tensors: Tensor) -> str:
    """The tensors' dtypes as PyTorch's messages name them: ``Float and Double``, ``Float, Double, and Float``."""
    names = [dtypes.scalar_type_name(t.dtype) for t in tensors]
    return " and ".join(names) if len(names) == 2 else ", ".join(names[:-1]) + ", and " + names[-1]


def addmv(input: Tensor, mat: Tensor, vec: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * (mat @ vec)``."""
    if mat.ndim != 2 or vec.ndim != 1 or mat.shape[1] != vec.shape[0]:
        linalg.mv(mat, vec)  # PyTorch's error
    if not input.dtype == mat.dtype == vec.dtype:
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {_names(input, mat, vec)}")
    return _fused(Addmv, input, mat, vec, (mat.shape[0],), beta, alpha)


@_autocast.lower_precision
def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * bmm(batch1, batch2)``."""
    if batch1.ndim != 3 or batch2.ndim != 3 or batch1.shape[0] != batch2.shape[0] or batch1.shape[2] != batch2.shape[1]:
        linalg.bmm(batch1, batch2)  # PyTorch's error
    if not input.dtype == batch1.dtype == batch2.dtype:
        input_name, first, second = (dtypes.cpp_type_name(t.dtype) for t in (input, batch1, batch2))
        raise RuntimeError(f"Input dtypes must be the same, got: input {input_name}, batch1: {first}, batch2: {second}")
    return _fused(Baddbmm, input, batch1, batch2, (batch1.shape[0], batch1.shape[1], batch2.shape[2]), beta, alpha)


@_autocast.lower_precision
def addbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * sum_b batch1[b] @ batch2[b]`` (the batch of products summed)."""
    if batch1.ndim != 3 or batch2.ndim != 3 or batch1.shape[0] != batch2.shape[0] or batch1.shape[2] != batch2.shape[1]:
        linalg.bmm(batch1, batch2)  # PyTorch's error
    if input.dtype != batch1.dtype or batch1.dtype != batch2.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got {_names(input, batch2)}")
    return _fused(Addbmm, input, batch1, batch2, (batch1.shape[1], batch2.shape[2]), beta, alpha)


def addr(input: Tensor, vec1: Tensor, vec2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * outer(vec1, vec2)``."""
    if vec1.ndim != 1 or vec2.ndim != 1:
        linalg.outer(vec1, vec2)  # PyTorch's error
    return _fused(Addr, input, vec1, vec2, (vec1.shape[0], vec2.shape[0]), beta, alpha)
