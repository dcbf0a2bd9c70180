"""Matrix functions and decompositions: det, slogdet, inv, solve, cholesky, qr, svd, eigh, pinv, with
their gradients (the public functions are gathered in ``tinyframe.linalg``).

Each is one ``Factorization`` op per result (``svd`` gives three nodes named LinalgSvdBackward0, one
for U, S and Vh): the gradient of a decomposition is linear in its results' gradients, so each node
contributes the part of its own result and the engine adds them up. The formulas are written with
tinyframe's ops on Tensors; while the backward pass is recorded they use results recomputed from the
input through the public function, so that second derivatives flow through them too.
Every function works on batches of matrices (the last two dimensions).
"""
from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, dtypes, return_types
from .._graph import Op
from ..device import array_module_of
from . import binary, construction, conversion, reduction, shape, unary
from . import complex as complex_ops
from ._composite import on_tensors
from .complex import conj, is_complex

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["det", "logdet", "slogdet", "inverse", "cholesky", "cholesky_solve", "cholesky_inverse", "pinverse",
           "svd", "qr"]


class LinAlgError(RuntimeError):
    """A matrix function failed on its input (singular, not positive-definite, ...): PyTorch's
    ``torch.linalg.LinAlgError``, a RuntimeError (named ``_LinAlgError`` there, as printed by
    ``type(e).__name__``)."""


LinAlgError.__name__ = LinAlgError.__qualname__ = "_LinAlgError"
_LinAlgError = LinAlgError  # where pickle finds the class by that name (errors cross DataLoader worker processes)


class Factorization(Op):
    """One result (``which``) of a matrix function computed with all of them (``results``).

    Subclasses define ``recompute(a, **options)`` (the results as a differentiable function of
    ``a``) and ``gradient(a, results, grads, **options)`` (the input's gradient, given one Tensor or
    None per result).
    """

    recompute: Callable[..., tuple]
    gradient: Callable[..., Any]
    # PyTorch's LAPACK results are column-major matrices (``inv(A).stride() == (1, n)``); not ``lu``'s
    column_major = True

    @staticmethod
    def forward(ctx: Factorization, a: Any, *, results: tuple, which: int, options: dict) -> Any:
        ctx.which, ctx.options = which, options
        ctx.save_for_backward(a, *results)  # freed with the graph, like every saved value
        result = results[which]
        return column_major(ctx.xp, result) if ctx.column_major and result.ndim == a.ndim else result  # (matrices)

    @staticmethod
    def backward(ctx: Factorization, g: Any) -> Any:
        return on_tensors(ctx, _factor_gradient, g)


def _factor_gradient(ctx: Factorization, g: Tensor, a: Tensor, *results: Tensor) -> Tensor:
    kind = type(ctx)
    if a.requires_grad:  # a recorded pass: results as differentiable functions of ``a`` (second derivative)
        results = kind.recompute(a, **ctx.options)
    grads: list = [None] * len(results)
    grads[ctx.which] = g
    return kind.gradient(a, results, grads, **ctx.options)


def _outputs(kind: type[Op], a: Tensor, results: tuple, differentiable: tuple, **options: Any) -> tuple:
    """One Tensor per result: a node of ``kind`` for the differentiable ones, plain Tensors else."""
    return tuple(kind.apply(a, results=results, which=i, options=options) if i in differentiable
                 else _graph.wrap(r) for i, r in enumerate(results))


# ------------------------------------------------------------------------------------ helpers
def column_major(xp: Any, a: Any) -> Any:
    """``a`` with each matrix laid out column by column, as LAPACK gives it (a copy where it is not)."""
    if a.ndim < 2 or a.strides[-2] == a.itemsize:
        return a
    return xp.swapaxes(xp.ascontiguousarray(xp.swapaxes(a, -1, -2)), -1, -2)


def _t(x: Tensor) -> Tensor:
    return shape.transpose(x, -2, -1)


def _h(x: Tensor) -> Tensor:
    """The conjugate transpose (``x.mH``): the adjoint in the gradient formulas, as PyTorch writes them
    for complex matrices; the transpose of a real one."""
    return conj(_t(x))


def _eye_like(x: Tensor, n: int) -> Tensor:
    return _graph.wrap(array_module_of(x._data).eye(n, dtype=x._data.dtype))


def _square(name: str, a: Tensor, kernel: str | None = None) -> None:
    """A batch of square matrices of a dtype the decompositions take; ``kernel``: PyTorch's, where it names
    an integer or bool input in its own error."""
    if not isinstance(a, _graph.Tensor):
        raise TypeError(f"{name}(): argument 'A' must be Tensor, not {type(a).__name__}")
    if a.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are {a.shape[-2]} by "
                           f"{a.shape[-1]} matrices")
    if kernel is not None:
        dtypes.check_kernel(kernel, a.dtype, "fc")
    _floating(name, a)


