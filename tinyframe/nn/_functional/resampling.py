"""Resampling: ``interpolate`` and ``upsample``, ``pixel_(un)shuffle``, ``affine_grid`` and ``grid_sample``
(re-exported by ``nn.functional``)."""
from __future__ import annotations

import itertools
import math
import warnings
from typing import Any

import numpy as np

from ... import dtypes
from ...device import array_module_of
from ...ops import binary, indexing, linalg, unary
from ...ops import shape as shape_ops
from ...ops._composite import composed, composed_op
from ...ops.pooling import adaptive_avg_pool1d, adaptive_avg_pool2d
from ...tensor import Tensor
from .pooling import adaptive_avg_pool3d

_INTERPOLATING = {"linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3}
# PyTorch's node per mode: UpsampleNearest2DBackward0, UpsampleBilinear2DBackward0, ...
_NODE_NAMES = {"nearest": "Nearest", "nearest-exact": "NearestExact", "linear": "Linear", "bilinear": "Bilinear",
               "bicubic": "Bicubic", "trilinear": "Trilinear"}
_CUBIC_A = -0.75  # the cubic convolution coefficient PyTorch uses


def interpolate(input: Tensor, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                align_corners: bool | None = None, recompute_scale_factor: bool | None = None,
                antialias: bool = False) -> Tensor:
    """Resamples the spatial dimensions of ``input (N, C, *spatial)`` to ``size`` or
    ``floor(spatial * scale_factor)``.

    ``mode``: ``'nearest'`` (source ``floor(dst * scale)``), ``'nearest-exact'``
    (``floor((dst + 0.5) * scale)``), ``'linear'`` / ``'bilinear'`` / ``'trilinear'`` (separable
    linear interpolation; with ``align_corners`` the corner pixels' centres line up,
    ``scale = (in - 1) / (out - 1)``, otherwise source ``(dst + 0.5) * scale - 0.5``) or
    ``'area'`` (adaptive average pooling). ``scale = in / out``, or ``1 / scale_factor`` when a
    scale factor is given and ``recompute_scale_factor`` is not True.
    """
    spatial = input.ndim - 2
    if spatial < 1:
        raise ValueError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.ndim}D) for the "
                         "modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact "
                         f"(got {mode})")
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
    elif mode in _INTERPOLATING:
        if _INTERPOLATING[mode] != spatial:
            raise NotImplementedError(f"Got {input.ndim}D input, but {mode} mode needs "
                                      f"{_INTERPOLATING[mode] + 2}D input")
    else:
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.ndim}D) for "
                                  f"the modes: nearest | linear | bilinear | bicubic | trilinear | area | "
                                  f"nearest-exact (got {mode})")
    if antialias and not (mode in ("bilinear", "bicubic") and input.ndim == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a "
                         "4-D tensor as input")
    in_sizes = tuple(input.shape[2:])
    out_sizes, scales = _resample_sizes(in_sizes, size, scale_factor, recompute_scale_factor)
    if antialias:
        return composed(f"Upsample{_NODE_NAMES[mode]}2DAaBackward0", _resample_antialiased, input, linear=True,
                        suggests_format=True, cubic=mode == "bicubic", sizes=(in_sizes, out_sizes, scales),
                        align_corners=bool(align_corners))
    if mode == "area":
        return {1: adaptive_avg_pool1d, 2: adaptive_avg_pool2d, 3: adaptive_avg_pool3d}[spatial](input, out_sizes)
    _check_resampling_kernel(mode, spatial, input)
    return composed(f"Upsample{_NODE_NAMES[mode]}{spatial}DBackward0", _resample, input, linear=True,
                    suggests_format=True, mode=mode,
                    sizes=(in_sizes, out_sizes, scales), align_corners=align_corners)


def _check_resampling_kernel(mode: str, spatial: int, input: Tensor) -> None:
    """PyTorch's upsampling kernels are built for floating dtypes and, for the nearest, bilinear and bicubic
    modes, uint8 images; its error names the kernel of the mode (a 2-d plane takes its own)."""
    kind = {"nearest-exact": "nearest", "trilinear": "linear"}.get(mode, mode)
    if spatial == 2 and kind in ("nearest", "bilinear"):
        kernel = f"upsample_{kind}2d_channels_last"
    else:
        kernel = f"compute_indices_weights_{'cubic' if kind == 'bicubic' else kind.removeprefix('bi')}"
    dtypes.check_kernel(kernel, input.dtype, "f" if kind == "linear" else "uf")


