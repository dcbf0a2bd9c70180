"""``torch._foreach_*``: values, in-place results and errors as PyTorch 2.13 gives them (recorded)."""
from __future__ import annotations

import pytest

import tinyframe as tf


def _lists(tensors: list) -> list:
    return [t.tolist() for t in tensors]


def test_out_of_place_forms_pair_lists_and_broadcast_numbers() -> None:
    a = [tf.tensor([1.0, 2.0]), tf.tensor([[3.0, -4.0]])]
    b = [tf.tensor([0.5, 0.5]), tf.tensor([[1.0, 1.0]])]
    assert _lists(tf._foreach_add(a, b, alpha=2)) == [[2.0, 3.0], [[5.0, -2.0]]]
    assert _lists(tf._foreach_mul(a, 3)) == [[3.0, 6.0], [[9.0, -12.0]]]
    assert _lists(tf._foreach_div(a, [2.0, 4.0])) == [[0.5, 1.0], [[0.75, -1.0]]]
    assert _lists(tf._foreach_norm(a)) == pytest.approx([2.2360680103302, 5.0])
    assert _lists(tf._foreach_maximum(a, b)) == [[1.0, 2.0], [[3.0, 1.0]]]
    assert _lists(tf._foreach_max(a)) == [2.0, 3.0]


def test_in_place_forms_update_and_return_the_list() -> None:
    a = [tf.tensor([1.0, 2.0]), tf.tensor([[3.0, -4.0]])]
    b = [tf.tensor([0.5, 0.5]), tf.tensor([[1.0, 1.0]])]
    c = [t.clone() for t in a]
    assert tf._foreach_lerp_(c, b, 0.25) is c
    assert _lists(c) == [[0.875, 1.625], [[2.5, -2.75]]]
    tf._foreach_addcmul_(c, a, b, value=2.0)
    assert _lists(c) == [[1.875, 3.625], [[8.5, -10.75]]]
    tf._foreach_clamp_min_(c, 0.0)
    tf._foreach_sqrt_(c)
    assert _lists(c)[0] == pytest.approx([1.3693064451217651, 1.9039433002471924])
    assert _lists(tf._foreach_maximum_(c, [tf.full((2,), 5.0), tf.zeros(1, 2)]))[0] == [5.0, 5.0]
    assert tf._foreach_zero_(c) is c and _lists(c) == [[0.0, 0.0], [[0.0, 0.0]]]
    assert tf._foreach_copy_(c, b) is c and _lists(c) == [[0.5, 0.5], [[1.0, 1.0]]]


def test_errors_are_pytorchs() -> None:
    a = [tf.ones(2), tf.ones(1)]
    with pytest.raises(RuntimeError, match="^Tensor lists must have the same number of tensors, got 2 and 1$"):
        tf._foreach_add(a, a[:1])
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        tf._foreach_mul_([tf.ones(2, requires_grad=True)], 2.0)
