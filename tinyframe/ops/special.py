"""The special functions of ``torch.special`` that are not elsewhere: modified Bessel functions, the
normal distribution's quantile and log-CDF, entropy, ``xlog1py``, the Hurwitz zeta function and the
multivariate log-gamma function. Each is a line of an elementwise table (``unary._elementwise``,
``binary._elementwise2``) with its derivative; ``tinyframe.special`` gives them PyTorch's names.

NumPy code in float64 (float32 and float16 inputs are computed in float64 and rounded, as PyTorch
computes them in a wider type); CuPy arrays go to ``cupyx.scipy.special``. The Bessel functions and
``ndtri`` are Cephes' approximations, as PyTorch's: Chebyshev series for ``exp(-|x|) I0(x)`` and
``exp(-|x|) I1(x)`` on [0, 8] and in ``1/x`` beyond (relative error below 1e-15), and Cephes' three
rational approximations of ``ndtri`` (below 2e-16). ``log_ndtr`` uses ``erfc`` and, below -1,
``erfcx`` (``unary._erfcx_positive``), as PyTorch. The regularized incomplete gamma functions
(``igamma``, ``igammac``) are Cephes' power series and continued fraction, each summed until every
element has converged.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, dtypes
from .._graph import Op
from ..device import array_module_of
from . import binary, unary
from .binary import _Elementwise2, _elementwise2
from .unary import _INPUT, _OUTPUT, _Elementwise, _elementwise, _floating, _special

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["i0", "mvlgamma", "igamma", "igammac"]

_SQRT_2PI = math.sqrt(2.0 * math.pi)
_SQRT_HALF = math.sqrt(0.5)
_LOG_PI = math.log(math.pi)

# Cephes' Chebyshev coefficients (i0.c, i1.c): exp(-x) I0(x) and exp(-x) I1(x) / x on [0, 8] in
# x / 2 - 2, then exp(-x) sqrt(x) I0(x) and exp(-x) sqrt(x) I1(x) on (8, inf) in 32 / x - 2.
_I0E_A = (-4.41534164647933937950e-18, 3.33079451882223809783e-17, -2.43127984654795469359e-16,
          1.71539128555513303061e-15, -1.16853328779934516808e-14, 7.67618549860493561688e-14,
          -4.85644678311192946090e-13, 2.95505266312963983461e-12, -1.72682629144155570723e-11,
          9.67580903537323691224e-11, -5.18979560163526290666e-10, 2.65982372468238665035e-9,
          -1.30002500998624804212e-8, 6.04699502254191894932e-8, -2.67079385394061173391e-7,
          1.11738753912010371815e-6, -4.41673835845875056359e-6, 1.64484480707288970893e-5,
          -5.75419501008210370398e-5, 1.88502885095841655729e-4, -5.76375574538582365885e-4,
          1.63947561694133579842e-3, -4.32430999505057594430e-3, 1.05464603945949983183e-2,
          -2.37374148058994688156e-2, 4.93052842396707084878e-2, -9.49010970480476444210e-2,
          1.71620901522208775349e-1, -3.04682672343198398683e-1, 6.76795274409476084995e-1)
_I0E_B = (-7.23318048787475395456e-18, -4.83050448594418207126e-18, 4.46562142029675999901e-17,
          3.46122286769746109310e-17, -2.82762398051658348494e-16, -3.42548561967721913462e-16,
          1.77256013305652638360e-15, 3.81168066935262242075e-15, -9.55484669882830764870e-15,
          -4.15056934728722208663e-14, 1.54008621752140982691e-14, 3.85277838274214270114e-13,
          7.18012445138366623367e-13, -1.79417853150680611778e-12, -1.32158118404477131188e-11,
          -3.14991652796324136454e-11, 1.18891471078464383424e-11, 4.94060238822496958910e-10,
          3.39623202570838634515e-9, 2.26666899049817806459e-8, 2.04891858946906374183e-7,
          2.89137052083475648297e-6, 6.88975834691682398426e-5, 3.36911647825569408990e-3,
          8.04490411014108831608e-1)
_I1E_A = (2.77791411276104639959e-18, -2.11142121435816608115e-17, 1.55363195773620046921e-16,
          -1.10559694773538630805e-15, 7.60068429473540693410e-15, -5.04218550472791168711e-14,
          3.22379336594557470981e-13, -1.98397439776494371520e-12, 1.17361862988909016308e-11,
          -6.66348972350202774223e-11, 3.62559028155211703701e-10, -1.88724975172282928790e-9,
          9.38153738649577178388e-9, -4.44505912879632808065e-8, 2.00329475355213526229e-7,
          -8.56872026469545474066e-7, 3.47025130813767847674e-6, -1.32731636560394358279e-5,
          4.78156510755005422638e-5, -1.61760815825896745588e-4, 5.12285956168575772895e-4,
          -1.51357245063125314899e-3, 4.15642294431288815669e-3, -1.05640848946261981558e-2,
          2.47264490306265168283e-2, -5.29459812080949914269e-2, 1.02643658689847095384e-1,
          -1.76416518357834055153e-1, 2.52587186443633654823e-1)
_I1E_B = (7.51729631084210481353e-18, 4.41434832307170791151e-18, -4.65030536848935832153e-17,
          -3.20952592199342395980e-17, 2.96262899764595013876e-16, 3.30820231092092828324e-16,
          -1.88035477551078244854e-15, -3.81440307243700780478e-15, 1.04202769841288027642e-14,
          4.27244001671195135429e-14, -2.10154184277266431302e-14, -4.08355111109219731823e-13,
          -7.19855177624590851209e-13, 2.03562854414708950722e-12, 1.41258074366137813316e-11,
          3.25260358301548823856e-11, -1.89749581235054123450e-11, -5.58974346219658380687e-10,
          -3.83538038596423702205e-9, -2.63146884688951950684e-8, -2.51223623787020892529e-7,
          -3.88256480887769039346e-6, -1.10588938762623716291e-4, -9.76109749136146840777e-3,
          7.78576235018280120474e-1)


def _chbevl(x: np.ndarray, coefficients: tuple) -> np.ndarray:
    """Cephes' ``chbevl``: the Chebyshev series ``sum c_i T_i(x / 2)`` by Clenshaw's recurrence."""
    b0, b1, b2 = np.full_like(x, coefficients[0]), np.zeros_like(x), np.zeros_like(x)
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = x * b1 - b2 + c
    return 0.5 * (b0 - b2)


def _scaled_bessel(near: tuple, far: tuple, times_x: bool) -> Any:
    """``exp(-|x|) I(x)`` of the Cephes series ``near`` (times ``|x|`` for I1) and ``far``; odd for I1."""
    def compute(x: np.ndarray) -> np.ndarray:
        y = np.abs(x)
        large = np.maximum(y, 8.0)
        small = _chbevl(y / 2.0 - 2.0, near) * (y if times_x else 1.0)
        out = np.where(y <= 8.0, small, _chbevl(32.0 / large - 2.0, far) / np.sqrt(large))
        return np.where(x < 0, -out, out) if times_x else out
    return compute


_i0e = _scaled_bessel(_I0E_A, _I0E_B, times_x=False)
_i1e = _scaled_bessel(_I1E_A, _I1E_B, times_x=True)


def _unscaled(scaled: Any) -> Any:
    def compute(x: np.ndarray) -> np.ndarray:
        return np.exp(np.abs(x)) * scaled(x)
    return compute


_i0 = _unscaled(_i0e)
_i1 = _unscaled(_i1e)


# Cephes' ndtri.c: a rational function of (y - 1/2) in the middle, and two rational functions of
# 1 / sqrt(-2 log y) in the tails (below and above exp(-32)).
_NDTRI_P0 = (-5.99633501014107895267e1, 9.80010754185999661536e1, -5.66762857469070293439e1,
             1.39312609387279679503e1, -1.23916583867381258016e0)
_NDTRI_Q0 = (1.0, 1.95448858338141759834e0, 4.67627912898881538453e0, 8.63602421390890590575e1,
             -2.25462687854119370527e2, 2.00260212380060660359e2, -8.20372256168333339912e1,
             1.59056225126211695515e1, -1.18331621121330003142e0)
_NDTRI_P1 = (4.05544892305962419923e0, 3.15251094599893866154e1, 5.71628192246421288162e1,
             4.40805073893200834700e1, 1.46849561928858024014e1, 2.18663306850790267539e0,
             -1.40256079171354495875e-1, -3.50424626827848203418e-2, -8.57456785154685413611e-4)
_NDTRI_Q1 = (1.0, 1.57799883256466749731e1, 4.53907635128879210584e1, 4.13172038254672030440e1,
             1.50425385692907503408e1, 2.50464946208309415979e0, -1.42182922854787788574e-1,
             -3.80806407691578277194e-2, -9.33259480895457427372e-4)
_NDTRI_P2 = (3.23774891776946035970e0, 6.91522889068984211695e0, 3.93881025292474443415e0,
             1.33303460815807542389e0, 2.01485389549179081538e-1, 1.23716634817820021358e-2,
             3.01581553508235416007e-4, 2.65806974686737550832e-6, 6.23974539184983293730e-9)
_NDTRI_Q2 = (1.0, 6.02427039364742014255e0, 3.67983563856160859403e0, 1.37702099489081330271e0,
             2.16236993594496635890e-1, 1.34204006088543189037e-2, 3.28014464682127739104e-4,
             2.89247864745380683936e-6, 6.79019408009981274425e-9)
_EXP_MINUS_2 = 0.13533528323661269189


def _polevl(x: np.ndarray, coefficients: tuple) -> np.ndarray:
    out = np.full_like(x, coefficients[0])
    for c in coefficients[1:]:
        out = out * x + c
    return out


def _ndtri(p: np.ndarray) -> np.ndarray:
    """The quantile of the standard normal distribution: ``ndtr(ndtri(p)) = p``; -inf at 0, inf at 1,
    NaN outside [0, 1]."""
    with np.errstate(all="ignore"):
        upper = p > 1.0 - _EXP_MINUS_2
        y = np.where(upper, 1.0 - p, p)
        middle = y - 0.5
        m2 = middle * middle
        central = (middle + middle * (m2 * _polevl(m2, _NDTRI_P0) / _polevl(m2, _NDTRI_Q0))) * _SQRT_2PI
        x = np.sqrt(-2.0 * np.log(y))
        z = 1.0 / x
        tail = np.where(x < 8.0, z * _polevl(z, _NDTRI_P1) / _polevl(z, _NDTRI_Q1),
                        z * _polevl(z, _NDTRI_P2) / _polevl(z, _NDTRI_Q2))
        tail = x - np.log(x) / x - tail
        out = np.where(y > _EXP_MINUS_2, central, np.where(upper, tail, -tail))
        edge = np.where(p == 0, -np.inf, np.where(p == 1, np.inf, np.nan))
        return np.where((p > 0) & (p < 1), out, edge)


def _log_ndtr(x: np.ndarray) -> np.ndarray:
    """``log(ndtr(x))``: ``log(erfcx(-t) / 2) - t^2`` with ``t = x / sqrt(2)`` below -1, where ``ndtr``
    underflows, else ``log1p(-erfc(t) / 2)``."""
    t = x * _SQRT_HALF
    with np.errstate(all="ignore"):
        left = np.log(unary._erfcx_positive(np.maximum(-t, _SQRT_HALF)) / 2.0) - t * t
        return np.where(x < -1.0, left, np.log1p(-unary._erfc(t) / 2.0))


def _erfcx(x: np.ndarray) -> np.ndarray:
    """``exp(x^2) erfc(x)``: from its definition below 0.46875 (inf far below 0, as PyTorch), then without
    the exponential, which would overflow while the product stays finite."""
    with np.errstate(over="ignore"):
        near = np.exp(x * x) * unary._erfc(np.minimum(x, unary._ERF_SMALL))
    return np.where(x < unary._ERF_SMALL, near, unary._erfcx_positive(np.maximum(x, unary._ERF_SMALL)))


def _entr(xp: Any, x: Any) -> Any:
    """``-x log(x)``: 0 at 0, -inf below."""
    positive = x > 0
    inner = -x * xp.log(xp.where(positive, x, 1.0))
    return xp.where(positive, inner, xp.where(x == 0, 0.0, xp.where(x < 0, -np.inf, x)).astype(x.dtype))


def _zeta_on(xp: Any, x: Any, q: Any) -> Any:
    if xp is not np:
        import cupyx.scipy.special  # ships with CuPy; imported only where CuPy is in use
        return cupyx.scipy.special.zeta(x, q)
    dtype = np.result_type(x, q)
    return unary._zeta(x, q).astype(dtype, copy=False)


def _zeta_of_x_grad(g: Any, x: Any, q: Any, out: Any, xp: Any) -> Any:
    raise NotImplementedError("the derivative for 'zeta' is not implemented.")


_IGAMMA_EPS = 2.0 ** -53
_IGAMMA_MAX_TERMS = 100000


def _igamma_series(a: np.ndarray, x: np.ndarray, log_front: np.ndarray) -> np.ndarray:
    """``P(a, x) = x^a e^-x / Gamma(a + 1) * sum over n of x^n / ((a + 1) ... (a + n))``, for ``x < a + 1``."""
    term, total, r = np.ones_like(x), np.ones_like(x), a.copy()
    active = np.ones(x.shape, dtype=bool)
    for _ in range(_IGAMMA_MAX_TERMS):
        r = r + 1.0
        term = np.where(active, term * x / r, 0.0)
        total = total + term
        active &= term > total * _IGAMMA_EPS
        if not active.any():
            break
    return np.exp(log_front) * total / a


def _igammac_fraction(a: np.ndarray, x: np.ndarray, log_front: np.ndarray) -> np.ndarray:
    """``Q(a, x)`` by Legendre's continued fraction (Cephes' ``igamc``, rescaled against overflow), for
    ``x >= a + 1``."""
    y, z, c = 1.0 - a, x + 2.0 - a, np.zeros_like(x)
    p_prev, q_prev, p, q = np.ones_like(x), x.copy(), x + 1.0, z * x
    value = p / q
    active = np.ones(x.shape, dtype=bool)
    for _ in range(_IGAMMA_MAX_TERMS):
        c, y, z = c + 1.0, y + 1.0, z + 2.0
        p_next, q_next = p * z - p_prev * y * c, q * z - q_prev * y * c
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = np.where(q_next != 0, p_next / q_next, value)
            active &= np.abs(value - ratio) > np.abs(ratio) * _IGAMMA_EPS
        value = ratio
        p_prev, q_prev, p, q = p, q, p_next, q_next
        big = np.abs(p) > 2.0 ** 500
        p_prev, q_prev, p, q = (np.where(big, v * 2.0 ** -500, v) for v in (p_prev, q_prev, p, q))
        if not active.any():
            break
    return np.exp(log_front) * value


def _igamma_pair(a: np.ndarray, x: np.ndarray) -> tuple:
    """``(P(a, x), Q(a, x))``, the lower and upper regularized incomplete gamma functions, with
    PyTorch's values at the edges: NaN for negative or NaN operands and for ``a = x = 0``; ``P = 1``
    for ``a = 0`` or ``x = inf``; ``P = 0`` for ``x = 0`` or ``a = inf``."""
    a, x = np.broadcast_arrays(a, x)
    invalid = (a < 0) | (x < 0) | np.isnan(a) | np.isnan(x) | ((a == 0) & (x == 0))
    one = ~invalid & ((a == 0) | np.isposinf(x))
    zero = ~invalid & ~one & ((x == 0) | np.isposinf(a))
    inner = ~(invalid | one | zero)
    ai, xi = a[inner], x[inner]
    log_front = ai * np.log(xi) - xi - unary._lgamma(ai)
    series = xi < ai + 1.0
    lower = np.empty_like(xi)
    lower[series] = _igamma_series(ai[series], xi[series], log_front[series])
    upper = np.empty_like(xi)
    upper[~series] = _igammac_fraction(ai[~series], xi[~series], log_front[~series])
    lower[~series], upper[series] = 1.0 - upper[~series], 1.0 - lower[series]
    p = np.where(invalid, np.nan, np.where(one, 1.0, 0.0))
    q = np.where(invalid, np.nan, 1.0 - p)
    p[inner], q[inner] = lower, upper
    return p, q


def _gammainc(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    return _igamma_pair(a, x)[0]


def _gammaincc(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    return _igamma_pair(a, x)[1]


def _igamma_on(kernel: Any) -> Any:
    """``kernel`` (``_gammainc`` or ``_gammaincc``) on arrays in float64, cast to their promoted dtype;
    on CuPy arrays, ``cupyx.scipy.special``'s function of the same name."""
    def on_arrays(xp: Any, a: Any, x: Any) -> Any:
        if xp is not np:
            import cupyx.scipy.special  # ships with CuPy; imported only where CuPy is in use
            return getattr(cupyx.scipy.special, kernel.__name__[1:])(a, x)
        dtype = np.result_type(a, x)
        return kernel(a.astype(np.float64), x.astype(np.float64)).astype(dtype, copy=False)
    return on_arrays


