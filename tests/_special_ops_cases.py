"""Cases shared by ``test_special_ops.py`` and the script that recorded PyTorch's values
(``python -m tests._special_ops_record`` with PyTorch installed, from the repository root).

Each case: ``name -> (fn(lib, *tensors), input arrays)``, where ``lib`` is ``tinyframe`` (or ``torch``
when recording). Floating inputs require grad, and the gradient of ``out.sum()`` is recorded too.
"""
from __future__ import annotations

import numpy as np

_NAN, _INF = float("nan"), float("inf")


def _f(*values: float) -> np.ndarray:
    return np.array(values, dtype=np.float64)


def _i(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.int64)


_X = _f(-3.0, -0.5, 0.0, 0.25, 1.0, 2.5, 7.0, 9.5)
_POSITIVE = _f(0.1, 0.5, 1.0, 2.5, 7.0, 12.0)
_P = _f(1e-300, 1e-20, 1e-3, 0.1, 0.2, 0.5, 0.9, 1.0 - 1e-12)
_TAIL = _f(-40.0, -5.0, -1.5, -1.0, -0.5, 0.0, 2.0, 9.0)
_M = _f(0.1, 0.5, -0.3, 1.0, 2.0, 0.5, -1.0, 0.0, 0.7).reshape(3, 3)

