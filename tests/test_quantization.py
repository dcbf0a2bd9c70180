"""``torch.fake_quantize_per_tensor_affine`` / ``fake_quantize_per_channel_affine``: values, the
straight-through gradient (zero where clamped), node names and errors as PyTorch 2.13's (recorded)."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as tf

X = [-1.0, -0.26, -0.25, -0.05, 0.05, 0.15, 0.25, 0.35, 1.0]


def test_per_tensor_values_gradient_and_node_names(device: str) -> None:
    x = tf.tensor(X, device=device, requires_grad=True)
    y = tf.fake_quantize_per_tensor_affine(x, 0.1, 2, -3, 4)
    np.testing.assert_allclose(y.detach().cpu().numpy(), [-0.5, -0.3, -0.2, 0, 0, 0.2, 0.2, 0.2, 0.2], atol=1e-7)
    assert y.grad_fn.name() == "FakeQuantizePerTensorAffineCachemaskBackward0"
    y.backward(tf.arange(9.0, device=device))
    assert x.grad.cpu().tolist() == [0, 1, 2, 3, 4, 5, 6, 0, 0]
    z = tf.fake_quantize_per_tensor_affine(x, tf.tensor(0.1), tf.tensor(2), -3, 4)
    assert z.grad_fn.name() == "FakeQuantizePerTensorAffineCachemaskTensorQparamsBackward0"
    # rounding half to even of x times float32(1 / scale), as PyTorch's kernel
    halves = tf.fake_quantize_per_tensor_affine(tf.tensor([0.15, 0.25, -0.15, 0.35, 0.45]), 0.1, 0, -128, 127)
    np.testing.assert_allclose(halves.numpy(), [0.2, 0.2, -0.2, 0.4, 0.4], rtol=1e-7)
    assert tf.fake_quantize_per_tensor_affine(tf.tensor(X, dtype=tf.float16), 0.1, 2, -3, 4).dtype == tf.float16


def test_per_channel_values_axis_and_float_zero_point() -> None:
    w = tf.tensor([[0.3, -0.72, 1.5], [0.01, 0.2, -0.4]], requires_grad=True)
    scale, zero = tf.tensor([0.2, 0.05]), tf.tensor([0, 1], dtype=tf.int32)
    out = tf.fake_quantize_per_channel_affine(w, scale, zero, 0, -4, 3)
    np.testing.assert_allclose(out.detach().numpy(), [[0.4, -0.8, 0.6], [0.0, 0.1, -0.25]], rtol=1e-6)
    assert out.grad_fn.name() == "FakeQuantizePerChannelAffineCachemaskBackward0"
    out.backward(tf.ones(2, 3))
    assert w.grad.tolist() == [[1, 1, 0], [1, 0, 0]]
    along_1 = tf.fake_quantize_per_channel_affine(w.detach().T, scale, zero, 1, -4, 3)
    np.testing.assert_allclose(along_1.numpy(), out.detach().numpy().T)
    shifted = tf.fake_quantize_per_channel_affine(tf.tensor([[0.26, -0.05]]), tf.tensor([0.1]), tf.tensor([0.5]),
                                                  0, -3, 4)
    np.testing.assert_allclose(shifted.numpy(), [[0.25, -0.05]], rtol=1e-6)


def test_errors_are_pytorchs() -> None:
    x = tf.tensor(X)
    with pytest.raises(RuntimeError, match="`quant_min` should be less than or         equal to `quant_max`."):
        tf.fake_quantize_per_tensor_affine(x, 0.1, 2, 4, -3)
    with pytest.raises(RuntimeError, match="`zero_point` must be between `quant_min` and `quant_max`."):
        tf.fake_quantize_per_tensor_affine(x, 0.1, 9, -3, 4)
    with pytest.raises(NotImplementedError, match="not implemented for 'Long'"):
        tf.fake_quantize_per_tensor_affine(tf.tensor([1, 2]), 0.1, 0, -3, 4)
    with pytest.raises(RuntimeError, match="is not differentiable with respect to argument 'scale'"):
        tf.fake_quantize_per_tensor_affine(x, tf.tensor(0.1, requires_grad=True), tf.tensor(2), -3, 4)
    w, scale, zero = tf.zeros(2, 3), tf.tensor([0.2, 0.05]), tf.tensor([0, 1], dtype=tf.int32)
    with pytest.raises(RuntimeError, match="Zero-point must be Int32, Float or Half, found Long"):
        tf.fake_quantize_per_channel_affine(w, scale, zero.long(), 0, -4, 3)
    with pytest.raises(RuntimeError, match="Scale must be Float or BFloat16, found Double"):
        tf.fake_quantize_per_channel_affine(w, scale.double(), zero, 0, -4, 3)
    with pytest.raises(RuntimeError, match="scale and zero-point need to have the same dimensions"):
        tf.fake_quantize_per_channel_affine(w, scale[:1], zero, 0, -4, 3)
    with pytest.raises(RuntimeError, match="not consistent with input tensor"):
        tf.fake_quantize_per_channel_affine(w, scale, zero, 1, -4, 3)
    with pytest.raises(IndexError, match="Dimension out of range"):
        tf.fake_quantize_per_channel_affine(w, scale, zero, 2, -4, 3)