def _igamma_density(g: Any, a: Any, x: Any, xp: Any) -> Any:
    """``g * x^(a - 1) e^-x / Gamma(a)``, the derivative of ``P(a, x)`` in ``x`` (PyTorch's formula)."""
    return g * xp.exp((a - 1.0) * xp.log(x) - x - unary.Lgamma.call(a))


def _not_differentiable_in_a(name: str) -> Any:
    def vjp(g: Any, a: Any, x: Any, out: Any, xp: Any) -> Any:
        raise NotImplementedError(f"the derivative for '{name}: input' is not implemented.")
    return vjp


def _xlog1py(xp: Any, x: Any, y: Any) -> Any:
    """``x * log1p(y)``, 0 where ``x`` is 0 unless ``y`` is NaN (PyTorch's ``special.xlog1py``)."""
    return xp.where(xp.isnan(y), y, x * xp.log1p(xp.where(x == 0, 0.0, y)))


def _xlog1py_slope(xp: Any, x: Any, y: Any) -> Any:
    """``log1p(y)``, the gradient for ``x``, and 0 where ``x`` is 0 and ``y <= -1`` (PyTorch's rule)."""
    undefined = (x == 0) & (y <= -1.0)
    return xp.where(undefined, 0.0, xp.log1p(xp.where(undefined, 0.0, y)))


