"""Convolution and pooling layers and ``F.pad``: forward against naive NumPy loops, gradients in
float64, initialisation bounds, printing, state_dict keys and errors (PyTorch 2.13's wording)."""
from __future__ import annotations

import math

import numpy as np
import pytest

import tinyframe as tf
import tinyframe.nn as nn
import tinyframe.nn.functional as F
from tinyframe.autograd import gradcheck, gradgradcheck


def _host(t: tf.Tensor) -> np.ndarray:
    return t.detach().cpu().numpy()


# --------------------------------------------------------------------------- NumPy references
def _np_conv2d(x: np.ndarray, w: np.ndarray, b: np.ndarray | None, stride: tuple, padding: tuple,
               dilation: tuple, groups: int) -> np.ndarray:
    """Cross-correlation by explicit loops over output positions and kernel taps."""
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (padding[0], padding[0]), (padding[1], padding[1])))
    oh = (h + 2 * padding[0] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd + 2 * padding[1] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, o, oh, ow))
    per_group = o // groups
    for oc in range(o):
        g = oc // per_group
        for i in range(oh):
            for j in range(ow):
                for p in range(kh):
                    for q in range(kw):
                        row, col = i * stride[0] + p * dilation[0], j * stride[1] + q * dilation[1]
                        out[:, oc, i, j] += xp[:, g * cg:(g + 1) * cg, row, col] @ w[oc, :, p, q]
    return out + (b.reshape(-1, 1, 1) if b is not None else 0)


def _np_conv_transpose2d(x: np.ndarray, w: np.ndarray, b: np.ndarray | None, stride: tuple, padding: tuple,
                         output_padding: tuple) -> np.ndarray:
    """Each input pixel scatters ``x * w`` into the output (groups=1, dilation=1)."""
    n, c, h, wd = x.shape
    _, o, kh, kw = w.shape
    full = np.zeros((n, o, (h - 1) * stride[0] + kh + output_padding[0], (wd - 1) * stride[1] + kw + output_padding[1]))
    for i in range(h):
        for j in range(wd):
            full[:, :, i * stride[0]:i * stride[0] + kh, j * stride[1]:j * stride[1] + kw] += \
                np.einsum("nc,cokl->nokl", x[:, :, i, j], w)
    oh = (h - 1) * stride[0] - 2 * padding[0] + kh + output_padding[0]
    ow = (wd - 1) * stride[1] - 2 * padding[1] + kw + output_padding[1]
    out = full[:, :, padding[0]:padding[0] + oh, padding[1]:padding[1] + ow]
    return out + (b.reshape(-1, 1, 1) if b is not None else 0)


def _np_pool2d(x: np.ndarray, kernel: int, stride: int, padding: int, reduce: object, fill: float) -> np.ndarray:
    xp = np.pad(x, ((0, 0), (0, 0), (padding, padding), (padding, padding)), constant_values=fill)
    oh = (x.shape[2] + 2 * padding - kernel) // stride + 1
    ow = (x.shape[3] + 2 * padding - kernel) // stride + 1
    out = np.zeros(x.shape[:2] + (oh, ow))
    for i in range(oh):
        for j in range(ow):
            window = xp[:, :, i * stride:i * stride + kernel, j * stride:j * stride + kernel]
            out[:, :, i, j] = reduce(window, axis=(2, 3))
    return out


def _gradcheck_module(module: nn.Module, x: tf.Tensor) -> None:
    assert gradcheck(lambda x, *_: module(x), (x, *module.parameters()))


# --------------------------------------------------------------------------- Conv2d / Conv1d
CONV2D = [
    {}, {"stride": 2, "padding": 1}, {"padding": (1, 2), "dilation": (2, 1)}, {"groups": 2, "bias": False},
    {"stride": (2, 1), "padding": 2, "dilation": 2, "groups": 2},
]


@pytest.mark.parametrize("kwargs", CONV2D, ids=[str(sorted(k.items())) for k in CONV2D])
def test_conv2d_forward_matches_numpy(kwargs: dict, device: str) -> None:
    module = nn.Conv2d(4, 6, (3, 2), **kwargs).double()
    x = np.random.default_rng(0).standard_normal((2, 4, 7, 6))
    y = module.to(device)(tf.tensor(x, device=device))
    ref = _np_conv2d(x, _host(module.weight), _host(module.bias) if module.bias is not None else None,
                     module.stride, module.padding, module.dilation, module.groups)
    np.testing.assert_allclose(_host(y), ref, atol=1e-12)


