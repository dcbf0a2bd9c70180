"""Registry cases for the linalg ops: every rank combination of matmul, and its special cases; and
``linear``, composed of them as in PyTorch (addmm or matmul of ``weight.t()``), for every input rank."""
from __future__ import annotations

import numpy as np

import tinyframe as tf

from . import OpCase


def _linear(x: tf.Tensor, w: tf.Tensor, b: tf.Tensor | None = None) -> tf.Tensor:
    return tf.nn.functional.linear(x, w, b)


def _linear_reference(x: np.ndarray, w: np.ndarray, b: np.ndarray | None = None) -> np.ndarray:
    return x @ w.T if b is None else x @ w.T + b


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
    OpCase("linear_vector", _linear, _linear_reference, [(4,), (3, 4), (3,)]),
    OpCase("linear_matrix", _linear, _linear_reference, [(2, 4), (3, 4), (3,)]),
    OpCase("linear_batch", _linear, _linear_reference, [(2, 5, 4), (3, 4), (3,)]),
    OpCase("linear_transposed_batch", lambda x, w, b: _linear(x.transpose(0, 1), w, b),
           lambda x, w, b: _linear_reference(x.swapaxes(0, 1), w, b), [(5, 2, 4), (3, 4), (3,)]),
    OpCase("linear_without_bias_vector", _linear, _linear_reference, [(4,), (3, 4)]),
    OpCase("linear_without_bias_matrix", _linear, _linear_reference, [(2, 4), (3, 4)]),
    OpCase("linear_without_bias_batch", _linear, _linear_reference, [(2, 5, 4), (3, 4)]),
    OpCase("linalg_vander", tf.linalg.vander, lambda x: np.vander(x, increasing=True), [(4,)]),
    OpCase("linalg_vander_batch_N", lambda x: tf.linalg.vander(x, N=3),
           lambda x: x[..., None] ** np.arange(3), [(2, 4)]),
]
