"""Matrix products: ``matmul`` and its special cases ``mm``, ``bmm``, ``mv``, ``dot``, ``outer``.

Every product of matrices is one op, ``Matmul``: its backward is ``grad @ other^T`` and
``input^T @ grad`` with vectors promoted to matrices, and the engine sums the gradients of
broadcast batch dimensions. The subclasses only carry the ``grad_fn`` name PyTorch gives each case.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _autocast, _graph
from .._graph import Op
from ..dtypes import check_kernel, cpp_type_name, scalar_type_name
from . import binary
from .complex import conj_of, saved_conj
from .shape import SqueezeDimInplace, UnsafeView, broadcast_pair, movedim, reshape, unsqueeze

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["matmul", "mm", "bmm", "mv", "dot", "vdot", "outer", "ger", "inner"]


def reject_bool(kernel: str, a: Any) -> None:
    """PyTorch's BLAS-backed products have no bool kernel (NumPy's would compute logical and/or)."""
    if a.dtype.kind == "b":
        check_kernel(kernel, a.dtype, "uifc")


class Matmul(Op, node_name="UnsafeViewBackward0"):
    """``input @ other`` for any ranks >= 1 but two vectors (NumPy's matmul rules are PyTorch's)."""

    kernel = "bmm"  # PyTorch's kernel for the op, named in its error for bool operands

    @staticmethod
    def forward(ctx: Matmul, a: Any, b: Any) -> Any:
        reject_bool(ctx.kernel, a)
        ctx.save_for_backward(a, b)
        return a @ b

    @staticmethod
    def backward(ctx: Matmul, g: Any) -> tuple:
        a, b = saved_conj(ctx)  # holomorphic: the conjugate factors
        xp = ctx.xp
        needs_a, needs_b = ctx.needs_input_grad
        # A vector operand is a matrix of one row (input) or one column (other) whose dimension
        # the product dropped: put it back, so one formula serves every case.
        b_is_vector = b.ndim == 1
        if a.ndim == 1:
            a = a.reshape((1, a.shape[0]))
            g = xp.expand_dims(g, -2)
        if b_is_vector:
            b = b.reshape((b.shape[0], 1))
            g = xp.expand_dims(g, -1)
        grad_a = g @ xp.swapaxes(b, -1, -2) if needs_a else None  # the engine drops the added row
        grad_b = None
        if needs_b:
            grad_b = xp.swapaxes(a, -1, -2) @ g
            if b_is_vector:
                grad_b = grad_b.reshape(grad_b.shape[:-1])
        return grad_a, grad_b


class Mm(Matmul):
    """``mat1 @ mat2`` of two matrices: the hot path of every linear layer."""

    saved_inputs = ("self", "mat2")
    kernel = "addmm_impl_cpu_"

    @staticmethod
    def forward(ctx: Matmul, a: Any, b: Any) -> Any:
        reject_bool(ctx.kernel, a)
        ctx.save_for_backward(a, b)
        ctx.b_transposed = is_transposed(b)
        return a @ b

    @staticmethod
    def backward(ctx: Matmul, g: Any) -> tuple:
        a, b = saved_conj(ctx)  # holomorphic: the conjugate factors
        needs_a, needs_b = ctx.needs_input_grad
        return g @ b.T if needs_a else None, second_factor_grad(a, g, ctx.b_transposed) if needs_b else None


def is_transposed(a: Any) -> bool:
    """Whether the array ``a`` is a matrix stored column by column (a transposed view: ``weight.t()``)."""
    return a.ndim == 2 and a.flags.f_contiguous and not a.flags.c_contiguous


def matmul_add(xp: Any, a: Any, b: Any, c: Any, out: Any = None, b_transposed: bool | None = None) -> Any:
    """``a @ b + c`` for matrices ``a``, ``b`` and a ``c`` of their dtype that broadcasts to the product,
    into ``out`` or a new row-major array: a linear layer's ``x @ weight.t() + bias``, or a recurrent
    step's ``h @ w_hh.t() + x_projection``.

    Fast path: OpenBLAS's sgemm multiplies a few rows by a transposed matrix (``weight.t()``) up to
    twice as slowly as it computes the same product as ``(weight @ x^T)^T``. Measured on the project's
    machine (1 thread), ``x @ W^T + b`` against ``(W @ x^T)^T + b`` written back row-major by the sum:
    784 -> 512 at 128 rows 1150 -> 1093 us, 256 -> 1024 at 32 rows (an LSTM step) 294 -> 213 us, at
    8 rows 170 -> 93 us; with fewer than twice as many columns or rows in the weight as rows in ``x``
    it is slower (256 -> 10 at 128 rows 17 -> 27 us), and float64 (dgemm) gains nothing. NumPy
    built on another BLAS (MKL, Accelerate) was not measured. ``b_transposed``: whether ``b`` is
    ``is_transposed``, where the caller knows.
    """
    if b_transposed is None:
        b_transposed = is_transposed(b)
    if b_transposed and xp is np and a.dtype == np.float32 and a.ndim == 2 and 2 * a.shape[0] < min(b.shape):
        return np.add((b.T @ a.T).T, c, out=out, order="C")
    product = a @ b if out is None else xp.matmul(a, b, out=out)
    product += c
    return product


def second_factor_grad(a: Any, g: Any, b_transposed: bool) -> Any:
    """``a^T @ g``, the gradient of the matrix ``b`` in ``a @ b``. For a transposed ``b`` (a linear
    layer's ``weight.t()``) it is computed as ``(g^T @ a)^T``, in ``b``'s layout, as PyTorch does:
    transposed back by ``TBackward0`` it is then a fresh product in the weight's own layout, which
    the weight's ``.grad`` keeps without a copy."""
    return (g.T @ a).T if b_transposed else a.T @ g


class Mv(Matmul):
    kernel = "addmv_impl_cpu"


class Bmm(Matmul):
    pass


class MatmulTransposed(Matmul, node_name="CloneBackward0"):
    """A batched product that PyTorch computes as ``(other^T @ input^T)^T`` made contiguous."""


class Dot(Op):
    """The inner product of two vectors (a 0-dim result)."""

    @staticmethod
    def forward(ctx: Dot, a: Any, b: Any) -> Any:
        reject_bool("dot", a)
        ctx.save_for_backward(a, b)
        return a @ b

    @staticmethod
    def backward(ctx: Dot, g: Any) -> tuple:
        a, b = saved_conj(ctx)  # holomorphic: the conjugate factors
        needs_a, needs_b = ctx.needs_input_grad
        return g * b if needs_a else None, g * a if needs_b else None


class Vdot(Op):
    """``sum(conj(a) * b)``: antilinear in ``a``, so ``a`` receives ``conj(g) * b`` and ``b`` receives ``g * a``."""

    @staticmethod
    def forward(ctx: Vdot, a: Any, b: Any) -> Any:
        reject_bool("dot", a)
        ctx.save_for_backward(a, b)
        return ctx.xp.vdot(a, b)

    @staticmethod
    def backward(ctx: Vdot, g: Any) -> tuple:
        a, b = ctx.saved_tensors
        needs_a, needs_b = ctx.needs_input_grad
        return conj_of(g) * b if needs_a else None, g * a if needs_b else None


def _arrays(name: str, input: Any, other: Any) -> tuple:
    if isinstance(input, _graph.Tensor) and isinstance(other, _graph.Tensor):
        return input._data, other._data
    value, arg, position = (other, "other", 2) if isinstance(input, _graph.Tensor) else (input, "input", 1)
    raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be Tensor, not {type(value).__name__}")


def _dtype_error(a: Any, b: Any) -> RuntimeError:
    """PyTorch's message for operands of different dtypes, from the kernel it runs for these ranks."""
    if b.ndim == 1 or (a.ndim == 1 and b.ndim >= 3):
        vec, mat = (b, a) if b.ndim == 1 else (a, b)
        vec_name, mat_name = scalar_type_name(vec.dtype), scalar_type_name(mat.dtype)
        return RuntimeError(f"addmv input tensors must have the same dtype, but got {vec_name}, {mat_name}, "
                            f"and {vec_name}")
    if b.ndim >= 3:
        return RuntimeError(f"expected scalar type {scalar_type_name(a.dtype)} but found {scalar_type_name(b.dtype)}")
    return RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {cpp_type_name(a.dtype)} != "
                        f"{cpp_type_name(b.dtype)}")