def _i1_slope(g: Any, x: Any, xp: Any) -> Any:
    """``I1'(x) = I0(x) - I1(x) / x``, 1/2 at 0."""
    zero = x == 0
    return g * xp.where(zero, 0.5, I0.call(x) - SpecialI1.call(x) / xp.where(zero, 1.0, x))


def _i1e_slope(g: Any, x: Any, xp: Any) -> Any:
    """``d/dx exp(-|x|) I1(x) = i0e(x) - i1e(x) (sign(x) + 1 / x)``, 1/2 at 0."""
    zero = x == 0
    slope = SpecialI0E.call(x) - SpecialI1E.call(x) * (xp.sign(x) + 1.0 / xp.where(zero, 1.0, x))
    return g * xp.where(zero, 0.5, slope)


# One line an op: class name, forward on arrays, saved value, gradient (PyTorch's derivatives.yaml).
# (kernel=...: PyTorch's kernels of these have no complex (and some no float16) instantiation; integers promote)
I0: type[_Elementwise] = _elementwise("I0", _special(_i0, "i0"), _INPUT, lambda g, x, xp: g * SpecialI1.call(x),
                                      kernel="i0_vml_cpu", kinds="buif")
SpecialI0E: type[_Elementwise] = _elementwise(
    "SpecialI0E", _special(_i0e, "i0e"), _INPUT,
    lambda g, x, xp: g * (SpecialI1E.call(x) - xp.sign(x) * SpecialI0E.call(x)), kernel="i0e_cpu", kinds="buif")