def _matrix(name: str, a: Tensor) -> None:
    if a.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    _floating(name, a)


def _floating(name: str, a: Tensor) -> None:
    if a.dtype.name not in ("float32", "float64", "complex64", "complex128"):
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got "
                           f"{reduction._scalar_type(a._data)}")


def _host(a: Tensor) -> Any:
    """The array NumPy's linalg works on (CuPy arrays too: cupy.linalg has the same names)."""
    return a._data


def _linalg(a: Tensor) -> Any:
    return array_module_of(a._data).linalg


def _first_zero_pivot(matrix: np.ndarray) -> int:
    """The 1-based position of the first zero pivot of LU with partial pivoting (PyTorch's message)."""
    u = np.array(matrix, dtype=np.float64)
    n = u.shape[0]
    for k in range(n):
        p = k + int(np.argmax(np.abs(u[k:, k])))
        if u[p, k] == 0:
            return k + 1
        u[[k, p]] = u[[p, k]]
        u[k + 1:] -= np.outer(u[k + 1:, k] / u[k, k], u[k])
    return n


def _singular_error(name: str, a: Any) -> LinAlgError:
    stack = np.asarray(a.get() if hasattr(a, "get") else a).reshape((-1,) + a.shape[-2:])
    for i, matrix in enumerate(stack):
        if np.linalg.matrix_rank(matrix) < matrix.shape[0]:
            where = f"(Batch element {i}): " if len(stack) > 1 else ""
            return LinAlgError(f"{name}: {where}The diagonal element {_first_zero_pivot(matrix)} is zero, the "
                               "inversion could not be completed because the input matrix is singular.")
    return LinAlgError(f"{name}: The input matrix is singular.")


# --------------------------------------------------------------------------------- det, slogdet
class LinalgDet(Factorization):
    """``det(A)``; the gradient ``g conj(det A) A^{-H}`` assumes an invertible ``A``."""

    @staticmethod
    def recompute(a: Tensor) -> tuple:
        return (linalg_det(a),)

    @staticmethod
    def gradient(a: Tensor, results: tuple, grads: list) -> Tensor:
        scale = shape.unsqueeze(shape.unsqueeze(grads[0] * conj(results[0]), -1), -1)
        return scale * _h(linalg_inv(a))


class LinalgSlogdet(Factorization):
    """``(sign, log|det A|)``: the gradient is ``conj(g) A^{-H}`` with ``g = gLogabsdet``, plus
    ``i Im(conj(gSign) sign)`` for a complex ``A`` (a real sign is piecewise constant), as PyTorch's."""

    @staticmethod
    def recompute(a: Tensor) -> tuple:
        return tuple(linalg_slogdet(a))

    @staticmethod
    def gradient(a: Tensor, results: tuple, grads: list) -> Tensor:
        g_sign, g = grads
        if is_complex(a) and g_sign is not None:
            turn = complex_ops.imag(conj(g_sign) * results[0]) * 1j
            g = turn if g is None else g + turn
        if g is None:
            return a * 0.0
        return shape.unsqueeze(shape.unsqueeze(conj(g), -1), -1) * _h(linalg_inv(a))


def linalg_det(A: Tensor) -> Tensor:
    """The determinant of each square matrix of ``A`` (``(*, n, n) -> (*)``)."""
    _square("linalg.det", A)
    det_ = _linalg(A).det(_host(A))
    return LinalgDet.apply(A, results=(array_module_of(A._data).asarray(det_),), which=0, options={})


def linalg_slogdet(A: Tensor) -> Any:
    """The named tuple ``(sign, logabsdet)`` with ``det(A) = sign * exp(logabsdet)`` (sign 0 and
    logabsdet -inf for a singular matrix)."""
    _square("linalg.slogdet", A)
    sign, logabsdet = _linalg(A).slogdet(_host(A))
    xp = array_module_of(A._data)
    results = (xp.asarray(sign, dtype=A._data.dtype), xp.asarray(logabsdet, dtype=A._data.real.dtype))
    return return_types.linalg_slogdet(*_outputs(LinalgSlogdet, A, results, (0, 1)))


def slogdet(input: Tensor) -> Any:
    """``torch.slogdet``: ``linalg.slogdet`` under its older name and result type."""
    return return_types.slogdet(*linalg_slogdet(input))


def logdet(input: Tensor) -> Tensor:
    """``log(det(input))``: NaN for a negative determinant, -inf for a singular matrix."""
    sign, logabsdet = linalg_slogdet(input)
    if sign.is_complex():  # log(sign * |det|): the complex log of the unit sign, i * its angle, added
        return binary.add(logabsdet, unary.log(sign))
    return binary.where(sign < 0, float("nan"), logabsdet)


