"""Reductions and the softmax family: PyTorch's grad_fn names, dtype rules, named-tuple results,
ties, zeros, empty inputs and errors (what the op registry can't express). Expected numbers come
from PyTorch 2.13."""
from __future__ import annotations

import math

import numpy as np
import pytest

import tinyframe as tf
from tinyframe.autograd import gradcheck, gradgradcheck


def _leaf(values: object, device: str, dtype: tf.dtype = tf.float64) -> tf.Tensor:
    return tf.tensor(values, dtype=dtype, device=device, requires_grad=True)


def _host(t: tf.Tensor) -> np.ndarray:
    return t.detach().cpu().numpy()


def _grad(fn: object, values: object, device: str) -> np.ndarray:
    x = _leaf(values, device)
    fn(x).sum().backward()
    return _host(x.grad)


GRAD_FN_NAMES = [
    (lambda x: x.sum(), "SumBackward0"), (lambda x: x.sum(1), "SumBackward1"),
    (lambda x: x.sum(()), "SumBackward1"), (lambda x: x.sum(dtype=tf.float64), "SumBackward0"),
    (lambda x: x.mean(), "MeanBackward0"), (lambda x: x.mean((0, 1)), "MeanBackward1"),
    (lambda x: x.prod(), "ProdBackward0"), (lambda x: x.prod(1), "ProdBackward1"),
    (lambda x: x.max(), "MaxBackward1"), (lambda x: x.max(1).values, "MaxBackward0"),
    (lambda x: x.min(), "MinBackward1"), (lambda x: x.min(0).values, "MinBackward0"),
    (lambda x: x.amax(), "AmaxBackward0"), (lambda x: x.amin(1), "AminBackward0"),
    (lambda x: x.var(), "VarBackward0"), (lambda x: x.std(1), "StdBackward0"),
    (lambda x: x.norm(), "LinalgVectorNormBackward0"), (lambda x: x.norm(1, dim=0), "LinalgVectorNormBackward0"),
    (lambda x: x.norm(float("inf")), "LinalgVectorNormBackward0"), (lambda x: x.logsumexp(1), "LogsumexpBackward0"),
    (lambda x: x.softmax(1), "SoftmaxBackward0"), (lambda x: x.log_softmax(0), "LogSoftmaxBackward0"),
    (lambda x: x.cumsum(1), "CumsumBackward0"),
]


@pytest.mark.parametrize("fn, name", GRAD_FN_NAMES, ids=[f"{i}-{n}" for i, (_, n) in enumerate(GRAD_FN_NAMES)])
def test_grad_fn_names_match_pytorch(fn: object, name: str, device: str) -> None:
    assert fn(_leaf([[0.25, 0.5, 1.0], [2.0, -1.0, 0.75]], device)).grad_fn.name() == name


def test_top_level_names() -> None:
    for name in ("sum", "mean", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "var", "std", "norm",
                 "logsumexp", "softmax", "log_softmax", "cumsum", "all", "any", "var_mean", "std_mean"):
        assert callable(getattr(tf, name)), name


# --------------------------------------------------------------------------- dtypes
@pytest.mark.parametrize("dtype", [tf.bool, tf.uint8, tf.int32, tf.int64])
def test_sum_prod_cumsum_of_bools_and_integers_give_int64(dtype: tf.dtype, device: str) -> None:
    x = tf.tensor([[1, 0, 1], [1, 1, 0]], dtype=dtype, device=device)
    assert x.sum().dtype == tf.int64 and x.sum().item() == 4
    assert x.sum(1).dtype == tf.int64
    assert x.prod(1).dtype == tf.int64
    assert x.cumsum(1).dtype == tf.int64


def test_float_dtypes_are_kept(device: str) -> None:
    for dtype in (tf.float16, tf.float32, tf.float64):
        x = tf.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=dtype, device=device)
        for out in (x.sum(), x.mean(0), x.prod(), x.amax(1), x.var(), x.std(0), x.norm(), x.logsumexp(1),
                    x.softmax(1), x.log_softmax(0), x.cumsum(0), x.max(1).values):
            assert out.dtype == dtype


def test_dtype_argument_casts_before_reducing(device: str) -> None:
    x = tf.tensor([1.5, 2.0], device=device)
    assert x.sum(dtype=tf.float64).dtype == tf.float64
    assert x.sum(dtype=tf.int32).dtype == tf.int32 and x.sum(dtype=tf.int32).item() == 3
    ints = tf.tensor([[1, 2, 3], [4, 5, 6]], device=device)
    assert ints.mean(dtype=tf.float32).item() == 3.5
    assert ints.cumsum(0, dtype=tf.float32).dtype == tf.float32
    assert ints.softmax(1, dtype=tf.float32).dtype == tf.float32
    y = _leaf([1.0, 2.0], device, tf.float32)
    out = y.softmax(0, dtype=tf.float64)
    assert out.dtype == tf.float64
    out.sum().backward()
    assert y.grad.dtype == tf.float32


