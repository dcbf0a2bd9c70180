"""Batches of sequences of different lengths, padded or packed (PyTorch's
``nn.utils.rnn``, which re-exports this module; the recurrent layers import it from here).

A ``PackedSequence`` holds the steps of a batch sorted by decreasing length, time-major:
``data`` stacks, for each time step ``t``, the ``batch_sizes[t]`` sequences still running, so no
padding is stored and a recurrent layer never runs a sequence past its end. Every conversion
here is one ``index_select`` (plus a padding row), so gradients flow back to the inputs.
"""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .. import creation
from ..device import array_module_of
from ..ops import indexing
from ..ops import shape as shape_ops
from ..tensor import Tensor

__all__ = ["PackedSequence", "pad_sequence", "pack_padded_sequence", "pad_packed_sequence", "pack_sequence",
           "unpad_sequence", "unpack_sequence", "invert_permutation"]


class PackedSequence(NamedTuple):
    """``(data, batch_sizes, sorted_indices, unsorted_indices)``: ``data (sum(lengths), *)``,
    ``batch_sizes (max_length,)`` int64 on the cpu, and the permutation that sorted the batch by
    decreasing length (None when it was already sorted) with its inverse."""

    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Tensor | None = None
    unsorted_indices: Tensor | None = None

    def to(self, *args: Any, **kwargs: Any) -> PackedSequence:
        """The same sequence with ``data`` (and the index tensors' device) moved or cast like ``Tensor.to``."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        move = [None if t is None else t.to(data.device) for t in (self.sorted_indices, self.unsorted_indices)]
        return PackedSequence(data, self.batch_sizes, *move)

    def cpu(self) -> PackedSequence:
        return self.to("cpu")

    def cuda(self) -> PackedSequence:
        return self.to("cuda")

    def float(self) -> PackedSequence:
        return self._replace(data=self.data.float())

    def double(self) -> PackedSequence:
        return self._replace(data=self.data.double())

    @property
    def is_cuda(self) -> bool:
        return self.data.is_cuda

    def is_pinned(self) -> bool:
        return False


def _host_ints(value: Any) -> np.ndarray:
    if isinstance(value, Tensor):
        return np.asarray(value.detach().cpu().numpy(), dtype=np.int64).reshape(-1)
    return np.asarray(list(value), dtype=np.int64).reshape(-1)


def _index(like: Tensor, values: np.ndarray) -> Tensor:
    return Tensor._make(array_module_of(like._data).asarray(values.astype(np.int64)))


def pad_sequence(sequences: Any, batch_first: bool = False, padding_value: float = 0.0,
                 padding_side: str = "right") -> Tensor:
    """Stacks tensors ``(L_i, *)`` into ``(max L, B, *)`` (``(B, max L, *)`` with ``batch_first``),
    filling with ``padding_value`` after each sequence (before it with ``padding_side='left'``)."""
    if padding_side not in ("left", "right"):
        raise ValueError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    sequences = list(sequences.unbind(0)) if isinstance(sequences, Tensor) else list(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    longest = max(s.shape[0] for s in sequences)
    padded = []
    for s in sequences:
        missing = longest - s.shape[0]
        amounts = (0, 0) * (s.ndim - 1) + ((missing, 0) if padding_side == "left" else (0, missing))
        padded.append(shape_ops.constant_pad_nd(s, amounts, padding_value) if missing else s)
    return shape_ops.stack(padded, 0 if batch_first else 1)


def _sorting(lengths: np.ndarray, enforce_sorted: bool) -> np.ndarray | None:
    if enforce_sorted:
        if (np.diff(lengths) > 0).any():
            raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
                               "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence "
                               "to sidestep this requirement if you do not need ONNX exportability.")
        return None
    return np.argsort(-lengths, kind="stable")


def pack_padded_sequence(input: Tensor, lengths: Any, batch_first: bool = False,
                         enforce_sorted: bool = True) -> PackedSequence:
    """Packs a padded batch ``(T, B, *)`` (``(B, T, *)`` with ``batch_first``) whose sequence ``b``
    has ``lengths[b]`` valid steps. ``enforce_sorted=False`` accepts lengths in any order (the
    permutation is kept in the result)."""
    lengths = _host_ints(lengths)
    if (lengths <= 0).any():
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' that "
                           "is <= 0")
    order = _sorting(lengths, enforce_sorted)
    if batch_first:
        input = shape_ops.transpose(input, 0, 1)
    steps, batch = input.shape[:2]
    if len(lengths) != batch:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got {len(lengths)} (batch_size="
                           f"{batch})")
    if int(lengths.max()) > steps:
        raise RuntimeError(f"Expected sequence length to be at most {steps}, but got {int(lengths.max())}")
    by_length = order if order is not None else np.arange(batch)
    sorted_lengths = lengths[by_length]
    batch_sizes = np.array([(sorted_lengths > t).sum() for t in range(int(sorted_lengths[0]))], dtype=np.int64)
    rows = np.concatenate([t * batch + by_length[:n] for t, n in enumerate(batch_sizes)])
    flat = input.reshape(steps * batch, *input.shape[2:])
    data = indexing.index_select(flat, 0, _index(input, rows))
    if order is None:
        return PackedSequence(data, creation.tensor(batch_sizes))
    return PackedSequence(data, creation.tensor(batch_sizes), _index(input, order),
                          _index(input, np.argsort(order)))


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False, padding_value: float = 0.0,
                        total_length: int | None = None) -> tuple:
    """The inverse of ``pack_padded_sequence``: ``(padded, lengths)``, the batch in its original
    order, padded with ``padding_value`` to ``total_length`` steps (default: the longest)."""
    data, batch_sizes = sequence.data, _host_ints(sequence.batch_sizes)
    steps, batch = len(batch_sizes), int(batch_sizes[0])
    if total_length is not None:
        if total_length < steps:
            raise ValueError(f"Expected total_length to be at least the length of the longest sequence in input, but "
                             f"got total_length={total_length} and max sequence length being {steps}")
        steps_out = total_length
    else:
        steps_out = steps
    # rows[t, j]: the data row of step t of the j-th longest sequence, or the padding row past its end
    padding_row = data.shape[0]
    rows = np.full((steps_out, batch), padding_row, dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(batch_sizes)])
    for t, n in enumerate(batch_sizes):
        rows[t, :n] = offsets[t] + np.arange(n)
    sorted_lengths = np.array([(batch_sizes > j).sum() for j in range(batch)], dtype=np.int64)
    unsorted = sequence.unsorted_indices
    if unsorted is not None:
        original = _host_ints(unsorted)
        rows, lengths = rows[:, original], sorted_lengths[original]
    else:
        lengths = sorted_lengths
    padding = creation.full((1, *data.shape[1:]), padding_value, dtype=data.dtype, device=data.device)
    source = shape_ops.cat([data, padding], 0)
    padded = indexing.index_select(source, 0, _index(data, rows.reshape(-1))).reshape(steps_out, batch,
                                                                                       *data.shape[1:])
    if batch_first:
        padded = shape_ops.transpose(padded, 0, 1)
    return padded, creation.tensor(lengths)


def pack_sequence(sequences: list, enforce_sorted: bool = True) -> PackedSequence:
    """Packs a list of tensors ``(L_i, *)``: ``pack_padded_sequence(pad_sequence(sequences), lengths)``."""
    lengths = [s.shape[0] for s in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpad_sequence(padded_sequences: Tensor, lengths: Any, batch_first: bool = False) -> list:
    """The list of sequences of a padded batch, each cut to its length."""
    if not batch_first:
        padded_sequences = shape_ops.transpose(padded_sequences, 0, 1)
    return [padded_sequences[b, :int(n)] for b, n in enumerate(_host_ints(lengths))]


def unpack_sequence(packed_sequences: PackedSequence) -> list:
    """The list of sequences of a ``PackedSequence``, in their original order."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)


def invert_permutation(permutation: Tensor | None) -> Tensor | None:
    """The inverse of the permutation ``permutation`` (a 1-D index tensor), None for None: what turns a
    ``PackedSequence``'s ``sorted_indices`` into its ``unsorted_indices``."""
    if permutation is None:
        return None
    positions = creation.arange(permutation.numel(), device=permutation.device)
    return creation.empty_like(permutation).scatter_(0, permutation, positions)