def _resample(input: Tensor, mode: str, sizes: tuple, align_corners: bool) -> Tensor:
    """``input`` resampled along each spatial axis in turn (``sizes``: input sizes, output sizes, scales)."""
    out = input
    for i, (n_in, n_out, scale) in enumerate(zip(*sizes)):
        axis = 2 + i
        if mode == "bicubic":
            out = _cubic_along(out, axis, n_in, n_out, scale, bool(align_corners))
        elif mode in _INTERPOLATING:
            out = _linear_along(out, axis, n_in, n_out, scale, bool(align_corners))
        else:
            out = _nearest_along(out, axis, n_in, n_out, scale, mode == "nearest-exact")
    return out


def _resample_antialiased(input: Tensor, cubic: bool, sizes: tuple, align_corners: bool) -> Tensor:
    """``input`` resampled with PyTorch's antialiasing filters, width first as PyTorch does: each output
    averages the inputs within the filter's support, widened by the scale when downsampling."""
    out = input
    for i, (n_in, n_out, scale) in reversed(list(enumerate(zip(*sizes)))):
        weights = _antialias_weights(n_in, n_out, scale, align_corners, cubic)
        matrix = Tensor._make(array_module_of(input._data).asarray(weights.T.astype(input._data.dtype)))
        out = linalg.matmul(out.movedim(2 + i, -1), matrix).movedim(-1, 2 + i)
    return out


