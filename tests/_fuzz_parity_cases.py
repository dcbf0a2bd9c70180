"""Calls where differential fuzzing against PyTorch 2.13 found tinyframe answering otherwise (a dtype, a value,
an exception), one line each as ``lambda t: ...`` with ``t`` the module (``torch`` or ``tinyframe``).
``_fuzz_parity_record.py`` records PyTorch's answers into ``_fuzz_parity_expected.py``; ``test_fuzz_parity.py``
checks tinyframe's against them."""
from __future__ import annotations

import math
import warnings
from typing import Any


def _plain(value: Any) -> Any:
    """A result's values as plain Python data (NaN and the infinities as the strings ``"nan"``, ``"inf"`` and
    ``"-inf"``, so that answers compare and print as literals)."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, complex):
        return [_plain(value.real), _plain(value.imag)]
    return value


def _described(result: Any) -> tuple:
    if isinstance(result, (tuple, list)):
        return ("tuple", *(_described(r) for r in result))
    if not hasattr(result, "dtype"):
        return ("value", _plain(result))
    if str(result.dtype).endswith(("bfloat16", "float16")):
        values = result.float().tolist()
    else:
        values = result.resolve_conj().tolist()
    return ("tensor", str(result.dtype).split(".")[-1], tuple(result.shape), _plain(values))


def outcome(module: Any, fn: Any) -> tuple:
    """``(exception class name, message)`` of ``fn(module)``, or ``("ok", description)`` of its result (a
    tensor's dtype, shape and values; a tuple's items)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = fn(module)
    except Exception as exc:  # noqa: BLE001 - every exception is an answer
        return type(exc).__name__, str(exc)
    return "ok", _described(result)


def _T(t: Any, values: Any, dtype: str) -> Any:
    return t.tensor(values, dtype=getattr(t, dtype))


def _inplace(t: Any, operator: str, dtype: str, other: Any) -> Any:
    """``a <operator>= other`` on a tensor ``a``: the result and whether it is ``a`` itself (in place)."""
    a = _T(t, [5, 6, -7], dtype)
    original = a
    namespace = {"a": a, "other": other}
    exec(f"a {operator}= other", namespace)  # noqa: S102 - the augmented assignment is what is under test
    return namespace["a"], namespace["a"] is original


def _grad(t: Any, fn: Any, values: Any, weights: Any = None) -> Any:
    """The gradient of ``(fn(x) * weights).sum()`` (weights of ones by default) at a float64 ``x``."""
    x = t.tensor(values, dtype=t.float64, requires_grad=True)
    out = fn(x)
    out = out[0] if isinstance(out, tuple) else out
    w = t.ones_like(out) if weights is None else t.tensor(weights, dtype=t.float64)
    (out * w).sum().backward()
    return x.grad


_NAN, _INF = math.nan, math.inf


