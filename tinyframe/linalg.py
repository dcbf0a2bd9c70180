"""``tinyframe.linalg``: PyTorch's ``torch.linalg`` (norms, decompositions, solvers), on batches of
matrices in the last two dimensions, with gradients.

The decompositions and their gradients live in ``ops/decompositions.py``; the norms are composed
from reductions and singular values, so their gradients follow from those ops.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _graph
from ._dims import wrap_dim
from .device import array_module_of
from .dtypes import cpp_type_name, scalar_type_name
from .ops import construction, contraction, reduction, shape, sorting, unary
from .ops import linalg as products
from .ops._composite import composed
from .ops.construction import diagonal
from .ops.decompositions import (
    LinAlgError,
    _t,
    eigvals,
    eigvalsh,
    lstsq,
    matrix_rank,
    not_positive_definite,
    partial_cholesky,
    svdvals,
)
from .ops.decompositions import linalg_cholesky as cholesky
from .ops.decompositions import linalg_det as det
from .ops.decompositions import linalg_eig as eig
from .ops.decompositions import linalg_eigh as eigh
from .ops.decompositions import linalg_inv as inv
from .ops.decompositions import linalg_pinv as pinv
from .ops.decompositions import linalg_qr as qr
from .ops.decompositions import linalg_slogdet as slogdet
from .ops.decompositions import linalg_solve as solve
from .ops.decompositions import linalg_svd as svd
from .ops.ldl import linalg_ldl_factor as ldl_factor
from .ops.ldl import linalg_ldl_factor_ex as ldl_factor_ex
from .ops.ldl import linalg_ldl_solve as ldl_solve
from .ops.lu import householder_product
from .ops.lu import linalg_lu as lu
from .ops.lu import linalg_lu_factor as lu_factor
from .ops.lu import linalg_lu_factor_ex as lu_factor_ex
from .ops.lu import linalg_lu_solve as lu_solve
from .return_types import linalg_cholesky_ex, linalg_inv_ex, linalg_solve_ex

if TYPE_CHECKING:
    from .tensor import Tensor

__all__ = ["norm", "vector_norm", "matrix_norm", "det", "slogdet", "inv", "solve", "cholesky", "qr", "svd",
           "svdvals", "eigh", "eigvalsh", "pinv", "lstsq", "matrix_rank", "cross", "multi_dot", "matmul", "vecdot",
           "matrix_power", "diagonal", "inv_ex", "cholesky_ex", "solve_triangular", "eig", "eigvals", "LinAlgError",
           "solve_ex", "cond", "matrix_exp", "tensorinv", "tensorsolve", "lu_factor",
           "lu_factor_ex", "lu", "lu_solve", "householder_product", "ldl_factor",
           "ldl_factor_ex", "ldl_solve", "vander"]

_INF = float("inf")
matmul = products.matmul


def vector_norm(x: Tensor, ord: float = 2, dim: int | Sequence[int] | None = None, keepdim: bool = False, *,
                dtype: Any = None) -> Tensor:
    """``(sum |x|^ord)^(1/ord)`` over ``dim`` (every element when None); ``ord`` may be ``inf`` /
    ``-inf`` (max / min of ``|x|``) or 0 (the number of nonzero elements)."""
    if isinstance(ord, str):
        raise RuntimeError(f"linalg.vector_norm: Expected ord to be a number, but got {ord}")
    return reduction.norm(x, ord, dim, keepdim, dtype)


def matrix_norm(A: Tensor, ord: Any = "fro", dim: tuple = (-2, -1), keepdim: bool = False, *,
                dtype: Any = None) -> Tensor:
    """The matrix norm over the two dimensions ``dim``: 'fro' (Frobenius), 'nuc' (sum of the singular
    values), 2 / -2 (largest / smallest singular value), 1 / -1 (max / min column sum of ``|A|``),
    inf / -inf (max / min row sum of ``|A|``)."""
    if A.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    if ord not in ("fro", "nuc", 2, -2, 1, -1, _INF, -_INF):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if dtype is not None:
        A = A.to(dtype)
    rows, cols = (wrap_dim(d, A.ndim) for d in dim)
    if rows == cols:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dim[0]}, {dim[1]})")
    if ord == "fro":
        return reduction.norm(A, 2, (rows, cols), keepdim)
    if ord in ("nuc", 2, -2):
        values = svdvals(shape.movedim(A, (rows, cols), (-2, -1)))
        extreme = reduction.amax if ord == 2 else reduction.amin
        out = reduction.sum(values, -1) if ord == "nuc" else extreme(values, -1)
    else:
        summed, over = (rows, cols) if ord in (1, -1) else (cols, rows)  # column sums for 1, row sums for inf
        sums = reduction.sum(unary.abs(A), summed)
        out = (reduction.amax if ord in (1, _INF) else reduction.amin)(sums, over - (over > summed))
    if keepdim:
        for d in sorted((rows, cols)):
            out = shape.unsqueeze(out, d)
    return out


def norm(A: Tensor, ord: Any = None, dim: int | Sequence[int] | None = None, keepdim: bool = False, *,
         dtype: Any = None) -> Tensor:
    """A vector norm (``dim`` an int, or a 1-D input) or a matrix norm (``dim`` a pair, or a 2-D
    input with ``ord`` given); with neither ``ord`` nor ``dim``, the 2-norm of every element."""
    if dim is None:
        if ord is None:
            return vector_norm(A, 2, None, keepdim, dtype=dtype)
        if A.ndim == 2:
            return matrix_norm(A, ord, (-2, -1), keepdim, dtype=dtype)
        if A.ndim != 1:
            raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. "
                               f"Got {A.ndim}D.")
        return vector_norm(A, ord, None, keepdim, dtype=dtype)
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    if len(dims) == 2:
        return matrix_norm(A, "fro" if ord is None else ord, dims, keepdim, dtype=dtype)
    if len(dims) != 1:
        raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {list(dims)}")
    return vector_norm(A, 2 if ord is None else ord, dims, keepdim, dtype=dtype)


def cross(input: Tensor, other: Tensor, *, dim: int = -1) -> Tensor:
    """The cross product of the 3-vectors along ``dim`` (inputs broadcast)."""
    return contraction._cross(input, other, dim, "linalg.cross")


def vecdot(x: Tensor, y: Tensor, *, dim: int = -1) -> Tensor:
    """The dot product of vectors along ``dim`` (inputs broadcast)."""
    return contraction.vecdot(x, y, dim)


def multi_dot(tensors: Sequence[Tensor]) -> Tensor:
    """The product of a chain of matrices, in the order of fewest scalar multiplications (PyTorch's matrix
    chain order); the first may be a row vector and the last a column vector (1-D), whose dimensions the
    result then drops."""
    given = list(tensors)
    n = len(given)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    for position, k in (("first", 0), ("last", n - 1)):
        if given[k].ndim not in (1, 2):
            raise RuntimeError(f"multi_dot(): the {position} tensor must be 1D or 2D but got {given[k].ndim}D")
    for k in range(1, n - 1):
        if given[k].ndim != 2:
            raise RuntimeError(f"multi_dot(): tensor {k} must be 2D but got {given[k].ndim}D")
    for k, t in enumerate(given):
        if t.dtype != given[0].dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but tensor 0 is "
                               f"{cpp_type_name(given[0]._data.dtype)} and tensor {k} {cpp_type_name(t._data.dtype)}")
    matrices = list(given)
    matrices[0] = shape.unsqueeze(given[0], 0) if given[0].ndim == 1 else given[0]
    matrices[-1] = shape.unsqueeze(given[-1], -1) if given[-1].ndim == 1 else given[-1]
    for k in range(n - 1):
        if matrices[k].shape[-1] != matrices[k + 1].shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {k} and {k + 1} with shapes {list(given[k].shape)} and "
                               f"{list(given[k + 1].shape)} cannot be multiplied")
    out_shape = [m for t, m in ((given[0], matrices[0].shape[0]), (given[-1], matrices[-1].shape[1])) if t.ndim == 2]
    return _chain_product(matrices, _chain_order(matrices), 0, n - 1).view(out_shape)


def _chain_order(matrices: list) -> dict:
    """Where to split each sub-chain ``(i, j)``: the dynamic programme of the matrix chain problem, with
    PyTorch's choices on ties (three matrices: the left product first)."""
    n = len(matrices)
    dims = [matrices[0].shape[0]] + [m.shape[1] for m in matrices]
    if n == 3:
        a, b, c, d = dims
        return {(0, 2): 0 if a * c * (b + d) > b * d * (a + c) else 1, (0, 1): 0, (1, 2): 1}
    cost = {(i, i): 0 for i in range(n)}
    split: dict = {}
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            for k in range(i, j):
                q = cost[i, k] + cost[k + 1, j] + dims[i] * dims[k + 1] * dims[j + 1]
                if (i, j) not in cost or q < cost[i, j]:  # the first cheapest split, as PyTorch
                    cost[i, j], split[i, j] = q, k
    return split


