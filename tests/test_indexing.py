"""Indexing behaviour the op registry cannot express: views, in-place writes, grad_fn names, errors.

Expected numbers and messages were taken from PyTorch 2.13.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

import tinyframe as tf
from tinyframe.autograd import grad


def _arange(*shape: int, device: str = "cpu", requires_grad: bool = False) -> tf.Tensor:
    data = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    return tf.tensor(data, device=device, requires_grad=requires_grad)


def _host(t: tf.Tensor) -> np.ndarray:
    return np.asarray(t.detach().cpu().numpy())


# ----------------------------------------------------------------------------------- gradients
def test_repeated_indices_accumulate_gradient(device: str) -> None:
    x = tf.tensor([1.0, 2.0, 3.0], device=device, requires_grad=True)
    x[[0, 0, 1]].sum().backward()
    np.testing.assert_array_equal(_host(x.grad), [2.0, 1.0, 0.0])


def test_repeated_index_tensor_accumulates_rows(device: str) -> None:
    x = _arange(3, 2, device=device, requires_grad=True)
    index = tf.tensor([[2, 2], [0, 2]], device=device)
    x[index].sum().backward()
    np.testing.assert_array_equal(_host(x.grad), [[1, 1], [0, 0], [3, 3]])


def test_second_derivative_of_repeated_index_is_an_index(device: str) -> None:
    x = tf.tensor([1.0, 2.0, 3.0], device=device, requires_grad=True)
    (g,) = grad((x[[0, 0, 2]] ** 2).sum(), x, create_graph=True)
    np.testing.assert_allclose(_host(g), [4.0, 0.0, 6.0])
    assert g.grad_fn.name() == "IndexPutImplBackward0"
    (gg,) = grad(g.sum(), x)
    np.testing.assert_allclose(_host(gg), [4.0, 0.0, 2.0])


def test_torch_keeps_slice_dimension_first_when_an_int_separates_tensor_indices(device: str) -> None:
    # NumPy would give shape (2, 3) here; PyTorch applies the int first.
    x = _arange(2, 3, 4, device=device, requires_grad=True)
    y = x[0, :, [0, 3]]
    assert tuple(y.shape) == (3, 2)
    np.testing.assert_array_equal(_host(y), [[0, 3], [4, 7], [8, 11]])
    y.sum().backward()
    assert _host(x.grad)[0, :, [0, 3]].sum() == 6 and _host(x.grad).sum() == 6


# ------------------------------------------------------------------------------------ grad_fn names
@pytest.mark.parametrize(("index", "name"), [
    (0, "SelectBackward0"),
    (slice(1, 3), "SliceBackward0"),
    (slice(None, None, 2), "SliceBackward0"),
    (None, "UnsqueezeBackward0"),
    (Ellipsis, "AliasBackward0"),
    ((slice(None), 0), "SelectBackward0"),
    ((0, slice(1, 3)), "SliceBackward0"),
    ((0, None), "UnsqueezeBackward0"),
    ((None, 0), "SelectBackward0"),
    ([0, 0, 1], "IndexBackward0"),
    ((0, [0, 1]), "IndexBackward0"),
    (np.array([True, False, True]), "IndexBackward0"),
])
def test_getitem_grad_fn_names_match_pytorch(index: object, name: str) -> None:
    x = _arange(3, 4, requires_grad=True)
    assert x[index].grad_fn.name() == name


def test_zero_dim_integer_tensor_index_selects(device: str) -> None:
    x = _arange(3, 4, device=device, requires_grad=True)
    y = x[tf.tensor(1, device=device)]
    assert y.grad_fn.name() == "SelectBackward0" and tuple(y.shape) == (4,)


# ------------------------------------------------------------------------------------ views
def test_basic_index_shares_storage_and_version_counter(device: str) -> None:
    base = tf.zeros(3, 4, device=device)
    row = base[1]
    assert row._base is base
    base[1, 2] = 5.0
    assert _host(row)[2] == 5.0
    assert row._version == base._version == 1
    row[0] = 7.0
    assert _host(base)[1, 0] == 7.0 and base._version == 2


def test_last_element_index_is_a_zero_dim_view(device: str) -> None:
    base = tf.zeros(3, device=device)
    element = base[2]
    assert element.ndim == 0
    element.fill_(4.0)
    np.testing.assert_array_equal(_host(base), [0, 0, 4])


def test_advanced_index_returns_a_copy(device: str) -> None:
    base = tf.zeros(3, 4, device=device)
    rows = base[[1, 2]]
    base[1, 2] = 5.0
    assert _host(rows).sum() == 0


def test_iterating_gives_row_views(device: str) -> None:
    base = tf.zeros(2, 3, device=device)
    for row in base:
        row[1] = 1.0
    np.testing.assert_array_equal(_host(base), [[0, 1, 0], [0, 1, 0]])


def test_modifying_base_after_view_was_saved_raises_at_backward(device: str) -> None:
    x = _arange(2, 3, device=device, requires_grad=True)
    a = x * 1
    v = a[0]
    y = v * v  # saves the view
    a[1] = 3.0  # bumps the version counter the view shares
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


# ------------------------------------------------------------------------------------ setitem
def test_setitem_is_differentiable(device: str) -> None:
    x = _arange(3, 2, device=device, requires_grad=True)
    w = tf.tensor([10.0, 20.0], device=device, requires_grad=True)
    y = x * 1
    y[0] = w
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    np.testing.assert_array_equal(_host(y), [[10, 20], [2, 3], [4, 5]])
    (y * y).sum().backward()
    np.testing.assert_array_equal(_host(w.grad), [20, 40])
    np.testing.assert_array_equal(_host(x.grad), [[0, 0], [4, 6], [8, 10]])


def test_setitem_broadcasts_a_value_and_sums_its_gradient(device: str) -> None:
    x = _arange(3, 2, device=device, requires_grad=True)
    w = tf.tensor(2.0, device=device, requires_grad=True)
    y = x * 1
    y[1:] = w
    y.sum().backward()
    assert _host(w.grad) == 4.0
    np.testing.assert_array_equal(_host(x.grad), [[1, 1], [0, 0], [0, 0]])


def test_setitem_with_tensor_index_records_index_put(device: str) -> None:
    x = _arange(3, 2, device=device, requires_grad=True)
    w = tf.tensor([[1.0, 1.0], [2.0, 2.0]], device=device, requires_grad=True)
    y = x * 1
    y[tf.tensor([2, 0])] = w
    assert y.grad_fn.name() == "IndexPutBackward0"
    (y * 3).sum().backward()
    np.testing.assert_array_equal(_host(w.grad), [[3, 3], [3, 3]])
    np.testing.assert_array_equal(_host(x.grad), [[0, 0], [3, 3], [0, 0]])


def test_setitem_on_a_plain_tensor_writes_in_place_and_bumps_the_version(device: str) -> None:
    x = tf.zeros(2, 3, device=device)
    x[:, 1] = tf.tensor([1.0, 2.0], device=device)
    x[x > 1.5] = -1.0
    x[0, [0, 2]] = 4
    np.testing.assert_array_equal(_host(x), [[4, 1, 4], [0, -1, 0]])
    assert x._version == 3 and x.grad_fn is None


def test_setitem_casts_the_value_to_the_tensor_dtype(device: str) -> None:
    ints = tf.zeros(3, dtype=tf.int64, device=device)
    ints[0] = 2.7
    assert ints.dtype == tf.int64 and _host(ints).tolist() == [2, 0, 0]
    floats = tf.zeros(3, device=device)
    floats[1:] = tf.tensor([1.5, 2.5], dtype=tf.float64, device=device)
    assert floats.dtype == tf.float32 and _host(floats).tolist() == [0.0, 1.5, 2.5]


def test_setitem_accepts_sequences() -> None:
    x = tf.zeros(2, 3)
    x[1] = [1, 2, 3]
    x[0] = np.array([4.0, 5.0, 6.0])
    np.testing.assert_array_equal(x.numpy(), [[4, 5, 6], [1, 2, 3]])


@pytest.mark.parametrize(("index", "message"), [
    (0, "a view of a leaf Variable that requires grad is being used in an in-place operation."),
    ([0], "a leaf Variable that requires grad is being used in an in-place operation."),
    (Ellipsis, "a leaf Variable that requires grad is being used in an in-place operation."),
])
def test_setitem_on_a_leaf_requiring_grad_raises(index: object, message: str) -> None:
    x = tf.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        x[index] = 1.0
    assert str(info.value) == message


def test_setitem_on_a_leaf_is_allowed_under_no_grad() -> None:
    x = tf.ones(3, requires_grad=True)
    with tf.no_grad():
        x[0] = 5.0
    assert x.is_leaf and x.tolist() == [5.0, 1.0, 1.0] and x._version == 1


def test_setitem_on_a_tensor_not_requiring_grad_with_a_value_that_does() -> None:
    y = tf.zeros(3)
    w = tf.tensor(2.0, requires_grad=True)
    y[[0, 0]] = w
    assert not y.is_leaf and y.grad_fn.name() == "IndexPutBackward0"
    y.sum().backward()
    assert w.grad.item() == 2.0


# ------------------------------------------------------------------------- in-place on index views
def test_inplace_on_an_index_view_of_a_non_leaf_rebases_the_base(device: str) -> None:
    x = tf.tensor([1.0, 2.0, 3.0], device=device, requires_grad=True)
    a = x * 1
    v = a[1:]
    v.mul_(x[:2])
    assert a.grad_fn.name() == "torch::autograd::CopySlices"
    np.testing.assert_array_equal(_host(a), [1, 2, 6])
    (a * a).sum().backward()
    np.testing.assert_array_equal(_host(x.grad), [10, 40, 24])


def test_inplace_on_a_view_of_a_view_reaches_the_root(device: str) -> None:
    x = tf.tensor([[1.0, 2.0], [3.0, 4.0]], device=device, requires_grad=True)
    a = x * 2
    v = a[0]
    w = v[1]
    w.mul_(3)
    v.add_(x[1])
    np.testing.assert_array_equal(_host(a), [[5, 16], [6, 8]])
    (a * x).sum().backward()
    np.testing.assert_array_equal(_host(x.grad), [[7, 28], [13, 18]])


def test_inplace_on_a_view_of_a_leaf_requiring_grad_raises() -> None:
    x = tf.ones(2, 3, requires_grad=True)
    v = x[0]
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
        v[1] = 5.0


def test_inplace_on_reshape_transpose_and_narrow_views_rebases_the_base(device: str) -> None:
    # InstanceNorm's output is a view; pix2pix applies LeakyReLU(inplace=True) to it. PyTorch 2.13's values.
    x = _arange(3, 4, device=device, requires_grad=True)
    b = x * 2 - 5
    b.t().mul_(tf.tensor([1.0, -1.0, 2.0], device=device))
    b.narrow(1, 1, 2).add_(1)
    b.view(12).clamp_(max=6.0)
    np.testing.assert_array_equal(_host(b), [[-5, -2, 0, 1], [-3, -4, -6, -9], [6, 6, 6, 6]])
    (b * b).sum().backward()
    np.testing.assert_array_equal(_host(x.grad), [[-20, -8, 0, 4], [12, 16, 24, 36], [0, 0, 0, 0]])


def test_inplace_on_a_reshape_view_of_a_leaf_or_an_expanded_view_raises() -> None:
    x = _arange(3, 4, requires_grad=True)
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
        x.view(12).mul_(2)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        (x * 1)[0].expand(2, 4).mul_(2)


# ------------------------------------------------------------------------------- other index forms
def test_index_tensors_on_cpu_index_tensors_on_any_device(device: str) -> None:
    x = _arange(3, 4, device=device, requires_grad=True)
    rows = tf.tensor([2, 0, 2])  # always on cpu
    mask = tf.tensor([True, False, True])
    assert _host(x[rows])[:, 0].tolist() == [8, 0, 8]
    assert _host(x[mask, 1]).tolist() == [1, 9]
    assert _host(x.index_select(1, tf.tensor([3]))).ravel().tolist() == [3, 7, 11]
    x[rows].sum().backward()
    assert _host(x.grad)[:, 0].tolist() == [1, 0, 2]


def test_integer_tensor_indexing_keeps_dtype(device: str) -> None:
    x = tf.tensor([[1, 2], [3, 4]], device=device)
    assert x[1].dtype == tf.int64 and x[[1, 0]].dtype == tf.int64
    assert _host(x[x > 1]).tolist() == [2, 3, 4]


@pytest.mark.parametrize(("index", "shape"), [
    (True, (1, 3, 4)),
    ([], (0, 4)),
    (tf.tensor([1, 0, 1], dtype=tf.uint8), (2, 4)),  # uint8 tensors are masks, as in PyTorch
    ([[0, 1], [1, 2]], (2,)),  # a list holding lists is read as a tuple
    (tf.tensor([[0, 1], [1, 2]]), (2, 2, 4)),
    (slice(5, 10), (0, 4)),
    ((None, Ellipsis, None), (1, 3, 4, 1)),
])
def test_index_forms_give_pytorch_shapes(index: object, shape: tuple) -> None:
    assert tuple(_arange(3, 4)[index].shape) == shape


# -------------------------------------------------------------------------------------- errors
@pytest.mark.parametrize(("fn", "error", "message"), [
    (lambda x: x[5], IndexError, "index 5 is out of bounds for dimension 0 with size 3"),
    (lambda x: x[-4], IndexError, "index -4 is out of bounds for dimension 0 with size 3"),
    (lambda x: x[:, 7], IndexError, "index 7 is out of bounds for dimension 1 with size 4"),
    (lambda x: x[0, 0, 0], IndexError, "too many indices for tensor of dimension 2"),
    (lambda x: x[[0, 5]], IndexError, "index 5 is out of bounds for dimension 0 with size 3"),
    (lambda x: x[:, [0, -5]], IndexError, "index -5 is out of bounds for dimension 1 with size 4"),
    (lambda x: x[tf.tensor([True, False])], IndexError,
     "The shape of the mask [2] at index 0 does not match the shape of the indexed tensor [3, 4] at index 0"),
    (lambda x: x[[0, 1], [0, 1, 2]], IndexError,
     "shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]"),
    (lambda x: x[1.5], IndexError, "only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                                   "Variables are valid indices (got float)"),
    (lambda x: x[tf.tensor([1.0])], IndexError, "tensors used as indices must be long, int, byte or bool tensors"),
    (lambda x: x[::-1], ValueError, "step must be greater than zero"),
    (lambda x: x[0][0][0], IndexError, "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                                       "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"),
    (lambda x: x.__setitem__(0, tf.ones(3)), RuntimeError, "The expanded size of the tensor (4) must match the "
     "existing size (3) at non-singleton dimension 0.  Target sizes: [4].  Tensor sizes: [3]"),
    (lambda x: x.__setitem__([0, 1], tf.ones(3)), RuntimeError,
     "shape mismatch: value tensor of shape [3] cannot be broadcast to indexing result of shape [2, 4]"),
    (lambda x: x.gather(0, tf.tensor([0])), RuntimeError,
     "Index tensor must have the same number of dimensions as input tensor"),
    (lambda x: x.gather(0, tf.tensor([[0.0]])), RuntimeError, "gather(): Expected dtype int32/int64 for index"),
    (lambda x: x.gather(0, tf.tensor([[-1]])), RuntimeError, "index -1 is out of bounds for dimension 0 with size 3"),
    (lambda x: x.gather(2, tf.tensor([[0]])), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda x: x.gather(0, tf.zeros(2, 5, dtype=tf.int64)), RuntimeError, "Size does not match at dimension 1 "
     "expected index [2, 5] to be no larger than self [3, 4] apart from dimension 0"),
    (lambda x: x.index_select(0, tf.tensor([[0]])), IndexError, "index_select(): Index is supposed to be a vector"),
    (lambda x: x.index_select(0, tf.tensor([3])), IndexError, "index out of range in self"),
    (lambda x: x.masked_fill(tf.ones(3, 4), 1.0), RuntimeError,
     "masked_fill_ only supports boolean masks, but got mask with dtype float"),
    (lambda x: x.masked_fill(x > 0, tf.ones(2)), RuntimeError,
     "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s)."),
    (lambda x: x.masked_fill(tf.ones(2, 1, dtype=tf.bool), 1.0), RuntimeError,
     "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"),
    (lambda x: tf.masked_select(x, tf.ones(3, 4)), RuntimeError, "masked_select: expected BoolTensor for mask"),
    (lambda x: tf.take_along_dim(x, tf.tensor([0]), 0), RuntimeError, "torch.take_along_dim(): input and indices "
     "should have the same number of dimensions, but got 2 dimensions for input, and 1 dimensions for indices"),
    (lambda x: tf.take_along_dim(x, tf.tensor([12])), RuntimeError,
     "index 12 is out of bounds for dimension 0 with size 12"),
    (lambda x: x.scatter_add(0, tf.tensor([[0]]), tf.ones(1, 1, dtype=tf.float64)), RuntimeError,
     "scatter(): Expected self.dtype to be equal to src.dtype"),
    (lambda x: x.scatter_add(0, tf.tensor([[0, 0]]), tf.ones(1, 1)), RuntimeError, "Expected index [1, 2] to be no "
     "larger than self [3, 4] apart from dimension 0 and to be no larger size than src [1, 1]"),
])
def test_errors_match_pytorch(fn: object, error: type, message: str) -> None:
    x = _arange(3, 4).float()
    with pytest.raises(error) as info:
        fn(x)
    assert str(info.value) == message


def test_out_of_bounds_index_on_device_raises(device: str) -> None:
    x = _arange(3, 4, device=device)
    with pytest.raises(IndexError, match="index 4 is out of bounds for dimension 1 with size 4"):
        x[:, tf.tensor([0, 4], device=device)]


# --------------------------------------------------------------------------- gather and friends
def test_gather_gradient_accumulates_repeats(device: str) -> None:
    x = _arange(2, 3, device=device, requires_grad=True)
    out = x.gather(1, tf.tensor([[2, 2], [0, 1]], device=device))
    assert out.grad_fn.name() == "GatherBackward0"
    np.testing.assert_array_equal(_host(out), [[2, 2], [3, 4]])
    out.sum().backward()
    np.testing.assert_array_equal(_host(x.grad), [[0, 0, 2], [1, 1, 0]])


def test_index_select_and_take_along_dim(device: str) -> None:
    x = _arange(3, 4, device=device, requires_grad=True)
    picked = tf.index_select(x, 0, tf.tensor([2, 2], device=device))
    assert picked.grad_fn.name() == "IndexSelectBackward0" and tuple(picked.shape) == (2, 4)
    taken = tf.take_along_dim(x, tf.tensor([[3], [-1], [0]], device=device), 1)
    np.testing.assert_array_equal(_host(taken), [[3], [7], [8]])
    flat = tf.take_along_dim(x, tf.tensor([[11, 0]], device=device))
    np.testing.assert_array_equal(_host(flat), [11, 0])
    (picked.sum() + taken.sum() + flat.sum()).backward()
    np.testing.assert_array_equal(_host(x.grad), [[1, 0, 0, 1], [0, 0, 0, 1], [3, 2, 2, 3]])


def test_masked_fill_and_masked_select_broadcast(device: str) -> None:
    x = tf.tensor([1.0, 2.0, 3.0], device=device, requires_grad=True)
    mask = tf.tensor([[True, False, True], [False, False, True]], device=device)
    filled = x.masked_fill(mask, 0.0)
    assert tuple(filled.shape) == (2, 3) and filled.grad_fn.name() == "MaskedFillBackward0"
    selected = tf.masked_select(x, mask)
    np.testing.assert_array_equal(_host(selected), [1, 3, 3])
    (filled.sum() + selected.sum()).backward()
    np.testing.assert_array_equal(_host(x.grad), [2, 2, 2])


def test_masked_fill_with_a_tensor_value_sends_it_the_masked_gradient(device: str) -> None:
    x = tf.tensor([1.0, -2.0, 3.0], device=device, requires_grad=True)
    value = tf.tensor(5.0, dtype=tf.float64, device=device, requires_grad=True)
    out = x.masked_fill(x > 0, value)
    assert out.dtype == tf.float32 and out.grad_fn.name() == "MaskedFillBackward1"
    (out * tf.tensor([1.0, 2.0, 3.0], device=device)).sum().backward()
    assert _host(value.grad) == 4.0 and value.grad.dtype == tf.float64
    np.testing.assert_array_equal(_host(x.grad), [0, 2, 0])


def test_masked_fill_truncates_a_float_value_into_an_int_tensor() -> None:
    x = tf.zeros(3, dtype=tf.int64)
    assert x.masked_fill(tf.tensor([True, False, True]), 2.7).tolist() == [2, 0, 2]


def test_scatter_add_gradients(device: str) -> None:
    x = tf.zeros(2, 3, dtype=tf.float64, device=device, requires_grad=True)
    src = _arange(2, 3, device=device, requires_grad=True)
    out = x.scatter_add(1, tf.tensor([[0, 0], [2, 1]], device=device), src)
    assert out.grad_fn.name() == "ScatterAddBackward0"
    np.testing.assert_array_equal(_host(out), [[1, 0, 0], [0, 4, 3]])
    (out * tf.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], device=device)).sum().backward()
    np.testing.assert_array_equal(_host(x.grad), [[1, 2, 3], [4, 5, 6]])
    # only src's leading index-shaped block is read; the rest gets zero gradient
    np.testing.assert_array_equal(_host(src.grad), [[1, 1, 0], [6, 5, 0]])


def test_nonzero(device: str) -> None:
    x = tf.tensor([[0.0, 1.0], [2.0, 0.0]], device=device)
    indices = tf.nonzero(x)
    assert indices.dtype == tf.int64 and _host(indices).tolist() == [[0, 1], [1, 0]]
    rows, cols = tf.nonzero(x, as_tuple=True)
    assert _host(rows).tolist() == [0, 1] and _host(cols).tolist() == [1, 0]
    assert tuple(tf.nonzero(tf.tensor(3.0, device=device)).shape) == (1, 0)
    assert [_host(t).tolist() for t in tf.nonzero(tf.tensor(3.0, device=device), as_tuple=True)] == [[0]]


@pytest.mark.parametrize("index, numpy_index", [
    ((range(3), [0, 1, 2]), ([0, 1, 2], [0, 1, 2])),
    (range(2), [0, 1]),
    (range(0), np.array([], dtype=np.int64)),
    ([range(2), 1], ([0, 1], 1)),
    ([0, 2], [0, 2]),
    ([[0, 1]], [0, 1]),  # a list holding a list reads as a tuple, as in PyTorch 2.13
    (([[0, 1]], slice(None)), (np.array([[0, 1]]), slice(None))),
], ids=["range-and-list", "range", "empty-range", "list-holding-range", "list", "nested-list", "nested-and-slice"])
def test_python_sequences_index_as_pytorch_does_with_gradient(index, numpy_index, device: str) -> None:
    data = np.arange(12.0).reshape(3, 4)
    x = tf.tensor(data, device=device, requires_grad=True)
    out = x[index]
    expected = data[numpy_index]
    np.testing.assert_array_equal(out.detach().cpu().numpy(), expected)
    out.sum().backward()
    assert x.grad.shape == x.shape and float(x.grad.sum()) == expected.size


def test_a_0_dim_index_counts_as_a_1_element_vector_in_gather_and_scatters() -> None:
    # the Transforms tutorial's one-hot target: torch.zeros(10).scatter_(0, torch.tensor(y), value=1)
    assert tf.zeros(5).scatter_(0, tf.tensor(3), value=1).tolist() == [0, 0, 0, 1, 0]
    src = tf.tensor([5.0, 6.0])
    assert tf.zeros(5).scatter(0, tf.tensor(3), src).tolist() == [0, 0, 0, 5, 0]
    assert tf.zeros(5).scatter(0, tf.tensor(3), tf.tensor(7.0)).tolist() == [0, 0, 0, 7, 0]
    assert tf.zeros(5).scatter_add(0, tf.tensor(2), tf.tensor(4.0)).tolist() == [0, 0, 4, 0, 0]
    assert tf.zeros(5).scatter_reduce(0, tf.tensor(2), tf.tensor(4.0), "sum").tolist() == [0, 0, 4, 0, 0]
    x = tf.arange(5.0, requires_grad=True)
    picked = x.gather(0, tf.tensor(2))
    picked.backward()
    assert picked.shape == () and picked.item() == 2 and x.grad.tolist() == [0, 0, 1, 0, 0]
    with pytest.raises(RuntimeError, match=re.escape("Expected index [2] to be no larger than self [5] apart from "
                                                     "dimension 0 and to be no larger size than src []")):
        tf.zeros(5).scatter_(0, tf.tensor([1, 2]), tf.tensor(9.0))
    with pytest.raises(RuntimeError, match="Index tensor must have the same number of dimensions as self tensor"):
        tf.zeros(2, 3).scatter(1, tf.tensor(1), 1.0)
    with pytest.raises(RuntimeError, match="Index tensor must have the same number of dimensions as input tensor"):
        tf.zeros(2, 3).gather(0, tf.tensor(1))


@pytest.mark.parametrize("expression, stride", [
    # PyTorch 2.13: results of advanced indexing are row-major, whichever dimension is indexed
    ("x.index_select(2, i)", (96, 24, 6, 1)), ("x.index_select(3, i)", (96, 24, 4, 1)),
    ("x[:, :, i]", (96, 24, 6, 1)), ("x[:, i[:2]]", (72, 36, 6, 1)), ("x[..., i]", (96, 24, 4, 1)),
    ("x[:, :, i][..., i]", (64, 16, 4, 1)), ("x[:, [0, 1], :, [1, 2]]", (12, 6, 1)),
    ("F.interpolate(x, scale_factor=2)", (576, 144, 12, 1)),
    ("F.interpolate(x, scale_factor=2, mode='bilinear')", (576, 144, 12, 1)),
])
def test_advanced_indexing_gives_a_row_major_result(expression: str, stride: tuple) -> None:
    x, i = tf.randn(2, 4, 6, 6), tf.tensor([0, 2, 2, 5])
    out = eval(expression, {"x": x, "i": i, "F": tf.nn.functional})
    assert out.stride() == stride and out.is_contiguous()
    out.view(-1)  # as PyTorch's, a view of it needs no copy


# PyTorch 2.13's view of ``x = arange(60.).reshape(3, 4, 5)`` (requiring grad) under each index: shape,
# strides, storage offset and its nodes from the result back to the reshape's (``*Backward0`` dropped).
_INDEX_CHAINS = [
    ('0, 1', (5,), (1,), 5, ['Select', 'Select']),
    ('0, 1, 2', (), (), 7, ['Select', 'Select', 'Select']),
    ('0, 1:3', (2, 5), (5, 1), 5, ['Slice', 'Select']),
    ('..., 0', (3, 4), (20, 5), 0, ['Select']),
    ('None, 0', (1, 4, 5), (60, 5, 1), 0, ['Select', 'Unsqueeze']),
    (':, 0', (3, 5), (20, 1), 0, ['Select']),
    ('1:, :2, 3', (2, 2), (20, 5), 23, ['Select', 'Slice', 'Slice']),
    ('0, ..., 1', (4,), (5,), 1, ['Select', 'Select']),
    (':, None, 1', (3, 1, 5), (20, 20, 1), 5, ['Select', 'Unsqueeze']),
    ('::2, 1', (2, 5), (40, 1), 5, ['Select', 'Slice']),
    ('-1, -2', (5,), (1,), 50, ['Select', 'Select']),
    ('0, None', (1, 4, 5), (20, 5, 1), 0, ['Unsqueeze', 'Select']),
    ('None', (1, 3, 4, 5), (60, 20, 5, 1), 0, ['Unsqueeze']),
    ('...', (3, 4, 5), (20, 5, 1), 0, ['Alias']),
    (':', (3, 4, 5), (20, 5, 1), 0, ['Slice']),
    (':, :', (3, 4, 5), (20, 5, 1), 0, ['Alias']),
    ('1:2', (1, 4, 5), (20, 5, 1), 20, ['Slice']),
    (':, 1:3, None, 2', (3, 2, 1), (20, 5, 5), 7, ['Select', 'Unsqueeze', 'Slice']),
    ('None, None, 0', (1, 1, 4, 5), (60, 60, 5, 1), 0, ['Select', 'Unsqueeze', 'Unsqueeze']),
    ('0, :, None', (4, 1, 5), (5, 5, 1), 0, ['Unsqueeze', 'Select']),
    ('0, [1, 2]', (2, 5), (5, 1), 0, ['Index', 'Select']),
    ('[0, 1], 1', (2, 5), (5, 1), 0, ['Index', 'Select']),
    ('0, 1:3, [1, 2]', (2, 2), (2, 1), 0, ['Index', 'Slice', 'Select']),
    ('1:3, 0, None', (2, 1, 5), (20, 5, 1), 20, ['Unsqueeze', 'Select', 'Slice']),
    ('0, 0:4', (4, 5), (5, 1), 0, ['Select']),
    ('1:3, [0, 1]', (2, 2, 5), (10, 5, 1), 0, ['Index', 'Slice']),
    ('..., [0, 1], None', (3, 4, 2, 1), (8, 2, 1, 1), 0, ['Index', 'Unsqueeze']),
    ('0, None, [1, 2]', (1, 2, 5), (10, 5, 1), 0, ['Index', 'Unsqueeze', 'Select']),
    (':, :, [0, 1]', (3, 4, 2), (8, 2, 1), 0, ['Index']),
    ('None, ..., None', (1, 3, 4, 5, 1), (60, 20, 5, 1, 1), 0, ['Unsqueeze', 'Unsqueeze']),
]


def _chain(node: object) -> list:
    names = []
    while node is not None and node.name() != "ViewBackward0":
        names.append(node.name().replace("Backward0", ""))
        node = next((f for f, _ in node.next_functions if f is not None), None)
    return names


@pytest.mark.parametrize(("key", "shape", "stride", "offset", "chain"), _INDEX_CHAINS)
def test_basic_index_records_a_node_a_step_as_pytorch(key: str, shape: tuple, stride: tuple, offset: int,
                                                      chain: list) -> None:
    leaf = tf.arange(60.0, requires_grad=True)
    y = eval(f"x[{key}]", {"x": leaf.reshape(3, 4, 5)})
    assert (tuple(y.shape), y.stride(), y.storage_offset(), _chain(y.grad_fn)) == (shape, stride, offset, chain)
    y.backward(tf.ones_like(y))
    counted = np.zeros(60)
    np.add.at(counted, np.asarray(y.detach().numpy(), dtype=int).reshape(-1), 1.0)  # (x's values are positions)
    np.testing.assert_array_equal(leaf.grad.numpy(), counted)


def test_unsqueeze_strides_are_pytorchs() -> None:
    x = tf.zeros(3, 4, 5)
    assert x.unsqueeze(0).stride() == (60, 20, 5, 1)
    assert x[0].unsqueeze(1).stride() == (5, 5, 1)
    assert x.unsqueeze(3).stride() == (20, 5, 1, 1)
    x[0, None].add_(1)  # (a view: the write reaches x)
    assert x.sum().item() == 20
