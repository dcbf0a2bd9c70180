"""The short-time Fourier transform and its inverse (``torch.stft`` / ``torch.istft``), composed of
differentiable ops as PyTorch composes them: frames cut from the (reflect-padded) signal, windowed,
and transformed with ``rfft``/``fft``; the inverse transforms each frame back, windows it again and
overlap-adds the frames (``fold``), divided by the overlap-added squared window.
"""
from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

from .. import creation, dtypes
from . import binary, construction, fft, fold, inplace, padding, shape
from .complex import is_complex, real, view_as_real

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["stft", "istft"]

_NO_WINDOW = ("A window was not provided. A rectangular window will be applied,which is known to cause spectral "
              "leakage. Other windows such as torch.hann_window or torch.hamming_window are recommended to reduce "
              "spectral leakage.To suppress this warning and use a rectangular window, explicitly set "
              "`window=torch.ones(n_fft, device=<device>)`.")
_REAL_OUTPUT = ("stft with return_complex=False is deprecated. In a future pytorch release, stft will return complex "
                "tensors for all inputs, and return_complex=False will raise an error.\nNote: you can still call "
                "torch.view_as_real on the complex output to recover the old return format.")


def _described(t: Tensor | None) -> str:
    return "None" if t is None else f"torch.{dtypes.legacy_type_name(t.dtype)}{{{list(t.shape)}}}"


def _window(window: Tensor | None, n_fft: int, win_length: int, like: Tensor, where: str) -> Tensor:
    """The window of ``win_length`` (ones when None) zero-padded on both sides to ``n_fft``."""
    if window is None:
        window = creation.ones(win_length, dtype=dtypes.float32 if is_complex(like) else like.dtype,
                               device=like.device)
    elif window.ndim != 1 or window.shape[0] != win_length:
        raise RuntimeError(f"{where} : expected a 1D window tensor of size equal to win_length={win_length}, but got "
                           f"window with size {list(window.shape)}")
    left = (n_fft - win_length) // 2
    return padding.pad(window, [left, n_fft - win_length - left]) if win_length < n_fft else window


def stft(input: Tensor, n_fft: int, hop_length: int | None = None, win_length: int | None = None,
         window: Tensor | None = None, center: bool = True, pad_mode: str = "reflect", normalized: bool = False,
         onesided: bool | None = None, return_complex: bool | None = None) -> Tensor:
    """The short-time Fourier transform of ``input`` (``(L,)`` or ``(B, L)``): ``(B?, N, T)`` complex
    values, ``N = n_fft // 2 + 1`` frequencies (``onesided``, the default for real input and window,
    else ``n_fft``) of ``T = 1 + (L' - n_fft) // hop_length`` frames, each frame of ``n_fft`` samples
    multiplied by ``window`` (``win_length`` long, centred; rectangular when None). ``center`` pads
    ``n_fft // 2`` on both sides (``pad_mode``) so frame ``t`` is centred on sample ``t * hop_length``;
    ``normalized`` scales by ``n_fft ** -0.5``. ``hop_length`` defaults to ``n_fft // 4``."""
    complex_input = is_complex(input) or (window is not None and is_complex(window))
    if return_complex is None:
        if not complex_input:
            raise RuntimeError("stft requires the return_complex parameter be given for real inputs, and will further "
                               "require that return_complex=True in a future PyTorch release.")
        return_complex = True
    hop = n_fft // 4 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    batched = input.ndim == 2
    if center:
        half = n_fft // 2
        signal = padding.pad(input.reshape(1, *input.shape[-2 + (not batched):]), [half, half], mode=pad_mode)
        input = signal.reshape(*signal.shape[-1 - batched:])
    length = input.shape[-1]
    where = (f"stft(torch.{dtypes.legacy_type_name(input.dtype)}{list(input.shape)}, n_fft={n_fft}, hop_length={hop}, "
             f"win_length={win}, window={_described(window)}, normalized={int(normalized)}, onesided="
             f"{'None' if onesided is None else int(onesided)}, return_complex={int(return_complex)}, "
             f"align_to_window=None)")
    if not 0 < n_fft <= length:
        raise RuntimeError(f"{where} : expected 0 < n_fft < {length}, but got n_fft={n_fft}")
    if hop <= 0:
        raise RuntimeError(f"{where} : expected hop_length > 0, but got hop_length={hop}")
    if not 0 < win <= n_fft:
        raise RuntimeError(f"{where} : expected 0 < win_length <= n_fft, but got win_length={win}")
    if window is None:
        warnings.warn(_NO_WINDOW, UserWarning, stacklevel=2)
    if not return_complex:
        warnings.warn(_REAL_OUTPUT, UserWarning, stacklevel=2)
    frames = binary.mul(construction.unfold(input if batched else input.unsqueeze(0), -1, n_fft, hop),
                        _window(window, n_fft, win, input, where))
    norm = "ortho" if normalized else "backward"
    one_sided = not complex_input if onesided is None else onesided
    spectrum = fft.rfft(frames, norm=norm) if one_sided else fft.fft(frames, norm=norm)
    out = inplace.restride(spectrum, shape.transpose, 1, 2)
    if not batched:
        out = inplace.restride(out, shape.squeeze, 0)
    return out if return_complex else view_as_real(out)