def _chain_product(matrices: list, split: dict, i: int, j: int) -> Tensor:
    if i == j:
        return matrices[i]
    k = split[i, j]
    return products.mm(_chain_product(matrices, split, i, k), _chain_product(matrices, split, k + 1, j))


def matrix_power(A: Tensor, n: int) -> Tensor:
    """``A`` multiplied by itself ``n`` times (the identity for 0, powers of the inverse for n < 0)."""
    if A.ndim < 2 or A.shape[-1] != A.shape[-2]:
        raise RuntimeError("linalg.matrix_power: A must be batches of square matrices")
    if n < 0:
        return matrix_power(inv(A), -n)
    if n == 1:
        return A.clone()
    if n == 0:  # as PyTorch: the identity copied into a clone (its gradient is zero)
        xp = array_module_of(A._data)
        return A.clone().copy_(_graph.wrap(xp.broadcast_to(xp.eye(A.shape[-1], dtype=A._data.dtype), A.shape)))
    result, base = None, A
    while n:  # square-and-multiply
        if n & 1:
            result = base if result is None else products.matmul(result, base)
        n >>= 1
        if n:
            base = products.matmul(base, base)
    assert result is not None  # n > 0: at least one factor
    return result



def _info(A: Tensor, failed: int = 0) -> Tensor:
    xp = array_module_of(A._data)
    return _graph.wrap(xp.full(A.shape[:-2], failed, dtype=xp.int32))


