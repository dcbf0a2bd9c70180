"""Bad inputs answered as PyTorch 2.13 answers them: the same exception type and message, recorded here
from PyTorch so the tests run without it."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import tinyframe as tf
import tinyframe.nn.functional as F
from tinyframe import nn

f32, f64, i64 = tf.float32, tf.float64, tf.int64


# ----------------------------------------------------------------- mixed dtypes raise, never promote

@pytest.mark.parametrize("x_shape", [(3, 4), (2, 3, 4), (4,)])
@pytest.mark.parametrize(("x_dtype", "names"), [(f64, "Double"), (i64, "Long")])
def test_linear_layer_refuses_an_input_of_another_dtype(x_shape: tuple, x_dtype: tf.dtype, names: str) -> None:
    with pytest.raises(RuntimeError, match=f"^mat1 and mat2 must have the same dtype, but got {names} and Float$"):
        nn.Linear(4, 2)(tf.ones(*x_shape, dtype=x_dtype))


@pytest.mark.parametrize(("x", "w", "b", "message"), [
    (f64, f32, None, "expected m1 and m2 to have the same dtype, but got: double != float"),
    (i64, f32, None, "expected m1 and m2 to have the same dtype, but got: long int != float"),
    (f64, f32, f32, "mat1 and mat2 must have the same dtype, but got Double and Float"),
    (f32, f64, f64, "mat1 and mat2 must have the same dtype, but got Float and Double"),
    (f32, f32, f64, "self and mat2 must have the same dtype, but got Double and Float"),
    (f32, f64, f32, "self and mat2 must have the same dtype, but got Float and Double"),
    (f64, f64, f32, "self and mat2 must have the same dtype, but got Float and Double"),
])
def test_functional_linear_names_the_mismatched_dtypes(x: tf.dtype, w: tf.dtype, b: tf.dtype | None,
                                                       message: str) -> None:
    bias = None if b is None else tf.ones(2, dtype=b)
    with pytest.raises(RuntimeError, match=f"^{message}$"):
        F.linear(tf.ones(3, 4, dtype=x), tf.ones(2, 4, dtype=w), bias)


@pytest.mark.parametrize(("compute", "message"), [
    (lambda: tf.matmul(tf.ones(3, 4, dtype=f64), tf.ones(4, 2)),
     "expected m1 and m2 to have the same dtype, but got: double != float"),
    (lambda: tf.matmul(tf.ones(2, 3, 4, dtype=f64), tf.ones(4, 2)),
     "expected m1 and m2 to have the same dtype, but got: double != float"),
    (lambda: tf.matmul(tf.ones(2, 3, 4, dtype=f64), tf.ones(2, 4, 2)), "expected scalar type Double but found Float"),
    (lambda: tf.ones(3, 4, dtype=i64) @ tf.ones(4, 2),
     "expected m1 and m2 to have the same dtype, but got: long int != float"),
    (lambda: tf.mm(tf.ones(3, 4), tf.ones(4, 2, dtype=i64)),
     "expected m1 and m2 to have the same dtype, but got: float != long int"),
    (lambda: tf.bmm(tf.ones(2, 3, 4), tf.ones(2, 4, 2, dtype=f64)), "expected scalar type Float but found Double"),
    (lambda: tf.mv(tf.ones(3, 4), tf.ones(4, dtype=f64)),
     "addmv input tensors must have the same dtype, but got Double, Float, and Double"),
])
def test_matrix_products_refuse_mixed_dtypes(compute: object, message: str) -> None:
    with pytest.raises(RuntimeError, match=f"^{message}$"):
        compute()


_CONVS = [(F.conv1d, (1, 1, 5), (1, 1, 3)), (F.conv2d, (1, 1, 5, 5), (1, 1, 3, 3)),
          (F.conv3d, (1, 1, 4, 4, 4), (1, 1, 2, 2, 2))]
_TRANSPOSED = [(F.conv_transpose1d, (1, 1, 5), (1, 1, 3)), (F.conv_transpose2d, (1, 1, 5, 5), (1, 1, 3, 3))]


@pytest.mark.parametrize(("conv", "x_shape", "w_shape"), _CONVS + _TRANSPOSED)
@pytest.mark.parametrize(("x", "w", "message"), [
    (f64, f32, "expected scalar type Double but found Float"),
    (f32, f64, "expected scalar type Float but found Double"),
    (i64, f32, "expected scalar type Long but found Float"),
    (f32, i64, "expected scalar type Float but found Long"),
])
def test_convolutions_refuse_an_input_and_weight_of_different_dtypes(conv: object, x_shape: tuple, w_shape: tuple,
                                                                   x: tf.dtype, w: tf.dtype, message: str) -> None:
    with pytest.raises(RuntimeError, match=f"^{message}$"):
        conv(tf.ones(*x_shape, dtype=x), tf.ones(*w_shape, dtype=w))
    with pytest.raises(RuntimeError, match=f"^{message}$"):  # unbatched
        conv(tf.ones(*x_shape[1:], dtype=x), tf.ones(*w_shape, dtype=w))


@pytest.mark.parametrize(("conv", "x_shape", "w_shape"), _CONVS)
@pytest.mark.parametrize(("x", "w", "b", "message"), [
    (f64, f32, f32, "Input type (double) and bias type (float) should be the same"),
    (f32, f32, f64, "Input type (float) and bias type (double) should be the same"),
    (f32, f64, f64, "Input type (float) and bias type (double) should be the same"),
    (f32, f64, f32, "expected scalar type Float but found Double"),
    (f32, f32, i64, "Input type (float) and bias type (long int) should be the same"),
])
def test_convolutions_compare_the_bias_dtype_first(conv: object, x_shape: tuple, w_shape: tuple, x: tf.dtype,
                                                   w: tf.dtype, b: tf.dtype, message: str) -> None:
    with pytest.raises(RuntimeError, match=f"^{message}$".replace("(", r"\(").replace(")", r"\)")):
        conv(tf.ones(*x_shape, dtype=x), tf.ones(*w_shape, dtype=w), tf.ones(1, dtype=b))


@pytest.mark.parametrize(("conv", "x_shape", "w_shape"), _TRANSPOSED)
def test_transposed_convolutions_keep_the_input_dtype_whatever_the_bias(conv: object, x_shape: tuple,
                                                                        w_shape: tuple) -> None:
    out = conv(tf.ones(*x_shape), tf.ones(*w_shape), tf.ones(1, dtype=f64))
    assert out.dtype == f32


def test_conv_layer_refuses_a_double_input() -> None:
    with pytest.raises(RuntimeError, match=r"^Input type \(double\) and bias type \(float\) should be the same$"):
        nn.Conv2d(1, 1, 3)(tf.ones(1, 1, 5, 5, dtype=f64))


_PARAMETER_NOT_FLOAT = "mixed dtype (CPU): expect parameter to have scalar type of Float"
_NOT_SHARED = "mixed dtype (CPU): all inputs must share same datatype."


@pytest.mark.parametrize(("compute", "message"), [
    (lambda: F.layer_norm(tf.ones(2, 4), (4,), tf.ones(4, dtype=f64)), _PARAMETER_NOT_FLOAT),
    (lambda: F.layer_norm(tf.ones(2, 4), (4,), None, tf.ones(4, dtype=f64)), _PARAMETER_NOT_FLOAT),
    (lambda: nn.LayerNorm(4)(tf.ones(2, 4, dtype=f64)), _NOT_SHARED),
    (lambda: F.group_norm(tf.ones(2, 4), 2, tf.ones(4, dtype=f64)), _PARAMETER_NOT_FLOAT),
    (lambda: nn.GroupNorm(2, 4)(tf.ones(2, 4, dtype=f64)), _NOT_SHARED),
    (lambda: F.batch_norm(tf.ones(2, 4), tf.zeros(4), tf.ones(4), tf.ones(4, dtype=f64)), _PARAMETER_NOT_FLOAT),
    (lambda: F.batch_norm(tf.ones(2, 4), tf.zeros(4, dtype=f64), tf.ones(4, dtype=f64)), _PARAMETER_NOT_FLOAT),
    (lambda: F.batch_norm(tf.ones(2, 4, dtype=f64), tf.zeros(4), tf.ones(4)), _NOT_SHARED),
    (lambda: nn.BatchNorm1d(4)(tf.ones(2, 4, dtype=f64)), _NOT_SHARED),
    (lambda: F.bilinear(tf.ones(3, 4, dtype=f64), tf.ones(3, 5), tf.ones(2, 4, 5)),
     "All tensors must have the same dtype, got input1: double, input2: float, weight: float"),
    (lambda: nn.Bilinear(4, 5, 2)(tf.ones(3, 4, dtype=f64), tf.ones(3, 5, dtype=f64)),
     "All tensors must have the same dtype, got input1: double, input2: double, weight: float, bias: float"),
    (lambda: tf.inner(tf.ones(2, 3, dtype=f64), tf.ones(3, 3)), "both inputs should have same dtype"),
    (lambda: tf.inner(tf.ones(3, dtype=f64), tf.ones(3)), "both inputs should have same dtype"),
])
def test_normalizations_bilinear_and_inner_refuse_mixed_dtypes(compute: object, message: str) -> None:
    with pytest.raises(RuntimeError) as raised:
        compute()
    assert str(raised.value) == message


def test_batch_norm_without_parameters_keeps_a_double_input_double() -> None:
    assert F.batch_norm(tf.ones(2, 4, dtype=f64), None, None, training=True).dtype == f64


# ----------------------------------------------------------------- integer division by zero

_INTEGER_DIVISIONS = [
    lambda a, b: a // b,
    lambda a, b: a % b,
    lambda a, b: tf.floor_divide(a, b),
    lambda a, b: tf.remainder(a, b),
    lambda a, b: tf.div(a, b, rounding_mode="floor"),
    lambda a, b: tf.div(a, b, rounding_mode="trunc"),
]


@pytest.mark.parametrize("divide", _INTEGER_DIVISIONS)
@pytest.mark.parametrize("divisor", [tf.tensor([0, 2]), tf.tensor(0), 0], ids=["tensor", "0-dim", "scalar"])
def test_integer_division_by_zero_raises_zero_division_error(divide: object, divisor: object) -> None:
    with pytest.raises(RuntimeError, match="^ZeroDivisionError$"):
        divide(tf.tensor([5, 7]), divisor)


@pytest.mark.parametrize("divide", [lambda a, b: a // b, lambda a, b: a % b])
def test_number_divided_by_an_integer_tensor_holding_zero_raises(divide: object) -> None:
    with pytest.raises(RuntimeError, match="^ZeroDivisionError$"):
        divide(5, tf.tensor([0, 2]))


def test_integer_division_by_nonzero_still_rounds_like_python() -> None:
    a, b = tf.tensor([5, -7]), tf.tensor([2, 2])
    assert (a // b).tolist() == [2, -4] and (a % b).tolist() == [1, 1]
    assert tf.div(a, b, rounding_mode="trunc").tolist() == [2, -3]


def test_float_division_by_zero_gives_inf_and_nan_without_a_warning() -> None:
    x = tf.tensor([1.0, -1.0, 0.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        floor, rest = x // 0, x % 0
        by_tensor = x // tf.zeros(3)
    assert floor.tolist()[:2] == [math.inf, -math.inf] and math.isnan(floor.tolist()[2])
    assert all(math.isnan(v) for v in rest.tolist())
    assert by_tensor.tolist()[:2] == [math.inf, -math.inf]
    assert floor.dtype == f32


def test_integer_tensor_by_float_zero_divides_as_floats() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = tf.tensor([1, -1]) // 0.0
    assert out.tolist() == [math.inf, -math.inf]


# ----------------------------------------------------------------- .grad of a non-leaf

_NON_LEAF_GRAD = ("The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute "
                  "won't be populated during autograd.backward(). If you indeed want the .grad field to be "
                  "populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the "
                  "non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
                  "github.com/pytorch/pytorch/pull/30531 for more information.")


def test_reading_grad_of_a_non_leaf_warns_as_pytorch_does() -> None:
    x = tf.ones(2, requires_grad=True)
    y = x * 2
    y.sum().backward()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert y.grad is None
    assert [(w.category, str(w.message)) for w in caught] == [(UserWarning, _NON_LEAF_GRAD)]
    assert caught[0].filename == __file__  # points at the reader, not at tinyframe


def test_non_leaf_grad_warning_is_shown_once_per_place_by_default() -> None:
    y = tf.ones(2, requires_grad=True) * 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        for _ in range(3):
            y.grad  # noqa: B018
    assert len(caught) == 1


def test_leaves_and_retained_non_leaves_read_grad_silently() -> None:
    x = tf.ones(2, requires_grad=True)
    y = x * 3
    y.retain_grad()
    y.sum().backward()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert x.grad.tolist() == [3.0, 3.0]
        assert y.grad.tolist() == [1.0, 1.0]
        assert tf.ones(2).grad is None


# ----------------------------------------------------------------- clear errors

@pytest.mark.parametrize(("data", "error", "message"), [
    ([[1.0, 2.0], [3.0]], ValueError, "expected sequence of length 2 at dim 1 (got 1)"),
    ([[[1.0, 2.0]], [[3.0]]], ValueError, "expected sequence of length 2 at dim 2 (got 1)"),
    ([[1.0], [2.0, 3.0]], ValueError, "expected sequence of length 1 at dim 1 (got 2)"),
    ([[1.0, 2.0], 3.0], TypeError, "not a sequence"),
    ([1.0, [2.0]], TypeError, "must be real number, not list"),
])
def test_ragged_data_names_the_first_bad_sequence(data: list, error: type, message: str) -> None:
    with pytest.raises(error) as raised:
        tf.tensor(data)
    assert str(raised.value) == message


@pytest.mark.parametrize("factory", [tf.empty, tf.zeros, tf.ones])
def test_a_storage_too_large_to_count_raises_naming_sizes_and_bytes(factory: object) -> None:
    with pytest.raises(RuntimeError) as raised:
        factory(2**40, 2**40)
    assert str(raised.value).startswith("Storage size calculation overflowed with sizes=[1099511627776, 1099511627776]")
    assert f"{2**80 * 4} bytes" in str(raised.value)


def test_an_allocation_the_machine_refuses_raises_naming_the_bytes() -> None:
    # 2**49 bytes (512 TiB) is beyond any x86-64 address space, so it fails at once whatever the overcommit.
    with pytest.raises(RuntimeError, match=f"can't allocate memory: you tried to allocate {2**49} bytes"):
        tf.empty(2**23, 2**23, dtype=tf.float64)


@pytest.mark.parametrize(("compute", "message"), [
    (lambda: tf.ones(2) + None, "unsupported operand type(s) for +: 'Tensor' and 'NoneType'"),
    (lambda: None + tf.ones(2), "unsupported operand type(s) for +: 'NoneType' and 'Tensor'"),
    (lambda: tf.ones(2) * None, "unsupported operand type(s) for *: 'Tensor' and 'NoneType'"),
    (lambda: tf.ones(2) - [1, 2], "unsupported operand type(s) for -: 'Tensor' and 'list'"),
    (lambda: tf.ones(2) // None, "unsupported operand type(s) for //: 'Tensor' and 'NoneType'"),
    (lambda: tf.ones(2) ** None, "unsupported operand type(s) for ** or pow(): 'Tensor' and 'NoneType'"),
    (lambda: tf.ones(2) < None, "'<' not supported between instances of 'Tensor' and 'NoneType'"),
    (lambda: tf.add(tf.ones(2), None), "add(): argument 'other' (position 2) must be Tensor, not NoneType"),
    (lambda: tf.sub(tf.ones(2), "a"), "sub(): argument 'other' (position 2) must be Tensor, not str"),
])
def test_operands_that_are_not_numbers_raise_type_error_naming_the_types(compute: object, message: str) -> None:
    with pytest.raises(TypeError) as raised:
        compute()
    assert str(raised.value) == message


def test_in_place_operator_with_none_raises_type_error() -> None:
    x = tf.ones(2)
    with pytest.raises(TypeError, match=r"^unsupported operand type\(s\) for \+=: 'Tensor' and 'NoneType'$"):
        x += None


def test_numpy_operands_still_reach_the_op() -> None:
    assert (tf.ones(2) == np.ones(2)).tolist() == [True, True]
    assert (tf.ones(2) < np.full(2, 2.0)).tolist() == [True, True]
    assert (tf.ones(2) * np.float64(3.0)).tolist() == [3.0, 3.0]


def test_tensor_equals_none_is_false_as_in_python() -> None:
    assert (tf.ones(2) == None) is False  # noqa: E711
    assert (tf.ones(2) != "a") is True


_BOOL_SUBTRACTION = ("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                     "`logical_xor()` operator instead.")


@pytest.mark.parametrize("compute", [
    lambda: tf.tensor([True]) - tf.tensor([False]),
    lambda: tf.tensor([True]) - True,
    lambda: True - tf.tensor([True]),
    lambda: tf.sub(tf.tensor([True]), tf.tensor([True])),
])
def test_bool_subtraction_raises_pytorch_runtime_error(compute: object) -> None:
    with pytest.raises(RuntimeError) as raised:
        compute()
    assert str(raised.value) == _BOOL_SUBTRACTION


_BOOL_TENSOR_SUBTRACTION = ("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying "
                            "to invert a mask, use the `~` or `logical_not()` operator instead.")


@pytest.mark.parametrize("compute", [
    lambda: tf.tensor([True]) - 1,
    lambda: 1.5 - tf.tensor([True]),
    lambda: tf.tensor([True]) - tf.tensor([1, 2]),
    lambda: tf.tensor([1.0, 2.0]) - tf.tensor([True]),
    lambda: tf.tensor([1, 2]) - True,
    lambda: tf.tensor([True]).sub(tf.tensor([1]), alpha=2),
])
def test_subtraction_with_one_bool_operand_raises_pytorch_runtime_error(compute: object) -> None:
    with pytest.raises(RuntimeError) as raised:
        compute()
    assert str(raised.value) == _BOOL_TENSOR_SUBTRACTION


def test_bool_tensors_still_add() -> None:
    assert (tf.tensor([True, False]) + tf.tensor([True, False])).tolist() == [True, False]


@pytest.mark.parametrize("convert", [float, int, complex])
@pytest.mark.parametrize("size", [2, 0])
def test_python_number_of_a_tensor_not_of_one_element_raises_value_error(convert: type, size: int) -> None:
    with pytest.raises(ValueError, match="^only one element tensors can be converted to Python scalars$"):
        convert(tf.ones(size))


@pytest.mark.parametrize(("size", "message"), [
    (2, "Boolean value of Tensor with more than one value is ambiguous"),
    (0, "Boolean value of Tensor with no values is ambiguous"),
])
def test_truth_of_a_tensor_not_of_one_element_raises_runtime_error(size: int, message: str) -> None:
    with pytest.raises(RuntimeError, match=f"^{message}$"):
        bool(tf.ones(size))


def test_one_element_tensors_convert_to_python_numbers() -> None:
    assert float(tf.ones(1)) == 1.0 and int(tf.tensor([[3]])) == 3 and complex(tf.tensor(2.0)) == 2 + 0j
    assert bool(tf.tensor([0])) is False


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize("value", [[[1.0, 2.0], [3.0, 4.0]], "x", 3.0, np.ones((2, 2))])
def test_load_state_dict_names_a_value_that_is_not_a_tensor(value: object, strict: bool) -> None:
    # PyTorch raises this RuntimeError too, strict or not (it says "torch.Tensor or Tensor-like
    # object"); tinyframe loads Tensors only, and says so.
    with pytest.raises(RuntimeError) as raised:
        nn.Linear(2, 2).load_state_dict({"weight": value, "bias": tf.zeros(2)}, strict=strict)
    assert str(raised.value) == ("Error(s) in loading state_dict for Linear:\n\tWhile copying the parameter named "
                                 f'"weight", expected a Tensor from checkpoint but received {type(value)}')


def test_copy_takes_a_number_and_randperm_a_0d_integer_tensor_as_pytorch() -> None:
    x = tf.randn(3, requires_grad=True)
    y = x.clone().copy_(2)
    assert y.tolist() == [2.0, 2.0, 2.0] and type(y.grad_fn).__name__ == "CopyBackwards"
    assert tf.zeros(3, dtype=tf.int64).copy_(2.7).tolist() == [2, 2, 2]
    tf.manual_seed(0)
    assert tf.randperm(tf.tensor(4)).tolist() == [0, 1, 3, 2]  # PyTorch 2.13's draw
    for n in (tf.tensor(4.0), tf.tensor([4, 5])):
        with pytest.raises(TypeError, match=r"^randperm\(\): argument 'n' \(position 1\) must be int, not Tensor$"):
            tf.randperm(n)