def test_dtype_casts_are_recorded_where_pytorch_records_them(device: str) -> None:
    x = _leaf([1.0, 2.0], device, tf.float32)
    for out in (x.sum(dtype=tf.float64), x.mean(dtype=tf.float64), x.prod(dtype=tf.float64),
                x.cumsum(0, dtype=tf.float64), tf.norm(x, dtype=tf.float64)):
        assert out.dtype == tf.float64
        assert out.grad_fn.next_functions[0][0].name() == "torch::autograd::AccumulateGrad"
    for out in (x.softmax(0, dtype=tf.float64), x.log_softmax(0, dtype=tf.float64)):
        assert out.dtype == tf.float64
        assert out.grad_fn.next_functions[0][0].name() == "ToCopyBackward0"


def test_float32_gradient_stays_float32_through_a_float64_sum(device: str) -> None:
    x = _leaf([1.0, 2.0, 3.0], device, tf.float32)
    x.sum(dtype=tf.float64).backward()
    assert x.grad.dtype == tf.float32
    np.testing.assert_array_equal(_host(x.grad), [1.0, 1.0, 1.0])


def test_logsumexp_of_integers_gives_the_default_float(device: str) -> None:
    out = tf.tensor([1, 2], device=device).logsumexp(0)
    assert out.dtype == tf.float32
    assert out.item() == pytest.approx(2.3132617)


def test_mean_of_integers_raises_like_pytorch() -> None:
    with pytest.raises(RuntimeError, match=r"mean\(\): could not infer output dtype. Input dtype must be either "
                       r"a floating point or complex dtype. Got: Long"):
        tf.tensor([1, 2]).mean()
    with pytest.raises(RuntimeError, match="Got: Bool"):
        tf.tensor([True]).mean()
    with pytest.raises(RuntimeError, match="Optional dtype must be either a floating point or complex dtype. "
                       "Got: Long"):
        tf.tensor([1.0, 2.0]).mean(dtype=tf.int64)


def test_float_only_ops_reject_integers() -> None:
    ints = tf.tensor([[1, 2], [3, 4]])
    with pytest.raises(RuntimeError, match="std and var only support floating point and complex dtypes"):
        ints.var()
    with pytest.raises(RuntimeError, match="std and var only support floating point"):
        ints.std(0)
    with pytest.raises(RuntimeError, match="linalg.vector_norm: Expected a floating point or complex tensor as "
                       "input. Got Long"):
        ints.norm()
    with pytest.raises(RuntimeError, match="linalg.vector_norm: dtype should be floating point or complex, but got "
                       "Long"):
        tf.norm(tf.tensor([1.0, 2.0]), dtype=tf.int64)
    with pytest.raises(NotImplementedError, match="\"softmax_lastdim_kernel_impl\" not implemented for 'Long'"):
        ints.softmax(1)
    with pytest.raises(NotImplementedError, match="\"log_softmax_kernel_impl\" not implemented for 'Long'"):
        ints.log_softmax(0)


def test_all_any_give_bool_and_keep_uint8(device: str) -> None:
    x = tf.tensor([[1.0, 0.0], [2.0, 3.0]], device=device)
    assert x.all().dtype == tf.bool and not x.all().item()
    assert x.any(1).tolist() == [True, True]
    assert x.all(1, keepdim=True).tolist() == [[False], [True]]
    assert (x > 0).any((0, 1)).item()
    u = tf.tensor([[1, 0], [2, 3]], dtype=tf.uint8, device=device)
    assert u.all().dtype == tf.uint8 and u.all().item() == 0
    assert u.any(1).dtype == tf.uint8


def test_index_results_are_int64_and_not_differentiable(device: str) -> None:
    x = _leaf([[1.0, 5.0, 2.0], [7.0, 0.0, 7.0]], device)
    assert x.argmax().dtype == tf.int64 and x.argmax().item() == 3
    assert x.argmax(1).tolist() == [1, 0]
    assert x.argmin(0, keepdim=True).tolist() == [[0, 1, 0]]
    assert x.argmax(keepdim=True).shape == (1, 1)
    assert not x.argmax().requires_grad and not x.max(1).indices.requires_grad
    assert not x.all().requires_grad


