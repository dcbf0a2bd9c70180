"""conv1d, conv2d, conv_transpose1d/2d: PyTorch's output shapes, values, grad_fn names, dtypes and errors."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as tf
from tinyframe.ops.convolution import conv1d, conv2d, conv_transpose1d, conv_transpose2d

from .op_cases.nn_ops import conv_reference, conv_transpose_reference


def _randn(*shape: int, device: str = "cpu", dtype: tf.dtype = tf.float32, requires_grad: bool = False) -> tf.Tensor:
    data = np.random.default_rng(sum(shape)).standard_normal(shape)
    return tf.tensor(data, dtype=dtype, device=device, requires_grad=requires_grad)


def _host(t: tf.Tensor) -> np.ndarray:
    return t.detach().cpu().numpy()


@pytest.mark.parametrize("stride, padding, dilation, groups", [
    (1, 0, 1, 1), (2, 1, 1, 1), ((2, 3), (0, 2), (1, 2), 1), (1, 2, 2, 2), (3, 1, 1, 4), (1, "same", 1, 1),
    (1, "same", (2, 1), 2), (2, "valid", 1, 1),
])
def test_conv2d_matches_loop_reference(stride: object, padding: object, dilation: object, groups: int,
                                       device: str) -> None:
    x, w, b = _randn(2, 4, 9, 8, device=device), _randn(4, 4 // groups, 3, 2, device=device), _randn(4, device=device)
    out = conv2d(x, w, b, stride, padding, dilation, groups)
    expected = conv_reference(_host(x), _host(w), _host(b), stride, padding, dilation, groups)
    assert out.dtype == tf.float32
    np.testing.assert_allclose(_host(out), expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("size, kernel, stride, padding, dilation", [
    (28, 3, 1, 1, 1), (28, 5, 2, 2, 1), (7, 3, 3, 0, 1), (10, 3, 1, 0, 3), (5, 5, 1, 0, 1), (6, 2, 4, 1, 2),
])
def test_conv2d_output_shape_follows_pytorch_formula(size: int, kernel: int, stride: int, padding: int,
                                                     dilation: int) -> None:
    out = conv2d(tf.zeros(3, 2, size, size + 1), tf.zeros(5, 2, kernel, kernel), stride=stride, padding=padding,
                 dilation=dilation)
    expected = [(n + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1 for n in (size, size + 1)]
    assert tuple(out.shape) == (3, 5, *expected)


@pytest.mark.parametrize("kernel, dilation", [(1, 1), (2, 1), (3, 1), (4, 3), (5, 2)])
def test_same_padding_keeps_the_input_size(kernel: int, dilation: int) -> None:
    out = conv2d(tf.zeros(1, 1, 7, 6), tf.zeros(2, 1, kernel, kernel), padding="same", dilation=dilation)
    assert out.shape == (1, 2, 7, 6)
    assert conv1d(tf.zeros(1, 1, 7), tf.zeros(2, 1, kernel), padding="same", dilation=dilation).shape == (1, 2, 7)


def test_conv1d_is_conv2d_of_height_one(device: str) -> None:
    x, w, b = _randn(2, 3, 11, device=device), _randn(4, 3, 3, device=device), _randn(4, device=device)
    out = conv1d(x, w, b, stride=2, padding=1, dilation=2)
    as_2d = conv2d(x.reshape(2, 3, 1, 11), w.reshape(4, 3, 1, 3), b, stride=(1, 2), padding=(0, 1), dilation=(1, 2))
    np.testing.assert_allclose(_host(out), _host(as_2d).reshape(out.shape), rtol=1e-6)


def test_unbatched_input_gives_the_batched_result_without_the_batch(device: str) -> None:
    x, w = _randn(3, 6, 6, device=device, requires_grad=True), _randn(2, 3, 3, 3, device=device)
    out = conv2d(x, w, padding=1)
    assert out.shape == (2, 6, 6)
    np.testing.assert_allclose(_host(out), _host(conv2d(x.reshape(1, 3, 6, 6), w, padding=1))[0], rtol=1e-6)
    out.sum().backward()
    assert x.grad.shape == x.shape


def test_conv_transpose2d_matches_loop_reference(device: str) -> None:
    x, w, b = _randn(2, 4, 5, 4, device=device), _randn(4, 3, 3, 2, device=device), _randn(6, device=device)
    kwargs = dict(stride=(2, 3), padding=(1, 0), output_padding=(1, 2), groups=2, dilation=(1, 2))
    out = conv_transpose2d(x, w, b, **kwargs)
    expected = conv_transpose_reference(_host(x), _host(w), _host(b), **kwargs)
    assert out.shape == expected.shape == (2, 6, 10, 14)
    np.testing.assert_allclose(_host(out), expected, rtol=1e-4, atol=1e-4)


def test_conv_transpose2d_is_the_adjoint_of_conv2d() -> None:
    """<conv2d(x, w), y> == <x, conv_transpose2d(y, w)>, with output_padding recovering x's size."""
    x, w = _randn(2, 3, 9, 8, dtype=tf.float64), _randn(4, 3, 3, 3, dtype=tf.float64)
    y = conv2d(x, w, stride=2, padding=1)
    g = _randn(*y.shape, dtype=tf.float64)
    back = conv_transpose2d(g, w, stride=2, padding=1, output_padding=(0, 1))
    assert back.shape == x.shape
    np.testing.assert_allclose((_host(y) * _host(g)).sum(), (_host(x) * _host(back)).sum(), rtol=1e-10)


