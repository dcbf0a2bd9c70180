"""``F.ctc_loss`` / ``nn.CTCLoss``: losses and gradients equal to PyTorch 2.13's (recorded below),
gradients through ``log_softmax`` against finite differences."""
from __future__ import annotations

import math
import re

import numpy as np
import pytest

import tinyframe as tf
import tinyframe.nn as nn
import tinyframe.nn.functional as F
from tinyframe.autograd import gradcheck

LOGITS = [[[2.0409, -2.5557, 0.4181, -0.5678], [-0.4526, -0.2156, -2.02, -0.2319], [-0.8652, 3.323, 0.2258, -0.3526]],
          [[-0.2813, -0.668, -1.0552, -0.3908], [0.4819, -0.2386, 0.9578, -0.1998], [0.0243, 1.5458, 0.5451, -0.5052]],
          [[-0.1828, 0.5405, 1.9351, -0.2696], [-0.2436, 1.0023, -0.8865, -0.2917], [0.8825, 0.5804, 0.0915, 0.6701]],
          [[-2.8282, 1.0213, -0.9596, -1.6686], [0.2764, 0.7005, -0.4448, -1.0764], [0.0261, -0.0527, 1.4056, 0.7474]],
          [[0.1938, 1.1116, -0.2055, -0.9259], [0.5841, 0.5825, -0.2148, -0.7828], [0.2292, -2.4939, 0.6901, 0.4914]],
          [[-1.6389, 0.0614, -0.9641, 0.7572], [-2.0342, -0.9145, 0.7096, 1.1564], [-2.158, -0.498, 0.328, -0.6092]]]
TARGETS = [[1, 2, 2], [3, 1, 0], [1, 1, 1]]
PER_SAMPLE = [7.379216476780488, 2.4422574052991353, 6.261920624234987]


def _log_probs(requires_grad: bool = False) -> tf.Tensor:
    return F.log_softmax(tf.tensor(LOGITS, dtype=tf.float64, requires_grad=requires_grad), 2)


@pytest.mark.parametrize(("reduction", "expected"), [
    ("none", PER_SAMPLE), ("sum", sum(PER_SAMPLE)), ("mean", 1.9227248009960196)])
def test_losses_match_pytorch(reduction: str, expected: object) -> None:
    loss = F.ctc_loss(_log_probs(), tf.tensor(TARGETS), [6, 5, 6], [3, 2, 3], reduction=reduction)
    np.testing.assert_allclose(loss.numpy(), expected, rtol=1e-10)


def test_concatenated_targets_and_another_blank() -> None:
    loss = F.ctc_loss(_log_probs(), tf.tensor([1, 2, 2, 0, 1, 1, 2]), (6, 6, 6), (3, 1, 3), blank=3, reduction="none")
    np.testing.assert_allclose(loss.numpy(), [9.317435220576902, 5.535551534893253, 4.142403710112605], rtol=1e-10)


def test_unbatched_empty_target_is_all_blanks() -> None:
    log_probs = _log_probs()[:, 0]
    loss = F.ctc_loss(log_probs, tf.tensor([], dtype=tf.int64), [6], [0], reduction="sum")
    np.testing.assert_allclose(loss.item(), 12.392154538032228, rtol=1e-10)
    np.testing.assert_allclose(loss.item(), -log_probs.numpy()[:, 0].sum(), rtol=1e-12)


def test_too_short_input_gives_infinity_or_zero_with_zero_infinity() -> None:
    lengths = tf.tensor([6, 5, 4])
    loss = F.ctc_loss(_log_probs(), tf.tensor(TARGETS), lengths, tf.tensor([3, 2, 3]), reduction="none")
    assert math.isinf(loss.numpy()[2])
    zeroed = F.ctc_loss(_log_probs(), tf.tensor(TARGETS), lengths, tf.tensor([3, 2, 3]), reduction="none",
                        zero_infinity=True)
    np.testing.assert_allclose(zeroed.numpy(), [PER_SAMPLE[0], 2.4422574052991353, 0.0], rtol=1e-10)


