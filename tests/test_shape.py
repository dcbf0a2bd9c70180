"""Shape ops: PyTorch's grad_fn names, views sharing storage, errors, dtype rules, tuple returns."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as tf
from tinyframe.ops import tensor_math


def _leaf(*shape: int, device: str = "cpu", dtype: tf.dtype = tf.float32) -> tf.Tensor:
    data = np.arange(float(np.prod(shape))).reshape(shape)
    return tf.tensor(data, dtype=dtype, device=device, requires_grad=dtype.is_floating_point)


# --------------------------------------------------------------------------- grad_fn names
NAMES = [
    ("reshape_contiguous", lambda x: x.reshape(6, 4), "ViewBackward0"),
    ("reshape_same_shape", lambda x: x.reshape(2, 3, 4), "ViewBackward0"),
    ("reshape_noncontiguous", lambda x: x.transpose(0, 1).reshape(6, 4), "UnsafeViewBackward0"),
    ("view", lambda x: x.view(-1), "ViewBackward0"),
    ("flatten", lambda x: x.flatten(1), "ViewBackward0"),
    ("flatten_noncontiguous", lambda x: x.transpose(0, 1).flatten(), "UnsafeViewBackward0"),
    ("unflatten", lambda x: x.unflatten(2, (2, 2)), "ViewBackward0"),
    ("transpose", lambda x: x.transpose(0, 1), "TransposeBackward0"),
    ("swapaxes", lambda x: tf.swapaxes(x, 0, 1), "TransposeBackward0"),
    ("t", lambda x: x[0].t(), "TBackward0"),
    ("T", lambda x: x[0].T, "PermuteBackward0"),
    ("mT", lambda x: x.mT, "TransposeBackward0"),
    ("permute", lambda x: x.permute(2, 0, 1), "PermuteBackward0"),
    ("movedim", lambda x: x.movedim(0, 2), "PermuteBackward0"),
    ("squeeze", lambda x: x.unsqueeze(1).squeeze(), "SqueezeBackward0"),
    ("squeeze_dim", lambda x: x.squeeze(0), "SqueezeBackward1"),
    ("squeeze_dims", lambda x: x.squeeze((0, 1)), "SqueezeBackward2"),
    ("unsqueeze", lambda x: x.unsqueeze(0), "UnsqueezeBackward0"),
    ("expand", lambda x: x.expand(5, 2, 3, 4), "ExpandBackward0"),
    ("broadcast_to", lambda x: tf.broadcast_to(x, (2, 2, 3, 4)), "ExpandBackward0"),
    ("repeat", lambda x: x.repeat(2, 1, 1), "RepeatBackward0"),
    ("tile", lambda x: tf.tile(x, (2,)), "RepeatBackward0"),
    ("flip", lambda x: x.flip(0), "FlipBackward0"),
    ("narrow", lambda x: tf.narrow(x, 1, 1, 2), "SliceBackward0"),
    ("clone", lambda x: x.clone(), "CloneBackward0"),
    ("contiguous_copy", lambda x: x.transpose(0, 1).contiguous(), "CloneBackward0"),
    ("cat", lambda x: tf.cat([x, x]), "CatBackward0"),
    ("cat_single", lambda x: tf.cat([x]), "CatBackward0"),
    ("stack", lambda x: tf.stack([x, x]), "StackBackward0"),
    ("hstack", lambda x: tf.hstack([x, x]), "CatBackward0"),
    ("constant_pad_nd", lambda x: tf.constant_pad_nd(x, (1, 1)), "ConstantPadNdBackward0"),
]


@pytest.mark.parametrize("fn, expected", [(fn, name) for _, fn, name in NAMES], ids=[n[0] for n in NAMES])
def test_grad_fn_names_match_pytorch(fn: object, expected: str) -> None:
    assert fn(_leaf(2, 3, 4)).grad_fn.name() == expected


@pytest.mark.parametrize("method, args, expected", [
    ("split", (2, 1), ["SplitBackward0"] * 2),
    ("split", ([1, 2], 1), ["SplitWithSizesBackward0"] * 2),
    ("chunk", (2, 2), ["SplitBackward0"] * 2),
    ("unbind", (1,), ["UnbindBackward0"] * 3),
])
def test_split_family_returns_tuples_of_named_pieces(method: str, args: tuple, expected: list) -> None:
    pieces = getattr(_leaf(2, 3, 4), method)(*args)
    assert isinstance(pieces, tuple)
    assert [p.grad_fn.name() for p in pieces] == expected


def test_split_and_chunk_piece_shapes() -> None:
    x = _leaf(2, 5)
    assert [tuple(p.shape) for p in x.split(2, 1)] == [(2, 2), (2, 2), (2, 1)]
    assert [tuple(p.shape) for p in tf.split(x, [1, 4], dim=-1)] == [(2, 1), (2, 4)]
    assert [tuple(p.shape) for p in x.chunk(3, 1)] == [(2, 2), (2, 2), (2, 1)]
    assert [tuple(p.shape) for p in _leaf(2, 3).chunk(4, 1)] == [(2, 1)] * 3  # fewer pieces than asked
    assert [tuple(p.shape) for p in x.unbind(1)] == [(2,)] * 5


def test_each_split_piece_gets_its_own_gradient() -> None:
    x = _leaf(6)
    a, b, c = x.split(2)
    (a.sum() + 2 * b.sum() + 3 * c.sum()).backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1, 1, 2, 2, 3, 3])


def test_unbind_gradient_fills_each_slice() -> None:
    x = _leaf(3, 2)
    rows = x.unbind()
    (rows[0] * 1.0 + rows[2] * 3.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[1, 1], [0, 0], [3, 3]])


def test_same_dim_flatten_returns_input_itself() -> None:
    x = _leaf(2, 3)
    assert x.flatten(1, 1) is x
    v = _leaf(3)
    assert v.flatten() is v


def test_flatten_of_scalar_is_one_element_vector() -> None:
    assert tuple(tf.tensor(3.0).flatten().shape) == (1,)


def test_contiguous_returns_self_when_already_contiguous() -> None:
    x = _leaf(2, 3)
    assert x.contiguous() is x
    y = x.t().contiguous()
    assert y is not x and y.is_contiguous()


def test_clone_copies_and_preserves_layout() -> None:
    x = _leaf(2, 3)
    c = x.detach().t().clone()
    assert c.stride() == (1, 3) and not c.is_contiguous()  # PyTorch's preserve_format
    x.detach().add_(1)
    np.testing.assert_array_equal(c.numpy(), np.arange(6.0).reshape(2, 3).T)


def test_flip_copies() -> None:
    x = _leaf(4).detach()
    y = x.flip(0)
    x.add_(10)
    np.testing.assert_array_equal(y.numpy(), [3, 2, 1, 0])


def test_squeeze_leaves_other_sizes_alone() -> None:
    x = _leaf(2, 1, 3, 1)
    assert tuple(x.squeeze().shape) == (2, 3)
    assert tuple(x.squeeze(0).shape) == (2, 1, 3, 1)
    assert tuple(x.squeeze(-1).shape) == (2, 1, 3)
    assert tuple(x.squeeze((0, 1)).shape) == (2, 3, 1)


def test_t_of_vector_and_scalar_is_identity_shape() -> None:
    assert tuple(_leaf(3).t().shape) == (3,)
    assert tuple(tf.tensor(2.0).t().shape) == ()


def test_expand_keeps_sizes_with_minus_one() -> None:
    x = _leaf(2, 1)
    assert tuple(x.expand(3, -1, 4).shape) == (3, 2, 4)
    assert tuple(x.expand_as(tf.zeros(2, 5)).shape) == (2, 5)


def test_broadcast_tensors_and_shapes() -> None:
    a, b = tf.broadcast_tensors(_leaf(3, 1), _leaf(4))
    assert tuple(a.shape) == tuple(b.shape) == (3, 4)
    x = _leaf(2, 3)
    assert tf.broadcast_tensors(x, _leaf(3))[0] is x  # already the broadcast shape
    assert tf.broadcast_shapes((2, 1), (1, 4), (3, 1, 1)) == (3, 2, 4)
    with pytest.raises(RuntimeError, match="The size of tensor a \\(3\\) must match the size of tensor b \\(4\\)"):
        tf.broadcast_tensors(_leaf(2, 3), _leaf(4))
    with pytest.raises(RuntimeError, match="Attempting to broadcast a dimension of length 4"):
        tf.broadcast_shapes((2, 3), (4,))


# --------------------------------------------------------------------------- views
VIEWS = [
    ("reshape", lambda x: x.reshape(6, 4)),
    ("view", lambda x: x.view(4, 6)),
    ("flatten", lambda x: x.flatten()),
    ("unflatten", lambda x: x.unflatten(-1, (2, 2))),
    ("transpose", lambda x: x.transpose(0, 2)),
    ("permute", lambda x: x.permute(1, 2, 0)),
    ("squeeze", lambda x: x.unsqueeze(0).squeeze(0)),
    ("unsqueeze", lambda x: x.unsqueeze(1)),
    ("expand", lambda x: x.expand(2, 2, 3, 4)),
    ("narrow", lambda x: tf.narrow(x, 1, 1, 2)),
    ("split_piece", lambda x: x.split(2, 2)[1]),
    ("chunk_piece", lambda x: x.chunk(3, 1)[2]),
    ("unbind_piece", lambda x: x.unbind(2)[3]),
    ("t", lambda x: x[0].t()),
    ("movedim", lambda x: x.movedim(0, -1)),
]


@pytest.mark.parametrize("fn", [fn for _, fn in VIEWS], ids=[name for name, _ in VIEWS])
def test_views_share_storage_and_version_counter(fn: object, device: str) -> None:
    base = tf.zeros(2, 3, 4, device=device)
    view = fn(base)
    assert view._base is not None
    base.add_(1.5)
    assert base._version == view._version == 1
    np.testing.assert_array_equal(view.cpu().numpy(), np.full(view.shape, 1.5))


def test_in_place_change_of_a_view_shows_in_the_base(device: str) -> None:
    base = tf.zeros(2, 3, device=device)
    row = base.view(6)
    row.add_(2.0)
    assert base._version == 1
    np.testing.assert_array_equal(base.cpu().numpy(), np.full((2, 3), 2.0))


def test_reshape_of_noncontiguous_copies(device: str) -> None:
    base = tf.zeros(2, 3, device=device)
    flat = base.t().reshape(-1)
    assert flat._base is None
    base.add_(1.0)
    np.testing.assert_array_equal(flat.cpu().numpy(), np.zeros(6))


def test_view_of_transposed_works_when_layout_allows() -> None:
    x = _leaf(2, 3, 4).detach()
    assert tuple(x.transpose(0, 1).view(3, 2, 2, 2).shape) == (3, 2, 2, 2)
    assert tuple(x.transpose(1, 2).view(2, 4, 3, 1).shape) == (2, 4, 3, 1)


def test_view_saved_for_backward_detects_in_place_change_of_base() -> None:
    x = _leaf(2, 3)
    y = x * 1.0
    v = y.view(6)
    out = (v * v).sum()  # saves v
    y.add_(1.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        out.backward()


# --------------------------------------------------------------------------- errors
@pytest.mark.parametrize("fn, error, message", [
    (lambda x: x.reshape(5, 5), RuntimeError, "shape '[5, 5]' is invalid for input of size 24"),
    (lambda x: x.reshape(-1, -1), RuntimeError, "only one dimension can be inferred"),
    (lambda x: x.reshape(-2, 12), RuntimeError, "invalid shape dimension -2 at index 0 of shape [-2, 12]"),
    (lambda x: tf.zeros(0, 3).reshape(-1, 0), RuntimeError, "the unspecified dimension size -1 can be any value"),
    (lambda x: x.reshape(24.0), TypeError, "expected a tuple of ints"),
    (lambda x: x.transpose(1, 2).view(2, 12), RuntimeError,
     "view size is not compatible with input tensor's size and stride (at least one dimension spans across two "
     "contiguous subspaces). Use .reshape(...) instead."),
    (lambda x: x.view(5, -1), RuntimeError, "shape '[5, -1]' is invalid for input of size 24"),
    (lambda x: x.flatten(2, 1), RuntimeError, "flatten() has invalid args: start_dim cannot come after end_dim"),
    (lambda x: x.flatten(0, 5), IndexError, "Dimension out of range (expected to be in range of [-3, 2], but got 5)"),
    (lambda x: x.unflatten(1, (2, 2)), RuntimeError,
     "unflatten: Provided sizes [2, 2] don't multiply up to the size of dim 1 (3) in the input tensor"),
    (lambda x: x.unflatten(1, ()), RuntimeError, "unflatten: sizes must be non-empty"),
    (lambda x: x.transpose(1, 5), IndexError, "Dimension out of range (expected to be in range of [-3, 2], but got 5)"),
    (lambda x: x.t(), RuntimeError, "t() expects a tensor with <= 2 dimensions, but self is 3D"),
    (lambda x: x.permute(0, 1), RuntimeError, "input.dim() = 3 is not equal to len(dims) = 2"),
    (lambda x: x.permute(0, 1, -3), RuntimeError, "permute(): duplicate dims are not allowed."),
    (lambda x: x.movedim((0, 1), (2, 2)), RuntimeError, "movedim: repeated dim in `destination` ([2, 2])"),
    (lambda x: x.movedim((0, 1), (2,)), RuntimeError, "should contain the same number of dims as destination"),
    (lambda x: x.squeeze(5), IndexError, "Dimension out of range (expected to be in range of [-3, 2], but got 5)"),
    (lambda x: x.unsqueeze(4), IndexError, "Dimension out of range (expected to be in range of [-4, 3], but got 4)"),
    (lambda x: x.expand(2, 4, 4), RuntimeError,
     "The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 1.  "
     "Target sizes: [2, 4, 4].  Tensor sizes: [2, 3, 4]"),
    (lambda x: x.expand(3, 4), RuntimeError,
     "the number of sizes provided (2) must be greater or equal to the number of dimensions in the tensor (3)"),
    (lambda x: x.expand(-1, 2, 3, 4), RuntimeError,
     "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0"),
    (lambda x: x.repeat(2), RuntimeError,
     "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"),
    (lambda x: x.repeat(1, -1, 1), RuntimeError, "Trying to create tensor with negative dimension -3: [2, -3, 4]"),
    (lambda x: x.flip(0, 0), RuntimeError, "dim 0 appears multiple times in the list of dims"),
    (lambda x: x.split(0, 1), RuntimeError,
     "split_size can only be 0 if dimension size is 0, but got dimension size of 3"),
    (lambda x: x.split(-1, 1), RuntimeError, "split expects split_size be non-negative, but got split_size=-1"),
    (lambda x: x.split([1, 1], 1), RuntimeError,
     "split_with_sizes expects split_sizes to sum exactly to 3 (input tensor's size at dimension 1), but got "
     "split_sizes=[1, 1]"),
    (lambda x: x.chunk(0), RuntimeError, "chunk expects `chunks` to be greater than 0, got: 0"),
    (lambda x: x.unbind(5), IndexError, "Dimension out of range (expected to be in range of [-3, 2], but got 5)"),
    (lambda x: tf.tensor(1.0).unbind(), IndexError, "Dimension specified as 0 but tensor has no dimensions"),
    (lambda x: tf.narrow(x, 1, 2, 2), RuntimeError, "start (2) + length (2) exceeds dimension size (3)."),
])
def test_errors_match_pytorch(fn: object, error: type, message: str) -> None:
    with pytest.raises(error) as info:
        fn(_leaf(2, 3, 4))
    assert message in str(info.value)


# --------------------------------------------------------------------------- cat and stack
@pytest.mark.parametrize("first, second, expected", [
    (tf.int32, tf.float64, tf.float64),
    (tf.int32, tf.int64, tf.int64),
    (tf.bool, tf.int32, tf.int32),
    (tf.float32, tf.float32, tf.float32),
    (tf.float16, tf.float32, tf.float32),
])
def test_cat_and_stack_promote_dtypes(first: tf.dtype, second: tf.dtype, expected: tf.dtype) -> None:
    a, b = tf.ones(2, 3, dtype=first), tf.ones(2, 3, dtype=second)
    assert tf.cat([a, b]).dtype == expected
    assert tf.stack([a, b]).dtype == expected


def test_cat_gradient_keeps_each_input_dtype() -> None:
    a = tf.ones(2, dtype=tf.float32, requires_grad=True)
    b = tf.ones(3, dtype=tf.float64, requires_grad=True)
    out = tf.cat([a, b])
    assert out.dtype == tf.float64
    (out * tf.arange(5.0, dtype=tf.float64)).sum().backward()
    assert a.grad.dtype == tf.float32 and b.grad.dtype == tf.float64
    np.testing.assert_array_equal(a.grad.numpy(), [0, 1])
    np.testing.assert_array_equal(b.grad.numpy(), [2, 3, 4])


def test_cat_skips_legacy_empty_vectors() -> None:
    x = _leaf(2, 3)
    assert tuple(tf.cat([x, tf.zeros(0), x]).shape) == (4, 3)


@pytest.mark.parametrize("fn, error, message", [
    (lambda x: tf.cat([x, x[:, :2]], 2), RuntimeError,
     "Sizes of tensors must match except in dimension 2. Expected size 3 but got size 2 for tensor number 1 in the "
     "list."),
    (lambda x: tf.cat([x, x[0]]), RuntimeError, "Tensors must have same number of dimensions: got 3 and 2"),
    (lambda x: tf.cat([]), ValueError, "expected a non-empty list of Tensors"),
    (lambda x: tf.cat([tf.tensor(1.0), tf.tensor(2.0)]), RuntimeError,
     "zero-dimensional tensor (at position 0) cannot be concatenated"),
    (lambda x: tf.cat([x, x], 5), IndexError, "Dimension out of range (expected to be in range of [-3, 2], but got 5)"),
    (lambda x: tf.cat(x), TypeError, "must be tuple of Tensors, not Tensor"),
    (lambda x: tf.cat([x, 2]), TypeError, "expected Tensor as element 1 in argument 0, but got int"),
    (lambda x: tf.stack([x, x[:, :2]]), RuntimeError,
     "stack expects each tensor to be equal size, but got [2, 3, 4] at entry 0 and [2, 2, 4] at entry 1"),
    (lambda x: tf.stack([]), RuntimeError, "stack expects a non-empty TensorList"),
    (lambda x: tf.stack([x, x], 4), IndexError,
     "Dimension out of range (expected to be in range of [-4, 3], but got 4)"),
])
def test_cat_and_stack_errors(fn: object, error: type, message: str) -> None:
    with pytest.raises(error) as info:
        fn(_leaf(2, 3, 4))
    assert message in str(info.value)


def test_stack_of_scalars_and_concat_aliases() -> None:
    assert tuple(tf.stack([tf.tensor(1.0), tf.tensor(2.0)]).shape) == (2,)
    x = _leaf(2, 3)
    assert tuple(tf.concat([x, x], dim=1).shape) == (2, 6)
    assert tuple(tf.concatenate([x, x], axis=1).shape) == (2, 6)


def test_cat_runs_on_device(device: str) -> None:
    a = tf.ones(2, 3, device=device, requires_grad=True)
    out = tf.cat([a, a * 2], 1)
    assert out.device.type == device
    out.sum().backward()
    np.testing.assert_array_equal(a.grad.cpu().numpy(), np.full((2, 3), 3.0))


# --------------------------------------------------------------------------- the NumPy-named namespace
def test_tensor_math_maps_numpy_signatures_onto_shape_ops() -> None:
    x = _leaf(2, 3)
    assert tuple(tensor_math.reshape(x, [3, 2]).shape) == (3, 2)
    assert tuple(tensor_math.broadcast_to(x, [4, 2, 3]).shape) == (4, 2, 3)
    assert tuple(tensor_math.expand_dims(x, (0, -1)).shape) == (1, 2, 3, 1)
    assert tuple(tensor_math.swapaxes(x, 0, 1).shape) == (3, 2)
    assert tuple(tensor_math.transpose(x).shape) == (3, 2)
    np.testing.assert_array_equal(tensor_math.flip(x, 1).detach().numpy(), np.flip(x.detach().numpy(), 1))
    np.testing.assert_array_equal(tensor_math.pad(x, [(1, 0), (0, 2)]).detach().numpy(),
                                  np.pad(x.detach().numpy(), [(1, 0), (0, 2)]))
    pieces = tensor_math.split(x, [1, 2], axis=1)
    assert [tuple(p.shape) for p in pieces] == [(2, 1), (2, 1), (2, 1)]
    assert [tuple(p.shape) for p in tensor_math.split(x, 3, axis=1)] == [(2, 1)] * 3


def test_third_derivative_through_split_and_cat() -> None:
    x = tf.tensor([0.5, -1.0, 2.0], dtype=tf.float64, requires_grad=True)
    a, b = x.split([1, 2])
    y = tf.cat([a ** 4, b ** 4]).sum()
    (g,) = tf.autograd.grad(y, x, create_graph=True)
    (gg,) = tf.autograd.grad(g.sum(), x, create_graph=True)
    (ggg,) = tf.autograd.grad(gg.sum(), x)
    np.testing.assert_allclose(ggg.numpy(), 24 * x.detach().numpy())


@pytest.mark.parametrize("perm", [(0, 1, 2), (1, 0, 2), (0, 2, 1), (2, 1, 0)])
@pytest.mark.parametrize("new_shape", [(24,), (6, 4), (2, 12), (4, 6), (3, 8), (2, 3, 2, 2), (1, 6, 1, 4)])
def test_view_succeeds_exactly_when_the_layout_allows(perm: tuple, new_shape: tuple) -> None:
    base = tf.zeros(2, 3, 4)
    x = base.permute(*perm)
    try:
        np.reshape(x.numpy(), new_shape, copy=False)
        viewable = True
    except ValueError:
        viewable = False
    if viewable:
        v = x.view(new_shape)
        base.add_(1.0)
        assert v._base is not None and float(v.sum()) == 24.0
    else:
        with pytest.raises(RuntimeError, match="view size is not compatible"):
            x.view(new_shape)
        assert x.reshape(new_shape)._base is None


def test_expand_has_pytorchs_strides_and_writes_check_for_shared_memory() -> None:
    # PyTorch 2.13: a new size-1 leading dimension gets the row-major stride, a kept size-1 one its own
    assert tf.arange(16).expand((1, -1)).stride() == (16, 1)  # HF's position_ids buffer
    assert tf.arange(4.0).view(4, 1).expand(4, 1).stride() == (1, 1)
    assert tf.arange(4.0).view(1, 4).expand(2, 1, 4).stride() == (0, 4, 1)
    assert tf.zeros(3, 1).expand(1, 3, 1).stride() == (3, 1, 1)
    base = tf.zeros(1, 4)
    expanded = base.expand(3, 4)
    expanded[0, 1] = 5  # one element, one memory location: allowed
    expanded[1][2:] = tf.tensor([1.0, 2.0])
    assert base.tolist() == [[0, 5, 1, 2]]
    expanded.zero_()  # fill_ and zero_ write the one value: allowed
    assert base.tolist() == [[0, 0, 0, 0]]
    overlap = "more than one element of the written-to tensor refers to a single memory location"
    for write in (lambda: expanded.add_(1), lambda: expanded.copy_(tf.ones(3, 4)), lambda: expanded.normal_(),
                  lambda: expanded.__setitem__((slice(None), 0), 5.0), lambda: expanded[:, :2].mul_(2)):
        with pytest.raises(RuntimeError, match=overlap):
            write()
    unrepeated = tf.arange(4.0).expand(1, -1)
    unrepeated[0, 1] = 7
    assert unrepeated.tolist() == [[0, 7, 2, 3]]


def test_cat_gradient_under_create_graph_is_sliced_as_pytorchs_narrow() -> None:
    a, b = tf.randn(2, 3, requires_grad=True), tf.randn(2, 2, requires_grad=True)
    y = tf.cat([a, b], 1)
    ga, gb = tf.autograd.grad(y, (a, b), tf.ones_like(y, requires_grad=True), create_graph=True)
    assert [ga.grad_fn.name(), gb.grad_fn.name()] == ["SliceBackward0", "SliceBackward0"]  # PyTorch 2.13's
    assert ga.shape == (2, 3) and gb.shape == (2, 2)
