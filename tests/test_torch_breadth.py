"""Tensor-level behaviours a differential run against torch 2.13 found different; every expected value,
dtype, node name and message here was printed by PyTorch for the same call."""
from __future__ import annotations

import pickle

import pytest

import tinyframe as tf


def _u8() -> tf.Tensor:
    return tf.tensor([[1, 2, 3], [0, 5, 250]], dtype=tf.uint8)


def _i64() -> tf.Tensor:
    return tf.tensor([[1, -2, 3], [0, -5, 4]])


def _leaf() -> tf.Tensor:
    return tf.tensor([[0.5, -1.25, 2.0], [0.75, 1.5, -0.25]], requires_grad=True)


def _check(t: tf.Tensor, values: list, dtype: tf.dtype) -> None:
    assert t.dtype == dtype
    assert t.tolist() == values


# --------------------------------------------------------------------------- Python ints meeting integer tensors
def test_python_int_operand_wraps_to_the_tensor_dtype() -> None:
    u8 = _u8()
    _check(u8 + 300, [[45, 46, 47], [44, 49, 38]], tf.uint8)
    _check(u8 - 256, [[1, 2, 3], [0, 5, 250]], tf.uint8)
    _check(u8.add(-1), [[0, 1, 2], [255, 4, 249]], tf.uint8)
    _check(u8 > -1, [[False] * 3] * 2, tf.bool)
    _check(u8 == -6, [[False, False, False], [False, False, True]], tf.bool)
    _check(tf.tensor([1, -2], dtype=tf.int32) + 2**40, [1, -2], tf.int32)
    _check(tf.tensor([1, 2]) + 2**63, [-9223372036854775807, -9223372036854775806], tf.int64)
    with pytest.raises(OverflowError, match="int too big to convert"):
        tf.tensor([1]) + 2**70


def test_python_int_operand_of_a_floating_result_is_not_wrapped() -> None:
    u8 = _u8()
    assert u8.div(-3)[0].tolist() == pytest.approx([-1 / 3, -2 / 3, -1.0])
    _check(u8.copysign(-1), [[-1.0, -2.0, -3.0], [-0.0, -5.0, -250.0]], tf.float32)


def test_int_written_into_integer_tensor_is_checked_then_wrapped() -> None:
    _check(_u8().fill_(-1), [[255] * 3] * 2, tf.uint8)
    _check(tf.full((2,), -1, dtype=tf.uint8), [255, 255], tf.uint8)
    _check(tf.full_like(_u8(), -3), [[253] * 3] * 2, tf.uint8)
    x = _u8()
    x[0] = -1
    _check(x, [[255, 255, 255], [0, 5, 250]], tf.uint8)
    with pytest.raises(RuntimeError, match="value cannot be converted to type uint8_t without overflow"):
        _u8().fill_(300)
    with pytest.raises(RuntimeError, match="value cannot be converted to type uint8_t without overflow"):
        tf.full((1,), 300, dtype=tf.uint8)
    with pytest.raises(RuntimeError, match="value cannot be converted to type int without overflow"):
        tf.zeros(2, dtype=tf.int32)[0] = 2**31
    with pytest.raises(RuntimeError, match="value cannot be converted to type int8_t without overflow"):
        tf.zeros(2, dtype=tf.int8).fill_(200)


# --------------------------------------------------------------------------- clamp
def test_clamp_of_integers_by_a_float_bound_is_float32() -> None:
    _check(tf.clamp(_i64(), 0.5), [[1.0, 0.5, 3.0], [0.5, 0.5, 4.0]], tf.float32)
    _check(tf.clamp_min(_i64(), 1.5), [[1.5, 1.5, 3.0], [1.5, 1.5, 4.0]], tf.float32)
    _check(tf.clamp(_u8(), -1, 3), [[3] * 3] * 2, tf.uint8)  # -1 is 255 for uint8


