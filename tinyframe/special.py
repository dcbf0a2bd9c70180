"""``tinyframe.special``, PyTorch's ``torch.special``: special functions under SciPy's names.

Each name reaches the one definition of its op (``special.expit`` is ``sigmoid``'s op, ``special.psi``
``digamma``'s, ...), with PyTorch's ``out=`` keyword.
"""
from __future__ import annotations

from .functional import with_out
from .ops import reduction, special, unary
from .ops.binary import xlogy as _xlogy

__all__ = ["erf", "erfc", "erfcx", "erfinv", "expit", "logit", "xlogy", "xlog1py", "gammaln", "digamma", "psi",
           "polygamma", "multigammaln", "i0", "i0e", "i1", "i1e", "ndtr", "ndtri", "log_ndtr", "log1p", "expm1",
           "exp2", "sinc", "round", "entr", "logsumexp", "softmax", "log_softmax", "zeta",
           "gammainc", "gammaincc", "spherical_bessel_j0", "chebyshev_polynomial_t", "chebyshev_polynomial_u",
           "chebyshev_polynomial_v", "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
           "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w",
           "hermite_polynomial_h", "hermite_polynomial_he", "laguerre_polynomial_l", "legendre_polynomial_p",
           "modified_bessel_i0", "modified_bessel_i1"]

erf = with_out(unary.erf)
erfc = with_out(unary.erfc)
erfcx = with_out(special.erfcx)
erfinv = with_out(unary.erfinv)
expit = with_out(unary.sigmoid)
logit = with_out(unary.logit)
xlogy = with_out(_xlogy)
xlog1py = with_out(special.xlog1py)
gammaln = with_out(unary.lgamma)
digamma = psi = with_out(unary.digamma)
polygamma = with_out(unary.polygamma)
multigammaln = with_out(special.mvlgamma)
i0 = with_out(special.i0)
i0e = with_out(special.i0e)
i1 = with_out(special.i1)
i1e = with_out(special.i1e)
ndtr = with_out(special.ndtr)
ndtri = with_out(special.ndtri)
log_ndtr = with_out(special.log_ndtr)
log1p = with_out(unary.log1p)
expm1 = with_out(unary.expm1)
exp2 = with_out(unary.exp2)
sinc = with_out(unary.sinc)
round = with_out(special.round_decimals)  # noqa: A001  (PyTorch's name)
entr = with_out(special.entr)
logsumexp = with_out(reduction.logsumexp)
softmax = reduction.softmax
log_softmax = reduction.log_softmax
zeta = with_out(special.zeta)
gammainc = with_out(special.igamma)
gammaincc = with_out(special.igammac)
spherical_bessel_j0 = with_out(special.spherical_bessel_j0)
chebyshev_polynomial_t = with_out(special.chebyshev_polynomial_t)
chebyshev_polynomial_u = with_out(special.chebyshev_polynomial_u)
chebyshev_polynomial_v = with_out(special.chebyshev_polynomial_v)
chebyshev_polynomial_w = with_out(special.chebyshev_polynomial_w)
shifted_chebyshev_polynomial_t = with_out(special.shifted_chebyshev_polynomial_t)
shifted_chebyshev_polynomial_u = with_out(special.shifted_chebyshev_polynomial_u)
shifted_chebyshev_polynomial_v = with_out(special.shifted_chebyshev_polynomial_v)
shifted_chebyshev_polynomial_w = with_out(special.shifted_chebyshev_polynomial_w)
hermite_polynomial_h = with_out(special.hermite_polynomial_h)
hermite_polynomial_he = with_out(special.hermite_polynomial_he)
laguerre_polynomial_l = with_out(special.laguerre_polynomial_l)
legendre_polynomial_p = with_out(special.legendre_polynomial_p)
modified_bessel_i0 = with_out(special.modified_bessel_i0)
modified_bessel_i1 = with_out(special.modified_bessel_i1)
