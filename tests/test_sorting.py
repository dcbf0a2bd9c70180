"""Sorting and selection: indices, named tuples, NaN handling and errors, with values recorded from
PyTorch 2.13."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as tf

X = [[3.0, 1.0, 3.0, 2.0, 1.0, 3.0], [0.0, 5.0, 5.0, 1.0, 1.0, 0.0]]
NAN = float("nan")


def _list(t: tf.Tensor) -> list:
    return t.tolist()


def test_sort_returns_values_and_indices_named_tuple_stable_for_ties() -> None:
    x = tf.tensor(X, requires_grad=True)
    result = tf.sort(x, descending=True)
    assert type(result).__name__ == "sort" and isinstance(result, tuple)
    values, indices = result
    assert _list(indices) == [[0, 2, 5, 3, 1, 4], [1, 2, 3, 4, 0, 5]]
    assert _list(values) == [[3, 3, 3, 2, 1, 1], [5, 5, 1, 1, 0, 0]]
    assert values.grad_fn.name() == "SortBackward0" and indices.dtype == tf.int64
    assert repr(result).startswith("tinyframe.return_types.sort(\nvalues=tensor(")
    assert _list(x.argsort()) == [[1, 4, 3, 0, 2, 5], [0, 5, 3, 4, 1, 2]]


def test_sort_puts_nan_last_ascending_and_first_descending() -> None:
    n = tf.tensor([1.0, NAN, 3.0])
    assert _list(tf.sort(n).indices) == [0, 2, 1]
    assert _list(tf.sort(n, descending=True).indices) == [1, 2, 0]
    assert _list(tf.topk(n, 2).indices) == [1, 2]


def test_sort_gradient_goes_to_the_sorted_positions(device: str) -> None:
    x = tf.tensor([3.0, 1.0, 2.0], device=device, requires_grad=True)
    (tf.sort(x).values * tf.tensor([1.0, 10.0, 100.0], device=device)).sum().backward()
    assert _list(x.grad) == [100.0, 1.0, 10.0]


def test_topk_kthvalue_median_mode_values_indices_and_grad_fn_names() -> None:
    x = tf.tensor(X, requires_grad=True)
    top = tf.topk(x, 3, largest=False)
    assert _list(top.values) == [[1, 1, 2], [0, 0, 1]] and top.values.grad_fn.name() == "TopkBackward0"
    kth = tf.kthvalue(x, 2)
    assert _list(kth.values) == [1, 0] and kth.values.grad_fn.name() == "KthvalueBackward0"
    assert tf.median(x).item() == 1.0 and tf.median(x).grad_fn.name() == "MedianBackward0"
    med = tf.median(x, 1)
    assert _list(med.values) == [2, 1] and _list(med.indices) == [3, 3]
    assert med.values.grad_fn.name() == "MedianBackward1"
    mode = tf.mode(x, 1)  # the smallest most frequent value, at its last position
    assert _list(mode.values) == [3, 0] and _list(mode.indices) == [5, 5]
    assert mode.values.grad_fn.name() == "ModeBackward0"
    assert tf.median(tf.tensor([1.0, 2.0, 3.0, 4.0])).item() == 2.0  # the lower median


def test_median_propagates_nan_and_nanmedian_ignores_it() -> None:
    m = tf.tensor([[1.0, NAN, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0]])
    assert np.isnan(tf.median(m).item()) and tf.nanmedian(m).item() == 3.0
    assert np.isnan(_list(tf.median(m, 1).values)[0]) and _list(tf.median(m, 1).indices)[0] == 1
    assert _list(tf.nanmedian(m, 1).values) == [3.0, 2.0]


def test_cummax_cummin_keep_the_last_tied_position_and_stick_to_nan() -> None:
    x = tf.tensor(X, requires_grad=True)
    result = tf.cummax(x, 1)
    assert _list(result.indices) == [[0, 0, 2, 2, 2, 5], [0, 1, 2, 2, 2, 2]]
    assert result.values.grad_fn.name() == "CummaxBackward0"
    assert _list(tf.cummin(x, 1).indices) == [[0, 1, 1, 1, 4, 4], [0, 0, 0, 0, 0, 5]]
    n = tf.tensor([1.0, NAN, 3.0, 0.0, NAN, 5.0])
    assert _list(tf.cummax(n, 0).indices) == [0, 1, 1, 1, 4, 4]
    assert _list(tf.cummin(n, 0).indices) == [0, 1, 1, 1, 4, 4]


def test_cumprod_integers_give_int64_and_grad_fn_name() -> None:
    assert tf.cumprod(tf.tensor([1, 2, 3]), 0).dtype == tf.int64
    assert tf.tensor([2.0], requires_grad=True).cumprod(0).grad_fn.name() == "CumprodBackward0"


@pytest.mark.parametrize("interpolation, expected", [
    ("linear", [[1.5, 3.0, 3.0], [0.5, 1.0, 5.0]]), ("lower", [[1.0, 3.0, 3.0], [0.0, 1.0, 5.0]]),
    ("higher", [[2.0, 3.0, 3.0], [1.0, 1.0, 5.0]]), ("midpoint", [[1.5, 3.0, 3.0], [0.5, 1.0, 5.0]]),
    ("nearest", [[2.0, 3.0, 3.0], [1.0, 1.0, 5.0]])])
def test_quantile_interpolation_modes_match_pytorch(interpolation: str, expected: list) -> None:
    q = tf.tensor([0.3, 0.6, 1.0])
    out = tf.quantile(tf.tensor(X), q, dim=1, interpolation=interpolation)
    np.testing.assert_allclose(out.numpy(), np.array(expected).T, rtol=1e-6)


def test_quantile_shapes_nan_and_errors() -> None:
    x = tf.tensor(X)
    q = tf.tensor([0.3, 0.6, 1.0])
    assert tuple(tf.quantile(x, q, keepdim=True).shape) == (3, 1, 1)
    assert tuple(tf.quantile(x, q, dim=0, keepdim=True).shape) == (3, 1, 6)
    m = tf.tensor([[1.0, NAN, 3.0, 4.0], [NAN] * 4, [1.0, 2.0, 3.0, 4.0]])
    np.testing.assert_allclose(tf.quantile(m, 0.4, dim=1).numpy(), [NAN, NAN, 2.2], rtol=1e-6)
    np.testing.assert_allclose(tf.nanquantile(m, 0.4, dim=1).numpy(), [2.6, NAN, 2.2], rtol=1e-6)
    with pytest.raises(RuntimeError, match=r"q must be in the range \[0, 1\] but got 1.5"):
        tf.quantile(x, 1.5)
    with pytest.raises(RuntimeError, match="must be either float or double dtype"):
        tf.quantile(tf.tensor([1, 2]), 0.5)
    with pytest.raises(RuntimeError, match="but got foo"):
        tf.quantile(x, 0.5, interpolation="foo")


def test_unique_with_inverse_counts_and_dim() -> None:
    values, inverse, counts = tf.unique(tf.tensor([3, 1, 2, 3, 1]), return_inverse=True, return_counts=True)
    assert (_list(values), _list(inverse), _list(counts)) == ([1, 2, 3], [2, 0, 1, 2, 0], [2, 1, 2])
    rows, inverse, counts = tf.tensor([[1, 2], [1, 2], [0, 3]]).unique(dim=0, return_inverse=True,
                                                                       return_counts=True)
    assert (_list(rows), _list(inverse), _list(counts)) == ([[0, 3], [1, 2]], [1, 1, 0], [1, 2])
    assert _list(tf.unique(tf.tensor([[3, 1], [2, 3]]), return_inverse=True)[1]) == [[2, 0], [1, 2]]


def test_unique_consecutive_collapses_runs() -> None:
    values, inverse, counts = tf.unique_consecutive(tf.tensor([1, 1, 2, 2, 3, 1, 1, 2]), return_inverse=True,
                                                    return_counts=True)
    assert _list(values) == [1, 2, 3, 1, 2] and _list(inverse) == [0, 0, 1, 1, 2, 3, 3, 4]
    assert _list(counts) == [2, 2, 1, 2, 1]
    rows = tf.unique_consecutive(tf.tensor([[1, 1], [1, 1], [2, 3], [1, 1]]), dim=0)
    assert _list(rows) == [[1, 1], [2, 3], [1, 1]]


def test_searchsorted_and_bucketize() -> None:
    seq = tf.tensor([1, 3, 5, 7, 9])
    values = tf.tensor([[3, 6, 9], [3, 6, 9]])
    assert _list(tf.searchsorted(seq, values)) == [[1, 3, 4], [1, 3, 4]]
    rows = tf.tensor([[1, 3, 5, 7, 9], [2, 4, 6, 8, 10]])
    assert _list(tf.searchsorted(rows, values, right=True)) == [[2, 3, 5], [1, 3, 4]]
    out = tf.searchsorted(seq, tf.tensor([3, 6, 9]), side="right", out_int32=True)
    assert _list(out) == [2, 3, 5] and out.dtype == tf.int32
    assert tf.searchsorted(seq, 5).item() == 2
    assert _list(tf.bucketize(tf.tensor([3, 6, 9]), seq)) == [1, 3, 4]
    assert _list(tf.bucketize(tf.tensor([3, 6, 9]), seq, right=True)) == [2, 3, 5]


def test_selection_errors_match_pytorch() -> None:
    x = tf.tensor(X)
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        tf.topk(x, 7)
    with pytest.raises(RuntimeError, match="selected number k out of range for dimension 1"):
        tf.kthvalue(x, 0)
    with pytest.raises(IndexError, match="Dimension out of range"):
        tf.sort(x, 2)


def test_aminmax_returns_min_and_max_named_tuple() -> None:
    result = tf.aminmax(tf.tensor(X))
    assert type(result).__name__ == "aminmax" and (result.min.item(), result.max.item()) == (0.0, 5.0)
    assert tf.tensor(X).aminmax(dim=1, keepdim=True).max.tolist() == [[3.0], [5.0]]


def test_unique_keeps_every_nan_and_median_of_nothing_is_nan() -> None:
    values = tf.unique(tf.tensor([2.0, NAN, 1.0, NAN]))
    assert values.shape == (4,) and values.tolist()[:2] == [1.0, 2.0]
    assert np.isnan(tf.median(tf.tensor([])).item())


def test_histogram_counts_edges_weights_and_density_as_pytorch() -> None:
    # PyTorch 2.13's results
    x = tf.tensor([1.0, 2, 1, 2.5, 4, 7])
    hist, edges = tf.histogram(x, bins=3)
    assert hist.tolist() == [4, 1, 1] and edges.tolist() == [1, 3, 5, 7]
    weighted = tf.histogram(x, bins=4, range=(0.0, 4.0), weight=tf.ones(6) * 2, density=True)
    np.testing.assert_allclose(weighted.hist.numpy(), [0.0, 0.4, 0.4, 0.2], rtol=1e-6)
    given = x.histogram(tf.tensor([0.0, 2, 5, 8]), density=True)
    np.testing.assert_allclose(given.hist.numpy(), [1 / 6, 1 / 6, 1 / 18], rtol=1e-6)
    assert tf.histogram(tf.tensor([3.0, 3.0]), 2).bin_edges.tolist() == [2.5, 3.0, 3.5]
    assert tf.histogram(x.double(), 2).hist.dtype == tf.float64
    with pytest.raises(NotImplementedError, match="histogramdd\" not implemented for 'Long'"):
        tf.histogram(tf.tensor([1, 2]), 2)
    with pytest.raises(RuntimeError, match="should have the same dtype, but got input with dtype float and bins for "
                                           "dimension 0 with dtype double"):
        tf.histogram(x, tf.tensor([0.0, 2.0]).double())
    with pytest.raises(RuntimeError, match="min should not exceed max, but got min 3 max 1 for dimension 0"):
        tf.histogram(x, 2, range=(3.0, 1.0))
    with pytest.raises(RuntimeError, match="bins must be > 0, but got 0 for dimension 0"):
        tf.histogram(x, 0)
    with pytest.raises(RuntimeError, match=r"range \[nan, nan\] is not finite"):
        tf.histogram(tf.tensor([1.0, float("nan")]), 2)
