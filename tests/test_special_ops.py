"""The special functions, NaN-aware reductions, statistics and integer ops of issue 9, and
``tinyframe.special``: values, dtypes, ``grad_fn`` names and gradients as PyTorch 2.13's (recorded in
``_special_ops_expected.py`` on the inputs of ``_special_ops_cases.py``), and PyTorch's errors."""
from __future__ import annotations

import math

import numpy as np
import pytest

import tinyframe as tf

from ._special_ops_cases import CASES
from ._special_ops_expected import EXPECTED

# tinyframe's trigamma (polygamma(1, x), digamma's gradient) is exact to 1e-15; PyTorch's kernel is
# about 5e-10 off (tests/test_elementwise_table.py pins the exact values).
_TRIGAMMA_CASES = {"polygamma_0", "polygamma_1", "psi"}


def _close(got: object, expected: object, rtol: float = 1e-13) -> None:
    got, expected = np.asarray(got), np.asarray(expected)
    if expected.dtype.kind in "biu":
        np.testing.assert_array_equal(got, expected)
    else:
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=1e-300, equal_nan=True)


@pytest.mark.parametrize("name", list(CASES))
def test_values_dtypes_node_names_and_gradients_match_pytorch(name: str) -> None:
    fn, arrays = CASES[name]
    expected = EXPECTED[name]
    inputs = [tf.tensor(a, requires_grad=a.dtype.kind == "f") for a in arrays]
    out = fn(tf, *inputs)
    node = out.grad_fn.name() if out.grad_fn is not None else None
    assert expected["node"] == node
    assert out.dtype == getattr(tf, expected["dtype"])
    _close(out.tolist(), expected["value"], 1e-9 if name in _TRIGAMMA_CASES else 1e-13)
    if isinstance(expected["grads"], str):  # PyTorch's own backward fails here; the registry checks ours
        return
    differentiated = [t.requires_grad and out.requires_grad for t in inputs]
    wanted = [t for t, d in zip(inputs, differentiated) if d]
    found = iter(tf.autograd.grad(out.sum(), wanted, allow_unused=True) if wanted else ())
    for differentiable, grad in zip(differentiated, expected["grads"]):
        got = next(found) if differentiable else None
        assert (got is None) == (grad is None)
        if grad is not None:
            _close(got.tolist(), grad, 1e-9 if name in _TRIGAMMA_CASES else 1e-13)


def test_special_aliases_reach_one_definition() -> None:
    x = tf.tensor([0.5, 2.0], requires_grad=True)
    assert tf.special.psi(x).grad_fn.name() == tf.digamma(x).grad_fn.name() == "DigammaBackward0"
    assert tf.special.expit(x).grad_fn.name() == "SigmoidBackward0"
    assert tf.special.gammaln(x).grad_fn.name() == "LgammaBackward0"
    assert tf.special.log1p(x).grad_fn.name() == "Log1PBackward0"
    assert tf.special.multigammaln(x + 1, 2).grad_fn.name() == "MvlgammaBackward0"
    out = tf.zeros(2)
    assert tf.special.i0e(x.detach(), out=out) is out and out.tolist() == tf.special.i0e(x.detach()).tolist()


def test_special_functions_keep_float32_and_compute_integers_in_the_default_dtype() -> None:
    for name in ("erfc", "erfcx", "i0", "i0e", "i1", "i1e", "ndtr", "ndtri", "log_ndtr", "entr", "expit"):
        f = getattr(tf.special, name)
        assert f(tf.tensor([0.5])).dtype == tf.float32
        assert f(tf.tensor([1])).dtype == tf.float32


def test_polygamma_of_any_order_differentiates_twice() -> None:
    x = tf.tensor([0.7, 3.0], dtype=tf.float64, requires_grad=True)
    (first,) = tf.autograd.grad(tf.polygamma(2, x).sum(), x, create_graph=True)
    (second,) = tf.autograd.grad(first.sum(), x)
    np.testing.assert_allclose(first.tolist(), tf.polygamma(3, x).tolist(), rtol=1e-15)
    np.testing.assert_allclose(second.tolist(), tf.polygamma(4, x).tolist(), rtol=1e-15)
    with pytest.raises(RuntimeError, match="does not support negative n"):
        tf.polygamma(-1, x)