def test_conv_transpose1d_output_length() -> None:
    out = conv_transpose1d(tf.zeros(2, 3, 5), tf.zeros(3, 4, 3), stride=3, padding=1, output_padding=2, dilation=2)
    assert out.shape == (2, 4, (5 - 1) * 3 - 2 + 2 * 2 + 2 + 1)


def test_grad_fn_names_match_pytorch() -> None:
    x, w = _randn(2, 3, 6, 6, requires_grad=True), _randn(4, 3, 3, 3, requires_grad=True)
    y = conv2d(x, w, _randn(4, requires_grad=True))
    assert y.grad_fn.name() == "ConvolutionBackward0"
    assert conv1d(_randn(2, 3, 6, requires_grad=True), _randn(4, 3, 3)).grad_fn.name() == "ConvolutionBackward0"
    assert conv_transpose2d(x, _randn(3, 2, 3, 3)).grad_fn.name() == "ConvolutionBackward0"
    gx, gw = tf.autograd.grad(y.sum(), (x, w), create_graph=True)
    assert gx.grad_fn.name() == gw.grad_fn.name() == "ConvolutionBackwardBackward0"


def test_no_graph_without_grad() -> None:
    assert conv2d(_randn(1, 1, 4, 4), _randn(1, 1, 3, 3)).grad_fn is None
    with tf.no_grad():
        assert conv2d(_randn(1, 1, 4, 4, requires_grad=True), _randn(1, 1, 3, 3)).grad_fn is None


def test_float32_gradients_stay_float32(device: str) -> None:
    x = _randn(2, 3, 7, 7, device=device, requires_grad=True)
    w, b = _randn(4, 3, 3, 3, device=device, requires_grad=True), _randn(4, device=device, requires_grad=True)
    (conv2d(x, w, b, stride=2, padding=1) * 2.0).sum().backward()
    assert x.grad.dtype == w.grad.dtype == b.grad.dtype == tf.float32
    assert b.grad.shape == (4,)
    np.testing.assert_allclose(_host(b.grad), np.full(4, 2.0 * 2 * 4 * 4), rtol=1e-6)


def test_backward_skips_inputs_that_need_no_gradient() -> None:
    x, w = _randn(2, 3, 6, 6), _randn(4, 3, 3, 3, requires_grad=True)
    conv2d(x, w).sum().backward()
    assert x.grad is None and w.grad.shape == w.shape


