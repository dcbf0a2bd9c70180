"""Registry cases for construction (tril, roll, diagonals, unfold, ...), scatter-style writes and
products (einsum, tensordot, cross, kron, cdist, addmm and friends)."""
from __future__ import annotations

import numpy as np

import tinyframe as tf

from . import OpCase

ROWS = np.array([[1, 2, 0, 1], [0, 1, 2, 2]])  # scatter positions along dim 0 of a (3, 4) input, unique per column
REDUCE_ROWS = np.array([[1, 2, 0, 1], [1, 1, 1, 1]])  # repeated positions, reduced together


def _flat_put(a: np.ndarray, index: list, src: np.ndarray, write) -> np.ndarray:  # noqa: ANN001
    out = a.copy().reshape(-1)
    write(out, np.asarray(index) % out.size, src.reshape(-1))
    return out.reshape(a.shape)


def _written(a: np.ndarray, src: np.ndarray, index: tuple) -> np.ndarray:
    out = a.copy()
    out[index] = src
    return out


def _masked_scatter_reference(a: np.ndarray, mask: list, src: np.ndarray) -> np.ndarray:
    out = a.copy()
    chosen = np.broadcast_to(mask, a.shape)
    out[chosen] = src.reshape(-1)[:chosen.sum()]
    return out


def _scatter_reference(a: np.ndarray, src: np.ndarray) -> np.ndarray:
    out = a.copy()
    np.put_along_axis(out, ROWS, src[:2], 0)
    return out


def _scatter_reduce_reference(reduce: str, include_self: bool):
    ufunc = {"sum": np.add, "prod": np.multiply, "amax": np.maximum, "amin": np.minimum, "mean": np.add}[reduce]
    identity = {"sum": 0.0, "prod": 1.0, "amax": -np.inf, "amin": np.inf, "mean": 0.0}[reduce]

    def reference(a: np.ndarray, src: np.ndarray, rows: np.ndarray = REDUCE_ROWS) -> np.ndarray:
        out = a.copy()
        cols = np.broadcast_to(np.arange(rows.shape[1]), rows.shape)
        if not include_self:
            out[rows, cols] = identity
        ufunc.at(out, (rows, cols), src)
        if reduce == "mean":
            counts = np.full(a.shape, float(include_self))
            np.add.at(counts, (rows, cols), 1.0)
            out = out / np.maximum(counts, 1)
        return out
    return reference


def _scatter_reduce_case(reduce: str, include_self: bool) -> OpCase:
    suffix = "" if include_self else "_exclude_self"
    return OpCase(f"scatter_reduce_{reduce}{suffix}",
                  lambda x, s: x.scatter_reduce(0, tf.tensor(REDUCE_ROWS), s, reduce, include_self=include_self),
                  _scatter_reduce_reference(reduce, include_self), [(3, 4), (2, 4)],
                  domain=(0.5, 2.0) if reduce == "prod" else (-2.0, 2.0))


def _index_reduce_case(reduce: str, include_self: bool) -> OpCase:
    """index_reduce along dim 1 at columns [3, 0, 3]: scatter_reduce's reference with the index spelled out."""
    scatter_reference = _scatter_reduce_reference(reduce, include_self)

    def reference(a: np.ndarray, s: np.ndarray) -> np.ndarray:
        rows = np.broadcast_to(np.array([[3, 0, 3]]), (2, 3))
        return scatter_reference(a.T, s.T, rows.T).T
    suffix = "" if include_self else "_exclude_self"
    return OpCase(f"index_reduce_{reduce}{suffix}",
                  lambda x, s: x.index_reduce(1, tf.tensor([3, 0, 3]), s, reduce, include_self=include_self),
                  reference, [(2, 4), (2, 3)], domain=(0.5, 2.0) if reduce == "prod" else (-2.0, 2.0))


def _index_add_reference(a: np.ndarray, s: np.ndarray) -> np.ndarray:
    out = a.copy()
    np.add.at(out, (slice(None), [3, 0, 3]), 2.0 * s)
    return out


