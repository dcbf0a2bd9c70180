"""Registry cases for tinyframe.linalg: matrix functions and decompositions on well-conditioned inputs
(made from the drawn values), and for svd / eigh only functions invariant to the singular vectors'
and eigenvectors' signs."""
from __future__ import annotations

import numpy as np

import tinyframe as tf

from . import OpCase


def _shifted(x: tf.Tensor) -> tf.Tensor:
    """``x + 4 I``: far from singular for entries in [-2, 2] at these sizes."""
    return x + tf.eye(x.shape[-1], dtype=x.dtype, device=x.device) * 4.0


def _spd(x: tf.Tensor) -> tf.Tensor:
    return x @ x.mT + tf.eye(x.shape[-1], dtype=x.dtype, device=x.device) * 3.0


def _np_shifted(a: np.ndarray) -> np.ndarray:
    return a + np.eye(a.shape[-1]) * 4.0


def _np_spd(a: np.ndarray) -> np.ndarray:
    return a @ np.swapaxes(a, -1, -2) + np.eye(a.shape[-1]) * 3.0


def _np_expm(a: np.ndarray) -> np.ndarray:
    """The matrix exponential by eigendecomposition (the inputs are generic: diagonalisable)."""
    values, vectors = np.linalg.eig(a)
    return np.real(vectors @ (np.exp(values)[..., None] * np.linalg.inv(vectors)))


def _svd_invariants(x: tf.Tensor) -> tf.Tensor:
    u, s, vh = tf.linalg.svd(x, full_matrices=False)
    return tf.cat([(u * u).flatten(), s, (vh * vh).flatten(), (u @ vh).flatten()])


def _np_svd_invariants(a: np.ndarray) -> np.ndarray:
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    return np.concatenate([(u * u).ravel(), s, (vh * vh).ravel(), (u @ vh).ravel()])


def _eigh_invariants(x: tf.Tensor) -> tf.Tensor:
    values, vectors = tf.linalg.eigh(x + x.mT)
    return tf.cat([values, (vectors * vectors).flatten()])


def _np_eigh_invariants(a: np.ndarray) -> np.ndarray:
    values, vectors = np.linalg.eigh(a + a.T)
    return np.concatenate([values, (vectors * vectors).ravel()])


def _qr_product(x: tf.Tensor) -> tf.Tensor:
    q, r = tf.linalg.qr(x)
    return tf.cat([(q * q.sum(0)).flatten(), (r * r.diagonal()[:, None]).flatten()])  # sign-invariant


def _np_qr_product(a: np.ndarray) -> np.ndarray:
    q, r = np.linalg.qr(a)
    return np.concatenate([(q * q.sum(0)).ravel(), (r * np.diag(r)[:, None]).ravel()])