def inv_ex(A: Tensor, *, check_errors: bool = False) -> Any:
    """The named tuple ``(inverse, info)``: ``info`` is 0 where the inverse exists; for a singular
    matrix the error is raised only with ``check_errors`` (else ``info`` is nonzero and the inverse
    is NaN)."""
    try:
        return linalg_inv_ex(inv(A), _info(A))
    except LinAlgError:
        if check_errors:
            raise
    xp = array_module_of(A._data)
    return linalg_inv_ex(_graph.wrap(xp.full(A.shape, xp.nan, dtype=A._data.dtype)), _info(A, 1))


def cholesky_ex(A: Tensor, *, upper: bool = False, check_errors: bool = False) -> Any:
    """The named tuple ``(L, info)``; ``info`` is 0 where ``A`` is positive-definite, else the order of
    the first leading minor that is not, where ``L`` holds LAPACK's partial factor (the error is
    raised only with ``check_errors``)."""
    try:
        return linalg_cholesky_ex(cholesky(A, upper=upper), _info(A))
    except LinAlgError:
        if check_errors:
            raise not_positive_definite(A._data, "linalg.cholesky_ex") from None
    return linalg_cholesky_ex(*partial_cholesky(A, upper=upper))


def solve_ex(A: Tensor, B: Tensor, *, left: bool = True, check_errors: bool = False) -> Any:
    """The named tuple ``(result, info)`` of ``solve``; for a singular ``A`` the error is raised only
    with ``check_errors`` (else ``info`` is nonzero and ``result`` NaN)."""
    try:
        return linalg_solve_ex(solve(A, B, left=left), _info(A))
    except LinAlgError:
        if check_errors:
            raise
    xp = array_module_of(A._data)
    shape_of = products.matmul(A, B if B.ndim > 1 else B.unsqueeze(-1)).shape if left else B.shape
    result = xp.full(shape_of if B.ndim > 1 or not left else shape_of[:-1], xp.nan, dtype=A._data.dtype)
    return linalg_solve_ex(_graph.wrap(result), _info(A, 1))


def cond(A: Tensor, p: Any = None) -> Tensor:
    """The condition number of each matrix in ``p``'s norm: the ratio of the extreme singular values
    for ``p`` None, 2 or -2, else ``norm(A, p) * norm(inv(A), p)``."""
    if p in (None, 2, -2):
        values = svdvals(A)
        largest, smallest = values.narrow(-1, 0, 1), values.narrow(-1, values.shape[-1] - 1, 1)
        ratio = largest / smallest if p != -2 else smallest / largest
        return ratio.squeeze(-1)
    return unary.nan_to_num(matrix_norm(A, p) * matrix_norm(inv(A), p), float("inf"))