def _index_copy_reference(a: np.ndarray, s: np.ndarray) -> np.ndarray:
    out = a.copy()
    out[[2, 0]] = s
    return out


def _put(a: np.ndarray, v: np.ndarray, rows: list) -> np.ndarray:
    out = a.copy()
    out[rows] = v
    return out


def _put_accumulate(a: np.ndarray, v: np.ndarray) -> np.ndarray:
    out = a.copy()
    np.add.at(out, ([0, 0, 2], [1, 1, 3]), v)
    return out


def _unfold_reference(a: np.ndarray, size: int, step: int) -> np.ndarray:
    windows = np.lib.stride_tricks.sliding_window_view(a, size, axis=1)
    return windows[:, ::step]


def _diag_embed_reference(a: np.ndarray) -> np.ndarray:
    out = np.zeros(a.shape[:-1] + (a.shape[-1] + 1, a.shape[-1] + 1))
    for i in range(a.shape[-1]):
        out[..., i, i + 1] = a[..., i]
    return out


def _diagonal_scatter_reference(a: np.ndarray, s: np.ndarray) -> np.ndarray:
    out = a.copy()
    for i in range(s.shape[0]):
        out[i + 1, i] = s[i]
    return out


def _meshgrid_sum(x: tf.Tensor, y: tf.Tensor) -> tf.Tensor:
    gx, gy = tf.meshgrid(x, y, indexing="xy")
    return gx * 2.0 + gy * gy


def _cdist_reference(p: float):
    def reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        d = np.abs(a[..., :, None, :] - b[..., None, :, :])
        return (d ** p).sum(-1) ** (1.0 / p)
    return reference


