"""LU factorisation with partial pivoting and what is built on it: ``linalg.lu_factor`` (``lu_factor_ex``,
``torch.lu``), ``linalg.lu``, ``lu_unpack``, ``linalg.lu_solve`` (``torch.lu_solve``); and the product of
Householder reflectors, ``linalg.householder_product`` (``orgqr``), with ``geqrf`` that makes them.

``A = P L U``: ``P`` a permutation, ``L`` (m x k) unit lower triangular, ``U`` (k x n) upper triangular,
``k = min(m, n)``. The compact form ``LU`` holds ``L``'s strict lower part and ``U`` in one m x n matrix, and
``pivots`` (int32, 1-based, LAPACK's) the row swapped with row ``i`` at step ``i``.
The factorisations' gradients are PyTorch's ``linalg_lu_backward``; ``lu_unpack``, ``lu_solve`` and
``householder_product`` are composed of differentiable ops and recorded as one node of PyTorch's name.
"""
from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from .. import _graph, return_types
from .._graph import Op
from ..device import array_module_of
from . import construction, shape
from ._composite import composed
from .decompositions import Factorization, _outputs, _t, linalg_solve

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["lu", "lu_unpack", "lu_solve", "orgqr", "ormqr", "geqrf"]


# ------------------------------------------------------------------------------------------ kernels
def _factor(a: Any) -> tuple:
    """``(LU, pivots, info)`` of a batch of m x n arrays by Gaussian elimination with partial pivoting
    (the first largest ``|entry|`` of each column, as LAPACK's getrf), vectorised over the batch.
    ``info`` is the 1-based index of the first zero pivot, 0 when there is none."""
    xp = array_module_of(a)
    m, n = a.shape[-2:]
    k = min(m, n)
    lu = a.reshape((-1, m, n)).copy()
    rows = xp.arange(lu.shape[0])
    pivots = xp.empty((lu.shape[0], k), dtype=xp.int32)
    info = xp.zeros(lu.shape[0], dtype=xp.int32)
    for j in range(k):
        p = j + xp.argmax(xp.abs(lu[:, j:, j]), axis=1)
        pivots[:, j] = p + 1
        row = lu[rows, j].copy()
        lu[rows, j] = lu[rows, p]
        lu[rows, p] = row
        pivot = lu[:, j, j]
        zero = pivot == 0
        info = xp.where((info == 0) & zero, j + 1, info)
        # A zero pivot leaves a zero column below it: there is nothing to eliminate (LAPACK goes on too).
        lu[:, j + 1:, j] /= xp.where(zero, 1, pivot)[:, None]
        lu[:, j + 1:, j + 1:] -= lu[:, j + 1:, j, None] * lu[:, j, None, j + 1:]
    batch = a.shape[:-2]
    return lu.reshape(a.shape), pivots.reshape(batch + (k,)), info.reshape(batch)


def _permutation(pivots: Any, m: int, dtype: Any) -> Any:
    """The permutation matrices ``P`` (m x m) of LAPACK's row swaps ``pivots``: ``A = P L U``."""
    xp = array_module_of(pivots)
    flat = pivots.reshape((-1, pivots.shape[-1])).astype(xp.int64) - 1
    perm = xp.broadcast_to(xp.arange(m), (flat.shape[0], m)).copy()
    rows = xp.arange(flat.shape[0])
    for j in range(flat.shape[1]):
        target = perm[rows, flat[:, j]].copy()
        perm[rows, flat[:, j]] = perm[:, j]
        perm[:, j] = target
    # Row i of L U is row perm[i] of A, so P has a one at (perm[i], i).
    p = xp.ascontiguousarray(xp.swapaxes(xp.eye(m, dtype=dtype)[perm], -1, -2))  # (row-major, as PyTorch's)
    return p.reshape(pivots.shape[:-1] + (m, m))


def _zero_pivot_error(name: str, info: Any) -> RuntimeError | None:
    flat = [int(i) for i in array_module_of(info).asarray(info).reshape(-1).tolist()]
    failed = [b for b, i in enumerate(flat) if i]
    if not failed:
        return None
    where = f"(Batch element {failed[0]}): " if info.ndim else ""
    i = flat[failed[0]]
    return RuntimeError(f"{name}: {where}U[{i},{i}] is zero and using it on lu_solve would result in a division by "
                        "zero. If you still want to perform the factorization, consider calling linalg.lu(A, pivot) "
                        "or linalg.lu_factor_ex(A, pivot)")


