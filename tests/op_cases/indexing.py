"""Registry cases for the indexing ops."""
from __future__ import annotations

import numpy as np

import tinyframe as tf

from . import OpCase

MASK = np.array([[True, False, True, True], [False, False, True, False], [True, True, False, True]])
GATHER_INDEX = np.array([[0, 2, 2, 1], [1, 1, 0, 2]])  # repeats along dim 0 of a (3, 4) input
TAKE_INDEX = np.array([[3, 3], [0, 1], [2, 3]])
SCATTER_INDEX = np.array([[0, 2, 2, 1], [0, 0, 1, 2]])


def _setitem(x: tf.Tensor, w: tf.Tensor, index: object) -> tf.Tensor:
    y = x * 1.0
    y[index] = w
    return y


def _setitem_reference(a: np.ndarray, w: np.ndarray, index: object) -> np.ndarray:
    y = a.copy()
    y[index] = w
    return y


def _scatter_add_reference(a: np.ndarray, src: np.ndarray) -> np.ndarray:
    out = a.copy()
    rows, cols = SCATTER_INDEX, np.arange(SCATTER_INDEX.shape[1])[None, :]
    np.add.at(out, (rows, cols), src[:SCATTER_INDEX.shape[0]])
    return out


def _written_through_view(x: tf.Tensor, w: tf.Tensor) -> tf.Tensor:
    y = x.sin()
    y.view(4, 3).t()[:, 1:].mul_(w)  # a slice of a transpose of a view
    return y * x


def _written_through_view_reference(a: np.ndarray, w: np.ndarray) -> np.ndarray:
    y = np.sin(a)
    y.reshape(4, 3).T[:, 1:] *= w
    return y * a


def _copied_into_diagonal(x: tf.Tensor, w: tf.Tensor) -> tf.Tensor:
    y = x.sin()
    y.diagonal().copy_(w * x[0, :3])
    return y.unsqueeze(0).squeeze(0).clone() * 2


def _copied_into_diagonal_reference(a: np.ndarray, w: np.ndarray) -> np.ndarray:
    y = np.sin(a)
    y[np.arange(3), np.arange(3)] = w * a[0, :3]
    return y * 2


