"""Registry cases for the reduction ops: dims as ints, negative ints, tuples and lists, with and
without keepdim. Uniform random inputs have no ties, so max-like ops are differentiable there."""
from __future__ import annotations

import numpy as np

import tinyframe as tf
from tinyframe.ops import reduction

from . import OpCase


def _logsumexp(x: np.ndarray, axis: object, keepdims: bool = False) -> np.ndarray:
    m = x.max(axis=axis, keepdims=True)
    out = np.log(np.exp(x - m).sum(axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)


def _softmax(x: np.ndarray, axis: int) -> np.ndarray:
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _log_softmax(x: np.ndarray, axis: int) -> np.ndarray:
    return x - _logsumexp(x, axis, keepdims=True)


def _p_norm(x: np.ndarray, p: float, axis: object = None, keepdims: bool = False) -> np.ndarray:
    return (np.abs(x) ** p).sum(axis=axis, keepdims=keepdims) ** (1.0 / p)


CASES: list[OpCase] = [
    OpCase("sum", lambda x: x.sum(), np.sum, [(3, 4)]),
    OpCase("sum_dim", lambda x: tf.sum(x, 1), lambda x: x.sum(1), [(3, 4)]),
    OpCase("sum_dim_keepdim", lambda x: x.sum(0, keepdim=True), lambda x: x.sum(0, keepdims=True), [(3, 4)]),
    OpCase("sum_negative_dims", lambda x: x.sum((-1, 0)), lambda x: x.sum((0, 2)), [(2, 3, 4)]),
    OpCase("sum_dim_list_keepdim", lambda x: x.sum([0, 2], keepdim=True),
           lambda x: x.sum((0, 2), keepdims=True), [(2, 3, 4)]),
    OpCase("sum_0d", lambda x: x.sum(), np.sum, [()]),
    OpCase("mean", lambda x: x.mean(), np.mean, [(3, 4)]),
    OpCase("mean_dim", lambda x: tf.mean(x, -1), lambda x: x.mean(-1), [(3, 4)]),
    OpCase("mean_dims_keepdim", lambda x: x.mean((0, 2), keepdim=True), lambda x: x.mean((0, 2), keepdims=True),
           [(2, 3, 4)]),
    OpCase("prod", lambda x: x.prod(), np.prod, [(2, 3)], domain=(0.5, 1.5)),
    OpCase("prod_dim", lambda x: tf.prod(x, 1), lambda x: x.prod(1), [(3, 4)]),
    OpCase("prod_dim_keepdim", lambda x: x.prod(-2, keepdim=True), lambda x: x.prod(-2, keepdims=True), [(3, 4)]),
    OpCase("max", lambda x: x.max(), np.max, [(3, 4)]),
    OpCase("max_dim", lambda x: tf.max(x, 1).values, lambda x: x.max(1), [(3, 4)]),
    OpCase("max_dim_keepdim", lambda x: x.max(-1, keepdim=True)[0], lambda x: x.max(-1, keepdims=True), [(2, 3, 4)]),
    OpCase("min", lambda x: tf.min(x), np.min, [(3, 4)]),
    OpCase("min_dim", lambda x: x.min(0).values, lambda x: x.min(0), [(3, 4)]),
    OpCase("amax", lambda x: tf.amax(x), np.max, [(3, 4)]),
    OpCase("amax_dims_keepdim", lambda x: x.amax((0, -1), keepdim=True),
           lambda x: x.max((0, 2), keepdims=True), [(2, 3, 4)]),
    OpCase("amin_dim", lambda x: tf.amin(x, 1), lambda x: x.min(1), [(3, 4)]),
    OpCase("var", lambda x: x.var(), lambda x: x.var(ddof=1), [(3, 4)]),
    OpCase("var_dim", lambda x: tf.var(x, 1), lambda x: x.var(1, ddof=1), [(3, 4)]),
    OpCase("var_biased_keepdim", lambda x: x.var(0, unbiased=False, keepdim=True),
           lambda x: x.var(0, keepdims=True), [(3, 4)]),
    OpCase("var_correction_dims", lambda x: tf.var(x, (0, 2), correction=2),
           lambda x: x.var((0, 2), ddof=2), [(2, 3, 4)]),
    OpCase("var_mean", lambda x: (lambda v, m: 2.0 * v + m)(*tf.var_mean(x, 1)),
           lambda x: 2.0 * x.var(1, ddof=1) + x.mean(1), [(3, 4)]),
    OpCase("var_mean_all", lambda x: (lambda v, m: v - 3.0 * m)(*tf.var_mean(x)),
           lambda x: x.var(ddof=1) - 3.0 * x.mean(), [(3, 4)]),
    OpCase("std_mean_keepdim", lambda x: (lambda sd, m: sd * m)(*tf.std_mean(x, (0, 2), keepdim=True, correction=0)),
           lambda x: x.std((0, 2), keepdims=True) * x.mean((0, 2), keepdims=True), [(2, 3, 4)]),
    OpCase("std_mean_only_mean", lambda x: tf.std_mean(x, 0)[1], lambda x: x.mean(0), [(3, 4)]),
    OpCase("std_mean_only_std", lambda x: tf.std_mean(x, 0)[0], lambda x: x.std(0, ddof=1), [(3, 4)]),
    OpCase("std", lambda x: x.std(), lambda x: x.std(ddof=1), [(3, 4)]),
    OpCase("std_dim_keepdim", lambda x: tf.std(x, -1, keepdim=True), lambda x: x.std(-1, ddof=1, keepdims=True),
           [(3, 4)]),
    OpCase("std_biased", lambda x: x.std(1, correction=0), lambda x: x.std(1), [(3, 4)]),
    OpCase("norm", lambda x: x.norm(), np.linalg.norm, [(3, 4)]),
    OpCase("norm_dim_keepdim", lambda x: tf.norm(x, dim=1, keepdim=True),
           lambda x: np.linalg.norm(x, axis=1, keepdims=True), [(3, 4)]),
    OpCase("norm_p1", lambda x: x.norm(1), lambda x: np.abs(x).sum(), [(3, 4)]),
    OpCase("norm_p3_dim", lambda x: x.norm(3, dim=0), lambda x: _p_norm(x, 3, 0), [(3, 4)]),
    OpCase("norm_p_half", lambda x: x.norm(0.5, dim=(0, 1)), lambda x: _p_norm(x, 0.5), [(3, 4)], domain=(0.5, 2.0)),
    OpCase("norm_p_negative", lambda x: x.norm(-1.5), lambda x: _p_norm(x, -1.5), [(3, 4)], domain=(0.5, 2.0)),
    OpCase("norm_inf_dim", lambda x: x.norm(float("inf"), -1), lambda x: np.abs(x).max(-1), [(3, 4)]),
    OpCase("norm_neg_inf", lambda x: x.norm(-float("inf")), lambda x: np.abs(x).min(), [(3, 4)]),
    OpCase("logsumexp", lambda x: tf.logsumexp(x, 1), lambda x: _logsumexp(x, 1), [(3, 4)]),
    OpCase("logsumexp_dims_keepdim", lambda x: x.logsumexp((0, -1), keepdim=True),
           lambda x: _logsumexp(x, (0, 2), keepdims=True), [(2, 3, 4)]),
    OpCase("softmax", lambda x: tf.softmax(x, 1), lambda x: _softmax(x, 1), [(3, 4)]),
    OpCase("softmax_dim0", lambda x: x.softmax(0), lambda x: _softmax(x, 0), [(3, 4)]),
    OpCase("softmax_negative_dim", lambda x: x.softmax(-2), lambda x: _softmax(x, 1), [(2, 3, 4)]),
    OpCase("safe_softmax", lambda x: reduction.safe_softmax(x, 1), lambda x: _softmax(x, 1), [(3, 4)]),
    OpCase("safe_softmax_masked_row",  # a row of -inf only (attention masked throughout) gives zeros
           lambda x: reduction.safe_softmax(x.masked_fill(tf.tensor([[False], [True]]), -float("inf")), 1),
           lambda x: np.concatenate([_softmax(x[:1], 1), np.zeros_like(x[1:])]), [(2, 3)]),
    OpCase("log_softmax", lambda x: tf.log_softmax(x, 1), lambda x: _log_softmax(x, 1), [(3, 4)]),
    OpCase("log_softmax_dim0", lambda x: x.log_softmax(0), lambda x: _log_softmax(x, 0), [(3, 4)]),
    OpCase("log_softmax_negative_dim", lambda x: x.log_softmax(-1), lambda x: _log_softmax(x, 2), [(2, 3, 4)]),
    OpCase("cumsum", lambda x: tf.cumsum(x, 0), lambda x: np.cumsum(x, 0), [(3, 4)]),
    OpCase("cumsum_negative_dim", lambda x: x.cumsum(-1), lambda x: np.cumsum(x, -1), [(2, 3, 4)]),
    OpCase("logcumsumexp", lambda x: tf.logcumsumexp(x, 1), lambda x: np.logaddexp.accumulate(x, 1), [(3, 4)]),
    OpCase("logcumsumexp_dim0", lambda x: x.logcumsumexp(-2), lambda x: np.logaddexp.accumulate(x, 0), [(3, 4)]),
    OpCase("nansum", tf.nansum, np.nansum, [(3, 4)]),
    OpCase("nansum_dim_keepdim", lambda x: x.nansum(1, keepdim=True), lambda x: x.sum(1, keepdims=True), [(3, 4)]),
    OpCase("nanmean_dims", lambda x: tf.nanmean(x, (0, 2)), lambda x: x.mean((0, 2)), [(2, 3, 4)]),
    OpCase("dist", tf.dist, lambda x, y: np.sqrt(((x - y) ** 2).sum()), [(3, 4), (3, 4)]),
    OpCase("dist_p1_5", lambda x, y: tf.dist(x, y, 1.5), lambda x, y: (np.abs(x - y) ** 1.5).sum() ** (1 / 1.5),
           [(3, 4), (4,)]),
    OpCase("dist_inf", lambda x, y: x.dist(y, float("inf")), lambda x, y: np.abs(x - y).max(), [(3, 4), (3, 4)]),
    OpCase("cov", tf.cov, np.cov, [(3, 5)]),
    OpCase("cov_correction_0_vector", lambda x: tf.cov(x, correction=0), lambda x: np.cov(x, ddof=0), [(5,)]),
    OpCase("cov_aweights", lambda x, w: tf.cov(x, aweights=w), lambda x, w: np.cov(x, aweights=w), [(3, 5), (5,)],
           domain=(0.5, 2.0)),
    OpCase("corrcoef", tf.corrcoef, np.corrcoef, [(3, 5)]),
    OpCase("renorm", lambda x: tf.renorm(x, 2, 0, 1.5), lambda x: x * np.where(
        np.linalg.norm(x, axis=1, keepdims=True) > 1.5, 1.5 / (np.linalg.norm(x, axis=1, keepdims=True) + 1e-7), 1.0),
        [(3, 4)]),
    OpCase("renorm_p1_dim1", lambda x: tf.renorm(x, 1, 1, 2.0), lambda x: x * np.where(
        np.abs(x).sum(0, keepdims=True) > 2.0, 2.0 / (np.abs(x).sum(0, keepdims=True) + 1e-7), 1.0), [(3, 4)],
        domain=(0.2, 2.0)),
    OpCase("norm_nuc", lambda x: tf.norm(x, p="nuc"), lambda x: np.linalg.norm(x, "nuc"), [(3, 4)]),
    OpCase("nuclear_norm_batch", lambda x: tf.nuclear_norm(x, (1, 2)),
           lambda x: np.linalg.svd(x, compute_uv=False).sum(-1), [(2, 3, 4)]),
]