def test_zeta_is_not_differentiable_in_its_first_argument() -> None:
    s = tf.tensor([2.0], requires_grad=True)
    with pytest.raises(NotImplementedError, match="the derivative for 'zeta' is not implemented"):
        tf.special.zeta(s, tf.tensor([1.0])).sum().backward()


def test_gradients_asked_for_other_inputs_skip_the_missing_derivatives() -> None:
    # As PyTorch (its engine's exec_info): a node computes only the gradients of inputs that lead to a
    # requested one, so grad(..., inputs=[x]) works where a also requires grad; torch 2.13's values.
    a = tf.tensor([1.5, 2.0], dtype=tf.float64, requires_grad=True)
    x = tf.tensor([0.5, 3.0], dtype=tf.float64, requires_grad=True)
    (gx,) = tf.autograd.grad(tf.special.gammainc(a, x).sum(), inputs=[x])
    np.testing.assert_allclose(gx.numpy(), [0.4839414490382867, 0.14936120510359185], rtol=1e-12)
    q = tf.tensor([1.5, 2.0], dtype=tf.float64, requires_grad=True)
    (gq,) = tf.autograd.grad(tf.special.zeta(x + 2, q).sum(), inputs=[q])
    np.testing.assert_allclose(gq.numpy(), [-0.7677404111428354, -0.08671530992224569], rtol=1e-12)
    (tf.igammac(a, x) * x).sum().backward(inputs=[x])
    np.testing.assert_allclose(x.grad.numpy(), [0.5592812323820575, -0.24893534183931976], rtol=1e-12)
    assert a.grad is None
    for asked in ([a], None):  # the missing derivative is still refused when its input is asked for
        with pytest.raises(NotImplementedError, match="the derivative for 'igamma: input' is not implemented"):
            tf.autograd.grad(tf.special.gammainc(a, x).sum(), inputs=asked or [a, x])


def test_needs_input_grad_is_pruned_only_inside_a_pass_for_chosen_inputs() -> None:
    a, b = tf.ones(2, requires_grad=True), tf.ones(2, requires_grad=True)
    product = a * b
    seen = []

    def hook(grad: tf.Tensor) -> None:
        seen.append(product.grad_fn.needs_input_grad)
        with tf.enable_grad():  # a plain pass nested in the targeted one sees every input again
            inner = a * b
            inner.register_hook(lambda g: seen.append(inner.grad_fn.needs_input_grad))
            inner.sum().backward()
        seen.append(product.grad_fn.needs_input_grad)
    product.register_hook(hook)
    tf.autograd.grad(product.sum(), inputs=[b])
    assert seen == [(False, True), (True, True), (False, True)]
    assert product.grad_fn.needs_input_grad == (True, True)


# (a, x, P(a, x)) from mpmath (30 digits); PyTorch 2.13 agrees to 3e-10 relative (its Temme expansion for large a)
_GAMMAINC = [(30.0, 30.0, 0.524283013893680069), (200.0, 230.0, 0.979668856671163765),
             (5000.0, 5000.0, 0.501880634033817355), (5000.0, 5150.0, 0.982361882552654600),
             (0.5, 0.3, 0.56142197391900017), (2.0, 1.5, 0.44217459962892541), (5.0, 7.0, 0.82700839211792865)]


def test_gammainc_matches_mpmath_and_complements_gammaincc() -> None:
    a, x, expected = (tf.tensor(column, dtype=tf.float64) for column in zip(*_GAMMAINC))
    np.testing.assert_allclose(tf.special.gammainc(a, x).numpy(), expected.numpy(), rtol=1e-10)
    np.testing.assert_allclose(tf.special.gammaincc(a, x).numpy(), 1.0 - expected.numpy(), rtol=1e-9)


