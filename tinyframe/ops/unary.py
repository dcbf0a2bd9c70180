"""Elementwise ops of one tensor: forward and derivative side by side.

Dtypes follow PyTorch: ops with a floating result (``exp``, ``log``, ``sin``, ``sigmoid``, ...) compute
integer and bool inputs in the default float dtype; ``neg``, ``abs``, ``relu``, ``sign`` and the
rounding ops keep integer dtypes. Derivatives that can be written in terms of the result
(``exp``, ``sigmoid``, ``tanh``, ``sqrt``, ``relu``, ...) save the output instead of the input.
The simple ones are one line each of the elementwise table (``_elementwise``): a new one is a line.

The activations ``silu``, ``gelu``, ``softplus``, ``leaky_relu``, ``elu``, ``hardtanh`` and ``logsigmoid``
live here too (``tinyframe.nn.functional`` reaches them) but are not top-level functions.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, dtypes, grad_mode
from .._graph import Op
from ..device import array_module_of
from . import binary
from .complex import Angle as ComplexAngle
from .complex import Sgn, reject_complex, saved_conj

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = [
    "neg", "negative", "abs", "absolute", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt",
    "rsqrt", "square", "reciprocal", "sin", "cos", "tan", "tanh", "sinh", "cosh", "asin", "arcsin", "acos",
    "arccos", "atan", "arctan", "asinh", "arcsinh", "acosh", "arccosh", "atanh", "arctanh",
    "sigmoid", "relu", "erf", "sign", "floor", "ceil", "round",
    "trunc", "fix", "isnan", "isinf", "isfinite",
    "frac", "nan_to_num", "lgamma", "digamma", "erfinv", "sinc", "logit", "deg2rad", "rad2deg",
    "erfc", "polygamma", "signbit", "angle",
]

_LN2 = math.log(2.0)
_RADIANS_PER_DEGREE = math.pi / 180.0
_DEGREES_PER_RADIAN = 180.0 / math.pi
_LN10 = math.log(10.0)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_GELU_KAPPA = 0.044715


def _floating(x: Any) -> Any:
    """``x`` itself when floating or complex; integer and bool arrays cast to the default float dtype."""
    kind = x.dtype.kind  # (bfloat16's is 'V': ``dtypes.kind`` tells, a call only for such a rare dtype)
    return x if kind in "fc" or dtypes.kind(x.dtype) == "f" else x.astype(dtypes.get_default_dtype().numpy)


def _sigmoid_array(xp: Any, x: Any) -> Any:
    """``1 / (1 + exp(-x))`` on arrays, PyTorch's formula (forward passes only)."""
    if x.dtype == np.float16:  # computed in float32 as PyTorch does: exp(-x) overflows float16 from x = -11
        return _sigmoid_array(xp, x.astype(np.float32)).astype(np.float16)
    if xp is np:
        with np.errstate(over="ignore"):  # exp(-x) = inf for very negative x: the sigmoid is then exactly 0
            e = np.exp(-x)
    else:
        e = xp.exp(-x)
    e += 1
    return xp.reciprocal(e)


def _erf(xp: Any, x: Any) -> Any:
    """The error function of a floating NumPy or CuPy array, in its dtype."""
    if xp is not np:
        from cupyx.scipy.special import erf  # CuPy's own kernel; cupyx ships with CuPy
        return erf(x)
    if x.dtype == np.float64:
        return _erf_double(xp, x)
    if x.dtype == np.float16:
        return _erf_single(xp, x.astype(np.float32)).astype(np.float16)
    return _erf_single(xp, x)


# W. J. Cody, "Rational Chebyshev approximations for the error function", Math. Comp. 23 (1969),
# as in Netlib's CALERF: erf(x) = x A(x^2) / B(x^2) for |x| <= 0.46875, and
# erfc(x) = exp(-x^2) C(x) / D(x) beyond. The second form is exact to double precision up to |x| = 6,
# past which erf is 1 in double precision, so |x| is clipped there and the asymptotic third form is
# never needed. Relative error below 1e-15.
_ERF_A = (3.16112374387056560, 1.13864154151050156e2, 3.77485237685302021e2, 3.20937758913846947e3,
          1.85777706184603153e-1)
_ERF_B = (2.36012909523441209e1, 2.44024637934444173e2, 1.28261652607737228e3, 2.84423683343917062e3)
_ERFC_C = (5.64188496988670089e-1, 8.88314979438837594, 6.61191906371416295e1, 2.98635138197400131e2,
           8.81952221241769090e2, 1.71204761263407058e3, 2.05107837782607147e3, 1.23033935479799725e3,
           2.15311535474403846e-8)
_ERFC_D = (1.57449261107098347e1, 1.17693950891312499e2, 5.37181101862009858e2, 1.62138957456669019e3,
           3.29079923573345963e3, 4.36261909014324716e3, 3.43936767414372164e3, 1.23033935480374942e3)
_ERF_SMALL = 0.46875


def _erf_double(xp: Any, x: Any) -> Any:
    y = xp.abs(x)
    z = xp.minimum(y, _ERF_SMALL)
    z = z * z
    num, den = _ERF_A[4] * z, z
    for a, b in zip(_ERF_A[:3], _ERF_B[:3]):
        num = (num + a) * z
        den = (den + b) * z
    small = y * (num + _ERF_A[3]) / (den + _ERF_B[3])
    w = xp.minimum(y, 6.0)
    erfc = _erfcx_cody(xp, w) * _exp_minus_square(xp, w)
    return xp.copysign(xp.where(y <= _ERF_SMALL, small, 1.0 - erfc), x)


def _erfcx_cody(xp: Any, w: Any) -> Any:
    """``exp(w^2) erfc(w)`` for ``0.46875 <= w <= 6``: Cody's second rational form (relative error below
    1e-15 up to 4, 1e-12 at 6; ``erf`` needs it only to an absolute 1e-16)."""
    num, den = _ERFC_C[8] * w, w
    for c, d in zip(_ERFC_C[:7], _ERFC_D[:7]):
        num = (num + c) * w
        den = (den + d) * w
    return (num + _ERFC_C[7]) / (den + _ERFC_D[7])


def _exp_minus_square(xp: Any, w: Any) -> Any:
    """``exp(-w^2)`` split as ``exp(-h^2) exp(-(w - h)(w + h))`` with ``h`` = ``w`` rounded down to 1/16, so
    the rounding error of ``w * w`` is not magnified."""
    h = xp.trunc(w * 16.0) / 16.0
    return xp.exp(-h * h) * xp.exp(-(w - h) * (w + h))


