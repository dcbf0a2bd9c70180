"""Registry cases for the unary ops and the activations that live with them.

Domains keep finite differences away from kinks (abs, relu, hardtanh, ...), from the integers where
the rounding ops jump, and from the poles of tan, log, rsqrt, asin and acos.
"""
from __future__ import annotations

import math

import numpy as np

import tinyframe as tf
from tinyframe.ops import unary

from . import OpCase

np_erf = np.vectorize(math.erf, otypes=[np.float64])


# The Chebyshev polynomials of degree n at cos(theta), by their trigonometric forms.
_CHEBYSHEV = {
    "t": lambda n, th: np.cos(n * th),
    "u": lambda n, th: np.sin((n + 1) * th) / np.sin(th),
    "v": lambda n, th: np.cos((n + 0.5) * th) / np.cos(th / 2),
    "w": lambda n, th: np.sin((n + 0.5) * th) / np.sin(th / 2),
}


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def _softplus(x: np.ndarray, beta: float = 1.0, threshold: float = 20.0) -> np.ndarray:
    return np.where(x * beta > threshold, x, np.log1p(np.exp(x * beta)) / beta)


def _gelu_tanh(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def _digamma_by_quadrature(x: float) -> float:
    """psi(x) = log(x) - 1/(2x) - 2 int_0^inf t / ((t^2 + x^2)(e^(2 pi t) - 1)) dt (Binet), for x > 0:
    a reference independent of the recurrence and series the op uses."""
    t = np.linspace(1e-12, 8.0, 400001)
    f = t / ((t * t + x * x) * np.expm1(2.0 * np.pi * t))
    return math.log(x) - 0.5 / x - 2.0 * float(np.sum((f[1:] + f[:-1]) * 0.5 * np.diff(t)))


def _erfinv_by_bisection(y: float) -> float:
    low, high = -6.0, 6.0
    for _ in range(200):
        middle = 0.5 * (low + high)
        low, high = (middle, high) if math.erf(middle) < y else (low, middle)
    return 0.5 * (low + high)


def _polygamma_by_series(n: int, x: np.ndarray) -> np.ndarray:
    """psi^(n)(x) = (-1)^(n+1) n! sum over k >= 0 of (x + k)^-(n+1) (any x but the poles): 20000 terms,
    then the integral of the rest and half the first omitted term (Euler-Maclaurin), for n >= 1."""
    k = np.arange(20000.0)
    terms = (x[..., None] + k) ** -(n + 1.0)
    tail_start = x + 20000.0
    tail = tail_start ** -n / n + 0.5 * tail_start ** -(n + 1.0)
    return (-1.0) ** (n + 1) * math.factorial(n) * (terms.sum(-1) + tail)


def _bessel_i(order: int, x: np.ndarray) -> np.ndarray:
    """I_order(x) by its power series sum (x/2)^(2k + order) / (k! (k + order)!), 40 terms."""
    return sum((x / 2.0) ** (2 * k + order) / (math.factorial(k) * math.factorial(k + order)) for k in range(40))


np_erfc = np.vectorize(math.erfc, otypes=[np.float64])


def _ndtri_by_bisection(p: float) -> float:
    return math.sqrt(2.0) * _erfinv_by_bisection(2.0 * p - 1.0)


def _mvlgamma(x: np.ndarray, p: int) -> np.ndarray:
    lgamma = np.vectorize(math.lgamma)
    return p * (p - 1) / 4.0 * math.log(math.pi) + sum(lgamma(x - i / 2.0) for i in range(p))


CASES: list[OpCase] = [
    OpCase("neg", tf.neg, np.negative, [(3, 4)]),
    OpCase("neg_operator", lambda x: -x, np.negative, [(3,)]),
    OpCase("abs_positive", tf.abs, np.abs, [(3, 4)], domain=(0.2, 2.0)),
    OpCase("abs_negative", tf.abs, np.abs, [(3, 4)], domain=(-2.0, -0.2)),
    OpCase("exp", tf.exp, np.exp, [(3, 4)]),
    OpCase("exp2", tf.exp2, np.exp2, [(3, 4)]),
    OpCase("expm1", tf.expm1, np.expm1, [(3, 4)]),
    OpCase("log", tf.log, np.log, [(3, 4)], domain=(0.5, 2.0)),
    OpCase("log2", tf.log2, np.log2, [(3, 4)], domain=(0.5, 2.0)),
    OpCase("log10", tf.log10, np.log10, [(3, 4)], domain=(0.5, 2.0)),
    OpCase("log1p", tf.log1p, np.log1p, [(3, 4)], domain=(-0.5, 2.0)),
    OpCase("sqrt", tf.sqrt, np.sqrt, [(3, 4)], domain=(0.5, 2.0)),
    OpCase("rsqrt", tf.rsqrt, lambda x: 1.0 / np.sqrt(x), [(3, 4)], domain=(0.5, 2.0)),
    OpCase("square", tf.square, np.square, [(3, 4)]),
    OpCase("reciprocal", tf.reciprocal, np.reciprocal, [(3, 4)], domain=(0.5, 2.0)),
    OpCase("reciprocal_negative", tf.reciprocal, np.reciprocal, [(3,)], domain=(-2.0, -0.5)),
    OpCase("sin", tf.sin, np.sin, [(3, 4)], domain=(-3.0, 3.0)),
    OpCase("cos", tf.cos, np.cos, [(3, 4)], domain=(-3.0, 3.0)),
    OpCase("tan", tf.tan, np.tan, [(3, 4)], domain=(-1.2, 1.2)),
    OpCase("tanh", tf.tanh, np.tanh, [(3, 4)], domain=(-3.0, 3.0)),
    OpCase("sinh", tf.sinh, np.sinh, [(3, 4)]),
    OpCase("cosh", tf.cosh, np.cosh, [(3, 4)]),
    OpCase("asin", tf.asin, np.arcsin, [(3, 4)], domain=(-0.9, 0.9)),
    OpCase("acos", tf.acos, np.arccos, [(3, 4)], domain=(-0.9, 0.9)),
    OpCase("atan", tf.atan, np.arctan, [(3, 4)], domain=(-3.0, 3.0)),
    OpCase("asinh", tf.asinh, np.arcsinh, [(3, 4)], domain=(-3.0, 3.0)),
    OpCase("acosh", tf.acosh, np.arccosh, [(3, 4)], domain=(1.2, 3.0)),
    OpCase("frexp_mantissa", lambda x: tf.frexp(x).mantissa, lambda x: np.frexp(x)[0], [(3, 4)], domain=(0.6, 0.9)),
    OpCase("atanh", tf.atanh, np.arctanh, [(3, 4)], domain=(-0.9, 0.9)),
    OpCase("sigmoid", tf.sigmoid, _sigmoid, [(3, 4)], domain=(-5.0, 5.0)),
    OpCase("relu", tf.relu, lambda x: np.maximum(x, 0.0), [(3, 4)]),
    OpCase("erf", tf.erf, np_erf, [(3, 4)], domain=(-3.0, 3.0)),
    OpCase("sign", tf.sign, np.sign, [(3, 4)]),
    OpCase("floor", tf.floor, np.floor, [(3, 4)], domain=(-3.0, 3.0)),
    OpCase("ceil", tf.ceil, np.ceil, [(3, 4)], domain=(-3.0, 3.0)),
    OpCase("round", tf.round, np.round, [(3, 4)], domain=(-3.0, 3.0)),
    OpCase("round_decimals", lambda x: tf.round(x, decimals=2), lambda x: np.round(x, 2), [(3, 4)]),
    OpCase("round_negative_decimals", lambda x: tf.round(x, decimals=-1), lambda x: np.round(x, -1),
           [(3, 4)], domain=(-30.0, 30.0)),
    OpCase("trunc", tf.trunc, np.trunc, [(3, 4)], domain=(-3.0, 3.0)),
    OpCase("isnan", tf.isnan, np.isnan, [(3, 4)], grad=False),
    OpCase("isinf", tf.isinf, np.isinf, [(3, 4)], grad=False),
    OpCase("isfinite", tf.isfinite, np.isfinite, [(3, 4)], grad=False),
    OpCase("silu", unary.silu, lambda x: x * _sigmoid(x), [(3, 4)], domain=(-4.0, 4.0)),
    OpCase("gelu", unary.gelu, lambda x: 0.5 * x * (1.0 + np_erf(x / math.sqrt(2.0))), [(3, 4)],
           domain=(-3.0, 3.0)),
    OpCase("gelu_tanh", lambda x: unary.gelu(x, approximate="tanh"), _gelu_tanh, [(3, 4)], domain=(-3.0, 3.0)),
    OpCase("softplus", unary.softplus, _softplus, [(3, 4)], domain=(-4.0, 4.0)),
    OpCase("softplus_beta", lambda x: unary.softplus(x, beta=2.0), lambda x: _softplus(x, 2.0), [(3, 4)]),
    OpCase("softplus_above_threshold", lambda x: unary.softplus(x, beta=2.0, threshold=1.0),
           lambda x: _softplus(x, 2.0, 1.0), [(3, 4)], domain=(1.0, 2.0)),
    OpCase("leaky_relu", lambda x: unary.leaky_relu(x, 0.1), lambda x: np.where(x > 0, x, 0.1 * x), [(3, 4)]),
    OpCase("elu", lambda x: unary.elu(x, alpha=1.5), lambda x: np.where(x > 0, x, 1.5 * np.expm1(x)),
           [(3, 4)]),
    OpCase("hardtanh", unary.hardtanh, lambda x: np.clip(x, -1.0, 1.0), [(3, 4)]),
    OpCase("hardtanh_bounds", lambda x: unary.hardtanh(x, -0.5, 1.5), lambda x: np.clip(x, -0.5, 1.5),
           [(3, 4)]),
    OpCase("logsigmoid", unary.logsigmoid, lambda x: np.log(_sigmoid(x)), [(3, 4)], domain=(-5.0, 5.0)),
    OpCase("exp_0d", tf.exp, np.exp, [()]),
    OpCase("frac", tf.frac, lambda x: x - np.trunc(x), [(3, 4)], domain=(0.1, 0.9)),
    OpCase("frac_negative", tf.frac, lambda x: x - np.trunc(x), [(3, 4)], domain=(-1.9, -1.1)),
    OpCase("nan_to_num", lambda x: tf.nan_to_num(x, nan=0.5), lambda x: np.nan_to_num(x, nan=0.5), [(3, 4)]),
    OpCase("lgamma", tf.lgamma, np.vectorize(math.lgamma), [(3, 4)], domain=(0.2, 4.0)),
    OpCase("lgamma_negative", tf.lgamma, np.vectorize(math.lgamma), [(3, 4)], domain=(-1.9, -1.1)),
    OpCase("digamma", tf.digamma, lambda x: np.vectorize(_digamma_by_quadrature)(x), [(3, 4)], domain=(0.2, 4.0)),
    OpCase("erfinv", tf.erfinv, lambda x: np.vectorize(_erfinv_by_bisection)(x), [(3, 4)], domain=(-0.9, 0.9)),
    OpCase("sinc", tf.sinc, np.sinc, [(3, 4)], domain=(-2.0, 2.0)),
    OpCase("logit", tf.logit, lambda x: np.log(x / (1.0 - x)), [(3, 4)], domain=(0.1, 0.9)),
    OpCase("deg2rad", tf.deg2rad, np.deg2rad, [(3, 4)]),
    OpCase("rad2deg", tf.rad2deg, np.rad2deg, [(3, 4)]),
    OpCase("erfc", tf.erfc, np_erfc, [(3, 4)], domain=(-3.0, 3.0)),
    OpCase("polygamma_0", lambda x: tf.polygamma(0, x), lambda x: np.vectorize(_digamma_by_quadrature)(x), [(3, 4)],
           domain=(0.5, 3.0)),
    OpCase("polygamma_1", lambda x: tf.polygamma(1, x), lambda x: _polygamma_by_series(1, x), [(3, 4)],
           domain=(0.5, 3.0)),
    OpCase("polygamma_2", lambda x: x.polygamma(2), lambda x: _polygamma_by_series(2, x), [(3, 4)], domain=(0.5, 3.0)),
    OpCase("polygamma_3_negative", lambda x: tf.polygamma(3, x), lambda x: _polygamma_by_series(3, x), [(3, 4)],
           domain=(-2.8, -2.2)),
    OpCase("signbit", tf.signbit, np.signbit, [(3, 4)], grad=False),
    OpCase("angle", tf.angle, lambda x: np.where(x < 0, math.pi, 0.0), [(3, 4)]),
    OpCase("i0", tf.i0, lambda x: _bessel_i(0, x), [(3, 4)], domain=(-4.0, 4.0)),
    OpCase("special_i0e", tf.special.i0e, lambda x: np.exp(-np.abs(x)) * _bessel_i(0, x), [(3, 4)], domain=(0.2, 4.0)),
    OpCase("special_i1", tf.special.i1, lambda x: _bessel_i(1, x), [(3, 4)], domain=(-4.0, 4.0)),
    OpCase("special_i1e", tf.special.i1e, lambda x: np.exp(-np.abs(x)) * _bessel_i(1, x), [(3, 4)], domain=(0.2, 4.0)),
    OpCase("special_i0e_negative", tf.special.i0e, lambda x: np.exp(-np.abs(x)) * _bessel_i(0, x), [(3, 4)],
           domain=(-9.0, -8.5)),
    OpCase("special_ndtr", tf.special.ndtr, lambda x: 0.5 * np_erfc(-x / math.sqrt(2.0)), [(3, 4)], domain=(-3.0, 3.0)),
    OpCase("special_ndtri", tf.special.ndtri, np.vectorize(_ndtri_by_bisection), [(3, 4)], domain=(0.05, 0.95)),
    OpCase("special_log_ndtr", tf.special.log_ndtr, lambda x: np.log(0.5 * np_erfc(-x / math.sqrt(2.0))), [(3, 4)],
           domain=(-4.0, 3.0)),
    OpCase("special_erfcx", tf.special.erfcx, lambda x: np.exp(x * x) * np_erfc(x), [(3, 4)], domain=(-2.0, 6.0)),
    OpCase("special_entr", tf.special.entr, lambda x: -x * np.log(x), [(3, 4)], domain=(0.2, 2.0)),
    OpCase("mvlgamma", lambda x: tf.mvlgamma(x, 3), lambda x: _mvlgamma(x, 3), [(3, 4)], domain=(1.5, 4.0)),
    # Not differentiable in PyTorch (no grad_fn); degrees below and above ATen's switch to the
    # trigonometric form for the Chebyshev kinds.
    OpCase("special_spherical_bessel_j0", tf.special.spherical_bessel_j0, lambda x: np.sin(x) / x, [(3, 4)],
           domain=(0.6, 9.0), grad=False),
    OpCase("special_modified_bessel_i0", tf.special.modified_bessel_i0, lambda x: _bessel_i(0, x), [(3, 4)],
           domain=(-9.0, 9.0), grad=False),
    OpCase("special_modified_bessel_i1", tf.special.modified_bessel_i1, lambda x: _bessel_i(1, x), [(3, 4)],
           domain=(-9.0, 9.0), grad=False),
    OpCase("special_spherical_bessel_j0_series", tf.special.spherical_bessel_j0, lambda x: np.sin(x) / x, [(3, 4)],
           domain=(-0.49, -0.01), grad=False),
    *(OpCase(f"special_chebyshev_polynomial_{kind}_{n}",
             lambda x, kind=kind, n=n: getattr(tf.special, f"chebyshev_polynomial_{kind}")(x, n),
             lambda x, kind=kind, n=n: _CHEBYSHEV[kind](n, np.arccos(x)), [(3, 4)], domain=(-0.95, 0.95), grad=False)
      for kind in "tuvw" for n in (0, 3, 11)),
    *(OpCase(f"special_shifted_chebyshev_polynomial_{kind}_{n}",
             lambda x, kind=kind, n=n: getattr(tf.special, f"shifted_chebyshev_polynomial_{kind}")(x, n),
             lambda x, kind=kind, n=n: _CHEBYSHEV[kind](n, np.arccos(2 * x - 1)), [(3, 4)], domain=(0.02, 0.98),
             grad=False)
      for kind in "tuvw" for n in (2, 9)),
    *(OpCase(f"special_{name}_{n}", lambda x, name=name, n=n: getattr(tf.special, name)(x, n),
             lambda x, values=values, n=n: values(x, [0] * n + [1]), [(3, 4)], domain=(-3.0, 3.0), grad=False)
      for name, values in (("hermite_polynomial_h", np.polynomial.hermite.hermval),
                           ("hermite_polynomial_he", np.polynomial.hermite_e.hermeval),
                           ("laguerre_polynomial_l", np.polynomial.laguerre.lagval),
                           ("legendre_polynomial_p", np.polynomial.legendre.legval)) for n in (1, 6)),
]