CASES: list[OpCase] = [
    OpCase("getitem_int", lambda x: x[1], lambda a: a[1], [(3, 4)]),
    OpCase("getitem_int_0dim_result", lambda x: x[2, -1], lambda a: a[2, -1], [(3, 4)]),
    OpCase("getitem_slice", lambda x: x[1:3], lambda a: a[1:3], [(4, 3)]),
    OpCase("getitem_step", lambda x: x[::2, 1::2], lambda a: a[::2, 1::2], [(5, 4)]),
    OpCase("getitem_negative", lambda x: x[-1, -3:], lambda a: a[-1, -3:], [(3, 4)]),
    OpCase("getitem_none", lambda x: x[None, :, None], lambda a: a[None, :, None], [(3, 4)]),
    OpCase("getitem_ellipsis", lambda x: x[..., 1], lambda a: a[..., 1], [(2, 3, 4)]),
    OpCase("getitem_bool_mask", lambda x: x[tf.tensor(MASK)], lambda a: a[MASK], [(3, 4)]),
    OpCase("getitem_bool_rows", lambda x: x[MASK[:, 0]], lambda a: a[MASK[:, 0]], [(3, 4)]),
    OpCase("getitem_repeated_index", lambda x: x[[0, 2, 0, 0]], lambda a: a[[0, 2, 0, 0]], [(3, 4)]),
    OpCase("getitem_index_tensor_2d", lambda x: x[tf.tensor([[0, 1], [1, 1]])],
           lambda a: a[np.array([[0, 1], [1, 1]])], [(3, 4)]),
    OpCase("getitem_two_arrays", lambda x: x[[0, 2, 2], [1, 1, 3]], lambda a: a[[0, 2, 2], [1, 1, 3]], [(3, 4)]),
    OpCase("getitem_slice_and_array", lambda x: x[1:, [3, 0, 3]], lambda a: a[1:, [3, 0, 3]], [(3, 4)]),
    # PyTorch applies the int first, so the slice's dimension stays in front (NumPy would swap them)
    OpCase("getitem_int_slice_array", lambda x: x[0, :, [0, 1, 1]], lambda a: a[0][:, [0, 1, 1]], [(2, 3, 4)]),
    OpCase("gather", lambda x: tf.gather(x, 0, tf.tensor(GATHER_INDEX)),
           lambda a: np.take_along_axis(a, GATHER_INDEX, 0), [(3, 4)]),
    # an index smaller than the input outside ``dim`` reads the leading block
    OpCase("gather_small_index", lambda x: x.gather(1, tf.tensor(TAKE_INDEX[:2])),
           lambda a: np.take_along_axis(a[:2], TAKE_INDEX[:2], 1), [(3, 4)]),
    OpCase("take_along_dim", lambda x: tf.take_along_dim(x, tf.tensor(TAKE_INDEX[:, :1]), 1),
           lambda a: np.take_along_axis(a, TAKE_INDEX[:, :1], 1), [(3, 4)]),
    OpCase("take_along_dim_flat", lambda x: tf.take_along_dim(x, tf.tensor(TAKE_INDEX)),
           lambda a: a.reshape(-1)[TAKE_INDEX.reshape(-1)], [(3, 4)]),
    OpCase("index_select", lambda x: tf.index_select(x, 1, tf.tensor([3, 0, 3])),
           lambda a: a[:, [3, 0, 3]], [(3, 4)]),
    OpCase("masked_fill", lambda x: x.masked_fill(tf.tensor(MASK), 0.5), lambda a: np.where(MASK, 0.5, a), [(3, 4)]),
    OpCase("masked_fill_tensor_value", lambda x, v: tf.masked_fill(x, tf.tensor(MASK), v),
           lambda a, v: np.where(MASK, v, a), [(3, 4), ()]),
    OpCase("masked_select", lambda x: tf.masked_select(x, tf.tensor(MASK)), lambda a: a[MASK], [(3, 4)]),
    OpCase("masked_select_broadcast", lambda x: tf.masked_select(x, tf.tensor(MASK)),
           lambda a: np.broadcast_to(a, MASK.shape)[MASK], [(1, 4)]),
    OpCase("scatter_add", lambda x, s: tf.scatter_add(x, 0, tf.tensor(SCATTER_INDEX), s),
           _scatter_add_reference, [(3, 4), (3, 4)]),
    OpCase("setitem_int", lambda x, w: _setitem(x, w, 0), lambda a, w: _setitem_reference(a, w, 0),
           [(3, 4), (4,)]),
    OpCase("setitem_slice_broadcast", lambda x, w: _setitem(x, w, (slice(0, 2), slice(None, None, 2))),
           lambda a, w: _setitem_reference(a, w, (slice(0, 2), slice(None, None, 2))), [(3, 4), (1, 2)]),
    OpCase("setitem_index", lambda x, w: _setitem(x, w, [2, 0]), lambda a, w: _setitem_reference(a, w, [2, 0]),
           [(3, 4), (2, 4)]),
    OpCase("setitem_mask", lambda x, w: _setitem(x, w, tf.tensor(MASK)),
           lambda a, w: _setitem_reference(a, w, MASK), [(3, 4), (7,)]),
    # In-place overwrites (x * 1 is a non-leaf to write into); x's own gradient through them is zero.
    OpCase("copy_", lambda x, s: (x * 1.0).copy_(s) + x, lambda a, s: np.broadcast_to(s, a.shape) + a,
           [(3, 4), (4,)]),
    OpCase("fill_tensor", lambda x, v: (x * 1.0).fill_(v) * x, lambda a, v: v * a, [(3, 4), ()]),
    OpCase("fill_number", lambda x: (x * 1.0).fill_(0.5) * x, lambda a: 0.5 * a, [(3, 4)]),
    OpCase("zero_", lambda x: (x * 1.0).zero_() + x, lambda a: a, [(3, 4)]),
    # In-place ops on views (CopySlices over the base, AsStridedBackward0 for the view).
    OpCase("mul_on_a_transposed_slice", lambda x, w: _written_through_view(x, w), _written_through_view_reference,
           [(3, 4), (3, 3)]),
    OpCase("copy_into_a_diagonal", lambda x, w: _copied_into_diagonal(x, w), _copied_into_diagonal_reference,
           [(3, 4), (3,)]),
]