def _antialias_weights(n_in: int, n_out: int, scale: float | None, align_corners: bool, cubic: bool) -> np.ndarray:
    """The ``(n_out, n_in)`` weights of PyTorch's ``_compute_indices_min_size_weights_aa``: the triangle
    (or the cubic kernel with ``a = -0.5``) over ``[center - support, center + support)``, normalised."""
    if align_corners:
        scale = (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    elif scale is None:
        scale = n_in / n_out
    interp_size = 4 if cubic else 2
    support = interp_size * 0.5 * scale if scale >= 1.0 else interp_size * 0.5
    invscale = 1.0 / scale if scale >= 1.0 else 1.0
    max_size = math.ceil(support) * 2 + 1
    weights = np.zeros((n_out, n_in))
    for i in range(n_out):
        center = scale * (i + 0.5)
        low = max(int(center - support + 0.5), 0)
        count = min(max(min(int(center + support + 0.5), n_in) - low, 0), max_size)
        w = _aa_filter((np.arange(count) + low - center + 0.5) * invscale, cubic)
        total = w.sum()
        weights[i, low:low + count] = w / total if total != 0.0 else w
    return weights


def _aa_filter(x: np.ndarray, cubic: bool) -> np.ndarray:
    x = np.abs(x)
    if not cubic:
        return np.maximum(1.0 - x, 0.0)
    a = -0.5
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    far = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return np.where(x < 1.0, near, np.where(x < 2.0, far, 0.0))


def _resample_sizes(in_sizes: tuple, size: Any, scale_factor: Any, recompute: bool | None) -> tuple:
    """``(output sizes, scales)``: a scale of None means ``in / out``."""
    n = len(in_sizes)
    if (size is None) == (scale_factor is None):
        raise ValueError("only one of size or scale_factor should be defined" if size is not None
                         else "either size or scale_factor should be defined")
    if size is not None:
        sizes = (size,) * n if isinstance(size, int) else tuple(size)
        if len(sizes) != n:
            raise ValueError(f"Input and output must have the same number of spatial dimensions, but got input "
                             f"with spatial dimensions of {list(in_sizes)} and output size of {list(sizes)}. "
                             "Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size in "
                             "(o1, o2, ...,oK) format.")
        return tuple(int(s) for s in sizes), (None,) * n
    factors = (scale_factor,) * n if isinstance(scale_factor, (int, float)) else tuple(scale_factor)
    if len(factors) != n:
        raise ValueError(f"Input and scale_factor must have the same number of spatial dimensions, but got input "
                         f"with spatial dimensions of {list(in_sizes)} and scale_factor of shape {list(factors)}. "
                         "Please provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in "
                         "(s1, s2, ...,sK) format.")
    sizes = tuple(int(math.floor(float(m) * float(f))) for m, f in zip(in_sizes, factors))
    scales = (None,) * n if recompute else tuple(1.0 / float(f) for f in factors)
    return sizes, scales


def _nearest_along(x: Tensor, axis: int, n_in: int, n_out: int, scale: float | None, exact: bool) -> Tensor:
    xp = array_module_of(x._data)
    scale = n_in / n_out if scale is None else scale
    offset = 0.5 if exact else 0.0
    # in float32, as PyTorch computes it, so borderline positions round the same way
    position = (np.arange(n_out, dtype=np.float32) + np.float32(offset)) * np.float32(scale)
    source = np.minimum(np.floor(position).astype(np.int64), n_in - 1)
    return indexing.index_select(x, axis, Tensor._make(xp.asarray(source)))


def _source_positions(n_in: int, n_out: int, scale: float | None, align_corners: bool, cubic: bool) -> np.ndarray:
    """Where each output sample sits on the input axis (PyTorch's ``area_pixel_compute_source_index``)."""
    dst = np.arange(n_out, dtype=np.float64)
    if align_corners:
        return dst * ((n_in - 1) / (n_out - 1) if n_out > 1 else 0.0)
    scale = n_in / n_out if scale is None else scale
    source = (dst + 0.5) * scale - 0.5
    return source if cubic else np.maximum(source, 0.0)


def _cubic_weights(t: Any) -> list:
    """The cubic convolution kernel's weights (``A = -0.75``) of the four neighbours ``i - 1 .. i + 2``
    of the position ``i + t``, for arrays or tensors ``t`` (differentiable in a tensor)."""
    a = _CUBIC_A
    near = [t + 1.0, t, 1.0 - t, 2.0 - t]  # distances to the four neighbours
    return [((a * d - 5 * a) * d + 8 * a) * d - 4 * a if k in (0, 3) else ((a + 2) * d - (a + 3)) * d * d + 1
            for k, d in enumerate(near)]


def _cubic_along(x: Tensor, axis: int, n_in: int, n_out: int, scale: float | None, align_corners: bool) -> Tensor:
    """``sum_k w_k(t) * x[clamp(i - 1 + k)]`` over the four neighbours of each source position
    ``i + t``, ``w`` the cubic convolution kernel with ``A = -0.75`` (edges repeated)."""
    xp = array_module_of(x._data)
    source = _source_positions(n_in, n_out, scale, align_corners, cubic=True)
    base = np.floor(source).astype(np.int64)
    weights = _cubic_weights(source - base)
    weight_shape = (n_out,) + (1,) * (x.ndim - 1 - axis)
    out: Any = None  # the sum of the terms
    for k, w in enumerate(weights):
        index = Tensor._make(xp.asarray(np.clip(base - 1 + k, 0, n_in - 1)))
        term = binary.mul(indexing.index_select(x, axis, index),
                          Tensor._make(xp.asarray(w.reshape(weight_shape).astype(x._data.dtype))))
        out = term if out is None else binary.add(out, term)
    return out


def _linear_along(x: Tensor, axis: int, n_in: int, n_out: int, scale: float | None, align_corners: bool) -> Tensor:
    """``x[i0] + lambda * (x[i1] - x[i0])`` at each output's source position along ``axis``."""
    xp = array_module_of(x._data)
    source = _source_positions(n_in, n_out, scale, align_corners, cubic=False)
    lower = np.minimum(np.floor(source).astype(np.int64), n_in - 1)
    upper = np.minimum(lower + 1, n_in - 1)
    weight_shape = (n_out,) + (1,) * (x.ndim - 1 - axis)
    upper_weight = Tensor._make(xp.asarray((source - lower).reshape(weight_shape).astype(x._data.dtype)))
    low = indexing.index_select(x, axis, Tensor._make(xp.asarray(lower)))
    high = indexing.index_select(x, axis, Tensor._make(xp.asarray(upper)))
    return binary.add(low, binary.mul(binary.sub(high, low), upper_weight))


def upsample(input: Tensor, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
             align_corners: bool | None = None) -> Tensor:
    """``interpolate`` (deprecated in PyTorch in favour of it)."""
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


@composed_op("PixelShuffleBackward0", ('input',), linear=True)
def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """``(*, C*r^2, H, W) -> (*, C, H*r, W*r)``: each group of ``r^2`` channels becomes an ``r x r`` block."""
    r = upscale_factor
    if input.ndim < 3:
        raise RuntimeError(f"pixel_shuffle expects input to have at least 3 dimensions, but got input with "
                           f"{input.ndim} dimension(s)")
    *batch, c, h, w = input.shape
    if c % (r * r):
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={c} is not divisible by {r * r}")
    k = len(batch)
    blocks = input.reshape(*batch, c // (r * r), r, r, h, w)
    order = tuple(range(k)) + (k, k + 3, k + 1, k + 4, k + 2)
    return shape_ops.permute(blocks, order).reshape(*batch, c // (r * r), h * r, w * r)


@composed_op("PixelUnshuffleBackward0", ('input',), linear=True)
def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """``(*, C, H*r, W*r) -> (*, C*r^2, H, W)``: the inverse of ``pixel_shuffle``."""
    r = downscale_factor
    if input.ndim < 3:
        raise RuntimeError(f"pixel_unshuffle expects input to have at least 3 dimensions, but got input with "
                           f"{input.ndim} dimension(s)")
    *batch, c, h, w = input.shape
    if h % r or w % r:
        which, size = ("height", h) if h % r else ("width", w)
        raise RuntimeError(f"pixel_unshuffle expects {which} to be divisible by downscale_factor, but input.size"
                           f"({-2 if which == 'height' else -1})={size} is not divisible by {r}")
    k = len(batch)
    blocks = input.reshape(*batch, c, h // r, r, w // r, r)
    order = tuple(range(k)) + (k, k + 2, k + 4, k + 1, k + 3)
    return shape_ops.permute(blocks, order).reshape(*batch, c * r * r, h // r, w // r)


# --------------------------------------------------------------------------- spatial transformers
_ALIGN_CORNERS_WARNING = ("Default grid_sample and affine_grid behavior has changed to align_corners=False since "
                          "1.3.0. Please specify align_corners=True if the old behavior is desired. See the "
                          "documentation of grid_sample for details.")


@composed_op("AffineGridGeneratorBackward0", ('theta',), linear=True)
def affine_grid(theta: Tensor, size: Any, align_corners: bool | None = None) -> Tensor:
    """The sampling grid of the affine maps ``theta`` for an output of ``size``: ``(N, H, W, 2)`` for
    ``theta (N, 2, 3)`` and ``size = (N, C, H, W)``, ``grid[n, h, w] = theta[n] @ (x_w, y_h, 1)``; or
    ``(N, D, H, W, 3)`` for ``theta (N, 3, 4)`` and ``size = (N, C, D, H, W)``; over normalised
    coordinates in ``[-1, 1]`` (pixel centres unless ``align_corners``)."""
    if align_corners is None:
        warnings.warn(_ALIGN_CORNERS_WARNING, UserWarning, stacklevel=2)
        align_corners = False
    given, size = size, tuple(size)
    if len(size) not in (4, 5):
        raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                                  f"respectively. Got size {given}.")
    spatial = len(size) - 2
    if theta.ndim != 3 or tuple(theta.shape[1:]) != (spatial, spatial + 1):
        raise ValueError(f"Expected a batch of {spatial}D affine matrices of shape Nx{spatial}x{spatial + 1} for size "
                         f"{given}. Got {theta.shape}.")

    def axis(steps: int) -> np.ndarray:
        values = np.linspace(-1.0, 1.0, steps) if steps > 1 else np.zeros(1)
        return values if align_corners else values * (steps - 1) / steps
    # the coordinates x (along W), y (along H) and z (along D) of each output position, then 1
    positions = np.meshgrid(*(axis(n) for n in size[2:]), indexing="ij")[::-1]
    count = math.prod(size[2:])
    grid = np.stack([*positions, np.ones_like(positions[0])], -1).reshape(1, count, spatial + 1)
    base = Tensor._make(array_module_of(theta._data).asarray(grid.astype(theta._data.dtype)))
    return linalg.matmul(base, shape_ops.transpose(theta, 1, 2)).reshape(size[0], *size[2:], spatial)


def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear", padding_mode: str = "zeros",
                align_corners: bool | None = None) -> Tensor:
    """Samples ``input (N, C, H, W)`` at the normalised positions ``grid (N, H_out, W_out, 2)``
    (``x`` then ``y``, ``-1`` and ``1`` the edges, or the corner pixels' centres with
    ``align_corners``), bilinearly, at the nearest pixel or bicubically (the 4 x 4 neighbours weighted
    by the cubic convolution kernel, ``A = -0.75``); or ``input (N, C, D, H, W)`` at ``grid (N, D_out,
    H_out, W_out, 3)`` (``x``, ``y``, ``z``), trilinearly (``mode='bilinear'``) or at the nearest
    voxel. Positions outside read zeros (``padding_mode='zeros'``), the border (``'border'``) or the
    reflected image (``'reflection'``), applied to each neighbour's index in bicubic mode, as PyTorch
    does. Differentiable in ``input`` and ``grid``."""
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but "
                         f"got: '{mode}'")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         f"'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        warnings.warn(_ALIGN_CORNERS_WARNING, UserWarning, stacklevel=2)
        align_corners = False
    if grid.shape[-1] != input.ndim - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {input.ndim - 2} in last dimension, but got "
                           f"grid with sizes {list(grid.shape)}")
    if input.ndim == 5:
        if mode == "bicubic":
            raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
        return _grid_sample_3d(input, grid, mode, padding_mode, align_corners)
    if input.ndim != 4:
        raise RuntimeError(f"grid_sampler(): expected 4D or 5D input and grid with same number of dimensions, but got "
                           f"input with sizes {list(input.shape)} and grid with sizes {list(grid.shape)}")
    return _grid_sample_2d(input, grid, mode, padding_mode, align_corners)


@composed_op("GridSampler3DBackward0", ('input', 'grid'))
def _grid_sample_3d(input: Tensor, grid: Tensor, mode: str, padding_mode: str, align_corners: bool) -> Tensor:
    """``grid_sample`` of a volume: the 8 corner voxels around each position weighted trilinearly, in
    PyTorch's order (top before bottom, north before south, west before east), or the nearest one."""
    n, c, d, h, w = input.shape
    sizes = (w, h, d)
    coords = [_padded(_unnormalize(grid[..., k], size, align_corners), size, padding_mode, align_corners)
              for k, size in enumerate(sizes)]
    flat = input.reshape(n, c, d * h * w)
    out_shape = tuple(grid.shape[1:4])
    xp = array_module_of(input._data)

    def read(ix: Any, iy: Any, iz: Any) -> Tensor:
        """``input[n, :, iz, iy, ix]`` for integer arrays ``(N, D_out, H_out, W_out)``, zeros outside."""
        inside = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h) & (iz >= 0) & (iz < d)
        index = ((xp.clip(iz, 0, d - 1) * h + xp.clip(iy, 0, h - 1)) * w + xp.clip(ix, 0, w - 1)).reshape(n, 1, -1)
        values = indexing.gather(flat, 2, Tensor._make(xp.broadcast_to(index, (n, c, index.shape[2]))))
        return binary.mul(values.reshape(n, c, *out_shape), Tensor._make(inside[:, None].astype(input._data.dtype)))

    if mode == "nearest":  # round half to even, as PyTorch's nearbyint
        return read(*(xp.rint(t._data).astype(np.int64) for t in coords))
    low = [xp.floor(t._data) for t in coords]
    # the distances to the far (+1) corner and from the near one, per axis, as PyTorch's weights
    far = [binary.sub(Tensor._make(lo + 1), t).unsqueeze(1) for lo, t in zip(low, coords)]
    near = [binary.sub(t, Tensor._make(lo)).unsqueeze(1) for lo, t in zip(low, coords)]
    corners = [lo.astype(np.int64) for lo in low]
    out: Any = None
    for dz, dy, dx in itertools.product((0, 1), repeat=3):
        steps = (dx, dy, dz)
        weight = binary.mul(binary.mul(*(near[k] if steps[k] else far[k] for k in (0, 1))),
                            near[2] if dz else far[2])
        term = binary.mul(read(*(corners[k] + steps[k] for k in range(3))), weight)
        out = term if out is None else binary.add(out, term)
    return out


