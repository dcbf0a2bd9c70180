"""``tinyframe.fft``: PyTorch's ``torch.fft``, discrete Fourier transforms and their helpers.

The transforms are ops of ``tinyframe.ops.fft`` (differentiable, on the array module of the input's
device: ``numpy.fft`` or ``cupy.fft``).
"""
from .ops.fft import *  # noqa: F401,F403
from .ops.fft import __all__ as __all__
