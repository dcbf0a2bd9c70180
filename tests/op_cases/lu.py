"""Registry cases for the LU family and Householder products: ``linalg.lu_factor`` / ``lu`` (square, wide and
tall), ``lu_unpack``, ``lu_solve`` in its four forms, and ``householder_product``. The inputs are generic, so
partial pivoting picks the same rows under the finite differences' small steps."""
from __future__ import annotations

import numpy as np

import tinyframe as tf

from . import OpCase


def _np_lu(a: np.ndarray) -> tuple:
    """``(P, L, U)`` of one matrix by Gaussian elimination with partial pivoting (the reference)."""
    m, n = a.shape
    k = min(m, n)
    u, perm = a.astype(np.float64).copy(), np.arange(m)
    lower = np.zeros((m, k))
    for j in range(k):
        p = j + int(np.argmax(np.abs(u[j:, j])))
        u[[j, p]], lower[[j, p]], perm[[j, p]] = u[[p, j]], lower[[p, j]], perm[[p, j]]
        lower[j + 1:, j] = u[j + 1:, j] / u[j, j]
        u[j + 1:] -= np.outer(lower[j + 1:, j], u[j])
    return np.eye(m)[perm].T, lower + np.eye(m, k), np.triu(u)[:k]


def _np_compact(a: np.ndarray) -> np.ndarray:
    _, lower, upper = _np_lu(a)
    k = min(a.shape)
    compact = np.zeros(a.shape)
    compact[:, :k] = np.tril(lower, -1)
    compact[:k] += upper
    return compact


def _lu_parts(x: tf.Tensor) -> tf.Tensor:
    _, lower, upper = tf.linalg.lu(x)
    return tf.cat([lower.flatten(), upper.flatten()])


def _np_lu_parts(a: np.ndarray) -> np.ndarray:
    _, lower, upper = _np_lu(a)
    return np.concatenate([lower.ravel(), upper.ravel()])


def _unpacked(x: tf.Tensor) -> tf.Tensor:
    _, lower, upper = tf.lu_unpack(*tf.linalg.lu_factor(x))
    return tf.cat([lower.flatten(), upper.flatten()])


def _solved(left: bool, adjoint: bool):
    def solve(a: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
        LU, pivots = tf.linalg.lu_factor(a)
        return tf.linalg.lu_solve(LU, pivots, b, left=left, adjoint=adjoint)
    return solve


def _np_solved(left: bool, adjoint: bool):
    def solve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        a = a.T if adjoint else a
        return np.linalg.solve(a, b) if left else b @ np.linalg.inv(a)
    return solve


def _np_householder(a: np.ndarray, tau: np.ndarray) -> np.ndarray:
    m, n = a.shape
    q = np.eye(m)
    for i in range(tau.shape[0]):
        v = np.concatenate([np.zeros(i), [1.0], a[i + 1:, i]])
        q = q @ (np.eye(m) - tau[i] * np.outer(v, v))
    return q[:, :n]


def _np_full_q(a: np.ndarray, tau: np.ndarray) -> np.ndarray:
    m = a.shape[0]
    return _np_householder(np.concatenate([a, np.zeros((m, m - a.shape[1]))], axis=1), tau)


CASES: list[OpCase] = [
    OpCase("linalg_lu_factor", lambda x: tf.linalg.lu_factor(x).LU, _np_compact, [(3, 3)]),
    OpCase("linalg_lu_factor_batched", lambda x: tf.linalg.lu_factor_ex(x).LU,
           lambda a: np.stack([_np_compact(m) for m in a]), [(2, 3, 3)]),
    OpCase("linalg_lu_factor_wide", lambda x: tf.linalg.lu_factor(x).LU, _np_compact, [(2, 4)]),
    OpCase("linalg_lu_factor_tall", lambda x: tf.linalg.lu_factor(x).LU, _np_compact, [(4, 2)]),
    OpCase("linalg_lu", _lu_parts, _np_lu_parts, [(3, 3)]),
    OpCase("linalg_lu_wide", _lu_parts, _np_lu_parts, [(2, 4)]),
    OpCase("linalg_lu_tall", _lu_parts, _np_lu_parts, [(4, 3)]),
    OpCase("lu_unpack", _unpacked, _np_lu_parts, [(3, 3)]),
    OpCase("lu_unpack_tall", _unpacked, _np_lu_parts, [(4, 2)]),
    OpCase("linalg_lu_solve", _solved(True, False), _np_solved(True, False), [(3, 3), (3, 2)]),
    OpCase("linalg_lu_solve_adjoint", _solved(True, True), _np_solved(True, True), [(3, 3), (3, 2)]),
    OpCase("linalg_lu_solve_right", _solved(False, False), _np_solved(False, False), [(3, 3), (2, 3)]),
    OpCase("linalg_lu_solve_right_adjoint", _solved(False, True), _np_solved(False, True), [(3, 3), (2, 3)]),
    OpCase("householder_product", tf.linalg.householder_product, _np_householder, [(4, 3), (2,)]),
    OpCase("orgqr", tf.orgqr, _np_householder, [(3, 3), (3,)]),
    OpCase("ormqr", tf.ormqr, lambda a, tau, c: _np_full_q(a, tau) @ c, [(4, 2), (2,), (4, 3)]),
    OpCase("ormqr_right_transposed", lambda a, tau, c: tf.ormqr(a, tau, c, left=False, transpose=True),
           lambda a, tau, c: c @ _np_full_q(a, tau).T, [(3, 3), (2,), (2, 3)]),
]


def _ldl_solved(a: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
    LD, pivots = tf.linalg.ldl_factor(a + a.mT)
    return tf.linalg.ldl_solve(LD, pivots, b)


# LDL has no derivative in PyTorch (its nodes raise), so only the forward is checked.
CASES += [
    OpCase("linalg_ldl_solve", _ldl_solved, lambda a, b: np.linalg.solve(a + a.T, b), [(4, 4), (4, 2)], grad=False),
    OpCase("linalg_ldl_solve_batched", _ldl_solved, lambda a, b: np.linalg.solve(a + np.swapaxes(a, -1, -2), b),
           [(2, 3, 3), (2, 3, 1)], grad=False),
]