@pytest.mark.parametrize("call, node", [
    (lambda x: x.clamp(min=0), "ClampBackward1"),
    (lambda x: x.clamp(max=1), "ClampBackward1"),
    (lambda x: x.clip(0), "ClampBackward1"),
    (lambda x: x.clamp(0, 1), "ClampBackward1"),
    (lambda x: tf.clamp_min(x, 0), "ClampMinBackward0"),
    (lambda x: x.clamp_max(1), "ClampMaxBackward0"),
])
def test_clamp_node_names(call: object, node: str) -> None:
    assert type(call(_leaf()).grad_fn).__name__ == node  # type: ignore[operator]


# --------------------------------------------------------------------------- pow
def test_integer_pow_with_negative_tensor_exponents() -> None:
    base = tf.tensor([1, -1, 2, 0, -2, -1])
    _check(base ** tf.tensor([-1, -1, -1, -1, -2, -2]), [1, -1, 0, 0, 0, 1], tf.int64)
    _check(2 ** tf.tensor([-1, 2]), [0, 4], tf.int64)
    _check(0 ** tf.tensor([-1, 0]), [0, 1], tf.int64)
    _check(tf.tensor([2], dtype=tf.uint8) ** tf.tensor([-1]), [0], tf.int64)
    _check(tf.pow(True, _i64()), [[1] * 3] * 2, tf.int64)
    with pytest.raises(RuntimeError, match="^Integers to negative integer powers are not allowed.$"):
        _i64() ** -1


# --------------------------------------------------------------------------- elementwise odds and ends
def test_xlogy_with_a_number_keeps_float32() -> None:
    out = tf.xlogy(tf.tensor([[1.5, -2.0], [0.0, 4.0]]), 2)
    assert out.dtype == tf.float32
    assert tf.xlogy(_i64(), 2).dtype == tf.float32


def test_logical_and_bitwise_not_of_0d_tensors() -> None:
    _check(tf.logical_not(tf.tensor(2.5)), False, tf.bool)
    _check(~tf.tensor(3), -4, tf.int64)
    _check(~tf.tensor(True), False, tf.bool)


def test_where_with_two_numbers() -> None:
    cond = tf.tensor([True, False])
    _check(tf.where(cond, 1, 0), [1, 0], tf.int64)
    _check(tf.where(cond, 1.0, 0), [1.0, 0.0], tf.float32)
    _check(tf.where(cond, True, False), [True, False], tf.bool)
    _check(tf.where(cond, 1, 2.5), [1.0, 2.5], tf.float32)


def test_remainder_is_differentiable() -> None:
    x = _leaf()
    assert type((x % 0.5).grad_fn).__name__ == "RemainderBackward0"
    f = tf.tensor([[1.5, -2.0, 3.25], [0.0, -0.5, 4.0]])
    out = tf.remainder(f, x + 5)
    assert type(out.grad_fn).__name__ == "RemainderBackward1"
    assert out.tolist() == [[1.5, 1.75, 3.25], [0.0, 6.0, 4.0]]
    out.sum().backward()
    assert x.grad.tolist() == [[0.0, 1.0, 0.0], [0.0, 1.0, 0.0]]
    _check(_i64() % 3, [[1, 1, 0], [0, 1, 1]], tf.int64)


# --------------------------------------------------------------------------- reductions and joins
def test_all_and_any_over_no_dimension_reduce_nothing() -> None:
    f = tf.tensor([[1.5, -2.0, 3.25], [0.0, -0.5, 4.0]])
    _check(tf.all(f, dim=()), [[True, True, True], [False, True, True]], tf.bool)
    _check(tf.any(_u8(), dim=[]), [[1, 1, 1], [0, 1, 1]], tf.uint8)
    assert tf.sum(f, dim=()).item() == 6.25  # the other reductions reduce over every dimension


def test_cat_skipped_empty_tensor_still_promotes() -> None:
    i32 = tf.tensor([[1, -2]], dtype=tf.int32)
    _check(tf.cat((i32, tf.zeros(0))), [[1.0, -2.0]], tf.float32)


