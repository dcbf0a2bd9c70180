"""Discrete Fourier transforms (``tinyframe.fft``): three ops, as PyTorch's ``_fft_c2c``, ``_fft_r2c`` and
``_fft_c2r``, computed by the array module's ``fft`` (``numpy.fft`` on cpu, ``cupy.fft`` on cuda).

With ``X_k = sum_j x_j exp(-2 pi i jk / n)`` the forward transform, ``norm`` scales it as PyTorch and NumPy
do: ``"backward"`` leaves the forward transform unscaled and divides the inverse by ``n``, ``"forward"``
the other way round, ``"ortho"`` scales both by ``1 / sqrt(n)``. The adjoint of a transform scaled by ``c``
is the transform of the other direction scaled by the same ``c``, which is the other direction with the
dual ``norm`` (backward <-> forward): every backward below is one such call. Results keep the input's
precision (float32 gives complex64), whatever precision the array module computes in.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .. import _graph, creation, dtypes
from .._dims import wrap_dim
from .._graph import Op
from ..device import array_module_of
from . import construction, conversion, shape
from .complex import Conj, conj, conj_physical

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn",
           "rfftn", "irfftn", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_NORMS = ("backward", "ortho", "forward")
_DUAL = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def _complex_dtype(x: Any) -> Any:
    return dtypes.from_numpy_dtype(x.dtype).to_complex().numpy


class FftC2C(Op):
    """The complex transform over ``dims``, forward or (``inverse``) backward direction."""

    @staticmethod
    def forward(ctx: FftC2C, x: Any, *, dims: tuple, norm: str, inverse: bool) -> Any:
        ctx.dims, ctx.norm, ctx.inverse = dims, norm, inverse
        transform = ctx.xp.fft.ifftn if inverse else ctx.xp.fft.fftn
        return transform(x, axes=dims, norm=norm).astype(_complex_dtype(x), copy=False)

    @staticmethod
    def backward(ctx: FftC2C, g: Any) -> Any:
        return FftC2C.call(g, dims=ctx.dims, norm=_DUAL[ctx.norm], inverse=not ctx.inverse)


class FftR2C(Op):
    """The forward transform of a real input over ``dims``; ``onesided``: only the ``n // 2 + 1`` first
    frequencies of the last of ``dims`` (the others are their conjugates). Its adjoint zero-fills the
    missing frequencies and runs the complex backward transform; the engine keeps the real part."""

    @staticmethod
    def forward(ctx: FftR2C, x: Any, *, dims: tuple, norm: str, onesided: bool) -> Any:
        ctx.dims, ctx.norm, ctx.onesided = dims, norm, onesided
        ctx.size = x.shape[dims[-1]]
        transform = ctx.xp.fft.rfftn if onesided else ctx.xp.fft.fftn
        return transform(x, axes=dims, norm=norm).astype(_complex_dtype(x), copy=False)

    @staticmethod
    def backward(ctx: FftR2C, g: Any) -> Any:
        if ctx.onesided:
            widths = [(0, 0)] * g.ndim
            widths[ctx.dims[-1]] = (0, ctx.size - g.shape[ctx.dims[-1]])
            g = ctx.xp.pad(g, widths)
        return FftC2C.call(g, dims=ctx.dims, norm=_DUAL[ctx.norm], inverse=True)


class FftC2R(Op):
    """The backward transform of a one-sided (Hermitian) spectrum over ``dims`` into a real result of
    ``size`` elements along the last of them. Its adjoint is the one-sided forward transform, with the
    frequencies that stand for two (a frequency and its conjugate mirror) counted twice."""

    @staticmethod
    def forward(ctx: FftC2R, x: Any, *, dims: tuple, norm: str, size: int) -> Any:
        ctx.dims, ctx.norm, ctx.size = dims, norm, size
        ctx.half = x.shape[dims[-1]]
        sizes = [x.shape[d] for d in dims[:-1]] + [size]
        out = ctx.xp.fft.irfftn(x, s=sizes, axes=dims, norm=norm)
        return out.astype(x.real.dtype, copy=False)

    @staticmethod
    def backward(ctx: FftC2R, g: Any) -> Any:
        spectrum = FftR2C.call(g, dims=ctx.dims, norm=_DUAL[ctx.norm], onesided=True)
        mirrored = ctx.size - ctx.half  # frequencies 1 .. mirrored have a conjugate twin in the full spectrum
        if mirrored <= 0:
            return spectrum
        data = spectrum._data if isinstance(spectrum, _graph.Tensor) else spectrum
        weight_shape = [1] * data.ndim
        weight_shape[ctx.dims[-1]] = ctx.half
        weight = array_module_of(data).ones(ctx.half, dtype=data.real.dtype)
        weight[1:mirrored + 1] = 2.0
        weight = weight.reshape(weight_shape)
        return spectrum * (_graph.wrap(weight) if isinstance(spectrum, _graph.Tensor) else weight)


# --------------------------------------------------------------------------- arguments
def _norm(norm: str | None) -> str:
    if norm is None:
        return "backward"
    if norm not in _NORMS:
        raise RuntimeError(f'Invalid normalization mode: "{norm}"')
    return norm


def _floating(name: str, input: Tensor, real_only: bool = False) -> Tensor:
    """``input`` as a floating or complex tensor: integers and bools in the default float dtype (PyTorch's
    promotion); half precision is not supported, and ``real_only`` transforms refuse complex input."""
    kind = dtypes.kind(input._data.dtype)
    if real_only and kind == "c":
        raise RuntimeError(f"{name} expects a real input tensor, but got {dtypes.scalar_type_name(input.dtype)}")
    if input._data.dtype.itemsize == 2 and kind == "f":
        raise RuntimeError("Unsupported dtype Half")
    if kind in "fc":
        return input
    return conversion.to_dtype(input, dtypes.get_default_dtype())


def _check_size(n: int) -> None:
    if n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")


def _dims_and_sizes(input: Tensor, s: Sequence[int] | None, dim: Sequence[int] | int | None) -> tuple:
    """PyTorch's reading of ``s`` and ``dim``: without ``dim``, the last ``len(s)`` dimensions (all of them
    without ``s`` either); sizes of -1 (or no ``s``) keep the input's."""
    ndim = input._data.ndim
    if isinstance(dim, int):
        dim = (dim,)
    if dim is not None and s is not None and len(dim) != len(s):
        raise RuntimeError("When given, dim and shape arguments must have the same length")
    if dim is None:
        dim = range(ndim - len(s), ndim) if s is not None else range(ndim)
    dims = tuple(wrap_dim(d, ndim) for d in dim)
    if len(set(dims)) != len(dims):
        raise RuntimeError("FFT dims must be unique")
    sizes = [input._data.shape[d] if s is None or s[i] == -1 else s[i] for i, d in enumerate(dims)]
    for size in sizes:
        _check_size(size)
    return dims, sizes