# Single precision: the branch-free rational approximation of Eigen and XLA, erf(x) = x P(x^2) / Q(x^2)
# on [-4, 4] (erf is +-1 in float32 beyond); absolute error below 5e-7, a quarter of the work of Cody's.
_ERF_P = (-2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06, -5.69250639462346e-05,
          -7.34990630326855e-04, -2.95459980854025e-03, -1.60960333262415e-02)
_ERF_Q = (-1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03, -7.37332916720468e-03,
          -1.42647390514189e-02)


def _erf_single(xp: Any, x: Any) -> Any:
    v = xp.clip(x, -4.0, 4.0)
    z = v * v
    p = z * _ERF_P[0] + _ERF_P[1]
    for a in _ERF_P[2:]:
        p *= z
        p += a
    q = z * _ERF_Q[0] + _ERF_Q[1]
    for b in _ERF_Q[2:]:
        q *= z
        q += b
    p *= v
    p /= q
    return xp.clip(p, -1.0, 1.0)


# --------------------------------------------------------------------------- the elementwise table
_INPUT, _OUTPUT = "input", "output"


class _Elementwise(Op):
    """An op of one tensor defined by a line of the table below: ``compute(xp, x)`` on arrays (integer
    and bool inputs in the default float dtype), what backward needs (the input or the output) and
    ``vjp(g, saved, xp)``, the gradient written with ``xp`` so that it also serves recorded passes.

    On complex inputs every op of the table is holomorphic with real coefficients, so ``f'(conj z) =
    conj(f'(z))``: backward hands ``vjp`` the conjugate of what was saved, and the same line gives PyTorch's
    complex gradient ``g * conj(f'(z))``. Ops PyTorch has no complex kernel for name their error in
    ``complex_error``; ops whose kernel PyTorch builds for fewer dtypes name it in ``kernel``, with the
    dtype kinds of the inputs it takes (``kinds``) and whether it takes float16 (``half``)."""

    saves: str
    compute: Any
    vjp: Any
    complex_error: Any
    kernel: tuple | None

    @staticmethod
    def forward(ctx: _Elementwise, x: Any) -> Any:
        if ctx.kernel is not None:
            name, kinds, half = ctx.kernel
            dtypes.check_kernel(name, x.dtype, kinds, half=half)
        if ctx.complex_error is not None:
            reject_complex(type(ctx).__name__.removesuffix("Backward0").lower(), x, error=ctx.complex_error)
        out = ctx.compute(ctx.xp, _floating(x))
        ctx.save_for_backward(out if ctx.saves is _OUTPUT else x)
        return out

    @staticmethod
    def backward(ctx: _Elementwise, g: Any) -> Any:
        (saved,) = saved_conj(ctx)
        return ctx.vjp(g, saved, ctx.xp)


def _elementwise(name: str, compute: Any, saves: str, vjp: Any, node_name: str | None = None, *,
                 complex_error: type[Exception] | None = None, kernel: str | None = None, kinds: str = "f",
                 half: bool = True) -> type[_Elementwise]:
    """The op class of one table line (PyTorch's node name ``<name>Backward0`` unless given);
    ``complex_error``: the exception PyTorch raises for complex inputs, where it has no complex kernel;
    ``kernel``: PyTorch's kernel where it is built for fewer dtypes, the input kinds it takes (``kinds``:
    floating only by default, integers not promoted) and whether float16 (``half``)."""
    return type(name, (_Elementwise,), {"saves": saves, "compute": staticmethod(compute), "vjp": staticmethod(vjp),
                                        "complex_error": complex_error,
                                        "kernel": None if kernel is None else (kernel, kinds, half)},
                node_name=node_name)


# One line an op, as in HIPS autograd's defvjp and PyTorch's derivatives.yaml:
#   class name, forward on arrays, saved value, gradient from (g, saved value, array module)
Exp = _elementwise("Exp", lambda xp, x: xp.exp(x), _OUTPUT, lambda g, out, xp: g * out)
Exp2 = _elementwise("Exp2", lambda xp, x: xp.exp2(x), _OUTPUT, lambda g, out, xp: g * out * _LN2)
Expm1 = _elementwise("Expm1", lambda xp, x: xp.expm1(x), _OUTPUT, lambda g, out, xp: g * (out + 1.0))
Log = _elementwise("Log", lambda xp, x: xp.log(x), _INPUT, lambda g, x, xp: g / x)
Log2 = _elementwise("Log2", lambda xp, x: xp.log2(x), _INPUT, lambda g, x, xp: g / (x * _LN2))
Log10 = _elementwise("Log10", lambda xp, x: xp.log10(x), _INPUT, lambda g, x, xp: g / (x * _LN10))
Log1p = _elementwise("Log1p", lambda xp, x: xp.log1p(x), _INPUT, lambda g, x, xp: g / (x + 1.0), "Log1PBackward0")
Sqrt = _elementwise("Sqrt", lambda xp, x: xp.sqrt(x), _OUTPUT, lambda g, out, xp: g / (out * 2.0))
Rsqrt = _elementwise("Rsqrt", lambda xp, x: xp.reciprocal(xp.sqrt(x)), _OUTPUT,
                     lambda g, out, xp: -0.5 * g * binary.Pow.call(out, exponent=3))
Reciprocal = _elementwise("Reciprocal", lambda xp, x: xp.reciprocal(x), _OUTPUT, lambda g, out, xp: -g * (out * out))
Sin = _elementwise("Sin", lambda xp, x: xp.sin(x), _INPUT, lambda g, x, xp: g * xp.cos(x))
Cos = _elementwise("Cos", lambda xp, x: xp.cos(x), _INPUT, lambda g, x, xp: g * -xp.sin(x))
Tan = _elementwise("Tan", lambda xp, x: xp.tan(x), _OUTPUT,
                   lambda g, out, xp: g * (1.0 + binary.Pow.call(out, exponent=2)))
Tanh = _elementwise("Tanh", lambda xp, x: xp.tanh(x), _OUTPUT, lambda g, out, xp: g * (1.0 - out * out))
Sinh = _elementwise("Sinh", lambda xp, x: xp.sinh(x), _INPUT, lambda g, x, xp: g * xp.cosh(x))
Cosh = _elementwise("Cosh", lambda xp, x: xp.cosh(x), _INPUT, lambda g, x, xp: g * xp.sinh(x))
Asin = _elementwise("Asin", lambda xp, x: xp.arcsin(x), _INPUT, lambda g, x, xp: g / xp.sqrt(1.0 - x * x))
Acos = _elementwise("Acos", lambda xp, x: xp.arccos(x), _INPUT, lambda g, x, xp: -g / xp.sqrt(1.0 - x * x))
Atan = _elementwise("Atan", lambda xp, x: xp.arctan(x), _INPUT, lambda g, x, xp: g / (x * x + 1.0))
Asinh = _elementwise("Asinh", lambda xp, x: xp.arcsinh(x), _INPUT,
                     lambda g, x, xp: g * Rsqrt.call(binary.Pow.call(x, exponent=2) + 1.0))