def _shape_text(shape: tuple) -> str:
    return "x".join(str(n) for n in shape)


@_autocast.lower_precision
def matmul(input: Tensor, other: Tensor) -> Tensor:
    """The matrix product of two tensors, by the rank of the operands:

    - 1-D and 1-D: the dot product (a 0-dim tensor);
    - 2-D and 2-D: the matrix product ``(n, m) @ (m, p) -> (n, p)``;
    - 1-D first: it is a row ``(1, m)`` whose dimension is removed from the result;
      1-D second: it is a column ``(m, 1)`` whose dimension is removed from the result;
    - otherwise a batched product over the last two dimensions, the leading (batch) dimensions
      broadcast: ``(j, 1, n, m) @ (k, m, p) -> (j, k, n, p)``.

    Both operands must have the same dtype.
    """
    a, b = _arrays("matmul", input, other)
    na, nb = a.ndim, b.ndim
    if na == 2 and nb == 2:
        if a.dtype != b.dtype:
            raise _dtype_error(a, b)
        if a.shape[1] != b.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_shape_text(a.shape)} and "
                               f"{_shape_text(b.shape)})")
        return Mm.apply(input, other)
    if na == 0 or nb == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {na}D and {nb}D")
    if na == 1 and nb == 1:
        return dot(input, other)
    if a.dtype != b.dtype:
        raise _dtype_error(a, b)
    inner = a.shape[-1]
    if inner != b.shape[-2 if nb > 1 else 0]:
        raise RuntimeError(_mismatch_message(a.shape, b.shape))
    if na == 2 and nb == 1:
        return Mv.apply(input, other)
    if na == 1 and nb == 2:  # a row times the matrix, the row squeezed out again
        return SqueezeDimInplace.apply(Mm.apply(unsqueeze(input, 0), other), axes=(0,))
    if nb <= 2:  # a batch times a matrix or vector: the batch folded into the rows of one product
        rows = math.prod(a.shape[:-1])  # (not -1: with no inner elements it would be ambiguous)
        product = (Mm if nb == 2 else Mv).apply(reshape(input, rows, inner), other)
        return UnsafeView.apply(product, shape=a.shape[:-1] + b.shape[1:])
    broadcast_pair(a.shape[:-2], b.shape[:-2])
    return _batched_node(input, a.shape, b.shape).apply(input, other)


