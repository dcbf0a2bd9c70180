"""Registry cases for the shape ops.

Ops that return several tensors (split, chunk, unbind, broadcast_tensors) are checked through one
piece, or through all pieces weighted differently and joined, so every piece's gradient counts.
"""
from __future__ import annotations

import numpy as np

import tinyframe as tf

from . import OpCase


def _weighted_cat(pieces: tuple, dim: int) -> tf.Tensor:
    return tf.cat([p * (i + 1.0) for i, p in enumerate(pieces)], dim)


def _np_weighted_cat(pieces: list, axis: int) -> np.ndarray:
    return np.concatenate([p * (i + 1.0) for i, p in enumerate(pieces)], axis)


CASES: list[OpCase] = [
    OpCase("reshape", lambda x: x.reshape(6, 4), lambda x: x.reshape(6, 4), [(2, 3, 4)]),
    OpCase("reshape_tuple_infer", lambda x: tf.reshape(x, (-1, 3)), lambda x: x.reshape(-1, 3), [(2, 3, 4)]),
    OpCase("reshape_noncontiguous", lambda x: x.transpose(0, 1).reshape(-1),
           lambda x: x.transpose(1, 0, 2).reshape(-1), [(2, 3, 4)]),
    OpCase("reshape_to_scalar", lambda x: x.reshape(()), lambda x: x.reshape(()), [(1, 1)]),
    OpCase("view", lambda x: x.view(4, -1), lambda x: x.reshape(4, -1), [(2, 3, 4)]),
    OpCase("view_transposed_split_dim", lambda x: x.transpose(0, 1).view(3, 2, 2, 2),
           lambda x: x.transpose(1, 0, 2).reshape(3, 2, 2, 2), [(2, 3, 4)]),
    OpCase("view_as", lambda x, y: x.view_as(y) * y, lambda x, y: x.reshape(y.shape) * y, [(2, 6), (3, 4)]),
    OpCase("flatten", lambda x: x.flatten(), lambda x: x.reshape(-1), [(2, 3, 4)]),
    OpCase("flatten_range", lambda x: tf.flatten(x, 1, -1), lambda x: x.reshape(2, -1), [(2, 3, 4)]),
    OpCase("flatten_leading_negative", lambda x: x.flatten(-3, -2), lambda x: x.reshape(6, 4), [(2, 3, 4)]),
    OpCase("unflatten", lambda x: x.unflatten(-1, (2, -1)), lambda x: x.reshape(2, 3, 2, 2), [(2, 3, 4)]),
    OpCase("transpose", lambda x: x.transpose(0, 2), lambda x: x.transpose(2, 1, 0), [(2, 3, 4)]),
    OpCase("transpose_negative", lambda x: tf.transpose(x, -1, -2), lambda x: x.swapaxes(-1, -2), [(2, 3, 4)]),
    OpCase("swapaxes", lambda x: tf.swapaxes(x, 0, 1), lambda x: x.swapaxes(0, 1), [(2, 3, 4)]),
    OpCase("t", lambda x: x.t(), lambda x: x.T, [(3, 4)]),
    OpCase("t_vector", lambda x: tf.t(x), lambda x: x, [(4,)]),
    OpCase("T", lambda x: x.T, lambda x: x.T, [(3, 4)]),
    OpCase("mT", lambda x: x.mT, lambda x: x.swapaxes(-1, -2), [(2, 3, 4)]),
    OpCase("t_", lambda x: (x * 1.0).t_(), lambda x: x.T, [(3, 4)]),
    OpCase("transpose_", lambda x: (x * 1.0).transpose_(0, 2), lambda x: x.transpose(2, 1, 0), [(2, 3, 4)]),
    OpCase("squeeze_unsqueeze_", lambda x: (x * 1.0).squeeze_(1).unsqueeze_(0), lambda x: x.squeeze(1)[None],
           [(2, 1, 3)]),
    OpCase("sum_to_size", lambda x: x.sum_to_size(3, 1), lambda x: x.sum((0, 2)).reshape(3, 1), [(2, 3, 4)]),
    OpCase("permute", lambda x: x.permute(2, 0, 1), lambda x: x.transpose(2, 0, 1), [(2, 3, 4)]),
    OpCase("permute_tuple_negative", lambda x: tf.permute(x, (-1, -3, 1)), lambda x: x.transpose(2, 0, 1),
           [(2, 3, 4)]),
    OpCase("movedim", lambda x: x.movedim(0, -1), lambda x: np.moveaxis(x, 0, -1), [(2, 3, 4)]),
    OpCase("movedim_several", lambda x: tf.movedim(x, (0, 1), (2, 0)), lambda x: np.moveaxis(x, (0, 1), (2, 0)),
           [(2, 3, 4)]),
    OpCase("squeeze", lambda x: x.squeeze(), lambda x: x.squeeze(), [(2, 1, 3, 1)]),
    OpCase("squeeze_dim", lambda x: x.squeeze(1), lambda x: x.squeeze(1), [(2, 1, 3, 1)]),
    OpCase("squeeze_dim_not_one", lambda x: x.squeeze(0), lambda x: x, [(2, 1, 3, 1)]),
    OpCase("squeeze_dims", lambda x: tf.squeeze(x, (1, -1)), lambda x: x.squeeze((1, 3)), [(2, 1, 3, 1)]),
    OpCase("unsqueeze", lambda x: x.unsqueeze(0), lambda x: x[None], [(2, 3)]),
    OpCase("unsqueeze_negative", lambda x: tf.unsqueeze(x, -1), lambda x: x[..., None], [(2, 3)]),
    OpCase("expand", lambda x: x.expand(2, 3, 4), lambda x: np.broadcast_to(x, (2, 3, 4)), [(3, 1)]),
    OpCase("expand_keep_sizes", lambda x: x.expand(5, -1, 4), lambda x: np.broadcast_to(x, (5, 2, 4)), [(2, 1)]),
    OpCase("expand_as", lambda x, y: x.expand_as(y) * y, lambda x, y: x * y, [(1, 4), (3, 4)]),
    OpCase("broadcast_to", lambda x: tf.broadcast_to(x, (2, 3, 4)), lambda x: np.broadcast_to(x, (2, 3, 4)),
           [(4,)]),
    OpCase("broadcast_tensors", lambda x, y: tf.mul(*tf.broadcast_tensors(x, y)), np.multiply,
           [(3, 1), (4,)], broadcasts=True),
    OpCase("repeat", lambda x: x.repeat(2, 1, 3), lambda x: np.tile(x, (2, 1, 3)), [(2, 3)]),
    OpCase("tile", lambda x: tf.tile(x, (2,)), lambda x: np.tile(x, 2), [(2, 3)]),
    OpCase("flip", lambda x: x.flip(0, 2), lambda x: np.flip(x, (0, 2)), [(2, 3, 4)]),
    OpCase("flip_negative", lambda x: tf.flip(x, [-1]), lambda x: np.flip(x, -1), [(2, 3, 4)]),
    OpCase("narrow", lambda x: tf.narrow(x, 1, 1, 2), lambda x: x[:, 1:3], [(2, 4, 3)]),
    OpCase("split", lambda x: _weighted_cat(x.split(2, 1), 1),
           lambda x: _np_weighted_cat(np.split(x, [2, 4], 1), 1), [(2, 5, 3)]),
    OpCase("split_piece", lambda x: tf.split(x, 2, -1)[1], lambda x: x[..., 2:], [(2, 3, 4)]),
    OpCase("split_with_sizes", lambda x: _weighted_cat(x.split([1, 3, 1], 1), 1),
           lambda x: _np_weighted_cat(np.split(x, [1, 4], 1), 1), [(2, 5, 3)]),
    OpCase("chunk", lambda x: _weighted_cat(x.chunk(3, -1), -1),
           lambda x: _np_weighted_cat(np.split(x, [2, 4], -1), -1), [(2, 5)]),
    OpCase("unsafe_split", lambda x: _weighted_cat(tf.unsafe_split(x, [1, 3, 1], 1), 1),
           lambda x: _np_weighted_cat(np.split(x, [1, 4], 1), 1), [(2, 5, 3)]),
    OpCase("unsafe_chunk_piece", lambda x: x.unsafe_chunk(3, -1)[1], lambda x: x[..., 2:4], [(2, 5)]),
    OpCase("unbind", lambda x: tf.stack([p * (i + 1.0) for i, p in enumerate(x.unbind(1))], 1),
           lambda x: x * np.arange(1.0, 4.0)[:, None], [(2, 3, 4)]),
    OpCase("unbind_to_scalars", lambda x: x.unbind()[1], lambda x: x[1], [(3,)]),
    OpCase("clone", lambda x: x.clone(), lambda x: x.copy(), [(2, 3)]),
    OpCase("contiguous", lambda x: x.t().contiguous(), lambda x: x.T.copy(), [(2, 3)]),
    OpCase("cat", lambda x, y: tf.cat([x, y], 1), lambda x, y: np.concatenate([x, y], 1), [(2, 3), (2, 5)]),
    OpCase("cat_three_negative_dim", lambda x, y, z: tf.cat((x, y, z), -2),
           lambda x, y, z: np.concatenate([x, y, z], -2), [(1, 4), (2, 4), (3, 4)]),
    OpCase("concatenate", lambda x, y: tf.concatenate([x, y], axis=0), lambda x, y: np.concatenate([x, y]),
           [(2, 3), (1, 3)]),
    OpCase("stack", lambda x, y: tf.stack([x, y]), lambda x, y: np.stack([x, y]), [(2, 3), (2, 3)]),
    OpCase("stack_last_dim", lambda x, y: tf.stack([x, y], -1), lambda x, y: np.stack([x, y], -1),
           [(2, 3), (2, 3)]),
    OpCase("hstack", lambda x, y: tf.hstack([x, y]), lambda x, y: np.hstack([x, y]), [(2, 3), (2, 1)]),
    OpCase("vstack", lambda x, y: tf.vstack([x, y]), lambda x, y: np.vstack([x, y]), [(3,), (2, 3)]),
    OpCase("constant_pad_nd", lambda x: tf.constant_pad_nd(x, (1, 2, 0, 1)),
           lambda x: np.pad(x, ((0, 1), (1, 2))), [(2, 3)]),
    OpCase("constant_pad_nd_crop", lambda x: tf.constant_pad_nd(x, (-1, 2)),
           lambda x: np.pad(x[:, 1:], ((0, 0), (0, 2))), [(2, 3)]),
]