CASES: list[OpCase] = [
    OpCase("linalg_det", lambda x: tf.linalg.det(_shifted(x)), lambda a: np.linalg.det(_np_shifted(a)), [(3, 3)]),
    OpCase("det_batched", lambda x: tf.det(_shifted(x)), lambda a: np.linalg.det(_np_shifted(a)), [(2, 3, 3)]),
    OpCase("linalg_slogdet", lambda x: tf.linalg.slogdet(_shifted(x)).logabsdet,
           lambda a: np.linalg.slogdet(_np_shifted(a))[1], [(3, 3)]),
    OpCase("logdet", lambda x: tf.logdet(_spd(x)), lambda a: np.log(np.linalg.det(_np_spd(a))), [(3, 3)]),
    OpCase("linalg_inv", lambda x: tf.linalg.inv(_shifted(x)), lambda a: np.linalg.inv(_np_shifted(a)), [(3, 3)]),
    OpCase("inverse_batched", lambda x: tf.inverse(_shifted(x)), lambda a: np.linalg.inv(_np_shifted(a)),
           [(2, 2, 2)]),
    OpCase("linalg_solve", lambda x, b: tf.linalg.solve(_shifted(x), b),
           lambda a, b: np.linalg.solve(_np_shifted(a), b), [(3, 3), (3, 2)]),
    OpCase("linalg_solve_vector", lambda x, b: tf.linalg.solve(_shifted(x), b),
           lambda a, b: np.linalg.solve(_np_shifted(a), b[:, None])[:, 0], [(3, 3), (3,)]),
    OpCase("linalg_solve_right", lambda x, b: tf.linalg.solve(_shifted(x), b, left=False),
           lambda a, b: b @ np.linalg.inv(_np_shifted(a)), [(3, 3), (2, 3)]),
    OpCase("linalg_cholesky", lambda x: tf.linalg.cholesky(_spd(x)), lambda a: np.linalg.cholesky(_np_spd(a)),
           [(3, 3)]),
    OpCase("cholesky_upper", lambda x: tf.linalg.cholesky(_spd(x), upper=True),
           lambda a: np.linalg.cholesky(_np_spd(a)).T, [(3, 3)]),
    OpCase("linalg_qr", _qr_product, _np_qr_product, [(4, 3)]),
    OpCase("linalg_svd", _svd_invariants, _np_svd_invariants, [(3, 4)]),
    OpCase("linalg_svd_tall", _svd_invariants, _np_svd_invariants, [(4, 2)]),
    OpCase("linalg_svdvals", tf.linalg.svdvals, lambda a: np.linalg.svd(a, compute_uv=False), [(3, 4)]),
    OpCase("linalg_eigh", _eigh_invariants, _np_eigh_invariants, [(3, 3)]),
    OpCase("linalg_eigvalsh", lambda x: tf.linalg.eigvalsh(x + x.mT), lambda a: np.linalg.eigvalsh(a + a.T),
           [(3, 3)]),
    OpCase("linalg_pinv", tf.linalg.pinv, np.linalg.pinv, [(3, 2)]),
    OpCase("linalg_pinv_wide", tf.linalg.pinv, np.linalg.pinv, [(2, 4)]),
    OpCase("linalg_lstsq", lambda a, b: tf.linalg.lstsq(a, b).solution, lambda a, b: np.linalg.lstsq(a, b)[0],
           [(4, 2), (4, 3)]),
    OpCase("matrix_norm_fro", lambda x: tf.linalg.matrix_norm(x), np.linalg.norm, [(3, 4)]),
    OpCase("matrix_norm_nuc", lambda x: tf.linalg.matrix_norm(x, "nuc"), lambda a: np.linalg.norm(a, "nuc"),
           [(3, 4)]),
    OpCase("matrix_norm_2", lambda x: tf.linalg.norm(x, 2), lambda a: np.linalg.norm(a, 2), [(3, 4)]),
    OpCase("matrix_norm_inf", lambda x: tf.linalg.norm(x, float("inf")), lambda a: np.linalg.norm(a, np.inf),
           [(3, 4)]),
    OpCase("matrix_norm_neg1_dims", lambda x: tf.linalg.matrix_norm(x, -1, dim=(2, 0)),
           lambda a: np.linalg.norm(np.moveaxis(a, (2, 0), (0, 1)), -1, axis=(0, 1)), [(3, 2, 4)]),
    OpCase("vector_norm", lambda x: tf.linalg.vector_norm(x, 3, dim=1), lambda a: np.linalg.norm(a, 3, axis=1),
           [(3, 4)]),
    OpCase("linalg_norm_default", tf.linalg.norm, lambda a: np.linalg.norm(a.ravel()), [(2, 3, 2)]),
    OpCase("multi_dot", lambda a, b, c: tf.linalg.multi_dot([a, b, c]), lambda a, b, c: a @ b @ c,
           [(3,), (3, 4), (4, 2)]),
    OpCase("matrix_power", lambda x: tf.linalg.matrix_power(x, 3), lambda a: np.linalg.matrix_power(a, 3), [(3, 3)]),
    OpCase("solve_triangular", lambda x, b: tf.linalg.solve_triangular(_shifted(x), b, upper=True),
           lambda a, b: np.linalg.solve(np.triu(_np_shifted(a)), b), [(3, 3), (3, 2)]),
    OpCase("cholesky_solve", lambda x, b: tf.cholesky_solve(b, tf.linalg.cholesky(_spd(x))),
           lambda a, b: np.linalg.solve(_np_spd(a), b), [(3, 3), (3, 1)]),
    OpCase("matrix_exp", tf.linalg.matrix_exp, lambda a: _np_expm(a), [(2, 3, 3)]),
    OpCase("matrix_exp_large_norm", lambda x: tf.matrix_exp(x * 4.0), lambda a: _np_expm(a * 4.0), [(2, 2)]),
    OpCase("cond_fro", lambda x: tf.linalg.cond(_shifted(x), "fro"),
           lambda a: np.linalg.cond(_np_shifted(a), "fro"), [(3, 3)]),
    OpCase("cond_2", lambda x: tf.linalg.cond(_shifted(x)), lambda a: np.linalg.cond(_np_shifted(a)), [(2, 3, 3)]),
    OpCase("tensorinv", lambda x: tf.linalg.tensorinv(_shifted(x).reshape(2, 2, 4), ind=2),
           lambda a: np.linalg.tensorinv(_np_shifted(a).reshape(2, 2, 4), ind=2), [(4, 4)]),
    OpCase("linalg_cross", lambda a, b: tf.linalg.cross(a, b), lambda a, b: np.cross(a, b), [(2, 3), (2, 3)]),
]