def det(input: Tensor) -> Tensor:
    """``torch.det``: the same as ``linalg.det``."""
    return linalg_det(input)


# ------------------------------------------------------------------------------------ inv, solve
class LinalgInvEx(Factorization):
    """``A^{-1}``; the gradient is ``-A^{-H} g A^{-H}``."""

    @staticmethod
    def recompute(a: Tensor) -> tuple:
        return (linalg_inv(a),)

    @staticmethod
    def gradient(a: Tensor, results: tuple, grads: list) -> Tensor:
        inverse_h = _h(results[0])
        return -(inverse_h @ grads[0] @ inverse_h)


def linalg_inv(A: Tensor) -> Tensor:
    """The inverse of each square matrix of ``A``; a singular matrix raises ``LinAlgError``."""
    _square("linalg.inv", A)
    try:
        inverse = _linalg(A).inv(_host(A))
    except Exception as exc:  # numpy.linalg.LinAlgError, cupy's
        if "ingular" not in str(exc):
            raise
        raise _singular_error("linalg.inv", A._data) from None
    if not array_module_of(inverse).isfinite(inverse).all():  # CuPy returns inf / nan instead of raising
        raise _singular_error("linalg.inv", A._data)
    return LinalgInvEx.apply(A, results=(inverse,), which=0, options={})


def inverse(input: Tensor) -> Tensor:
    """``torch.inverse``: the same as ``linalg.inv``."""
    return linalg_inv(input)


def _is_vector_rhs(A: Tensor, B: Tensor) -> bool:
    """PyTorch reads ``B`` as (a batch of) vectors when it is 1-D or has the batch shape of ``A``
    without its last dimension."""
    return B.ndim == 1 or (B.ndim == A.ndim - 1 and tuple(B.shape) == tuple(A.shape[:-1]))


def linalg_solve(A: Tensor, B: Tensor, *, left: bool = True) -> Tensor:
    """The solution ``X`` of ``A X = B`` (``X A = B`` with ``left=False``) for square ``A``; ``B`` is a
    matrix or, with ``left``, a vector (batches broadcast). The gradients are ``gB = A^{-H} g`` and
    ``gA = -gB X^H`` (``gB = g A^{-H}`` and ``gA = -X^H gB`` with ``left=False``)."""
    _square("linalg.solve", A)
    vector = _is_vector_rhs(A, B)
    rhs = shape.unsqueeze(B, -1) if vector else B
    if (rhs.shape[-2] if left else rhs.shape[-1]) != A.shape[-1]:
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation {'AX' if left else 'XA'} "
                           f"= B ({A.shape[-2]}x{A.shape[-1]} and {rhs.shape[-2]}x{rhs.shape[-1]})")
    batch = shape.broadcast_shapes(tuple(A.shape[:-2]), tuple(rhs.shape[:-2]))
    A = A if tuple(A.shape[:-2]) == tuple(batch) else shape.expand(A, (*batch, *A.shape[-2:]))
    rhs = rhs if tuple(rhs.shape[:-2]) == tuple(batch) else shape.expand(rhs, (*batch, *rhs.shape[-2:]))
    a, b = _host(A), _host(rhs)
    xp = array_module_of(a)
    try:
        solution = xp.linalg.solve(a, b) if left else \
            xp.swapaxes(xp.linalg.solve(xp.swapaxes(a, -1, -2), xp.swapaxes(b, -1, -2)), -1, -2)
    except Exception as exc:
        if "ingular" not in str(exc):
            raise
        raise LinAlgError("torch.linalg.solve: The solver failed because the input matrix is singular.") from None
    out = LinalgSolveEx.apply(A, rhs, solution=solution, left=left)
    return shape.squeeze(out, -1) if vector else out


class LinalgSolveEx(Op):
    """``X = A^{-1} B`` (``B A^{-1}`` unless ``left``): ``gB`` is a solve with ``A^H`` and ``gA = -gB X^H``
    (``-X^H gB``)."""

    @staticmethod
    def forward(ctx: LinalgSolveEx, a: Any, b: Any, *, solution: Any, left: bool) -> Any:
        ctx.left = left
        solution = column_major(ctx.xp, solution)
        ctx.save_for_backward(a, solution)  # (saved as the output: a recorded backward differentiates it)
        return solution

    @staticmethod
    def backward(ctx: LinalgSolveEx, g: Any) -> tuple:
        return on_tensors(ctx, _solve_gradients, g)


