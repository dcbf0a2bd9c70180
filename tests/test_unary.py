"""Unary ops and activations: PyTorch's grad_fn names, dtype rules and numbers the registry can't express."""
from __future__ import annotations

import inspect
import math
import warnings

import numpy as np
import pytest

import tinyframe as tf
from tinyframe.ops import unary


def _leaf(values: list, device: str, dtype: tf.dtype = tf.float64) -> tf.Tensor:
    return tf.tensor(values, dtype=dtype, device=device, requires_grad=True)


def _host(t: tf.Tensor) -> np.ndarray:
    return t.detach().cpu().numpy()


GRAD_FN_NAMES = [
    (tf.neg, "NegBackward0"), (tf.abs, "AbsBackward0"), (tf.exp, "ExpBackward0"), (tf.exp2, "Exp2Backward0"),
    (tf.expm1, "Expm1Backward0"), (tf.log, "LogBackward0"), (tf.log2, "Log2Backward0"),
    (tf.log10, "Log10Backward0"), (tf.log1p, "Log1PBackward0"), (tf.sqrt, "SqrtBackward0"),
    (tf.rsqrt, "RsqrtBackward0"), (tf.square, "PowBackward0"), (tf.reciprocal, "ReciprocalBackward0"),
    (tf.sin, "SinBackward0"), (tf.cos, "CosBackward0"), (tf.tan, "TanBackward0"), (tf.tanh, "TanhBackward0"),
    (tf.sinh, "SinhBackward0"), (tf.cosh, "CoshBackward0"), (tf.asin, "AsinBackward0"),
    (tf.acos, "AcosBackward0"), (tf.atan, "AtanBackward0"), (tf.sigmoid, "SigmoidBackward0"),
    (tf.relu, "ReluBackward0"), (tf.erf, "ErfBackward0"), (tf.sign, "SignBackward0"),
    (tf.floor, "FloorBackward0"), (tf.ceil, "CeilBackward0"), (tf.round, "RoundBackward0"),
    (lambda x: tf.round(x, decimals=2), "RoundBackward1"), (tf.trunc, "TruncBackward0"),
    (tf.fix, "TruncBackward0"), (tf.negative, "NegBackward0"), (tf.arcsin, "AsinBackward0"),
    (unary.silu, "SiluBackward0"), (unary.gelu, "GeluBackward0"),
    (lambda x: unary.gelu(x, approximate="tanh"), "GeluBackward0"), (unary.softplus, "SoftplusBackward0"),
    (unary.leaky_relu, "LeakyReluBackward0"), (unary.elu, "EluBackward0"), (unary.hardtanh, "HardtanhBackward0"),
    (unary.logsigmoid, "LogSigmoidBackward0"),
]


@pytest.mark.parametrize("fn, name", GRAD_FN_NAMES, ids=[name for _, name in GRAD_FN_NAMES])
def test_grad_fn_names_match_pytorch(fn, name: str, device: str) -> None:
    x = _leaf([0.25, 0.5], device)
    assert fn(x).grad_fn.name() == name


def test_tensor_methods_reach_the_same_ops(device: str) -> None:
    x = _leaf([0.25, 0.5], device)
    assert x.exp().grad_fn.name() == "ExpBackward0"
    assert x.log1p().grad_fn.name() == "Log1PBackward0"
    assert x.round(decimals=1).grad_fn.name() == "RoundBackward1"
    assert (-x).grad_fn.name() == "NegBackward0"
    assert abs(x).grad_fn.name() == "AbsBackward0"


def test_only_torch_level_activations_are_top_level() -> None:
    for name in ("sigmoid", "relu", "tanh"):
        assert inspect.unwrap(getattr(tf, name)) is getattr(unary, name)  # the top level adds out=
    for name in ("silu", "gelu", "softplus", "leaky_relu", "elu", "hardtanh", "logsigmoid"):
        assert not hasattr(tf, name)
        assert name not in unary.__all__


FLOAT_RESULT_OPS = [tf.exp, tf.exp2, tf.expm1, tf.log, tf.log2, tf.log10, tf.log1p, tf.sqrt, tf.rsqrt,
                    tf.reciprocal, tf.sin, tf.cos, tf.tan, tf.tanh, tf.sinh, tf.cosh, tf.asin, tf.acos,
                    tf.atan, tf.sigmoid, tf.erf]


@pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning")  # log(0), 1 / 0: -inf, inf as in PyTorch
@pytest.mark.parametrize("fn", FLOAT_RESULT_OPS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", [tf.int64, tf.int32, tf.uint8, tf.bool])
def test_integer_and_bool_inputs_give_the_default_float_dtype(fn, dtype: tf.dtype, device: str) -> None:
    x = tf.tensor([1, 0, 1], dtype=dtype, device=device)
    out = fn(x)
    assert out.dtype == tf.float32
    expected = fn(tf.tensor([1.0, 0.0, 1.0], device=device))
    np.testing.assert_array_equal(_host(out), _host(expected))


def test_integer_inputs_follow_the_default_dtype() -> None:
    previous = tf.get_default_dtype()
    tf.set_default_dtype(tf.float64)
    try:
        assert tf.exp(tf.tensor([1, 2])).dtype == tf.float64
    finally:
        tf.set_default_dtype(previous)


def test_reciprocal_of_integers_is_true_division() -> None:
    np.testing.assert_allclose(tf.reciprocal(tf.tensor([-2, 4])).numpy(), [-0.5, 0.25])


@pytest.mark.parametrize("fn", [tf.neg, tf.abs, tf.square, tf.relu, tf.sign, tf.floor, tf.ceil, tf.round,
                                tf.trunc], ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", [tf.int64, tf.int32, tf.uint8])
def test_integer_dtypes_are_kept(fn, dtype: tf.dtype, device: str) -> None:
    x = tf.tensor([3, 0, 2], dtype=dtype, device=device)
    assert fn(x).dtype == dtype


def test_integer_values_of_sign_abs_relu_and_rounding(device: str) -> None:
    x = tf.tensor([-2, 0, 3], device=device)
    assert tf.neg(x).tolist() == [2, 0, -3]
    assert tf.abs(x).tolist() == [2, 0, 3]
    assert tf.relu(x).tolist() == [0, 0, 3]
    assert tf.sign(x).tolist() == [-1, 0, 1]
    assert tf.square(x).tolist() == [4, 0, 9]
    for fn in (tf.floor, tf.ceil, tf.round, tf.trunc):
        out = fn(x)
        assert out.tolist() == [-2, 0, 3]
        out.add_(5)  # a new tensor, not a view of the input
        assert x.tolist() == [-2, 0, 3]


def test_bool_inputs(device: str) -> None:
    b = tf.tensor([True, False], device=device)
    assert tf.sign(b).dtype == tf.bool and tf.sign(b).tolist() == [True, False]
    assert tf.square(b).dtype == tf.int64 and tf.square(b).tolist() == [1, 0]
    with pytest.raises(RuntimeError, match="Negation, the `-` operator, on a bool tensor is not supported"):
        tf.neg(b)
    with pytest.raises(RuntimeError, match="Boolean inputs not supported for relu"):
        tf.relu(b)
    for fn in (tf.abs, tf.floor, tf.ceil, tf.round, tf.trunc):
        with pytest.raises(NotImplementedError, match="not implemented for 'Bool'"):
            fn(b)


def test_round_with_decimals_rejects_integers() -> None:
    with pytest.raises(NotImplementedError, match="not implemented for 'Long'"):
        tf.round(tf.tensor([15]), decimals=-1)


@pytest.mark.parametrize("fn", [unary.silu, unary.gelu, unary.softplus, unary.leaky_relu, unary.elu,
                                unary.logsigmoid], ids=lambda f: f.__name__)
def test_activations_reject_integer_inputs(fn) -> None:
    with pytest.raises(NotImplementedError, match="not implemented for 'Long'"):
        fn(tf.tensor([1, 2]))


def test_hardtanh_keeps_integers_and_checks_its_bounds() -> None:
    out = unary.hardtanh(tf.tensor([-3, 0, 3]))
    assert out.dtype == tf.int64 and out.tolist() == [-1, 0, 1]
    with pytest.raises(RuntimeError, match="Bool inputs not supported for hardtanh"):
        unary.hardtanh(tf.tensor([True]))
    with pytest.raises(ValueError, match="min_val cannot be greater than max_val"):
        unary.hardtanh(tf.tensor([1.0]), 2.0, 1.0)


def test_float16_stays_float16(device: str) -> None:
    x = tf.tensor([0.5, 1.0], dtype=tf.float16, device=device)
    for fn in (tf.exp, tf.sigmoid, tf.erf, unary.gelu, tf.sqrt):
        assert fn(x).dtype == tf.float16
    np.testing.assert_allclose(_host(tf.erf(x)).astype(np.float64), [0.5205, 0.8427], rtol=1e-3)
    assert _host(tf.sigmoid(tf.tensor([-12.0], dtype=tf.float16, device=device)))[0] > 0  # not exp overflow


@pytest.mark.parametrize("fn", [tf.sign, tf.floor, tf.ceil, tf.round, tf.trunc,
                                lambda x: tf.round(x, decimals=1)])
def test_piecewise_constant_ops_have_zero_gradients(fn, device: str) -> None:
    x = _leaf([-1.5, -0.3, 0.0, 0.7, 2.0], device)
    fn(x).sum().backward()
    np.testing.assert_array_equal(_host(x.grad), np.zeros(5))


def test_relu_and_abs_gradients_at_zero_are_zero(device: str) -> None:
    x = _leaf([-1.0, 0.0, 2.0], device)
    tf.relu(x).sum().backward()
    np.testing.assert_array_equal(_host(x.grad), [0.0, 0.0, 1.0])
    x = _leaf([-1.0, 0.0, 2.0], device)
    tf.abs(x).sum().backward()
    np.testing.assert_array_equal(_host(x.grad), [-1.0, 0.0, 1.0])


def test_piecewise_activation_gradients_at_their_kinks(device: str) -> None:
    x = _leaf([-1.0, 0.0, 1.0], device)
    unary.leaky_relu(x, 0.2).sum().backward()
    np.testing.assert_allclose(_host(x.grad), [0.2, 0.2, 1.0])  # PyTorch: slope where x <= 0
    x = _leaf([-1.0, 0.0, 1.0, 0.5], device)
    unary.hardtanh(x).sum().backward()
    np.testing.assert_array_equal(_host(x.grad), [0.0, 1.0, 0.0, 1.0])  # zero at the bounds themselves
    x = _leaf([0.0], device)
    unary.elu(x, alpha=2.0).sum().backward()
    np.testing.assert_allclose(_host(x.grad), [2.0])  # alpha * e^0 where x <= 0


def test_sign_of_nan_and_negative_zero_is_zero(device: str) -> None:
    out = tf.sign(tf.tensor([float("nan"), -0.0, -3.0, 2.0], device=device))
    assert _host(out).tolist() == [0.0, 0.0, -1.0, 1.0]
    assert not np.signbit(_host(out)[1])


def test_round_matches_pytorch(device: str) -> None:
    x = tf.tensor([2.5, 0.125, 1234.5, -0.5, 1.5], dtype=tf.float64, device=device)
    assert _host(tf.round(x)).tolist() == [2.0, 0.0, 1234.0, -0.0, 2.0]  # halves to even
    np.testing.assert_allclose(_host(tf.round(x, decimals=2)), [2.5, 0.12, 1234.5, -0.5, 1.5])
    np.testing.assert_allclose(_host(tf.round(tf.tensor([2.5, 15.0, 1234.5], device=device), decimals=-1)),
                               [0.0, 20.0, 1230.0])


def test_gelu_matches_pytorch(device: str) -> None:
    x = tf.tensor([-3.0, -0.5, 0.1, 2.0], dtype=tf.float64, device=device)
    np.testing.assert_allclose(_host(unary.gelu(x)), [-0.00404969409489031, -0.15426876936299344,
                                                      0.053982783727702904, 1.9544997361036416], rtol=1e-14)
    np.testing.assert_allclose(_host(unary.gelu(x, approximate="tanh")),
                               [-0.0036373920817729943, -0.15428599017485606, 0.053982751045435165,
                                1.954597694087775], rtol=1e-14)


def test_gelu_tanh_approximation_is_close_to_but_not_exact_gelu(device: str) -> None:
    x = _leaf(list(np.linspace(-4, 4, 33)), device)
    exact, approx = unary.gelu(x), unary.gelu(x, approximate="tanh")
    difference = np.abs(_host(exact) - _host(approx))
    assert 1e-5 < difference.max() < 1e-3
    with pytest.raises(RuntimeError, match="approximate argument must be either none or tanh"):
        unary.gelu(x, approximate="sigmoid")


def test_gelu_second_derivative_records_erf(device: str) -> None:
    x = _leaf([-1.0, 0.3, 2.0], device)
    (g,) = tf.autograd.grad(unary.gelu(x).sum(), x, create_graph=True)
    (gg,) = tf.autograd.grad(g.sum(), x)
    xs = np.array([-1.0, 0.3, 2.0])
    pdf = np.exp(-xs * xs / 2) / math.sqrt(2 * math.pi)
    np.testing.assert_allclose(_host(gg), pdf * (2 - xs * xs), rtol=1e-12)  # d2/dx2 x Phi(x)


@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")  # 1e300 -> float32 inf
@pytest.mark.parametrize("dtype, rtol, atol", [(tf.float64, 1e-15, 0.0), (tf.float32, 0.0, 5e-7)])
def test_erf_is_accurate_over_its_whole_range(dtype: tf.dtype, rtol: float, atol: float, device: str) -> None:
    """float64: Cody's rational approximations, to 1e-15 relative; float32: Eigen's, to 5e-7 absolute."""
    x = np.concatenate([np.linspace(-7.0, 7.0, 20001), [1e-300, 5e-324, 0.46875, 4.0, 5.9, 30.0, 1e300]])
    x = x.astype(dtype.numpy)
    expected = np.array([math.erf(v) for v in x.astype(np.float64)])
    got = _host(tf.erf(tf.tensor(x, device=device))).astype(np.float64)
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol)


def test_erf_special_values(device: str) -> None:
    out = _host(tf.erf(tf.tensor([-0.0, float("inf"), -float("inf"), float("nan")], device=device)))
    assert out[0] == 0.0 and np.signbit(out[0])
    assert out[1] == 1.0 and out[2] == -1.0 and np.isnan(out[3])


def test_saturating_activations_are_exact_and_silent_at_extremes(device: str) -> None:
    x64 = tf.tensor([-100.0, 0.0, 100.0], dtype=tf.float64, device=device)
    x32 = tf.tensor([-100.0, 0.0, 100.0], device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_allclose(_host(tf.sigmoid(x64)), [3.7200759760208356e-44, 0.5, 1.0], rtol=1e-14)
        assert _host(tf.sigmoid(x32)).tolist() == [0.0, 0.5, 1.0]
        assert _host(tf.sigmoid(tf.tensor([-1000.0], dtype=tf.float64, device=device))).tolist() == [0.0]
        np.testing.assert_allclose(_host(unary.logsigmoid(x64)), [-100.0, -math.log(2), -3.720075976020836e-44],
                                   rtol=1e-14)
        np.testing.assert_allclose(_host(unary.softplus(x64)), [3.720075976020836e-44, math.log(2), 100.0],
                                   rtol=1e-14)
        np.testing.assert_allclose(_host(unary.silu(x64)), [-3.720075976020836e-42, 0.0, 100.0], rtol=1e-14)
        for fn, grad in [(unary.logsigmoid, [1.0, 0.5, 0.0]), (unary.softplus, [0.0, 0.5, 1.0]),
                         (unary.silu, [0.0, 0.5, 1.0]), (tf.sigmoid, [0.0, 0.25, 0.0])]:
            x = tf.tensor([-1000.0, 0.0, 1000.0], device=device, requires_grad=True)
            fn(x).sum().backward()
            np.testing.assert_allclose(_host(x.grad), grad, atol=1e-30)


def test_softplus_returns_the_input_above_the_threshold(device: str) -> None:
    x = tf.tensor([30.0, -30.0, 10.0], dtype=tf.float64, device=device, requires_grad=True)
    out = unary.softplus(x, beta=2.0, threshold=10.0)
    np.testing.assert_allclose(_host(out), [30.0, math.log1p(math.exp(-60.0)) / 2.0, 10.0], rtol=1e-14)
    out.sum().backward()
    np.testing.assert_allclose(_host(x.grad), [1.0, 1.0 / (1.0 + math.exp(60.0)), 1.0], rtol=1e-14)


@pytest.mark.parametrize("name", ["isnan", "isinf", "isfinite"])
def test_isnan_isinf_isfinite_give_bool_tensors_without_grad(name: str, device: str) -> None:
    x = tf.tensor([1.0, float("nan"), float("inf"), -float("inf")], device=device, requires_grad=True)
    out = getattr(tf, name)(x)
    assert out.dtype == tf.bool and not out.requires_grad and out.grad_fn is None
    expected = {"isnan": [False, True, False, False], "isinf": [False, False, True, True],
                "isfinite": [True, False, False, False]}[name]
    assert out.tolist() == expected
    assert getattr(x, name)().tolist() == expected
    assert getattr(tf, name)(tf.tensor([1, 2], device=device)).dtype == tf.bool
    assert getattr(tf, name)(tf.tensor(float("nan"), device=device)).shape == ()


@pytest.mark.parametrize("fn", [tf.exp, tf.sqrt, tf.sigmoid, tf.tanh, tf.relu, tf.reciprocal],
                         ids=lambda f: f.__name__)
def test_ops_that_save_their_output_detect_its_modification(fn, device: str) -> None:
    x = _leaf([0.5, 1.5], device)
    y = fn(x)
    y.mul_(2.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_second_derivative_of_a_0d_tensor() -> None:
    x = tf.tensor(0.5, dtype=tf.float64, requires_grad=True)
    (g,) = tf.autograd.grad(tf.exp(x), x, create_graph=True)
    (gg,) = tf.autograd.grad(g, x)
    assert abs(gg.item() - math.exp(0.5)) < 1e-12
