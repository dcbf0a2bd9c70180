"""The newer ``nn.functional`` functions (distances, attention, resampling, blocks, pooling by index,
embedding bags, instance norm, conv3d): values recorded from PyTorch 2.13 on the same inputs, and
gradients (first and second order) against finite differences in float64."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as tf
import tinyframe.nn.functional as F
from tinyframe.autograd import gradcheck, gradgradcheck

from ._functional_cases import CASES
from ._functional_expected import EXPECTED


def _inputs(arrays: list, dtype: tf.dtype, requires_grad: bool) -> list:
    return [tf.tensor(a, dtype=dtype, requires_grad=requires_grad) for a in arrays]


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.filterwarnings("ignore:`nn.functional.upsample")
def test_values_match_pytorch(name: str) -> None:
    fn, arrays, _ = CASES[name]
    outs = fn(tf, *_inputs(arrays, tf.float64, False))
    outs = outs if isinstance(outs, tuple) else (outs,)
    for out, expected in zip(outs, EXPECTED[name]):
        np.testing.assert_allclose(out.numpy(), np.asarray(expected), rtol=1e-6, atol=1e-8)
        assert out.dtype == (tf.int64 if np.asarray(expected).dtype.kind == "i" else tf.float64)


@pytest.mark.parametrize("name", [n for n, case in CASES.items() if case[2]])
@pytest.mark.filterwarnings("ignore:`nn.functional.upsample")
def test_gradients_match_finite_differences(name: str) -> None:
    fn, arrays, _ = CASES[name]

    def first_output(*tensors: tf.Tensor) -> tf.Tensor:
        out = fn(tf, *tensors)
        return out[0] if isinstance(out, tuple) else out
    inputs = _inputs(arrays, tf.float64, True)
    assert gradcheck(first_output, inputs)
    if name not in _FIRST_ORDER_ONLY:
        assert gradgradcheck(first_output, inputs)


# PyTorch records hardsigmoid's gradient without a derivative (see test_double_backward_nodes_are_pytorchs)
_FIRST_ORDER_ONLY = {"hardsigmoid"}


@pytest.mark.parametrize("name", [n for n, case in CASES.items() if case[2]])
@pytest.mark.filterwarnings("ignore:`nn.functional.upsample")
def test_float32_stays_float32(name: str) -> None:
    fn, arrays, _ = CASES[name]
    out = fn(tf, *_inputs(arrays, tf.float32, True))
    out = out[0] if isinstance(out, tuple) else out
    assert out.dtype == tf.float32
    out.sum().backward()


def test_bool_attention_mask_true_means_attend() -> None:
    q, k, v = (tf.randn(1, 2, 4) for _ in range(3))
    everything = F.scaled_dot_product_attention(q, k, v, attn_mask=tf.ones(2, 2, dtype=tf.bool))
    np.testing.assert_allclose(everything.numpy(), F.scaled_dot_product_attention(q, k, v).numpy(), rtol=1e-6)
    only_first = F.scaled_dot_product_attention(q, k, v, attn_mask=tf.tensor([[True, False], [True, False]]))
    np.testing.assert_allclose(only_first.numpy(), np.broadcast_to(v.numpy()[:, :1], (1, 2, 4)), rtol=1e-6)


def test_attention_rejects_mask_with_is_causal_off_the_flash_kernel() -> None:
    q = tf.randn(2, 3)
    with pytest.raises(RuntimeError, match="Explicit attn_mask should not be set when is_causal=True"):
        F.scaled_dot_product_attention(q, q, q, attn_mask=tf.ones(2, 2), is_causal=True)
    q4 = tf.randn(1, 1, 2, 3)
    with pytest.raises(RuntimeError, match="Explicit attn_mask should not be set when is_causal=True"):
        F.scaled_dot_product_attention(q4, q4, q4, attn_mask=tf.ones(2, 2), is_causal=True, dropout_p=0.5)


def test_attention_combines_mask_and_is_causal_on_the_flash_kernel() -> None:
    # PyTorch 2.13's CPU flash kernel applies both: 4-D inputs, no dropout.
    q = tf.arange(24, dtype=tf.float32).reshape(1, 2, 4, 3) / 10
    k, v = q.flip(2), q * 2 - 1
    bias = tf.tensor([[0.0, -1.0, 0.5, float("-inf")]]).expand(4, 4)
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=bias, is_causal=True)
    assert out.grad_fn is None
    expected = [[-1.0, -0.8, -0.6], [-0.861951, -0.661951, -0.461951], [-0.459480, -0.259480, -0.059480],
                [-0.538781, -0.338781, -0.138781]]
    np.testing.assert_allclose(out[0, 0].numpy(), expected, atol=1e-5)


def test_interpolate_argument_errors() -> None:
    x = tf.randn(1, 1, 4)
    with pytest.raises(ValueError, match="either size or scale_factor should be defined"):
        F.interpolate(x)
    with pytest.raises(ValueError, match="only one of size or scale_factor should be defined"):
        F.interpolate(x, size=3, scale_factor=2)
    with pytest.raises(ValueError, match="align_corners option can only be set"):
        F.interpolate(x, size=3, align_corners=True)
    with pytest.raises(NotImplementedError, match="bilinear mode needs 4D input"):
        F.interpolate(x, size=3, mode="bilinear")


def test_fold_of_unfold_counts_each_pixel_once_per_block() -> None:
    ones = tf.ones(1, 2, 4, 5)
    counts = F.fold(F.unfold(ones, 2), (4, 5), 2)
    expected = np.ones((4, 5)) * 4
    expected[[0, -1], :] /= 2
    expected[:, [0, -1]] /= 2
    np.testing.assert_allclose(counts.numpy()[0, 1], expected)


def test_fold_checks_the_number_of_blocks() -> None:
    with pytest.raises(RuntimeError, match="expected size of input's dimension 2 to match the calculated number"):
        F.fold(tf.randn(1, 4, 5), (3, 3), 2)


def test_glu_needs_an_even_dimension() -> None:
    with pytest.raises(RuntimeError, match="Halving dimension must be even, but dimension 1 is size 3"):
        F.glu(tf.randn(2, 3))


def test_pixel_unshuffle_inverts_pixel_shuffle() -> None:
    x = tf.randn(2, 12, 3, 2)
    np.testing.assert_array_equal(F.pixel_unshuffle(F.pixel_shuffle(x, 2), 2).numpy(), x.numpy())


def test_max_unpool_rejects_an_index_outside_the_output() -> None:
    with pytest.raises(RuntimeError, match="Found an invalid max index: 9"):
        F.max_unpool1d(tf.randn(1, 1, 2), tf.tensor([[[0, 9]]]), 2)


def test_instance_norm_updates_running_stats_with_the_batch_average() -> None:
    x = tf.tensor(np.arange(24.0).reshape(2, 3, 4) ** 1.5)
    mean, var = tf.zeros(3, dtype=tf.float64), tf.ones(3, dtype=tf.float64)
    F.instance_norm(x, mean, var, momentum=0.5)
    data = x.numpy()
    np.testing.assert_allclose(mean.numpy(), 0.5 * data.mean(axis=2).mean(axis=0))
    np.testing.assert_allclose(var.numpy(), 0.5 + 0.5 * data.var(axis=2, ddof=1).mean(axis=0))


def test_embedding_bag_per_sample_weights_only_in_sum_mode() -> None:
    with pytest.raises(NotImplementedError, match="per_sample_weights is only supported for mode='sum'"):
        F.embedding_bag(tf.tensor([[0, 1]]), tf.randn(3, 2), per_sample_weights=tf.ones(1, 2))


def test_grid_functions_warn_about_the_align_corners_default() -> None:
    theta = tf.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
    with pytest.warns(UserWarning, match="align_corners=False since 1.3.0"):
        grid = F.affine_grid(theta, (1, 1, 2, 3))
    with pytest.warns(UserWarning, match="align_corners=False since 1.3.0"):
        out = F.grid_sample(tf.ones(1, 1, 2, 3), grid)
    np.testing.assert_allclose(out.numpy(), np.ones((1, 1, 2, 3)), rtol=1e-6)  # the identity map


@pytest.mark.parametrize(("fn", "node"), [(F.mish, "MishBackward0"), (F.hardswish, "HardswishBackward0"),
                                          (F.hardsigmoid, "HardsigmoidBackward0"), (F.glu, "GluBackward0")])
def test_single_node_activations_have_pytorchs_grad_fn(fn: object, node: str) -> None:
    assert fn(tf.randn(4, requires_grad=True)).grad_fn.name() == node


def test_hardswish_gradient_at_the_kinks_is_pytorchs() -> None:
    x = tf.tensor([-3.0, 3.0, -4.0, 4.0], requires_grad=True)
    F.hardswish(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [0.0, 1.0, 0.0, 1.0])  # recorded from PyTorch 2.13


@pytest.mark.parametrize("name", ["upsample", "upsample_nearest", "upsample_bilinear"])
def test_deprecated_upsample_functions_warn(name: str) -> None:
    with pytest.warns(UserWarning, match=f"`nn.functional.{name}` is deprecated. Use `nn.functional.interpolate`"):
        assert getattr(F, name)(tf.ones(1, 1, 2, 2), scale_factor=2).shape == (1, 1, 4, 4)


def test_affine_grid_and_grid_sample_errors_are_pytorchs() -> None:
    with pytest.raises(ValueError, match=r"Expected a batch of 3D affine matrices of shape Nx3x4 for size "
                                         r"\(1, 1, 2, 2, 2\)\. Got tinyframe.Size\(\[1, 2, 3\]\)\."):
        F.affine_grid(tf.zeros(1, 2, 3), (1, 1, 2, 2, 2), align_corners=False)
    with pytest.raises(NotImplementedError, match=r"affine_grid only supports 4D and 5D sizes, for 2D and 3D affine "
                                                  r"transforms, respectively. Got size \(1, 1, 4\)."):
        F.affine_grid(tf.zeros(1, 3, 4), (1, 1, 4), align_corners=False)
    volume = tf.zeros(1, 1, 2, 2, 2)
    with pytest.raises(RuntimeError, match="bicubic interpolation only supports 4D input"):
        F.grid_sample(volume, tf.zeros(1, 1, 1, 1, 3), mode="bicubic", align_corners=False)
    with pytest.raises(RuntimeError, match=r"expected grid to have size 3 in last dimension, but got grid with sizes "
                                           r"\[1, 1, 1, 2\]"):
        F.grid_sample(volume, tf.zeros(1, 1, 1, 2), align_corners=False)
    grid = F.affine_grid(tf.eye(3, 4).unsqueeze(0).requires_grad_(), (1, 1, 2, 2, 2), align_corners=False)
    assert F.grid_sample(volume.requires_grad_(), grid, align_corners=False).grad_fn.name() == "GridSampler3DBackward0"