CASES: dict = {
    # augmented assignments that PyTorch runs in place
    "ifloordiv": lambda t: _inplace(t, "//", "int64", 2),
    "imod": lambda t: _inplace(t, "%", "int64", 4),
    "iand": lambda t: _inplace(t, "&", "int32", 3),
    "ior": lambda t: _inplace(t, "|", "int8", 8),
    "ixor": lambda t: _inplace(t, "^", "int64", 1),
    "imod_float_into_int": lambda t: _inplace(t, "%", "int64", 1.5),
    # true division of integer tensors: the operands' values, not their common integer dtype's
    "div_uint8_by_negative_0d": lambda t: _T(t, [4, 200], "uint8") / t.tensor(-5),
    "div_int8_by_large_0d": lambda t: _T(t, [4, -3], "int8") / t.tensor(1000),
    "true_divide_uint8_by_int_number": lambda t: t.true_divide(_T(t, [4, 9], "uint8"), -2),
    # in-place ops on empty tensors with a stride 0 somewhere
    "sign_empty_transposed": lambda t: t.zeros(3, 0, 2, dtype=t.bool).transpose(0, 2).sign_(),
    "div_empty_expanded": lambda t: t.zeros(2, 0, 3).div_(t.ones(1, 3)),
    # linspace and logspace of integer dtypes: the ends are first cast to the dtype
    "linspace_int8_fraction_ends": lambda t: t.linspace(2.5, 0.5, 4, dtype=t.int8),
    "linspace_int64_uneven": lambda t: t.linspace(0, 10, 4, dtype=t.int64),
    "linspace_int32_fraction": lambda t: t.linspace(-2.5, 7.9, 6, dtype=t.int32),
    "logspace_int64_descending": lambda t: t.logspace(1, -1, 3, dtype=t.int64),
    "logspace_int32_base2": lambda t: t.logspace(0.5, 3.7, 4, base=2, dtype=t.int32),
    "logspace_float": lambda t: t.logspace(0, 1, 5),
    "linspace_complex": lambda t: t.linspace(0, 1, 3, dtype=t.complex64),
    "linspace_bool": lambda t: t.linspace(0, 1, 3, dtype=t.bool),
    "logspace_bool": lambda t: t.logspace(0, 1, 3, dtype=t.bool),
    "arange_complex": lambda t: t.arange(5, dtype=t.complex64),
    "range_wrong_sign": lambda t: t.range(3, 2.5),
    "range_negative_step": lambda t: t.range(0, 3, -1),
    # pow of bools
    "bool_pow_true": lambda t: _T(t, [True, False], "bool") ** True,
    "bool_pow_false": lambda t: _T(t, [True, False], "bool") ** False,
    "bool_pow_bool_tensor": lambda t: _T(t, [True, False], "bool") ** _T(t, [True, False], "bool"),
    "true_pow_bool_tensor": lambda t: t.pow(True, _T(t, [True, False], "bool")),
    "bool_pow_int": lambda t: t.pow(_T(t, [True, False], "bool"), 2),
    "int_pow_bool_tensor": lambda t: _T(t, [1, 2], "int64") ** _T(t, [True, False], "bool"),
    # ldexp and float_power dtypes
    "ldexp_half_long": lambda t: t.ldexp(_T(t, [1.5], "float16"), _T(t, [2], "int64")),
    "ldexp_bfloat16_uint8": lambda t: t.ldexp(_T(t, [1.5], "bfloat16"), _T(t, [2], "uint8")),
    "ldexp_int_int": lambda t: t.ldexp(_T(t, [1], "int32"), _T(t, [2], "int64")),
    "ldexp_int_half": lambda t: t.ldexp(_T(t, [1], "int32"), _T(t, [2], "float16")),
    "ldexp_complex": lambda t: t.ldexp(_T(t, [1 + 1j], "complex64"), _T(t, [2], "int64")),
    "float_power_complex_exponent": lambda t: t.float_power(_T(t, [1.5], "float32"), _T(t, [2j], "complex64")),
    "float_power_complex_number": lambda t: t.float_power(_T(t, [2], "int64"), 1j),
    "float_power_complex_base": lambda t: t.float_power(_T(t, [2j], "complex64"), 1.5),
    # shifts, gcd and lcm take a bool operand that meets an integer one
    "lshift_by_true": lambda t: _T(t, [1, 2], "int64") << True,
    "bool_lshift_number": lambda t: _T(t, [True, False], "bool") << 1,
    "number_lshift_bool": lambda t: 2 << _T(t, [True, False], "bool"),
    "bool_rshift_bool": lambda t: _T(t, [True, False], "bool") >> _T(t, [True, False], "bool"),
    "int_rshift_float_number": lambda t: _T(t, [1, 2], "int32") >> 1.5,
    "gcd_bool_long": lambda t: t.gcd(_T(t, [True], "bool"), _T(t, [2], "int64")),
    "lcm_bool_bool": lambda t: t.lcm(_T(t, [True], "bool"), _T(t, [True], "bool")),
    "lcm_uint8_double": lambda t: t.lcm(_T(t, [1], "uint8"), _T(t, [2.0], "float64")),
    # threshold keeps NaN; soft_margin_loss answers in input's dtype
    "threshold_nan": lambda t: t.nn.functional.threshold(_T(t, [math.nan, 0.0, 1.0], "float32"), 0.1, 20.0),
    "soft_margin_loss_bfloat16_float": lambda t: t.nn.functional.soft_margin_loss(
        _T(t, [1.0, -2.0], "bfloat16"), _T(t, [1.0, 1.0], "float32")),
    "soft_margin_loss_float_double": lambda t: t.nn.functional.soft_margin_loss(
        _T(t, [1.0, -2.0], "float32"), _T(t, [1.0, -1.0], "float64"), reduction="none"),
    "soft_margin_loss_long_float": lambda t: t.nn.functional.soft_margin_loss(
        _T(t, [1, 2], "int64"), _T(t, [1.0, 1.0], "float32")),
    # einsum sums integers in int64 and contracts with bmm (no bool kernel)
    "einsum_bool_sum": lambda t: t.einsum("ij->j", t.ones(2, 3, dtype=t.bool)),
    "einsum_int8_total": lambda t: t.einsum("ij->", t.ones(2, 2, dtype=t.int8)),
    "einsum_bool_trace": lambda t: t.einsum("ii", t.ones(2, 2, dtype=t.bool)),
    "einsum_bool_contraction": lambda t: t.einsum("i,i", t.ones(2, dtype=t.bool), t.ones(2, dtype=t.bool)),
    "einsum_bool_product": lambda t: t.einsum("i,i->i", t.ones(2, dtype=t.bool), t.ones(2, dtype=t.bool)),
    "einsum_int8_contraction": lambda t: t.einsum("i,i", t.ones(2, dtype=t.int8), t.ones(2, dtype=t.int8)),
    # round with decimals has no integer kernel; clamp with number bounds none for bool
    "round_long_decimals_0": lambda t: t.round(_T(t, [1], "int64"), decimals=0),
    "round_int_decimals_1": lambda t: _T(t, [1], "int32").round(decimals=1),
    "round_long": lambda t: t.round(_T(t, [3], "int64")),
    "round_float_decimals_0": lambda t: t.round(_T(t, [2.5, 3.5], "float32"), decimals=0),
    "clamp_bool_min_number": lambda t: t.clamp(_T(t, [True], "bool"), min=False),
    "clamp_bool_max_number": lambda t: t.clamp(_T(t, [True], "bool"), max=True),
    "clamp_bool_both_numbers": lambda t: t.clamp(_T(t, [True], "bool"), False, True),
    "clamp_bool_both_tensors": lambda t: t.clamp(_T(t, [True], "bool"), _T(t, [False], "bool"),
                                                 _T(t, [True], "bool")),
    "clamp_bool_min_tensor": lambda t: t.clamp(_T(t, [True], "bool"), min=_T(t, [False], "bool")),
    "clamp_bool_min_int": lambda t: t.clamp(_T(t, [True], "bool"), min=2),
    # bfloat16 sorts with NaN last (ml_dtypes' own sort leaves such an array out of order)
    "sort_bfloat16_nan": lambda t: t.sort(_T(t, [1.0, math.nan, -1.0, math.inf, 2.0], "bfloat16")),
    "sort_bfloat16_nan_descending": lambda t: t.sort(_T(t, [1.0, math.nan, -1.0, math.inf], "bfloat16"),
                                                     descending=True),
    "argsort_bfloat16_nan": lambda t: t.argsort(_T(t, [[2.0, math.nan, -1.0], [0.5, -3.0, math.nan]], "bfloat16")),
    "msort_bfloat16_nan": lambda t: t.msort(_T(t, [[2.0, 1.0], [math.nan, -1.0], [0.0, 5.0]], "bfloat16")),
    "unique_bfloat16_nan": lambda t: t.unique(_T(t, [1.0, math.nan, -1.0, 2.0, 1.0], "bfloat16"), return_counts=True),
    "topk_bfloat16_nan": lambda t: t.topk(_T(t, [1.0, math.nan, -1.0, 2.0], "bfloat16"), 2),
    # unique along a dimension: PyTorch's errors; unique_consecutive of empty tensors
    "unique_dim_0d": lambda t: t.unique(t.tensor(1), dim=0),
    "unique_consecutive_dim_0d": lambda t: t.unique_consecutive(t.tensor(1), dim=-1),
    "unique_unselected_empty_dim": lambda t: t.unique(t.zeros(2, 0), dim=0),
    "unique_selected_empty_dim": lambda t: t.unique(t.zeros(0, 3), dim=0),
    "unique_consecutive_unselected_empty": lambda t: t.unique_consecutive(t.zeros(2, 0, 3), dim=-1),
    "unique_consecutive_empty": lambda t: t.unique_consecutive(t.zeros(2, 0, 3), return_inverse=True,
                                                               return_counts=True),
    "unique_consecutive_empty_dim": lambda t: t.unique_consecutive(t.zeros(0, 3, dtype=t.int64), dim=0),
    # kthvalue's checks in PyTorch's order: the dimension's size, then k, then the dtype
    "kthvalue_empty_dim": lambda t: t.kthvalue(t.zeros(2, 0), 1),
    "kthvalue_empty_other_dim": lambda t: t.kthvalue(t.zeros(0, 2), 1, 1),
    "kthvalue_bool_k_out_of_range": lambda t: t.kthvalue(t.ones(1, 3, dtype=t.bool), 2, -2),
    "kthvalue_bool": lambda t: t.kthvalue(t.ones(3, dtype=t.bool), 2),
    # addcmul and addcdiv compute in the common dtype of all three operands
    "addcmul_long_value_fraction": lambda t: t.addcmul(t.ones(2, dtype=t.int64), t.ones(2, dtype=t.int64),
                                                       t.full((2,), 3), value=1.5),
    "addcmul_long_float_operand": lambda t: t.addcmul(t.ones(2, dtype=t.int64), t.ones(2), t.full((2,), 3),
                                                      value=1.5),
    "addcmul_int8_wraps": lambda t: t.addcmul(t.ones(2, dtype=t.int8), t.ones(2, dtype=t.int8),
                                              t.full((2,), 100, dtype=t.int8), value=2),
    "addcmul_half_float": lambda t: t.addcmul(t.ones(2, dtype=t.float16), t.ones(2), t.full((2,), 3), value=1.5),
    "addcmul_bool": lambda t: t.addcmul(t.ones(2, dtype=t.bool), t.ones(2, dtype=t.bool), t.ones(2, dtype=t.bool)),
    "addcdiv_integers": lambda t: t.addcdiv(t.ones(2), t.ones(2, dtype=t.int64), t.ones(2, dtype=t.bool)),
    "addcdiv_long_input": lambda t: t.addcdiv(t.ones(2, dtype=t.int64), t.ones(2), t.full((2,), 4, dtype=t.int64),
                                              value=0.5),
    "addcdiv_half": lambda t: t.addcdiv(t.ones(2, dtype=t.float16), t.ones(2, dtype=t.float16),
                                        t.full((2,), 3, dtype=t.float16), value=0.5),
    "lerp_long_number_weight": lambda t: t.lerp(t.ones(2, dtype=t.int64), t.ones(2, dtype=t.int64), 0.5),
    "lerp_bool_number_weight": lambda t: t.lerp(t.ones(2, dtype=t.bool), t.ones(2, dtype=t.bool), 0.5),
    # softmax of a 0-d infinity is NaN; an empty integer tensor reaches no kernel
    "softmax_0d_inf": lambda t: t.softmax(t.tensor(math.inf, dtype=t.float64), 0),
    "softmax_0d_minus_inf": lambda t: t.softmax(t.tensor(-math.inf), 0),
    "softmin_0d_inf": lambda t: t.nn.functional.softmin(t.tensor(math.inf), 0),
    "log_softmax_0d_inf": lambda t: t.log_softmax(t.tensor(math.inf), 0),
    "log_softmax_0d": lambda t: t.log_softmax(t.tensor(2.0), 0),
    "softmax_empty_long": lambda t: t.softmax(t.zeros(0, dtype=t.int64), 0),
    "log_softmax_empty_bool": lambda t: t.log_softmax(t.zeros(2, 0, dtype=t.bool), 1),
    "softmax_empty_to_complex": lambda t: t.softmax(t.zeros(0), 0, dtype=t.complex64),
    "softmax_long": lambda t: t.softmax(t.zeros(2, dtype=t.int64), 0),
    # a half-precision mean of integers accumulates in float32
    "mean_int_as_half": lambda t: t.mean(t.tensor([30000, 30000, 30000], dtype=t.int32), dtype=t.float16),
    "mean_int_as_bfloat16_dim": lambda t: t.mean(t.tensor([[300000, 300001, 3]], dtype=t.int32), 1,
                                                 dtype=t.bfloat16),
    # index ops: negative positions, index dtypes, source dtypes
    "scatter_negative_index": lambda t: t.scatter(t.ones(3), 0, t.tensor([-1]), t.ones(1)),
    "scatter_value_negative_index": lambda t: t.scatter(t.ones(3), 0, t.tensor([-1]), 2.0),
    "scatter_reduce_negative_index": lambda t: t.scatter_reduce(t.ones(3), 0, t.tensor([-1]), t.ones(1), "sum"),
    "index_add_negative_vector": lambda t: t.index_add(t.ones(3), 0, t.tensor([-1]), t.ones(1)),
    "index_add_negative_matrix": lambda t: t.index_add(t.ones(2, 3), 1, t.tensor([-1]), t.ones(2, 1)),
    "index_copy_negative": lambda t: t.index_copy(t.ones(2, 3), 1, t.tensor([-1]), t.ones(2, 1)),
    "index_fill_negative": lambda t: t.index_fill(t.ones(2, 3), 1, t.tensor([-1]), 2),
    "index_fill_int_index": lambda t: t.index_fill(t.ones(3), 0, t.tensor([0], dtype=t.int32), 1),
    "index_copy_int_index": lambda t: t.index_copy(t.ones(3), 0, t.tensor([0], dtype=t.int32), t.ones(1)),
    "index_add_int_index": lambda t: t.index_add(t.ones(3), 0, t.tensor([0], dtype=t.int32), t.ones(1)),
    "index_add_double_source": lambda t: t.index_add(t.ones(3), 0, t.tensor([0]), t.ones(1, dtype=t.float64)),
    "index_put_double_values": lambda t: t.ones(3).index_put((t.tensor([0]),), t.tensor(2.0, dtype=t.float64)),
    "index_put_long_values": lambda t: t.ones(3).index_put_((t.tensor([0]),), t.tensor(2), accumulate=True),
    # real sgn is 0 at NaN; bfloat16 running extremes keep NaN; empty inputs of cummax take any dim
    "sgn_nan_float": lambda t: t.sgn(_T(t, [math.nan, 1.0, -2.0, 0.0, -0.0], "float64")),
    "sgn_nan_bfloat16": lambda t: t.sgn(_T(t, [math.nan, 1.0, -2.0, 0.0], "bfloat16")),
    "sgn_int": lambda t: t.sgn(_T(t, [3, -2, 0], "int8")),
    "cummax_bfloat16_nan": lambda t: t.cummax(_T(t, [-math.inf, 0.5, math.nan, 0.25], "bfloat16"), 0),
    "cummin_bfloat16_nan": lambda t: t.cummin(_T(t, [-math.inf, 0.5, math.nan, 0.25], "bfloat16"), 0),
    "cummax_empty_any_dim": lambda t: t.cummax(t.zeros(2, 0), 3),
    # cumulative sums and products have no bool kernel; a bool alpha needs a bool result
    "cumsum_as_bool": lambda t: t.cumsum(t.ones(2), 0, dtype=t.bool),
    "cumprod_as_bool": lambda t: t.cumprod(t.ones(2), 0, dtype=t.bool),
    "add_bool_alpha_float": lambda t: t.add(t.ones(2), t.ones(2), alpha=True),
    "sub_bool_alpha_long": lambda t: t.sub(t.ones(2, dtype=t.int64), t.ones(2, dtype=t.int64), alpha=True),
    "add_bool_alpha_bool": lambda t: t.add(t.ones(2, dtype=t.bool), t.zeros(2, dtype=t.bool), alpha=True),
    # inf and negative norms of empty tensors have no identity
    "vector_norm_empty_minus_1": lambda t: t.linalg.vector_norm(t.ones(0), -1),
    "vector_norm_empty_minus_half": lambda t: t.linalg.vector_norm(t.ones(0), -0.5),
    "vector_norm_empty_minus_inf": lambda t: t.linalg.vector_norm(t.ones(0), -math.inf),
    "vector_norm_empty_dim_inf": lambda t: t.linalg.vector_norm(t.ones(2, 0), math.inf, dim=1),
    "vector_norm_empty_dims_minus_2": lambda t: t.linalg.vector_norm(t.ones(2, 0), -2, dim=(0, 1)),
    "vector_norm_nonempty_dim_minus_1": lambda t: t.linalg.vector_norm(t.ones(2, 0), -1, dim=0),
    "norm_empty_minus_1": lambda t: t.norm(t.ones(0), -1),
    # operators on the wrong dtypes, and trace's dtype check first
    "invert_half": lambda t: ~t.ones(2, dtype=t.float16),
    "invert_complex": lambda t: ~t.ones(2, dtype=t.complex64),
    "bitwise_not_float": lambda t: t.bitwise_not(t.ones(2)),
    "unary_plus_bool": lambda t: +t.ones(2, dtype=t.bool),
    "positive_bool": lambda t: t.positive(t.ones(2, dtype=t.bool)),
    "unary_plus_int8": lambda t: +t.ones(2, dtype=t.int8),
    "trace_bool_vector": lambda t: t.trace(t.ones(2, dtype=t.bool)),
    "trace_int8_matrix": lambda t: t.trace(t.ones(2, 3, dtype=t.int8)),
    # amax/amin scatter_reduce of integers without the old values; empty tensordot and batch_norm
    "scatter_reduce_uint8_amax_no_self": lambda t: t.scatter_reduce(
        t.full((3,), 5, dtype=t.uint8), 0, t.tensor([0, 0, 2]), t.tensor([1, 3, 2], dtype=t.uint8), "amax",
        include_self=False),
    "scatter_reduce_int_amin_no_self": lambda t: t.scatter_reduce(
        t.full((3,), 5, dtype=t.int32), 0, t.tensor([0, 0, 2]), t.tensor([1, 3, 2], dtype=t.int32), "amin",
        include_self=False),
    "scatter_reduce_bool_amin_no_self": lambda t: t.scatter_reduce(
        t.full((3,), True), 0, t.tensor([0, 0, 2]), t.tensor([False, False, True]), "amin", include_self=False),
    "scatter_reduce_empty_no_self": lambda t: t.scatter_reduce(
        t.ones(2, 0, dtype=t.uint8), 1, t.ones(2, 0, dtype=t.int64), t.ones(2, 1, dtype=t.uint8), "amax",
        include_self=False),
    "tensordot_empty_contraction": lambda t: t.tensordot(t.ones(0, 0, dtype=t.float64), t.ones(0, 2,
                                                                                              dtype=t.float64), 1),
    "tensordot_empty_free": lambda t: t.tensordot(t.ones(2, 3), t.ones(3, 0), 1),
    "batch_norm_empty_batch": lambda t: t.nn.functional.batch_norm(t.ones(0, 3), None, None, training=True),
    "batch_norm_empty_affine": lambda t: t.nn.functional.batch_norm(
        t.ones(0, 3), None, None, t.full((3,), 2.0), t.full((3,), 3.0), training=True),
    # complex inputs: the reductions PyTorch has kernels for, and its own errors for those it has not
    "cumprod_complex": lambda t: t.cumprod(_T(t, [1 + 1j, 2j, 3.0], "complex64"), 0),
    "logsumexp_complex": lambda t: t.logsumexp(_T(t, [[1 + 1j, 2j, 3.0], [0.5, -1j, 2 - 1j]], "complex128"), 1),
    "std_mean_complex": lambda t: t.std_mean(_T(t, [1 + 1j, 2j, 3.0], "complex64")),
    "var_mean_complex_dim": lambda t: t.var_mean(_T(t, [[1 + 1j, 2j], [3.0, -1j]], "complex128"), 0),
    "sort_complex": lambda t: t.sort(_T(t, [1 + 1j, 2j], "complex64")),
    "argsort_complex": lambda t: t.argsort(_T(t, [1 + 1j, 2j], "complex64")),
    "topk_complex": lambda t: t.topk(_T(t, [1 + 1j, 2j], "complex64"), 1),
    "unique_complex": lambda t: t.unique(_T(t, [1 + 1j, 2j], "complex64")),
    "unique_dim_complex": lambda t: t.unique(_T(t, [1 + 1j, 2j], "complex64"), dim=0),
    "unique_consecutive_complex": lambda t: t.unique_consecutive(_T(t, [1 + 1j, 2j], "complex64"), dim=0),
    "cummax_complex": lambda t: t.cummax(_T(t, [1 + 1j, 2j], "complex64"), 0),
    "aminmax_complex": lambda t: t.aminmax(_T(t, [1 + 1j, 2j], "complex64")),
    "amax_complex": lambda t: t.amax(_T(t, [1 + 1j, 2j], "complex64")),
    "amin_complex_dim": lambda t: t.amin(_T(t, [1 + 1j, 2j], "complex64"), 0),
    "max_complex": lambda t: t.max(_T(t, [1 + 1j, 2j], "complex64")),
    "min_complex_dim": lambda t: t.min(_T(t, [1 + 1j, 2j], "complex64"), 0),
    "max_complex_other": lambda t: t.max(_T(t, [1 + 1j, 2j], "complex64"), _T(t, [1 + 1j, 2j], "complex64")),
    "tensor_min_complex_other": lambda t: _T(t, [1 + 1j, 2j], "complex64").min(t.ones(2)),
    "fmax_complex": lambda t: t.fmax(_T(t, [1 + 1j, 2j], "complex64"), _T(t, [1 + 1j, 2j], "complex64")),
    "heaviside_complex": lambda t: t.heaviside(_T(t, [1 + 1j, 2j], "complex64"), _T(t, [1 + 1j, 2j], "complex64")),
    "nansum_complex": lambda t: t.nansum(_T(t, [1 + 1j, 2j], "complex64")),
    "nansum_as_complex": lambda t: t.nansum(_T(t, [1.0, math.nan], "float32"), dtype=t.complex64),
    "nanmean_as_long": lambda t: t.nanmean(_T(t, [1.0, math.nan], "float32"), dtype=t.int64),
    "nanmean_as_double": lambda t: t.nanmean(_T(t, [1.0, math.nan], "float32"), dtype=t.float64),
    "logsumexp_no_dims": lambda t: t.logsumexp(t.zeros(3, 2), dim=[]),
    "logsumexp_no_dims_keepdim": lambda t: t.logsumexp(t.zeros(3, 2), dim=[], keepdim=True),
    "logsumexp_0d_no_dims": lambda t: t.logsumexp(t.zeros(()), dim=()),
    # fused products take one dtype; chain_matmul only matrices; 0-d tensors in tensor_split and index_select
    "addmm_mixed_dtypes": lambda t: t.addmm(t.zeros(1, dtype=t.float64), t.ones(3, 1), t.ones(1, 1)),
    "addmm_half_input": lambda t: t.addmm(t.zeros(1, dtype=t.float16), t.ones(3, 1), t.ones(1, 1)),
    "addmv_mixed_dtypes": lambda t: t.addmv(t.zeros(1), t.ones(3, 1, dtype=t.float64), t.ones(1)),
    "baddbmm_mixed_dtypes": lambda t: t.baddbmm(t.zeros(1, dtype=t.float64), t.ones(2, 3, 1), t.ones(2, 1, 1)),
    "addbmm_mixed_dtypes": lambda t: t.addbmm(t.zeros(1), t.ones(2, 3, 1, dtype=t.float64),
                                              t.ones(2, 1, 1, dtype=t.float64)),
    "chain_matmul_vector": lambda t: t.chain_matmul(t.ones(3, 3), t.ones(3)),
    "chain_matmul_one_vector": lambda t: t.chain_matmul(t.ones(3)),
    "chain_matmul_three": lambda t: t.chain_matmul(t.ones(2, 3), t.full((3, 4), 2.0), t.ones(4, 1)),
    "tensor_split_0d": lambda t: t.tensor_split(t.ones(()), 2),
    "index_select_0d": lambda t: t.index_select(t.tensor(1.5), 0, t.tensor([0])),
    "index_select_0d_two": lambda t: t.index_select(t.tensor(1.0), 0, t.tensor([0, 0])),
    "index_select_0d_out_of_range": lambda t: t.index_select(t.tensor(1.0), 0, t.tensor([1])),
    "squeeze_repeated_dims": lambda t: t.squeeze(t.ones(1, 2), (0, -2)),
    "squeeze_0d_repeated_dims": lambda t: t.squeeze(t.ones(()), (0, 0)),
    "meshgrid_mixed_dtypes": lambda t: t.meshgrid(t.ones(2), t.ones(2, dtype=t.float64), indexing="ij"),
    # multi_margin_loss adds no NaN term and has no bfloat16 kernel; soft_margin_loss of integers
    "multi_margin_loss_nan": lambda t: t.nn.functional.multi_margin_loss(
        _T(t, [[0.5, math.nan, 0.0], [math.nan, -3.0, 0.0]], "float32"), t.tensor([0, 1])),
    "multi_margin_loss_nan_p2": lambda t: t.nn.functional.multi_margin_loss(
        _T(t, [[0.5, math.nan, 0.0], [math.nan, -3.0, 0.0]], "float32"), t.tensor([1, 1]), p=2, reduction="none"),
    "multi_margin_loss_bfloat16": lambda t: t.nn.functional.multi_margin_loss(t.ones(1, 4, dtype=t.bfloat16),
                                                                              t.tensor([1])),
    "soft_margin_loss_longs": lambda t: t.nn.functional.soft_margin_loss(t.ones(2, dtype=t.int64),
                                                                         t.ones(2, dtype=t.int64)),
    # an int alpha in an integer dtype: wrapped, or PyTorch's overflow error
    "add_uint8_negative_alpha": lambda t: t.add(_T(t, [[69, 202, 121]], "uint8"), _T(t, [[True, False, True]], "bool"),
                                                alpha=-4),
    "sub_uint8_alpha_overflow": lambda t: t.sub(_T(t, [69, 202], "uint8"), _T(t, [1, 0], "uint8"), alpha=300),
    "add_int8_alpha_overflow": lambda t: t.add(_T(t, [1, 2], "int8"), _T(t, [1, 2], "int8"), alpha=-200),
    "add_int32_alpha_overflow": lambda t: t.add(_T(t, [1, 2], "int32"), _T(t, [1, 2], "int32"), alpha=2**40),
    "add_float_int8_big_alpha": lambda t: t.add(_T(t, [1.5, 2], "float32"), _T(t, [1, 2], "int8"), alpha=-200),
    # negative powers of unsigned integers, empty quantiles, index_fill of a scalar with no index
    "uint8_pow_negative": lambda t: _T(t, [2, 3], "uint8").pow(-5),
    "bool_pow_negative": lambda t: _T(t, [True], "bool") ** -1,
    "quantile_empty": lambda t: t.zeros(0).quantile(0.5),
    "quantile_empty_dim": lambda t: t.zeros(2, 0).quantile(0.5, 1),
    "index_fill_0d_no_index": lambda t: t.tensor(1.5).index_fill_(0, t.tensor([], dtype=t.int64), -1.5),
    "index_fill_0d": lambda t: t.tensor(1.5).index_fill_(0, t.tensor([0]), -1.5),
    # 0-d and empty operands: gather, matmul, linear, pairwise_distance
    "gather_0d": lambda t: t.gather(t.tensor(1.5), 0, t.tensor(0)),
    "gather_0d_out_of_range": lambda t: t.gather(t.tensor(1.5), 0, t.tensor(1)),
    "matmul_batch_no_inner": lambda t: t.matmul(t.ones(2, 0, 0), t.ones(0, 0)),
    "matmul_batch_vector_no_inner": lambda t: t.matmul(t.ones(2, 3, 0), t.ones(0)),
    "linear_no_features_bias": lambda t: t.nn.functional.linear(t.ones(2, 0, 0), t.ones(0, 0), t.ones(0)),
    "pairwise_distance_0d": lambda t: t.nn.functional.pairwise_distance(t.tensor(1.0), t.tensor(3.0)),
    "triplet_margin_loss_0d": lambda t: t.nn.functional.triplet_margin_loss(t.tensor(1.0), t.tensor(3.0),
                                                                            t.tensor(0.0)),
    # float16 meets complex64 in complex64; PyTorch's checked casts of int fill values
    "half_plus_complex": lambda t: t.ones(2, dtype=t.float16) + _T(t, [1j, 2], "complex64"),
    "half_eq_complex": lambda t: t.ones(2, dtype=t.float16) == _T(t, [1j, 1], "complex64"),
    "complex_ne_half": lambda t: _T(t, [1j, 1], "complex64") != t.ones(2, dtype=t.float16),
    "logical_xor_half_complex": lambda t: t.logical_xor(t.ones(2, dtype=t.float16), _T(t, [0j, 1], "complex64")),
    "promote_types_half_complex": lambda t: t.zeros(1, dtype=t.promote_types(t.float16, t.complex64)),
    "index_fill_uint8_negative": lambda t: t.index_fill(t.zeros(2, 2, dtype=t.uint8), 0, t.tensor([0]), -1),
    "index_fill_uint8_overflow": lambda t: t.index_fill(t.zeros(2, 2, dtype=t.uint8), 0, t.tensor([0]), 300),
    "masked_fill_uint8_negative": lambda t: t.zeros(2, dtype=t.uint8).masked_fill(t.tensor([True, False]), -1),
    "masked_fill_uint8_overflow": lambda t: t.zeros(2, dtype=t.uint8).masked_fill(t.tensor([True, False]), 256),
    "masked_fill_int32_overflow": lambda t: t.zeros(2, dtype=t.int32).masked_fill(t.tensor([True, False]), 2**40),
    "scatter_uint8_negative_value": lambda t: t.scatter(t.zeros(2, dtype=t.uint8), 0, t.tensor([1]), -3),
    # integer division by zero only where something is divided
    "floor_divide_empty_by_zero": lambda t: t.zeros(0, dtype=t.int8) // 0,
    "remainder_empty_by_false": lambda t: t.zeros(0, dtype=t.int64).remainder(False),
    "fmod_empty_by_zero": lambda t: t.fmod(t.zeros(0, dtype=t.uint8), 0),
    "remainder_by_false": lambda t: t.zeros(2, dtype=t.int64).remainder(False),
    # losses and distances in the inputs' dtypes; empty group_norm; complex norms with a dtype
    "gaussian_nll_loss_bfloat16": lambda t: t.nn.functional.gaussian_nll_loss(
        _T(t, [1.0, 2.0], "bfloat16"), _T(t, [1.5, 0.0], "bfloat16"), _T(t, [0.5, 1e-9], "bfloat16")),
    "gaussian_nll_loss_clamped_var": lambda t: t.nn.functional.gaussian_nll_loss(
        _T(t, [1.0, 2.0], "float32"), _T(t, [1.5, 0.0], "float32"), _T(t, [0.5, 1e-9], "float32")),
    "cosine_similarity_long_half": lambda t: t.nn.functional.cosine_similarity(t.ones(2, 3, dtype=t.int64),
                                                                               t.ones(2, 3, dtype=t.float16)),
    "cosine_similarity_longs": lambda t: t.nn.functional.cosine_similarity(t.ones(2, 3, dtype=t.int64),
                                                                           t.ones(2, 3, dtype=t.int64)),
    "cosine_similarity_double_float": lambda t: t.nn.functional.cosine_similarity(t.ones(2, 3, dtype=t.float64),
                                                                                  t.ones(3)),
    "group_norm_empty_batch": lambda t: t.nn.functional.group_norm(t.ones(0, 4, 2), 2, t.ones(4), t.zeros(4)),
    "norm_complex_as_complex128": lambda t: t.norm(_T(t, [1 + 1j, 2j], "complex64"), dim=0, dtype=t.complex128),
    "norm_complex_as_double": lambda t: t.norm(_T(t, [1 + 1j, 2j], "complex64"), dim=0, dtype=t.float64),
    "vector_norm_real_as_complex": lambda t: t.linalg.vector_norm(t.ones(2), dtype=t.complex64),
    # scatter takes int32 indices; combinations' empty shapes; mT of vectors and scalars
    "scatter_int_index": lambda t: t.scatter(t.zeros(4, dtype=t.int8), 0, t.tensor([1], dtype=t.int32), 5),
    "scatter_add_int_index": lambda t: t.scatter_add(t.zeros(4), 0, t.tensor([1], dtype=t.int32), t.ones(1)),
    "scatter_reduce_int_index": lambda t: t.scatter_reduce(t.zeros(4), 0, t.tensor([1], dtype=t.int32), t.ones(1),
                                                           "sum"),
    "scatter_uint8_index": lambda t: t.scatter(t.zeros(4), 0, t.tensor([1], dtype=t.uint8), t.ones(1)),
    "scatter_add_uint8_index": lambda t: t.scatter_add(t.zeros(4), 0, t.tensor([1], dtype=t.uint8), t.ones(1)),
    "combinations_too_few": lambda t: t.combinations(t.ones(1), 2),
    "combinations_r0": lambda t: t.combinations(t.ones(3), 0),
    "combinations_with_replacement": lambda t: t.combinations(t.arange(2), 3, with_replacement=True),
    "mT_vector": lambda t: t.ones(3).mT,
    "mT_scalar": lambda t: t.ones(()).mT,
    # dist in the operands' common dtype (complex: the magnitudes'); logdet of complex matrices
    "dist_complex": lambda t: t.dist(_T(t, [1 + 1j, 2j], "complex64"), _T(t, [0j, 1], "complex64")),
    "dist_complex_float_p1": lambda t: t.dist(_T(t, [1 + 1j, 2j], "complex64"), _T(t, [0.0, 1.0], "float32"), 1),
    "dist_int_half": lambda t: t.dist(_T(t, [1, 2], "int32"), _T(t, [0.0, 1.0], "float16")),
    "dist_longs": lambda t: t.dist(t.tensor([1, 2]), t.tensor([0, 1])),
    "dist_float_double": lambda t: t.dist(t.tensor([1.0, 2]), _T(t, [0.0, 1], "float64"), 3),
    "logdet_complex": lambda t: t.logdet(_T(t, [[1 + 1j, 2], [0.5j, -1]], "complex128")),
    # a number's remainder by bfloat16 stays bfloat16; trunc division keeps infinities and signed zeros
    "number_mod_bfloat16": lambda t: 0.5 % _T(t, [1.5, -2.25], "bfloat16"),
    "remainder_number_bfloat16": lambda t: t.remainder(0.001, _T(t, [1.5, -2.25], "bfloat16")),
    "div_trunc_by_zero_and_signs": lambda t: t.div(_T(t, [[0.0], [3.0], [-1.0]], "float64"), t.tensor([[-2, 0, 3]]),
                                                   rounding_mode="trunc"),
    "div_trunc_bfloat16": lambda t: t.div(_T(t, [[0.0], [3.0], [-1.0]], "bfloat16"), t.tensor([[-2, 0, 3]]),
                                          rounding_mode="trunc"),
    # cosine_similarity casts only integer inputs: a bfloat16 one is normed in bfloat16
    "cosine_similarity_bfloat16_double": lambda t: t.nn.functional.cosine_similarity(
        _T(t, [[4.611, -0.838, -1.375, 0.696]], "bfloat16"), _T(t, [[0.759, -0.088, -0.908, -1.93]], "float64")),
    "nansum_int_as_complex": lambda t: t.nansum(_T(t, [1, 2], "int32"), dtype=t.complex64),
    # gradients at kinks, ties and NaNs as PyTorch's subgradient conventions
    "relu_grad_nan_passes": lambda t: _grad(t, t.relu, [_NAN, 0.0, -0.0, 1.0, -1.0]),
    "threshold_grad_nan_passes": lambda t: _grad(t, lambda x: t.nn.functional.threshold(x, 0.5, 2.0), [_NAN, 0.5, 1.0]),
    # at NaN, the bulk of PyTorch's vectorised kernels (8 elements and more) gives hardtanh and the shrinks 0
    "hardtanh_grad_nan": lambda t: _grad(t, t.nn.functional.hardtanh, [_NAN] * 7 + [0.5]),
    "relu6_grad_nan": lambda t: _grad(t, t.nn.functional.relu6, [_NAN] * 7 + [0.5]),
    "hardshrink_grad_nan": lambda t: _grad(t, t.nn.functional.hardshrink, [_NAN] * 6 + [0.5, 2.0]),
    "softshrink_grad_nan": lambda t: _grad(t, t.nn.functional.softshrink, [_NAN] * 6 + [-0.5, 2.0]),
    "hardtanh_grad_at_bounds": lambda t: _grad(t, t.nn.functional.hardtanh, [-1.0, 1.0, 0.5, 2.0, -2.0, 0.0, -1.0, 1]),
    "logit_grad_outside_unit_interval": lambda t: _grad(t, t.logit, [0.0, -0.0, 1.0, 0.5, -0.5, 1.5, _NAN]),
    "logit_grad_negative_zero": lambda t: _grad(t, t.logit, [0.0, -0.0], [-1.0, -1.0]),
    "logit_eps_grad": lambda t: _grad(t, lambda x: t.logit(x, 0.1), [0.0, -0.0, 1.0, 0.5, -0.5, 0.1, 0.9]),
    "pow_half_grad_signed_zero": lambda t: _grad(t, lambda x: x.pow(0.5), [0.0, -0.0, 1.0, -1.0]),
    "xlogy_grad_zero_operands": lambda t: _grad(t, lambda x: t.xlogy(x, t.tensor([2.0, 0.0, 2.0, _NAN, 0.0, -1.0],
                                                                                  dtype=t.float64)),
                                                [-0.0, -0.0, 0.0, -0.0, 1.0, 0.0], [-1.0, -1.0, -1.0, -1.0, 2.0, 1.0]),
    "xlogy_number_grad": lambda t: _grad(t, lambda x: t.xlogy(x, 0.0), [1.0, 0.0, -0.0]),
    "pow_exponent_grad_zero_base": lambda t: _grad(t, lambda x: t.pow(t.tensor([0.0, 0.0, 0.0, -0.0, 2.0, -1.0],
                                                                               dtype=t.float64), x),
                                                   [-1.0, _NAN, 1.0, -2.5, 1.0, 0.5], [-1.0, 1.0, 1.0, 1.0, 1.0, 1.0]),
    "pow_number_zero_base_grad": lambda t: _grad(t, lambda x: t.pow(0.0, x), [-1.0, _NAN, 1.0, -2.5, 0.0]),
    "pow_self_grad_at_zero": lambda t: _grad(t, lambda x: t.pow(x, x), [-1.0, 0.0, 1.0, 0.0]),
    "median_grad_ties_share": lambda t: _grad(t, t.median, [1.0, 1.0, 1.0, 2.0, 0.0]),
    "median_grad_nan_share": lambda t: _grad(t, t.median, [1.0, _NAN, _NAN]),
    "nanmedian_grad_ties_share": lambda t: _grad(t, t.nanmedian, [1.0, 1.0, _NAN, 2.0, 0.0]),
    "nanmedian_grad_all_nan": lambda t: _grad(t, t.nanmedian, [_NAN, _NAN]),
    "max_grad_nan_share": lambda t: _grad(t, lambda x: x.max(), [1.0, _NAN, _NAN]),
    "min_grad_nan_share": lambda t: _grad(t, lambda x: x.min(), [_NAN, 1.0, _NAN]),
    "amax_grad_nan_slice": lambda t: _grad(t, lambda x: x.amax(0), [[1.0, _NAN], [1.0, 2.0]]),
    # nll_loss skips ignored targets: a NaN or an infinity there is not summed in
    "nll_loss_ignored_nan_sum": lambda t: t.nn.functional.nll_loss(
        t.tensor([[_NAN, 1.0], [0.5, _INF]]), t.tensor([1, 0]), ignore_index=1, reduction="sum"),
    "nll_loss_ignored_nan_weighted_mean": lambda t: t.nn.functional.nll_loss(
        t.tensor([[_NAN, 1.0], [0.5, _INF]]), t.tensor([1, 0]), ignore_index=1, weight=t.tensor([2.0, 3.0])),
    "nll_loss_ignored_grad": lambda t: _grad(t, lambda x: t.nn.functional.nll_loss(x, t.tensor([1, 0]), ignore_index=1),
                                             [[_NAN, 1.0], [0.5, _INF]]),
    # 3-d pools: the windows are checked before the dtype; avg_pool3d has no float16 or bfloat16 kernel
    "avg_pool3d_bfloat16": lambda t: t.nn.functional.avg_pool3d(t.ones(1, 1, 2, 2, 2, dtype=t.bfloat16), 2),
    "avg_pool3d_half_kernel_too_big": lambda t: t.nn.functional.avg_pool3d(t.ones(2, 2, 3, 6, 6, dtype=t.float16), 7),
    "avg_pool3d_half_pad_too_big": lambda t: t.nn.functional.avg_pool3d(t.ones(1, 2, 3, 6, 6, dtype=t.float16), 1,
                                                                        padding=1),
    "max_pool3d_output_too_small": lambda t: t.nn.functional.max_pool3d(t.ones(2, 2, 3, 6, 6), 7),
    "max_pool3d_indices_output_too_small": lambda t: t.nn.functional.max_pool3d(t.ones(2, 3, 1, 1), 3, stride=2,
                                                                                return_indices=True),
    "max_pool3d_pad_too_big": lambda t: t.nn.functional.max_pool3d(t.ones(1, 1, 6, 2, 5), 1, stride=2, padding=1),
    "max_pool3d_ceil_mode": lambda t: t.nn.functional.max_pool3d(t.arange(60.0).reshape(1, 1, 6, 2, 5), 2, stride=2,
                                                                 padding=1, ceil_mode=True),
    # prelu's weight checks and a 0-d input's 0-d result
    "prelu_zero_dim_channels": lambda t: t.nn.functional.prelu(t.tensor(1.0), t.tensor([0.25, 0.5])),
    "prelu_zero_dim": lambda t: t.nn.functional.prelu(t.tensor(-1.0), t.tensor([0.25])),
    "prelu_1d_one_channel": lambda t: t.nn.functional.prelu(t.tensor([1.0, -1.0]), t.tensor([0.25, 0.5])),
    "prelu_2d_weight": lambda t: t.nn.functional.prelu(t.tensor([1.0, -1.0]), t.tensor([[0.25]])),
    # fold and unfold of unsupported ranks
    "fold_4d": lambda t: t.nn.functional.fold(t.ones(1, 2, 3, 3), (2, 2), 1),
    "fold_1d": lambda t: t.nn.functional.fold(t.ones(4), (2, 2), 1),
    "unfold_1d": lambda t: t.nn.functional.unfold(t.ones(4), (2, 2)),
    "unfold_2d": lambda t: t.nn.functional.unfold(t.ones(2, 3), (2, 2)),
    "unfold_0d": lambda t: t.nn.functional.unfold(t.tensor(4.0), (2, 2)),
    "unfold_5d": lambda t: t.nn.functional.unfold(t.ones(1, 2, 3, 3, 3), (2, 2)),
    # pdist and cdist have no float16 or bfloat16 kernels; pdist's checks in PyTorch's order
    "pdist_half": lambda t: t.nn.functional.pdist(t.ones(3, 2, dtype=t.float16)),
    "pdist_bfloat16": lambda t: t.nn.functional.pdist(t.ones(3, 2, dtype=t.bfloat16)),
    "pdist_long": lambda t: t.nn.functional.pdist(t.ones(3, 2, dtype=t.int64), -1),
    "pdist_negative_p": lambda t: t.nn.functional.pdist(t.ones(3, 2, dtype=t.float16), -1),
    "cdist_bfloat16": lambda t: t.cdist(t.ones(3, 2, dtype=t.bfloat16), t.ones(3, 2, dtype=t.bfloat16)),
    "cdist_bfloat16_float": lambda t: t.cdist(t.ones(3, 2, dtype=t.bfloat16), t.ones(3, 2)),
    "cdist_float_bfloat16": lambda t: t.cdist(t.ones(3, 2), t.ones(3, 2, dtype=t.bfloat16)),
    # lp_pool with an infinite norm: PyTorch 2.13 takes the max (or min) of |x| over each window
    "lp_pool1d_inf": lambda t: t.nn.functional.lp_pool1d(t.tensor([[[1.0, -3.0, 2.0, _NAN, 0.5, -0.25]]]), _INF, 2),
    "lp_pool1d_minus_inf": lambda t: t.nn.functional.lp_pool1d(t.tensor([[[1.0, -3.0, 2.0, _NAN, 0.5, -0.25]]]),
                                                               -_INF, 2),
    "lp_pool2d_inf_ceil_mode": lambda t: t.nn.functional.lp_pool2d(t.arange(-8.0, 8.0).reshape(1, 1, 4, 4), _INF, 2,
                                                                   stride=1, ceil_mode=True),
    "lp_pool3d_inf": lambda t: t.nn.functional.lp_pool3d(t.arange(-8.0, 8.0).reshape(1, 2, 2, 4), _INF, 2),
    "lp_pool1d_inf_grad": lambda t: _grad(t, lambda x: t.nn.functional.lp_pool1d(x, _INF, 2), [[[1.0, -3.0, 3, -3]]]),
    # local_response_norm of 4-d and larger inputs runs PyTorch's avg_pool3d (no float16 or bfloat16 kernel)
    "local_response_norm_4d_bfloat16": lambda t: t.nn.functional.local_response_norm(
        t.ones(3, 2, 2, 2, dtype=t.bfloat16), 2),
    "local_response_norm_4d_half": lambda t: t.nn.functional.local_response_norm(
        t.ones(3, 2, 2, 2, dtype=t.float16), 2),
    "local_response_norm_3d_bfloat16": lambda t: t.nn.functional.local_response_norm(
        t.ones(3, 2, 2, dtype=t.bfloat16), 2),
    # scaled_dot_product_attention's rank checks
    "sdpa_1d_query": lambda t: t.nn.functional.scaled_dot_product_attention(t.ones(3), t.ones(2, 3), t.ones(2, 3)),
    "sdpa_gqa_2d": lambda t: t.nn.functional.scaled_dot_product_attention(t.ones(2, 3), t.ones(2, 3), t.ones(2, 3),
                                                                          enable_gqa=True),
}