CASES = {
    "erfc": (lambda lib, x: lib.erfc(x), [_f(-3.0, -0.5, 0.0, 0.5, 1.0, 4.5, 6.0, 10.0, 26.0)]),
    "polygamma_0": (lambda lib, x: lib.polygamma(0, x), [_POSITIVE]),
    "polygamma_1": (lambda lib, x: lib.polygamma(1, x), [_f(-2.5, -0.5, 0.3, 1.0, 4.0, 20.0)]),
    "polygamma_2": (lambda lib, x: lib.special.polygamma(2, x), [_f(-2.5, -0.5, 0.3, 1.0, 4.0, 20.0)]),
    "polygamma_5": (lambda lib, x: x.polygamma(5), [_f(-2.5, 0.3, 1.0, 4.0, 20.0)]),
    "i0": (lambda lib, x: lib.i0(x), [_X]),
    "i0e": (lambda lib, x: lib.special.i0e(x), [_X]),
    "i1": (lambda lib, x: lib.special.i1(x), [_X]),
    "i1e": (lambda lib, x: lib.special.i1e(x), [_X]),
    "ndtr": (lambda lib, x: lib.special.ndtr(x), [_TAIL]),
    "ndtri": (lambda lib, p: lib.special.ndtri(p), [_P]),
    "log_ndtr": (lambda lib, x: lib.special.log_ndtr(x), [_TAIL]),
    "erfcx": (lambda lib, x: lib.special.erfcx(x), [_f(-3.0, -0.5, 0.0, 0.3, 1.0, 4.5, 6.0, 30.0)]),
    "entr": (lambda lib, x: lib.special.entr(x), [_f(-1.0, 0.0, 0.5, 2.0)]),
    "xlog1py": (lambda lib, x, y: lib.special.xlog1py(x, y), [_f(0.0, 2.0, -1.5, 0.5), _f(3.0, 0.5, 1.0, -0.5)]),
    "xlog1py_number_other": (lambda lib, x: lib.special.xlog1py(x, 2.0), [_f(0.0, 2.0, -1.5)]),
    "zeta": (lambda lib, q: lib.special.zeta(lib.tensor([2.0, 3.0, 4.5, 2.0], dtype=lib.float64), q),
             [_f(1.0, 0.5, 2.0, -1.5)]),
    "zeta_number_input": (lambda lib, q: lib.special.zeta(3.0, q), [_f(0.5, 1.0, 7.0)]),
    "mvlgamma": (lambda lib, x: lib.mvlgamma(x, 3), [_f(1.5, 2.5, 10.0)]),
    "multigammaln": (lambda lib, x: lib.special.multigammaln(x, 2), [_f(1.0, 2.5)]),
    "expit": (lambda lib, x: lib.special.expit(x), [_X]),
    "gammaln": (lambda lib, x: lib.special.gammaln(x), [_POSITIVE]),
    "psi": (lambda lib, x: lib.special.psi(x), [_POSITIVE]),
    "special_round": (lambda lib, x: lib.special.round(x), [_f(-2.5, -0.5, 0.5, 1.5, 2.25)]),
    "special_logsumexp": (lambda lib, x: lib.special.logsumexp(x, 1), [_M]),
    "special_log_softmax": (lambda lib, x: lib.special.log_softmax(x, 0), [_M]),
    "signbit": (lambda lib, x: lib.signbit(x), [_f(-0.0, 0.0, -1.0, _NAN, 2.0)]),
    "angle": (lambda lib, x: lib.angle(x), [_f(-1.0, -0.0, 0.0, 2.0, _NAN)]),
    "angle_int": (lambda lib, x: x.angle(), [_i(-3, 0, 2)]),
    "fmax": (lambda lib, x, y: lib.fmax(x, y), [_f(1.0, _NAN, 3.0, _NAN, -2.0), _f(_NAN, 0.0, 3.0, _NAN, 1.0)]),
    "fmin": (lambda lib, x, y: x.fmin(y), [_f(1.0, _NAN, 3.0, _NAN, -2.0), _f(_NAN, 0.0, 3.0, _NAN, 1.0)]),
    "fmax_int": (lambda lib, x, y: lib.fmax(x, y), [_i(1, 5, -3), _i(2, 4, -3)]),
    "heaviside": (lambda lib, x: lib.heaviside(x.detach(), lib.tensor([0.5], dtype=lib.float64)),
                  [_f(-1.0, 0.0, 2.0, _NAN)]),
    "gcd": (lambda lib, x, y: lib.gcd(x, y), [_i(0, -4, 6, 9, 12), _i(0, 6, -4, 0, 18)]),
    "lcm": (lambda lib, x, y: x.lcm(y), [_i(0, -4, 6, 9, 12), _i(0, 6, -4, 0, 18)]),
    "left_shift": (lambda lib, x, y: x << y, [_i(5, -5, 1, 3, 7), _i(1, 2, 62, 64, -1)]),
    "right_shift": (lambda lib, x, y: lib.bitwise_right_shift(x, y), [_i(5, -5, -5, 40, 7), _i(1, 1, 64, 3, -1)]),
    "rlshift": (lambda lib, y: 3 << y, [_i(0, 1, 4)]),
    "float_power": (lambda lib, x: lib.float_power(x.float(), 2), [_f(0.5, 1.5, -2.0)]),
    "float_power_tensor": (lambda lib, x, y: lib.float_power(x, y), [_f(0.5, 1.5, 2.0), _f(2.0, -1.0, 0.5)]),
    "float_power_number_base": (lambda lib, y: lib.float_power(2, y), [_f(2.0, -1.0, 0.5)]),
    "float_power_int": (lambda lib, x: lib.float_power(x, -1), [_i(2, 4)]),
    "logcumsumexp": (lambda lib, x: lib.logcumsumexp(x, 1), [_f(-_INF, 1.0, 2.0, 1e4, -1e4, 3.0).reshape(2, 3)]),
    "nansum": (lambda lib, x: lib.nansum(x), [_f(1.0, _NAN, 3.0, _NAN, _NAN, 2.0).reshape(2, 3)]),
    "nansum_dim": (lambda lib, x: x.nansum(1, keepdim=True), [_f(1.0, _NAN, 3.0, _NAN, _NAN, 2.0).reshape(2, 3)]),
    "nansum_int": (lambda lib, x: lib.nansum(x), [_i(1, 2, 3)]),
    "nanmean": (lambda lib, x: lib.nanmean(x, 0), [_f(1.0, _NAN, 3.0, _NAN, _NAN, 2.0).reshape(2, 3)]),
    "dist": (lambda lib, x, y: lib.dist(x, y), [_M[0], _M[1]]),
    "dist_p0": (lambda lib, x, y: lib.dist(x.detach(), y.detach(), 0), [_M[0], _M[1]]),
    "dist_p1_5_broadcast": (lambda lib, x, y: x.dist(y, 1.5), [_M, _M[1]]),
    "dist_inf": (lambda lib, x, y: lib.dist(x, y, _INF), [_M[0], _M[1]]),
    "cov": (lambda lib, x: lib.cov(x), [_M]),
    "cov_vector": (lambda lib, x: x.cov(correction=0), [_M[0]]),
    "cov_weights": (lambda lib, x, a: lib.cov(x, fweights=lib.tensor([1, 2, 3]), aweights=a),
                    [_M, _f(0.5, 1.0, 2.0)]),
    "corrcoef": (lambda lib, x: lib.corrcoef(x), [_M]),
    "corrcoef_vector": (lambda lib, x: x.corrcoef(), [_M[0]]),
    "vander": (lambda lib, x: lib.vander(x), [_f(1.0, 2.0, -0.5)]),
    "vander_increasing": (lambda lib, x: lib.vander(x, N=4, increasing=True), [_f(1.0, 2.0, -0.5)]),
    "vander_int": (lambda lib, x: lib.vander(x), [_i(1, 2, 3)]),
    "isin": (lambda lib, x, y: lib.isin(x, y), [_i(1, 2, 3, 4), _f(2.0, 3.5, 4.0)]),
    "isin_invert_number": (lambda lib, x: lib.isin(x, 2, invert=True), [_i(1, 2, 3)]),
}