def _check_input(A: Tensor, name: str, pivot: bool) -> None:
    if not isinstance(A, _graph.Tensor):
        raise TypeError(f"{name}(): argument 'A' must be Tensor, not {type(A).__name__}")
    if A.ndim < 2:
        raise RuntimeError(f"torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: {list(A.shape)} "
                           "instead")
    if A.dtype.name not in ("float32", "float64"):
        raise NotImplementedError(f'"lu_cpu" not implemented for \'{A.dtype.name.capitalize()}\''
                                  .replace("Int64", "Long").replace("Int32", "Int"))
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")


# ---------------------------------------------------------------------------------------- gradient
def _eye(like: Tensor, rows: int, cols: int) -> Tensor:
    return _graph.wrap(array_module_of(like._data).eye(rows, cols, dtype=like._data.dtype))


def _strict_lower(LU: Tensor) -> Tensor:
    """The strict lower part of the first k columns of ``LU`` (m x n)."""
    return shape.narrow(construction.tril(LU, -1), -1, 0, min(LU.shape[-2:]))


def _unit_lower(LU: Tensor) -> Tensor:
    """``L`` (m x k) of a compact ``LU``: its strict lower part, ones on the diagonal."""
    m, n = LU.shape[-2:]
    return _strict_lower(LU) + _eye(LU, m, min(m, n))


def _upper(LU: Tensor) -> Tensor:
    """``U`` (k x n) of a compact ``LU``."""
    m, n = LU.shape[-2:]
    return shape.narrow(construction.triu(LU), -2, 0, min(m, n))


def _solve_unit_lower_adjoint(L: Tensor, X: Tensor) -> Tensor:
    """``L^{-T} X`` for a unit lower-triangular square ``L``."""
    return linalg_solve(_t(L), X)


def _times_inverse_upper_adjoint(X: Tensor, U: Tensor) -> Tensor:
    """``X U^{-T}`` for an upper-triangular square ``U``."""
    return linalg_solve(_t(U), X, left=False)


def _lu_gradient(P: Tensor, L: Tensor, U: Tensor, gL: Tensor | None, gU: Tensor | None) -> Tensor:
    """PyTorch's ``linalg_lu_backward``: with ``1_L`` / ``1_U`` the strict lower / upper triangles,
    square: ``gA = P L^{-T} [L^T gL o 1_L + gU U^T o 1_U] U^{-T}``; wide (``U = [U1 U2]``):
    ``gA1 = P L^{-T} [gU1 + (L^T gL o 1_L - gU U^T o 1_U) U1^{-T}]``, ``gA2 = P L^{-T} gU2``; tall
    (``L = [L1; L2]``): ``gA1 = P [gL1 + L1^{-T} (gU U^T o 1_U - L^T gL o 1_L)] U^{-T}``, ``gA2 = P gL2 U^{-T}``."""
    m, n = L.shape[-2], U.shape[-1]
    gL = gL if gL is not None else L * 0.0
    gU = gU if gU is not None else U * 0.0
    if m == n:
        inner = construction.tril(_t(L) @ gL, -1) + construction.triu(gU @ _t(U))
        return P @ _solve_unit_lower_adjoint(L, _times_inverse_upper_adjoint(inner, U))
    if m < n:
        U1, gU1, gU2 = shape.narrow(U, -1, 0, m), shape.narrow(gU, -1, 0, m), shape.narrow(gU, -1, m, n - m)
        inner = construction.tril(_t(L) @ gL - construction.triu(gU) @ _t(U), -1)
        first = _times_inverse_upper_adjoint(inner, U1) + construction.triu(gU1)
        return P @ _solve_unit_lower_adjoint(L, shape.cat([first, gU2], -1))
    L1, gL1, gL2 = shape.narrow(L, -2, 0, n), shape.narrow(gL, -2, 0, n), shape.narrow(gL, -2, n, m - n)
    inner = construction.triu(gU @ _t(U) - _t(L) @ construction.tril(gL, -1))
    first = _solve_unit_lower_adjoint(L1, inner) + construction.tril(gL1, -1)
    return P @ _times_inverse_upper_adjoint(shape.cat([first, gL2], -2), U)