def _solve_gradients(ctx: LinalgSolveEx, g: Tensor, a: Tensor, x: Tensor) -> tuple:
    gb = linalg_solve(_h(a), g, left=ctx.left)
    if not ctx.needs_input_grad[0]:
        return None, gb
    return (-(gb @ _h(x)) if ctx.left else -(_h(x) @ gb)), gb


# --------------------------------------------------------------------------------------- cholesky
class LinalgCholeskyEx(Factorization):
    """``L`` with ``A = L L^H``. With ``T = tril(L^H gL)``, PyTorch's
    ``gA = L^{-H} (T + tril(T, -1)^H) / 2 L^{-1}`` (symmetric for a real ``A``; for a complex one the
    diagonal keeps its imaginary half, as PyTorch's does)."""

    @staticmethod
    def recompute(a: Tensor, upper: bool) -> tuple:
        return (linalg_cholesky(a, upper=upper),)

    @staticmethod
    def gradient(a: Tensor, results: tuple, grads: list, upper: bool) -> Tensor:
        (lower,), g = results, grads[0]
        if upper:  # U = L^H
            lower, g = _h(lower), _h(g)
        lower_t = construction.tril(_h(lower) @ construction.tril(g))
        inverse = linalg_inv(lower)
        return _h(inverse) @ ((lower_t + _h(construction.tril(lower_t, -1))) * 0.5) @ inverse


def linalg_cholesky(A: Tensor, *, upper: bool = False) -> Tensor:
    """The lower-triangular ``L`` with ``A = L L^H`` for Hermitian (symmetric) positive-definite ``A``
    (only its lower triangle is read); ``upper=True`` gives ``L^H``."""
    _square("linalg.cholesky", A)
    try:
        lower = _linalg(A).cholesky(_host(A))
    except Exception:
        lower = None
    if lower is None or not array_module_of(lower).isfinite(lower).all():
        raise not_positive_definite(A._data) from None
    factor = array_module_of(lower).conj(lower.swapaxes(-1, -2)) if upper else lower
    return LinalgCholeskyEx.apply(A, results=(factor,), which=0, options={"upper": upper})


def _unblocked_cholesky(lower: np.ndarray) -> int:
    """LAPACK's unblocked potf2 on ``lower`` (A's lower triangle) in place: 0, or the order of the first
    leading minor that is not positive-definite, where it stops with that pivot's value on the diagonal
    and A's entries in the columns after it (what PyTorch's cholesky_ex returns)."""
    for j in range(lower.shape[0]):
        row = lower[j, :j]
        pivot = (lower[j, j] - row @ row.conj()).real
        if not pivot > 0:
            lower[j, j] = pivot
            return j + 1
        lower[j, j] = np.sqrt(pivot)
        lower[j + 1:, j] = (lower[j + 1:, j] - lower[j + 1:, :j] @ row.conj()) / lower[j, j]
    return 0


def _cholesky_with_info(a: Any) -> tuple[np.ndarray, np.ndarray]:
    """The lower factor of each matrix of the stack ``a`` and LAPACK's info for it (see
    ``_unblocked_cholesky``), on the host."""
    stack = np.asarray(a.get() if hasattr(a, "get") else a)
    lower = np.tril(stack).reshape((-1,) + stack.shape[-2:])
    info = np.array([_unblocked_cholesky(matrix) for matrix in lower], dtype=np.int32)
    return lower.reshape(stack.shape), info.reshape(stack.shape[:-2])


def not_positive_definite(a: Any, name: str = "linalg.cholesky") -> LinAlgError:
    """PyTorch's message, naming the order of the first leading minor that is not positive-definite."""
    info = _cholesky_with_info(a)[1].reshape(-1)
    failed = int(np.flatnonzero(info)[0]) if info.any() else None
    if failed is None:
        return LinAlgError(f"{name}: The factorization could not be completed because the input is not "
                           "positive-definite.")
    where = f"(Batch element {failed}): " if info.size > 1 else ""
    return LinAlgError(f"{name}: {where}The factorization could not be completed because the input is not "
                       f"positive-definite (the leading minor of order {info[failed]} is not positive-definite).")


def partial_cholesky(A: Tensor, *, upper: bool = False) -> tuple[Tensor, Tensor]:
    """``linalg.cholesky_ex`` of a stack with a matrix that is not positive-definite: each matrix's
    factor (or, where it fails, LAPACK's partial one) and info, as PyTorch returns them."""
    lower, info = _cholesky_with_info(A._data)
    xp = array_module_of(A._data)
    lower = xp.asarray(lower)
    factor = xp.conj(lower.swapaxes(-1, -2)) if upper else lower
    return (LinalgCholeskyEx.apply(A, results=(factor,), which=0, options={"upper": upper}),
            _graph.wrap(xp.asarray(info)))