Acosh = _elementwise("Acosh", lambda xp, x: xp.arccosh(x), _INPUT,
                     lambda g, x, xp: g / (xp.sqrt(x - 1.0) * xp.sqrt(x + 1.0)))
Atanh = _elementwise("Atanh", lambda xp, x: xp.arctanh(x), _INPUT, lambda g, x, xp: g / (1.0 - x * x))
Erf = _elementwise("Erf", _erf, _INPUT,
                   lambda g, x, xp: _TWO_OVER_SQRT_PI * xp.exp(-binary.Pow.call(x, exponent=2)) * g,
                  complex_error=NotImplementedError)
Sigmoid = _elementwise("Sigmoid", _sigmoid_array, _OUTPUT, lambda g, out, xp: g * out * (1.0 - out))
Frac = _elementwise("Frac", lambda xp, x: x - xp.trunc(x), _INPUT, lambda g, x, xp: g, kernel="frac_cpu")
Sinc = _elementwise("Sinc", lambda xp, x: xp.sinc(x), _INPUT, lambda g, x, xp: g * _sinc_slope(xp, x))
Logit = _elementwise("Logit", lambda xp, x: xp.log(x / (1.0 - x)), _INPUT, lambda g, x, xp: _logit_slope(xp, g, x),
                    complex_error=NotImplementedError)
Angle = _elementwise("Angle", lambda xp, x: xp.where(xp.isnan(x), x, xp.where(x < 0, math.pi, 0.0).astype(x.dtype)),
                      _INPUT, lambda g, x, xp: g * 0.0)
Deg2rad = _elementwise("Deg2rad", lambda xp, x: x * _RADIANS_PER_DEGREE, _INPUT,
                       lambda g, x, xp: g * _RADIANS_PER_DEGREE, "Deg2RadBackward0", complex_error=RuntimeError)
Rad2deg = _elementwise("Rad2deg", lambda xp, x: x * _DEGREES_PER_RADIAN, _INPUT,
                       lambda g, x, xp: g * _DEGREES_PER_RADIAN, "Rad2DegBackward0", complex_error=RuntimeError)

# the table's ops that PyTorch differentiates with a backward kernel of their own (see ``Node.backward_node``)
Sigmoid.backward_node, Tanh.backward_node = "SigmoidBackwardBackward0", "TanhBackwardBackward0"


def _sinc_slope(xp: Any, x: Any) -> Any:
    """``d/dx sin(pi x) / (pi x) = (cos(pi x) - sinc(x)) / x``, and 0 at ``x = 0``."""
    zero = x == 0
    return xp.where(zero, 0.0, (xp.cos(x * math.pi) - Sinc.call(x)) / xp.where(zero, 1.0, x))


def _logit_slope(xp: Any, g: Any, x: Any) -> Any:
    """``g / (x (1 - x))`` as PyTorch's: NaN outside ``[0, 1]``, and -0.0 taken as 0.0 (``+ 0.0``)."""
    return xp.where((x < 0) | (x > 1), math.nan, g / (x * (1.0 - x) + 0.0))


# --------------------------------------------------------------------------- special functions
# float64 NumPy code (float32 and float16 inputs are computed in float64 and rounded); CuPy has kernels.
_LGAMMA: Any = np.frompyfunc(math.lgamma, 1, 1)  # an object-dtype ufunc (no array type in NumPy's stubs)
_SQRT_PI_OVER_2 = math.sqrt(math.pi) / 2.0


def _special(compute: Any, name: str, *leading: Any) -> Any:
    """``compute`` on a NumPy array in float64, cast back; CuPy's ``cupyx.scipy.special.<name>(*leading, x)``."""
    def on_array(xp: Any, x: Any) -> Any:
        if xp is not np:
            import cupyx.scipy.special  # ships with CuPy; imported only where CuPy is in use
            return getattr(cupyx.scipy.special, name)(*leading, x)
        return compute(x.astype(np.float64)).astype(x.dtype, copy=False)
    return on_array


def _is_pole(x: np.ndarray) -> np.ndarray:
    return (x <= 0) & (x == np.floor(x))


def _lgamma(x: np.ndarray) -> np.ndarray:
    """``log|gamma(x)|`` with math.lgamma on each element (about 0.1 us each); +inf at the poles."""
    pole = _is_pole(x)
    out = np.asarray(_LGAMMA(np.where(pole, 1.0, x)), dtype=np.float64)  # a 0-d input gives a float
    return np.where(pole, np.inf, out)


def _shifted(x: np.ndarray, minimum: float) -> tuple:
    """``(y, steps)``: ``y = x + k >= minimum`` elementwise and the ``x + j`` (``j < k``) passed, as a list."""
    y = x.copy()
    steps: list[np.ndarray] = []
    while True:
        small = y < minimum
        if not small.any():
            return y, steps
        steps.append(np.where(small, y, np.inf))  # 1 / inf = 0: nothing added where y is already large
        y = np.where(small, y + 1.0, y)


def _digamma(x: np.ndarray) -> np.ndarray:
    """psi(x) = d/dx log gamma(x): psi(x) = psi(1 - x) - pi / tan(pi x) below 1/2, the recurrence
    psi(y) = psi(y + 1) - 1/y up to y >= 10, then the asymptotic series (error below 1e-15 there).
    -inf at 0 (+inf at -0.0) and NaN at the negative integers, as PyTorch."""
    reflect = x < 0.5
    y, steps = _shifted(np.where(reflect, 1.0 - x, x), 10.0)
    inv2 = 1.0 / (y * y)
    series = inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (1 / 240 - inv2 * (1 / 132)))))
    out = np.log(y) - 0.5 / y - series - sum(1.0 / s for s in steps)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(reflect, out - math.pi / np.tan(math.pi * x), out)
    return np.where(x == 0, np.copysign(np.inf, -x), np.where(_is_pole(x), np.nan, out))  # +inf at -0.0