class LinalgLuFactorEx(Factorization):
    """The compact ``LU`` of ``A = P L U``; its gradient is ``linalg.lu``'s with ``gL`` the strict lower
    part of ``gLU`` and ``gU`` its upper part."""

    @staticmethod
    def recompute(a: Tensor) -> tuple:
        factors = linalg_lu_factor_ex(a)
        return factors.LU, _graph.wrap(_permutation(factors.pivots._data, a.shape[-2], a._data.dtype))

    @staticmethod
    def gradient(a: Tensor, results: tuple, grads: list) -> Tensor:
        LU, P = results
        g = grads[0]
        return _lu_gradient(P, _unit_lower(LU), _upper(LU), _strict_lower(g), _upper(g))


class LinalgLu(Factorization):
    """``(P, L, U)`` with ``A = P L U`` (see ``_lu_gradient``)."""

    column_major = False  # (PyTorch's P, L and U are row-major)

    @staticmethod
    def recompute(a: Tensor) -> tuple:
        return tuple(linalg_lu(a))

    @staticmethod
    def gradient(a: Tensor, results: tuple, grads: list) -> Tensor:
        P, L, U = results
        return _lu_gradient(P, L, U, grads[1], grads[2])


# ---------------------------------------------------------------------------------- public functions
def linalg_lu_factor_ex(A: Tensor, *, pivot: bool = True, check_errors: bool = False) -> Any:
    """The named tuple ``(LU, pivots, info)`` of ``A = P L U``: ``info`` is nonzero (the 1-based index of
    the first zero diagonal entry of ``U``) where ``A`` is singular; the error is raised only with
    ``check_errors``."""
    _check_input(A, "linalg.lu_factor_ex", pivot)
    lu_array, pivots, info = _factor(A._data)
    if check_errors and (error := _zero_pivot_error("torch.linalg.lu_factor_ex", info)):
        raise error
    p = _permutation(pivots, A.shape[-2], lu_array.dtype)
    LU = LinalgLuFactorEx.apply(A, results=(lu_array, p), which=0, options={})
    return return_types.linalg_lu_factor_ex(LU, _graph.wrap(pivots), _graph.wrap(info))


def linalg_lu_factor(A: Tensor, *, pivot: bool = True) -> Any:
    """The named tuple ``(LU, pivots)`` of ``A = P L U`` (see ``lu_unpack``); a singular ``A`` (a zero
    diagonal entry in ``U``) raises, as ``lu_solve`` could not use it."""
    LU, pivots, info = linalg_lu_factor_ex(A, pivot=pivot)
    if error := _zero_pivot_error("torch.linalg.lu_factor", info._data):
        raise error
    return return_types.linalg_lu_factor(LU, pivots)


def linalg_lu(A: Tensor, *, pivot: bool = True) -> Any:
    """The named tuple ``(P, L, U)`` with ``A = P L U``: ``P`` a permutation matrix, ``L`` (m x k) unit
    lower triangular, ``U`` (k x n) upper triangular, ``k = min(m, n)``."""
    _check_input(A, "linalg.lu", pivot)
    lu_array, pivots, _ = _factor(A._data)
    xp = array_module_of(lu_array)
    m, n = A.shape[-2:]
    k = min(m, n)
    lower = xp.tril(lu_array, -1)[..., :, :k] + xp.eye(m, k, dtype=lu_array.dtype)
    upper = xp.triu(lu_array)[..., :k, :]
    results = (_permutation(pivots, m, lu_array.dtype), lower, upper)
    return return_types.linalg_lu(*_outputs(LinalgLu, A, results, (1, 2)))


def lu_unpack(LU_data: Tensor, LU_pivots: Tensor, unpack_data: bool = True, unpack_pivots: bool = True) -> Any:
    """The named tuple ``(P, L, U)`` of the compact ``(LU, pivots)`` of ``linalg.lu_factor``; a part not
    unpacked is an empty tensor."""
    xp = array_module_of(LU_data._data)
    empty = _graph.wrap(xp.zeros((0,), dtype=LU_data._data.dtype))
    p = _graph.wrap(_permutation(LU_pivots._data, LU_data.shape[-2], LU_data._data.dtype)) if unpack_pivots else empty
    if not unpack_data:
        return return_types.lu_unpack(p, empty, empty)
    return return_types.lu_unpack(p, composed("LuUnpackBackward0", _unit_lower, LU_data),
                                  composed("LuUnpackBackward0", _upper, LU_data))