@composed_op("GridSampler2DBackward0", ('input', 'grid'))
def _grid_sample_2d(input: Tensor, grid: Tensor, mode: str, padding_mode: str, align_corners: bool) -> Tensor:
    """``grid_sample`` of an image (see there)."""
    n, c, h, w = input.shape
    if mode == "bicubic":  # the padding applies to each neighbour's index, not to the position
        xs, ys = _unnormalize(grid[..., 0], w, align_corners), _unnormalize(grid[..., 1], h, align_corners)
    else:
        xs = _padded(_unnormalize(grid[..., 0], w, align_corners), w, padding_mode, align_corners)
        ys = _padded(_unnormalize(grid[..., 1], h, align_corners), h, padding_mode, align_corners)
    flat = input.reshape(n, c, h * w)
    out_shape = tuple(grid.shape[1:3])
    xp = array_module_of(input._data)

    def read(col: Any, row: Any) -> Tensor:
        """``input[n, :, row, col]`` for integer arrays ``(N, H_out, W_out)``, zeros outside."""
        inside = (col >= 0) & (col < w) & (row >= 0) & (row < h)
        index = (xp.clip(row, 0, h - 1) * w + xp.clip(col, 0, w - 1)).reshape(n, 1, -1)
        values = indexing.gather(flat, 2, Tensor._make(xp.broadcast_to(index, (n, c, index.shape[2]))))
        values = values.reshape(n, c, *out_shape)
        return binary.mul(values, Tensor._make(inside[:, None].astype(input._data.dtype)))

    if mode == "nearest":
        # round half to even, as PyTorch's nearbyint
        return read(xp.rint(xs._data).astype(np.int64), xp.rint(ys._data).astype(np.int64))
    x0 = xp.floor(xs._data)
    y0 = xp.floor(ys._data)
    if mode == "bicubic":
        def neighbour(start: Any, k: int, size: int) -> Any:
            """The index of neighbour ``k`` (of ``start - 1 .. start + 2``), padded, as PyTorch's
            ``get_value_bounded``: clipped or reflected integers, or outside (read as zero)."""
            return _padded(Tensor._make(start + (k - 1)), size, padding_mode, align_corners)._data.astype(np.int64)
        weights_x = _cubic_weights(binary.sub(xs, Tensor._make(x0)).unsqueeze(1))
        weights_y = _cubic_weights(binary.sub(ys, Tensor._make(y0)).unsqueeze(1))
        rows = [_weighted_sum([read(neighbour(x0, i, w), neighbour(y0, j, h)) for i in range(4)], weights_x)
                for j in range(4)]
        return _weighted_sum(rows, weights_y)
    tx = binary.sub(xs, Tensor._make(x0)).unsqueeze(1)
    ty = binary.sub(ys, Tensor._make(y0)).unsqueeze(1)
    x0, y0 = x0.astype(np.int64), y0.astype(np.int64)
    top = binary.add(read(x0, y0), binary.mul(binary.sub(read(x0 + 1, y0), read(x0, y0)), tx))
    bottom = binary.add(read(x0, y0 + 1), binary.mul(binary.sub(read(x0 + 1, y0 + 1), read(x0, y0 + 1)), tx))
    return binary.add(top, binary.mul(binary.sub(bottom, top), ty))