def _batched_node(input: Tensor, a_shape: tuple, b_shape: tuple) -> type[Op]:
    """The op class whose name PyTorch gives this batched product (its implementation detail: a
    matrix, or a batch of one matrix, times a batch is computed transposed when it requires grad)."""
    if input._requires_grad and len(b_shape) >= 3:
        if len(a_shape) == 2 or (len(a_shape) == len(b_shape) == 3 and a_shape[0] == 1 != b_shape[0]):
            return MatmulTransposed
    return Matmul


def _mismatch_message(a_shape: tuple, b_shape: tuple) -> str:
    """PyTorch's message for unequal inner dimensions, naming the shapes its kernels see."""
    k = a_shape[-1]
    if len(b_shape) == 1:
        rows = 1
        for n in a_shape[:-1]:
            rows *= n
        return f"size mismatch, got input ({rows}), mat ({rows}x{k}), vec ({b_shape[0]})"
    if len(b_shape) == 2:
        rows = 1
        for n in a_shape[:-1]:
            rows *= n
        return f"mat1 and mat2 shapes cannot be multiplied ({rows}x{k} and {_shape_text(b_shape)})"
    batch = 1
    for n in broadcast_pair(a_shape[:-2], b_shape[:-2]):
        batch *= n
    return (f"Expected size for first two dimensions of batch2 tensor to be: [{batch}, {k}] but got: "
            f"[{batch}, {b_shape[-2]}].")