@pytest.mark.parametrize("padding_mode, numpy_mode", [("reflect", "reflect"), ("replicate", "edge"),
                                                      ("circular", "wrap")])
def test_conv2d_padding_modes_pad_then_convolve(padding_mode: str, numpy_mode: str) -> None:
    module = nn.Conv2d(2, 3, 3, padding=(1, 2), padding_mode=padding_mode).double()
    x = np.random.default_rng(1).standard_normal((2, 2, 5, 6))
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (2, 2)), mode=numpy_mode)
    ref = _np_conv2d(padded, _host(module.weight), _host(module.bias), (1, 1), (0, 0), (1, 1), 1)
    np.testing.assert_allclose(_host(module(tf.tensor(x))), ref, atol=1e-12)


@pytest.mark.parametrize("padding, kernel, dilation", [("same", (3, 4), (1, 1)), ("same", 3, 2), ("valid", 3, 1)])
def test_conv2d_string_padding(padding: str, kernel: object, dilation: object) -> None:
    module = nn.Conv2d(2, 3, kernel, padding=padding, dilation=dilation).double()
    x = tf.randn(1, 2, 6, 7, dtype=tf.float64)
    y = module(x)
    if padding == "same":
        assert y.shape[2:] == x.shape[2:]
    else:
        assert y.shape == (1, 3, 4, 5)


def test_conv1d_is_conv2d_of_height_one(device: str) -> None:
    module = nn.Conv1d(3, 4, 3, stride=2, padding=1, dilation=2).double()
    x = np.random.default_rng(2).standard_normal((2, 3, 9))
    y = module.to(device)(tf.tensor(x, device=device))
    ref = _np_conv2d(x[:, :, None], _host(module.weight)[:, :, None], _host(module.bias), (1, 2), (0, 1), (1, 2), 1)
    np.testing.assert_allclose(_host(y), ref[:, :, 0], atol=1e-12)
    assert module(tf.tensor(x[0], device=device)).shape == (4, 4)  # unbatched


@pytest.mark.parametrize("make, shape", [
    (lambda: nn.Conv2d(2, 4, 3, padding=1, groups=2), (2, 2, 4, 4)),
    (lambda: nn.Conv2d(2, 3, 2, stride=2, padding_mode="reflect", padding=1), (1, 2, 4, 5)),
    (lambda: nn.Conv1d(2, 3, 3, padding="same", padding_mode="circular"), (2, 2, 5)),
    (lambda: nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1, output_padding=1), (1, 2, 3, 3)),
    (lambda: nn.ConvTranspose1d(2, 2, 2, stride=2, groups=2, bias=False), (2, 2, 3)),
])
def test_conv_gradcheck_in_float64(make: object, shape: tuple) -> None:
    module = make().double()
    _gradcheck_module(module, tf.randn(*shape, dtype=tf.float64, requires_grad=True))


def test_conv_second_order_gradients() -> None:
    module = nn.Conv2d(2, 2, 2, padding=1).double()
    x = tf.randn(1, 2, 3, 3, dtype=tf.float64, requires_grad=True)
    assert gradgradcheck(lambda x, w: module(x), (x, module.weight))


# --------------------------------------------------------------------------- ConvTranspose
@pytest.mark.parametrize("stride, padding, output_padding", [(1, 0, 0), (2, 1, 1), ((2, 3), (0, 1), (1, 2))])
def test_conv_transpose2d_forward_matches_numpy(stride: object, padding: object, output_padding: object,
                                                device: str) -> None:
    module = nn.ConvTranspose2d(3, 2, (3, 4), stride=stride, padding=padding, output_padding=output_padding).double()
    x = np.random.default_rng(3).standard_normal((2, 3, 4, 3))
    y = module.to(device)(tf.tensor(x, device=device))
    ref = _np_conv_transpose2d(x, _host(module.weight), _host(module.bias), module.stride, module.padding,
                               module.output_padding)
    np.testing.assert_allclose(_host(y), ref, atol=1e-12)