def _trigamma(x: np.ndarray) -> np.ndarray:
    """psi'(x) (polygamma(1, x)): psi'(x) = pi^2 / sin^2(pi x) - psi'(1 - x) below 1/2, the recurrence
    psi'(y) = psi'(y + 1) + 1/y^2 up to y >= 10, then the asymptotic series; +inf at the poles."""
    reflect = x < 0.5
    y, steps = _shifted(np.where(reflect, 1.0 - x, x), 10.0)
    inv, inv2 = 1.0 / y, 1.0 / (y * y)
    tail = 1 / 6 - inv2 * (1 / 30 - inv2 * (1 / 42 - inv2 * (1 / 30 - inv2 * 5 / 66)))
    series = inv * (1.0 + inv * (0.5 + inv * tail))
    out = series + sum(1.0 / (s * s) for s in steps)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(reflect, (math.pi / np.sin(math.pi * x)) ** 2 - out, out)
    return np.where(_is_pole(x), np.inf, out)


# Giles, "Approximating the erfinv function" (GPU Computing Gems, 2010): about 1e-7 relative, then
# three Newton steps on erf(v) = x, each doubling the correct digits.
_ERFINV_CENTRAL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                   -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_ERFINV_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)


def _erfinv(x: np.ndarray) -> np.ndarray:
    """The inverse of erf on (-1, 1); +-inf at +-1 and NaN outside, as PyTorch."""
    inside = np.abs(x) < 1
    t = np.where(inside, x, 0.0)
    w = -np.log((1.0 - t) * (1.0 + t))
    central, tail = w - 2.5, np.sqrt(w) - 3.0
    p, q = np.full_like(t, _ERFINV_CENTRAL[0]), np.full_like(t, _ERFINV_TAIL[0])
    for a, b in zip(_ERFINV_CENTRAL[1:], _ERFINV_TAIL[1:]):
        p, q = p * central + a, q * tail + b
    v = np.where(w < 5.0, p, q) * t
    for _ in range(3):
        v -= (_erf_double(np, v) - t) / (_TWO_OVER_SQRT_PI * np.exp(-v * v))
    edge = np.where(np.abs(x) == 1, np.copysign(np.inf, x), np.nan)
    return np.where(inside, v, edge)


_ERFC_FRACTION_TERMS = 40  # the continued fraction below, from 4 on: converged to double precision from 3
_ERFC_FRACTION_FROM = 4.0  # Cody's rational form is exact to 1e-15 up to here, 1e-12 at 6


def _erfcx_positive(w: np.ndarray) -> np.ndarray:
    """``exp(w^2) erfc(w)`` for ``w >= 0.46875``: Cody's rational form up to 4, then the continued fraction
    ``1 / (sqrt(pi) (w + (1/2) / (w + 1 / (w + (3/2) / (w + ...)))))`` (relative error below 1e-15 on both,
    against PyTorch's erfcx)."""
    far = np.maximum(w, _ERFC_FRACTION_FROM)
    t = far
    for k in range(_ERFC_FRACTION_TERMS, 0, -1):
        t = far + (0.5 * k) / t
    near = _erfcx_cody(np, np.minimum(w, _ERFC_FRACTION_FROM))
    return np.where(w <= _ERFC_FRACTION_FROM, near, 1.0 / (math.sqrt(math.pi) * t))


def _erfc(x: np.ndarray) -> np.ndarray:
    """``1 - erf(x)`` without the cancellation: relative error below 1e-15 up to its underflow near 27."""
    y = np.minimum(np.abs(x), 30.0)  # erfc(30) is 0 in double precision
    tail = _erfcx_positive(np.maximum(y, _ERF_SMALL)) * _exp_minus_square(np, y)
    return np.where(y < _ERF_SMALL, 1.0 - _erf_double(np, x), np.where(x < 0, 2.0 - tail, tail))


# Cephes' Hurwitz zeta, as PyTorch's: the first terms summed until the next is below 1e-16 of the sum or
# 9 < q + k, then the Euler-Maclaurin tail with these Bernoulli-number coefficients (2k)! / B_2k.
_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
           -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
           1.8152105401943546773e17, -7.1661652561756670113e18)
_MACHEP = 1.11022302462515654042e-16


def _zeta(x: np.ndarray, q: np.ndarray) -> np.ndarray:
    """``sum over k >= 0 of (k + q)^-x``: inf at x = 1 and at the poles q = 0, -1, ...; NaN for x < 1 and
    for a negative q with a non-integer x, as PyTorch."""
    x, q = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(q, np.float64))
    with np.errstate(all="ignore"):
        s, a, b = q ** -x, q.copy(), np.zeros_like(q)
        done, steps = np.zeros(q.shape, bool), 0
        while True:
            active = ~done & np.isfinite(a) & ((steps < 9) | (a <= 9.0))  # q = -inf would never pass 9
            if not active.any():
                break
            steps += 1
            a = np.where(active, a + 1.0, a)
            b = np.where(active, a ** -x, b)
            s = np.where(active, s + b, s)
            done |= active & (np.abs(b) < _MACHEP * s)
        w = a
        s = np.where(done, s, s + b * w / (x - 1.0) - 0.5 * b)
        a, k = np.ones_like(s), 0.0
        for coefficient in _ZETA_A:
            a, b = a * (x + k), b / w
            t = a * b / coefficient
            s = np.where(done, s, s + t)
            done |= np.abs(t / s) < _MACHEP
            a, b, k = a * (x + k + 1.0), b / w, k + 2.0
        pole = (q <= 0) & (q == np.floor(q))
        undefined = (x < 1.0) | ((q <= 0) & ~pole & (x != np.floor(x)))
        return np.where(undefined, np.nan, np.where((x == 1.0) | pole, np.inf, s))


def _polygamma(n: int) -> Any:
    """The NumPy kernel of ``polygamma(n, x)``: digamma, trigamma, then ``(-1)^(n+1) n! zeta(n + 1, x)``."""
    if n == 0:
        return _digamma
    if n == 1:
        return _trigamma
    scale = (1.0 if n % 2 else -1.0) * math.exp(math.lgamma(n + 1.0))
    return lambda x: scale * _zeta(np.float64(n + 1), x)