def matrix_exp(A: Tensor) -> Tensor:
    """The matrix exponential ``sum_k A^k / k!`` of each square matrix."""
    if A.ndim < 2 or A.shape[-1] != A.shape[-2]:
        raise RuntimeError("linalg.matrix_exp: A must be batches of square matrices, but they are "
                           f"{A.shape[-2] if A.ndim > 1 else 1} by {A.shape[-1]} matrices")
    return composed("LinalgMatrixExpBackward0", _matrix_exp, A)


def _matrix_exp(A: Tensor) -> Tensor:
    """Scaling and squaring: the Taylor series of ``A / 2^s`` (norm at most 1/2, 18 terms reach double
    precision) squared ``s`` times."""
    xp = array_module_of(A._data)
    size = float(xp.abs(A._data).sum(axis=-2).max()) if A.numel() else 0.0
    squarings = max(0, int(np.ceil(np.log2(size))) + 1) if size > 0 else 0
    scaled = A / 2.0 ** squarings
    term = _graph.wrap(xp.broadcast_to(xp.eye(A.shape[-1], dtype=A._data.dtype), A.shape).copy())
    total = term
    for k in range(1, 19):
        term = products.matmul(term, scaled) / k
        total = total + term
    for _ in range(squarings):
        total = products.matmul(total, total)
    return total


def tensorinv(A: Tensor, ind: int = 2) -> Tensor:
    """The inverse of ``A`` as a map from its last dimensions to its first ``ind``: ``tensordot(tensorinv(A),
    A, ind)`` is the identity."""
    rows, columns = A.shape[:ind], A.shape[ind:]
    count = int(np.prod(rows))
    if count != int(np.prod(columns)):
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {int(np.prod(columns))} != {count}")
    return inv(A.reshape(count, count)).reshape(*columns, *rows)


def tensorsolve(A: Tensor, B: Tensor, dims: Any = None) -> Tensor:
    """The ``X`` with ``tensordot(A, X, X.ndim) == B``."""
    if dims is not None:
        A = shape.movedim(A, tuple(dims), tuple(range(A.ndim - len(dims), A.ndim)))
    unknown = A.shape[B.ndim:]
    count = int(np.prod(unknown))
    return solve(A.reshape(-1, count), B.reshape(-1)).reshape(*unknown)


def vander(x: Tensor, *, N: int | None = None) -> Tensor:
    """The Vandermonde matrices of ``x``'s last dimension (batched): ``x ** 0, x ** 1, ..., x ** (N - 1)``
    along a new last dimension, ``N`` (at least 2) defaulting to ``x.shape[-1]``. As in PyTorch, built as a
    row of ones concatenated to a cumulative product (so integers give int64)."""
    kind = x._data.dtype.kind
    if kind not in "iucf" or x._data.dtype.itemsize < (4 if kind in "fc" else 0):
        raise RuntimeError(f"linalg.vander supports floating point, complex, and integer tensors, but got "
                           f"{scalar_type_name(x._data.dtype)}")
    x = shape.unsqueeze(x, -1) if x.ndim == 0 else x
    n = x.shape[-1] if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    powers = sorting.cumprod(shape.expand(shape.unsqueeze(x, -1), *x.shape, n - 1), -1)
    ones = _graph.wrap(array_module_of(powers._data).ones((*x.shape, 1), powers._data.dtype))
    return shape.cat([ones, powers], -1)


def solve_triangular(A: Tensor, B: Tensor, *, upper: bool, left: bool = True, unitriangular: bool = False) -> Tensor:
    """The solution ``X`` of ``A X = B`` (``X A = B`` with ``left=False``) for triangular ``A``: only
    its upper (``upper=True``) or lower triangle is read, and with ``unitriangular`` not its diagonal
    (taken as ones)."""
    if B.ndim < 2:
        raise RuntimeError("torch.linalg.solve_triangular: The input tensor B must have at least 2 dimensions.")
    if B.ndim < A.ndim:  # B is a matrix here, never the batch of vectors solve reads where B.shape == A.shape[:-1]
        B = shape.reshape(B, (1,) * (A.ndim - B.ndim) + tuple(B.shape))
    triangle = construction.triu(A) if upper else construction.tril(A)
    if unitriangular:
        ones = _graph.wrap(array_module_of(A._data).ones(A.shape[:-1], dtype=A._data.dtype))
        triangle = construction.diagonal_scatter(triangle, ones, 0, -2, -1)
    return solve(triangle, B) if left else _t(solve(_t(triangle), _t(B)))
