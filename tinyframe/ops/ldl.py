"""The LDL factorisation of symmetric matrices (Bunch-Kaufman pivoting, LAPACK's sytf2 with the lower
triangle): ``linalg.ldl_factor`` / ``ldl_factor_ex`` and ``linalg.ldl_solve``.

``A = P L D L^T P^T``: ``D`` block diagonal with 1 x 1 and 2 x 2 blocks, ``L`` unit lower triangular. ``LD``
holds ``D`` on and below its diagonal (a 2 x 2 block's off-diagonal entry) and ``L`` below that; ``pivots``
is LAPACK's (1-based; a 2 x 2 block has the same negative row at both its indices). PyTorch differentiates
neither function: their nodes raise, as its ``NotImplemented`` nodes do.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, return_types
from .._graph import Op
from ..device import array_module_of, device_of, move_array

if TYPE_CHECKING:
    from ..tensor import Tensor

_ALPHA = (1 + 17 ** 0.5) / 8  # Bunch-Kaufman's threshold: it bounds the growth of the entries


def _sytf2(a: np.ndarray) -> tuple:
    """``(LD, pivots, info)`` of one symmetric matrix from its lower triangle (LAPACK's dsytf2, 0-based)."""
    a = np.tril(a).astype(a.dtype, copy=True)
    a = a + np.tril(a, -1).T  # symmetric, so that rows and columns read alike
    n = a.shape[0]
    pivots = np.zeros(n, dtype=np.int32)
    info, k = 0, 0
    while k < n:
        step, kp = 1, k
        absakk = abs(a[k, k])
        imax = k + 1 + int(np.argmax(np.abs(a[k + 1:, k]))) if k < n - 1 else k
        colmax = abs(a[imax, k]) if k < n - 1 else 0.0
        if max(absakk, colmax) == 0 or np.isnan(absakk):
            info = info or k + 1
        elif absakk < _ALPHA * colmax:
            row = np.abs(np.concatenate([a[imax, k:imax], a[imax + 1:, imax]]))
            rowmax = row.max()
            if absakk >= _ALPHA * colmax * (colmax / rowmax):
                kp = k
            elif abs(a[imax, imax]) >= _ALPHA * rowmax:
                kp = imax
            else:
                kp, step = imax, 2
        kk = k + step - 1
        if kp != kk:  # the symmetric interchange of rows and columns kk and kp of the trailing matrix
            a[[kk, kp], k:] = a[[kp, kk], k:]
            a[k:, [kk, kp]] = a[k:, [kp, kk]]
        if max(absakk, colmax) != 0 and not np.isnan(absakk):
            _eliminate(a, k, step)
        pivots[k:k + step] = kp + 1 if step == 1 else -(kp + 1)
        k += step
    return np.tril(a), pivots, info


def _eliminate(a: np.ndarray, k: int, step: int) -> None:
    """Updates the trailing matrix by the pivot block at ``k`` and stores its column(s) of ``L``, with
    LAPACK's order of operations on the lower triangle, which is then mirrored."""
    rest = slice(k + step, None)
    if step == 1:
        x, d11 = a[rest, k].copy(), 1 / a[k, k]
        a[rest, rest] -= np.outer(x, x * d11)
        a[rest, k] = x * d11
    else:
        d21 = a[k + 1, k]
        d11, d22 = a[k + 1, k + 1] / d21, a[k, k] / d21
        scale = (1 / (d11 * d22 - 1)) / d21
        wk = scale * (d11 * a[rest, k] - a[rest, k + 1])
        wkp1 = scale * (d22 * a[rest, k + 1] - a[rest, k])
        a[rest, rest] = a[rest, rest] - np.outer(a[rest, k], wk) - np.outer(a[rest, k + 1], wkp1)
        a[rest, k], a[rest, k + 1] = wk, wkp1
    trailing = a[rest, rest]
    a[rest, rest] = np.tril(trailing) + np.tril(trailing, -1).T


def _sytrs(ld: np.ndarray, pivots: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``A^{-1} B`` from the factorisation (LAPACK's dsytrs, lower, 0-based)."""
    b = b.copy()
    n, k = ld.shape[0], 0
    while k < n:  # L D X = B
        if pivots[k] > 0:
            b[[k, pivots[k] - 1]] = b[[pivots[k] - 1, k]]
            b[k + 1:] -= np.outer(ld[k + 1:, k], b[k])
            b[k] /= ld[k, k]
            k += 1
            continue
        p = -pivots[k] - 1
        b[[k + 1, p]] = b[[p, k + 1]]
        b[k + 2:] -= np.outer(ld[k + 2:, k], b[k]) + np.outer(ld[k + 2:, k + 1], b[k + 1])
        akm1k = ld[k + 1, k]
        akm1, ak = ld[k, k] / akm1k, ld[k + 1, k + 1] / akm1k
        denom = akm1 * ak - 1
        bkm1, bk = b[k] / akm1k, b[k + 1] / akm1k
        b[k], b[k + 1] = (ak * bkm1 - bk) / denom, (akm1 * bk - bkm1) / denom
        k += 2
    k = n - 1
    while k >= 0:  # L^T X = B
        if pivots[k] > 0:
            b[k] -= ld[k + 1:, k] @ b[k + 1:]
            b[[k, pivots[k] - 1]] = b[[pivots[k] - 1, k]]
            k -= 1
            continue
        b[k] -= ld[k + 1:, k] @ b[k + 1:]
        b[k - 1] -= ld[k + 1:, k - 1] @ b[k + 1:]
        p = -pivots[k] - 1
        b[[k, p]] = b[[p, k]]
        k -= 2
    return b


class LinalgLdlFactorEx(Op, node_name="torch::autograd::NotImplemented"):
    @staticmethod
    def forward(ctx: LinalgLdlFactorEx, a: Any, *, ld: Any) -> Any:
        return ld

    @staticmethod
    def backward(ctx: LinalgLdlFactorEx, g: Any) -> Any:
        raise RuntimeError("derivative for aten::linalg_ldl_factor_ex is not implemented")


class LinalgLdlSolve(Op, node_name="torch::autograd::NotImplemented"):
    @staticmethod
    def forward(ctx: LinalgLdlSolve, ld: Any, b: Any, *, x: Any) -> Any:
        return x

    @staticmethod
    def backward(ctx: LinalgLdlSolve, g: Any) -> Any:
        raise RuntimeError("derivative for aten::linalg_ldl_solve is not implemented")


def _on_host(a: Any) -> np.ndarray:
    return np.asarray(move_array(a, device_of(np.empty(0))))


def linalg_ldl_factor_ex(A: Tensor, *, hermitian: bool = False, check_errors: bool = False) -> Any:
    """The named tuple ``(LD, pivots, info)`` of ``A = P L D L^T P^T`` for symmetric ``A`` (only its lower
    triangle is read); ``info`` is the 1-based index of the first zero diagonal block, 0 when ``D`` is
    invertible (the error is raised only with ``check_errors``)."""
    return _ldl("torch.linalg.ldl_factor_ex", A, check_errors)


def _ldl(name: str, A: Tensor, check_errors: bool) -> Any:
    if A.ndim < 2 or A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"torch.linalg.ldl_factor_ex: A must be batches of square matrices, but they are "
                           f"{A.shape[-2] if A.ndim > 1 else 1} by {A.shape[-1]} matrices")
    host = _on_host(A._data)
    results = [_sytf2(m) for m in host.reshape((-1,) + host.shape[-2:])]
    shape_of = host.shape
    ld = np.stack([r[0] for r in results]).reshape(shape_of) if results else host.copy()
    pivots = np.stack([r[1] for r in results]).reshape(shape_of[:-1]) if results else np.zeros(shape_of[:-1], np.int32)
    info = np.array([r[2] for r in results], dtype=np.int32).reshape(shape_of[:-2])
    if check_errors and info.any():
        # PyTorch fails here with an internal assertion ("Unknown error code"); this says what happened.
        raise RuntimeError(f"{name}: The factorization could not be completed because the "
                           f"input is singular: the diagonal element {int(info.reshape(-1)[info.reshape(-1) != 0][0])} "
                           "of D is zero.")
    xp = array_module_of(A._data)
    LD = LinalgLdlFactorEx.apply(A, ld=xp.asarray(ld))
    return return_types.linalg_ldl_factor_ex(LD, _graph.wrap(xp.asarray(pivots)), _graph.wrap(xp.asarray(info)))


def linalg_ldl_factor(A: Tensor, *, hermitian: bool = False) -> Any:
    """The named tuple ``(LD, pivots)`` of ``linalg.ldl_factor_ex`` (see it), raising for a singular ``A``."""
    LD, pivots, _ = _ldl("torch.linalg.ldl_factor", A, True)
    return return_types.linalg_ldl_factor(LD, pivots)


def linalg_ldl_solve(LD: Tensor, pivots: Tensor, B: Tensor, *, hermitian: bool = False) -> Tensor:
    """The solution ``X`` of ``A X = B`` given ``linalg.ldl_factor(A)`` (batches of ``LD`` and ``B`` alike)."""
    if B.ndim < 2:
        rank = max(B.ndim, 1)
        raise IndexError(f"Dimension out of range (expected to be in range of [-{rank}, {rank - 1}], but got -2)")
    ld, piv, b = _on_host(LD._data), _on_host(pivots._data), _on_host(B._data)
    lead = np.broadcast_shapes(ld.shape[:-2], b.shape[:-2])
    ld = np.broadcast_to(ld, lead + ld.shape[-2:]).reshape((-1,) + ld.shape[-2:])
    piv = np.broadcast_to(piv, lead + piv.shape[-1:]).reshape((-1,) + piv.shape[-1:])
    flat_b = np.broadcast_to(b, lead + b.shape[-2:]).reshape((-1,) + b.shape[-2:])
    x = np.stack([_sytrs(m, p, r) for m, p, r in zip(ld, piv, flat_b)]).reshape(lead + b.shape[-2:])
    return LinalgLdlSolve.apply(LD, B, x=array_module_of(B._data).asarray(x.astype(b.dtype)))
