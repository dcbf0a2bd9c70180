"""max_pool, avg_pool and adaptive_avg_pool: PyTorch's shapes, values, indices, tie rule, grad_fn names and errors."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as tf
from tinyframe.ops.pooling import (
    adaptive_avg_pool1d,
    adaptive_avg_pool2d,
    avg_pool1d,
    avg_pool2d,
    max_pool1d,
    max_pool2d,
)

from .op_cases.nn_ops import adaptive_avg_pool_reference, avg_pool_reference, max_pool_reference, pool_output_size


def _randn(*shape: int, device: str = "cpu", dtype: tf.dtype = tf.float32, requires_grad: bool = False) -> tf.Tensor:
    data = np.random.default_rng(sum(shape)).standard_normal(shape)
    return tf.tensor(data, dtype=dtype, device=device, requires_grad=requires_grad)


def _host(t: tf.Tensor) -> np.ndarray:
    return t.detach().cpu().numpy()


@pytest.mark.parametrize("kernel, stride, padding, dilation, ceil_mode", [
    (2, None, 0, 1, False), (3, 2, 1, 1, False), (3, 2, 1, 1, True), ((2, 3), (1, 2), (1, 0), 1, True),
    (3, 1, 1, 2, False), ((3, 2), 3, (1, 1), (2, 1), True), (1, 1, 0, 1, False),
])
def test_max_pool2d_matches_loop_reference(kernel: object, stride: object, padding: object, dilation: object,
                                           ceil_mode: bool, device: str) -> None:
    x = _randn(2, 3, 9, 8, device=device)
    out = max_pool2d(x, kernel, stride, padding, dilation, ceil_mode)
    assert out.dtype == tf.float32
    np.testing.assert_array_equal(_host(out), max_pool_reference(_host(x), kernel, stride, padding, dilation,
                                                                 ceil_mode))


@pytest.mark.parametrize("kernel, stride, padding, ceil_mode, count_include_pad, divisor", [
    (2, None, 0, False, True, None), (3, 2, 1, True, True, None), (3, 2, 1, True, False, None),
    ((2, 3), (3, 1), (1, 0), False, False, None), (2, 1, 1, False, True, 3), (3, 3, 1, True, True, None),
])
def test_avg_pool2d_matches_loop_reference(kernel: object, stride: object, padding: object, ceil_mode: bool,
                                           count_include_pad: bool, divisor: int | None, device: str) -> None:
    x = _randn(2, 3, 8, 7, device=device)
    out = avg_pool2d(x, kernel, stride, padding, ceil_mode, count_include_pad, divisor)
    expected = avg_pool_reference(_host(x), kernel, stride, padding, ceil_mode, count_include_pad, divisor)
    np.testing.assert_allclose(_host(out), expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("size, kernel, stride, padding, dilation, ceil_mode", [
    (28, 2, 2, 0, 1, False), (5, 2, 2, 0, 1, True), (6, 3, 2, 1, 1, True), (7, 3, 3, 1, 2, True),
    (10, 4, 3, 2, 1, False), (10, 4, 3, 2, 1, True),
])
def test_output_size_follows_pytorch_formula(size: int, kernel: int, stride: int, padding: int, dilation: int,
                                             ceil_mode: bool) -> None:
    expected = pool_output_size(size, kernel, stride, padding, dilation, ceil_mode)
    x = tf.zeros(1, 2, size, size)
    assert max_pool2d(x, kernel, stride, padding, dilation, ceil_mode).shape == (1, 2, expected, expected)
    if dilation == 1:
        assert avg_pool2d(x, kernel, stride, padding, ceil_mode).shape == (1, 2, expected, expected)


def test_return_indices_are_flat_positions_in_the_input_plane() -> None:
    x = tf.arange(16.0).reshape(1, 1, 4, 4)
    values, indices = max_pool2d(x, 3, stride=1, padding=1, return_indices=True)
    assert indices.dtype == tf.int64 and not indices.requires_grad
    expected = [[5, 6, 7, 7], [9, 10, 11, 11], [13, 14, 15, 15], [13, 14, 15, 15]]
    np.testing.assert_array_equal(indices.numpy()[0, 0], expected)
    np.testing.assert_array_equal(values.numpy()[0, 0], expected)


def test_return_indices_point_at_the_maxima(device: str) -> None:
    x = _randn(2, 3, 9, 8, device=device)
    values, indices = max_pool2d(x, (3, 2), stride=(2, 1), padding=1, dilation=(2, 1), ceil_mode=True,
                                 return_indices=True)
    planes = _host(x).reshape(2, 3, -1)
    gathered = np.take_along_axis(planes, _host(indices).reshape(2, 3, -1), axis=2).reshape(values.shape)
    np.testing.assert_array_equal(gathered, _host(values))
    values_1d, indices_1d = max_pool1d(x[0], 3, stride=2, return_indices=True)
    np.testing.assert_array_equal(np.take_along_axis(_host(x[0]), _host(indices_1d), axis=2), _host(values_1d))


def test_gradient_of_a_tie_goes_to_the_first_maximum_in_row_major_order() -> None:
    x = tf.tensor([[[[1.0, 2.0, 2.0, 0.0], [2.0, 2.0, 0.0, 0.0]]]], requires_grad=True)
    out, indices = max_pool2d(x, 2, return_indices=True)
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[[[0, 1, 1, 0], [0, 0, 0, 0]]]])
    np.testing.assert_array_equal(indices.numpy(), [[[[1, 2]]]])


def test_overlapping_windows_accumulate_gradient() -> None:
    x = tf.tensor([[[[0.0, 5.0, 1.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]]], requires_grad=True)
    max_pool2d(x, 2, stride=1).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy()[0, 0], [[0, 2, 0], [1, 1, 0], [0, 0, 0]])


def test_unbatched_input_pools_each_channel() -> None:
    x = _randn(3, 6, 6)
    np.testing.assert_array_equal(_host(max_pool2d(x, 2)), _host(max_pool2d(x.reshape(1, 3, 6, 6), 2))[0])
    np.testing.assert_allclose(_host(avg_pool1d(x[0], 3)), avg_pool_reference(_host(x[0]), 3, nd=1), rtol=1e-6)


def test_max_pool_keeps_integer_dtypes() -> None:
    x = tf.tensor([[[[1, 7, 3, 2], [4, -5, 6, 8]]]])
    out = max_pool2d(x, 2, padding=1)
    assert out.dtype == tf.int64
    np.testing.assert_array_equal(out.numpy(), [[[[1, 7, 2], [4, 6, 8]]]])


def test_avg_pool_of_integers_is_not_implemented() -> None:
    with pytest.raises(NotImplementedError, match="\"adaptive_avg_pool2d\" not implemented for 'Long'"):
        adaptive_avg_pool2d(tf.zeros(1, 1, 4, 4, dtype=tf.int64), 2)


@pytest.mark.parametrize("size, output_size", [((6, 6), 3), ((7, 5), (3, 4)), ((5, 7), (None, 2)), ((4, 4), (9, 1)),
                                               ((7, 7), 1), ((3, 3), 0)])
def test_adaptive_avg_pool2d_matches_loop_reference(size: tuple, output_size: object, device: str) -> None:
    x = _randn(2, 3, *size, device=device)
    out = adaptive_avg_pool2d(x, output_size)
    np.testing.assert_allclose(_host(out), adaptive_avg_pool_reference(_host(x), output_size), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(_host(adaptive_avg_pool1d(x[0], 3)), adaptive_avg_pool_reference(_host(x[0]), 3, nd=1),
                               rtol=1e-5, atol=1e-6)


def test_global_average_pool_gradient_is_uniform() -> None:
    x = _randn(2, 3, 7, 7, requires_grad=True)
    adaptive_avg_pool2d(x, 1).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full((2, 3, 7, 7), 1 / 49), rtol=1e-6)


def test_grad_fn_names_match_pytorch() -> None:
    x = _randn(2, 3, 6, 6, dtype=tf.float64, requires_grad=True)
    for pool, name in ((lambda t: max_pool2d(t, 2), "MaxPool2DWithIndices"), (lambda t: avg_pool2d(t, 2), "AvgPool2D"),
                       (lambda t: adaptive_avg_pool2d(t, 4), "AdaptiveAvgPool2D")):
        out = pool(x)
        assert out.grad_fn.name() == name + "Backward0"
        v = _randn(*out.shape, dtype=tf.float64, requires_grad=True)
        (gx,) = tf.autograd.grad(out, (x,), v, create_graph=True)
        assert gx.grad_fn.name() == name + "BackwardBackward0"


def test_float32_gradients_stay_float32(device: str) -> None:
    x = _randn(2, 3, 7, 7, device=device, requires_grad=True)
    (max_pool2d(x, 3, 2, 1, ceil_mode=True) + avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False)
     + adaptive_avg_pool2d(x, 4)).sum().backward()
    assert x.grad.dtype == tf.float32


@pytest.mark.parametrize("call, message", [
    (lambda: max_pool2d(tf.zeros(2, 1, 8, 8), 2, padding=2),
     "pad should be at most half of effective kernel size, but got pad=2, kernel_size=2 and dilation=1"),
    (lambda: avg_pool2d(tf.zeros(2, 1, 8, 8), 3, padding=2),
     "pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and dilation=1"),
    (lambda: max_pool2d(tf.zeros(1, 1, 1, 1), 2),
     "Given input size: (1x1x1). Calculated output size: (1x0x0). Output size is too small"),
    (lambda: avg_pool1d(tf.zeros(2, 3, 4), 5),
     "Given input size: (3x1x4). Calculated output size: (3x1x0). Output size is too small"),
    (lambda: max_pool2d(tf.zeros(1, 1, 4, 4), 0, stride=1),
     "kernel size should be greater than zero, but got kH: 0 kW: 0"),
    (lambda: max_pool2d(tf.zeros(1, 1, 4, 4), 2, stride=0), "stride should not be zero"),
    (lambda: max_pool2d(tf.zeros(1, 1, 4, 4), 2, stride=-1),
     "stride should be greater than zero, but got dH: -1 dW: -1"),
    (lambda: max_pool2d(tf.zeros(1, 1, 4, 4), 2, padding=-1), "pad must be non-negative, but got pad: -1"),
    (lambda: max_pool2d(tf.zeros(1, 1, 4, 4), 2, dilation=0),
     "dilation should be greater than zero, but got dilationH: 0 dilationW: 0"),
    (lambda: max_pool2d(tf.zeros(1, 1, 4, 4), (2, 2, 2)),
     "max_pool2d: kernel_size must either be a single int, or a tuple of two ints"),
    (lambda: avg_pool2d(tf.zeros(1, 1, 4, 4), 2, stride=(1, 2, 3)),
     "avg_pool2d: stride must either be omitted, a single int, or a tuple of two ints"),
    (lambda: max_pool2d(tf.zeros(4), 2), "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size"),
    (lambda: max_pool2d(tf.zeros(2, 3, 0, 4), 2),
     "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:[2, 3, 0, 4]"),
    (lambda: max_pool1d(tf.zeros(3), 2), "max_pool1d: Expected 2D or 3D (batch mode) tensor"),
    (lambda: avg_pool2d(tf.zeros(1, 1, 4, 4), 2, divisor_override=0), "divisor must be not zero"),
    (lambda: adaptive_avg_pool2d(tf.zeros(28), 2), "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got [28]"),
    (lambda: adaptive_avg_pool2d(tf.zeros(1, 1, 4, 4), (2, 3, 4)), "adaptive_avg_pool2d: output_size must be 2"),
    (lambda: adaptive_avg_pool2d(tf.zeros(1, 1, 4, 4), -1),
     "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {-1, -1}"),
    (lambda: adaptive_avg_pool2d(tf.zeros(2, 3, 0, 4), 2),
     "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes "
     "[2, 3, 0, 4] with dimension 2 being empty"),
])
def test_errors_name_the_problem_like_pytorch(call: object, message: str) -> None:
    with pytest.raises(RuntimeError) as info:
        call()
    assert message in str(info.value)
