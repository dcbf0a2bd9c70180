"""Normalisation layers (BatchNorm1d/2d/3d, LayerNorm, GroupNorm, RMSNorm) and their functional
forms: forward against NumPy, running statistics against hand computation and PyTorch 2.13's
numbers, train/eval switching, gradients to second order, printing and state_dict keys."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as tf
import tinyframe.nn as nn
import tinyframe.nn.functional as F
from tinyframe.autograd import gradcheck, gradgradcheck


def _host(t: tf.Tensor) -> np.ndarray:
    return t.detach().cpu().numpy()


def _np_normalize(x: np.ndarray, axes: tuple, eps: float = 1e-5) -> np.ndarray:
    mean = x.mean(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(x.var(axis=axes, keepdims=True) + eps)


def _params(module: nn.Module, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for p in module.parameters():
        p.data.copy_(tf.tensor(rng.uniform(0.5, 1.5, tuple(p.shape))))


# --------------------------------------------------------------------------- BatchNorm: forward
@pytest.mark.parametrize("kind, shape", [("BatchNorm1d", (6, 3)), ("BatchNorm1d", (4, 3, 5)),
                                         ("BatchNorm2d", (4, 3, 2, 5)), ("BatchNorm3d", (2, 3, 2, 2, 3))])
def test_batchnorm_training_forward_matches_numpy(kind: str, shape: tuple, device: str) -> None:
    module = getattr(nn, kind)(3).double()
    _params(module, 0)
    x = np.random.default_rng(1).standard_normal(shape) * 3 + 2
    y = module.to(device)(tf.tensor(x, device=device))
    axes = (0, *range(2, len(shape)))
    channels = (-1,) + (1,) * (len(shape) - 2)
    ref = _np_normalize(x, axes) * _host(module.weight).reshape(channels) + _host(module.bias).reshape(channels)
    np.testing.assert_allclose(_host(y), ref, atol=1e-12)


def test_running_statistics_follow_the_unbiased_batch_variance() -> None:
    module = nn.BatchNorm2d(2).double()
    rng = np.random.default_rng(2)
    running_mean, running_var = np.zeros(2), np.ones(2)
    for _ in range(3):
        x = rng.standard_normal((4, 2, 3, 3)) * 2 + 1
        module(tf.tensor(x))
        running_mean = 0.9 * running_mean + 0.1 * x.mean(axis=(0, 2, 3))
        running_var = 0.9 * running_var + 0.1 * x.var(axis=(0, 2, 3), ddof=1)
    np.testing.assert_allclose(_host(module.running_mean), running_mean, atol=1e-12)
    np.testing.assert_allclose(_host(module.running_var), running_var, atol=1e-12)
    assert module.num_batches_tracked.dtype == tf.int64 and module.num_batches_tracked.item() == 3


def test_momentum_none_is_a_cumulative_average() -> None:
    module = nn.BatchNorm1d(3, momentum=None).double()
    rng = np.random.default_rng(3)
    batches = [rng.standard_normal((5, 3)) + i for i in range(4)]
    for x in batches:
        module(tf.tensor(x))
    np.testing.assert_allclose(_host(module.running_mean), np.mean([b.mean(0) for b in batches], axis=0), atol=1e-12)
    np.testing.assert_allclose(_host(module.running_var), np.mean([b.var(0, ddof=1) for b in batches], axis=0),
                               atol=1e-12)


def test_running_statistics_and_eval_output_match_pytorch() -> None:
    module = nn.BatchNorm2d(2).double()
    rng = np.random.default_rng(5)
    for _ in range(2):
        module(tf.tensor(rng.standard_normal((3, 2, 2, 2)) * 2 + 1))
    np.testing.assert_allclose(_host(module.running_mean), [0.10847811, 0.01700579], atol=1e-8)
    np.testing.assert_allclose(_host(module.running_var), [1.47792696, 1.3339052], atol=1e-8)
    module.eval()
    y = module(tf.tensor(rng.standard_normal((1, 2, 2, 2))))
    np.testing.assert_allclose(_host(y), [[[[-0.28123667, -0.29963548], [0.70208061, -1.06105153]],
                                           [[0.62429938, -0.96625496], [-0.30156798, -0.74243658]]]], atol=1e-8)


def test_eval_uses_running_statistics_and_leaves_them_alone() -> None:
    module = nn.BatchNorm1d(3).double()
    _params(module, 4)
    module.running_mean.copy_(tf.tensor([0.5, -1.0, 2.0], dtype=tf.float64))
    module.running_var.copy_(tf.tensor([4.0, 0.25, 1.0], dtype=tf.float64))
    module.eval()
    x = np.random.default_rng(5).standard_normal((4, 3))
    y = module(tf.tensor(x))
    ref = (x - [0.5, -1.0, 2.0]) / np.sqrt(np.array([4.0, 0.25, 1.0]) + 1e-5) * _host(module.weight) \
        + _host(module.bias)
    np.testing.assert_allclose(_host(y), ref, atol=1e-12)
    np.testing.assert_allclose(_host(module.running_mean), [0.5, -1.0, 2.0])
    assert module.num_batches_tracked.item() == 0
    module.train()
    module(tf.tensor(x))
    assert module.num_batches_tracked.item() == 1 and not np.allclose(_host(module.running_mean), [0.5, -1.0, 2.0])


def test_untracked_statistics_normalise_with_the_batch_in_eval_too() -> None:
    module = nn.BatchNorm1d(3, affine=False, track_running_stats=False).double()
    assert module.running_mean is None and module.num_batches_tracked is None
    assert list(module.state_dict()) == []
    x = np.random.default_rng(6).standard_normal((5, 3))
    module.eval()
    np.testing.assert_allclose(_host(module(tf.tensor(x))), _np_normalize(x, (0,)), atol=1e-12)


def test_batchnorm_state_dict_keys_and_init_match_pytorch() -> None:
    module = nn.BatchNorm2d(4)
    assert list(module.state_dict()) == ["weight", "bias", "running_mean", "running_var", "num_batches_tracked"]
    np.testing.assert_array_equal(_host(module.weight), np.ones(4))
    np.testing.assert_array_equal(_host(module.bias), np.zeros(4))
    np.testing.assert_array_equal(_host(module.running_var), np.ones(4))
    assert list(nn.BatchNorm2d(4, bias=False).state_dict()) == ["weight", "running_mean", "running_var",
                                                                "num_batches_tracked"]
    assert list(nn.BatchNorm1d(4, affine=False).state_dict()) == ["running_mean", "running_var",
                                                                   "num_batches_tracked"]
    assert [n for n, _ in module.named_buffers()] == ["running_mean", "running_var", "num_batches_tracked"]


def test_double_keeps_num_batches_tracked_int64() -> None:
    module = nn.BatchNorm2d(2).double()
    assert module.running_mean.dtype == tf.float64 and module.num_batches_tracked.dtype == tf.int64


# --------------------------------------------------------------------------- BatchNorm: gradients
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("shape", [(5, 3), (3, 3, 4), (2, 3, 2, 3)])
def test_batch_norm_gradients_to_second_order(training: bool, shape: tuple) -> None:
    rng = np.random.default_rng(7)
    x = tf.tensor(rng.standard_normal(shape), requires_grad=True)
    w = tf.tensor(rng.uniform(0.5, 1.5, 3), requires_grad=True)
    b = tf.tensor(rng.standard_normal(3), requires_grad=True)
    mean, var = tf.tensor(rng.standard_normal(3)), tf.tensor(rng.uniform(0.5, 2, 3))

    def fn(x: tf.Tensor, w: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
        return F.batch_norm(x, mean.clone(), var.clone(), w, b, training=training)

    assert gradcheck(fn, (x, w, b))
    assert gradgradcheck(fn, (x, w, b))


def test_batchnorm_module_gradcheck_without_affine() -> None:
    module = nn.BatchNorm2d(2, affine=False).double()
    x = tf.randn(3, 2, 2, 2, dtype=tf.float64, requires_grad=True)
    assert gradcheck(module, (x,))


def test_batch_norm_grad_fn_and_float32() -> None:
    x = tf.randn(4, 3, 2, 2, requires_grad=True)
    module = nn.BatchNorm2d(3)
    y = module(x)
    assert y.grad_fn.name() == "NativeBatchNormBackward0" and y.dtype == tf.float32
    assert module.running_var.dtype == tf.float32
    module.eval()
    assert module(x).grad_fn.name() == "NativeBatchNormBackward0"
    y.sum().backward()
    assert x.grad.dtype == tf.float32 and module.weight.grad.shape == (3,)


def test_batchnorm_errors_match_pytorch() -> None:
    with pytest.raises(ValueError, match=r"expected 4D input \(got 3D input\)"):
        nn.BatchNorm2d(3)(tf.randn(3, 4, 4))
    with pytest.raises(ValueError, match=r"expected 2D or 3D input \(got 4D input\)"):
        nn.BatchNorm1d(3)(tf.randn(3, 3, 4, 4))
    with pytest.raises(ValueError, match="Expected more than 1 value per channel when training"):
        nn.BatchNorm1d(3)(tf.randn(1, 3))
    with pytest.raises(RuntimeError, match="running_mean should contain 4 elements not 3"):
        nn.BatchNorm2d(3)(tf.randn(2, 4, 2, 2))
    with pytest.raises(RuntimeError, match="running_mean must be defined in evaluation mode"):
        F.batch_norm(tf.randn(2, 3), None, None, training=False)
    with pytest.raises(NotImplementedError, match="\"batch_norm\" not implemented for 'Long'"):
        F.batch_norm(tf.ones(2, 3, dtype=tf.int64), None, None, training=True)


@pytest.mark.parametrize("make, text", [
    (lambda: nn.BatchNorm2d(16), "BatchNorm2d(16, eps=1e-05, momentum=0.1, affine=True, bias=True, "
                                 "track_running_stats=True)"),
    (lambda: nn.BatchNorm1d(3, momentum=None, affine=False, track_running_stats=False),
     "BatchNorm1d(3, eps=1e-05, momentum=None, affine=False, bias=False, track_running_stats=False)"),
    (lambda: nn.BatchNorm3d(2, eps=1e-3, bias=False),
     "BatchNorm3d(2, eps=0.001, momentum=0.1, affine=True, bias=False, track_running_stats=True)"),
])
def test_batchnorm_repr_matches_pytorch(make: object, text: str) -> None:
    assert repr(make()) == text


# --------------------------------------------------------------------------- LayerNorm, GroupNorm, RMSNorm
@pytest.mark.parametrize("shape, normalized", [((4, 5), (5,)), ((2, 3, 4, 5), (4, 5)), ((3, 4), (3, 4))])
def test_layer_norm_forward_matches_numpy(shape: tuple, normalized: tuple, device: str) -> None:
    module = nn.LayerNorm(normalized).double()
    _params(module, 8)
    x = np.random.default_rng(9).standard_normal(shape) * 2 + 1
    y = module.to(device)(tf.tensor(x, device=device))
    axes = tuple(range(len(shape) - len(normalized), len(shape)))
    np.testing.assert_allclose(_host(y), _np_normalize(x, axes) * _host(module.weight) + _host(module.bias),
                               atol=1e-12)


@pytest.mark.parametrize("groups", [1, 2, 4])
def test_group_norm_forward_matches_numpy(groups: int, device: str) -> None:
    module = nn.GroupNorm(groups, 4).double()
    _params(module, 10)
    x = np.random.default_rng(11).standard_normal((3, 4, 2, 3))
    y = module.to(device)(tf.tensor(x, device=device))
    grouped = x.reshape(3, groups, -1)
    ref = _np_normalize(grouped, (2,)).reshape(x.shape) * _host(module.weight).reshape(-1, 1, 1) \
        + _host(module.bias).reshape(-1, 1, 1)
    np.testing.assert_allclose(_host(y), ref, atol=1e-12)


def test_rms_norm_forward_matches_numpy() -> None:
    module = nn.RMSNorm([2, 3]).double()
    _params(module, 12)
    x = np.random.default_rng(13).standard_normal((4, 2, 3))
    ref = x / np.sqrt((x * x).mean(axis=(1, 2), keepdims=True) + np.finfo(np.float64).eps) * _host(module.weight)
    np.testing.assert_allclose(_host(module(tf.tensor(x))), ref, atol=1e-12)


@pytest.mark.parametrize("make, shape", [
    (lambda: nn.LayerNorm(4), (3, 4)), (lambda: nn.LayerNorm((2, 3)), (2, 2, 3)),
    (lambda: nn.LayerNorm(4, elementwise_affine=False), (2, 3, 4)), (lambda: nn.LayerNorm(4, bias=False), (3, 4)),
    (lambda: nn.GroupNorm(2, 4), (2, 4, 3)), (lambda: nn.GroupNorm(1, 2, affine=False), (2, 2, 2, 2)),
    (lambda: nn.GroupNorm(2, 4, bias=False), (3, 4)), (lambda: nn.RMSNorm(3), (2, 3)),
])
def test_per_sample_norms_gradients_to_second_order(make: object, shape: tuple) -> None:
    module = make().double()
    _params(module, 14)
    x = tf.tensor(np.random.default_rng(15).standard_normal(shape), requires_grad=True)
    params = list(module.parameters())
    assert gradcheck(lambda x, *_: module(x), (x, *params))
    assert gradgradcheck(lambda x, *_: module(x), (x, *params))


def test_norm_gradients_of_the_parameters_alone() -> None:
    module = nn.LayerNorm(3).double()
    x = tf.randn(4, 3, dtype=tf.float64)  # the input needs no gradient
    assert gradcheck(lambda w, b: module(x), (module.weight, module.bias))
    group = nn.GroupNorm(2, 4).double()
    x = tf.randn(2, 4, 3, dtype=tf.float64)
    assert gradcheck(lambda w, b: group(x), (group.weight, group.bias))


def test_per_sample_norm_grad_fn_names_and_dtype() -> None:
    x = tf.randn(2, 4, 3, requires_grad=True)
    y = nn.LayerNorm(3)(x)
    assert y.grad_fn.name() == "NativeLayerNormBackward0" and y.dtype == tf.float32
    y = nn.GroupNorm(2, 4)(x)
    assert y.grad_fn.name() == "NativeGroupNormBackward0" and y.dtype == tf.float32
    assert nn.RMSNorm(3)(x).dtype == tf.float32


def test_per_sample_norm_state_dicts_and_init() -> None:
    assert list(nn.LayerNorm(4).state_dict()) == ["weight", "bias"]
    assert list(nn.LayerNorm(4, bias=False).state_dict()) == ["weight"]
    assert list(nn.LayerNorm(4, elementwise_affine=False).state_dict()) == []
    assert list(nn.GroupNorm(2, 4).state_dict()) == ["weight", "bias"]
    assert list(nn.RMSNorm(4).state_dict()) == ["weight"]
    layer = nn.LayerNorm((2, 3))
    assert layer.weight.shape == (2, 3)
    np.testing.assert_array_equal(_host(layer.weight), np.ones((2, 3)))
    np.testing.assert_array_equal(_host(layer.bias), np.zeros((2, 3)))


@pytest.mark.parametrize("make, text", [
    (lambda: nn.LayerNorm(4), "LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)"),
    (lambda: nn.LayerNorm((3, 4), elementwise_affine=False),
     "LayerNorm((3, 4), eps=1e-05, elementwise_affine=False, bias=False)"),
    (lambda: nn.GroupNorm(2, 4), "GroupNorm(2, 4, eps=1e-05, affine=True, bias=True)"),
    (lambda: nn.GroupNorm(2, 4, affine=False), "GroupNorm(2, 4, eps=1e-05, affine=False, bias=False)"),
    (lambda: nn.RMSNorm(4), "RMSNorm((4,), eps=None, elementwise_affine=True)"),
])
def test_per_sample_norm_repr_matches_pytorch(make: object, text: str) -> None:
    assert repr(make()) == text


def test_per_sample_norm_errors_match_pytorch() -> None:
    x = tf.randn(2, 3, 4, 5)
    with pytest.raises(RuntimeError, match=r"Given normalized_shape=\[4\], expected input with shape \[\*, 4\], "
                                           r"but got input of size\[2, 3, 4, 5\]"):
        F.layer_norm(x, (4,))
    with pytest.raises(RuntimeError, match="Expected weight to be of same shape as normalized_shape"):
        F.layer_norm(x, (5,), tf.ones(4))
    with pytest.raises(RuntimeError, match="Expected number of channels in input to be divisible by num_groups"):
        F.group_norm(x, 2)
    with pytest.raises(ValueError, match=r"num_channels \(3\) must be divisible by num_groups \(2\)"):
        nn.GroupNorm(2, 3)
    with pytest.raises(NotImplementedError, match="not implemented for 'Long'"):
        F.layer_norm(tf.ones(2, 3, dtype=tf.int64), (3,))
