"""Registry cases for sorting and selection: the values they select, and cumulative products/extremes."""
from __future__ import annotations

import numpy as np

import tinyframe as tf

from . import OpCase

ZEROS = np.array([[1.0, 0.0, 1.0, 1.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0], [0.0, 1.0, 1.0, 1.0, 1.0]])


def _lower_median(a: np.ndarray, axis: int | None = None) -> np.ndarray:
    s = np.sort(a.reshape(-1) if axis is None else a, axis=-1 if axis is None else axis)
    n = s.shape[-1 if axis is None else axis]
    return np.take(s, (n - 1) // 2, axis=-1 if axis is None else axis)


CASES: list[OpCase] = [
    OpCase("sort", lambda x: tf.sort(x).values, np.sort, [(3, 5)]),
    OpCase("sort_descending_dim0", lambda x: x.sort(0, descending=True)[0], lambda a: -np.sort(-a, 0), [(4, 3)]),
    OpCase("topk", lambda x: tf.topk(x, 2).values, lambda a: -np.sort(-a, -1)[:, :2], [(3, 5)]),
    OpCase("topk_smallest_dim0", lambda x: x.topk(3, 0, largest=False).values, lambda a: np.sort(a, 0)[:3],
           [(4, 2)]),
    OpCase("kthvalue", lambda x: tf.kthvalue(x, 2, 1).values, lambda a: np.sort(a, 1)[:, 1], [(3, 4)]),
    OpCase("kthvalue_keepdim", lambda x: x.kthvalue(3, 0, keepdim=True).values, lambda a: np.sort(a, 0)[2:3],
           [(4, 3)]),
    OpCase("median", tf.median, _lower_median, [(3, 4)]),
    OpCase("median_dim", lambda x: tf.median(x, 1).values, lambda a: _lower_median(a, 1), [(3, 4)]),
    OpCase("nanmedian_dim", lambda x: x.nanmedian(0).values, lambda a: _lower_median(a, 0), [(5, 2)]),
    OpCase("mode", lambda x: tf.mode(x, 1).values, lambda a: a.min(1), [(3, 4)]),
    OpCase("quantile", lambda x: tf.quantile(x, 0.3, dim=1), lambda a: np.quantile(a, 0.3, axis=1), [(3, 5)]),
    OpCase("quantile_vector_q", lambda x: tf.quantile(x, tf.tensor([0.25, 0.9], dtype=x.dtype, device=x.device)),
           lambda a: np.quantile(a, [0.25, 0.9]), [(3, 4)]),
    OpCase("quantile_midpoint_keepdim", lambda x: x.quantile(0.5, 0, True, interpolation="midpoint"),
           lambda a: np.quantile(a, 0.5, axis=0, keepdims=True, method="midpoint"), [(4, 3)]),
    OpCase("nanquantile", lambda x: tf.nanquantile(x, 0.7, dim=0), lambda a: np.quantile(a, 0.7, axis=0), [(5, 2)]),
    OpCase("cumprod", lambda x: tf.cumprod(x, 1), lambda a: np.cumprod(a, 1), [(3, 5)]),
    OpCase("cumprod_dim0", lambda x: x.cumprod(0), lambda a: np.cumprod(a, 0), [(4, 3)]),
    # zeros in the input take the explicit-product path of the gradient
    OpCase("cumprod_with_zeros", lambda x: tf.cumprod(x * tf.tensor(ZEROS, dtype=x.dtype, device=x.device), 1),
           lambda a: np.cumprod(a * ZEROS, 1), [(3, 5)]),
    OpCase("cummax", lambda x: tf.cummax(x, 1).values, lambda a: np.maximum.accumulate(a, 1), [(3, 5)]),
    OpCase("cummin", lambda x: x.cummin(0).values, lambda a: np.minimum.accumulate(a, 0), [(4, 3)]),
]