SpecialI1: type[_Elementwise] = _elementwise("SpecialI1", _special(_i1, "i1"), _INPUT, _i1_slope,
                                             kernel="i1_cpu", kinds="buif")
SpecialI1E: type[_Elementwise] = _elementwise("SpecialI1E", _special(_i1e, "i1e"), _INPUT, _i1e_slope,
                                              kernel="i1e_cpu", kinds="buif")
SpecialNdtri: type[_Elementwise] = _elementwise("SpecialNdtri", _special(_ndtri, "ndtri"), _OUTPUT,
                                                lambda g, out, xp: g * _SQRT_2PI * xp.exp(out * out * 0.5),
                                                kernel="ndtri_cpu", kinds="buif", half=False)
SpecialLogNdtr: type[_Elementwise] = _elementwise(
    "SpecialLogNdtr", _special(_log_ndtr, "log_ndtr"), _INPUT,
    lambda g, x, xp: g * xp.exp(x * x * -0.5 - SpecialLogNdtr.call(x)) / _SQRT_2PI,
    kernel="log_ndtr_cpu", kinds="buif", half=False)
SpecialErfcx: type[_Elementwise] = _elementwise(
    "SpecialErfcx", _special(_erfcx, "erfcx"), _INPUT,
    lambda g, x, xp: g * (2.0 * x * SpecialErfcx.call(x) - unary._TWO_OVER_SQRT_PI),
    kernel="erfcx_cpu", kinds="buif", half=False)