def test_conv_transpose2d_output_size_picks_output_padding() -> None:
    module = nn.ConvTranspose2d(3, 4, 3, stride=2, padding=1)
    x = tf.randn(2, 3, 4, 5)
    assert module(x).shape == (2, 4, 7, 9)
    assert module(x, output_size=[8, 10]).shape == (2, 4, 8, 10)
    assert module(x, output_size=(2, 4, 7, 10)).shape == (2, 4, 7, 10)
    with pytest.raises(ValueError, match=r"requested an output size of \[9, 10\], but valid sizes range from "
                                         r"\[7, 9\] to \[8, 10\]"):
        module(x, output_size=[9, 10])


# --------------------------------------------------------------------------- parameters and printing
@pytest.mark.parametrize("make, fan_in", [
    (lambda: nn.Conv2d(8, 16, 3), 8 * 9), (lambda: nn.Conv2d(8, 16, (3, 5), groups=4), 2 * 15),
    (lambda: nn.Conv1d(4, 8, 5), 20), (lambda: nn.ConvTranspose2d(8, 12, 3, groups=2), 6 * 9),
])
def test_conv_init_is_uniform_within_one_over_sqrt_fan_in(make: object, fan_in: int) -> None:
    tf.manual_seed(0)
    module = make()
    bound = 1 / math.sqrt(fan_in)
    weight, bias = _host(module.weight), _host(module.bias)
    assert np.abs(weight).max() <= bound and np.abs(weight).max() > 0.9 * bound
    assert np.abs(bias).max() <= bound
    assert abs(weight.std() - bound / math.sqrt(3)) < 0.15 * bound


def test_conv_parameter_shapes_and_state_dict_keys() -> None:
    assert nn.Conv2d(4, 6, (3, 2), groups=2).weight.shape == (6, 2, 3, 2)
    assert nn.ConvTranspose2d(4, 6, 3, groups=2).weight.shape == (4, 3, 3, 3)
    assert nn.Conv1d(2, 3, 5).weight.shape == (3, 2, 5)
    assert list(nn.Conv2d(1, 2, 3).state_dict()) == ["weight", "bias"]
    assert list(nn.Conv1d(1, 2, 3, bias=False).state_dict()) == ["weight"]
    assert list(nn.ConvTranspose2d(1, 2, 3).state_dict()) == ["weight", "bias"]


REPRS = [
    (lambda: nn.Conv2d(1, 16, 3, padding=1), "Conv2d(1, 16, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))"),
    (lambda: nn.Conv2d(1, 16, 3, padding="same"), "Conv2d(1, 16, kernel_size=(3, 3), stride=(1, 1), padding=same)"),
    (lambda: nn.Conv2d(2, 4, (3, 5), stride=2, dilation=2, groups=2, bias=False, padding_mode="reflect"),
     "Conv2d(2, 4, kernel_size=(3, 5), stride=(2, 2), dilation=(2, 2), groups=2, bias=False, padding_mode=reflect)"),
    (lambda: nn.Conv1d(1, 16, 3), "Conv1d(1, 16, kernel_size=(3,), stride=(1,))"),
    (lambda: nn.ConvTranspose2d(3, 4, 3, stride=2, output_padding=1),
     "ConvTranspose2d(3, 4, kernel_size=(3, 3), stride=(2, 2), output_padding=(1, 1))"),
    (lambda: nn.ConvTranspose1d(3, 4, 3), "ConvTranspose1d(3, 4, kernel_size=(3,), stride=(1,))"),
    (lambda: nn.MaxPool2d(2), "MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)"),
    (lambda: nn.MaxPool2d(3, 2, 1, ceil_mode=True),
     "MaxPool2d(kernel_size=3, stride=2, padding=1, dilation=1, ceil_mode=True)"),
    (lambda: nn.MaxPool1d(3), "MaxPool1d(kernel_size=3, stride=3, padding=0, dilation=1, ceil_mode=False)"),
    (lambda: nn.AvgPool2d(2), "AvgPool2d(kernel_size=2, stride=2, padding=0)"),
    (lambda: nn.AvgPool1d(2), "AvgPool1d(kernel_size=(2,), stride=(2,), padding=(0,))"),
    (lambda: nn.AdaptiveAvgPool2d((5, None)), "AdaptiveAvgPool2d(output_size=(5, None))"),
    (lambda: nn.AdaptiveAvgPool1d(3), "AdaptiveAvgPool1d(output_size=3)"),
]