def cholesky(input: Tensor, upper: bool = False) -> Tensor:
    """``torch.cholesky`` (deprecated in PyTorch for ``linalg.cholesky``)."""
    return linalg_cholesky(input, upper=upper)


def cholesky_solve(B: Tensor, L: Tensor, upper: bool = False) -> Tensor:
    """The solution of ``A X = B`` given the Cholesky factor ``L`` of ``A`` (``A = L L^H``, or
    ``U^H U`` with ``upper=True``)."""
    a = _h(L) @ L if upper else L @ _h(L)
    return linalg_solve(a, B)


def cholesky_inverse(L: Tensor, upper: bool = False) -> Tensor:
    """The inverse of ``A`` given its Cholesky factor ``L`` (``A = L L^H``, or ``U^H U`` with ``upper``)."""
    return linalg_inv(_h(L) @ L if upper else L @ _h(L))


# ---------------------------------------------------------------------------------------------- qr
class LinalgQr(Factorization):
    """``(Q, R)`` with ``A = Q R``. For ``m >= n`` (reduced): ``M = R gR^H - gQ^H Q`` and
    ``gA = (gQ + Q copyltu(M)) R^{-H}``, ``copyltu(M)`` the Hermitian matrix of ``M``'s lower triangle
    (with the real part of its diagonal)."""

    @staticmethod
    def recompute(a: Tensor, mode: str) -> tuple:
        return tuple(linalg_qr(a, mode))

    @staticmethod
    def gradient(a: Tensor, results: tuple, grads: list, mode: str) -> Tensor:
        q, r = results
        m, n = a.shape[-2], a.shape[-1]
        if m < n or (mode == "complete" and m > n):
            raise RuntimeError("The derivative of linalg.qr is implemented only for mode='reduced' with "
                               "nrows >= ncols (and mode='complete' with square inputs)")
        gq = grads[0] if grads[0] is not None else q * 0.0
        gr = grads[1] if grads[1] is not None else r * 0.0
        product = r @ _h(gr) - _h(gq) @ q
        lower = construction.tril(product, -1)
        diagonal = construction.diagonal(product, 0, -2, -1)
        copyltu = lower + _h(lower) + construction.diag_embed(complex_ops.real(diagonal) if is_complex(a) else diagonal)
        return _h(linalg_solve(r, _h(gq + q @ copyltu)))


def linalg_qr(A: Tensor, mode: str = "reduced") -> Any:
    """The named tuple ``(Q, R)``: ``Q`` with orthonormal columns and upper-triangular ``R``,
    ``A = Q R``. ``mode`` is 'reduced' (``Q`` is m x k), 'complete' (``Q`` is m x m) or 'r' (``Q``
    empty)."""
    _matrix("linalg.qr", A)
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', "
                           f"or 'complete'")
    q, r = _linalg(A).qr(_host(A), mode="complete" if mode == "complete" else "reduced")
    if mode == "r":
        empty = array_module_of(r).zeros((0,), dtype=r.dtype)
        return return_types.linalg_qr(_graph.wrap(empty), LinalgQr.apply(A, results=(q, r), which=1,
                                                                             options={"mode": mode}))
    return return_types.linalg_qr(*_outputs(LinalgQr, A, (q, r), (0, 1), mode=mode))


def qr(input: Tensor, some: bool = True) -> Any:
    """``torch.qr`` (deprecated in PyTorch): ``linalg.qr`` with ``some`` for the 'reduced' mode."""
    warnings.warn("torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch "
                  "release.\nThe boolean parameter 'some' has been replaced with a string parameter 'mode'.\n"
                  "Q, R = torch.qr(A, some)\nshould be replaced with\n"
                  "Q, R = torch.linalg.qr(A, 'reduced' if some else 'complete')", UserWarning, stacklevel=2)
    return return_types.qr(*linalg_qr(input, "reduced" if some else "complete"))