def test_igamma_edges_dtypes_and_errors_are_pytorchs() -> None:
    nan, inf = float("nan"), float("inf")
    a = tf.tensor([0.0, 1.0, -1.0, inf, 1.0, nan, 0.0, 2.0, 3.0])
    x = tf.tensor([0.0, 0.0, 1.0, 1.0, inf, 1.0, 1.0, -1.0, inf])
    np.testing.assert_array_equal(tf.igamma(a, x).numpy(), [nan, 0, nan, 0, 1, nan, 1, nan, 1])
    np.testing.assert_array_equal(tf.igammac(a, x).numpy(), [nan, 1, nan, 1, 0, nan, 0, nan, 0])
    assert tf.igamma(tf.ones(2), tf.ones(2, dtype=tf.float64)).dtype == tf.float64
    assert tf.igamma(tf.ones(2), tf.tensor([1, 2])).dtype == tf.float32
    with pytest.raises(NotImplementedError, match="\"igamma_cpu\" not implemented for 'Long'"):
        tf.igamma(tf.tensor([1, 2]), tf.tensor([1, 2]))
    with pytest.raises(TypeError, match="igammac\\(\\): argument 'other' \\(position 2\\) must be Tensor, not float"):
        tf.igammac(tf.ones(2), 2.0)
    y = tf.ones(2).igamma_(tf.tensor([1.0, 2.0]))
    np.testing.assert_allclose(y.numpy(), [1 - math.exp(-1), 1 - math.exp(-2)], rtol=1e-6)


def test_igamma_is_differentiable_in_its_second_argument_only() -> None:
    a = tf.tensor([0.5, 2.0, 5.0], dtype=tf.float64, requires_grad=True)
    x = tf.tensor([0.3, 1.5, 7.0], dtype=tf.float64, requires_grad=True)
    assert tf.special.gammainc(a, x).grad_fn.name() == "IgammaBackward0"
    assert tf.special.gammaincc(a, x).grad_fn.name() == "IgammacBackward0"
    (grad,) = tf.autograd.grad(tf.igamma(a.detach(), x).sum(), x)
    np.testing.assert_allclose(grad.numpy(), [0.763090578768186, 0.33469524022264474, 0.09122619163734969],
                               rtol=1e-12)  # torch 2.13's
    for function, name in ((tf.igamma, "igamma"), (tf.igammac, "igammac")):
        with pytest.raises(NotImplementedError, match=f"the derivative for '{name}: input' is not implemented."):
            function(a, x).sum().backward()


def test_heaviside_has_no_derivative_and_needs_equal_dtypes() -> None:
    x = tf.tensor([1.0, 0.0], requires_grad=True)
    out = tf.heaviside(x, tf.tensor(0.5))
    assert out.grad_fn.name() == "torch::autograd::NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::heaviside is not implemented"):
        out.sum().backward()
    with pytest.raises(RuntimeError, match="different dtypes"):
        tf.heaviside(tf.tensor([1]), tf.tensor(1.0))
    with pytest.raises(TypeError, match="must be Tensor, not float"):
        tf.heaviside(x, 0.5)


def test_integer_ops_reject_floats_and_bools_as_pytorch() -> None:
    with pytest.raises(NotImplementedError, match="\"gcd_cpu\" not implemented for 'Float'"):
        tf.gcd(tf.tensor([1.0]), tf.tensor([2.0]))
    with pytest.raises(NotImplementedError, match="\"lshift_cpu\" not implemented for 'Float'"):
        tf.tensor([1.5]) << 1
    with pytest.raises(NotImplementedError, match="\"rshift_cpu\" not implemented for 'Bool'"):
        tf.tensor([True]) >> tf.tensor([True])  # (a bool meeting an int shifts as int64: bool >> 1 is tensor([0]))
    with pytest.raises(TypeError, match="must be Tensor, not int"):
        tf.gcd(tf.tensor([1]), 2)
    with pytest.raises(TypeError, match="must be Tensor, not int"):
        tf.fmax(tf.tensor([1.0]), 2)


def test_shift_operators_in_place_and_narrow_types() -> None:
    x = tf.tensor([1, 6])
    x <<= 2
    assert x.tolist() == [4, 24]
    x >>= tf.tensor([1, 3])
    assert x.tolist() == [2, 3]
    assert (tf.tensor([1], dtype=tf.int8) << 7).tolist() == [-128]
    assert (tf.tensor([200], dtype=tf.uint8) >> 1).tolist() == [100]
    assert tf.tensor([3]).bitwise_left_shift_(1).tolist() == [6]


