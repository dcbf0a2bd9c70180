"""``nn.init.dirac_`` / ``sparse_`` and the deprecated un-underscored initialisers, and
``nn.utils.stateless.functional_call``, as in PyTorch 2.13."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import tinyframe as tf
import tinyframe.nn as nn
import tinyframe.nn.functional as F
from tinyframe.nn import init
from tinyframe.nn.utils.stateless import functional_call


def test_dirac_makes_the_identity_convolution_per_group() -> None:
    weight = init.dirac_(tf.empty(4, 2, 3), groups=2)
    expected = np.zeros((4, 2, 3))
    expected[0, 0, 1] = expected[1, 1, 1] = expected[2, 0, 1] = expected[3, 1, 1] = 1
    np.testing.assert_array_equal(weight.numpy(), expected)
    x = tf.randn(1, 3, 5, 5)
    np.testing.assert_allclose(F.conv2d(x, init.dirac_(tf.empty(3, 3, 3, 3)), padding=1).numpy(), x.numpy(),
                               rtol=1e-6)


def test_sparse_zeroes_the_same_number_of_rows_in_each_column() -> None:
    weight = init.sparse_(tf.empty(10, 4), 0.3, std=0.5).numpy()
    assert ((weight == 0).sum(axis=0) == 3).all()


def test_deprecated_initialisers_warn_and_initialise() -> None:
    weight = tf.empty(3, 4)
    with pytest.warns(FutureWarning, match=r"`nn.init.xavier_uniform` is now deprecated in favor of "
                                           r"`nn.init.xavier_uniform_`"):
        init.xavier_uniform(weight)
    assert np.abs(weight.numpy()).max() <= np.sqrt(6 / 7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_array_equal(init.constant(tf.empty(2), 3.0).numpy(), [3.0, 3.0])


def test_functional_call_uses_the_given_tensors_and_leaves_the_module() -> None:
    model = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
    params = {name: p.detach().clone().mul(2.0).requires_grad_() for name, p in model.named_parameters()}
    x = tf.randn(4, 3)
    with pytest.warns(FutureWarning, match="Please use torch.func.functional_call"):
        out = functional_call(model, params, (x,))
    hidden = F.relu(F.linear(x, params["0.weight"], params["0.bias"]))
    expected = F.linear(hidden, params["2.weight"], params["2.bias"])
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), rtol=1e-6)
    out.sum().backward()
    assert params["0.weight"].grad is not None and model[0].weight.grad is None
    assert isinstance(model[0].weight, nn.Parameter)


def test_functional_call_strict_reports_missing_keys() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError, match="Missing key"):
            functional_call(nn.Linear(2, 2), {"weight": tf.ones(2, 2)}, tf.ones(1, 2), strict=True)


def _trained_bn(bn: nn.Module, producer: nn.Module, shape: tuple) -> nn.Module:
    bn.train()
    for _ in range(3):
        bn(producer(tf.randn(*shape)))
    return bn.eval()


def test_fuse_conv_bn_eval_computes_bn_of_conv() -> None:
    from tinyframe.nn.utils import fuse_conv_bn_eval
    conv = nn.Conv2d(2, 3, 3).eval()
    bn = _trained_bn(nn.BatchNorm2d(3), conv, (4, 2, 5, 5))
    x = tf.randn(2, 2, 5, 5)
    fused = fuse_conv_bn_eval(conv, bn)
    assert type(fused) is nn.Conv2d and fused is not conv
    np.testing.assert_allclose(fused(x).detach().numpy(), bn(conv(x)).detach().numpy(), atol=1e-5)
    transposed = nn.ConvTranspose2d(2, 3, 2).eval()
    np.testing.assert_allclose(fuse_conv_bn_eval(transposed, bn, transpose=True)(x).detach().numpy(),
                               bn(transposed(x)).detach().numpy(), atol=1e-5)
    with pytest.raises(AssertionError, match="Fusion only for eval!"):
        fuse_conv_bn_eval(conv.train(), bn)


def test_fuse_linear_bn_eval_computes_bn_of_linear() -> None:
    from tinyframe.nn.utils import fuse_linear_bn_eval
    linear = nn.Linear(3, 4).eval()
    bn = _trained_bn(nn.BatchNorm1d(4), linear, (8, 3))
    x = tf.randn(5, 3)
    np.testing.assert_allclose(fuse_linear_bn_eval(linear, bn)(x).detach().numpy(), bn(linear(x)).detach().numpy(),
                               atol=1e-5)


def test_skip_init_and_memory_format_helpers() -> None:
    from tinyframe.nn.utils import convert_conv2d_weight_memory_format, skip_init
    tf.manual_seed(0)
    layer = skip_init(nn.Linear, 3, 4)
    assert layer.weight.shape == (4, 3)
    after = tf.rand(2)
    tf.manual_seed(0)
    assert tf.equal(after, tf.rand(2))  # built on the meta device, PyTorch's module draws no random numbers
    conv = nn.Conv2d(1, 1, 1)
    assert convert_conv2d_weight_memory_format(conv, None) is conv
