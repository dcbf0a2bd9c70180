"""Calls that PyTorch refuses (and a few near them that it accepts), one line each as ``lambda t: ...`` with
``t`` the module (``torch`` or ``tinyframe``). ``_torch_errors_record.py`` records PyTorch's answers into
``_torch_errors_expected.py``; ``test_torch_errors.py`` checks tinyframe's against them."""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np


def T(t: Any, dtype: str, *shape: int) -> Any:
    """``ones(*shape)`` of the named dtype (shape ``(2, 3)`` when none is given)."""
    return t.ones(*(shape or (2, 3)), dtype=getattr(t, dtype))


def outcome(module: Any, fn: Any) -> tuple:
    """``(exception class name, message)`` of ``fn(module)``, or ``("ok", dtype, shape)`` of its (first)
    result."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = fn(module)
    except Exception as exc:  # noqa: BLE001 - every exception is an answer
        return type(exc).__name__, str(exc)
    first = result[0] if isinstance(result, tuple) else result
    return "ok", str(first.dtype).split(".")[-1], tuple(first.shape)


def _twice_backward(t: Any) -> Any:
    x = t.ones(2, requires_grad=True)
    y = (x * x).sum()
    y.backward()
    y.backward()


def _modified_after_saving(t: Any, dtype: str = "float32", *, custom: str = "", saved: str = "input") -> Any:
    """Backward (or a ``_saved_*`` read) after an in-place change to what a node saved: an op's input
    (``sin``), its output (``exp``), or a custom Function's (``custom`` names it: G saves its input, H its
    output, M the second of its two outputs)."""
    x = t.ones(3, dtype=getattr(t, dtype), requires_grad=True)
    a = x * 1
    if custom:
        function = _functions(t)[custom]
        out = function.apply(a)
        y, modified = (out[0] + out[1], out[1]) if custom == "M" else (out, a if custom == "G" else out)
    elif saved == "output":
        y = modified = a.exp()
    else:
        y, modified = a.sin(), a
    modified.add_(1)
    if saved == "read":
        return y.grad_fn._saved_self
    return y.real.sum().backward()


def _functions(t: Any) -> dict:
    class G(t.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            (x,) = ctx.saved_tensors
            return g * x

    class H(t.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            (y,) = ctx.saved_tensors
            return g * y

    class M(t.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            a, b = x.exp(), x.sin()
            ctx.save_for_backward(a, b)
            return a, b

        @staticmethod
        def backward(ctx: Any, ga: Any, gb: Any) -> Any:
            a, b = ctx.saved_tensors
            return ga * a + gb * b

    return {"G": G, "H": H, "M": M}


def _leaf_modified(t: Any) -> Any:
    x = t.ones(3, requires_grad=True)
    y = x.sin()
    with t.no_grad():
        x.mul_(2)
    y.sum().backward()


def _slice_modified(t: Any) -> Any:
    a = t.ones(3, requires_grad=True) * 1
    y = _functions(t)["G"].apply(a)
    a[0:2].add_(1)
    y.sum().backward()


def _modified_under_anomaly_detection(t: Any) -> Any:
    with t.autograd.detect_anomaly():
        return _modified_after_saving(t, saved="output")


def _modified_under_hooks(t: Any) -> Any:
    with t.autograd.graph.saved_tensors_hooks(lambda v: v, lambda v: v):
        x = t.ones(3, requires_grad=True)
        y = x.exp()
    y.add_(1)
    y.sum().backward()
    return x.grad


CASES: dict[str, Any] = {
    # in-place results that do not fit the tensor's dtype
    "bool_add_": lambda t: T(t, "bool").add_(2),
    "bool_mul_": lambda t: T(t, "bool").mul_(T(t, "int64")),
    "long_add_float": lambda t: T(t, "int64").add_(1.5),
    "long_sqrt_": lambda t: T(t, "int64").sqrt_(),
    "float_add_complex_": lambda t: T(t, "float32").add_(T(t, "complex64")),
    "leaf_add_": lambda t: t.ones(2, requires_grad=True).add_(1),
    # ops with no Scalar overload
    "maximum_number": lambda t: t.maximum(T(t, "float32"), 1),
    "minimum_number": lambda t: t.minimum(T(t, "float32"), 1.5),
    "atan2_number": lambda t: t.atan2(T(t, "float32"), 1),
    "hypot_number": lambda t: t.hypot(T(t, "float32"), 1.5),
    "logaddexp_number": lambda t: t.logaddexp(T(t, "float32"), 2),
    "logical_and_number": lambda t: t.logical_and(T(t, "float32"), 1),
    "isclose_number": lambda t: t.isclose(T(t, "float32"), 1.0),
    "addcmul_number": lambda t: t.addcmul(T(t, "float32"), T(t, "float32"), 1),
    # bitwise ops of floating operands
    "bitwise_and_float": lambda t: t.bitwise_and(T(t, "float32"), T(t, "int64")),
    "bitwise_or_double": lambda t: t.bitwise_or(T(t, "int64"), T(t, "float64")),
    "bitwise_xor_number": lambda t: t.bitwise_xor(T(t, "int64"), 1.5),
    "bitwise_not_float": lambda t: t.bitwise_not(T(t, "float32")),
    "bitwise_and_shapes_first": lambda t: t.bitwise_and(T(t, "float32"), T(t, "int64", 4)),
    # dimension arguments
    "sum_float_dim": lambda t: T(t, "float32").sum(1.0),
    "softmax_tensor_dim": lambda t: T(t, "float32").softmax(t.tensor([1])),
    "cumsum_none_dim": lambda t: T(t, "float32").cumsum(None),
    "argsort_0d_dim": lambda t: t.ones(()).argsort(1),
    "flatten_0d_dim": lambda t: t.ones(()).flatten(1),
    "median_0d_dim": lambda t: t.median(t.ones(()), 1),
    "sum_numpy_dim": lambda t: T(t, "float32").sum(np.int64(1)),
    "sum_0d_tensor_dim": lambda t: T(t, "float32").sum(t.tensor(1)),
    # random draws of dtypes without a kernel
    "rand_long": lambda t: t.rand(2, dtype=t.int64),
    "randn_bool": lambda t: t.randn(2, dtype=t.bool),
    "rand_like_long": lambda t: t.rand_like(T(t, "int64")),
    "randn_like_byte": lambda t: t.randn_like(T(t, "uint8")),
    "normal_long_mean": lambda t: t.normal(T(t, "int64")),
    "uniform_long": lambda t: T(t, "int64").uniform_(),
    "normal_bool": lambda t: T(t, "bool").normal_(),
    "log_normal_complex": lambda t: T(t, "complex64").log_normal_(),
    "geometric_bool": lambda t: T(t, "bool").geometric_(0.5),
    "exponential_long": lambda t: T(t, "int64").exponential_(),
    "cauchy_byte": lambda t: T(t, "uint8").cauchy_(),
    "bernoulli_long": lambda t: t.bernoulli(T(t, "int64")),
    "bernoulli_complex_": lambda t: T(t, "complex64").bernoulli_(0.5),
    "poisson_long": lambda t: t.poisson(T(t, "int64")),
    "random_complex": lambda t: T(t, "complex64").random_(2),
    "randint_complex": lambda t: t.randint(3, (2,), dtype=t.complex64),
    "bernoulli_long_p": lambda t: T(t, "int64").bernoulli_(0.5),
    "random_bool": lambda t: T(t, "bool").random_(2),
    "geometric_byte": lambda t: T(t, "uint8").geometric_(0.5),
    "rand_complex": lambda t: t.rand(2, dtype=t.complex64),
    # matrix products of bool tensors
    "matmul_bool": lambda t: t.matmul(T(t, "bool", 2, 3), T(t, "bool", 3, 2)),
    "matmul_bool_vectors": lambda t: t.matmul(T(t, "bool", 3), T(t, "bool", 3)),
    "matmul_bool_matrix_vector": lambda t: t.matmul(T(t, "bool", 2, 3), T(t, "bool", 3)),
    "matmul_bool_batched": lambda t: t.matmul(T(t, "bool", 2, 2, 3), T(t, "bool", 2, 3, 2)),
    "matmul_bool_shapes_first": lambda t: t.matmul(T(t, "bool", 2, 3), T(t, "bool", 2, 3)),
    "mm_bool": lambda t: t.mm(T(t, "bool", 2, 3), T(t, "bool", 3, 2)),
    "bmm_bool": lambda t: t.bmm(T(t, "bool", 1, 2, 3), T(t, "bool", 1, 3, 2)),
    "mv_bool": lambda t: t.mv(T(t, "bool", 2, 3), T(t, "bool", 3)),
    "dot_bool": lambda t: t.dot(T(t, "bool", 3), T(t, "bool", 3)),
    "inner_bool": lambda t: t.inner(T(t, "bool", 2, 3), T(t, "bool", 2, 3)),
    "trace_bool": lambda t: t.trace(T(t, "bool", 3, 3)),
    "addmm_bool": lambda t: t.addmm(T(t, "bool", 3, 3), T(t, "bool", 3, 3), T(t, "bool", 3, 3)),
    "baddbmm_bool": lambda t: t.baddbmm(T(t, "bool", 1, 2, 2), T(t, "bool", 1, 2, 3), T(t, "bool", 1, 3, 2)),
    "linear_bool": lambda t: t.nn.functional.linear(T(t, "bool", 2, 3), T(t, "bool", 4, 3)),
    "outer_bool": lambda t: t.outer(T(t, "bool", 3), T(t, "bool", 3)),
    "addr_bool": lambda t: t.addr(T(t, "bool", 2, 2), T(t, "bool", 2), T(t, "bool", 2)),
    "trace_long": lambda t: t.trace(T(t, "int64", 3, 3)),
    # kernels built for floating dtypes only
    "elu_long": lambda t: t.nn.functional.elu(T(t, "int64")),
    "leaky_relu_bool": lambda t: t.nn.functional.leaky_relu(T(t, "bool")),
    "gelu_long": lambda t: t.nn.functional.gelu(T(t, "int64")),
    "softplus_long": lambda t: t.nn.functional.softplus(T(t, "int64")),
    "mish_long": lambda t: t.nn.functional.mish(T(t, "int64")),
    "celu_long": lambda t: t.nn.functional.celu(T(t, "int64")),
    "rrelu_long": lambda t: t.nn.functional.rrelu(T(t, "int64")),
    "rrelu_bounds": lambda t: t.nn.functional.rrelu(T(t, "float32"), 0.5, 0.1),
    "hardshrink_long": lambda t: t.nn.functional.hardshrink(T(t, "int64")),
    "hardshrink_complex": lambda t: t.nn.functional.hardshrink(T(t, "complex64")),
    "softshrink_bool": lambda t: t.nn.functional.softshrink(T(t, "bool")),
    "prelu_long": lambda t: t.nn.functional.prelu(T(t, "int64"), T(t, "int64", 1)),
    "celu_none": lambda t: t.nn.functional.celu(None),
    "frac_long": lambda t: t.frac(T(t, "int64")),
    "frac_bool": lambda t: t.frac(T(t, "bool")),
    "hypot_long": lambda t: t.hypot(T(t, "int64"), T(t, "int64")),
    "logaddexp_int": lambda t: t.logaddexp(T(t, "int32"), T(t, "int32")),
    "logaddexp2_short": lambda t: t.logaddexp2(T(t, "uint8"), T(t, "int8")),
    "hypot_shapes_first": lambda t: t.hypot(T(t, "int64"), T(t, "int64", 4)),
    "hypot_long_float": lambda t: t.hypot(T(t, "int64"), T(t, "float32")),
    "abs_bool": lambda t: t.abs(T(t, "bool")),
    "floor_bool": lambda t: t.floor(T(t, "bool")),
    # orderings of bool and complex tensors
    "median_bool": lambda t: t.median(T(t, "bool")),
    "median_bool_dim": lambda t: t.median(T(t, "bool"), 1),
    "median_bool_dim_first": lambda t: t.median(T(t, "bool"), 5),
    "nanmedian_bool": lambda t: t.nanmedian(T(t, "bool")),
    "median_complex": lambda t: t.median(T(t, "complex64")),
    "kthvalue_bool": lambda t: t.kthvalue(T(t, "bool"), 1),
    "kthvalue_complex": lambda t: t.kthvalue(T(t, "complex64"), 1),
    "mode_complex": lambda t: t.mode(T(t, "complex64")),
    "topk_bool": lambda t: t.topk(T(t, "bool"), 1),
    "argmax_bool": lambda t: t.argmax(T(t, "bool")),
    "argmin_bool_dim": lambda t: T(t, "bool").argmin(1),
    "argmax_bool_dim_first": lambda t: t.argmax(T(t, "bool"), 5),
    "searchsorted_bool": lambda t: t.searchsorted(T(t, "bool", 3), T(t, "bool", 2)),
    "searchsorted_complex": lambda t: t.searchsorted(T(t, "complex64", 3), T(t, "complex64", 2)),
    "searchsorted_number_2d": lambda t: t.searchsorted(T(t, "float32"), 1.0),
    "searchsorted_float_bool": lambda t: t.searchsorted(T(t, "float32", 3), T(t, "bool", 2)),
    "mode_bool": lambda t: t.mode(T(t, "bool")),
    # rounding divisions of bool tensors
    "floor_divide_bool": lambda t: t.floor_divide(T(t, "bool"), T(t, "bool")),
    "remainder_bool": lambda t: t.remainder(T(t, "bool"), T(t, "bool")),
    "fmod_bool": lambda t: t.fmod(T(t, "bool"), T(t, "bool")),
    "fmod_complex_number": lambda t: t.fmod(T(t, "float32"), 1j),
    "div_floor_bool": lambda t: t.div(T(t, "bool"), T(t, "bool"), rounding_mode="floor"),
    "div_trunc_bool": lambda t: t.div(T(t, "bool"), T(t, "bool"), rounding_mode="trunc"),
    "floor_divide_long": lambda t: t.floor_divide(T(t, "int64"), T(t, "int64")),
    # complex Python numbers where no complex kernel exists
    "lt_complex_number": lambda t: t.lt(T(t, "float32"), 1j),
    "ge_complex_number": lambda t: T(t, "float32") >= 1j,
    "clamp_complex_tensor_bound": lambda t: t.clamp(T(t, "complex64"), T(t, "float32")),
    "clamp_min_complex_number": lambda t: t.clamp_min(T(t, "float32"), 1j),
    # operands of two dtypes where PyTorch does not promote
    "isclose_float_double": lambda t: t.isclose(T(t, "float32"), T(t, "float64")),
    "allclose_long_float": lambda t: t.allclose(T(t, "int64"), T(t, "float32")),
    "cross_float_double": lambda t: t.linalg.cross(T(t, "float32"), T(t, "float64")),
    "cross_bool": lambda t: t.linalg.cross(T(t, "bool"), T(t, "bool")),
    "cdist_float_double": lambda t: t.cdist(T(t, "float32"), T(t, "float64")),
    "cdist_long": lambda t: t.cdist(T(t, "float32"), T(t, "int64")),
    "cdist_half": lambda t: t.cdist(T(t, "float16"), T(t, "float16")),
    "vecdot_float_double": lambda t: t.linalg.vecdot(T(t, "float32"), T(t, "float64")),
    "vecdot_long": lambda t: t.linalg.vecdot(T(t, "int64"), T(t, "float32")),
    "einsum_float_double": lambda t: t.einsum("ij,jk", T(t, "float32", 2, 3), T(t, "float64", 3, 2)),
    # dropout, special functions, pooling, histograms of dtypes without a kernel
    "dropout_long": lambda t: t.nn.functional.dropout(T(t, "int64")),
    "dropout2d_bool": lambda t: t.nn.functional.dropout2d(T(t, "bool", 1, 2, 3)),
    "dropout_long_eval": lambda t: t.nn.functional.dropout(T(t, "int64"), training=False),
    "i0_complex": lambda t: t.i0(T(t, "complex64")),
    "i0_long": lambda t: t.i0(T(t, "int64")),
    "ndtri_half": lambda t: t.special.ndtri(T(t, "float16")),
    "entr_complex": lambda t: t.special.entr(T(t, "complex64")),
    "max_pool1d_long": lambda t: t.nn.functional.max_pool1d(T(t, "int64", 1, 1, 4), 2),
    "max_pool1d_long_indices": lambda t: t.nn.functional.max_pool1d(T(t, "int64", 1, 1, 4), 2, return_indices=True),
    "max_pool2d_bool": lambda t: t.nn.functional.max_pool2d(T(t, "bool", 1, 1, 4, 4), 2),
    "max_pool2d_long": lambda t: t.nn.functional.max_pool2d(T(t, "int64", 1, 1, 4, 4), 2),
    "adaptive_max_pool2d_long": lambda t: t.nn.functional.adaptive_max_pool2d(T(t, "int64", 1, 1, 4, 4), 2),
    "adaptive_max_pool1d_int": lambda t: t.nn.functional.adaptive_max_pool1d(T(t, "int32", 1, 1, 4), 2),
    "avg_pool1d_int": lambda t: t.nn.functional.avg_pool1d(T(t, "int32", 1, 1, 4), 2),
    "avg_pool3d_half": lambda t: t.nn.functional.avg_pool3d(T(t, "float16", 1, 1, 2, 2, 2), 2),
    "adaptive_avg_pool3d_long": lambda t: t.nn.functional.adaptive_avg_pool3d(T(t, "int64", 1, 1, 2, 2, 2), 2),
    "histc_long": lambda t: t.histc(T(t, "int64")),
    "histc_bool": lambda t: t.histc(T(t, "bool")),
    "histc_complex": lambda t: t.histc(T(t, "complex64")),
    "histc_float_bins": lambda t: t.histc(T(t, "float32"), 1.5),
    "cartesian_prod_matrix": lambda t: t.cartesian_prod(T(t, "float32", 3), T(t, "float32")),
    "combinations_matrix": lambda t: t.combinations(T(t, "float32")),
    "bernoulli_p_number": lambda t: T(t, "float32").bernoulli_(2),
    "bernoulli_p_tensor": lambda t: t.bernoulli(t.full((3,), 2.0)),
    "interpolate_nearest_long": lambda t: t.nn.functional.interpolate(T(t, "int64", 1, 1, 4, 4), scale_factor=2),
    "interpolate_linear_byte": lambda t: t.nn.functional.interpolate(T(t, "uint8", 1, 1, 4), scale_factor=2,
                                                                     mode="linear"),
    "interpolate_bicubic_bool": lambda t: t.nn.functional.interpolate(T(t, "bool", 1, 1, 4, 4), scale_factor=2,
                                                                      mode="bicubic"),
    "interpolate_nearest_byte": lambda t: t.nn.functional.interpolate(T(t, "uint8", 1, 1, 4, 4), scale_factor=2),
    "index_add_out_of_range": lambda t: T(t, "float32", 3).index_add(0, t.tensor([5]), T(t, "float32", 1)),
    "index_add_matrix_out_of_range": lambda t: T(t, "float32", 3, 4).index_add(0, t.tensor([5]), T(t, "float32", 1, 4)),
    "index_fill_out_of_range": lambda t: T(t, "float32", 3).index_fill(0, t.tensor([5]), 1.0),
    "nll_loss_long_input": lambda t: t.nn.functional.nll_loss(T(t, "int64"), t.tensor([0, 1])),
    "nll_loss2d_long_input": lambda t: t.nn.functional.nll_loss(T(t, "int64", 2, 3, 2, 2),
                                                                t.zeros(2, 2, 2, dtype=t.int64)),
    "multi_margin_loss_half": lambda t: t.nn.functional.multi_margin_loss(T(t, "float16"), t.tensor([0, 1])),
    "multilabel_margin_loss_long": lambda t: t.nn.functional.multilabel_margin_loss(T(t, "int64"),
                                                                                    t.zeros(2, 3, dtype=t.int64)),
    "sgn_bool": lambda t: t.sgn(T(t, "bool")),
    "eigh_long": lambda t: t.linalg.eigh(T(t, "int64", 3, 3)),
    "inv_long": lambda t: t.linalg.inv(T(t, "int64", 3, 3)),
    # arguments of the wrong type
    "equal_number": lambda t: t.equal(T(t, "float32"), 1),
    "is_same_size_none": lambda t: T(t, "float32").is_same_size(None),
    "promote_types_tensor": lambda t: t.promote_types(T(t, "float32"), t.float64),
    "clamp_str_bound": lambda t: t.clamp(T(t, "float32"), "a"),
    "clamp_min_none": lambda t: t.clamp_min(T(t, "float32"), None),
    "clamp_max_only": lambda t: t.clamp(T(t, "float32"), None, 0.5),
    # activations of complex tensors: the few PyTorch computes, the kernel errors of the others
    "silu_complex": lambda t: t.nn.functional.silu(T(t, "complex64")),
    "silu_module_complex": lambda t: t.nn.SiLU()(T(t, "complex128")),
    "silu_complex_inplace": lambda t: t.nn.functional.silu(T(t, "complex64"), inplace=True),
    "silu_complex_requiring_grad": lambda t: t.nn.functional.silu(t.ones(2, dtype=t.complex64, requires_grad=True)),
    "sigmoid_complex": lambda t: t.nn.functional.sigmoid(T(t, "complex64")),
    "tanh_complex": lambda t: t.nn.functional.tanh(T(t, "complex64")),
    "softsign_complex": lambda t: t.nn.functional.softsign(T(t, "complex64")),
    "tanhshrink_complex": lambda t: t.nn.functional.tanhshrink(T(t, "complex64")),
    "relu_complex": lambda t: t.nn.functional.relu(T(t, "complex64")),
    "hardtanh_complex": lambda t: t.nn.functional.hardtanh(T(t, "complex64")),
    "gelu_complex": lambda t: t.nn.functional.gelu(T(t, "complex64")),
    "elu_complex": lambda t: t.nn.functional.elu(T(t, "complex64")),
    "selu_complex": lambda t: t.nn.functional.selu(T(t, "complex64")),
    "leaky_relu_complex": lambda t: t.nn.functional.leaky_relu(T(t, "complex64")),
    "softplus_complex": lambda t: t.nn.functional.softplus(T(t, "complex64")),
    "logsigmoid_complex": lambda t: t.nn.functional.logsigmoid(T(t, "complex64")),
    "hardswish_complex": lambda t: t.nn.functional.hardswish(T(t, "complex64")),
    "mish_complex": lambda t: t.nn.functional.mish(T(t, "complex64")),
    "softshrink_complex": lambda t: t.nn.functional.softshrink(T(t, "complex64")),
    "threshold_complex": lambda t: t.nn.functional.threshold(T(t, "complex64"), 0.1, 0.0),
    "threshold_bool": lambda t: t.nn.functional.threshold(T(t, "bool"), 0.1, 0.0),
    "threshold_long": lambda t: t.nn.functional.threshold(T(t, "int64"), 0.1, 0.0),
    "glu_complex": lambda t: t.nn.functional.glu(T(t, "complex64", 2, 4)),
    "softmax_complex": lambda t: t.nn.functional.softmax(T(t, "complex64"), 0),
    "prelu_complex_float_weight": lambda t: t.nn.functional.prelu(T(t, "complex64"), T(t, "float32", 1)),
    "prelu_double_float_weight": lambda t: t.nn.functional.prelu(T(t, "float64"), T(t, "float32", 1)),
    # the random state is a uint8 tensor, and only a tensor restores it
    "get_rng_state": lambda t: t.get_rng_state(),
    "random_get_rng_state": lambda t: t.random.get_rng_state(),
    "generator_get_state": lambda t: t.Generator().get_state(),
    "set_rng_state_ndarray": lambda t: t.set_rng_state(np.zeros(5056, np.uint8)),
    "generator_set_state_list": lambda t: t.Generator().set_state([0] * 5056),
    # numbers for both operands: the arithmetic functions take them as tensors, the others refuse
    "add_numbers": lambda t: t.add(2, 3),
    "add_float_number": lambda t: t.add(2.5, 3),
    "add_bools": lambda t: t.add(True, True),
    "add_complex_number": lambda t: t.add(2j, 3),
    "add_numbers_alpha": lambda t: t.add(2, 3, alpha=2),
    "sub_numbers": lambda t: t.sub(2, 3.5),
    "subtract_numbers": lambda t: t.subtract(2, 3),
    "mul_numbers": lambda t: t.mul(2, 3),
    "multiply_numbers": lambda t: t.multiply(2.0, 3),
    "div_numbers": lambda t: t.div(2, 3),
    "div_floor_numbers": lambda t: t.div(7, 2, rounding_mode="floor"),
    "true_divide_numbers": lambda t: t.true_divide(7, 2),
    "floor_divide_numbers": lambda t: t.floor_divide(7.5, 2),
    "add_numbers_out": lambda t: t.add(2, 3, out=t.empty(())),
    "add_none_number": lambda t: t.add(None, 3),
    "mul_list_number": lambda t: t.mul([1], 3),
    "add_number_tensor": lambda t: t.add(2, T(t, "float32")),
    "sub_number_tensor": lambda t: t.sub(2, T(t, "int64")),
    "pow_number_tensor": lambda t: t.pow(2, T(t, "float32")),
    # saved tensors modified in place: PyTorch's message names the tensor's type and the node it is output of
    "modified_input": lambda t: _modified_after_saving(t),
    "modified_output": lambda t: _modified_after_saving(t, saved="output"),
    "modified_double_input": lambda t: _modified_after_saving(t, "float64"),
    "modified_half_input": lambda t: _modified_after_saving(t, "float16"),
    "modified_bfloat16_input": lambda t: _modified_after_saving(t, "bfloat16"),
    "modified_complex_input": lambda t: _modified_after_saving(t, "complex64"),
    "modified_custom_input": lambda t: _modified_after_saving(t, custom="G"),
    "modified_custom_output": lambda t: _modified_after_saving(t, custom="H"),
    "modified_custom_second_output": lambda t: _modified_after_saving(t, custom="M"),
    "modified_saved_self_read": lambda t: _modified_after_saving(t, saved="read"),
    "modified_leaf": _leaf_modified,
    "modified_through_slice": _slice_modified,
    "modified_under_saved_tensors_hooks": _modified_under_hooks,
    "modified_under_anomaly_detection": _modified_under_anomaly_detection,
    "unbind_output_modified": lambda t: (t.ones(2, 3, requires_grad=True) * 1).unbind()[1].mul_(2),
    "chunk_output_modified": lambda t: (t.ones(4, requires_grad=True) * 1).chunk(2)[0].add_(1),
    "split_sizes_output_modified": lambda t: (t.ones(4, requires_grad=True) * 1).split([1, 3])[1].add_(1),
    # wrong-typed arguments: PyTorch's argument parser's TypeError (tinyframe's _arguments on the failure path)
    "cross_none_other": lambda t: t.cross(T(t, "float32"), None),
    "matrix_exp_list": lambda t: t.matrix_exp([1.0, 2.0]),
    "kron_str": lambda t: t.kron(T(t, "float32"), "a"),
    "diag_tensor_diagonal": lambda t: T(t, "float32").diag(diagonal=T(t, "float32")),
    "chunk_tensor_chunks": lambda t: T(t, "float32").chunk(T(t, "float32")),
    "expand_as_number": lambda t: T(t, "float32").expand_as(2),
    "dist_none": lambda t: T(t, "float32").dist(None),
    "eq_none": lambda t: t.eq(T(t, "float32"), None),
    "ones_like_list": lambda t: t.ones_like([1.0, 2.0]),
    "numel_none": lambda t: t.numel(None),
    "cumulative_trapezoid_number": lambda t: t.cumulative_trapezoid(2),
    "greater_list": lambda t: t.greater(T(t, "float32"), [1.0, 2.0]),
    "cov_tensor_correction": lambda t: T(t, "float32").cov(correction=T(t, "float32")),
    "narrow_none_input": lambda t: t.narrow(None, 1, 0, 1),
    "searchsorted_none": lambda t: t.searchsorted(None, T(t, "float32")),
    "softmax_none_input": lambda t: t.softmax(None, 1),
    "cauchy_tensor_sigma": lambda t: T(t, "float32").cauchy_(sigma=T(t, "float32")),
    "logical_not_str": lambda t: t.logical_not("a"),
    "trace_none": lambda t: t.trace(None),
    "copysign_none": lambda t: t.copysign(T(t, "float32"), None),
    "heaviside_none": lambda t: t.heaviside(None, T(t, "float32")),
    "eq_number_first": lambda t: t.eq(2, T(t, "float32")),
    "gt_number_first": lambda t: t.gt(2.5, T(t, "float32")),
    "where_number_condition": lambda t: t.where(True, 2, 3),
    "remainder_numbers": lambda t: t.remainder(2, 3),
    "fmod_numbers": lambda t: t.fmod(2.5, 3),
    "scatter_number_src": lambda t: t.scatter(T(t, "float32"), 1, t.tensor([[0], [1]]), 2.0),
    # autograd and conversions (already as PyTorch; pinned with the rest)
    "backward_twice": _twice_backward,
    "item_of_many": lambda t: T(t, "float32").item(),
    "numpy_requiring_grad": lambda t: t.ones(2, requires_grad=True).numpy(),
    "view_bad_size": lambda t: T(t, "float32").view(4),
    "index_out_of_range": lambda t: T(t, "float32")[2],
    "dim_out_of_range": lambda t: T(t, "float32").sum(3),
    "cat_mismatch": lambda t: t.cat([T(t, "float32"), T(t, "float32", 2, 4)]),
    "matmul_float_double": lambda t: t.matmul(T(t, "float32", 2, 3), T(t, "float64", 3, 2)),
    "mean_long": lambda t: T(t, "int64").mean(),
    "softmax_long": lambda t: t.softmax(T(t, "int64"), 1),
    "nll_loss_int_target": lambda t: t.nn.functional.nll_loss(T(t, "float32"), t.tensor([0, 1], dtype=t.int32)),
}
