"""Ops few programs call, loaded on first use (``ops.LAZY_FAMILIES``): the floating-point bit helpers
(``frexp``, ``ldexp``, ``isposinf``, ``isneginf``), ``rsub``, ``renorm``, the nuclear and
Frobenius norms, ``norm_except_dim``, the randomized ``svd_lowrank``/``pca_lowrank``, ``histogramdd``, the deprecated
``triangular_solve`` and the linear-algebra functions PyTorch removed (which raise its messages).

PyTorch runs ``ldexp``, ``frexp``, ``renorm``, ``rsub`` and ``triangular_solve`` as kernels of their own;
here they are compositions of ops, recorded as one node of PyTorch's name (``_composite.composed``).
"""
from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, creation, dtypes, return_types
from .._lazy import lazy_module
from ..device import array_module_of, device_of, move_array
from . import binary, reduction, shape, sorting
from ._composite import composed, composed_op

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["frexp", "ldexp", "isposinf", "isneginf", "rsub", "renorm", "nuclear_norm",
           "triangular_solve", "solve", "lstsq", "eig", "symeig", "matrix_rank", "frobenius_norm", "norm_except_dim",
           "svd_lowrank", "pca_lowrank", "histogramdd"]

_linalg = lazy_module("tinyframe.linalg")


def _tensor_argument(name: str, argument: str, position: int, value: Any) -> None:
    """PyTorch's TypeError for a number where its signature takes a Tensor only."""
    if not isinstance(value, _graph.Tensor):
        raise TypeError(f"{name}(): argument '{argument}' (position {position}) must be Tensor, not "
                        f"{type(value).__name__}")


def frexp(input: Tensor) -> Any:
    """``input`` split into a mantissa in ``(-1, 1)`` (``input``'s dtype) and an int32 exponent, with
    ``input = mantissa * 2 ** exponent``; a named tuple ``(mantissa, exponent)``. Only the mantissa is
    differentiable (its gradient is ``2 ** -exponent``)."""
    _tensor_argument("frexp", "input", 1, input)
    x = input._data
    if dtypes.kind(x.dtype) != "f":
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    xp = array_module_of(x)
    mantissa, exponent = xp.frexp(x)
    exponent = exponent.astype(np.int32)
    if not input.requires_grad:
        return return_types.frexp(_graph.wrap(mantissa), _graph.wrap(exponent))
    scale = _graph.wrap(xp.ldexp(xp.ones((), x.dtype), -exponent).astype(x.dtype))  # (exact: a power of two)
    return return_types.frexp(composed("FrexpBackward0", binary.mul, input, other=scale), _graph.wrap(exponent))


@composed_op("LdexpBackward0", ("input", "other"))
def _ldexp(input: Tensor, other: Tensor) -> Tensor:
    # PyTorch's dtype: the operands' common one (integers: the default float), so float16 with int64 stays float16
    target = dtypes.result_type(*((v.dtype, v.dim()) for v in (input, other)))
    if not (target.is_floating_point or target.is_complex):
        target = dtypes.get_default_dtype()
    exponent = other  # (as given: an integer exponent truncates the gradient below)
    if target.is_floating_point:
        input, other = input.to(target), other.to(target)
    scaled = binary.mul(input, binary.pow(2.0, other))
    if not input.requires_grad or exponent.is_floating_point():
        return scaled
    # PyTorch's derivative for ``input`` is ``grad * pow(2, other)`` in ``other``'s integer dtype, which
    # truncates to 0 for a negative exponent: the part of the value beyond it carries no gradient.
    truncated = binary.mul(binary.pow(2, exponent.clamp(min=0)), binary.ge(exponent, 0))
    carried = binary.mul(input, truncated)
    return binary.add(carried, binary.sub(scaled, carried).detach())


def ldexp(input: Tensor, other: Tensor) -> Tensor:
    """``input * 2 ** other``, in a floating dtype."""
    _tensor_argument("ldexp", "other", 2, other)
    return _ldexp(input, other)


def isposinf(input: Tensor) -> Tensor:
    """Whether each element is positive infinity (a bool tensor)."""
    return _is_infinity(input, "isposinf", 1)