# --------------------------------------------------------------------------- max / min results
def test_max_with_dim_returns_a_named_tuple(device: str) -> None:
    x = _leaf([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]], device)
    result = tf.max(x, 1)
    assert isinstance(result, tuple) and type(result).__name__ == "max"
    values, indices = result
    assert values is result.values and indices is result.indices and result[0] is values
    assert values.tolist() == [5.0, 7.0] and indices.tolist() == [1, 0]
    assert indices.dtype == tf.int64
    kept = x.min(-1, keepdim=True)
    assert type(kept).__name__ == "min"
    assert kept.values.shape == (2, 1) and kept.indices.tolist() == [[0], [1]]


def test_max_without_dim_is_a_0d_tensor(device: str) -> None:
    x = _leaf([[1.0, 5.0], [7.0, 0.0]], device)
    assert x.max().shape == () and x.max().item() == 7.0
    assert tf.min(x).item() == 0.0


def test_max_with_a_tensor_is_maximum(device: str) -> None:
    x = tf.tensor([1.0, 5.0], device=device)
    y = tf.tensor([3.0, 2.0], device=device)
    assert tf.max(x, y).tolist() == [3.0, 5.0]
    assert x.min(y).tolist() == [1.0, 2.0]


# --------------------------------------------------------------------------- ties, zeros, kinks
TIES = [[1.0, 3.0, 3.0, 1.0], [2.0, 2.0, 2.0, 0.0]]


def test_max_and_amax_split_the_gradient_between_ties(device: str) -> None:
    np.testing.assert_allclose(_grad(lambda x: x.max(), [1.0, 3.0, 3.0, 1.0], device), [0, 0.5, 0.5, 0])
    np.testing.assert_allclose(_grad(lambda x: x.min(), [1.0, 3.0, 3.0, 1.0], device), [0.5, 0, 0, 0.5])
    third = 1 / 3
    np.testing.assert_allclose(_grad(lambda x: x.amax(1), TIES, device), [[0, 0.5, 0.5, 0], [third, third, third, 0]])
    np.testing.assert_allclose(_grad(lambda x: x.amax((0, 1)), [[1.0, 3.0, 3.0, 1.0], [2.0, 3.0, 2.0, 0.0]], device),
                               [[0, third, third, 0], [0, third, 0, 0]])


def test_max_with_dim_sends_the_gradient_to_the_first_maximum_only(device: str) -> None:
    x = _leaf(TIES, device)
    result = x.max(1)
    assert result.indices.tolist() == [1, 0]
    result.values.sum().backward()
    np.testing.assert_array_equal(_host(x.grad), [[0, 1, 0, 0], [1, 0, 0, 0]])
    assert tf.tensor([1.0, 3.0, 3.0, 1.0]).argmax().item() == 1
    assert tf.tensor([1.0, 3.0, 3.0, 1.0]).argmin().item() == 0


def test_prod_gradient_with_zeros(device: str) -> None:
    np.testing.assert_allclose(_grad(lambda x: x.prod(), [2.0, 0.0, 3.0], device), [0, 6, 0])
    np.testing.assert_allclose(_grad(lambda x: x.prod(), [2.0, 0.0, 0.0], device), [0, 0, 0])
    np.testing.assert_allclose(_grad(lambda x: x.prod(1), [[2.0, 0.0, 3.0], [1, 2, 3], [0, 0, 1]], device),
                               [[0, 6, 0], [6, 3, 2], [0, 0, 0]])


def test_prod_second_derivative_with_zeros() -> None:
    x = _leaf([[2.0, 0.0, 3.0], [1.0, 2.0, 3.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]], "cpu")
    for fn in (lambda t: t.prod(1), lambda t: t.prod(0, keepdim=True)):
        assert gradcheck(fn, [x])
        assert gradgradcheck(fn, [x])


def test_norm_gradient_at_zero_is_zero(device: str) -> None:
    np.testing.assert_array_equal(_grad(lambda x: x.norm(), [0.0, 0.0], device), [0, 0])
    np.testing.assert_allclose(_grad(lambda x: x.norm(dim=1), [[0.0, 0.0], [3.0, 4.0]], device),
                               [[0, 0], [0.6, 0.8]])
    np.testing.assert_array_equal(_grad(lambda x: x.norm(1), [0.0, 1.0, -2.0], device), [0, 1, -1])
    np.testing.assert_allclose(_grad(lambda x: x.norm(3), [0.0, 1.0, -2.0], device), [0, 0.2311204247835449,
                                                                                       -0.9244816991341795])
    np.testing.assert_allclose(_grad(lambda x: x.norm(0.5), [0.0, 1.0, -2.0], device),
                               [0, 2.414213562373095, -1.7071067811865472])