@_autocast.lower_precision
def mm(input: Tensor, mat2: Tensor) -> Tensor:
    """The product of two matrices: ``(n, m) @ (m, p) -> (n, p)`` (no broadcasting)."""
    a, b = _arrays("mm", input, mat2)
    if a.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a.dtype != b.dtype:
        raise _dtype_error(a, b)
    return matmul(input, mat2)


@_autocast.lower_precision
def bmm(input: Tensor, mat2: Tensor) -> Tensor:
    """Batched matrix product: ``(b, n, m) @ (b, m, p) -> (b, n, p)`` (no broadcasting)."""
    a, b = _arrays("bmm", input, mat2)
    if a.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if b.shape[:2] != (a.shape[0], a.shape[2]):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}].")
    if a.dtype != b.dtype:
        raise _dtype_error(a, b)
    return Bmm.apply(input, mat2)


def mv(input: Tensor, vec: Tensor) -> Tensor:
    """Matrix-vector product: ``(n, m) @ (m,) -> (n,)``."""
    a, v = _arrays("mv", input, vec)
    if a.ndim != 2 or v.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a.ndim}, {v.ndim}")
    if a.dtype != v.dtype:
        raise _dtype_error(a, v)
    return matmul(input, vec)


def dot(input: Tensor, tensor: Tensor) -> Tensor:
    """The inner product ``sum(input * tensor)`` of two 1-D tensors of equal length (no broadcasting)."""
    _check_vectors("dot", input, tensor)
    return Dot.apply(input, tensor)


def _check_vectors(name: str, input: Any, tensor: Any) -> None:
    a, b = _arrays(name, input, tensor)
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    if a.dtype != b.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                           f"{scalar_type_name(a.dtype)} and {scalar_type_name(b.dtype)}")
    if a.shape[0] != b.shape[0]:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src [{b.shape[0]}] "
                           f"to have the same number of elements, but got {a.shape[0]} and {b.shape[0]} "
                           "elements respectively")


def vdot(input: Tensor, other: Tensor) -> Tensor:
    """``sum(conj(input) * other)`` of two 1-D tensors: ``dot`` with the first conjugated."""
    _check_vectors("vdot", input, other)
    return Vdot.apply(input, other)


def inner(input: Tensor, other: Tensor) -> Tensor:
    """The dot product over the last dimension: ``out[i..., j...] = sum_k input[i..., k] * other[j..., k]``
    (for 1-D tensors, ``dot``; a 0-dim operand multiplies)."""
    a, b = _arrays("inner", input, other)
    if a.ndim == 0 or b.ndim == 0:
        return binary.mul(input, other)
    if a.dtype != b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    if a.ndim == 1 and b.ndim == 1:
        return dot(input, other)
    if a.shape[-1] != b.shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but got shapes "
                           f"{list(a.shape)} and {list(b.shape)}")
    # other (j..., k) as a matrix (k, prod(j...)), then the batch of input multiplies it.
    flat = reshape(other, (-1, b.shape[-1])) if b.ndim != 2 else other
    out = matmul(input, movedim(flat, -1, 0))
    return reshape(out, a.shape[:-1] + b.shape[:-1])


def outer(input: Tensor, vec2: Tensor) -> Tensor:
    """The outer product ``out[i, j] = input[i] * vec2[j]`` of two 1-D tensors (dtypes promote)."""
    for name, value in (("self", input), ("vec2", vec2)):
        if not isinstance(value, _graph.Tensor):
            raise TypeError(f"outer(): argument '{name}' must be Tensor, not {type(value).__name__}")
        if value.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {value.ndim}-D")
    # PyTorch computes it this way too, so the result's grad_fn is MulBackward0.
    return binary.mul(reshape(input, (input.shape[0], 1)), vec2)


ger = outer