SpecialEntr: type[_Elementwise] = _elementwise("SpecialEntr", _entr, _INPUT, lambda g, x, xp: -g * (xp.log(x) + 1.0),
                                               kernel="entr_cpu", kinds="buif")

SpecialXlog1Py: type[_Elementwise2] = _elementwise2(
    "SpecialXlog1Py", _xlog1py, lambda g, x, y, out, xp: g * _xlog1py_slope(xp, x, y),
    lambda g, x, y, out, xp: g * x / (y + 1.0))
SpecialZeta: type[_Elementwise2] = _elementwise2("SpecialZeta", _zeta_on, _zeta_of_x_grad,
                                                 lambda g, x, q, out, xp: -g * x * SpecialZeta.call(x + 1.0, q))
Igamma: type[_Elementwise2] = _elementwise2("Igamma", _igamma_on(_gammainc), _not_differentiable_in_a("igamma"),
                                           lambda g, a, x, out, xp: _igamma_density(g, a, x, xp))
Igammac: type[_Elementwise2] = _elementwise2("Igammac", _igamma_on(_gammaincc),
                                            _not_differentiable_in_a("igammac"),
                                            lambda g, a, x, out, xp: -_igamma_density(g, a, x, xp))


# PyTorch names the nodes of a number operand differently: Backward1 for a number ``input``, Backward2
# for a number ``other``.
_SpecialXlog1PyNumberInput: type[_Elementwise2] = type("_SpecialXlog1PyNumberInput", (SpecialXlog1Py,), {},
                                                       node_name="SpecialXlog1PyBackward1")
_SpecialXlog1PyNumberOther: type[_Elementwise2] = type("_SpecialXlog1PyNumberOther", (SpecialXlog1Py,), {},
                                                       node_name="SpecialXlog1PyBackward2")
_SpecialZetaNumberInput: type[_Elementwise2] = type("_SpecialZetaNumberInput", (SpecialZeta,), {},
                                                    node_name="SpecialZetaBackward1")
_SpecialZetaNumberOther: type[_Elementwise2] = type("_SpecialZetaNumberOther", (SpecialZeta,), {},
                                                    node_name="SpecialZetaBackward2")


def _by_operands(ops: tuple[type[Op], type[Op], type[Op]], input: Any, other: Any) -> type[Op]:
    """The op of two tensors, of a number ``input`` or of a number ``other`` (``ops`` in that order)."""
    if isinstance(input, (int, float)):
        return ops[1]
    return ops[2] if isinstance(other, (int, float)) else ops[0]


class Mvlgamma(Op):
    """``log Gamma_p(a) = p (p - 1) / 4 log(pi) + sum over i < p of lgamma(a - i / 2)``."""

    @staticmethod
    def forward(ctx: Mvlgamma, a: Any, *, p: int) -> Any:
        ctx.p = p
        ctx.save_for_backward(a)
        a = _floating(a)
        lgamma = _special(unary._lgamma, "gammaln")
        out = sum(lgamma(ctx.xp, a - i / 2.0) for i in range(p))
        return out + p * (p - 1) / 4.0 * _LOG_PI

    @staticmethod
    def backward(ctx: Mvlgamma, g: Any) -> Any:
        (a,) = ctx.saved_tensors
        return g * sum(unary.Digamma.call(a - i / 2.0) for i in range(ctx.p))


# --------------------------------------------------------------------------- public functions
def i0(input: Tensor) -> Tensor:
    """The modified Bessel function of the first kind of order 0; the gradient is ``i1(input)``."""
    return I0.apply(input)