# --------------------------------------------------------------------------- creation
@pytest.mark.parametrize("args, kwargs, values, dtype", [
    ((2.5,), {"dtype": tf.int64}, [0, 1], tf.int64),
    ((-2.5, 3), {"dtype": tf.int32}, [-2, -1, 0, 1, 2, 3], tf.int32),
    ((7, -3, -2.5), {"dtype": tf.int64}, [7, 5, 3, 1, -1], tf.int64),
    ((0, 5, 1.5), {"dtype": tf.int64}, [0, 1, 2, 3, 4], tf.int64),
    ((1.5, 3.7, 0.5), {"dtype": tf.uint8}, [1, 1, 1, 1, 1], tf.uint8),
    ((tf.tensor(1), tf.tensor(4.5)), {}, [1.0, 2.0, 3.0, 4.0], tf.float32),
    ((tf.tensor(3),), {}, [0, 1, 2], tf.int64),
])
def test_arange_values(args: tuple, kwargs: dict, values: list, dtype: tf.dtype) -> None:
    _check(tf.arange(*args, **kwargs), values, dtype)


@pytest.mark.parametrize("args, kwargs, error, message", [
    ((1, 0), {}, RuntimeError, "upper bound and lower bound inconsistent with step sign"),
    ((0, 5, -1), {}, RuntimeError, "upper bound and lower bound inconsistent with step sign"),
    ((0, float("nan")), {}, RuntimeError, "unsupported range: 0 -> nan"),
    ((0.5, float("inf")), {}, RuntimeError, "unsupported range: 0.5 -> inf"),
    ((3,), {"dtype": tf.bool}, NotImplementedError, "\"arange_cpu\" not implemented for 'Bool'"),
    ((0, 1, 0.3), {"dtype": tf.int64}, ValueError, "step must be nonzero"),
])
def test_arange_errors(args: tuple, kwargs: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=f"^{message}$".replace("(", r"\(").replace(")", r"\)")):
        tf.arange(*args, **kwargs)


def test_linspace_rounds_as_pytorch() -> None:
    assert tf.linspace(0, 1, 7).tolist() == [0.0, 0.1666666716337204, 0.3333333432674408, 0.5, 0.6666666269302368,
                                              0.8333333134651184, 1.0]
    assert tf.linspace(0.1, 1.3, 5).tolist() == [0.10000000149011612, 0.3999999761581421, 0.699999988079071, 1.0,
                                                  1.2999999523162842]
    assert tf.linspace(0, 1, 7, dtype=tf.float64).tolist()[4:] == [0.6666666666666667, 0.8333333333333334, 1.0]
    _check(tf.linspace(3, -1, 4, dtype=tf.int32), [3, 1, 0, -1], tf.int32)
    _check(tf.linspace(0, 10, 4, dtype=tf.int64), [0, 3, 6, 10], tf.int64)
    _check(tf.linspace(tf.tensor(0.0), 1, 3), [0.0, 0.5, 1.0], tf.float32)
    _check(tf.linspace(0, 1, 1), [0.0], tf.float32)
    with pytest.raises(RuntimeError, match="^number of steps must be non-negative$"):
        tf.linspace(0, 1, -1)


def test_integer_tensor_as_a_size() -> None:
    n = tf.tensor(3)
    assert tf.zeros(n).shape == (3,)
    assert tf.ones(n, 2).shape == (3, 2)
    assert tf.tensor([1.0]).new_zeros(n).shape == (3,)
    with pytest.raises(TypeError):
        tf.zeros(tf.tensor(2.5))


# --------------------------------------------------------------------------- Python protocols
def test_iteration_yields_unbind_views() -> None:
    first = next(iter(_leaf()))
    assert type(first.grad_fn).__name__ == "UnbindBackward0"
    assert first.tolist() == [0.5, -1.25, 2.0]


def test_format_hash_and_pickle() -> None:
    t = tf.tensor([1.5, 2.0])
    with pytest.raises(TypeError, match="unsupported format string passed to Tensor.__format__"):
        format(t, ".2f")
    assert format(t, "") == str(t)
    assert format(tf.tensor(2.5), ".2f") == "2.50"
    assert hash(t) == id(t)
    restored = pickle.loads(pickle.dumps(_leaf() * 2))
    assert restored.requires_grad and restored.is_leaf
    assert restored.tolist() == [[1.0, -2.5, 4.0], [1.5, 3.0, -0.5]]