def isneginf(input: Tensor) -> Tensor:
    """Whether each element is negative infinity (a bool tensor)."""
    return _is_infinity(input, "isneginf", -1)


def _is_infinity(input: Tensor, name: str, sign: int) -> Tensor:
    _tensor_argument(name, "input", 1, input)
    if dtypes.kind(input._data.dtype) == "c":
        raise RuntimeError(f"{name} does not support complex inputs.")
    return _graph.wrap(input._data == sign * float("inf"))


def rsub(input: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
    """``other - alpha * input`` (``sub`` with its operands reversed), broadcasting."""
    _tensor_argument("rsub", "input", 1, input)
    if not (input.requires_grad or getattr(other, "requires_grad", False)):
        return binary.sub(other, input, alpha=alpha)
    if isinstance(other, _graph.Tensor):
        return composed("RsubBackward0", _reversed_sub, input, other, alpha=alpha)
    return composed("RsubBackward1", _reversed_sub, input, other=other, alpha=alpha)


def _reversed_sub(input: Tensor, other: Any, alpha: Any) -> Tensor:
    return binary.sub(other, input, alpha=alpha)


def renorm(input: Tensor, p: float, dim: int, maxnorm: float) -> Tensor:
    """Each slice of ``input`` along ``dim`` whose ``p``-norm exceeds ``maxnorm`` scaled down to norm
    ``maxnorm`` (``maxnorm / (norm + 1e-7)``); the others unchanged."""
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    if input.dim() < 2:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {input.dim()} dimensions")
    return _renormed(input, p=p, dim=dim, maxnorm=maxnorm)


@composed_op("RenormBackward0", ("input",))
def _renormed(input: Tensor, p: float, dim: int, maxnorm: float) -> Tensor:
    d = dim % input.dim()
    norms = reduction.norm(input, p, tuple(i for i in range(input.dim()) if i != d), keepdim=True)
    factor = binary.where(binary.gt(norms, maxnorm), binary.div(maxnorm, binary.add(norms, 1e-7)), 1.0)
    return binary.mul(input, factor.to(input.dtype))


def nuclear_norm(input: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    """The sum of the singular values of ``input`` over its two dimensions ``dim`` (deprecated in PyTorch
    for ``linalg.matrix_norm(input, 'nuc')``)."""
    if isinstance(dim, bool):  # nuclear_norm(input, keepdim) is PyTorch's other overload
        dim, keepdim = None, dim
    if dtypes.kind(input._data.dtype) not in "fc":
        raise RuntimeError("linalg.matrix_norm: Expected a floating point or complex tensor as input. Got "
                           f"{dtypes.scalar_type_name(input._data.dtype)}")
    return _linalg.matrix_norm(input, "nuc", (-2, -1) if dim is None else tuple(dim), keepdim)


def frobenius_norm(input: Tensor, dim: Sequence[int], keepdim: bool = False) -> Tensor:
    """The Frobenius norm over the dimensions ``dim`` (``norm(input, 'fro', dim, keepdim)``)."""
    return reduction.norm(input, "fro", tuple(dim), keepdim)


def norm_except_dim(v: Tensor, pow: float = 2, dim: int = 0) -> Tensor:
    """The ``pow``-norm over every dimension but ``dim``, kept (size 1) beside it; over all of ``v`` when
    ``dim`` is -1 (weight normalization's norm)."""
    if dim == -1:
        return reduction.norm(v, pow)
    return reduction.norm(v, pow, tuple(d for d in range(v.dim()) if d != dim), keepdim=True)


# --------------------------------------------------------------------------- randomized low-rank SVD
# Halko, Martinsson and Tropp, "Finding structure with randomness" (2009), algorithms 4.4 and 5.1, as PyTorch's
# torch/_lowrank.py computes them (the same random draws from the same generator).
def _approximate_basis(A: Tensor, q: int, niter: int, M: Tensor | None) -> Tensor:
    """An orthonormal ``Q`` (``n x q``) with ``Q Q^H (A - M)`` approximating ``A - M``."""
    dtype = A.dtype if A.is_floating_point() or A.is_complex() else dtypes.float32
    R = creation.randn(A.shape[-1], q, dtype=dtype, device=A.device)

    def centered(X: Tensor, B: Tensor | None, Y: Tensor) -> Tensor:
        return _linalg.qr(X.matmul(Y) if B is None else X.matmul(Y) - B.matmul(Y)).Q

    Q = centered(A, M, R)
    for _ in range(niter):
        Q = centered(A.mH, None if M is None else M.mH, Q)
        Q = centered(A, M, Q)
    return Q


def svd_lowrank(A: Tensor, q: int | None = 6, niter: int | None = 2, M: Tensor | None = None) -> tuple:
    """An approximate rank-``q`` SVD ``(U, S, V)`` of ``A`` (of ``A - M`` when ``M`` is given), from a random
    projection refined by ``niter`` subspace iterations; ``A ~ U diag(S) V^H``."""
    q = 6 if q is None else q
    niter = 2 if niter is None else niter
    m, n = A.shape[-2:]
    if M is not None:
        M = M.broadcast_to(A.size())
    if m < n:  # (computed for the tall matrix A^H)
        A, M = A.mH, None if M is None else M.mH
    Q = _approximate_basis(A, q, niter, M)
    B = Q.mH.matmul(A) if M is None else Q.mH.matmul(A) - Q.mH.matmul(M)
    U, S, Vh = _linalg.svd(B, full_matrices=False)
    U, V = Q.matmul(U), Vh.mH
    return (V, S, U) if m < n else (U, S, V)


def pca_lowrank(A: Tensor, q: int | None = None, center: bool = True, niter: int = 2) -> tuple:
    """The principal components of the rows of ``A``: ``svd_lowrank`` of ``A`` less its column means
    (unless ``center`` is False), of rank ``q`` (``min(6, m, n)`` by default)."""
    m, n = A.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not 0 <= q <= min(m, n):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than min(m, n)={min(m, n)}")
    if not niter >= 0:
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if not center:
        return svd_lowrank(A, q, niter=niter)
    return svd_lowrank(A - A.mean(dim=(-2,), keepdim=True), q, niter=niter)


def histogramdd(input: Tensor, bins: Any, *, range: Sequence[float] | None = None, weight: Tensor | None = None,
                density: bool = False) -> Any:
    """The histogram of the points ``input`` (its last dimension the coordinates): ``(hist, bin_edges)``,
    with per dimension ``bins`` equal bins (an int for all, or one each) over ``range`` (``[low0, high0,
    low1, ...]``; the data's by default), or the given edges (one 1-D tensor each)."""
    dtypes.check_kernel("histogramdd", input.dtype, "f")
    host = np.asarray(move_array(input._data, device_of(np.empty(0))))
    d = host.shape[-1]
    points = host.reshape(-1, d)
    per_dimension = [bins] * d if isinstance(bins, int) else list(bins)
    if len(per_dimension) != d:
        raise RuntimeError("histogramdd: The size of bins must be equal to the innermost dimension of the input.")
    edges = [sorting.bin_edges(points[:, k], b, None if range is None else range[2 * k:2 * k + 2], k)
             for k, b in enumerate(per_dimension)]
    hist = sorting.binned_counts(points, edges, weight, density)
    where = device_of(input._data)
    return return_types.histogramdd(_graph.wrap(move_array(hist, where)),
                                    tuple(_graph.wrap(move_array(e, where)) for e in edges))


_TRIANGULAR_SOLVE_WARNING = (
    "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will be removed in a future "
    "PyTorch release.\ntorch.linalg.solve_triangular has its arguments reversed and does not return a copy of one "
    "of the inputs.\nX = torch.triangular_solve(B, A).solution\nshould be replaced with\n"
    "X = torch.linalg.solve_triangular(A, B).")


def triangular_solve(input: Tensor, A: Tensor, upper: bool = True, transpose: bool = False,
                     unitriangular: bool = False) -> Any:
    """The solution ``X`` of ``A X = input`` (``A^T X = input`` with ``transpose``) for triangular ``A``,
    and a copy of ``A``: the named tuple ``(solution, cloned_coefficient)``. Deprecated in PyTorch for
    ``linalg.solve_triangular``."""
    warnings.warn(_TRIANGULAR_SOLVE_WARNING, UserWarning, stacklevel=3)  # (past the argument wrapper)
    options = {"upper": upper, "transpose": transpose, "unitriangular": unitriangular}
    if input.requires_grad or A.requires_grad:
        solution = composed("TriangularSolveBackward0", _triangular_solved, input, A, **options)
    else:
        solution = _triangular_solved(input, A, **options)
    return return_types.triangular_solve(solution, A.clone())


def _triangular_solved(input: Tensor, A: Tensor, upper: bool, transpose: bool, unitriangular: bool) -> Tensor:
    if transpose:
        A, upper = shape.transpose(A, -2, -1), not upper
    return _linalg.solve_triangular(A, input, upper=upper, unitriangular=unitriangular)



# --------------------------------------------------------------------------- removed in PyTorch 1.9
# The names stay in PyTorch 2.13, each raising this message (torch/_linalg_utils.py).
_REMOVED = "This function was deprecated since version 1.9 and is now removed. "


def solve(input: Tensor, A: Tensor, *, out: Any = None) -> Any:
    """Removed: raises PyTorch's RuntimeError pointing to ``linalg.solve``."""
    raise RuntimeError(
        _REMOVED + "`torch.solve` is deprecated in favor of `torch.linalg.solve`. `torch.linalg.solve` has its "
        "arguments reversed and does not return the LU factorization.\n\nTo get the LU factorization see "
        "`torch.lu`, which can be used with `torch.lu_solve` or `torch.lu_unpack`.\nX = torch.solve(B, A).solution "
        "should be replaced with:\nX = torch.linalg.solve(A, B)")


def lstsq(input: Tensor, A: Tensor, *, out: Any = None) -> Any:
    """Removed: raises PyTorch's RuntimeError pointing to ``linalg.lstsq``."""
    raise RuntimeError(
        _REMOVED + "`torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n`torch.linalg.lstsq` has "
        "reversed arguments and does not return the QR decomposition in the returned tuple (although it returns "
        "other information about the problem).\n\nTo get the QR decomposition consider using `torch.linalg.qr`."
        "\n\nThe returned solution in `torch.lstsq` stored the residuals of the solution in the last m - n columns "
        "of the returned value whenever m > n. In torch.linalg.lstsq, the residuals are in the field 'residuals' of "
        "the returned named tuple.\n\nThe unpacking of the solution, as in\nX, _ = torch.lstsq(B, A).solution"
        "[:A.size(1)]\nshould be replaced with:\nX = torch.linalg.lstsq(A, B).solution")


def eig(input: Tensor, eigenvectors: bool = False, *, e: Any = None, v: Any = None) -> Any:
    """Removed: raises PyTorch's RuntimeError pointing to ``linalg.eig``."""
    raise RuntimeError(
        _REMOVED + "`torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` rather than real "
        "tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be replaced with:\nL_complex = "
        "torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, eigenvectors=True) should be replaced with:\n"
        "L_complex, V_complex = torch.linalg.eig(A)")


def symeig(input: Tensor, eigenvectors: bool = False, upper: bool = True, *, out: Any = None) -> Any:
    """Removed: raises PyTorch's RuntimeError pointing to ``linalg.eigh``."""
    raise RuntimeError(
        _REMOVED + "The default behavior has changed from using the upper triangular portion of the matrix by "
        "default to using the lower triangular portion.\n\nL, _ = torch.symeig(A, upper=upper) should be replaced "
        "with:\nL = torch.linalg.eigvalsh(A, UPLO='U' if upper else 'L')\n\nand\n\nL, V = torch.symeig(A, "
        "eigenvectors=True) should be replaced with:\nL, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')")


def matrix_rank(input: Tensor, tol: Any = None, symmetric: bool = False, *, out: Any = None) -> Any:
    """Removed: raises PyTorch's RuntimeError pointing to ``linalg.matrix_rank``."""
    raise RuntimeError(
        "This function was deprecated since version 1.9 and is now removed.\nPlease use the "
        "`torch.linalg.matrix_rank` function instead. The parameter 'symmetric' was renamed in "
        "`torch.linalg.matrix_rank()` to 'hermitian'.")