def i0e(input: Tensor) -> Tensor:
    """``exp(-|input|) * i0(input)``, which does not overflow."""
    return SpecialI0E.apply(input)


def i1(input: Tensor) -> Tensor:
    """The modified Bessel function of the first kind of order 1."""
    return SpecialI1.apply(input)


def i1e(input: Tensor) -> Tensor:
    """``exp(-|input|) * i1(input)``, which does not overflow."""
    return SpecialI1E.apply(input)


def ndtr(input: Tensor) -> Tensor:
    """The standard normal CDF, ``(1 + erf(input / sqrt(2))) / 2``."""
    return binary.MulNumber.apply(binary.add(unary.erf(binary.MulNumber.apply(input, other=_SQRT_HALF)), 1),
                                  other=0.5)


def ndtri(input: Tensor) -> Tensor:
    """The inverse of ``ndtr``: the quantile of the standard normal distribution (``input`` in [0, 1])."""
    return SpecialNdtri.apply(input)


def log_ndtr(input: Tensor) -> Tensor:
    """``log(ndtr(input))``, accurate far in the left tail where ``ndtr`` underflows."""
    return SpecialLogNdtr.apply(input)


def erfcx(input: Tensor) -> Tensor:
    """The scaled complementary error function ``exp(input ** 2) * erfc(input)``, finite for large ``input``."""
    return SpecialErfcx.apply(input)


def round_decimals(input: Tensor, *, decimals: int = 0) -> Tensor:
    """``torch.special.round``: ``round`` of a floating ``input`` (halves to even), recorded as
    ``RoundBackward1`` even without ``decimals``; integer inputs are rejected, as PyTorch does."""
    data = input._data
    if dtypes.kind(data.dtype) != "f":
        raise NotImplementedError(f"\"round_vml_cpu\" not implemented for '{dtypes.scalar_type_name(data.dtype)}'")
    return unary.RoundDecimals.apply(input, decimals=decimals)


def entr(input: Tensor) -> Tensor:
    """The elementwise entropy ``-input * log(input)``: 0 at 0, -inf for negative ``input``."""
    return SpecialEntr.apply(input)


def xlog1py(input: Any, other: Any) -> Tensor:
    """``input * log1p(other)``, and 0 where ``input`` is 0 (unless ``other`` is NaN)."""
    ops = (SpecialXlog1Py, _SpecialXlog1PyNumberInput, _SpecialXlog1PyNumberOther)
    return _by_operands(ops, input, other).apply(input, other)


def zeta(input: Any, other: Any) -> Tensor:
    """The Hurwitz zeta function ``sum over k >= 0 of (k + other) ** -input``; ``zeta(x, 1)`` is
    Riemann's. Differentiable in ``other`` only."""
    ops = (SpecialZeta, _SpecialZetaNumberInput, _SpecialZetaNumberOther)
    return _by_operands(ops, input, other).apply(input, other)


def _tensors_only(name: str, input: Any, other: Any) -> None:
    for position, (argument, value) in enumerate((("input", input), ("other", other)), 1):
        if not hasattr(value, "_data"):
            raise TypeError(f"{name}(): argument '{argument}' (position {position}) must be Tensor, not "
                            f"{type(value).__name__}")
    dtype = np.result_type(input._data.dtype, other._data.dtype)
    if dtypes.kind(dtype) != "f":
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{dtypes.scalar_type_name(dtype)}'")


def igamma(input: Tensor, other: Tensor) -> Tensor:
    """The regularized lower incomplete gamma function
    ``P(input, other) = 1 / Gamma(input) * integral from 0 to other of t^(input - 1) e^-t dt``
    (``torch.special.gammainc``); differentiable in ``other`` only, as in PyTorch."""
    _tensors_only("igamma", input, other)
    return Igamma.apply(input, other)


def igammac(input: Tensor, other: Tensor) -> Tensor:
    """The regularized upper incomplete gamma function ``Q(input, other) = 1 - P(input, other)``
    (``torch.special.gammaincc``); differentiable in ``other`` only, as in PyTorch."""
    _tensors_only("igammac", input, other)
    return Igammac.apply(input, other)


def mvlgamma(input: Tensor, p: int) -> Tensor:
    """The multivariate log-gamma function of dimension ``p``: ``p (p - 1) / 4 log(pi) + sum over
    i < p of lgamma(input - i / 2)``."""
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    return Mvlgamma.apply(input, p=p)


multigammaln = mvlgamma


# --------------------------------------------------------------------------- orthogonal polynomials
# PyTorch evaluates these without a derivative (no grad_fn) in the operands' common floating dtype
# (float32 and float64 only), with ``n`` truncated to an integer: 0 for n < 0, fixed values at the
# interval's ends, the three-term recurrence from P_0 = 1 and P_1, and for the Chebyshev kinds of high
# degree inside the interval the trigonometric form (cos(n acos x) for T). Same arithmetic as ATen's
# Math.h, element by element.
def _float_kernel(name: str, common: dtypes.dtype) -> np.dtype:
    """The NumPy dtype ATen's ``<name>_cpu`` kernel computes ``common`` in: integers and bool in the default
    dtype; NotImplementedError for the dtypes it has no kernel for (all but float32 and float64)."""
    if dtypes.kind(common.numpy) in "bui":
        common = dtypes.get_default_dtype()
    if common.numpy not in (np.float32, np.float64):
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{dtypes.scalar_type_name(common.numpy)}'")
    return np.dtype(common.numpy)


