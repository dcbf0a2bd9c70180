"""``tinyframe.fft``: PyTorch's ``torch.fft``, discrete Fourier transforms and their helpers.

The transforms are ops of ``tinyframe.ops.fft`` (differentiable, on the array module of the input's
device: ``numpy.fft`` or ``cupy.fft``).
"""
from .ops.fft import (fft, fft2, fftfreq, fftn, fftshift, hfft, ifft, ifft2, ifftn, ifftshift, ihfft, irfft, irfft2,
                      irfftn, rfft, rfft2, rfftfreq, rfftn)

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn",
           "rfftn", "irfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]
