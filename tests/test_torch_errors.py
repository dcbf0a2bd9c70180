"""Calls that PyTorch 2.13 refuses raise the same exception class in tinyframe, with PyTorch's message (or,
where tinyframe words it otherwise, a message sharing its key part); calls next to them that PyTorch
accepts give the same dtype and shape. PyTorch's answers are recorded in ``_torch_errors_expected.py``
(``python -m tests._torch_errors_record``)."""
from __future__ import annotations

import re

import pytest

import tinyframe as tf

from ._torch_errors_cases import CASES, outcome
from ._torch_errors_expected import EXPECTED

# Where tinyframe's message differs from PyTorch's, the part both say (a regular expression).
_SHAPES = r"The size of tensor a \(3\) must match the size of tensor b \(4\) at non-singleton dimension 1"
KEY_PARTS = {
    "bitwise_and_shapes_first": _SHAPES,  # tinyframe adds the op and the shapes
    "hypot_shapes_first": _SHAPES,
    "sum_float_dim": "tuple of ints",  # PyTorch lists sum()'s overloads
    "softmax_tensor_dim": r"^softmax\(\): argument 'dim' .*must be int, not Tensor$",  # PyTorch adds the position
    "cumsum_none_dim": r"^cumsum\(\): argument 'dim' .*must be int, not NoneType$",
    "lt_complex_number": r"^\"lt\w*\" not implemented for 'ComplexFloat'",  # PyTorch's kernel is lt_cpu
    "ge_complex_number": r"^\"ge\w*\" not implemented for 'ComplexFloat'",
    "histc_float_bins": r"^histc\(\): argument 'bins' .*must be int, not float$",
    "clamp_str_bound": r"^clamp\(\)",  # PyTorch lists clamp()'s overloads
    "clamp_min_none": r"^clamp_min\(\)",
    "equal_number": r"^equal\(\): argument 'other' .*must be Tensor, not int$",  # the position
    "is_same_size_none": r"^is_same_size\(\): argument 'other' .*must be Tensor, not NoneType$",
    "bernoulli_p_tensor": r"^Expected p_in >= 0 && p_in <= 1 to be true, but got false\.",  # PyTorch's asks for help
    # PyTorch lists the overloads; tinyframe names the argument
    "eq_none": r"^eq\(\)", "greater_list": r"^greater\(\)", "narrow_none_input": r"^narrow\(\)",
    "searchsorted_none": r"^searchsorted\(\)", "copysign_none": r"^copysign\(\)", "eq_number_first": r"^eq\(\)",
    "gt_number_first": r"^gt\(\)", "where_number_condition": r"^where\(\)", "remainder_numbers": r"^remainder\(\)",
    "fmod_numbers": r"(?i)^fmod",  # tinyframe: "Fmod: expected a Tensor input, got float, int"
    "matrix_exp_list": r"^matrix_exp\(\): argument '\w+' \(position 1\) must be Tensor, not list$",  # input, A
    "cauchy_tensor_sigma": r"^cauchy_\(\): argument 'sigma' must be \w+, not Tensor$",  # float, Number
}


def test_every_case_is_recorded() -> None:
    assert set(EXPECTED) == set(CASES)


@pytest.mark.parametrize("name", list(CASES))
def test_answers_as_pytorch(name: str) -> None:
    expected, got = EXPECTED[name], outcome(tf, CASES[name])
    if expected[0] == "ok" or name not in KEY_PARTS:
        assert got == expected
        return
    assert got[0] == expected[0]
    assert re.search(KEY_PARTS[name], expected[1]), "the key part must be PyTorch's"
    assert re.search(KEY_PARTS[name], got[1]), got[1]


def test_arithmetic_of_two_numbers_gives_pytorchs_values() -> None:
    # PyTorch 2.13: add, sub, mul, div and floor_divide take numbers for their tensors
    assert tf.add(2, 3).item() == 5 and tf.add(2, 3, alpha=2).item() == 8
    assert tf.sub(2, 3.5).item() == -1.5 and tf.mul(2.0, 3).item() == 6.0
    assert tf.div(2, 3).item() == pytest.approx(0.6666667) and tf.div(7, 2, rounding_mode="floor").item() == 3
    assert tf.floor_divide(7.5, 2).item() == 3.0 and tf.add(True, True).item() is True
    assert tf.add(2j, 3).item() == 3 + 2j


def test_the_hot_path_ops_carry_no_argument_checking_wrapper() -> None:
    # the elementwise ops check their own operands; the others fail first and are then examined (_arguments)
    import inspect
    for method in (tf.Tensor.add, tf.Tensor.mul_, tf.Tensor.exp, tf.Tensor.addcmul_, tf.Tensor.backward):
        assert inspect.unwrap(method) is method
    assert inspect.unwrap(tf.Tensor.cross) is not tf.Tensor.cross
