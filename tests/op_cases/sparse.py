"""Registry cases for the sparse COO ops: functions of dense tensors through sparse ones (the values of a
sparse matrix built with ``sparse_coo_tensor``, a dense matrix made sparse), so that finite differences
check the gradients that reach the values and the dense operands, to the second order. (``Embedding(sparse=True)``
gives its dense weight a sparse gradient, which finite differences do not compare: tests/test_sparse.py has it.)"""
from __future__ import annotations

import numpy as np

import tinyframe as tf

from . import OpCase

INDICES = [[0, 1, 1, 2, 1], [2, 0, 2, 1, 0]]  # (1, 0) twice: an uncoalesced matrix


def _sparse(values: tf.Tensor) -> tf.Tensor:
    return tf.sparse_coo_tensor(tf.tensor(INDICES, device=values.device), values, (3, 3))


def _dense(values: np.ndarray) -> np.ndarray:
    out = np.zeros((3, 3))
    np.add.at(out, tuple(np.array(INDICES)), values)
    return out


def _softmax(values: np.ndarray, log: bool) -> np.ndarray:
    """Row softmax over the stored entries of the coalesced matrix; zero where nothing is stored."""
    dense = _dense(values)
    stored = _dense(np.ones(5)) > 0
    exp = np.where(stored, np.exp(dense), 0)
    out = exp / exp.sum(1, keepdims=True)
    return np.where(stored, np.log(np.where(stored, out, 1)), 0) if log else out


CASES: list[OpCase] = [
    OpCase("sparse_coo_tensor_to_dense", lambda v: _sparse(v).to_dense(), _dense, [(5,)]),
    OpCase("sparse_mm", lambda v, x: tf.sparse.mm(_sparse(v), x), lambda v, x: _dense(v) @ x, [(5,), (3, 2)]),
    OpCase("sparse_matmul_operator", lambda v, x: _sparse(v) @ x, lambda v, x: _dense(v) @ x, [(5,), (3, 2)]),
    OpCase("dense_mm_sparse", lambda x, v: x @ _sparse(v), lambda x, v: x @ _dense(v), [(2, 3), (5,)]),
    OpCase("sparse_mv", lambda v, x: _sparse(v) @ x, lambda v, x: _dense(v) @ x, [(5,), (3,)]),
    OpCase("sparse_mm_of_to_sparse", lambda d, x: tf.sparse.mm(d.to_sparse(), x), np.matmul, [(3, 3), (3, 4)]),
    OpCase("sparse_t", lambda v: _sparse(v).t().to_dense(), lambda v: _dense(v).T, [(5,)]),
    OpCase("sparse_mul_number", lambda v: (_sparse(v) * 2.5).to_dense(), lambda v: _dense(v) * 2.5, [(5,)]),
    OpCase("sparse_add", lambda v, w: (_sparse(v) + _sparse(w)).to_dense(), lambda v, w: _dense(v) + _dense(w),
           [(5,), (5,)]),
    OpCase("sparse_coalesce", lambda v: _sparse(v).coalesce().values(), lambda v: _dense(v)[[0, 1, 1, 2], [2, 0, 2, 1]],
           [(5,)]),
    OpCase("sparse_softmax", lambda v: tf.sparse.softmax(_sparse(v), 1).to_dense(), lambda v: _softmax(v, False),
           [(5,)]),
    OpCase("sparse_log_softmax", lambda v: tf.sparse.log_softmax(_sparse(v), 1).to_dense(), lambda v: _softmax(v, True),
           [(5,)]),
    OpCase("sparse_sum", lambda v: tf.sparse.sum(_sparse(v)), lambda v: _dense(v).sum(), [(5,)]),
    OpCase("sparse_sum_dim", lambda v: tf.sparse.sum(_sparse(v), 1).to_dense(), lambda v: _dense(v).sum(1), [(5,)]),
    OpCase("sparse_sum_dim_method", lambda v: _sparse(v).sum(0).to_dense(), lambda v: _dense(v).sum(0), [(5,)]),
    OpCase("sparse_clone", lambda v: _sparse(v).clone().to_dense(), _dense, [(5,)]),
    # the elementwise ops computed on the stored values (abs, relu and sign away from their kinks at 0)
    OpCase("sparse_abs", lambda v: _sparse(v).abs().to_dense(), lambda v: np.abs(_dense(v)), [(5,)],
           domain=(0.2, 2.0)),
    OpCase("sparse_relu", lambda v: tf.relu(_sparse(v)).to_dense(), lambda v: np.maximum(_dense(v), 0), [(5,)],
           domain=(0.2, 2.0)),
    OpCase("sparse_sqrt", lambda v: _sparse(v).sqrt().to_dense(), lambda v: np.sqrt(_dense(v)), [(5,)],
           domain=(0.2, 2.0)),
    OpCase("sparse_tanh", lambda v: _sparse(v).tanh().to_dense(), lambda v: np.tanh(_dense(v)), [(5,)]),
    OpCase("sparse_sin", lambda v: tf.sin(_sparse(v)).to_dense(), lambda v: np.sin(_dense(v)), [(5,)]),
    OpCase("sparse_pow", lambda v: _sparse(v).pow(3).to_dense(), lambda v: _dense(v) ** 3, [(5,)]),
    OpCase("sparse_square", lambda v: _sparse(v).square().to_dense(), lambda v: _dense(v) ** 2, [(5,)]),
    OpCase("sparse_mul_dense", lambda v, x: (_sparse(v) * x).to_dense(), lambda v, x: _dense(v) * x,
           [(5,), (3, 3)]),
    OpCase("dense_mul_sparse_row", lambda x, v: (x * _sparse(v)).to_dense(), lambda x, v: x * _dense(v),
           [(3,), (5,)]),
    OpCase("sparse_mul_sparse", lambda v, w: _sparse(v).mul(_sparse(w)).to_dense(), lambda v, w: _dense(v) * _dense(w),
           [(5,), (5,)]),
]