def test_inf_norm_splits_the_gradient_between_ties(device: str) -> None:
    np.testing.assert_allclose(_grad(lambda x: x.norm(float("inf")), [2.0, 1.0, -2.0], device), [0.5, 0, -0.5])
    np.testing.assert_allclose(_grad(lambda x: x.norm(-float("inf")), [1.0, 1.0, -2.0], device), [0.5, 0.5, 0])


def test_zero_norm_counts_nonzeros_and_has_no_gradient(device: str) -> None:
    x = _leaf([0.0, 1.0, -2.0], device)
    out = x.norm(0)
    assert out.item() == 2.0 and out.requires_grad
    out.backward()
    assert x.grad is None


def test_std_gradient_is_zero_where_std_is_zero(device: str) -> None:
    np.testing.assert_array_equal(_grad(lambda x: x.std(), [1.0, 1.0, 1.0], device), [0, 0, 0])


# --------------------------------------------------------------------------- var / std arguments
def test_var_correction_and_unbiased(device: str) -> None:
    x = tf.tensor([[1.0, 2.0, 4.0], [3.0, 3.0, 9.0]], dtype=tf.float64, device=device)
    data = _host(x)
    np.testing.assert_allclose(_host(x.var()), data.var(ddof=1))
    np.testing.assert_allclose(_host(x.var(1, unbiased=False)), data.var(1))
    np.testing.assert_allclose(_host(x.var(False)), data.var())  # the legacy positional unbiased
    np.testing.assert_allclose(_host(x.var(1, correction=0.5, keepdim=True)), data.var(1, ddof=0.5, keepdims=True))
    np.testing.assert_allclose(_host(x.std(0, correction=0)), data.std(0))
    with pytest.raises(TypeError):
        x.var(1, True, correction=1)


def test_var_mean_and_std_mean(device: str) -> None:
    x = tf.tensor([[1.0, 2.0, 4.0], [3.0, 3.0, 9.0]], device=device)
    var, mean = tf.var_mean(x, 1)
    np.testing.assert_allclose(_host(var), _host(x.var(1)))
    np.testing.assert_allclose(_host(mean), _host(x.mean(1)))
    std, mean = tf.std_mean(x, correction=0)
    np.testing.assert_allclose(_host(std), _host(x).std(), rtol=1e-6)
    assert mean.shape == ()


# --------------------------------------------------------------------------- numerical stability
def test_logsumexp_and_softmax_do_not_overflow(device: str) -> None:
    x = tf.tensor([[1000.0, 1000.0, -1000.0], [-1e4, 0.0, 1e4]], device=device)
    np.testing.assert_allclose(_host(x.logsumexp(1)), [1000 + math.log(2), 1e4], rtol=1e-6)
    np.testing.assert_allclose(_host(x.softmax(1)), [[0.5, 0.5, 0.0], [0.0, 0.0, 1.0]])
    np.testing.assert_allclose(_host(x.log_softmax(1)), [[-math.log(2), -math.log(2), -2000 - math.log(2)],
                                                         [-2e4, -1e4, 0.0]], rtol=1e-6)


def test_logsumexp_of_infinities(device: str) -> None:
    x = tf.tensor([[-math.inf, -math.inf], [math.inf, 1.0], [-math.inf, 2.0]], device=device)
    out = _host(x.logsumexp(1))
    assert out[0] == -math.inf and out[1] == math.inf and out[2] == 2.0


def test_softmax_rows_sum_to_one_and_gradient_of_the_sum_is_zero(device: str) -> None:
    x = _leaf(np.random.default_rng(0).normal(size=(4, 5)), device)
    out = x.softmax(-1)
    np.testing.assert_allclose(_host(out.sum(-1)), np.ones(4))
    out.sum().backward()
    np.testing.assert_allclose(_host(x.grad), np.zeros((4, 5)), atol=1e-12)


def test_log_softmax_matches_log_of_softmax(device: str) -> None:
    x = tf.tensor(np.random.default_rng(1).normal(size=(3, 4)), device=device)
    np.testing.assert_allclose(_host(x.log_softmax(0)), np.log(_host(x.softmax(0))), rtol=1e-12)


# --------------------------------------------------------------------------- 0-d and empty inputs
def test_0d_inputs_reduce_over_their_one_element(device: str) -> None:
    x = _leaf(1.5, device)
    assert x.sum(0).item() == 1.5 and x.sum(-1, keepdim=True).shape == ()
    assert x.softmax(0).item() == 1.0 and x.log_softmax(0).item() == 0.0
    assert x.cumsum(0).shape == () and x.cumsum(0).item() == 1.5
    values, indices = x.max(0)
    assert values.item() == 1.5 and indices.item() == 0
    assert x.argmax(0).item() == 0
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-1, 0\], but got 1\)"):
        x.sum(1)