# --------------------------------------------------------------------------------------------- svd
class LinalgSvd(Factorization):
    """``(U, S, Vh)`` with ``A = U diag(S) Vh``. With ``F_ij = 1 / (s_j^2 - s_i^2)`` (0 on the diagonal)
    and ``J = F * (U^T gU)``, ``K = F * (V^T gV)``:
    ``gA = U [(J + J^T) S + diag(gS) + S (K + K^T)] Vh + (I - U U^T) gU S^{-1} Vh + U S^{-1} gVh (I - V V^T)``.
    The singular vectors are defined up to a joint sign: only functions invariant to it have a gradient
    that means something, and distinct singular values are assumed."""

    @staticmethod
    def recompute(a: Tensor, full_matrices: bool) -> tuple:
        return tuple(linalg_svd(a, full_matrices))

    @staticmethod
    def gradient(a: Tensor, results: tuple, grads: list, full_matrices: bool) -> Tensor:
        u, s, vh = results
        gu, gs, gvh = grads
        m, n = a.shape[-2], a.shape[-1]
        k = min(m, n)
        if full_matrices:  # only the first k singular vectors take part in A
            u, vh = u[..., :, :k], vh[..., :k, :]
            gu = None if gu is None else gu[..., :, :k]
            gvh = None if gvh is None else gvh[..., :k, :]
        inner = conversion.to_dtype(construction.diag_embed(gs), u.dtype) if gs is not None else None
        if gu is None and gvh is None:
            return u @ inner @ vh
        s_row, s_col = shape.unsqueeze(s, -2), shape.unsqueeze(s, -1)
        gap = s_row * s_row - s_col * s_col  # s_j^2 - s_i^2
        eye = _eye_like(s, k)
        f = binary.where(eye > 0, 0.0, 1.0 / (gap + eye))
        terms = [] if inner is None else [inner]
        if gu is not None:
            j = f * (_h(u) @ gu)
            terms.append((j + _h(j)) * s_row)
            if is_complex(a):  # the phase of each singular pair: PyTorch's i Im(diag(U^H gU)) / S
                phase = complex_ops.imag(construction.diagonal(_h(u) @ gu, 0, -2, -1)) / s
                terms.append(construction.diag_embed(phase * 1j))
        if gvh is not None:
            kk = f * (vh @ _h(gvh))
            terms.append(s_col * (kk + _h(kk)))
        core = terms[0]
        for term in terms[1:]:
            core = core + term
        ga = u @ core @ vh
        if gu is not None and m > k:
            ga = ga + (gu - u @ (_h(u) @ gu)) / s_row @ vh
        if gvh is not None and n > k:
            ga = ga + u @ ((gvh - (gvh @ _h(vh)) @ vh) / s_col)
        return ga


def linalg_svd(A: Tensor, full_matrices: bool = True, *, driver: str | None = None) -> Any:
    """The named tuple ``(U, S, Vh)`` with ``A = U diag(S) Vh`` and ``S`` descending; with
    ``full_matrices=False`` the reduced form (``U`` m x k, ``Vh`` k x n, ``k = min(m, n)``)."""
    _matrix("linalg.svd", A)
    u, s, vh = _svd_arrays(A, full_matrices)
    return return_types.linalg_svd(*_outputs(LinalgSvd, A, (u, s, vh), (0, 1, 2), full_matrices=full_matrices))


def svdvals(A: Tensor, *, driver: str | None = None) -> Tensor:
    """The singular values of ``A``, descending (their gradient is ``U diag(g) Vh``)."""
    _matrix("linalg.svdvals", A)
    u, s, vh = _svd_arrays(A, False)
    return LinalgSvd.apply(A, results=(u, s, vh), which=1, options={"full_matrices": False})


def _svd_arrays(A: Tensor, full_matrices: bool, values_only: bool = False) -> Any:
    """LAPACK's SVD of ``A``'s array (``(u, s, vh)``, or ``s`` for ``values_only``), as PyTorch answers for
    matrices that are not finite: NaN factors for a matrix with an infinite entry, its LinAlgError for a NaN.
    (Given either, NumPy's LAPACK call on a matrix with fewer rows than columns never returns.)"""
    a = _host(A)
    xp = array_module_of(a)
    infinite = ~xp.isfinite(a).all(axis=(-2, -1))  # per matrix
    if infinite.any():
        if xp.isnan(a).any():
            raise LinAlgError("linalg.svd: The algorithm failed to converge because the input matrix contained "
                              "non-finite values.")
        a = xp.where(infinite[..., None, None], 0, a)  # (those matrices' factors are NaN below)
    factors = xp.linalg.svd(a, compute_uv=False) if values_only else xp.linalg.svd(a, full_matrices=full_matrices)
    if not infinite.any():
        return factors
    if values_only:
        return xp.where(infinite[..., None], float("nan"), factors)
    u, s, vh = factors
    return (xp.where(infinite[..., None, None], float("nan"), u), xp.where(infinite[..., None], float("nan"), s),
            xp.where(infinite[..., None, None], float("nan"), vh))


def svd(input: Tensor, some: bool = True, compute_uv: bool = True) -> Any:
    """``torch.svd`` (deprecated in PyTorch): the named tuple ``(U, S, V)`` with ``V = Vh^T``, reduced
    when ``some``."""
    u, s, vh = linalg_svd(input, full_matrices=not some)
    if not compute_uv:
        return return_types.svd(u * 0.0, s, _t(vh) * 0.0)
    return return_types.svd(u, s, _t(vh))