def _resized(input: Tensor, dims: Sequence[int], sizes: Sequence[int]) -> Tensor:
    """``input`` cut (a slice per dimension) then zero-padded (one ``constant_pad_nd``) to ``sizes`` along
    ``dims``, as PyTorch resizes the signal before transforming it."""
    widths = [(0, 0)] * input._data.ndim
    for d, size in zip(dims, sizes):
        have = input._data.shape[d]
        if size < have:
            input = shape.narrow(input, d, 0, size)
        widths[d] = (0, max(size - have, 0))
    return shape.pad_widths(input, widths) if any(after for _, after in widths) else input


def _c2c(name: str, input: Tensor, s: Any, dim: Any, norm: str | None, inverse: bool) -> Tensor:
    input = _floating(name, input)
    norm = _norm(norm)
    dims, sizes = _dims_and_sizes(input, s, dim)
    input = _resized(input, dims, sizes)
    if dtypes.kind(input._data.dtype) != "c":
        if len(dims) == 1:
            # As PyTorch, a real signal in one dimension takes the two-sided r2c; the backward direction
            # is the conjugate of the forward one with the dual scaling.
            if not inverse:
                return FftR2C.apply(input, dims=dims, norm=norm, onesided=False)
            return Conj.apply(FftR2C.apply(input, dims=dims, norm=_DUAL[norm], onesided=False))
        input = conversion.to_dtype(input, input.dtype.to_complex())
    return FftC2C.apply(input, dims=dims, norm=norm, inverse=inverse)


def _r2c(name: str, input: Tensor, s: Any, dim: Any, norm: str | None) -> Tensor:
    input = _floating(name, input, real_only=True)
    norm = _norm(norm)
    dims, sizes = _dims_and_sizes(input, s, dim)
    return FftR2C.apply(_resized(input, dims, sizes), dims=dims, norm=norm, onesided=True)


def _c2r(name: str, input: Tensor, s: Any, dim: Any, norm: str | None) -> Tensor:
    """The real signal of a one-sided spectrum: ``s[-1]`` (by default ``2 * (m - 1)`` for ``m`` given
    frequencies) real values along the last of ``dims``, from its first ``s[-1] // 2 + 1`` frequencies."""
    input, dims, norm, last = _c2r_input(name, input, s, dim, norm)
    return FftC2R.apply(input, dims=dims, norm=norm, size=last)