@pytest.mark.parametrize("call, node, out, grads", [
    (lambda x, lo, hi: tf.clamp(x, lo, hi), "ClampBackward0", [0.0, 0.0, 0.6, 1.0, 2.5],
     ([0.0, 2.0, 0.0, 4.0, 0.0], [1.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 3.0, 0.0, 5.0])),
    (lambda x, lo, hi: tf.clamp(x, min=lo), "ClampBackward0", [0.0, 0.0, 0.7, 1.0, 3.0],
     ([0.0, 2.0, 0.0, 4.0, 0.0], [1.0, 0.0, 3.0, 0.0, 5.0], None)),
    (lambda x, lo, hi: x.clamp_min(lo), "ClampMinBackward1", [0.0, 0.0, 0.7, 1.0, 3.0],
     ([0.0, 2.0, 0.0, 4.0, 0.0], [1.0, 0.0, 3.0, 0.0, 5.0], None)),
    (lambda x, lo, hi: tf.clamp_max(x, hi), "ClampMaxBackward1", [-1.0, 0.0, 0.5, 1.0, 2.0],
     ([1.0, 2.0, 3.0, 4.0, 5.0], None, [0.0, 0.0, 0.0, 0.0, 0.0])),
])
def test_clamp_by_tensors_gradients_at_ties(call: object, node: str, out: list, grads: tuple) -> None:
    """The whole gradient goes to the input at a tie with a bound (not split as maximum does)."""
    x, lo, hi = (tf.tensor(v, dtype=tf.float64, requires_grad=True) for v in (
        [-1.0, 0.0, 0.5, 1.0, 2.0], [0.0, 0.0, 0.7, 1.0, 3.0], [0.5, 0.5, 0.6, 1.0, 2.5]))
    result = call(x, lo, hi)  # type: ignore[operator]
    assert type(result.grad_fn).__name__ == node and result.tolist() == out
    (result * tf.arange(1.0, 6.0, dtype=tf.float64)).sum().backward()
    assert [None if t.grad is None else t.grad.tolist() for t in (x, lo, hi)] == list(grads)


def test_0d_results_stay_tensors() -> None:
    assert tf.nanmean(tf.tensor(2.5)).item() == 2.5
    assert tf.nanmean(tf.tensor(float("nan"))).isnan().item()


def test_polygamma_of_minus_infinity_ends() -> None:
    inf = float("inf")
    out = tf.polygamma(2, tf.tensor([1.0, float("nan"), -inf, inf, 0.0, -0.0]))
    assert out.tolist()[2:] == [-inf, pytest.approx(float("nan"), nan_ok=True), -inf, -inf]


def test_out_of_inverse_hyperbolic_aliases_and_msort() -> None:
    out = tf.empty(0)
    tf.arctanh(tf.tensor([0.5]), out=out)
    assert out.tolist() == pytest.approx([0.5493061542510986])
    tf.msort(tf.tensor([[1.5, -2.0], [0.0, -0.5]]), out=out)
    assert out.tolist() == [[0.0, -2.0], [1.5, -0.5]]