# -------------------------------------------------------------------------------------------- eigh
class LinalgEigh(Factorization):
    """``(L, V)`` with ``A = V diag(L) V^H`` for Hermitian ``A``:
    ``gA = V (diag(gL) + skew(V^H gV) / E) V^H`` with ``E_ij = L_j - L_i`` and ``skew(X) = (X - X^H) / 2``
    (distinct eigenvalues assumed; eigenvectors are defined up to sign)."""

    @staticmethod
    def recompute(a: Tensor, UPLO: str) -> tuple:
        return tuple(linalg_eigh(a, UPLO))

    @staticmethod
    def gradient(a: Tensor, results: tuple, grads: list, UPLO: str) -> Tensor:
        values, vectors = results
        g_values, g_vectors = grads
        n = a.shape[-1]
        core = conversion.to_dtype(construction.diag_embed(g_values), vectors.dtype) if g_values is not None else None
        if g_vectors is not None:
            eye = _eye_like(values, n)
            gap = shape.unsqueeze(values, -2) - shape.unsqueeze(values, -1)
            projected = _h(vectors) @ g_vectors
            off = (projected - _h(projected)) * 0.5 / (gap + eye)
            off = binary.where(eye > 0, 0.0, off)
            core = off if core is None else core + off
        return vectors @ core @ _h(vectors)


def linalg_eigh(A: Tensor, UPLO: str = "L") -> Any:
    """The named tuple ``(eigenvalues, eigenvectors)`` of a symmetric ``A`` (only the triangle
    ``UPLO`` is read): eigenvalues ascending, eigenvectors as columns."""
    _square("linalg.eigh", A, "linalg_eigh_cpu")
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    values, vectors = _linalg(A).eigh(_host(A), UPLO=UPLO)
    return return_types.linalg_eigh(*_outputs(LinalgEigh, A, (values, vectors), (0, 1), UPLO=UPLO))


def eigvalsh(A: Tensor, UPLO: str = "L") -> Tensor:
    """The eigenvalues of a symmetric ``A``, ascending."""
    return linalg_eigh(A, UPLO).eigenvalues


# --------------------------------------------------------------------------------------------- eig
class LinalgEig(Factorization):
    """``(L, V)`` with ``A V = V diag(L)`` for a general square ``A``, both complex, each eigenvector of
    norm 1 (LAPACK's, as PyTorch's). PyTorch's gradient: with ``P = V^H gV`` projected,
    ``P - V^H V diag(Re(diag(P)))``, and ``E_ij = conj(L_j - L_i)``,
    ``gA = V^{-H} (diag(gL) + P / E) V^H`` (off the diagonal); its real part for a real ``A``. Only
    losses invariant to each eigenvector's phase have a meaningful gradient. PyTorch raises for the others;
    tinyframe cannot tell them apart at a node: for a second derivative the first results and those
    recomputed from ``A`` are two nodes, whose vectors' gradients are phase-invariant only summed (in
    PyTorch both are one node's), so the phase part of ``gV`` is dropped, as the formula does, unchecked."""

    @staticmethod
    def recompute(a: Tensor) -> tuple:
        return tuple(linalg_eig(a))

    @staticmethod
    def gradient(a: Tensor, results: tuple, grads: list) -> Tensor:
        values, vectors = results
        g_values, g_vectors = grads
        n = a.shape[-1]
        eye = _eye_like(complex_ops.real(values), n)
        if g_vectors is None:
            core = construction.diag_embed(g_values)
        else:
            projected = _h(vectors) @ g_vectors
            norms = complex_ops.real(construction.diagonal(projected, 0, -2, -1))
            projected = projected - _h(vectors) @ (vectors * shape.unsqueeze(norms, -2))
            gap = conj(shape.unsqueeze(values, -2) - shape.unsqueeze(values, -1))
            core = binary.where(eye > 0, 0.0, projected / (gap + eye))
            if g_values is not None:
                core = core + construction.diag_embed(g_values)
        return linalg_solve(_h(vectors), core @ _h(vectors))


def linalg_eig(A: Tensor) -> Any:
    """The named tuple ``(eigenvalues, eigenvectors)`` of a general square ``A``: complex (complex64 for
    float32 input), the eigenvectors as columns of norm 1, in LAPACK's order."""
    _square("linalg.eig", A)
    data = _host(A)
    xp = array_module_of(data)
    if hasattr(xp.linalg, "eig"):
        values, vectors = xp.linalg.eig(data)
    else:  # CuPy before 14 has no general eigensolver: LAPACK's on the host, as PyTorch's CUDA eig does (MAGMA)
        values, vectors = (xp.asarray(r) for r in np.linalg.eig(data.get()))
    dtype = np.result_type(data.dtype, np.complex64)  # NumPy returns real arrays for real eigenvalues
    results = (values.astype(dtype, copy=False), vectors.astype(dtype, copy=False))
    return return_types.linalg_eig(*_outputs(LinalgEig, A, results, (0, 1)))