def _c2r_input(name: str, input: Tensor, s: Any, dim: Any, norm: str | None) -> tuple:
    """``(input, dims, norm, last)`` for a transform to a real signal: ``input`` complex, cut or padded to
    the ``last // 2 + 1`` frequencies of a real signal of ``last`` values along the last of ``dims``."""
    input = _floating(name, input)
    dims, sizes = _dims_and_sizes(input, s, dim)
    last = sizes[-1] if s is not None and s[-1] != -1 else 2 * (input._data.shape[dims[-1]] - 1)
    _check_size(last)
    input = _resized(input, dims, [*sizes[:-1], last // 2 + 1])
    if dtypes.kind(input._data.dtype) != "c":
        input = conversion.to_dtype(input, input.dtype.to_complex())
    return input, dims, _norm(norm), last


def _one(n: int | None) -> list | None:
    return None if n is None else [n]


# --------------------------------------------------------------------------- public functions
def fft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The one-dimensional discrete Fourier transform ``X_k = sum_j x_j exp(-2 pi i jk / n)`` along ``dim``;
    with ``n``, the signal is first cut or zero-padded to ``n`` elements. ``norm``: ``"backward"`` (no
    scaling, the default), ``"ortho"`` (``1 / sqrt(n)``) or ``"forward"`` (``1 / n``). Real input gives the
    complex dtype of its precision (float32: complex64)."""
    return _c2c("fft", input, _one(n), dim, norm, inverse=False)


def ifft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The inverse of ``fft``: ``x_j = (1 / n) sum_k X_k exp(2 pi i jk / n)`` under ``norm="backward"``."""
    return _c2c("ifft", input, _one(n), dim, norm, inverse=True)


def rfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """``fft`` of a real signal, keeping the ``n // 2 + 1`` non-negative frequencies (the others are their
    complex conjugates)."""
    return _r2c("rfft", input, _one(n), dim, norm)


def irfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The inverse of ``rfft``: the real signal of ``n`` elements (by default ``2 * (m - 1)`` for ``m`` input
    frequencies) whose one-sided spectrum is ``input``."""
    return _c2r("irfft", input, _one(n), dim, norm)


def hfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The forward transform of a signal with Hermitian symmetry given by its first half: real, ``n``
    elements (by default ``2 * (m - 1)``); ``irfft`` of the conjugate with the dual scaling."""
    return _hermitian("hfft", input, _one(n), dim, norm)


def ihfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The inverse of ``hfft``: the one-sided inverse transform of a real signal, the conjugate of ``rfft``
    with the dual scaling."""
    return _inverse_hermitian("ihfft", input, _one(n), dim, norm)


def _hermitian(name: str, input: Tensor, s: Any, dim: Any, norm: str | None) -> Tensor:
    """``hfft``/``hfft2``/``hfftn``, in PyTorch's steps: the forward transform over all of ``dims`` but the
    last, then the conjugate's backward real transform over the last with the dual scaling (the result
    being real, the forward transform there is the conjugate of the backward one)."""
    input, dims, norm, last = _c2r_input(name, input, s, dim, norm)
    if len(dims) > 1:
        input = FftC2C.apply(input, dims=dims[:-1], norm=norm, inverse=False)
    return FftC2R.apply(conj(input), dims=dims[-1:], norm=_DUAL[norm], size=last)


def _inverse_hermitian(name: str, input: Tensor, s: Any, dim: Any, norm: str | None) -> Tensor:
    """``ihfft``/``ihfft2``/``ihfftn``, in PyTorch's steps: the conjugate of the one-sided forward
    transform over the last of ``dims`` with the dual scaling, then the backward transform over the
    others."""
    input = _floating(name, input, real_only=True)
    norm = _norm(norm)
    dims, sizes = _dims_and_sizes(input, s, dim)
    half = FftR2C.apply(_resized(input, dims, sizes), dims=dims[-1:], norm=_DUAL[norm], onesided=True)
    if len(dims) == 1:
        return Conj.apply(half)
    return FftC2C.apply(conj_physical(half), dims=dims[:-1], norm=norm, inverse=True)


def fft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1),
         norm: str | None = None) -> Tensor:
    """``fftn`` over two dimensions (by default the last two)."""
    return _c2c("fft2", input, s, dim, norm, inverse=False)


def ifft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1),
          norm: str | None = None) -> Tensor:
    """``ifftn`` over two dimensions (by default the last two)."""
    return _c2c("ifft2", input, s, dim, norm, inverse=True)


def rfft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1),
          norm: str | None = None) -> Tensor:
    """``rfftn`` over two dimensions (by default the last two)."""
    return _r2c("rfft2", input, s, dim, norm)


def irfft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1),
           norm: str | None = None) -> Tensor:
    """``irfftn`` over two dimensions (by default the last two)."""
    return _c2r("irfft2", input, s, dim, norm)


def fftn(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] | None = None,
         norm: str | None = None) -> Tensor:
    """The n-dimensional discrete Fourier transform over ``dim`` (the last ``len(s)`` dimensions with only
    ``s``, every dimension with neither); ``s`` cuts or zero-pads the signal first (-1 keeps a size)."""
    return _c2c("fftn", input, s, dim, norm, inverse=False)


def ifftn(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] | None = None,
          norm: str | None = None) -> Tensor:
    """The inverse of ``fftn``."""
    return _c2c("ifftn", input, s, dim, norm, inverse=True)


def rfftn(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] | None = None,
          norm: str | None = None) -> Tensor:
    """``fftn`` of a real signal, one-sided in the last of ``dim`` (``s[-1] // 2 + 1`` frequencies there)."""
    return _r2c("rfftn", input, s, dim, norm)


def irfftn(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] | None = None,
           norm: str | None = None) -> Tensor:
    """The inverse of ``rfftn``: a real signal of sizes ``s`` (the last by default ``2 * (m - 1)``)."""
    return _c2r("irfftn", input, s, dim, norm)


def hfft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1),
          norm: str | None = None) -> Tensor:
    """``hfftn`` over two dimensions (by default the last two)."""
    return _hermitian("hfft2", input, s, dim, norm)