def _lu_solved(LU: Tensor, B: Tensor, *, P: Tensor, left: bool, adjoint: bool) -> Tensor:
    """``A^{-1} B`` for ``A = P L U`` (``A^T`` in place of ``A`` with ``adjoint``; ``B A^{-1}`` with ``left=False``,
    the transpose of ``A^{-T} B^T``), as differentiable ops of ``LU`` and ``B``."""
    if not left:
        return _t(_lu_solved(LU, _t(B), P=P, left=True, adjoint=not adjoint))
    L, U = _unit_lower(LU), _upper(LU)
    if adjoint:
        return P @ linalg_solve(_t(L), linalg_solve(_t(U), B))
    return linalg_solve(U, linalg_solve(L, _t(P) @ B))


def linalg_lu_solve(LU: Tensor, pivots: Tensor, B: Tensor, *, left: bool = True, adjoint: bool = False) -> Tensor:
    """The solution ``X`` of ``A X = B`` given ``linalg.lu_factor(A)``; ``X A = B`` with ``left=False``, and
    ``A^T`` in place of ``A`` with ``adjoint=True``. Batch dimensions broadcast."""
    if B.ndim < 2:
        raise RuntimeError("linalg.lu_solve: The input tensor B must have at least 2 dimensions.")
    if LU.ndim < 2 or LU.shape[-1] != LU.shape[-2]:
        raise RuntimeError(f"torch.linalg.lu_solve: A must be batches of square matrices, but they are "
                           f"{LU.shape[-2]} by {LU.shape[-1]} matrices")
    if pivots.dtype.name != "int32":
        raise RuntimeError("linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32")
    n = LU.shape[-1]
    if (B.shape[-2] if left else B.shape[-1]) != n:
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {B.shape[-2]}x{B.shape[-1]})")
    P = _graph.wrap(_permutation(pivots._data, n, LU._data.dtype))
    return composed("LinalgLuSolveBackward0", _lu_solved, LU, B, P=P, left=left, adjoint=adjoint)


def lu(A: Tensor, pivot: bool = True, get_infos: bool = False) -> Any:
    """``torch.lu`` (deprecated in PyTorch): ``(LU, pivots)`` of ``linalg.lu_factor``, with ``info`` (and
    no error for a singular ``A``) when ``get_infos``."""
    warnings.warn("torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and will be "
                  "removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\nshould be replaced "
                  "with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\nLU, pivots, info = torch.lu(A, "
                  "compute_pivots, get_infos=True)\nshould be replaced with\nLU, pivots, info = "
                  "torch.linalg.lu_factor_ex(A, compute_pivots)", UserWarning, stacklevel=2)
    factors = linalg_lu_factor_ex(A, pivot=pivot, check_errors=not get_infos)
    if get_infos:
        return return_types._lu_with_info(*factors)
    return factors.LU, factors.pivots


def lu_solve(b: Tensor, LU_data: Tensor, LU_pivots: Tensor) -> Tensor:
    """``torch.lu_solve`` (deprecated in PyTorch): ``linalg.lu_solve(LU_data, LU_pivots, b)``."""
    warnings.warn("torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a future "
                  "PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\nX = "
                  "torch.lu_solve(B, LU, pivots)\nshould be replaced with\nX = torch.linalg.lu_solve(LU, pivots, B)",
                  UserWarning, stacklevel=2)
    return linalg_lu_solve(LU_data, LU_pivots, b)


# ------------------------------------------------------------------------------- Householder products
def _householder_product(A: Tensor, tau: Tensor) -> Tensor:
    """``H_1 H_2 ... H_k`` (its first n columns), ``H_i = I - tau_i v_i v_i^T`` with ``v_i`` column ``i`` of
    ``A`` below the diagonal, a one on it and zeros above."""
    m, n = A.shape[-2:]
    k = tau.shape[-1]
    vectors = _unit_lower(A)
    q = _eye(A, m, m)
    for i in range(k):
        v = shape.narrow(vectors, -1, i, 1)
        q = q - (q @ v) * shape.unsqueeze(shape.narrow(tau, -1, i, 1), -1) @ _t(v)
    return shape.narrow(q, -1, 0, n)