def _polynomial_operands(name: str, x: Any, n: Any) -> tuple[Any, Any, Any]:
    """``x`` and the truncated degree ``n`` as arrays in the result's dtype, broadcast, and NumPy/CuPy."""
    if not isinstance(x, _graph.Tensor) and not isinstance(n, _graph.Tensor):
        raise TypeError(f"special_{name}() received an invalid combination of arguments - got "
                        f"({type(x).__name__}, {type(n).__name__}), but expected one of:\n"
                        " * (Tensor x, Tensor n, *, Tensor out = None)\n"
                        " * (Number x, Tensor n, *, Tensor out = None)\n"
                        " * (Tensor x, Number n, *, Tensor out = None)\n")
    tensor = x if isinstance(x, _graph.Tensor) else n
    xp = array_module_of(tensor._data)
    common = _float_kernel(name, dtypes.result_type(*((v.dtype, v.ndim) if isinstance(v, _graph.Tensor) else v
                                                      for v in (x, n))))
    x_array, n_array = (xp.asarray(v._data if isinstance(v, _graph.Tensor) else v, dtype=common)
                        for v in (x, n))
    x_array, n_array = xp.broadcast_arrays(x_array, n_array.astype(np.int64))
    return xp, x_array, n_array


def _recurrence(xp: Any, p: Any, q: Any, n: Any, step: Any) -> Any:
    """P_n from P_0 = ``p`` and P_1 = ``q`` by ``P_(k+1) = step(k, P_(k-1), P_k)``, for every n >= 0."""
    out = xp.where(n == 0, p, q)
    for k in range(1, int(n.max()) if n.size else 0):
        p, q = q, step(k, p, q)
        out = xp.where(n == k + 1, q, out)
    return out


def _parity(n: Any, value: Any) -> Any:
    """``value`` for even ``n``, ``-value`` for odd ``n``."""
    return (1 - 2 * (n % 2)) * value


# The four Chebyshev kinds in y (x, or 2x - 1 for the shifted ones): P_1, the values at y = 1 and
# y = -1, and the trigonometric form in theta = acos(y) with the mask of where its denominator rounds to
# an end (V and W), where ATen returns an end's value instead.
_CHEBYSHEV = {
    "t": (lambda y: y, lambda n: 1, lambda n: _parity(n, 1),
          lambda xp, n, th: (xp.cos(n * th), False)),
    "u": (lambda y: y + y, lambda n: n + 1, lambda n: _parity(n, n + 1),
          lambda xp, n, th: (xp.sin((n + 1) * th) / xp.sin(th), False)),
    "v": (lambda y: y + y - 1, lambda n: 1, lambda n: _parity(n, n + n + 1),
          lambda xp, n, th: (xp.cos((n + 0.5) * th) / xp.cos(th / 2), xp.sin(th / 2) == 1)),
    "w": (lambda y: y + y + 1, lambda n: n + n + 1, lambda n: _parity(n, 1),
          lambda xp, n, th: (xp.sin((n + 0.5) * th) / xp.sin(th / 2), xp.cos(th / 2) == 1)),
}
# Per kind, plain and shifted: the degree above which ATen uses the trigonometric form, and the end
# (1 or -1) whose value it returns where the form's denominator rounds to an end.
_TRIGONOMETRIC = {"t": ((6, 1), (6, 1)), "u": ((8, 1), (6, 1)), "v": ((8, -1), (6, -1)), "w": ((8, 1), (4, -1))}


def _chebyshev(kind: str, shifted: bool) -> Any:
    first, one, minus_one, trigonometric = _CHEBYSHEV[kind]
    threshold, fallback = _TRIGONOMETRIC[kind][shifted]
    name = f"{'shifted_' if shifted else ''}chebyshev_polynomial_{kind}"

    def polynomial(input: Any, n: Any) -> Tensor:
        xp, x, n = _polynomial_operands(name, input, n)
        y = x + x - 1 if shifted else x
        with np.errstate(all="ignore"):
            at_one, at_minus_one = (xp.asarray(end(n), dtype=x.dtype) for end in (one, minus_one))
            out = _recurrence(xp, xp.ones_like(y), first(y), n, lambda k, p, q: (y + y) * q - p)
            form, rounded = trigonometric(xp, n.astype(x.dtype), xp.arccos(y))
            form = xp.where(rounded, at_one if fallback == 1 else at_minus_one, form)
            out = xp.where((n > threshold) & (xp.abs(y) < 1), form, out)
        ends = (x == 1, x == 0) if shifted else (x == 1, x == -1)
        out = xp.where(ends[0], at_one, xp.where(ends[1], at_minus_one, out))
        return _graph.wrap(xp.where(n < 0, 0, out).astype(x.dtype, copy=False))

    polynomial.__name__ = name
    polynomial.__doc__ = (f"The {'shifted ' if shifted else ''}Chebyshev polynomial of the {kind.upper()} kind "
                          f"of degree ``n`` at ``input``{' (in 2 * input - 1)' if shifted else ''}; "
                          "not differentiable, as in PyTorch.")
    return polynomial