@pytest.mark.parametrize("name, node, edges, value_grad", [
    ("zero", "ZeroBackward0", ["MulBackward0"], None),
    ("fill", "FillBackward2", ["MulBackward0"], None),
    ("fill_tensor", "FillBackward3", ["MulBackward0", "AccumulateGrad"], 12.0),
    ("copy", "CopyBackwards", ["MulBackward0", "AccumulateGrad"], [2.0, 4.0, 6.0]),
])
def test_overwriting_in_place_ops_record_pytorchs_nodes(name: str, node: str, edges: list, value_grad: object) -> None:
    x = _leaf()
    value = tf.tensor(2.0, requires_grad=True)
    src = tf.tensor([1.0, 2.0, 3.0], dtype=tf.float64, requires_grad=True)
    calls = {"zero": lambda y: y.zero_(), "fill": lambda y: y.fill_(3), "fill_tensor": lambda y: y.fill_(value),
             "copy": lambda y: y.copy_(src)}
    out = calls[name](x * 1)
    assert type(out.grad_fn).__name__ == node
    assert [type(n).__name__ for n, _ in out.grad_fn.next_functions] == edges
    (out * tf.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert x.grad.tolist() == [[0.0] * 3] * 2
    other = value if name == "fill_tensor" else src
    assert (None if other.grad is None else other.grad.tolist()) == (value_grad if name in ("fill_tensor", "copy")
                                                                     else None)
    if name == "copy":
        assert src.grad.dtype == tf.float64


def test_float_alpha_with_integer_operands_raises() -> None:
    with pytest.raises(RuntimeError, match="^For integral input tensors, argument alpha must not be a floating point"):
        tf.add(_i64(), _i64(), alpha=2.5)
    with pytest.raises(RuntimeError, match="^For integral input tensors"):
        _i64().sub_(1, alpha=0.5)
    assert tf.add(tf.tensor([1.0]), _i64()[0, :1], alpha=2.5).tolist() == [3.5]


def test_creation_argument_forms() -> None:
    _check(tf.arange(end=3), [0, 1, 2], tf.int64)
    _check(tf.full((2,), tf.tensor(3)), [3, 3], tf.int64)
    _check(tf.full((2,), tf.tensor(3.5)), [3.5, 3.5], tf.float32)
    with pytest.raises(RuntimeError, match="^n must be greater or equal to 0, got -1$"):
        tf.eye(-1)
    with pytest.raises(RuntimeError, match="^m must be greater or equal to 0, got -1$"):
        tf.eye(2, -1)


def test_integer_edge_errors() -> None:
    with pytest.raises(ValueError, match="^Overflow when unpacking long long$"):
        tf.tensor(2**63)
    assert tf.tensor([-2**63]).tolist() == [-9223372036854775808]
    with pytest.raises(RuntimeError, match="^ZeroDivisionError$"):
        tf.fmod(_i64(), 0)
    _check(tf.fmod(tf.tensor([-7, 7]), 3), [-1, 1], tf.int64)


def test_rounding_divisions_record_pytorchs_nodes() -> None:
    x = _leaf()
    floored = x // 0.5
    assert type(floored.grad_fn).__name__ == "NotImplemented"
    assert floored.grad_fn.name() == "torch::autograd::NotImplemented"
    assert repr(floored).endswith("grad_fn=<NotImplemented>)")
    with pytest.raises(RuntimeError, match="derivative for aten::floor_divide is not implemented"):
        floored.sum().backward()
    truncated = x.div(x + 3, rounding_mode="trunc")
    assert type(truncated.grad_fn).__name__ == "DivBackward2"
    truncated.sum().backward()
    assert x.grad.tolist() == [[0.0] * 3] * 2
    _check(tf.div(_u8(), 3, rounding_mode="floor"), [[0, 0, 1], [0, 1, 83]], tf.uint8)
    with pytest.raises(RuntimeError, match="^div expected rounding_mode to be one of None, 'trunc', or 'floor' but"):
        tf.div(_i64(), 2, rounding_mode="bad")


def test_special_values_and_nodes() -> None:
    inf, nan = float("inf"), float("nan")
    specials = tf.tensor([1.0, nan, -inf, inf, 0.0, -0.0])
    assert str(tf.pow(specials, -0.5).tolist()) == str([1.0, nan, nan, 0.0, inf, -inf])  # PyTorch's rsqrt
    assert tf.digamma(tf.tensor([0.0, -0.0])).tolist() == [-inf, inf]
    assert type(tf.xlogy(_leaf(), 2.5).grad_fn).__name__ == "XlogyBackward2"
    node = tf.heaviside(_leaf(), tf.tensor([0.5])).grad_fn
    assert type(node).__name__ == "NotImplemented" and node.name() == "torch::autograd::NotImplemented"