def test_float_power_is_float64_and_its_in_place_form_needs_a_float64_tensor() -> None:
    assert tf.float_power(tf.tensor([2], dtype=tf.int32), 2).dtype == tf.float64
    with pytest.raises(RuntimeError, match="has dtype Float but the operation's result requires dtype Double"):
        tf.tensor([2.0]).float_power_(2)
    assert tf.tensor([2.0], dtype=tf.float64).float_power_(3).tolist() == [8.0]


def test_fmax_gives_ties_to_the_first_operand() -> None:
    x, y = (tf.tensor([1.0, 3.0], requires_grad=True) for _ in range(2))
    tf.fmax(x, y).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0] and y.grad.tolist() == [0.0, 0.0]


def test_reduction_errors_match_pytorch() -> None:
    with pytest.raises(NotImplementedError, match="\"logcumsumexp_out_cpu\" not implemented for 'Long'"):
        tf.logcumsumexp(tf.tensor([1, 2]), 0)
    with pytest.raises(RuntimeError, match="nanmean\\(\\): expected input to have floating point"):
        tf.nanmean(tf.tensor([1, 2]))
    with pytest.raises(RuntimeError, match="input dtype should be either floating point"):
        tf.dist(tf.tensor([1]), tf.tensor([2]))
    with pytest.raises(RuntimeError, match="cov\\(\\): expected input to have two or fewer dimensions"):
        tf.cov(tf.zeros(2, 2, 2))
    with pytest.raises(RuntimeError, match="x must be a one-dimensional tensor"):
        tf.vander(tf.zeros(2, 2))


def test_out_arguments_of_the_new_functions() -> None:
    out = tf.empty(3)
    assert tf.erfc(tf.tensor([0.0, 1.0, 2.0]), out=out) is out
    counts = tf.empty(0, dtype=tf.int64)
    tf.gcd(tf.tensor([4, 6]), tf.tensor([6, 9]), out=counts)
    assert counts.tolist() == [2, 3]


# torch.tensor's dtype for sequences holding NumPy scalars and arrays, recorded from PyTorch 2.13.
SEQUENCES = [
    ([np.float64(1.0)], tf.float64), ([np.float32(1.0)], tf.float32), ([np.float16(1.0)], tf.float16),
    ([np.int64(1)], tf.int64), ([np.int32(1)], tf.int32), ([np.int8(1)], tf.int8), ([np.uint8(1)], tf.uint8),
    ([np.bool_(True)], tf.bool), ([1.0, np.float64(1.0)], tf.float64), ([np.float32(1), np.float64(1)], tf.float64),
    ([np.int64(1), 1.5], tf.float32), ([[np.float64(1.0)], [2.0]], tf.float64), ([np.array([1.0, 2.0])], tf.float64),
    ([np.array([1.0], dtype=np.float32)] * 2, tf.float32), ([np.int32(1), np.float32(2)], tf.float32),
    ([np.int16(1), np.int32(2)], tf.int32), ([True, np.int32(2)], tf.int32), ([1, np.int32(2)], tf.int64),
    ([1.5, np.int32(2)], tf.float32), ([(np.float64(2.0),)], tf.float64), ([1.0, 2.0], tf.float32),
]


@pytest.mark.parametrize(("data", "dtype"), SEQUENCES)
def test_tensor_of_sequences_with_numpy_items_takes_pytorchs_dtype(data: list, dtype: tf.dtype) -> None:
    assert tf.tensor(data).dtype == dtype


def test_tensor_of_a_list_of_zero_dim_arrays_raises_as_pytorch() -> None:
    with pytest.raises(TypeError, match="len\\(\\) of unsized object"):
        tf.tensor([np.array(1.0)])


def test_numpy_float32_items_ignore_a_float64_default_dtype() -> None:
    tf.set_default_dtype(tf.float64)
    try:
        assert tf.tensor([np.float32(1.0)]).dtype == tf.float32
        assert tf.tensor([np.int64(1), 1.5]).dtype == tf.float64
    finally:
        tf.set_default_dtype(tf.float32)