class Polygamma(Op):
    """``polygamma(n, x)``, the n-th derivative of digamma; its gradient is ``polygamma(n + 1, x)``."""

    @staticmethod
    def forward(ctx: Polygamma, x: Any, *, n: int) -> Any:
        ctx.n = n
        ctx.save_for_backward(x)
        return _special(_polygamma(n), "polygamma", n)(ctx.xp, _floating(x))

    @staticmethod
    def backward(ctx: Polygamma, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        return g * Polygamma.call(x, n=ctx.n + 1)


Lgamma = _elementwise("Lgamma", _special(_lgamma, "gammaln"), _INPUT, lambda g, x, xp: g * Digamma.call(x),
                      complex_error=NotImplementedError)
Digamma: type[_Elementwise] = _elementwise("Digamma", _special(_digamma, "digamma"), _INPUT,
                                            lambda g, x, xp: g * Polygamma.call(x, n=1),
                                            complex_error=NotImplementedError)
Erfc = _elementwise("Erfc", _special(_erfc, "erfc"), _INPUT,
                    lambda g, x, xp: -_TWO_OVER_SQRT_PI * xp.exp(-binary.Pow.call(x, exponent=2)) * g,
                    complex_error=NotImplementedError)
Erfinv = _elementwise("Erfinv", _special(_erfinv, "erfinv"), _OUTPUT,
                      lambda g, out, xp: g * _SQRT_PI_OVER_2 * xp.exp(out * out), complex_error=NotImplementedError)


# --------------------------------------------------------------------------- sign, abs
class Neg(Op):
    @staticmethod
    def forward(ctx: Neg, x: Any) -> Any:
        if x.dtype.kind == "b":
            raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are "
                               "trying to invert a mask, use the `~` or `logical_not()` operator instead.")
        return -x

    @staticmethod
    def backward(ctx: Neg, g: Any) -> Any:
        return -g


class Abs(Op):
    @staticmethod
    def forward(ctx: Abs, x: Any) -> Any:
        dtypes.check_kernel("abs_cpu", x.dtype, "uifc")
        ctx.save_for_backward(x)
        return ctx.xp.abs(x)

    @staticmethod
    def backward(ctx: Abs, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        return g * Sgn.call(x)  # x / |x| for complex x


# --------------------------------------------------------------------------- activations
class Relu(Op):
    @staticmethod
    def forward(ctx: Relu, x: Any) -> Any:
        kind = x.dtype.kind
        if kind == "b":
            raise RuntimeError("Boolean inputs not supported for relu")
        if kind == "c":
            raise NotImplementedError(binary.NO_COMPLEX_CLAMP)
        out = ctx.xp.maximum(x, _zero_of(x))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Relu, g: Any) -> Any:
        (out,) = ctx.saved_tensors
        return ThresholdGrad.call(g, out, threshold=0)  # 0 at x = 0, as in PyTorch


# --------------------------------------------------------------------------- gradients of piecewise-linear ops
class _SlopeGrad(Op):
    """The gradient ``g * slope(x)`` of an activation whose slope is piecewise constant, as one node of
    PyTorch's name (``ThresholdBackwardBackward0``, ...), so that a recorded backward pass gives
    PyTorch's graph: linear in ``g`` (its own gradient is the same op on ``gg``) and flat in ``x`` (zeros).
    ``gradient(xp, g, x, **options)`` is the formula on arrays."""

    saved_inputs = ("self",)
    gradient: Any

    @classmethod
    def call(cls, *inputs: Any, **options: Any) -> Any:
        """``Op.call``; on NumPy arrays (a first-order pass) the formula at once, without a node: ~8K
        instructions less per call, 20K of the small MLP step's two relus."""
        g, x = inputs
        if type(g) is np.ndarray and type(x) is np.ndarray:
            return cls.gradient(np, g, x, **options)
        return super().call(*inputs, **options)

    @staticmethod
    def forward(ctx: _SlopeGrad, g: Any, x: Any, **options: Any) -> Any:
        ctx.options = options
        ctx.save_for_backward(x)
        return ctx.gradient(ctx.xp, g, x, **options)

    @staticmethod
    def backward(ctx: _SlopeGrad, gg: Any) -> tuple:
        (x,) = ctx.saved_tensors
        return type(ctx).call(gg, x, **ctx.options), ctx.xp.zeros_like(x) if ctx.needs_input_grad[1] else None


def _slope_grad(name: str, gradient: Any) -> type[_SlopeGrad]:
    """The ``_SlopeGrad`` op of PyTorch's node ``<name>BackwardBackward0``."""
    return type(name + "Grad", (_SlopeGrad,), {"gradient": staticmethod(gradient)},
                node_name=name + "BackwardBackward0")


def _threshold_gradient(xp: Any, g: Any, x: Any, *, threshold: float) -> Any:
    # A product with the mask is 7x faster than where(mask, g, 0.0) in NumPy; it differs from
    # PyTorch's only where g is inf or nan at a masked element. NaN passes the gradient, as in PyTorch.
    return g * ~(x <= (_zero_of(x) if threshold == 0 else threshold))


# At NaN these gradients are 0 (hardtanh, the shrinks) or NaN (elu), as in the bulk of PyTorch's vectorised
# kernels (their scalar tail, the last numel % 4 or 8 elements, passes the gradient there instead).
def _shrink_gradient(xp: Any, g: Any, x: Any, *, lambd: float) -> Any:
    return xp.where((x < -lambd) | (x > lambd), g, 0.0)


ThresholdGrad = _slope_grad("Threshold", _threshold_gradient)
LeakyReluGrad = _slope_grad("LeakyRelu", lambda xp, g, x, *, negative_slope: xp.where(x > 0, g, g * negative_slope))
HardtanhGrad = _slope_grad("Hardtanh", lambda xp, g, x, *, min_val, max_val:
                           xp.where((x > min_val) & (x < max_val), g, 0.0))
RreluWithNoiseGrad = _slope_grad("RreluWithNoise", lambda xp, g, x, *, slopes:
                                 xp.where(x > 0, g, g * xp.asarray(slopes)))
HardshrinkGrad = _slope_grad("Hardshrink", _shrink_gradient)
SoftshrinkGrad = _slope_grad("Softshrink", _shrink_gradient)


_ZEROS: dict = {}  # a 0-d zero array per NumPy dtype


def _zero_of(x: Any) -> Any:
    """0 for comparing with the array ``x``: a 0-d NumPy array of its dtype, which a ufunc takes as it
    is, where it converts a Python 0 on each call (callgrind, ``np.maximum(x, 0)`` on a (4, 8) float32
    array: 6.7K instructions, with the 0-d array 4.0K); a Python 0 for a CuPy array or a recorded pass."""
    if type(x) is not np.ndarray:
        return 0
    zero = _ZEROS.get(x.dtype)
    if zero is None:
        zero = _ZEROS[x.dtype] = np.zeros((), x.dtype)
    return zero


