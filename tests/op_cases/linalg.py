"""Registry cases for the linalg ops: every rank combination of matmul, and its special cases."""
from __future__ import annotations

import numpy as np

import tinyframe as tf

from . import OpCase

CASES: list[OpCase] = [
    OpCase("matmul_matrix_matrix", tf.matmul, np.matmul, [(3, 4), (4, 5)]),
    OpCase("matmul_operator", lambda x, y: x @ y, np.matmul, [(3, 4), (4, 2)]),
    OpCase("matmul_vector_vector", tf.matmul, np.matmul, [(4,), (4,)]),
    OpCase("matmul_matrix_vector", tf.matmul, np.matmul, [(3, 4), (4,)]),
    OpCase("matmul_vector_matrix", tf.matmul, np.matmul, [(4,), (4, 5)]),
    OpCase("matmul_batched", tf.matmul, np.matmul, [(2, 3, 4), (2, 4, 5)]),
    OpCase("matmul_broadcast_batch", tf.matmul, np.matmul, [(2, 1, 3, 4), (3, 4, 2)]),
    OpCase("matmul_batch_vector", tf.matmul, np.matmul, [(2, 3, 4), (4,)]),
    OpCase("matmul_vector_batch", tf.matmul, np.matmul, [(4,), (2, 4, 5)]),
    OpCase("matmul_matrix_batch", tf.matmul, np.matmul, [(3, 4), (2, 4, 5)]),
    OpCase("matmul_batch_matrix", tf.matmul, np.matmul, [(2, 3, 4), (4, 5)]),
    OpCase("matmul_transposed_operand", lambda x, y: x.t() @ y, lambda x, y: x.T @ y, [(4, 3), (4, 2)]),
    OpCase("mm", tf.mm, np.matmul, [(3, 4), (4, 5)]),
    OpCase("bmm", tf.bmm, np.matmul, [(2, 3, 4), (2, 4, 5)]),
    OpCase("mv", tf.mv, np.matmul, [(3, 4), (4,)]),
    OpCase("dot", tf.dot, np.dot, [(5,), (5,)]),
    OpCase("outer", tf.outer, np.outer, [(3,), (4,)]),
    OpCase("inner", tf.inner, np.inner, [(2, 4), (3, 4)]),
    OpCase("inner_batched", tf.inner, np.inner, [(2, 3, 4), (5, 4)]),
]
