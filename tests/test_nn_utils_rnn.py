"""``nn.utils.rnn``: padding and packing as PyTorch 2.13 does, and PackedSequence through RNN, LSTM
and GRU with outputs equal to PyTorch's for the same weights (recorded below)."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as tf
import tinyframe.nn as nn
from tinyframe.autograd import gradcheck
from tinyframe.nn.utils.rnn import (
    PackedSequence,
    pack_padded_sequence,
    pack_sequence,
    pad_packed_sequence,
    pad_sequence,
    unpack_sequence,
    unpad_sequence,
)

X = [[[-0.802, -1.324], [-0.248, 0.42], [1.136, 0.11]], [[-0.553, -0.785], [0.749, 1.635], [0.273, -1.233]],
     [[-0.958, 1.6], [0.203, -1.732], [-0.084, -1.163]]]
LENGTHS = [2, 3, 1]


def _filled(model: nn.Module, seed: int) -> nn.Module:
    rng = np.random.default_rng(seed)
    model.load_state_dict({k: tf.tensor(rng.standard_normal(tuple(v.shape)) * 0.5)
                           for k, v in model.state_dict().items()})
    return model


def test_pack_padded_sequence_unsorted() -> None:
    x = tf.arange(12.0).reshape(4, 3, 1)
    packed = pack_padded_sequence(x, tf.tensor([2, 4, 2]), enforce_sorted=False)
    assert isinstance(packed, PackedSequence)
    np.testing.assert_array_equal(packed.data.numpy().ravel(), [1, 0, 2, 4, 3, 5, 7, 10])
    assert packed.batch_sizes.tolist() == [3, 3, 1, 1]
    assert packed.sorted_indices.tolist() == [1, 0, 2] and packed.unsorted_indices.tolist() == [1, 0, 2]
    padded, lengths = pad_packed_sequence(packed, batch_first=True, padding_value=-1)
    np.testing.assert_array_equal(padded.numpy()[..., 0], [[0, 3, -1, -1], [1, 4, 7, 10], [2, 5, -1, -1]])
    assert lengths.tolist() == [2, 4, 2] and lengths.dtype == tf.int64


def test_pack_padded_sequence_requires_sorted_lengths() -> None:
    with pytest.raises(RuntimeError, match="must be sorted in decreasing order when `enforce_sorted` is True"):
        pack_padded_sequence(tf.zeros(4, 3, 1), [2, 4, 2])


def test_pad_packed_sequence_total_length() -> None:
    packed = pack_sequence([tf.ones(3, 2), tf.ones(1, 2)])
    assert packed.sorted_indices is None
    assert pad_packed_sequence(packed, total_length=5)[0].shape == (5, 2, 2)
    with pytest.raises(ValueError, match="but got total_length=2 and max sequence length being 3"):
        pad_packed_sequence(packed, total_length=2)


def test_pad_sequence_sides_and_layouts() -> None:
    sequences = [tf.ones(2), tf.full((3,), 2.0)]
    np.testing.assert_array_equal(pad_sequence(sequences).numpy(), [[1, 2], [1, 2], [0, 2]])
    np.testing.assert_array_equal(pad_sequence(sequences, batch_first=True, padding_value=-1,
                                               padding_side="left").numpy(), [[-1, 1, 1], [2, 2, 2]])


def test_unpack_and_unpad_give_the_sequences_back() -> None:
    sequences = [tf.tensor([1.0, 2.0, 3.0]), tf.tensor([4.0]), tf.tensor([5.0, 6.0])]
    packed = pack_sequence(sequences, enforce_sorted=False)
    np.testing.assert_array_equal(packed.data.numpy(), [1, 5, 4, 2, 6, 3])
    for got, expected in zip(unpack_sequence(packed), sequences):
        np.testing.assert_array_equal(got.numpy(), expected.numpy())
    padded = pad_sequence(sequences, batch_first=True)
    assert [t.tolist() for t in unpad_sequence(padded, tf.tensor([3, 1, 2]), batch_first=True)] == [
        [1.0, 2.0, 3.0], [4.0], [5.0, 6.0]]


def test_packing_passes_gradients_back() -> None:
    x = tf.tensor(X, dtype=tf.float64, requires_grad=True)

    def roundtrip(t: tf.Tensor) -> tf.Tensor:
        packed = pack_padded_sequence(t, LENGTHS, enforce_sorted=False)
        return pad_packed_sequence(packed, batch_first=True, padding_value=0.5)[0] * 2
    assert gradcheck(roundtrip, [x])


def test_packed_bidirectional_lstm_matches_pytorch() -> None:
    lstm = _filled(nn.LSTM(2, 3, bidirectional=True, dtype=tf.float64), 0)
    out, (h_n, c_n) = lstm(pack_padded_sequence(tf.tensor(X, dtype=tf.float64), LENGTHS, enforce_sorted=False))
    assert isinstance(out, PackedSequence)
    padded, _ = pad_packed_sequence(out)
    expected = [
        [[0.0469842495, 0.0589853603, 0.2405944105, -0.0166188084, 0.1993504958, -0.0044565046],
         [0.0919993586, 0.1356765604, 0.1600373102, -0.1396160024, -0.1170132116, 0.0699298245],
         [-0.0663993259, 0.1207169833, 0.0249350581, -0.0534125041, -0.2291220055, 0.0120759594]],
        [[0.071551028, 0.1286116216, 0.3240467547, -0.0721617189, 0.1126295813, -0.0009328442],
         [0.0830289949, 0.2000189561, 0.1334280427, -0.0883327631, -0.1973989545, 0.0746601057], [0.0] * 6],
        [[0.0] * 6, [0.0407454743, 0.0906493191, 0.2059464572, 0.0303583565, 0.125856554, -0.0014954472], [0.0] * 6]]
    np.testing.assert_allclose(padded.detach().numpy(), expected, atol=1e-9)
    np.testing.assert_allclose(h_n.detach().numpy()[1], [[-0.0166188084, 0.1993504958, -0.0044565046],
                                                          [-0.1396160024, -0.1170132116, 0.0699298245],
                                                          [-0.0534125041, -0.2291220055, 0.0120759594]], atol=1e-9)
    assert c_n.shape == (2, 3, 3)


def test_packed_two_layer_gru_batch_first_matches_pytorch() -> None:
    gru = _filled(nn.GRU(2, 3, batch_first=True, num_layers=2, dtype=tf.float64), 0)
    x = tf.tensor(X, dtype=tf.float64)
    out, h_n = gru(pack_padded_sequence(x, LENGTHS, batch_first=True, enforce_sorted=False))
    padded, lengths = pad_packed_sequence(out, batch_first=True)
    assert lengths.tolist() == LENGTHS
    np.testing.assert_allclose(padded.detach().numpy()[1], [[-0.3116130711, 0.2299542919, -0.0186423428],
                                                             [-0.3808047128, 0.2455673961, 0.0587733172],
                                                             [-0.4361342355, 0.347296631, 0.0321721332]], atol=1e-9)
    np.testing.assert_allclose(h_n.detach().numpy()[0], [[0.0541876736, -0.0293265047, 0.6219497756],
                                                          [-0.2031057731, -0.3361915228, 0.6101936347],
                                                          [0.0537290653, -0.2364298131, 0.3604035532]], atol=1e-9)


def test_packed_rnn_equals_running_each_sequence_alone() -> None:
    rnn = nn.RNN(2, 3, num_layers=2, bidirectional=True, dtype=tf.float64)
    x = tf.tensor(X, dtype=tf.float64)
    out, h_n = rnn(pack_padded_sequence(x, LENGTHS, enforce_sorted=False))
    padded, _ = pad_packed_sequence(out)
    for b, length in enumerate(LENGTHS):
        alone, h_alone = rnn(x[:length, b])
        np.testing.assert_allclose(padded.detach().numpy()[:length, b], alone.detach().numpy(), atol=1e-12)
        np.testing.assert_allclose(h_n.detach().numpy()[:, b], h_alone.detach().numpy(), atol=1e-12)


def test_invert_permutation_turns_sorted_indices_into_unsorted_ones() -> None:
    from tinyframe.nn.utils.rnn import invert_permutation
    assert invert_permutation(tf.tensor([2, 0, 1])).tolist() == [1, 2, 0] and invert_permutation(None) is None
    packed = pack_sequence([tf.ones(2), tf.ones(3), tf.ones(1)], enforce_sorted=False)
    assert tf.equal(invert_permutation(packed.sorted_indices), packed.unsorted_indices)