class Silu(Op):
    @staticmethod
    def forward(ctx: Silu, x: Any) -> Any:
        dtypes.check_kernel("silu_cpu", x.dtype, "fc")
        ctx.save_for_backward(x)
        return x * _sigmoid_array(ctx.xp, x)

    @staticmethod
    def backward(ctx: Silu, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        s = Sigmoid.call(x)
        # (PyTorch's ``grad * sigmoid * (1 + x * (1 - sigmoid))``, with its nodes when recorded: the number 1
        # added as a Scalar, subtracted from as a filled tensor)
        return g * s * binary.AddScalar.call(x * binary.Sub.call(1.0, s), other=1.0)


class Gelu(Op):
    backward_node = "GeluBackwardBackward0"

    @staticmethod
    def forward(ctx: Gelu, x: Any, *, approximate: str) -> Any:
        dtypes.check_kernel("GeluKernelImpl", x.dtype, "f")
        ctx.save_for_backward(x)
        ctx.approximate = approximate
        xp = ctx.xp
        if approximate == "tanh":
            inner = (x * x * x * _GELU_KAPPA + x) * _SQRT_2_OVER_PI
            return x * (xp.tanh(inner) + 1.0) * 0.5
        return x * (_erf(xp, x * _SQRT_HALF) + 1.0) * 0.5

    @staticmethod
    def backward(ctx: Gelu, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        xp = ctx.xp
        if ctx.approximate == "tanh":
            x_sq = x * x
            t = xp.tanh((x_sq * x * _GELU_KAPPA + x) * _SQRT_2_OVER_PI)
            d_inner = (x_sq * (3.0 * _GELU_KAPPA) + 1.0) * _SQRT_2_OVER_PI
            return g * ((t + 1.0) * 0.5 + x * 0.5 * (1.0 - t * t) * d_inner)
        scaled = x * _SQRT_HALF
        erf = Erf.call(scaled)
        return g * ((erf + 1.0) * 0.5 + x * xp.exp(x * x * -0.5) * _INV_SQRT_2PI)


class Softplus(Op):
    backward_node = "SoftplusBackwardBackward0"

    saved_options = ("beta", "threshold")

    @staticmethod
    def forward(ctx: Softplus, x: Any, *, beta: float, threshold: float) -> Any:
        dtypes.check_kernel("softplus_cpu", x.dtype, "f")
        ctx.save_for_backward(x)
        ctx.beta, ctx.threshold = beta, threshold
        xp = ctx.xp
        bx = x * beta if beta != 1 else x
        smooth = xp.log1p(xp.exp(xp.minimum(bx, threshold)))  # clipped: no overflow where x is returned
        return xp.where(bx > threshold, x, smooth / beta if beta != 1 else smooth)

    @staticmethod
    def backward(ctx: Softplus, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        bx = x * ctx.beta if ctx.beta != 1 else x
        return ctx.xp.where(bx > ctx.threshold, g, g * Sigmoid.call(bx))


class LeakyRelu(Op):
    saved_options = ("negative_slope",)

    @staticmethod
    def forward(ctx: LeakyRelu, x: Any, *, negative_slope: float) -> Any:
        dtypes.check_kernel("leaky_relu_cpu", x.dtype, "f")
        ctx.save_for_backward(x)
        ctx.negative_slope = negative_slope
        return ctx.xp.where(x > 0, x, x * negative_slope)

    @staticmethod
    def backward(ctx: LeakyRelu, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        return LeakyReluGrad.call(g, x, negative_slope=ctx.negative_slope)


class Elu(Op):
    """PyTorch's elu kernel, which elu, selu and celu share: ``scale * x`` where positive, else
    ``scale * alpha * (exp(input_scale * x) - 1)``. As PyTorch's, the node saves ``x``: its recorded
    backward, one ``EluBackwardBackward0`` node, has two edges (the gradient's and ``x``'s)."""

    backward_node = "EluBackwardBackward0"
    saved_options = ("alpha", "scale", "input_scale")

    @staticmethod
    def forward(ctx: Elu, x: Any, *, alpha: float, scale: float = 1.0, input_scale: float = 1.0) -> Any:
        dtypes.check_kernel("elu_cpu", x.dtype, "f")
        ctx.alpha, ctx.scale, ctx.input_scale = alpha, scale, input_scale
        ctx.save_for_backward(x)
        xp = ctx.xp
        out = xp.where(x > 0, x, xp.expm1(xp.minimum(x, 0.0) * input_scale) * alpha)
        return out if scale == 1 else out * scale

    @staticmethod
    def backward(ctx: Elu, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        xp = ctx.xp
        g = g if ctx.scale == 1 else g * ctx.scale
        slope = ctx.alpha * ctx.input_scale
        return xp.where(x > 0, g, g * slope * xp.exp(xp.minimum(x, 0.0) * ctx.input_scale))


class Celu(Elu, node_name="CeluBackward0"):
    """``celu``: the elu kernel with ``input_scale = 1 / alpha``."""


class Hardtanh(Op):
    saved_options = ("min_val", "max_val")

    @staticmethod
    def forward(ctx: Hardtanh, x: Any, *, min_val: float, max_val: float) -> Any:
        if x.dtype.kind == "b":
            raise RuntimeError("Bool inputs not supported for hardtanh")
        reject_complex("hardtanh", x, message=binary.NO_COMPLEX_CLAMP)
        ctx.save_for_backward(x)
        ctx.min_val, ctx.max_val = min_val, max_val
        if x.dtype.kind != "f":
            min_val, max_val = math.trunc(min_val), math.trunc(max_val)
        return ctx.xp.clip(x, min_val, max_val)

    @staticmethod
    def backward(ctx: Hardtanh, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        return HardtanhGrad.call(g, x, min_val=ctx.min_val, max_val=ctx.max_val)


class LogSigmoid(Op):
    backward_node = "LogSigmoidBackwardBackward0"

    @staticmethod
    def forward(ctx: LogSigmoid, x: Any) -> Any:
        dtypes.check_kernel("log_sigmoid_cpu", x.dtype, "f")
        ctx.save_for_backward(x)
        xp = ctx.xp
        return xp.minimum(x, 0.0) - xp.log1p(xp.exp(-xp.abs(x)))

    @staticmethod
    def backward(ctx: LogSigmoid, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        return g * Sigmoid.call(-x)


# --------------------------------------------------------------------------- piecewise constant
class _PiecewiseConstant(Op):
    """Ops whose derivative is zero wherever it exists; PyTorch returns zeros everywhere."""

    @staticmethod
    def backward(ctx: _PiecewiseConstant, g: Any) -> Any:
        return ctx.xp.zeros_like(g)


class Sign(_PiecewiseConstant):
    @staticmethod
    def forward(ctx: Sign, x: Any) -> Any:
        reject_complex("sign", x, message="Unlike NumPy, torch.sign is not intended to support complex numbers. "
                                          "Please use torch.sgn instead.")
        kind = x.dtype.kind
        if kind == "b":
            return x.copy()
        if kind != "f":
            return ctx.xp.sign(x)
        return (x > 0).astype(x.dtype) - (x < 0)  # PyTorch: sign(nan) = 0, sign(-0.0) = 0


class Floor(_PiecewiseConstant):
    @staticmethod
    def forward(ctx: Floor, x: Any) -> Any:
        dtypes.check_kernel("floor_vml_cpu", x.dtype, "uifc")
        reject_complex("floor", x, message="floor is not supported for complex inputs")
        return ctx.xp.floor(x) if x.dtype.kind == "f" else x.copy()


class Ceil(_PiecewiseConstant):
    @staticmethod
    def forward(ctx: Ceil, x: Any) -> Any:
        dtypes.check_kernel("ceil_vml_cpu", x.dtype, "uifc")
        reject_complex("ceil", x, message="ceil is not supported for complex inputs")
        return ctx.xp.ceil(x) if x.dtype.kind == "f" else x.copy()


class Trunc(_PiecewiseConstant):
    @staticmethod
    def forward(ctx: Trunc, x: Any) -> Any:
        dtypes.check_kernel("trunc_vml_cpu", x.dtype, "uifc")
        reject_complex("trunc", x, message="trunc is not supported for complex inputs")
        return ctx.xp.trunc(x) if x.dtype.kind == "f" else x.copy()


class Round(_PiecewiseConstant):
    @staticmethod
    def forward(ctx: Round, x: Any, *, decimals: int | None = None) -> Any:
        dtypes.check_kernel("round_vml_cpu", x.dtype, "uifc")
        reject_complex("round", x)
        if x.dtype.kind != "f":
            if decimals is not None:  # PyTorch's round.decimals has no integer kernel, even for decimals=0
                raise NotImplementedError(f"\"{'round_cpu' if decimals else 'round_vml_cpu'}\" not implemented for "
                                          f"'{dtypes.scalar_type_name(x.dtype)}'")
            return x.copy()
        # Halves round to even; with decimals, x * 10^d is rounded and scaled back, as PyTorch does.
        return ctx.xp.rint(x) if not decimals else ctx.xp.round(x, decimals)


class RoundDecimals(Round, node_name="RoundBackward1"):
    pass


class NanToNum(Op):
    """NaN, +inf and -inf replaced by numbers; the gradient passes where ``x`` is finite."""

    @staticmethod
    def forward(ctx: NanToNum, x: Any, *, nan: float, posinf: float | None, neginf: float | None) -> Any:
        ctx.save_for_backward(ctx.xp.asarray(ctx.xp.isfinite(x)))  # an array even for 0-dim x (NumPy gives a scalar)
        return ctx.xp.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)

    @staticmethod
    def backward(ctx: NanToNum, g: Any) -> Any:
        (finite,) = ctx.saved_tensors
        return g * ctx.xp.asarray(finite)


# --------------------------------------------------------------------------- public functions
def neg(input: Tensor) -> Tensor:
    """``-input``. Integer dtypes are kept; bool tensors are rejected (use ``logical_not``)."""
    return Neg.apply(input)


def abs(input: Tensor) -> Tensor:
    """``|input|``; the gradient is ``sign(input)`` (0 at 0)."""
    return Abs.apply(input)


def exp(input: Tensor) -> Tensor:
    """``e ** input``."""
    return Exp.apply(input)


def exp2(input: Tensor) -> Tensor:
    """``2 ** input``."""
    return Exp2.apply(input)


def expm1(input: Tensor) -> Tensor:
    """``e ** input - 1``, accurate for small ``input``."""
    return Expm1.apply(input)


def log(input: Tensor) -> Tensor:
    """Natural logarithm ``ln(input)``."""
    return Log.apply(input)


def log2(input: Tensor) -> Tensor:
    """Base-2 logarithm."""
    return Log2.apply(input)


def log10(input: Tensor) -> Tensor:
    """Base-10 logarithm."""
    return Log10.apply(input)


def log1p(input: Tensor) -> Tensor:
    """``ln(1 + input)``, accurate for small ``input``."""
    return Log1p.apply(input)


def sqrt(input: Tensor) -> Tensor:
    """``input ** 0.5``."""
    return Sqrt.apply(input)


def rsqrt(input: Tensor) -> Tensor:
    """``1 / sqrt(input)``."""
    return Rsqrt.apply(input)


def square(input: Tensor) -> Tensor:
    """``input ** 2`` (``PowBackward0``, as ``torch.square``); integer dtypes are kept, bool gives int64."""
    return binary.Pow.apply(input, exponent=2)


def reciprocal(input: Tensor) -> Tensor:
    """``1 / input``."""
    return Reciprocal.apply(input)


def sin(input: Tensor) -> Tensor:
    """Sine of ``input`` (radians)."""
    return Sin.apply(input)


def cos(input: Tensor) -> Tensor:
    """Cosine of ``input`` (radians)."""
    return Cos.apply(input)


def tan(input: Tensor) -> Tensor:
    """Tangent of ``input`` (radians); the gradient is ``1 + tan(input) ** 2``."""
    return Tan.apply(input)


def tanh(input: Tensor) -> Tensor:
    """Hyperbolic tangent; the gradient is ``1 - tanh(input) ** 2``."""
    return Tanh.apply(input)


def sinh(input: Tensor) -> Tensor:
    """Hyperbolic sine."""
    return Sinh.apply(input)


def cosh(input: Tensor) -> Tensor:
    """Hyperbolic cosine."""
    return Cosh.apply(input)


def asin(input: Tensor) -> Tensor:
    """Arcsine, in ``[-pi/2, pi/2]``; NaN outside ``[-1, 1]``."""
    return Asin.apply(input)


def acos(input: Tensor) -> Tensor:
    """Arccosine, in ``[0, pi]``; NaN outside ``[-1, 1]``."""
    return Acos.apply(input)


def atan(input: Tensor) -> Tensor:
    """Arctangent, in ``(-pi/2, pi/2)``."""
    return Atan.apply(input)


def asinh(input: Tensor) -> Tensor:
    """Inverse hyperbolic sine."""
    return Asinh.apply(input)


def acosh(input: Tensor) -> Tensor:
    """Inverse hyperbolic cosine on ``[1, inf)``; NaN below 1."""
    return Acosh.apply(input)


arcsinh, arccosh = asinh, acosh


def atanh(input: Tensor) -> Tensor:
    """Inverse hyperbolic tangent on ``(-1, 1)``; +-inf at +-1, NaN beyond."""
    return Atanh.apply(input)


arctanh = atanh


def sigmoid(input: Tensor) -> Tensor:
    """``1 / (1 + e ** -input)``; the gradient is ``sigmoid(input) * (1 - sigmoid(input))``."""
    return Sigmoid.apply(input)


def relu(input: Tensor) -> Tensor:
    """``max(input, 0)``; the gradient at 0 is 0. Integer dtypes are kept."""
    return Relu.apply(input)


def erf(input: Tensor) -> Tensor:
    """Error function ``2 / sqrt(pi) * integral from 0 to input of e ** (-t ** 2) dt``."""
    return Erf.apply(input)


def sign(input: Tensor) -> Tensor:
    """-1, 0 or 1 by the sign of each element (0 for NaN); the gradient is zero."""
    return Sign.apply(input)


def floor(input: Tensor) -> Tensor:
    """Largest integer not greater than each element; the gradient is zero."""
    return Floor.apply(input)


def ceil(input: Tensor) -> Tensor:
    """Smallest integer not less than each element; the gradient is zero."""
    return Ceil.apply(input)


def round(input: Tensor, *, decimals: int | None = None) -> Tensor:
    """Rounds to ``decimals`` decimal places (negative: to tens, hundreds, ...), halves to even; the
    gradient is zero. Integer tensors round (to themselves) only without ``decimals``, as in PyTorch."""
    if decimals is None:
        return Round.apply(input)
    return RoundDecimals.apply(input, decimals=decimals)


def trunc(input: Tensor) -> Tensor:
    """Rounds each element toward zero; the gradient is zero."""
    return Trunc.apply(input)


def isnan(input: Tensor) -> Tensor:
    """Bool tensor, True where ``input`` is NaN."""
    return _elementwise_test(input, "isnan")


def isinf(input: Tensor) -> Tensor:
    """Bool tensor, True where ``input`` is positive or negative infinity."""
    return _elementwise_test(input, "isinf")


def frac(input: Tensor) -> Tensor:
    """The fractional part, ``input - trunc(input)``, with the sign of ``input``."""
    return Frac.apply(input)


def nan_to_num(input: Tensor, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None) -> Tensor:
    """``input`` with NaN replaced by ``nan``, +inf by ``posinf`` and -inf by ``neginf`` (by default the
    largest and the lowest finite value of the dtype)."""
    return NanToNum.apply(input, nan=nan, posinf=posinf, neginf=neginf)


def lgamma(input: Tensor) -> Tensor:
    """``log|gamma(input)|``; +inf at 0 and the negative integers. The gradient is ``digamma(input)``."""
    return Lgamma.apply(input)


def digamma(input: Tensor) -> Tensor:
    """``psi(input)``, the derivative of ``lgamma``; -inf at 0, NaN at the negative integers."""
    return Digamma.apply(input)


def sinc(input: Tensor) -> Tensor:
    """The normalised sinc, ``sin(pi x) / (pi x)``, and 1 at ``x = 0``."""
    return Sinc.apply(input)


def logit(input: Tensor, eps: float | None = None) -> Tensor:
    """``log(p / (1 - p))``; with ``eps``, ``p`` is first clamped to ``[eps, 1 - eps]``."""
    if eps is not None:
        input = binary.clamp(input, eps, 1.0 - eps)
    return Logit.apply(input)


def deg2rad(input: Tensor) -> Tensor:
    """Degrees to radians."""
    return Deg2rad.apply(input)


def rad2deg(input: Tensor) -> Tensor:
    """Radians to degrees."""
    return Rad2deg.apply(input)


def erfinv(input: Tensor) -> Tensor:
    """The inverse error function on (-1, 1): ``erf(erfinv(x)) = x``; +-inf at +-1, NaN beyond."""
    return Erfinv.apply(input)


def erfc(input: Tensor) -> Tensor:
    """The complementary error function ``1 - erf(input)``, accurate where it is small (large ``input``)."""
    return Erfc.apply(input)


def polygamma(n: int, input: Tensor) -> Tensor:
    """The ``n``-th derivative of ``digamma`` (``n = 0``: digamma itself), elementwise."""
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return Polygamma.apply(input, n=n)


def signbit(input: Tensor) -> Tensor:
    """Bool tensor, True where the sign bit is set (negative numbers, ``-0.0`` and negative NaN)."""
    reject_complex("signbit", input, message="signbit is not implemented for complex tensors.")
    return _elementwise_test(input, "signbit")


def angle(input: Tensor) -> Tensor:
    """The argument of each element, ``atan2(imag, real)`` in ``(-pi, pi]``: for real numbers ``pi`` where
    negative, else 0 (NaN stays NaN; the gradient is zero); integer inputs give the default float dtype."""
    return ComplexAngle.apply(input) if dtypes.kind(input._data.dtype) == "c" else Angle.apply(input)


def isfinite(input: Tensor) -> Tensor:
    """Bool tensor, True where ``input`` is neither NaN nor infinite."""
    return _elementwise_test(input, "isfinite")


def _elementwise_test(input: Tensor, name: str) -> Tensor:
    if not isinstance(input, _graph.Tensor):
        raise TypeError(f"{name}(): argument 'input' must be Tensor, not {type(input).__name__}")
    data = input._data
    xp = array_module_of(data)
    return _graph.wrap(xp.asarray(getattr(xp, name)(data)))


def silu(input: Tensor) -> Tensor:
    """``input * sigmoid(input)`` (the swish function); complex inputs too, but, as in PyTorch, not
    differentiably."""
    if getattr(input, "_requires_grad", False) and input.is_complex() and grad_mode.STATE.enabled:
        raise RuntimeError("silu does not support automatic differentiation for outputs with complex dtype.")
    return Silu.apply(input)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """``input * Phi(input)`` with ``Phi`` the standard normal CDF, ``0.5 * (1 + erf(input / sqrt(2)))``;
    ``approximate='tanh'``: ``0.5 * input * (1 + tanh(sqrt(2 / pi) * (input + 0.044715 * input ** 3)))``."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return Gelu.apply(input, approximate=approximate)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """``log(1 + e ** (beta * input)) / beta``, and ``input`` itself where ``beta * input > threshold``."""
    return Softplus.apply(input, beta=beta, threshold=threshold)


def leaky_relu(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    """``input`` where positive, ``negative_slope * input`` elsewhere."""
    return LeakyRelu.apply(input, negative_slope=negative_slope)


def elu(input: Tensor, alpha: float = 1.0) -> Tensor:
    """``input`` where positive, ``alpha * (e ** input - 1)`` elsewhere."""
    return Elu.apply(input, alpha=alpha)


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    """``input`` clamped to ``[min_val, max_val]``; the gradient is zero outside the open interval."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return Hardtanh.apply(input, min_val=min_val, max_val=max_val)


def logsigmoid(input: Tensor) -> Tensor:
    """``log(sigmoid(input)) = min(input, 0) - log(1 + e ** -|input|)``, computed without overflow."""
    return LogSigmoid.apply(input)


negative = neg
absolute = abs
arcsin = asin
arccos = acos
arctan = atan
fix = trunc