def ihfft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1),
           norm: str | None = None) -> Tensor:
    """``ihfftn`` over two dimensions (by default the last two)."""
    return _inverse_hermitian("ihfft2", input, s, dim, norm)


def hfftn(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] | None = None,
          norm: str | None = None) -> Tensor:
    """The n-dimensional transform of a signal with Hermitian symmetry given by its one-sided half (in the
    last of ``dim``): real, of sizes ``s`` (the last by default ``2 * (m - 1)``). The inverse of ``ihfftn``."""
    return _hermitian("hfftn", input, s, dim, norm)


def ihfftn(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] | None = None,
           norm: str | None = None) -> Tensor:
    """The n-dimensional inverse transform of a real signal, one-sided in the last of ``dim``
    (``s[-1] // 2 + 1`` frequencies there)."""
    return _inverse_hermitian("ihfftn", input, s, dim, norm)


def fftfreq(n: int, d: float = 1.0, *, dtype: Any = None, device: Any = None,
            requires_grad: bool = False) -> Tensor:
    """The sample frequencies of ``fft`` for a signal of ``n`` samples spaced ``d`` apart:
    ``[0, 1, ..., (n - 1) // 2, -(n // 2), ..., -1] / (d n)``."""
    k = _arange(n, dtype, device)
    k = k - (k >= (n + 1) // 2) * n if n else k  # the upper half stands for negative frequencies
    return _scaled(k, 1.0 / (n * d) if n else 0.0, requires_grad)


def rfftfreq(n: int, d: float = 1.0, *, dtype: Any = None, device: Any = None,
             requires_grad: bool = False) -> Tensor:
    """The sample frequencies of ``rfft`` for a signal of ``n`` samples spaced ``d`` apart:
    ``[0, 1, ..., n // 2] / (d n)``."""
    return _scaled(_arange(n // 2 + 1, dtype, device), 1.0 / (n * d) if n else 0.0, requires_grad)


def _arange(count: int, dtype: Any, device: Any) -> Tensor:
    return creation.arange(count, dtype=dtype or dtypes.get_default_dtype(), device=device)


def _scaled(k: Tensor, scale: float, requires_grad: bool) -> Tensor:
    out = _graph.wrap(k._data * k._data.dtype.type(scale))  # scaled in the result's precision, as PyTorch
    if requires_grad:
        out.requires_grad_(True)
    return out


def fftshift(input: Tensor, dim: int | Sequence[int] | None = None) -> Tensor:
    """The zero frequency moved to the centre: a roll by ``n // 2`` along ``dim`` (every dimension by default)."""
    return _shift(input, dim, lambda n: n // 2)


def ifftshift(input: Tensor, dim: int | Sequence[int] | None = None) -> Tensor:
    """The inverse of ``fftshift``: a roll by ``-(n // 2)`` along ``dim`` (every dimension by default)."""
    return _shift(input, dim, lambda n: (n + 1) // 2)


def _shift(input: Tensor, dim: Any, amount: Any) -> Tensor:
    ndim = input._data.ndim
    dims = tuple(range(ndim)) if dim is None else ((dim,) if isinstance(dim, int) else tuple(dim))
    dims = tuple(wrap_dim(d, ndim) for d in dims)
    return construction.roll(input, [amount(input._data.shape[d]) for d in dims], dims)