def eigvals(A: Tensor) -> Tensor:
    """The eigenvalues of a general square ``A`` (complex), as ``linalg.eig`` gives them."""
    return linalg_eig(A).eigenvalues


# -------------------------------------------------------------------------------------------- pinv
class LinalgPinv(Factorization):
    """``X = A^+``: ``gA = -X^T g X^T + (I - A X) g^T X X^T + X^T X g^T (I - X A)`` (for ``A`` of
    locally constant rank)."""

    column_major = False  # (PyTorch composes it of a product: row-major)

    @staticmethod
    def recompute(a: Tensor, **options: Any) -> tuple:
        return (linalg_pinv(a, **options),)

    @staticmethod
    def gradient(a: Tensor, results: tuple, grads: list, **options: Any) -> Tensor:
        (x,) = results
        g = grads[0]
        m, n = a.shape[-2], a.shape[-1]
        left = _eye_like(a, m) - a @ x
        right = _eye_like(a, n) - x @ a
        return -(_t(x) @ g @ _t(x)) + left @ _t(g) @ (x @ _t(x)) + (_t(x) @ x) @ _t(g) @ right


def linalg_pinv(A: Tensor, *, atol: float | None = None, rtol: float | None = None,
                hermitian: bool = False) -> Tensor:
    """The Moore-Penrose pseudo-inverse, from the SVD: singular values below
    ``max(atol, rtol * s_max)`` count as zero (``rtol`` defaults to ``eps * max(m, n)``)."""
    _matrix("linalg.pinv", A)
    data = _host(A)
    xp = array_module_of(data)
    u, s, vh = _svd_arrays(A, False)
    tolerance = _tolerance(A, s, atol, rtol)
    inverse_s = xp.where(s > tolerance, 1.0 / xp.where(s > tolerance, s, 1.0), 0.0).astype(data.dtype)
    x = xp.swapaxes(vh, -1, -2) @ (inverse_s[..., :, None] * xp.swapaxes(u, -1, -2))
    return LinalgPinv.apply(A, results=(x,), which=0,
                            options={"atol": atol, "rtol": rtol, "hermitian": hermitian})


def _tolerance(A: Tensor, s: Any, atol: float | None, rtol: float | None) -> Any:
    """PyTorch's cut-off for singular values that count as zero, one per matrix (kept as ``(..., 1)``)."""
    xp = array_module_of(s)
    largest = s[..., :1] if s.shape[-1] else xp.zeros(s.shape[:-1] + (1,), s.dtype)
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else np.finfo(s.dtype).eps * max(A.shape[-2:])
    return xp.maximum(atol or 0.0, rtol * largest)


def pinverse(input: Tensor, rcond: float = 1e-15) -> Tensor:
    """``torch.pinverse``: ``linalg.pinv`` with the relative cut-off ``rcond``."""
    return linalg_pinv(input, rtol=rcond)


def matrix_rank(A: Tensor, *, atol: float | None = None, rtol: float | None = None, hermitian: bool = False,
                tol: float | None = None) -> Tensor:
    """The number of singular values above ``max(atol, rtol * s_max)`` (int64)."""
    _matrix("linalg.matrix_rank", A)
    s = _svd_arrays(A, False, values_only=True)
    tolerance = _tolerance(A, s, tol if tol is not None else atol, rtol)
    return _graph.wrap(array_module_of(s).asarray((s > tolerance).sum(-1), dtype=np.int64))


def lstsq(A: Tensor, B: Tensor, rcond: float | None = None, *, driver: str | None = None) -> Any:
    """The least-squares solution ``X`` minimising ``||A X - B||``, as the named tuple ``(solution,
    residuals, rank, singular_values)``. As PyTorch's default CPU driver ('gelsy'), the residuals and
    singular values are empty and the rank is computed."""
    _matrix("linalg.lstsq", A)
    vector = B.ndim == A.ndim - 1
    rhs = shape.unsqueeze(B, -1) if vector else B
    if rhs.shape[-2] != A.shape[-2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    solution = linalg_pinv(A, rtol=rcond) @ rhs
    empty = _graph.wrap(array_module_of(A._data).zeros((0,), A._data.dtype))
    rank = matrix_rank(A, rtol=rcond)
    return return_types.linalg_lstsq(shape.squeeze(solution, -1) if vector else solution, empty, rank, empty)