def test_empty_reductions_follow_pytorch(device: str) -> None:
    e = tf.zeros(0, 3, device=device)
    assert e.sum().item() == 0.0
    assert e.sum(0).tolist() == [0.0, 0.0, 0.0]
    assert math.isnan(e.mean().item())
    assert all(math.isnan(v) for v in e.mean(0).tolist())
    assert e.prod(0).tolist() == [1.0, 1.0, 1.0]
    assert e.all().item() and not e.any().item()
    assert e.logsumexp(0).tolist() == [-math.inf] * 3
    assert e.norm().item() == 0.0
    assert e.softmax(0).shape == (0, 3) and e.cumsum(0).shape == (0, 3)
    assert e.amax(1).shape == (0,) and e.max(1).values.shape == (0,)


@pytest.mark.parametrize("expression, error, message", [
    (lambda e: e.max(), RuntimeError, r"max\(\): Expected reduction dim to be specified for input.numel\(\) == 0."),
    (lambda e: e.amin(), RuntimeError, r"amin\(\): Expected reduction dim to be specified"),
    (lambda e: e.max(0), IndexError, r"max\(\): Expected reduction dim 0 to have non-zero size."),
    (lambda e: e.amax((0, 1)), IndexError, r"amax\(\): Expected reduction dim 0 to have non-zero size."),
    (lambda e: e.argmax(), IndexError, r"argmax\(\): Expected reduction dim to be specified for input.numel"),
    (lambda e: e.argmin(0), IndexError, r"argmin\(\): Expected reduction dim 0 to have non-zero size."),
    (lambda e: e.norm(float("inf")), RuntimeError, "cannot compute the inf norm on an empty tensor"),
])
def test_reductions_without_identity_reject_empty_inputs(expression: object, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        expression(tf.zeros(0, 3))


# --------------------------------------------------------------------------- dimension errors
@pytest.mark.parametrize("expression", [
    lambda x: x.sum(2), lambda x: x.sum((0, 2)), lambda x: x.mean(-3), lambda x: x.max(2), lambda x: x.amax(2),
    lambda x: x.argmax(2), lambda x: x.var(2), lambda x: x.norm(dim=2), lambda x: x.logsumexp(2),
    lambda x: x.softmax(2), lambda x: x.log_softmax(-3), lambda x: x.cumsum(2), lambda x: x.prod(2),
    lambda x: x.all(2),
])
def test_dimension_out_of_range_raises_index_error(expression: object) -> None:
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-2, 1\], but got "):
        expression(tf.ones(2, 3))


@pytest.mark.parametrize("expression", [
    lambda x: x.sum((0, 0)), lambda x: x.sum((1, -1)), lambda x: x.amax([0, 0]), lambda x: x.var((0, -2)),
    lambda x: x.logsumexp((1, 1)), lambda x: x.norm(dim=(0, 0)), lambda x: x.any((0, 0)),
])
def test_repeated_dims_raise(expression: object) -> None:
    with pytest.raises(RuntimeError, match=r"dim \d appears multiple times in the list of dims"):
        expression(tf.ones(2, 3))


def test_bad_arguments() -> None:
    x = tf.ones(2, 3)
    with pytest.raises(TypeError):
        x.softmax((0,))
    with pytest.raises(TypeError):
        x.sum(1.5)
    with pytest.raises(RuntimeError, match="linalg.matrix_norm: Order abc not supported."):
        x.norm("abc")


# --------------------------------------------------------------------------- gradients
def test_sum_gradient_is_a_writable_array_the_leaf_owns(device: str) -> None:
    x = _leaf([1.0, 2.0, 3.0, 4.0], device, tf.float32)
    x.sum().backward()
    x.sum().backward()
    np.testing.assert_array_equal(_host(x.grad), [2.0, 2.0, 2.0, 2.0])
    assert x.grad.dtype == tf.float32


def test_mean_and_cumsum_gradients(device: str) -> None:
    np.testing.assert_allclose(_grad(lambda x: x.mean(1), [[1.0, 2.0], [3.0, 4.0]], device), [[0.5, 0.5], [0.5, 0.5]])
    np.testing.assert_array_equal(_grad(lambda x: x.cumsum(1), [[1.0, 2.0, 3.0]], device), [[3.0, 2.0, 1.0]])