def istft(input: Tensor, n_fft: int, hop_length: int | None = None, win_length: int | None = None,
          window: Tensor | None = None, center: bool = True, normalized: bool = False, onesided: bool | None = None,
          length: int | None = None, return_complex: bool = False) -> Tensor:
    """The inverse of :func:`stft`: each frame of ``input`` (``(B?, N, T)`` complex) transformed back,
    multiplied by ``window``, overlap-added at ``hop_length`` steps and divided by the overlap-added
    squared window; ``center`` trims ``n_fft // 2`` samples at both ends, ``length`` sets the
    output's length (cut or zero-padded)."""
    hop = n_fft // 4 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    batched = input.ndim == 3
    spectra = input if batched else input.unsqueeze(0)
    frames_count = spectra.shape[-1]
    where = (f"istft(torch.{dtypes.legacy_type_name(input.dtype)}{list(input.shape)}, n_fft={n_fft}, "
             f"hop_length={hop}, win_length={win}, window={_described(window)}, center={int(center)}, "
             f"normalized={int(normalized)})")
    one_sided = spectra.shape[-2] != n_fft if onesided is None else onesided
    norm = "ortho" if normalized else "backward"
    columns = shape.transpose(spectra, 1, 2)
    if return_complex:
        frames = fft.ifft(columns, n=n_fft, norm=norm)
    elif one_sided:
        frames = fft.irfft(columns, n=n_fft, norm=norm)
    else:
        frames = real(fft.ifft(columns, n=n_fft, norm=norm))
    window = _window(window, n_fft, win, frames, where)
    full = n_fft + hop * (frames_count - 1)

    def overlap_add(blocks: Tensor) -> Tensor:  # (B, T, n_fft) -> (B, full)
        return fold.fold(shape.transpose(blocks, 1, 2), (1, full), (1, n_fft), stride=(1, hop)).reshape(
            blocks.shape[0], full)
    y = overlap_add(binary.mul(frames, window))
    envelope = overlap_add(binary.mul(window, window).expand(1, frames_count, n_fft))
    start = n_fft // 2 if center else 0
    end = full - (n_fft // 2 if center else 0) if length is None else min(start + length, full)
    y, envelope = y[:, start:end], envelope[:, start:end]
    smallest = float(envelope.abs().min().item())
    if smallest < 1e-11:
        raise RuntimeError(f"{where} window overlap add min: {smallest:g}")
    y = binary.div(y, envelope)
    if length is not None and y.shape[-1] < length:
        y = padding.pad(y, [0, length - y.shape[-1]])
    return y.squeeze(0) if not batched else y