@pytest.mark.parametrize("make, text", REPRS, ids=[t for _, t in REPRS])
def test_repr_matches_pytorch(make: object, text: str) -> None:
    assert repr(make()) == text


def test_conv_constructor_errors_match_pytorch() -> None:
    with pytest.raises(ValueError, match="in_channels must be divisible by groups"):
        nn.Conv2d(3, 4, 3, groups=2)
    with pytest.raises(ValueError, match="out_channels must be divisible by groups"):
        nn.Conv2d(4, 3, 3, groups=2)
    with pytest.raises(ValueError, match="groups must be a positive integer"):
        nn.Conv2d(4, 4, 3, groups=0)
    with pytest.raises(ValueError, match="Invalid padding string 'full'"):
        nn.Conv2d(1, 1, 3, padding="full")
    with pytest.raises(ValueError, match="padding='same' is not supported for strided convolutions"):
        nn.Conv2d(1, 1, 3, padding="same", stride=2)
    with pytest.raises(ValueError, match="padding_mode must be one of"):
        nn.Conv2d(1, 1, 3, padding_mode="mirror")
    with pytest.raises(ValueError, match='Only "zeros" padding mode is supported for ConvTranspose2d'):
        nn.ConvTranspose2d(1, 1, 3, padding_mode="reflect")


def test_conv_float32_and_grad_fn() -> None:
    y = nn.Conv2d(2, 3, 3)(tf.randn(1, 2, 5, 5, requires_grad=True))
    assert y.dtype == tf.float32 and y.grad_fn.name() == "ConvolutionBackward0"


# --------------------------------------------------------------------------- pooling
def test_max_and_avg_pool2d_match_numpy(device: str) -> None:
    x = np.random.default_rng(4).standard_normal((2, 3, 7, 6))
    t = tf.tensor(x, device=device)
    np.testing.assert_allclose(_host(nn.MaxPool2d(3, 2, 1)(t)), _np_pool2d(x, 3, 2, 1, np.max, -np.inf))
    np.testing.assert_allclose(_host(nn.AvgPool2d(2)(t)), _np_pool2d(x, 2, 2, 0, np.mean, 0.0), atol=1e-12)
    np.testing.assert_allclose(_host(nn.AvgPool2d(3, 1, 1)(t)), _np_pool2d(x, 3, 1, 1, np.mean, 0.0), atol=1e-12)
    np.testing.assert_allclose(_host(nn.AdaptiveAvgPool2d((1, 1))(t)), x.mean(axis=(2, 3), keepdims=True),
                               atol=1e-12)
    np.testing.assert_allclose(_host(nn.AdaptiveAvgPool2d((7, 3))(t)), x.reshape(2, 3, 7, 3, 2).mean(-1), atol=1e-12)


def test_pool1d_and_return_indices() -> None:
    x = np.random.default_rng(5).standard_normal((2, 3, 8))
    t = tf.tensor(x)
    np.testing.assert_allclose(_host(nn.MaxPool1d(2)(t)), x.reshape(2, 3, 4, 2).max(-1))
    np.testing.assert_allclose(_host(nn.AvgPool1d(4)(t)), x.reshape(2, 3, 2, 4).mean(-1), atol=1e-12)
    np.testing.assert_allclose(_host(nn.AdaptiveAvgPool1d(2)(t)), x.reshape(2, 3, 2, 4).mean(-1), atol=1e-12)
    values, indices = nn.MaxPool1d(2, return_indices=True)(t)
    np.testing.assert_array_equal(_host(indices), x.reshape(2, 3, 4, 2).argmax(-1) + np.arange(0, 8, 2))
    assert indices.dtype == tf.int64 and values.shape == (2, 3, 4)


@pytest.mark.parametrize("module", [nn.MaxPool2d(2, 1), nn.AvgPool2d(3, 2, 1, count_include_pad=False),
                                    nn.AdaptiveAvgPool2d((2, 3)), nn.MaxPool1d(3, 2, 1), nn.AvgPool1d(2)],
                         ids=repr)
def test_pool_gradcheck_in_float64(module: nn.Module) -> None:
    shape = (2, 2, 5) if "1d" in type(module).__name__ else (1, 2, 4, 5)
    values = np.random.default_rng(6).permutation(int(np.prod(shape))).reshape(shape) / 7.0  # no ties for max
    assert gradcheck(module, (tf.tensor(values, requires_grad=True),))