def householder_product(A: Tensor, tau: Tensor) -> Tensor:
    """The first n columns of the product of Householder reflectors ``H_1 ... H_k`` stored in ``A`` (m x n,
    m >= n) and ``tau`` (k <= n): the ``Q`` of a QR factorisation given ``geqrf``'s output."""
    name = "torch.linalg.householder_product"
    if A.ndim < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if A.shape[-2] < A.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-2] must be greater than or equal to input.shape[-1]")
    if A.shape[-1] < tau.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-1] must be greater than or equal to tau.shape[-1]")
    if A.dtype != tau.dtype:
        raise RuntimeError(f"{name}: tau dtype {_type_name(tau)} does not match input dtype {_type_name(A)}")
    return composed("LinalgHouseholderProductBackward0", _householder_product, A, tau)


def _type_name(t: Tensor) -> str:
    return {"float32": "Float", "float64": "Double"}.get(t.dtype.name, t.dtype.name)


orgqr = householder_product


def _ormqr(input: Tensor, tau: Tensor, other: Tensor, *, left: bool, transpose: bool) -> Tensor:
    """``op(Q) other`` (``other op(Q)`` for ``left=False``), ``Q`` the full m x m product of the reflectors:
    ``householder_product`` of ``input`` widened with zero columns to m x m."""
    m, k = input.shape[-2:]
    widened = shape.cat([input, input.new_zeros(*input.shape[:-1], m - k)], -1) if m > k else input
    q = _householder_product(widened, tau)
    q = _t(q) if transpose else q
    return q @ other if left else other @ q


def ormqr(input: Tensor, input2: Tensor, input3: Tensor, left: bool = True, transpose: bool = False) -> Tensor:
    """The product of ``input3`` by ``Q`` (``Q^T`` with ``transpose``), on the left or on the right, ``Q``
    the product of the Householder reflectors that ``geqrf`` gives as ``(input, input2)``."""
    name = "torch.ormqr"
    if input.ndim < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    m = input.shape[-2]
    side = input3.shape[-2] if left else input3.shape[-1]
    if side != m:
        raise RuntimeError(f"{name}: other.shape[{-2 if left else -1}] must be equal to input.shape[-2]")
    if input2.shape[-1] > min(side, input.shape[-1]):
        raise RuntimeError(f"{name}: tau.shape[-1] must be equal to min(other.shape[-2], input.shape[-1])")
    return composed("OrmqrBackward0", _ormqr, input, input2, input3, left=left, transpose=transpose)


class Geqrf(Op):
    """One result of ``geqrf``, which PyTorch does not differentiate: its backward raises."""

    @staticmethod
    def forward(ctx: Geqrf, a: Any, *, result: Any) -> Any:
        return result

    @staticmethod
    def backward(ctx: Geqrf, g: Any) -> Any:
        raise NotImplementedError("the derivative for 'geqrf' is not implemented.")


def geqrf(input: Tensor) -> Any:
    """The named tuple ``(a, tau)`` of LAPACK's geqrf: ``R`` in ``a``'s upper triangle, the Householder
    vectors below it and their scales ``tau`` (``householder_product(a, tau)`` is ``Q``). It has no
    derivative, as in PyTorch."""
    xp = array_module_of(input._data)
    dtype = input._data.dtype
    k = min(input.shape[-2:])
    flat = input._data.reshape((-1,) + input.shape[-2:])
    pairs = [xp.linalg.qr(matrix, mode="raw") for matrix in flat]  # raw: (a^T, tau) in LAPACK's storage
    a = xp.stack([h.T for h, _ in pairs]).reshape(input.shape) if pairs else input._data.copy()
    tau = (xp.stack([t for _, t in pairs]).reshape(input.shape[:-2] + (k,)) if pairs
           else xp.zeros(input.shape[:-2] + (k,), dtype=dtype))
    return return_types.geqrf(Geqrf.apply(input, result=a.astype(dtype)), Geqrf.apply(input, result=tau.astype(dtype)))
