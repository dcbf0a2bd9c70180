"""``torch.embedding_bag`` (its four results), ``F.embedding_bag`` and ``nn.EmbeddingBag`` against
PyTorch's recorded results (``_embedding_bag_expected.py``): values, dtypes, nodes, the weight's
gradient, and PyTorch's exceptions and messages."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import tinyframe as tf
from tinyframe import nn

from ._embedding_bag_cases import CASES, run
from ._embedding_bag_expected import EXPECTED

# The cases where tinyframe's result differs from PyTorch 2.13's CPU kernel on purpose.
_DIFFERENT = {
    # PyTorch's backward of a 2-d ``indices`` to the top-level function fails (index_select of a matrix)
    "top_2d_indices": "grad",
    # Past a short last offset, PyTorch's fast kernel (float32, sum or mean) leaves the indices out of the
    # output but its backward gives them a gradient (mode sum: uninitialised memory); tinyframe's gradient
    # is the forward's
    "top_0_padNone_short_last_offset": "grad",
    "top_1_padNone_short_last_offset": "grad",
    "F_mean_short_last_offset": "grad",
}


def _torch_names(value: object) -> object:
    return value.replace("torch.", "tinyframe.") if isinstance(value, str) else value


@pytest.mark.parametrize("name", list(CASES))
def test_embedding_bag_matches_pytorch(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = run(tf, CASES[name])
    expected = EXPECTED[name]
    if isinstance(expected, str):
        assert found == _torch_names(expected)
        return
    assert isinstance(found, dict), found
    assert len(found["outputs"]) == len(expected["outputs"])
    for (dtype, shape, value, node), (dtype_t, shape_t, value_t, node_t) in zip(found["outputs"],
                                                                                expected["outputs"]):
        assert (dtype, shape, node) == (dtype_t, shape_t, node_t)
        np.testing.assert_allclose(np.array(value, dtype=float), np.array(value_t, dtype=float), rtol=1e-6)
    if _DIFFERENT.get(name) == "grad":
        return
    if expected["grad"] is None:
        assert found["grad"] is None
    else:
        np.testing.assert_allclose(found["grad"], expected["grad"], rtol=1e-6)


def test_deprecated_argument_order_warns_and_swaps() -> None:
    weight = tf.arange(12.0).reshape(6, 2)
    with pytest.warns(UserWarning, match="Argument order of nn.functional.embedding_bag was changed"):
        out = nn.functional.embedding_bag(weight, tf.tensor([[1, 2], [3, 4]]), mode="sum")
    assert out.tolist() == [[6.0, 8.0], [14.0, 16.0]]


def test_embedding_bag_module_forwards_its_options() -> None:
    bag = nn.EmbeddingBag(6, 2, mode="max", padding_idx=1, include_last_offset=True)
    with tf.no_grad():
        bag.weight.copy_(tf.arange(12.0).reshape(6, 2))
    out = bag(tf.tensor([1, 2, 4, 5, 4, 3, 2, 0]), tf.tensor([0, 2, 2, 5, 8]))
    assert out.tolist() == [[4.0, 5.0], [0.0, 0.0], [10.0, 11.0], [6.0, 7.0]]
    with pytest.raises(NotImplementedError, match=r"only supported for mode='sum' \(got mode='max'\)"):
        bag(tf.tensor([1, 2]), tf.tensor([0, 2]), tf.ones(2))