CASES: list[OpCase] = [
    OpCase("tril", tf.tril, np.tril, [(4, 3)]),
    OpCase("triu_diagonal", lambda x: x.triu(1), lambda a: np.triu(a, 1), [(3, 4)]),
    OpCase("tril_batched_negative", lambda x: tf.tril(x, -1), lambda a: np.tril(a, -1), [(2, 3, 3)]),
    OpCase("roll", lambda x: tf.roll(x, 1, 0), lambda a: np.roll(a, 1, 0), [(3, 4)]),
    OpCase("roll_dims", lambda x: x.roll((1, -2), (0, 1)), lambda a: np.roll(a, (1, -2), (0, 1)), [(3, 4)]),
    OpCase("roll_flat", lambda x: tf.roll(x, 5), lambda a: np.roll(a, 5), [(3, 4)]),
    OpCase("repeat_interleave", lambda x: tf.repeat_interleave(x, 2, dim=1), lambda a: np.repeat(a, 2, 1), [(2, 3)]),
    OpCase("repeat_interleave_flat", lambda x: x.repeat_interleave(3), lambda a: np.repeat(a, 3), [(2, 2)]),
    OpCase("repeat_interleave_tensor", lambda x: x.repeat_interleave(tf.tensor([2, 0, 1]), dim=0),
           lambda a: np.repeat(a, [2, 0, 1], 0), [(3, 2)]),
    OpCase("scatter", lambda x, s: x.scatter(0, tf.tensor(ROWS), s), _scatter_reference, [(3, 4), (3, 4)]),
    OpCase("scatter_value", lambda x: tf.scatter(x, 0, tf.tensor(ROWS), 0.5),
           lambda a: _scatter_reference(a, np.full((3, 4), 0.5)), [(3, 4)]),
    *[_scatter_reduce_case(r, s) for r in ("sum", "prod", "mean", "amax", "amin") for s in (True, False)],
    *[_index_reduce_case(r, s) for r in ("prod", "mean", "amax", "amin") for s in (True, False)],
    OpCase("index_add", lambda x, s: tf.index_add(x, 1, tf.tensor([3, 0, 3]), s, alpha=2.0), _index_add_reference,
           [(2, 4), (2, 3)]),
    OpCase("index_copy", lambda x, s: x.index_copy(0, tf.tensor([2, 0]), s), _index_copy_reference, [(3, 4), (2, 4)]),
    OpCase("index_fill", lambda x: x.index_fill(1, tf.tensor([0, 2]), -1.0),
           lambda a: np.where(np.isin(np.arange(4), [0, 2]), -1.0, a), [(3, 4)]),
    OpCase("index_fill_tensor_value", lambda x, v: tf.index_fill(x, 1, tf.tensor([0, 2]), v),
           lambda a, v: np.where(np.isin(np.arange(4), [0, 2]), v, a), [(3, 4), ()]),
    OpCase("index_put", lambda x, v: x.index_put((tf.tensor([0, 2]),), v), lambda a, v: _put(a, v, [0, 2]),
           [(3, 4), (4,)]),
    OpCase("index_put_accumulate", lambda x, v: tf.index_put(x, (tf.tensor([0, 0, 2]), tf.tensor([1, 1, 3])), v, True),
           _put_accumulate, [(3, 4), ()]),
    OpCase("put", lambda x, s: x.put(tf.tensor([[5, -1]]), s), lambda a, s: _flat_put(a, [5, -1], s, np.put),
           [(3, 4), (1, 2)]),
    OpCase("put_accumulate", lambda x, s: tf.put(x, tf.tensor([1, 1, 0]), s, accumulate=True),
           lambda a, s: _flat_put(a, [1, 1, 0], s, np.add.at), [(2, 2), (3,)]),
    OpCase("masked_scatter", lambda x, s: x.masked_scatter(tf.tensor([True, False, True, True]), s),
           lambda a, s: _masked_scatter_reference(a, [True, False, True, True], s), [(2, 4), (2, 4)]),
    OpCase("select_scatter", lambda x, s: tf.select_scatter(x, s, 1, -1),
           lambda a, s: _written(a, s, (slice(None), -1)), [(3, 4), (3,)]),
    OpCase("slice_scatter", lambda x, s: x.slice_scatter(s, 1, 0, None, 2),
           lambda a, s: _written(a, s, (slice(None), slice(0, None, 2))), [(3, 4), (3, 2)]),
    OpCase("as_strided_overlapping_windows", lambda x: x.as_strided((3, 2), (1, 1)),
           lambda a: np.lib.stride_tricks.sliding_window_view(a, 2)[:3], [(6,)]),
    OpCase("as_strided_offset", lambda x: tf.as_strided(x, (2, 2), (2, 1), 1),
           lambda a: np.array([[a[1], a[2]], [a[3], a[4]]]), [(6,)]),
    OpCase("diagflat", lambda x: tf.diagflat(x, -1), lambda a: np.diagflat(a, -1), [(2, 2)]),
    OpCase("diag_vector", lambda x: tf.diag(x, 1), lambda a: np.diag(a, 1), [(3,)]),
    OpCase("diag_matrix", lambda x: x.diag(-1), lambda a: np.diag(a, -1).copy(), [(3, 4)]),
    OpCase("diag_embed", lambda x: tf.diag_embed(x, 1), _diag_embed_reference, [(2, 3)]),
    OpCase("diagonal", lambda x: x.diagonal(1, 2, 0), lambda a: np.diagonal(a, 1, 2, 0), [(3, 2, 4)]),
    OpCase("diagonal_scatter", lambda x, s: tf.diagonal_scatter(x, s, -1), _diagonal_scatter_reference,
           [(4, 3), (3,)]),
    OpCase("trace", tf.trace, np.trace, [(3, 4)]),
    OpCase("unfold", lambda x: x.unfold(1, 3, 1), lambda a: _unfold_reference(a, 3, 1), [(2, 5)]),
    OpCase("unfold_step", lambda x: x.unfold(1, 2, 2), lambda a: _unfold_reference(a, 2, 2), [(2, 5)]),
    OpCase("meshgrid_xy", _meshgrid_sum, lambda a, b: np.meshgrid(a, b)[0] * 2.0 + np.meshgrid(a, b)[1] ** 2,
           [(3,), (2,)]),
    OpCase("rot90", lambda x: tf.rot90(x), np.rot90, [(2, 3)]),
    OpCase("rot90_k3_dims", lambda x: x.rot90(3, (2, 0)), lambda a: np.rot90(a, 3, (2, 0)), [(2, 3, 2)]),
    OpCase("take", lambda x: tf.take(x, tf.tensor([[0, 5], [2, 2]])), lambda a: a.ravel()[[[0, 5], [2, 2]]],
           [(2, 3)]),
    OpCase("block_diag", lambda a, b: tf.block_diag(a, b), lambda a, b: np.block(
        [[a, np.zeros((2, 3))], [np.zeros((1, 2)), b[None]]]), [(2, 2), (3,)]),
    OpCase("cartesian_prod", tf.cartesian_prod,
           lambda a, b: np.stack(np.meshgrid(a, b, indexing="ij"), -1).reshape(-1, 2), [(2,), (3,)]),
    OpCase("combinations", lambda x: tf.combinations(x, 2), lambda a: a[[[0, 1], [0, 2], [1, 2]]], [(3,)]),
    OpCase("diff", lambda x: tf.diff(x, 2, dim=0), lambda a: np.diff(a, 2, axis=0), [(4, 3)]),
    OpCase("diff_prepend", lambda x, p: x.diff(prepend=p), lambda a, p: np.diff(a, prepend=p), [(2, 3), (2, 1)]),
    OpCase("column_stack", lambda a, b: tf.column_stack([a, b]), lambda a, b: np.column_stack([a, b]), [(3,), (3, 2)]),
    OpCase("dstack", lambda a, b: tf.dstack([a, b]), lambda a, b: np.dstack([a, b]), [(2, 3), (2, 3)]),
    OpCase("atleast_3d", tf.atleast_3d, np.atleast_3d, [(3,)]),
    OpCase("atleast_3d_matrix", tf.atleast_3d, np.atleast_3d, [(2, 3)]),
    OpCase("ravel_transposed", lambda x: tf.ravel(x.T), lambda a: a.T.ravel(), [(2, 3)]),
    OpCase("gradient", lambda x: tf.cat(tf.gradient(x, spacing=[0.5, 2.0])), lambda a: np.concatenate(
        np.gradient(a, 0.5, 2.0)), [(3, 4)]),
    OpCase("gradient_edge_order_2_dim", lambda x: tf.gradient(x, dim=1, edge_order=2)[0],
           lambda a: np.gradient(a, axis=1, edge_order=2), [(2, 4)]),
    OpCase("gradient_coordinates", lambda x: tf.gradient(x, spacing=(tf.tensor([0.0, 1.0, 3.0, 3.5], device=x.device),),
                                                         dim=0, edge_order=2)[0],
           lambda a: np.gradient(a, np.array([0.0, 1.0, 3.0, 3.5]), axis=0, edge_order=2), [(4, 2)]),
    OpCase("trapezoid", lambda x: tf.trapezoid(x, dx=0.5), lambda a: np.trapezoid(a, dx=0.5), [(2, 4)]),
    OpCase("trapezoid_points", lambda x: tf.trapezoid(x, tf.tensor([0.0, 1.0, 3.0], device=x.device)),
           lambda a: np.trapezoid(a, np.array([0.0, 1.0, 3.0])), [(2, 3)]),
    OpCase("fliplr", tf.fliplr, np.fliplr, [(2, 3)]),
    OpCase("einsum_matmul", lambda a, b: tf.einsum("ij,jk->ik", a, b), lambda a, b: a @ b, [(2, 3), (3, 4)]),
    OpCase("einsum_batch", lambda a, b: tf.einsum("bij,bjk->bik", a, b), np.matmul, [(2, 2, 3), (2, 3, 2)]),
    OpCase("einsum_ellipsis_broadcast", lambda a, b: tf.einsum("...ij,...jk", a, b), np.matmul,
           [(2, 1, 2, 3), (3, 3, 2)]),
    OpCase("einsum_trace", lambda a: tf.einsum("ii", a), np.trace, [(3, 3)]),
    OpCase("einsum_diagonal", lambda a: tf.einsum("ii->i", a), lambda a: np.diagonal(a).copy(), [(3, 3)]),
    OpCase("einsum_repeated_and_summed", lambda a, b: tf.einsum("iij,k->ik", a, b),
           lambda a, b: np.einsum("iij,k->ik", a, b), [(2, 2, 3), (4,)]),
    OpCase("einsum_three_operands", lambda a, b, c: tf.einsum("i,ij,j->", a, b, c),
           lambda a, b, c: np.einsum("i,ij,j->", a, b, c), [(2,), (2, 3), (3,)]),
    OpCase("einsum_size_one_broadcast", lambda a, b: tf.einsum("ij,ij->i", a, b),
           lambda a, b: (a * b).sum(1), [(3, 1), (3, 4)]),
    OpCase("tensordot", lambda a, b: tf.tensordot(a, b, 2), lambda a, b: np.tensordot(a, b, 2),
           [(2, 3, 4), (3, 4, 2)]),
    OpCase("tensordot_dims_lists", lambda a, b: tf.tensordot(a, b, ([0, 2], [2, 0])),
           lambda a, b: np.tensordot(a, b, ([0, 2], [2, 0])), [(2, 3, 4), (4, 2, 2)]),
    OpCase("cross", lambda a, b: tf.cross(a, b, dim=1), lambda a, b: np.cross(a, b, axis=1), [(4, 3), (4, 3)]),
    OpCase("cross_broadcast", lambda a, b: tf.cross(a, b, dim=-1), lambda a, b: np.cross(a, b), [(2, 3), (1, 3)]),
    OpCase("kron", tf.kron, np.kron, [(2, 3), (3, 2)]),
    OpCase("kron_ranks", tf.kron, np.kron, [(2,), (2, 3)]),
    OpCase("cdist", tf.cdist, _cdist_reference(2.0), [(3, 2), (4, 2)]),
    OpCase("cdist_p1_batched", lambda a, b: tf.cdist(a, b, p=1), _cdist_reference(1.0), [(2, 3, 2), (2, 2, 2)]),
    OpCase("cdist_p3", lambda a, b: tf.cdist(a, b, p=3), _cdist_reference(3.0), [(3, 2), (2, 2)]),
    OpCase("addmm", lambda i, a, b: tf.addmm(i, a, b, beta=0.5, alpha=2.0), lambda i, a, b: 0.5 * i + 2.0 * a @ b,
           [(2, 4), (2, 3), (3, 4)]),
    OpCase("addmm_broadcast_input", tf.addmm, lambda i, a, b: i + a @ b, [(4,), (2, 3), (3, 4)]),
    OpCase("addmv", lambda i, a, v: tf.addmv(i, a, v, alpha=3.0), lambda i, a, v: i + 3.0 * a @ v,
           [(2,), (2, 3), (3,)]),
    OpCase("addr", lambda i, a, b: i.addr(a, b, beta=2.0), lambda i, a, b: 2.0 * i + np.outer(a, b),
           [(2, 3), (2,), (3,)]),
    OpCase("baddbmm", lambda i, a, b: tf.baddbmm(i, a, b, beta=0.5, alpha=-1.0), lambda i, a, b: 0.5 * i - a @ b,
           [(2, 2, 4), (2, 2, 3), (2, 3, 4)]),
    OpCase("addbmm", lambda i, a, b: tf.addbmm(i, a, b, alpha=0.5), lambda i, a, b: i + 0.5 * (a @ b).sum(0),
           [(2, 4), (2, 2, 3), (2, 3, 4)]),
    OpCase("vander", tf.vander, np.vander, [(4,)]),
    OpCase("vander_increasing_n", lambda x: tf.vander(x, N=3, increasing=True),
           lambda x: np.vander(x, 3, increasing=True), [(4,)]),
]
