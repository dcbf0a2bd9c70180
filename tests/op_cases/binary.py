"""Registry cases for the binary (two-operand) ops."""
from __future__ import annotations

import numpy as np

import tinyframe as tf
from tinyframe.ops import binary

from . import OpCase


def _gammainc_3(x: np.ndarray) -> np.ndarray:
    """P(3, x) = 1 - e^-x (1 + x + x^2 / 2): the regularized lower incomplete gamma function at a = 3."""
    return 1.0 - np.exp(-x) * (1.0 + x + x * x / 2.0)


def _hurwitz_zeta(s: float, q: np.ndarray) -> np.ndarray:
    """sum over k >= 0 of (k + q)^-s: 20000 terms, then the integral of the rest and half its first term."""
    k = np.arange(20000.0)
    start = q + 20000.0
    return ((q[..., None] + k) ** -s).sum(-1) + start ** (1.0 - s) / (s - 1.0) + 0.5 * start ** -s


CASES: list[OpCase] = [
    OpCase("add", tf.add, np.add, [(3, 4), (3, 4)], broadcasts=True),
    OpCase("add_alpha", lambda x, y: tf.add(x, y, alpha=2.5), lambda x, y: x + 2.5 * y, [(3, 4), (4,)]),
    OpCase("sub", tf.sub, np.subtract, [(3, 4), (3, 4)], broadcasts=True),
    OpCase("mul", tf.mul, np.multiply, [(3, 4), (3, 4)], broadcasts=True),
    OpCase("div", tf.div, np.divide, [(3, 4), (3, 4)], domain=(0.5, 2.0), broadcasts=True),
    OpCase("pow_scalar", lambda x: x ** 3, lambda x: x ** 3, [(3, 4)]),
    OpCase("pow_fractional", lambda x: x ** 0.5, np.sqrt, [(5,)], domain=(0.5, 2.0)),
    OpCase("pow_tensor", tf.pow, np.power, [(3, 4), (3, 4)], domain=(0.5, 2.0), broadcasts=True),
    OpCase("rpow", lambda x: 2.0 ** x, lambda x: 2.0 ** x, [(3, 4)]),
    OpCase("rsub_scalar", lambda x: 1.5 - x, lambda x: 1.5 - x, [(3,)]),
    # the Scalar forms PyTorch's C++ formulas record (``_graph.native_formula``): AddBackward1, SubBackward1, ...
    OpCase("add_scalar_node", lambda x: binary.AddScalar.apply(x, other=1.5), lambda x: x + 1.5, [(3, 4)]),
    OpCase("sub_scalar_node", lambda x: binary.SubScalar.apply(x, other=1.5), lambda x: x - 1.5, [(3, 4)]),
    OpCase("mul_scalar_node", lambda x: binary.MulNumber.apply(x, other=-2.5), lambda x: x * -2.5, [(3, 4)]),
    OpCase("pow_minus_two", lambda x: x ** -2, lambda x: x ** -2.0, [(3, 4)], domain=(0.5, 2.0)),
    OpCase("rdiv_scalar", lambda x: 1.5 / x, lambda x: 1.5 / x, [(3,)], domain=(0.5, 2.0)),
    OpCase("maximum", tf.maximum, np.maximum, [(3, 4), (3, 4)], broadcasts=True),
    OpCase("minimum", tf.minimum, np.minimum, [(3, 4), (3, 4)], broadcasts=True),
    OpCase("where", lambda x, y: tf.where(x > 0, x, y), lambda x, y: np.where(x > 0, x, y),
           [(3, 4), (3, 4)], broadcasts=True),
    OpCase("clamp", lambda x: tf.clamp(x, -0.5, 0.5), lambda x: np.clip(x, -0.5, 0.5), [(4, 5)]),
    OpCase("clamp_min", lambda x: x.clamp(min=0.1), lambda x: np.maximum(x, 0.1), [(4, 5)]),
    OpCase("hypot", tf.hypot, np.hypot, [(3, 4), (3, 4)], domain=(0.5, 2.0), broadcasts=True),
    OpCase("logaddexp", tf.logaddexp, np.logaddexp, [(3, 4), (3, 4)], broadcasts=True),
    OpCase("logaddexp2", tf.logaddexp2, np.logaddexp2, [(3, 4), (3, 4)], broadcasts=True),
    OpCase("copysign", lambda x, y: tf.copysign(x, y - 1.25), lambda x, y: np.copysign(x, y - 1.25),
           [(3, 4), (3, 4)], domain=(0.5, 2.0), broadcasts=True),
    OpCase("nextafter", lambda x, y: tf.nextafter(x, y + 5.0), lambda x, y: np.nextafter(x, y + 5.0), [(3, 4), (3, 4)],
           broadcasts=True),
    OpCase("fmod", lambda x, y: tf.fmod(x + 3.0, y + 2.0), lambda x, y: np.fmod(x + 3.0, y + 2.0),
           [(3, 4), (3, 4)], domain=(0.0, 0.4), broadcasts=True),
    OpCase("remainder", lambda x, y: tf.remainder(x + 3.0, y - 2.0), lambda x, y: np.mod(x + 3.0, y - 2.0),
           [(3, 4), (3, 4)], domain=(0.0, 0.4), broadcasts=True),
    OpCase("remainder_number", lambda x: x % 0.7, lambda x: np.mod(x, 0.7), [(3, 4)], domain=(0.1, 0.6)),
    OpCase("floor_divide", lambda x, y: tf.floor_divide(x * 7.0, y + 0.5),
           lambda x, y: np.floor_divide(x * 7.0, y + 0.5), [(3, 4), (3, 4)], broadcasts=True, grad=False),
    OpCase("div_trunc", lambda x, y: tf.div(x * 7.0, y + 0.5, rounding_mode="trunc"),
           lambda x, y: np.trunc(x * 7.0 / (y + 0.5)), [(3, 4), (3, 4)], domain=(0.1, 0.9), broadcasts=True),
    OpCase("clamp_tensor", tf.clamp, lambda x, low, high: np.minimum(np.maximum(x, low), high),
           [(3, 4), (3, 4), (4,)], broadcasts=True),
    OpCase("clamp_min_tensor", tf.clamp_min, np.maximum, [(3, 4), (4,)], broadcasts=True),
    OpCase("clamp_max", lambda x: x.clamp_max(0.1), lambda x: np.minimum(x, 0.1), [(4, 5)]),
    OpCase("atan2", tf.atan2, np.arctan2, [(3, 4), (3, 4)], domain=(0.5, 2.0), broadcasts=True),
    OpCase("xlogy", tf.xlogy, lambda x, y: x * np.log(y), [(3, 4), (3, 4)], domain=(0.5, 2.0), broadcasts=True),
    OpCase("lerp_scalar", lambda x, y: tf.lerp(x, y, 0.3), lambda x, y: x + 0.3 * (y - x), [(3, 4), (4,)]),
    OpCase("lerp_tensor", tf.lerp, lambda x, y, w: x + w * (y - x), [(3, 4), (3, 4), (3, 4)], broadcasts=True),
    OpCase("addcmul", lambda x, a, b: tf.addcmul(x, a, b, value=0.5), lambda x, a, b: x + 0.5 * a * b,
           [(3, 4), (3, 4), (3, 4)], broadcasts=True),
    OpCase("addcdiv", lambda x, a, b: tf.addcdiv(x, a, b, value=-2.0), lambda x, a, b: x - 2.0 * a / b,
           [(3, 4), (3, 4), (3, 4)], domain=(0.5, 2.0), broadcasts=True),
    OpCase("fmax", tf.fmax, np.fmax, [(3, 4), (3, 4)], broadcasts=True),
    OpCase("fmin", tf.fmin, np.fmin, [(3, 4), (3, 4)], broadcasts=True),
    OpCase("float_power", tf.float_power, np.power, [(3, 4), (3, 4)], domain=(0.5, 2.0), broadcasts=True,
           float64_result=True),
    OpCase("float_power_number", lambda x: tf.float_power(x, 2.5), lambda x: x ** 2.5, [(3, 4)], domain=(0.5, 2.0),
           float64_result=True),
    OpCase("heaviside", lambda x, v: tf.heaviside(tf.round(x), v), lambda x, v: np.heaviside(np.round(x), v),
           [(3, 4), (4,)], grad=False),
    OpCase("special_xlog1py", tf.special.xlog1py, lambda x, y: x * np.log1p(y), [(3, 4), (3, 4)], domain=(0.5, 2.0),
           broadcasts=True),
    OpCase("special_zeta_q", lambda q: tf.special.zeta(3.0, q), lambda q: _hurwitz_zeta(3.0, q), [(3, 4)],
           domain=(0.5, 2.0)),
    OpCase("special_gammainc_x", lambda x: tf.special.gammainc(tf.full_like(x, 3.0), x), _gammainc_3, [(3, 4)],
           domain=(0.2, 6.0)),
    OpCase("igammac_x", lambda x: tf.igammac(tf.full_like(x, 3.0), x), lambda x: 1.0 - _gammainc_3(x), [(3, 4)],
           domain=(0.2, 6.0)),
    OpCase("igamma_method_x", lambda x: x.new_full((4,), 3.0).igamma(x), _gammainc_3, [(3, 4)], domain=(0.2, 6.0)),
    # (non-negative integer exponents: for a negative one PyTorch's gradient truncates to 0, test_unary.py)
    OpCase("ldexp", lambda x: tf.ldexp(x, tf.tensor([2, 1, 0, 3], device=x.device)),
           lambda x: x * 2.0 ** np.array([2, 1, 0, 3]), [(3, 4)]),
    OpCase("ldexp_float_exponent", lambda x, e: tf.ldexp(x, e), lambda x, e: x * 2.0 ** e, [(3, 4), (4,)]),
    OpCase("nextafter_vector_other", tf.nextafter, np.nextafter, [(3, 4), (4,)], grad=False),
    OpCase("nextafter_input", lambda x: tf.nextafter(x, x.new_zeros(4)), lambda x: np.nextafter(x, 0.0),
           [(3, 4)], domain=(0.5, 2.0)),
    OpCase("rsub", lambda x, y: tf.rsub(x, y, alpha=3), lambda x, y: y - 3 * x, [(3, 4), (4,)], broadcasts=True),
    OpCase("rsub_number", lambda x: tf.rsub(x, 2.5), lambda x: 2.5 - x, [(3, 4)]),
]
