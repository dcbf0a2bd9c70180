"""Lazy layers: uninitialised parameters until the first input, then the ordinary layer (class,
repr, parameter shapes and initialisation), as in PyTorch 2.13."""
from __future__ import annotations

import numpy as np

import tinyframe as tf
import tinyframe.nn as nn


def test_lazy_linear_before_and_after_its_first_input() -> None:
    layer = nn.LazyLinear(5)
    assert repr(layer) == "LazyLinear(in_features=0, out_features=5, bias=True)"
    assert isinstance(layer.weight, nn.UninitializedParameter) and repr(layer.weight) == "<UninitializedParameter>"
    assert list(layer.state_dict()) == ["weight", "bias"]
    optimizer = tf.optim.SGD(layer.parameters(), lr=0.1)  # made before the shapes are known, as PyTorch allows
    out = layer(tf.randn(2, 3))
    assert type(layer) is nn.Linear and repr(layer) == "Linear(in_features=3, out_features=5, bias=True)"
    assert out.shape == (2, 5) and type(layer.weight) is nn.Parameter and layer.weight.shape == (5, 3)
    bound = 1 / np.sqrt(3)
    assert np.abs(layer.weight.detach().numpy()).max() <= bound
    before = layer.weight.detach().numpy().copy()
    layer(tf.randn(2, 3)).sum().backward()
    optimizer.step()
    assert not np.allclose(layer.weight.detach().numpy(), before)


def test_lazy_convolutions_infer_in_channels() -> None:
    conv = nn.LazyConv2d(4, 3)
    assert repr(conv) == "LazyConv2d(0, 4, kernel_size=(3, 3), stride=(1, 1))"
    conv(tf.randn(1, 2, 5, 5))
    assert type(conv) is nn.Conv2d and conv.weight.shape == (4, 2, 3, 3) and conv.in_channels == 2
    transposed = nn.LazyConvTranspose2d(4, 3, stride=2, groups=2)
    assert transposed(tf.randn(1, 6, 3, 3)).shape == (1, 4, 7, 7)
    assert repr(transposed) == "ConvTranspose2d(6, 4, kernel_size=(3, 3), stride=(2, 2), groups=2)"
    assert transposed.weight.shape == (6, 2, 3, 3)
    unbatched = nn.LazyConv1d(3, 2)
    assert unbatched(tf.randn(5, 7)).shape == (3, 6) and unbatched.weight.shape == (3, 5, 2)


def test_lazy_norms_infer_num_features() -> None:
    norm = nn.LazyBatchNorm2d()
    assert repr(norm) == "LazyBatchNorm2d(0, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)"
    assert isinstance(norm.running_mean, nn.UninitializedBuffer)
    x = tf.randn(2, 3, 2, 2)
    norm(x)
    assert type(norm) is nn.BatchNorm2d and norm.num_features == 3
    np.testing.assert_allclose(norm.running_mean.numpy(), 0.1 * x.numpy().mean(axis=(0, 2, 3)), rtol=1e-5)
    instance = nn.LazyInstanceNorm1d()
    instance(tf.randn(2, 3, 4))
    assert repr(instance) == ("InstanceNorm1d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, "
                              "track_running_stats=True)")
    assert list(instance.state_dict()) == ["weight", "bias", "running_mean", "running_var", "num_batches_tracked"]