def test_log_probs_gradient_matches_pytorch() -> None:
    log_probs = _log_probs(requires_grad=True)
    log_probs.retain_grad()
    loss = F.ctc_loss(log_probs, tf.tensor(TARGETS), tf.tensor([6, 5, 4]), tf.tensor([3, 2, 3]), reduction="sum",
                      zero_infinity=True)
    loss.backward()
    assert loss.grad_fn.name() == "SumBackward0"
    assert loss.grad_fn.next_functions[0][0].name() == "CtcLossBackward0"
    np.testing.assert_allclose(loss.item(), 9.821473882079623, rtol=1e-10)
    expected = [[0.01434056, 0.34043752, 0.05602688, -0.41080496], [-0.16170437, -0.01395267, 0.44685837, -0.27120133],
                [-0.00335898, -0.1021169, 0.08829174, 0.01718414], [0.05466281, -0.26943787, 0.14854372, 0.06623133],
                [-0.17759006, -0.0831158, 0.16640896, 0.0942969], [0.0, 0.0, 0.0, 0.0]]
    np.testing.assert_allclose(log_probs.grad.numpy()[:, 1], expected, atol=1e-8)
    np.testing.assert_array_equal(log_probs.grad.numpy()[:, 2], 0.0)  # the infinite loss was zeroed


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_gradient_through_log_softmax_matches_finite_differences(reduction: str) -> None:
    logits = tf.tensor(LOGITS, dtype=tf.float64, requires_grad=True)

    def loss(x: tf.Tensor) -> tf.Tensor:
        return F.ctc_loss(F.log_softmax(x, 2), tf.tensor(TARGETS), [6, 5, 6], [3, 2, 2], reduction=reduction)
    assert gradcheck(loss, [logits])


def test_ctc_loss_module_and_float32() -> None:
    criterion = nn.CTCLoss(blank=0, reduction="mean", zero_infinity=False)
    log_probs = F.log_softmax(tf.tensor(LOGITS, requires_grad=True), 2)
    loss = criterion(log_probs, tf.tensor(TARGETS), tf.tensor([6, 5, 6]), tf.tensor([3, 2, 3]))
    assert loss.dtype == tf.float32
    np.testing.assert_allclose(loss.item(), 1.9227248009960196, rtol=1e-5)
    assert repr(criterion) == "CTCLoss()"


def test_lengths_and_padded_targets_must_match_the_batch_size() -> None:
    # PyTorch 2.13's messages (a CTC script passed log_probs of the wrong batch size)
    log_probs = _log_probs()
    with pytest.raises(RuntimeError, match="^input_lengths must be of size batch_size$"):
        F.ctc_loss(log_probs, tf.tensor(TARGETS), tf.tensor([6]), tf.tensor([3, 2, 3]))
    with pytest.raises(RuntimeError, match="^target_lengths must be of size batch_size$"):
        F.ctc_loss(log_probs, tf.tensor(TARGETS), [6, 5, 6], [3])
    with pytest.raises(RuntimeError, match=r"Expected tensor to have size 3 at dimension 0, but got size 2 for "
                                           r"argument #2 'targets' \(while checking arguments for "
                                           r"ctc_loss_allocate_outputs\)"):
        F.ctc_loss(log_probs, tf.tensor(TARGETS[:2]), [6, 5, 6], [3, 2, 3])


@pytest.mark.parametrize(("targets", "input_lengths", "target_lengths", "message"), [
    # PyTorch 2.13's messages, checked in its order: target lengths, the targets' size, input lengths
    ([[1, 2]], [3], [2], "Expected input_lengths to have value at most 2, but got value 3"),
    ([[1, 2]], [-1], [2], "Expected input_lengths to have value at least 0, but got value -1"),
    ([[1, 2]], [-1], [-3], "Expected target_lengths to have value at least 0, but got value -3"),
    ([[1, 2]], [3], [3], "Expected tensor to have size at least 3 at dimension 1, but got size 2 for argument #2 "
                         "'targets'"),
    ([1, 2], [3], [3], "Expected tensor to have size 3 at dimension 0, but got size 2 for argument #2 'targets'"),
])
def test_length_and_target_size_errors_match_pytorch(targets, input_lengths, target_lengths, message) -> None:
    log_probs = _log_probs()[:2, :1]
    with pytest.raises(RuntimeError, match=re.escape(message + " (while checking arguments for "
                                                               "ctc_loss_allocate_outputs)")):
        F.ctc_loss(log_probs, tf.tensor(targets), tf.tensor(input_lengths), tf.tensor(target_lengths))


def test_unbatched_1d_targets_are_concatenated_ones() -> None:
    log_probs = _log_probs()[:, 0]
    with pytest.raises(RuntimeError, match="Expected tensor to have size 2 at dimension 0, but got size 3"):
        F.ctc_loss(log_probs, tf.tensor([1, 2, 0]), 6, 2)
    assert F.ctc_loss(log_probs, tf.tensor([[1, 2, 0]]), 6, 2).item() == F.ctc_loss(log_probs, tf.tensor([1, 2]), 6,
                                                                                      2).item()
