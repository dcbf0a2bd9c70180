"""Fractional max pooling (Graham, 2014): ``kernel``-sized windows whose starts follow a pseudo-random
sequence, so that the output size need not divide the input size (re-exported by ``nn.functional``).

For an input size ``n``, output size ``m`` and kernel ``k``, one sample ``u`` in [0, 1) per plane and
dimension gives the starts ``int((i + u) a) - int(u a)`` with ``a = (n - k) / (m - 1)``, and the last start
``n - k``: PyTorch's ``generate_intervals``, computed in the input's dtype as its kernel does. The samples
are ``_random_samples`` (N, C, dims) when given, else drawn with ``rand``. The maxima are gathered at their
flat positions in each plane, so the gradient reaches each window's (first) maximum.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ...creation import rand
from ...device import array_module_of
from ...ops._composite import composed
from ...tensor import Tensor
from .pooling import _gather_maxima

__all__ = ["fractional_max_pool2d", "fractional_max_pool3d", "fractional_max_pool2d_with_indices",
           "fractional_max_pool3d_with_indices"]

_AXIS_NAMES = {2: ("height", "width"), 3: ("time", "height", "width")}
# Which sample of a plane each spatial dimension uses: PyTorch's kernels read (W, H) in 2-d, (T, H, W) in 3-d.
_SAMPLE_OF_AXIS = {2: (1, 0), 3: (0, 1, 2)}


def _tuple(value: Any, nd: int) -> tuple:
    return (value,) * nd if isinstance(value, (int, float)) else tuple(value)


def _starts(xp: Any, samples: Any, size: int, out: int, kernel: int) -> Any:
    """The window starts (..., out) along one dimension, from one sample per plane (...)."""
    dtype = samples.dtype.type
    starts = xp.full(samples.shape + (out,), size - kernel, dtype=np.int64)
    if out > 1:
        alpha = dtype(size - kernel) / dtype(out - 1)
        steps = xp.arange(out - 1, dtype=samples.dtype)
        scaled = ((steps + samples[..., None]) * alpha).astype(np.int64)
        starts[..., :-1] = scaled - (samples * alpha).astype(np.int64)[..., None]
    return starts


def _window_maxima(x: Any, samples: Any, sizes: tuple, kernel: tuple) -> Any:
    """The flat index in its plane of each window's maximum (PyTorch's: the first, or a NaN), for ``x``
    (N, C, *spatial) and ``samples`` (N, C, nd)."""
    xp = array_module_of(x)
    nd = len(sizes)
    spatial = x.shape[2:]
    flat = None
    for axis in range(nd):
        starts = _starts(xp, samples[..., _SAMPLE_OF_AXIS[nd][axis]], spatial[axis], sizes[axis], kernel[axis])
        positions = starts[..., None] + xp.arange(kernel[axis])  # (N, C, out, k)
        # Axis ``axis`` of the output and of the window, in a grid (N, C, *out, *k).
        grid = [1] * (2 * nd)
        grid[axis], grid[nd + axis] = sizes[axis], kernel[axis]
        positions = positions.reshape(positions.shape[:2] + tuple(grid))
        flat = positions if flat is None else flat * spatial[axis] + positions
    assert flat is not None
    candidates = xp.broadcast_to(flat, x.shape[:2] + sizes + kernel).reshape(x.shape[:2] + sizes + (-1,))
    values = xp.take_along_axis(x.reshape(x.shape[:2] + (1,) * nd + (-1,)), candidates, axis=-1)
    winner = xp.argmax(xp.where(xp.isnan(values), np.inf, values), axis=-1)
    return xp.take_along_axis(candidates, winner[..., None], axis=-1)[..., 0]


def _fractional_max_pool(nd: int, input: Tensor, kernel_size: Any, output_size: Any, output_ratio: Any,
                         return_indices: bool, _random_samples: Tensor | None) -> Any:
    name = f"fractional_max_pool{nd}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if output_size is None:
        if len(output_ratio) > nd:
            raise ValueError(f"{name} requires output_ratio to either be a single Int or tuple of Ints.")
        ratio = _tuple(output_ratio, nd)
        output_size = [int(input.size(d - nd) * ratio[d]) for d in range(nd)]
    if _random_samples is None:
        batch = 1 if input.dim() == nd + 1 else input.size(0)
        _random_samples = rand(batch, input.size(-nd - 1), nd, dtype=input.dtype, device=input.device)
    kernel = _tuple(kernel_size, nd)
    if len(kernel) != nd:
        raise RuntimeError(f"{name}: kernel_size must either be a single Int or tuple of Ints")
    sizes = tuple(int(s) for s in _tuple(output_size, nd))
    batched = input if input.dim() == nd + 2 else input.unsqueeze(0)
    _check(nd, batched, _random_samples, sizes, kernel)
    samples = _random_samples._data[:batched.shape[0]]
    index = Tensor._make(_window_maxima(batched._data, samples, sizes, kernel))
    out = composed(f"FractionalMaxPool{nd}DBackward0", _gather_maxima, batched,
                   index=index.reshape(*index.shape[:2], -1), sizes=sizes)
    if input.dim() != nd + 2:
        out, index = out.squeeze(0), index.squeeze(0)
    return (out, index) if return_indices else out


def _check(nd: int, input: Tensor, samples: Tensor, sizes: tuple, kernel: tuple) -> None:
    if samples.shape[2] != nd:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {nd}; got {samples.shape[2]}.")
    if samples.shape[0] < input.shape[0]:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    where = "fractional_max_pool2d()" if nd == 2 else "fractional_max_pool3d_out()"
    for axis, (out, k, n) in enumerate(zip(sizes, kernel, input.shape[2:])):
        if out + k - 1 > n:
            what = _AXIS_NAMES[nd][axis]
            raise RuntimeError(f"{where}: pool {what} {k} too large relative to input {what} {n}")


def fractional_max_pool2d(input: Tensor, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
                          return_indices: bool = False, _random_samples: Tensor | None = None) -> Any:
    """Fractional max pooling of ``input (N, C, H, W)`` or ``(C, H, W)`` with ``kernel_size`` windows to
    ``output_size`` (or ``output_ratio`` times the input size); ``return_indices`` also gives the maxima's
    flat positions ``h * W + w``. ``_random_samples`` (N, C, 2), in [0, 1), fixes the windows."""
    return _fractional_max_pool(2, input, kernel_size, output_size, output_ratio, return_indices, _random_samples)


def fractional_max_pool3d(input: Tensor, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
                          return_indices: bool = False, _random_samples: Tensor | None = None) -> Any:
    """Fractional max pooling of ``input (N, C, T, H, W)`` or ``(C, T, H, W)`` (see ``fractional_max_pool2d``;
    ``_random_samples`` is (N, C, 3))."""
    return _fractional_max_pool(3, input, kernel_size, output_size, output_ratio, return_indices, _random_samples)


def fractional_max_pool2d_with_indices(input: Tensor, kernel_size: Any, output_size: Any = None,
                                       output_ratio: Any = None, return_indices: bool = False,
                                       _random_samples: Tensor | None = None) -> tuple:
    """``fractional_max_pool2d`` with its indices, whatever ``return_indices``."""
    return fractional_max_pool2d(input, kernel_size, output_size, output_ratio, True, _random_samples)


def fractional_max_pool3d_with_indices(input: Tensor, kernel_size: Any, output_size: Any = None,
                                       output_ratio: Any = None, return_indices: bool = False,
                                       _random_samples: Tensor | None = None) -> tuple:
    """``fractional_max_pool3d`` with its indices, whatever ``return_indices``."""
    return fractional_max_pool3d(input, kernel_size, output_size, output_ratio, True, _random_samples)