@pytest.mark.parametrize("call, message", [
    (lambda: conv2d(tf.zeros(2, 1, 28, 28), tf.zeros(16, 3, 3, 3)),
     "Given groups=1, weight of size [16, 3, 3, 3], expected input[2, 1, 28, 28] to have 3 channels, "
     "but got 1 channels instead"),
    (lambda: conv2d(tf.zeros(1, 28, 28), tf.zeros(16, 3, 3, 3)),
     "expected input[1, 1, 28, 28] to have 3 channels, but got 1 channels instead"),
    (lambda: conv2d(tf.zeros(28, 28), tf.zeros(16, 1, 3, 3)),
     "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [28, 28]"),
    (lambda: conv1d(tf.zeros(5), tf.zeros(2, 1, 3)),
     "Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: [5]"),
    (lambda: conv2d(tf.zeros(2, 1, 5, 5), tf.zeros(2, 1, 3, 3), dilation=3),
     "Calculated padded input size per channel: (5 x 5). Kernel size: (7 x 7). Kernel size can't be greater "
     "than actual input size"),
    (lambda: conv1d(tf.zeros(2, 1, 2), tf.zeros(2, 1, 3)),
     "Calculated padded input size per channel: (2). Kernel size: (3)."),
    (lambda: conv2d(tf.zeros(1, 1, 5, 5), tf.zeros(1, 1, 3, 3), padding=-1), "negative padding is not supported"),
    (lambda: conv2d(tf.zeros(1, 1, 5, 5), tf.zeros(1, 1, 3, 3), stride=0), "non-positive stride is not supported"),
    (lambda: conv2d(tf.zeros(1, 1, 5, 5), tf.zeros(1, 1, 3, 3), dilation=0), "non-positive dilation is not supported"),
    (lambda: conv2d(tf.zeros(1, 1, 5, 5), tf.zeros(1, 1, 3, 3), groups=0), "non-positive groups is not supported"),
    (lambda: conv2d(tf.zeros(1, 1, 5, 5), tf.zeros(1, 1, 3, 3), padding="same", stride=2),
     "padding='same' is not supported for strided convolutions"),
    (lambda: conv2d(tf.zeros(1, 1, 5, 5), tf.zeros(1, 1, 3, 3), padding="full"), "Invalid padding string: 'full'"),
    (lambda: conv2d(tf.zeros(1, 1, 5, 5), tf.zeros(1, 1, 3, 3), stride=(1, 2, 3)),
     "expected stride to be a single integer value or a list of 2 values to match the convolution dimensions, "
     "but got stride=[1, 2, 3]"),
    (lambda: conv2d(tf.zeros(2, 4, 5, 5), tf.zeros(3, 2, 3, 3), groups=2),
     "Given groups=2, expected weight to be divisible by 2 at dimension 0, but got weight of size [[3, 2, 3, 3]] "
     "instead"),
    (lambda: conv2d(tf.zeros(2, 3, 5, 5), tf.zeros(4, 1, 3, 3), groups=2),
     "Given groups=2, weight of size [4, 1, 3, 3], expected input[2, 3, 5, 5] to have 2 channels, but got 3 "
     "channels instead"),
    (lambda: conv2d(tf.zeros(2, 1, 5, 5), tf.zeros(16, 1, 3, 3), tf.zeros(10)),
     "Given weight of size [16, 1, 3, 3], expected bias to be 1-dimensional with 16 elements, but got bias of "
     "size [10] instead"),
    (lambda: conv2d(tf.zeros(2, 1, 5, 5), tf.zeros(16, 1, 3, 3, dtype=tf.float64)),
     "expected scalar type Float but found Double"),
    (lambda: conv_transpose2d(tf.zeros(2, 1, 5, 5), tf.zeros(3, 16, 3, 3)),
     "Given transposed=1, weight of size [3, 16, 3, 3], expected input[2, 1, 5, 5] to have 3 channels, but got "
     "1 channels instead"),
    (lambda: conv_transpose2d(tf.zeros(2, 1, 5, 5), tf.zeros(1, 16, 3, 3), stride=(1, 2), output_padding=(0, 2)),
     "output padding must be smaller than either stride or dilation, but got output_padding_height: 0 "
     "output_padding_width: 2 stride_height: 1 stride_width: 2 dilation_height: 1 dilation_width: 1"),
    (lambda: conv_transpose2d(tf.zeros(2, 1, 5, 5), tf.zeros(1, 16, 3, 3), tf.zeros(3)),
     "Given transposed=1, weight of size [1, 16, 3, 3], expected bias to be 1-dimensional with 16 elements"),
    (lambda: conv_transpose2d(tf.zeros(2, 1, 2, 2), tf.zeros(1, 1, 3, 3), padding=3), "is too small"),
])
def test_errors_name_the_problem_like_pytorch(call: object, message: str) -> None:
    with pytest.raises(RuntimeError) as info:
        call()
    assert message in str(info.value)


def test_string_padding_is_a_type_error_for_transposed_convolution() -> None:
    with pytest.raises(TypeError, match="argument 'padding' must be tuple of ints, not str"):
        conv_transpose2d(tf.zeros(1, 1, 3, 3), tf.zeros(1, 1, 3, 3), padding="same")


def test_second_derivative_through_the_weight_gradient() -> None:
    """d/dx of ||dL/dw||^2 exists and matches finite differences (gradgradcheck covers the rest)."""
    x = _randn(1, 2, 5, 5, dtype=tf.float64, requires_grad=True)
    w = _randn(3, 2, 3, 3, dtype=tf.float64, requires_grad=True)

    def penalty(x: tf.Tensor) -> tf.Tensor:
        with tf.enable_grad():  # gradcheck's finite differences run under no_grad
            (gw,) = tf.autograd.grad(conv2d(x, w, padding=1).sum(), (w,), create_graph=True)
            return (gw * gw).sum()

    assert tf.autograd.gradcheck(penalty, (x,))


@pytest.mark.parametrize("transposed", [False, True])
def test_batch_chunks_give_the_whole_batch_result(transposed: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """On the CPU the three maps run over the batch a few images at a time; one image per chunk
    gives the same output and gradients as the whole batch in one piece."""
    from tinyframe.ops import convolution

    def run() -> list:
        x, w = _randn(5, 4, 9, 8, dtype=tf.float64, requires_grad=True), _randn(4, 2, 3, 2, dtype=tf.float64,
                                                                                   requires_grad=True)
        b = _randn(4, dtype=tf.float64, requires_grad=True)
        conv = conv_transpose2d if transposed else conv2d
        out = conv(x, w, b, stride=(2, 1), padding=1, dilation=(1, 2), groups=2)
        (out * out).sum().backward()
        return [_host(t) for t in (out, x.grad, w.grad, b.grad)]

    whole = run()
    monkeypatch.setattr(convolution, "_CHUNK_BYTES", 1)
    for chunked, expected in zip(run(), whole):
        np.testing.assert_allclose(chunked, expected, rtol=1e-12, atol=1e-12)