chebyshev_polynomial_t = _chebyshev("t", shifted=False)
chebyshev_polynomial_u = _chebyshev("u", shifted=False)
chebyshev_polynomial_v = _chebyshev("v", shifted=False)
chebyshev_polynomial_w = _chebyshev("w", shifted=False)
shifted_chebyshev_polynomial_t = _chebyshev("t", shifted=True)
shifted_chebyshev_polynomial_u = _chebyshev("u", shifted=True)
shifted_chebyshev_polynomial_v = _chebyshev("v", shifted=True)
shifted_chebyshev_polynomial_w = _chebyshev("w", shifted=True)


def _classical(name: str, first: Any, step: Any, ends: Any, doc: str) -> Any:
    """A polynomial of P_1 = ``first(x)``, the recurrence ``step(x, k, P_(k-1), P_k)`` and ``ends(x, n)``:
    (where, value) pairs ATen fixes before recurring."""
    def polynomial(input: Any, n: Any) -> Tensor:
        xp, x, n = _polynomial_operands(name, input, n)
        with np.errstate(all="ignore"):
            out = _recurrence(xp, xp.ones_like(x), first(x), n, lambda k, p, q: step(x, k, p, q))
        for where, value in ends(x, n):
            out = xp.where(where, value, out)
        return _graph.wrap(xp.where(n < 0, 0, out).astype(x.dtype, copy=False))

    polynomial.__name__ = name
    polynomial.__doc__ = doc + "; not differentiable, as in PyTorch."
    return polynomial


hermite_polynomial_h = _classical(
    "hermite_polynomial_h", lambda x: x + x, lambda x, k, p, q: (x + x) * q - (k + k) * p, lambda x, n: (),
    "The physicists' Hermite polynomial H_n at ``input``")
hermite_polynomial_he = _classical(
    "hermite_polynomial_he", lambda x: x, lambda x, k, p, q: x * q - k * p, lambda x, n: (),
    "The probabilists' Hermite polynomial He_n at ``input``")
laguerre_polynomial_l = _classical(
    "laguerre_polynomial_l", lambda x: 1 - x, lambda x, k, p, q: (((k + k) + (1 - x)) * q - k * p) / (k + 1),
    lambda x, n: ((x == 0, 1),), "The Laguerre polynomial L_n at ``input``")
legendre_polynomial_p = _classical(
    "legendre_polynomial_p", lambda x: x, lambda x, k, p, q: ((k + k + 1) * x * q - k * p) / (k + 1),
    lambda x, n: ((abs(x) == 1, 1 - 2 * ((x < 0) * (n % 2))),), "The Legendre polynomial P_n at ``input``")


# 1 - x^2/3! + x^4/5! - ... : ATen's series of sin(x) / x below |x| = 1/2
_SINC_SERIES = (1.0 / 6227020800.0, -1.0 / 39916800.0, 1.0 / 362880.0, -1.0 / 5040.0, 1.0 / 120.0, -1.0 / 6.0)


def spherical_bessel_j0(input: Tensor) -> Tensor:
    """The spherical Bessel function of the first kind of order 0, ``sin(input) / input`` (1 at 0, a
    power series below 1/2, 0 at infinity); not differentiable, as in PyTorch."""
    x = input._data
    xp = array_module_of(x)
    x = x.astype(_float_kernel("spherical_bessel_j0", input.dtype), copy=False)
    square = x * x
    series = xp.zeros_like(x)
    for c in _SINC_SERIES:
        series = square * (c + series)
    with np.errstate(all="ignore"):
        out = xp.where(xp.abs(x) < 0.5, series + 1, xp.sin(x) / x)
    return _graph.wrap(xp.where(xp.isinf(x), 0, out).astype(x.dtype, copy=False))


def _modified_bessel(name: str, compute: Any) -> Any:
    def bessel(input: Tensor) -> Tensor:
        x = input._data
        dtype = _float_kernel(name, input.dtype)
        xp = array_module_of(x)
        if xp is not np:
            import cupyx.scipy.special  # ships with CuPy; imported only where CuPy is in use
            return _graph.wrap(getattr(cupyx.scipy.special, name[-2:])(x.astype(dtype)))
        return _graph.wrap(compute(x.astype(np.float64)).astype(dtype))

    bessel.__name__ = name
    bessel.__doc__ = (f"The modified Bessel function of the first kind of order {name[-1]} (``special.{name[-2:]}``'s "
                      "values) without a derivative, float32 and float64 only, as in PyTorch.")
    return bessel


modified_bessel_i0 = _modified_bessel("modified_bessel_i0", _i0)
modified_bessel_i1 = _modified_bessel("modified_bessel_i1", _i1)