def _weighted_sum(values: list, weights: list) -> Tensor:
    """``values[0] * weights[0] + ... + values[3] * weights[3]``, in PyTorch's order."""
    out = binary.mul(values[0], weights[0])
    for value, weight in zip(values[1:], weights[1:]):
        out = binary.add(out, binary.mul(value, weight))
    return out


def _unnormalize(coord: Tensor, size: int, align_corners: bool) -> Tensor:
    """A normalised coordinate (-1 and 1 the edges, or the corner pixels' centres) in pixels."""
    if align_corners:
        return binary.mul(binary.add(coord, 1.0), (size - 1) / 2)
    return binary.div(binary.sub(binary.mul(binary.add(coord, 1.0), size), 1.0), 2)


def _padded(pixel: Tensor, size: int, padding_mode: str, align_corners: bool) -> Tensor:
    """A coordinate in pixels clipped or reflected per ``padding_mode`` (as given for ``'zeros'``)."""
    if padding_mode == "border":
        return binary.clamp(pixel, 0.0, size - 1.0)
    if padding_mode == "reflection":
        low, high = (0.0, 2.0 * (size - 1)) if align_corners else (-1.0, 2.0 * size - 1)
        return binary.clamp(_reflect(pixel, low, high), 0.0, size - 1.0)
    return pixel


def _reflect(x: Tensor, twice_low: float, twice_high: float) -> Tensor:
    """``x`` reflected into ``[twice_low / 2, twice_high / 2]`` (PyTorch's ``reflect_coordinates``)."""
    if twice_low == twice_high:
        return binary.mul(x, 0.0)
    low, span = twice_low / 2, (twice_high - twice_low) / 2
    distance = unary.abs(binary.sub(x, low))
    flips = array_module_of(x._data).floor(distance._data / span)
    extra = binary.sub(distance, Tensor._make(flips * span))  # fmod, differentiable in x
    even = Tensor._make(flips % 2 == 0)
    return binary.where(even, binary.add(extra, low), binary.add(binary.sub(span, extra), low))