def test_pool_modules_have_no_state() -> None:
    for module in (nn.MaxPool2d(2), nn.AvgPool1d(2), nn.AdaptiveAvgPool2d(1)):
        assert list(module.state_dict()) == [] and list(module.parameters()) == []


# --------------------------------------------------------------------------- F.pad
@pytest.mark.parametrize("mode, numpy_mode", [("reflect", "reflect"), ("replicate", "edge"), ("circular", "wrap")])
@pytest.mark.parametrize("pad", [(1, 2), (2, 1, 1, 0), (1, 1, 0, 2, 2, 1)])
def test_pad_modes_match_numpy(mode: str, numpy_mode: str, pad: tuple, device: str) -> None:
    dims = len(pad) // 2
    x = np.random.default_rng(7).standard_normal((2, 3) + (3, 4, 4)[3 - dims:])  # (N, C, *) with `dims` padded
    widths = [(0, 0)] * x.ndim
    for i in range(dims):
        widths[x.ndim - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    y = F.pad(tf.tensor(x, device=device), pad, mode=mode)
    np.testing.assert_allclose(_host(y), np.pad(x, widths, mode=numpy_mode))


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular", "constant"])
def test_pad_gradients_to_second_order(mode: str) -> None:
    x = tf.randn(1, 2, 3, 4, dtype=tf.float64, requires_grad=True)
    assert gradcheck(lambda x: F.pad(x, (2, 1, 1, 2), mode=mode), (x,))
    assert gradgradcheck(lambda x: F.pad(x, (2, 1, 1, 2), mode=mode), (x,))


def test_pad_constant_value_negative_pads_and_grad_fn_names() -> None:
    x = tf.arange(6.0).reshape(1, 2, 3).requires_grad_()
    y = F.pad(x, (1, -1), value=9.0)
    np.testing.assert_array_equal(_host(y), [[[9, 0, 1], [9, 3, 4]]])
    assert y.grad_fn.name() == "ConstantPadNdBackward0"
    assert F.pad(x, (1, 1), mode="reflect").grad_fn.name() == "ReflectionPad1DBackward0"
    assert F.pad(x.reshape(1, 1, 2, 3), (1, 1, 1, 1), mode="replicate").grad_fn.name() == "ReplicationPad2DBackward0"
    assert F.pad(x, (1, 1), mode="circular").grad_fn.name() == "torch::autograd::CopySlices"
    np.testing.assert_array_equal(_host(F.pad(x, (-1, 2), mode="circular")), [[[1, 2, 1, 2], [4, 5, 4, 5]]])
    np.testing.assert_array_equal(_host(F.pad(x, (-1, 2), mode="reflect")), [[[1, 2, 1, 0], [4, 5, 4, 3]]])


def test_pad_errors_match_pytorch() -> None:
    x = tf.randn(1, 2, 3)
    with pytest.raises(RuntimeError, match=r"Padding size should be less than the corresponding input dimension, "
                                           r"but got: padding \(3, 3\) at dimension 2 of input \[1, 2, 3\]"):
        F.pad(x, (3, 3), mode="reflect")
    with pytest.raises(RuntimeError, match="Padding value causes wrapping around more than once"):
        F.pad(x, (4, 3), mode="circular")
    with pytest.raises(NotImplementedError, match="Padding size 2 is not supported for 1D input tensor"):
        F.pad(tf.randn(3), (1, 1), mode="replicate")
    with pytest.raises(NotImplementedError, match="Unrecognised padding mode foo"):
        F.pad(x, (1, 1), mode="foo")
    with pytest.raises(RuntimeError, match='Padding mode "reflect" doesn\'t take in value argument'):
        F.pad(x, (1, 1), mode="reflect", value=2)
    with pytest.raises(RuntimeError, match="Padding length must be divisible by 2"):
        F.pad(x, (1, 1, 1), mode="reflect")


def test_functional_names_exported() -> None:
    for name in ("conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d", "max_pool1d", "max_pool2d",
                 "avg_pool1d", "avg_pool2d", "adaptive_avg_pool1d", "adaptive_avg_pool2d", "pad"):
        assert callable(getattr(F, name)) and name in F.__all__
