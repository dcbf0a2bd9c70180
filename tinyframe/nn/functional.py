"""``tinyframe.nn.functional``: the functional form of every layer, activation and loss.

Each function here is the one definition its Module calls.
"""
from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from .. import dtypes
from ..device import array_module_of, device_of
from ..ops import activation as activation_ops
from ..ops import binary, indexing, linalg, unary
from ..ops import inplace as inplace_ops
from ..ops import reduction as reductions
from ..ops import shape as shape_ops
from ..ops.bilinear import bilinear
from ..ops.convolution import conv1d, conv2d, conv_transpose1d, conv_transpose2d
from ..ops.ctc import ctc_loss
from ..ops.embedding import embedding
from ..ops.fold import fold, unfold
from ..ops.linear import linear
from ..ops.loss import (
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    cross_entropy,
    huber_loss,
    kl_div,
    l1_loss,
    legacy_reduction,
    mse_loss,
    nll_loss,
    smooth_l1_loss,
)
from ..ops.normalization import batch_norm, group_norm, layer_norm, rms_norm
from ..ops.padding import pad
from ..ops.pooling import adaptive_avg_pool1d, adaptive_avg_pool2d, avg_pool1d, avg_pool2d, max_pool1d, max_pool2d
from ..random import generator_for
from ..tensor import Tensor

__all__ = ["linear", "relu", "relu_", "relu6", "leaky_relu", "leaky_relu_", "elu", "elu_", "hardtanh", "hardtanh_",
           "gelu", "silu", "sigmoid", "tanh", "softplus", "logsigmoid", "softmax", "log_softmax", "dropout",
           "one_hot", "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "cross_entropy", "nll_loss",
           "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div"]
__all__ += ["conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d", "max_pool1d", "max_pool2d", "avg_pool1d",
            "avg_pool2d", "adaptive_avg_pool1d", "adaptive_avg_pool2d", "batch_norm", "layer_norm", "group_norm",
            "rms_norm", "embedding", "pad", "bilinear"]
__all__ += ["mish", "hardsigmoid", "hardswish", "glu", "normalize", "cosine_similarity", "pairwise_distance",
            "scaled_dot_product_attention", "interpolate", "upsample", "pixel_shuffle", "pixel_unshuffle", "unfold",
            "fold", "adaptive_max_pool1d", "adaptive_max_pool2d", "max_unpool1d", "max_unpool2d", "embedding_bag",
            "instance_norm", "conv3d", "ctc_loss"]
__all__ += ["selu", "selu_", "celu", "celu_", "softsign", "softmin", "threshold", "threshold_", "hardshrink",
            "softshrink", "tanhshrink", "prelu", "rrelu", "gumbel_softmax", "dropout1d", "dropout2d", "dropout3d",
            "alpha_dropout", "feature_alpha_dropout", "margin_ranking_loss", "hinge_embedding_loss",
            "soft_margin_loss", "multilabel_soft_margin_loss", "cosine_embedding_loss", "triplet_margin_loss",
            "triplet_margin_with_distance_loss", "poisson_nll_loss", "gaussian_nll_loss", "multi_margin_loss",
            "lp_pool1d", "lp_pool2d", "local_response_norm", "channel_shuffle", "pdist", "upsample_nearest",
            "upsample_bilinear", "max_pool1d_with_indices", "max_pool2d_with_indices",
            "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d_with_indices"]
__all__ += ["max_pool3d", "avg_pool3d", "adaptive_avg_pool3d", "adaptive_max_pool3d", "max_unpool3d", "lp_pool3d",
            "conv_transpose3d", "affine_grid", "grid_sample"]


# --------------------------------------------------------------------------- activations
def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """``max(input, 0)``; ``inplace=True`` overwrites ``input`` and returns it."""
    return inplace_ops.apply(input, unary.relu) if inplace else unary.relu(input)


def relu_(input: Tensor) -> Tensor:
    """``relu`` in place."""
    return inplace_ops.apply(input, unary.relu)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """``min(max(input, 0), 6)``: ``hardtanh`` on ``[0, 6]`` (``HardtanhBackward0``, as in PyTorch)."""
    return hardtanh(input, 0.0, 6.0, inplace)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """``input`` where positive, ``negative_slope * input`` elsewhere."""
    if inplace:
        return inplace_ops.apply(input, unary.leaky_relu, negative_slope)
    return unary.leaky_relu(input, negative_slope)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    """``leaky_relu`` in place."""
    return leaky_relu(input, negative_slope, True)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``input`` where positive, ``alpha * (exp(input) - 1)`` elsewhere."""
    return inplace_ops.apply(input, unary.elu, alpha) if inplace else unary.elu(input, alpha)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """``elu`` in place."""
    return elu(input, alpha, True)


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> Tensor:
    """``input`` clamped to ``[min_val, max_val]``; the gradient is zero outside the open interval."""
    if inplace:
        return inplace_ops.apply(input, unary.hardtanh, min_val, max_val)
    return unary.hardtanh(input, min_val, max_val)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    """``hardtanh`` in place."""
    return hardtanh(input, min_val, max_val, True)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """``input * Phi(input)``, ``Phi`` the standard normal CDF; ``approximate='tanh'`` uses
    ``0.5 * input * (1 + tanh(sqrt(2 / pi) * (input + 0.044715 * input ** 3)))``."""
    return unary.gelu(input, approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """``input * sigmoid(input)`` (swish)."""
    return inplace_ops.apply(input, unary.silu) if inplace else unary.silu(input)


def sigmoid(input: Tensor) -> Tensor:
    """``1 / (1 + exp(-input))``."""
    return unary.sigmoid(input)


def tanh(input: Tensor) -> Tensor:
    """Hyperbolic tangent."""
    return unary.tanh(input)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """``log(1 + exp(beta * input)) / beta``; ``input`` itself where ``beta * input > threshold``."""
    return unary.softplus(input, beta, threshold)


def logsigmoid(input: Tensor) -> Tensor:
    """``log(sigmoid(input))``, computed without overflow."""
    return unary.logsigmoid(input)


def _implicit_softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    """PyTorch's legacy choice of dimension when ``dim`` is not given (with its deprecation warning)."""
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X "
                  "as an argument.", UserWarning, stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None) -> Tensor:
    """``exp(x_i) / sum_j exp(x_j)`` along ``dim``; ``dtype`` casts the input first."""
    if dim is None:
        dim = _implicit_softmax_dim("softmax", input.ndim, _stacklevel)
    return reductions.softmax(input, dim, dtype=dtype)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None) -> Tensor:
    """``x_i - log(sum_j exp(x_j))`` along ``dim``, computed without overflow."""
    if dim is None:
        dim = _implicit_softmax_dim("log_softmax", input.ndim, _stacklevel)
    return reductions.log_softmax(input, dim, dtype=dtype)


# --------------------------------------------------------------------------- dropout, one_hot
def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zeroes each element with probability ``p`` and scales the others by ``1 / (1 - p)``, so the
    expectation is unchanged (``input`` itself when not ``training`` or ``p == 0``).

    ``out = input * mask`` (``MulBackward0``, as PyTorch on cpu) with the mask drawn from the device's
    generator (``tinyframe.manual_seed`` makes it reproducible).
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0 or input.numel() == 0:
        return input
    mask = Tensor._make(_dropout_mask(input._data, p))
    return inplace_ops.apply(input, binary.mul, mask) if inplace else binary.mul(input, mask)


def _dropout_mask(data: Any, p: float) -> Any:
    """``bernoulli(1 - p) / (1 - p)`` in ``data``'s shape and dtype (0-d zeros for ``p == 1``)."""
    xp = array_module_of(data)
    if p == 1.0:
        return xp.zeros((), dtype=data.dtype)
    state = generator_for(device_of(data)).state
    if hasattr(state, "random"):  # NumPy's Generator
        uniform = state.random(data.shape, dtype=np.float32)
    else:  # CuPy's RandomState
        uniform = state.random_sample(data.shape, dtype=np.float32)
    mask = (uniform < 1.0 - p).astype(data.dtype)
    mask *= 1.0 / (1.0 - p)
    return mask


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """An int64 tensor of shape ``(*tensor.shape, num_classes)``: 1 at each index of ``tensor``, else 0.

    ``num_classes=-1`` takes ``tensor.max() + 1``.
    """
    t = tensor._data
    if t.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    xp = array_module_of(t)
    if t.size == 0:
        if num_classes <= 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
    else:
        if int(t.min()) < 0:
            raise RuntimeError("Class values must be non-negative.")
        largest = int(t.max())
        if num_classes == -1:
            num_classes = largest + 1
        elif largest >= num_classes:
            raise RuntimeError("Class values must be smaller than num_classes.")
    out = xp.zeros((*t.shape, num_classes), dtype=np.int64)
    out.reshape(-1, num_classes)[xp.arange(t.size), t.reshape(-1)] = 1
    return Tensor._make(out)


# --------------------------------------------------------------------------- more activations
def mish(input: Tensor, inplace: bool = False) -> Tensor:
    """``input * tanh(softplus(input))``."""
    return inplace_ops.apply(input, activation_ops.mish) if inplace else activation_ops.mish(input)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    """``relu6(input + 3) / 6``: 0 below -3, 1 above 3, linear between."""
    return inplace_ops.apply(input, activation_ops.hardsigmoid) if inplace else activation_ops.hardsigmoid(input)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """``input * relu6(input + 3) / 6``."""
    return inplace_ops.apply(input, activation_ops.hardswish) if inplace else activation_ops.hardswish(input)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """Gated linear unit: ``a * sigmoid(b)`` with ``a, b`` the two halves of ``input`` along ``dim``."""
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    size = input.shape[dim]
    if size % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim % input.ndim} is size {size}")
    a, b = shape_ops.chunk(input, 2, dim)
    return binary.mul(a, unary.sigmoid(b))


# --------------------------------------------------------------------------- distances
def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out: Tensor | None = None) -> Tensor:
    """``input / max(||input||_p, eps)``, the norm taken along ``dim``."""
    norm = binary.clamp(reductions.norm(input, p, dim, keepdim=True), min=eps)
    result = binary.div(input, norm)
    if out is not None:
        out.copy_(result)
        return out
    return result


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """``sum(x1 / max(||x1||, eps) * x2 / max(||x2||, eps))`` along ``dim`` (inputs broadcast)."""
    x1, x2 = shape_ops.broadcast_tensors(x1, x2)
    n1 = binary.clamp(reductions.norm(x1, 2, dim, keepdim=True), min=eps)
    n2 = binary.clamp(reductions.norm(x2, 2, dim, keepdim=True), min=eps)
    return reductions.sum(binary.mul(binary.div(x1, n1), binary.div(x2, n2)), dim)


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> Tensor:
    """``||x1 - x2 + eps||_p`` along the last dimension."""
    return reductions.norm(binary.add(binary.sub(x1, x2), eps), p, -1, keepdim=keepdim)


# --------------------------------------------------------------------------- attention
def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None = None,
                                 dropout_p: float = 0.0, is_causal: bool = False, scale: float | None = None,
                                 enable_gqa: bool = False) -> Tensor:
    """``softmax(query @ key^T * scale + bias) @ value`` for ``query (..., L, E)``, ``key (..., S, E)``,
    ``value (..., S, Ev)``; ``scale`` defaults to ``1 / sqrt(E)``.

    ``attn_mask``: a boolean mask (True = *may* attend, the opposite of ``MultiheadAttention``'s
    masks) or a float bias added to the scores; ``is_causal`` masks keys after each query
    (``tril``). ``dropout_p`` drops attention weights (always; pass 0 in evaluation).
    ``enable_gqa`` repeats key/value heads to match the query's.
    """
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
    target, source = query.shape[-2], key.shape[-2]
    if enable_gqa and key.ndim >= 3 and key.shape[-3] != query.shape[-3]:
        repeats = query.shape[-3] // key.shape[-3]
        key = _repeat_heads(key, repeats)
        value = _repeat_heads(value, repeats)
    factor = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    scores = binary.mul(linalg.matmul(query, shape_ops.transpose(key, -2, -1)), factor)
    xp = array_module_of(query._data)
    if is_causal:
        attn_mask = Tensor._make(xp.tril(xp.ones((target, source), dtype=bool)))
    if attn_mask is not None:
        if attn_mask.dtype == dtypes.bool_:
            bias = xp.where(attn_mask._data, 0.0, -np.inf).astype(query._data.dtype)
            scores = binary.add(scores, Tensor._make(bias))
        else:
            scores = binary.add(scores, attn_mask)
    weights = reductions.softmax(scores, -1)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, True)
    return linalg.matmul(weights, value)


def _repeat_heads(t: Tensor, repeats: int) -> Tensor:
    """``t (..., H, S, E)`` with each head repeated ``repeats`` times in place (``repeat_interleave``)."""
    shape = tuple(t.shape)
    expanded = shape_ops.broadcast_to(t.unsqueeze(-3), shape[:-2] + (repeats,) + shape[-2:])
    return expanded.reshape(*shape[:-3], shape[-3] * repeats, *shape[-2:])


# --------------------------------------------------------------------------- resampling
_INTERPOLATING = {"linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3}
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
        align_corners = bool(align_corners)
    else:
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.ndim}D) for "
                                  f"the modes: nearest | linear | bilinear | bicubic | trilinear | area | "
                                  f"nearest-exact (got {mode})")
    if antialias:
        raise NotImplementedError("interpolate: antialias=True is not supported by tinyframe; resample without it")
    in_sizes = tuple(input.shape[2:])
    out_sizes, scales = _resample_sizes(in_sizes, size, scale_factor, recompute_scale_factor)
    if mode == "area":
        pool = {1: adaptive_avg_pool1d, 2: adaptive_avg_pool2d}.get(spatial)
        if pool is None:
            raise NotImplementedError("interpolate: mode 'area' supports 3D and 4D inputs in tinyframe")
        return pool(input, out_sizes)
    out = input
    for i, (n_in, n_out, scale) in enumerate(zip(in_sizes, out_sizes, scales)):
        axis = 2 + i
        if mode == "bicubic":
            out = _cubic_along(out, axis, n_in, n_out, scale, align_corners)
        elif mode in _INTERPOLATING:
            out = _linear_along(out, axis, n_in, n_out, scale, align_corners)
        else:
            out = _nearest_along(out, axis, n_in, n_out, scale, mode == "nearest-exact")
    return out


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


def _cubic_along(x: Tensor, axis: int, n_in: int, n_out: int, scale: float | None, align_corners: bool) -> Tensor:
    """``sum_k w_k(t) * x[clamp(i - 1 + k)]`` over the four neighbours of each source position
    ``i + t``, ``w`` the cubic convolution kernel with ``A = -0.75`` (edges repeated)."""
    xp = array_module_of(x._data)
    source = _source_positions(n_in, n_out, scale, align_corners, cubic=True)
    base = np.floor(source).astype(np.int64)
    t = source - base
    a = _CUBIC_A
    near = [t + 1.0, t, 1.0 - t, 2.0 - t]  # distances to the four neighbours
    weights = [((a * d - 5 * a) * d + 8 * a) * d - 4 * a if k in (0, 3) else ((a + 2) * d - (a + 3)) * d * d + 1
               for k, d in enumerate(near)]
    weight_shape = (n_out,) + (1,) * (x.ndim - 1 - axis)
    out = None
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
    return interpolate(input, size, scale_factor, mode, align_corners)


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


# --------------------------------------------------------------------------- pooling by index
def _adaptive_max_pool(op: str, nd: int, input: Tensor, output_size: Any, return_indices: bool) -> Any:
    """Max over adaptive windows; the maxima are gathered at their flat indices, so the gradient
    goes to each window's (first) maximum."""
    shape = tuple(input.shape)
    if len(shape) not in (nd + 1, nd + 2):
        raise RuntimeError(f"{op}(): Expected {nd + 1}D or {nd + 2}D tensor, but got {list(shape)}")
    sizes = (output_size,) * nd if isinstance(output_size, int) or output_size is None else tuple(output_size)
    if len(sizes) != nd:
        raise RuntimeError(f"{op}: internal error: output_size.size() must be {nd}")
    spatial = shape[-nd:]
    sizes = tuple(n if o is None else int(o) for o, n in zip(sizes, spatial))
    xp = array_module_of(input._data)
    x = input._data.reshape(shape[:-nd] + (-1,))
    windows = [[(o * n // m, -(-(o + 1) * n // m)) for o in range(m)] for n, m in zip(spatial, sizes)]
    indices = xp.empty(shape[:-nd] + sizes, dtype=np.int64)
    for cell in np.ndindex(*sizes):
        ranges = [np.arange(*windows[a][c]) for a, c in enumerate(cell)]
        flat = xp.asarray(np.ravel_multi_index(np.meshgrid(*ranges, indexing="ij"), spatial).reshape(-1))
        indices[(...,) + cell] = flat[xp.argmax(x[..., flat], axis=-1)]
    index = Tensor._make(indices.reshape(shape[:-nd] + (-1,)))
    out = indexing.gather(input.reshape(*shape[:-nd], -1), -1, index).reshape(*shape[:-nd], *sizes)
    if return_indices:
        return out, Tensor._make(indices)
    return out


def adaptive_max_pool1d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """1-d adaptive max pooling of ``input (N, C, L)`` or ``(C, L)``: output ``o`` is the max of
    ``input[..., floor(o*L/n) : ceil((o+1)*L/n)]``; ``return_indices`` also gives its positions."""
    return _adaptive_max_pool("adaptive_max_pool1d", 1, input, output_size, return_indices)


def adaptive_max_pool2d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """2-d adaptive max pooling of ``input (N, C, H, W)`` or ``(C, H, W)``; indices are flat
    positions ``h * W + w`` in each input plane."""
    return _adaptive_max_pool("adaptive_max_pool2d", 2, input, output_size, return_indices)


def _max_unpool(op: str, nd: int, input: Tensor, indices: Tensor, kernel_size: Any, stride: Any, padding: Any,
                output_size: Any) -> Tensor:
    """Each value of ``input`` placed at its flat index in a zero plane (``scatter``)."""
    def tuple_of(value: Any) -> tuple:
        return (value,) * nd if isinstance(value, int) else tuple(value)
    kernel = tuple_of(kernel_size)
    strides = kernel if stride is None else tuple_of(stride)
    pads = tuple_of(padding)
    shape = tuple(input.shape)
    if len(shape) not in (nd + 1, nd + 2):
        raise RuntimeError(f"{op}: Expected {nd + 1}D or {nd + 2}D tensor, but got {list(shape)}")
    if tuple(indices.shape) != shape:
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor ({list(shape)}) but got "
                           f"indices tensor with shape: {list(indices.shape)}")
    default = tuple((n - 1) * s - 2 * p + k for n, s, p, k in zip(shape[-nd:], strides, pads, kernel))
    if output_size is None:
        sizes = default
    else:
        sizes = tuple(output_size)[-nd:]
        if len(sizes) != nd:
            raise ValueError(f"output_size should be a sequence containing {nd} or {nd + 2} elements, but it has a "
                             f"length of '{len(tuple(output_size))}'")
    plane = math.prod(sizes)
    index_data = indices._data.reshape(-1)
    invalid = (index_data < 0) | (index_data >= plane)
    if bool(invalid.any()):
        raise RuntimeError(f"Found an invalid max index: {int(index_data[invalid][0])} (output volumes are of size "
                           f"{'x'.join(str(s) for s in sizes)})")
    flat_input = input.reshape(*shape[:-nd], -1)
    zeros = Tensor._make(array_module_of(input._data).zeros(shape[:-nd] + (plane,), input._data.dtype))
    out = indexing.scatter_add(zeros, -1, indices.reshape(*shape[:-nd], -1), flat_input)
    return out.reshape(*shape[:-nd], *sizes)


def max_unpool1d(input: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 output_size: Any = None) -> Tensor:
    """The partial inverse of ``max_pool1d``: the maxima back at their ``indices``, zeros elsewhere.
    Default output length ``(L - 1) * stride - 2 * padding + kernel_size``."""
    return _max_unpool("max_unpool1d", 1, input, indices, kernel_size, stride, padding, output_size)


def max_unpool2d(input: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 output_size: Any = None) -> Tensor:
    """The partial inverse of ``max_pool2d``: the maxima back at their flat ``indices`` (``h * W + w``),
    zeros elsewhere."""
    return _max_unpool("max_unpool2d", 2, input, indices, kernel_size, stride, padding, output_size)


# --------------------------------------------------------------------------- embedding bags
def embedding_bag(input: Tensor, weight: Tensor, offsets: Tensor | None = None, max_norm: float | None = None,
                  norm_type: float = 2, scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False,
                  per_sample_weights: Tensor | None = None, include_last_offset: bool = False,
                  padding_idx: int | None = None) -> Tensor:
    """Sums, averages or takes the max of the embeddings of each bag of indices, without building the
    ``(bags, length, D)`` lookup the user would otherwise write.

    ``input (B, L)`` holds ``B`` bags of ``L`` indices; a 1-D ``input`` is cut into bags at
    ``offsets`` (bag ``b`` is ``input[offsets[b]:offsets[b+1]]``, the last one running to the end
    unless ``include_last_offset``). ``per_sample_weights`` (mode ``'sum'``) scales each embedding;
    indices equal to ``padding_idx`` are left out. Empty bags give zeros.
    """
    if mode not in ("sum", "mean", "max"):
        raise ValueError(f"mode has to be one of sum, mean or max, got {mode}")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  "GitHub.")
    if input.dtype not in (dtypes.int64, dtypes.int32):
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got {input.dtype} instead")
    positions, valid = _bags(input, offsets, include_last_offset)
    xp = array_module_of(weight._data)
    flat = np.asarray(input.detach().cpu().numpy()).reshape(-1)  # bags are laid out on the host
    ids = flat[positions] * valid
    if padding_idx is not None:
        padding_idx = padding_idx + weight.shape[0] if padding_idx < 0 else padding_idx
        valid = valid & (ids != padding_idx)
    rows = embedding(Tensor._make(xp.asarray(ids)), weight, max_norm=max_norm, norm_type=norm_type,
                     scale_grad_by_freq=scale_grad_by_freq)
    mask = Tensor._make(xp.asarray(valid)[..., None])
    if mode == "max":
        best = reductions.amax(indexing.masked_fill(rows, ~mask, float("-inf")), 1)
        return binary.where(reductions.any(mask, 1), best, 0.0)
    if per_sample_weights is not None:
        scales = indexing.gather(per_sample_weights.reshape(-1), 0, Tensor._make(xp.asarray(positions.reshape(-1))))
        rows = binary.mul(rows, scales.reshape(*positions.shape, 1))
    total = reductions.sum(indexing.masked_fill(rows, ~mask, 0.0), 1)
    if mode == "sum":
        return total
    counts = xp.maximum(xp.asarray(valid).sum(axis=1, keepdims=True), 1).astype(weight._data.dtype)
    return binary.div(total, Tensor._make(counts))


def _bags(input: Tensor, offsets: Tensor | None, include_last_offset: bool) -> tuple:
    """``(positions (B, longest), valid (B, longest))``: where each bag's entries sit in the flat input."""
    if input.ndim == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             "fixed length sequences. However, found offsets of type Tensor")
        bags, length = input.shape
        positions = np.arange(bags * length).reshape(bags, length)
        return positions, np.ones((bags, length), dtype=bool)
    if input.ndim != 1:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.ndim}")
    if offsets is None:
        raise ValueError("offsets has to be a 1D Tensor but got None")
    if offsets.ndim != 1:
        raise ValueError("offsets has to be a 1D Tensor")
    starts = np.asarray(offsets.detach().cpu().numpy(), dtype=np.int64)
    total = input.shape[0]
    ends = starts[1:] if include_last_offset else np.append(starts[1:], total)
    starts = starts[:-1] if include_last_offset else starts
    lengths = np.maximum(ends - starts, 0)
    longest = max(int(lengths.max()) if lengths.size else 0, 1)
    positions = starts[:, None] + np.arange(longest)
    valid = np.arange(longest) < lengths[:, None]
    return np.where(valid, positions, 0), valid


# --------------------------------------------------------------------------- instance norm, 3-d convolution
def instance_norm(input: Tensor, running_mean: Tensor | None = None, running_var: Tensor | None = None,
                  weight: Tensor | None = None, bias: Tensor | None = None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalises each channel of each sample over its spatial positions:
    ``y = (x - E[x]) / sqrt(Var[x] + eps) * weight[c] + bias[c]`` for ``input (N, C, *)``.

    Runs as ``batch_norm`` on the ``(1, N*C, *)`` view; running statistics (when given) are
    updated with the average over the batch of each sample's statistics.
    """
    n, c = input.shape[:2]
    repeated = [None if t is None else t.repeat(n) for t in (running_mean, running_var, weight, bias)]
    mean, var, w, b = repeated
    out = batch_norm(input.reshape(1, n * c, *input.shape[2:]), mean, var, w, b, use_input_stats, momentum, eps)
    if use_input_stats:
        for running, updated in ((running_mean, mean), (running_var, var)):
            if running is not None:
                running.copy_(updated.reshape(n, c).mean(0))
    return out.reshape(input.shape)


def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0,
           dilation: Any = 1, groups: int = 1) -> Tensor:
    """3-d convolution of ``input (N, C_in, D, H, W)`` or ``(C_in, D, H, W)`` with
    ``weight (C_out, C_in/groups, kD, kH, kW)``: the sum over the ``kD`` kernel depths ``k`` of
    2-d convolutions of the depth slices ``d*sD + k*dD`` of the (padded) input with ``weight[:, :, k]``.
    ``D_out = floor((D + 2*pD - dD*(kD-1) - 1) / sD) + 1``, and likewise ``H_out``, ``W_out``.
    """
    if input.ndim not in (4, 5):
        raise RuntimeError(f"Expected 4D (unbatched) or 5D (batched) input to conv3d, but got input of size: "
                           f"{list(input.shape)}")
    if weight.ndim != 5:
        raise RuntimeError(f"conv3d: expected weight to be 5-dimensional, but got weight of size "
                           f"{list(weight.shape)}")
    batched = input.ndim == 5
    x = input if batched else input.unsqueeze(0)
    strides = (stride,) * 3 if isinstance(stride, int) else tuple(stride)
    dilations = (dilation,) * 3 if isinstance(dilation, int) else tuple(dilation)
    kernel = tuple(weight.shape[2:])
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        if padding == "same" and any(s != 1 for s in strides):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        totals = [d * (k - 1) if padding == "same" else 0 for d, k in zip(dilations, kernel)]
        pads = [(t // 2, t - t // 2) for t in totals]
    else:
        pads = [(p, p) for p in ((padding,) * 3 if isinstance(padding, int) else tuple(padding))]
    x = pad(x, [amount for before_after in reversed(pads) for amount in before_after])
    reach = tuple(d * (k - 1) + 1 for d, k in zip(dilations, kernel))
    if any(n < r for n, r in zip(x.shape[2:], reach)):
        raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, x.shape[2:]))}). "
                           f"Kernel size: ({' x '.join(map(str, reach))}). Kernel size can't be greater than actual "
                           "input size")
    depth, (k_depth, s_depth, d_depth) = x.shape[2], (kernel[0], strides[0], dilations[0])
    out_depth = (depth - reach[0]) // s_depth + 1
    n, c = x.shape[:2]
    out = None
    for k in range(k_depth):
        start = k * d_depth
        slices = x[:, :, start:start + s_depth * (out_depth - 1) + 1:s_depth]
        planes = shape_ops.transpose(slices, 1, 2).reshape(n * out_depth, c, *x.shape[3:])
        term = conv2d(planes, weight[:, :, k], None, strides[1:], 0, dilations[1:], groups)
        out = term if out is None else binary.add(out, term)
    out = shape_ops.transpose(out.reshape(n, out_depth, *out.shape[1:]), 1, 2)
    if bias is not None:
        out = binary.add(out, bias.reshape(-1, 1, 1, 1))
    return out if batched else out.squeeze(0)


# --------------------------------------------------------------------------- activations composed of others
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    """``scale * elu(input, alpha)`` with PyTorch's self-normalising constants."""
    if inplace:
        return inplace_ops.apply(input, selu)
    return binary.mul(unary.elu(input, _SELU_ALPHA), _SELU_SCALE)


def selu_(input: Tensor) -> Tensor:
    return selu(input, True)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError")
    if inplace:
        return inplace_ops.apply(input, celu, alpha)
    return binary.mul(unary.elu(binary.div(input, alpha), 1.0), alpha)


def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    return celu(input, alpha, True)


def softsign(input: Tensor) -> Tensor:
    """``input / (1 + |input|)``."""
    return binary.div(input, binary.add(unary.abs(input), 1.0))


def softmin(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None) -> Tensor:
    """``softmax(-input)`` along ``dim``."""
    if dim is None:
        dim = _implicit_softmax_dim("softmin", input.ndim, _stacklevel)
    return reductions.softmax(unary.neg(input), dim, dtype=dtype)


def _threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """``input`` where it is greater than ``threshold``, ``value`` elsewhere."""
    if inplace:
        return inplace_ops.apply(input, _threshold, threshold, value)
    return binary.where(binary.gt(input, threshold), input, value)


threshold = _threshold  # PyTorch's name; the function's own parameter is also called threshold


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    return _threshold(input, threshold, value, True)


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``input`` where ``|input| > lambd``, 0 elsewhere."""
    return binary.where(binary.gt(unary.abs(input), lambd), input, 0.0)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``input - lambd`` above ``lambd``, ``input + lambd`` below ``-lambd``, 0 between."""
    if lambd < 0:
        raise RuntimeError(f"lambda must be greater or equal to 0, but found to be {lambd}.")
    shrunk = binary.sub(input, binary.mul(unary.sign(input), lambd))
    return binary.where(binary.gt(unary.abs(input), lambd), shrunk, 0.0)


def tanhshrink(input: Tensor) -> Tensor:
    """``input - tanh(input)``."""
    return binary.sub(input, unary.tanh(input))


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """``input`` where non-negative, ``weight * input`` elsewhere; ``weight`` has one value or one per
    channel (dimension 1)."""
    if weight.numel() != 1:
        channels = input.shape[1] if input.ndim >= 2 else input.shape[0]
        if weight.numel() != channels:
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                               f"{weight.numel()} and channel size = {channels}.")
        if input.ndim >= 2:
            weight = weight.reshape(channels, *([1] * (input.ndim - 2)))
    return binary.where(binary.ge(input, 0.0), input, binary.mul(weight, input))


def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False,
          inplace: bool = False) -> Tensor:
    """Randomized leaky ReLU: negative inputs scaled by a slope drawn from ``U(lower, upper)`` per
    element in training, by ``(lower + upper) / 2`` in evaluation."""
    if inplace:
        return inplace_ops.apply(input, rrelu, lower, upper, training)
    if not training:
        return unary.leaky_relu(input, (lower + upper) / 2)
    data = input._data
    state = generator_for(device_of(data)).state
    draw = state.random(data.shape) if hasattr(state, "random") else state.random_sample(data.shape)
    slopes = array_module_of(data).asarray(lower + (upper - lower) * draw, dtype=data.dtype)
    return binary.where(binary.ge(input, 0.0), input, binary.mul(input, Tensor._make(slopes)))


def gumbel_softmax(logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10, dim: int = -1) -> Tensor:
    """``softmax((logits + g) / tau)`` with Gumbel noise ``g = -log(Exp(1))``; ``hard`` returns the
    one-hot of the argmax with the soft sample's gradient (straight-through)."""
    data = logits._data
    state = generator_for(device_of(data)).state
    uniform = state.random(data.shape) if hasattr(state, "random") else state.random_sample(data.shape)
    xp = array_module_of(data)
    gumbels = (-xp.log(-xp.log1p(-xp.asarray(uniform)))).astype(data.dtype)
    soft = reductions.softmax(binary.div(binary.add(logits, Tensor._make(gumbels)), tau), dim)
    if not hard:
        return soft
    index = xp.expand_dims(xp.argmax(soft._data, axis=dim), dim)
    one_hot_array = xp.zeros_like(soft._data)
    xp.put_along_axis(one_hot_array, index, 1.0, axis=dim)
    return binary.add(binary.sub(Tensor._make(one_hot_array), soft.detach()), soft)


# --------------------------------------------------------------------------- channel dropouts
def _feature_dropout(name: str, input: Tensor, p: float, training: bool, inplace: bool, feature_dims: int) -> Tensor:
    """Zeroes whole channels (their last ``feature_dims`` dimensions at once)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0 or input.numel() == 0:
        return input
    batched = input.ndim == feature_dims + 2
    if input.ndim not in (feature_dims + 1, feature_dims + 2):
        raise RuntimeError(f"{name}: Expected {feature_dims + 1}D or {feature_dims + 2}D input, but received a "
                           f"{input.ndim}D input. Note that {name} exists to provide channel-wise dropout on inputs "
                           f"with {feature_dims} spatial dimensions, a channel dimension, and an optional batch "
                           "dimension (i.e. " + f"{feature_dims + 1}D or {feature_dims + 2}D inputs).")
    lead = tuple(input.shape[:2] if batched else input.shape[:1])
    return _apply_dropout_mask(input, _bernoulli_keep(input, lead + (1,) * feature_dims, p), p, False, inplace)


def _apply_dropout_mask(input: Tensor, keep: Any, p: float, alpha: bool, inplace: bool) -> Tensor:
    """``input * keep / (1 - p)`` for ``keep`` of 0s and 1s; for alpha dropout PyTorch's affine map
    ``input * keep * a + b``, ``b = (keep - 1) * alpha * a + alpha * a * p``, which keeps SELU's
    zero mean and unit variance."""
    if not alpha:
        mask = Tensor._make(keep / (1.0 - p) if p < 1.0 else keep)
        return inplace_ops.apply(input, binary.mul, mask) if inplace else binary.mul(input, mask)
    if p == 1.0:
        return binary.mul(input, 0.0)
    saturation = _SELU_ALPHA * _SELU_SCALE
    a = 1.0 / math.sqrt((saturation * saturation * p + 1) * (1 - p))
    offset = Tensor._make((keep - 1.0) * (saturation * a) + saturation * a * p)
    scale = Tensor._make(keep * a)
    if inplace:
        return inplace_ops.apply(input, _affine, scale, offset)
    return _affine(input, scale, offset)


def _affine(input: Tensor, scale: Tensor, offset: Tensor) -> Tensor:
    return binary.add(binary.mul(input, scale), offset)


def _bernoulli_keep(input: Tensor, shape: tuple, p: float) -> Any:
    """0/1 in ``shape``, 1 with probability ``1 - p``, drawn like ``dropout``'s mask."""
    probe = array_module_of(input._data).empty(shape, input._data.dtype)
    return _dropout_mask(probe, p) * (1.0 - p) if p < 1.0 else probe * 0


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zeroes whole channels of ``(N, C, L)`` or ``(C, L)`` with probability ``p``, scaling the rest by
    ``1 / (1 - p)``."""
    return _feature_dropout("dropout1d", input, p, training, inplace, 1)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zeroes whole channels of ``(N, C, H, W)`` or ``(C, H, W)`` with probability ``p``."""
    return _feature_dropout("dropout2d", input, p, training, inplace, 2)


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zeroes whole channels of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` with probability ``p``."""
    return _feature_dropout("dropout3d", input, p, training, inplace, 3)


def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    """Dropout for SELU networks: dropped elements take SELU's negative saturation value and an
    affine map restores the mean and variance."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0 or input.numel() == 0:
        return input
    return _apply_dropout_mask(input, _bernoulli_keep(input, tuple(input.shape), p), p, True, inplace)


def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    """``alpha_dropout`` of whole channels (dimension 1)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0 or input.numel() == 0:
        return input
    shape = tuple(input.shape[:2]) + (1,) * (input.ndim - 2)
    return _apply_dropout_mask(input, _bernoulli_keep(input, shape, p), p, True, inplace)


# --------------------------------------------------------------------------- more losses
def _reduced(losses: Tensor, reduction: str, size_average: bool | None = None, reduce: bool | None = None) -> Tensor:
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    if reduction == "mean":
        return reductions.mean(losses)
    if reduction == "sum":
        return reductions.sum(losses)
    if reduction == "none":
        return losses
    raise ValueError(f"{reduction} is not a valid value for reduction")


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                        size_average: bool | None = None, reduce: bool | None = None,
                        reduction: str = "mean") -> Tensor:
    """``max(0, -target * (input1 - input2) + margin)``, ``target`` in {1, -1}."""
    if input1.ndim != input2.ndim or input1.ndim != target.ndim:
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.shape}, input2: {input2.shape}, target: {target.shape} ")
    gap = binary.add(binary.mul(unary.neg(target), binary.sub(input1, input2)), margin)
    return _reduced(binary.clamp(gap, min=0.0), reduction, size_average, reduce)


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0, size_average: bool | None = None,
                         reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """``input`` where ``target == 1``, ``max(0, margin - input)`` where ``target == -1``."""
    margin_part = binary.where(binary.ne(target, 1), binary.clamp(binary.sub(margin, input), min=0.0), 0.0)
    self_part = binary.where(binary.ne(target, -1), input, 0.0)
    return _reduced(binary.add(margin_part, self_part), reduction, size_average, reduce)


def soft_margin_loss(input: Tensor, target: Tensor, size_average: bool | None = None, reduce: bool | None = None,
                     reduction: str = "mean") -> Tensor:
    """``log(1 + exp(-target * input))``."""
    return _reduced(unary.softplus(binary.mul(unary.neg(target), input), 1.0, 20.0), reduction, size_average,
                    reduce)


def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                size_average: bool | None = None, reduce: bool | None = None,
                                reduction: str = "mean") -> Tensor:
    """``-mean_c(y_c log sigmoid(x_c) + (1 - y_c) log sigmoid(-x_c))`` per sample (weighted per class)."""
    losses = unary.neg(binary.add(binary.mul(target, unary.logsigmoid(input)),
                                  binary.mul(binary.sub(1.0, target), unary.logsigmoid(unary.neg(input)))))
    if weight is not None:
        losses = binary.mul(losses, weight)
    per_sample = binary.div(reductions.sum(losses, input.ndim - 1), input.shape[-1])
    return _reduced(per_sample, reduction, size_average, reduce)


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                          size_average: bool | None = None, reduce: bool | None = None,
                          reduction: str = "mean") -> Tensor:
    """``1 - cos(x1, x2)`` where ``target == 1``, ``max(0, cos(x1, x2) - margin)`` where ``target == -1``."""
    dim = input1.ndim - 1
    eps = 1e-12
    dot = reductions.sum(binary.mul(input1, input2), dim)
    norms = binary.mul(binary.add(reductions.sum(binary.mul(input1, input1), dim), eps),
                       binary.add(reductions.sum(binary.mul(input2, input2), dim), eps))
    cos = binary.div(dot, unary.sqrt(norms))
    positive = binary.where(binary.eq(target, 1), binary.sub(1.0, cos), 0.0)
    negative = binary.where(binary.eq(target, -1), binary.clamp(binary.sub(cos, margin), min=0.0), 0.0)
    return _reduced(binary.add(positive, negative), reduction, size_average, reduce)


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: float = 2,
                        eps: float = 1e-6, swap: bool = False, size_average: bool | None = None,
                        reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """``max(0, margin + d(a, p) - d(a, n))`` with ``d`` the ``p``-norm distance (``swap`` takes the
    smaller of ``d(a, n)`` and ``d(p, n)``)."""
    def distance(x: Tensor, y: Tensor) -> Tensor:
        return pairwise_distance(x, y, p, eps)
    return triplet_margin_with_distance_loss(anchor, positive, negative, distance_function=distance, margin=margin,
                                             swap=swap, reduction=legacy_reduction(size_average, reduce)
                                             if size_average is not None or reduce is not None else reduction)


def triplet_margin_with_distance_loss(anchor: Tensor, positive: Tensor, negative: Tensor, *,
                                      distance_function: Any = None, margin: float = 1.0, swap: bool = False,
                                      reduction: str = "mean") -> Tensor:
    """``max(0, margin + d(a, p) - d(a, n))`` for any distance ``d`` (default ``pairwise_distance``)."""
    if margin <= 0:
        raise ValueError(f"TripletMarginWithDistanceLoss: expected margin to be greater than 0, got {margin} instead")
    distance = pairwise_distance if distance_function is None else distance_function
    to_positive, to_negative = distance(anchor, positive), distance(anchor, negative)
    if swap:
        to_negative = binary.minimum(to_negative, distance(positive, negative))
    losses = binary.clamp(binary.add(binary.sub(to_positive, to_negative), margin), min=0.0)
    return _reduced(losses, reduction)


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False,
                     size_average: bool | None = None, eps: float = 1e-8, reduce: bool | None = None,
                     reduction: str = "mean") -> Tensor:
    """``exp(input) - target * input`` (``log_input``) or ``input - target * log(input + eps)``; ``full``
    adds Stirling's ``target * log(target) - target + 0.5 * log(2 * pi * target)`` where ``target > 1``."""
    if log_input:
        losses = binary.sub(unary.exp(input), binary.mul(target, input))
    else:
        losses = binary.sub(input, binary.mul(target, unary.log(binary.add(input, eps))))
    if full:
        counts = binary.clamp(target, min=1.0)  # the term is used where target > 1 only: no log(0) elsewhere
        stirling = binary.add(binary.sub(binary.mul(counts, unary.log(counts)), counts),
                              binary.mul(unary.log(binary.mul(counts, 2 * math.pi)), 0.5))
        losses = binary.add(losses, binary.where(binary.gt(target, 1), stirling, 0.0))
    return _reduced(losses, reduction, size_average, reduce)


def gaussian_nll_loss(input: Tensor, target: Tensor, var: Tensor | float, full: bool = False, eps: float = 1e-6,
                      reduction: str = "mean") -> Tensor:
    """``0.5 * (log(max(var, eps)) + (input - target)^2 / max(var, eps))`` (+ ``0.5 * log(2 pi)`` with
    ``full``); ``var`` is per element, per sample (one dimension fewer) or a number."""
    if not isinstance(var, Tensor):
        var = Tensor._make(array_module_of(input._data).full((), float(var), input._data.dtype))
    if tuple(var.shape) != tuple(input.shape):
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = var.unsqueeze(-1)
        elif not (tuple(input.shape[:-1]) == tuple(var.shape[:-1]) and var.shape[-1] == 1) and var.ndim != 0:
            raise ValueError("var is of incorrect size")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(reduction + " is not valid")
    if bool((var._data < 0).any()):
        raise ValueError("var has negative entry/entries")
    # clamped outside autograd, as PyTorch does: the gradient reaches var as if unclamped
    clamped = binary.add(var, Tensor._make(array_module_of(var._data).maximum(var._data, eps) - var._data))
    losses = binary.mul(binary.add(unary.log(clamped), binary.div(unary.square(binary.sub(input, target)), clamped)),
                        0.5)
    if full:
        losses = binary.add(losses, 0.5 * math.log(2 * math.pi))
    return _reduced(losses, reduction)


def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0, weight: Tensor | None = None,
                      size_average: bool | None = None, reduce: bool | None = None,
                      reduction: str = "mean") -> Tensor:
    """``sum_{i != y} max(0, margin - x[y] + x[i])^p / C`` per sample (times ``weight[y]``)."""
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    x = input if input.ndim == 2 else input.reshape(1, -1)
    index = target.reshape(-1, 1)
    chosen = indexing.gather(x, 1, index)
    gaps = binary.clamp(binary.add(binary.sub(x, chosen), margin), min=0.0)
    if p == 2:
        gaps = unary.square(gaps)
    if weight is not None:
        gaps = binary.mul(gaps, indexing.gather(weight, 0, target.reshape(-1)).reshape(-1, 1))
    not_target = Tensor._make(array_module_of(x._data).arange(x.shape[1])[None, :] != index._data)
    losses = binary.div(reductions.sum(binary.where(not_target, gaps, 0.0), 1), x.shape[1])
    if input.ndim != 2:
        losses = losses.reshape(()) if input.ndim <= 1 else losses
    return _reduced(losses, reduction, size_average, reduce)


# --------------------------------------------------------------------------- more pooling and normalisation
def lp_pool1d(input: Tensor, norm_type: float, kernel_size: int, stride: Any = None,
              ceil_mode: bool = False) -> Tensor:
    """``(sum over each window of x^p)^(1/p)``: ``avg_pool1d`` of ``x^p`` times the window size."""
    pooled = avg_pool1d(binary.pow(input, norm_type), kernel_size, stride, 0, ceil_mode)
    size = kernel_size if isinstance(kernel_size, int) else kernel_size[0]
    return _lp_finish(pooled, size, norm_type)


def lp_pool2d(input: Tensor, norm_type: float, kernel_size: Any, stride: Any = None,
              ceil_mode: bool = False) -> Tensor:
    """``(sum over each window of x^p)^(1/p)`` on ``(N, C, H, W)``."""
    kh, kw = (kernel_size, kernel_size) if isinstance(kernel_size, int) else kernel_size
    pooled = avg_pool2d(binary.pow(input, norm_type), kernel_size, stride, 0, ceil_mode)
    return _lp_finish(pooled, kh * kw, norm_type)


def _lp_finish(pooled: Tensor, window: int, norm_type: float) -> Tensor:
    signed = binary.mul(unary.sign(pooled), unary.relu(unary.abs(pooled)))
    return binary.pow(binary.mul(signed, window), 1.0 / norm_type)


def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> Tensor:
    """``x / (k + alpha * mean over the ``size`` neighbouring channels of x^2)^beta``."""
    if input.ndim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input (got {input.ndim} dimensions)")
    if input.numel() == 0:
        return input
    shape = tuple(input.shape)
    squares = binary.mul(input, input).reshape(shape[0], 1, shape[1], -1)
    squares = pad(squares, (0, 0, size // 2, (size - 1) // 2))
    div = avg_pool2d(squares, (size, 1), stride=1).reshape(shape)
    return binary.div(input, binary.pow(binary.add(binary.mul(div, alpha), k), beta))


def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """``(N, g*c, *) -> (N, c*g, *)``: channel ``i*c + j`` moves to ``j*g + i``."""
    n, channels = input.shape[:2]
    if channels % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {channels} channels and {groups} "
                           "groups.")
    rest = tuple(input.shape[2:])
    grouped = input.reshape(n, groups, channels // groups, *rest)
    return shape_ops.transpose(grouped, 1, 2).reshape(n, channels, *rest)


def pdist(input: Tensor, p: float = 2) -> Tensor:
    """The ``p``-norm distances between the rows of ``input (N, M)``, for ``i < j`` in row-major order."""
    if input.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.ndim}D")
    rows, cols = np.triu_indices(input.shape[0], 1)
    xp = array_module_of(input._data)
    first = indexing.index_select(input, 0, Tensor._make(xp.asarray(rows)))
    second = indexing.index_select(input, 0, Tensor._make(xp.asarray(cols)))
    return reductions.norm(binary.sub(first, second), p, 1)


def upsample_nearest(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:
    """``interpolate(mode='nearest')`` (deprecated in PyTorch)."""
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:
    """``interpolate(mode='bilinear', align_corners=True)`` (deprecated in PyTorch)."""
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def max_pool1d_with_indices(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
                            dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = True) -> tuple:
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool2d_with_indices(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
                            dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = True) -> tuple:
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def adaptive_max_pool1d_with_indices(input: Tensor, output_size: Any, return_indices: bool = True) -> tuple:
    return adaptive_max_pool1d(input, output_size, True)


def adaptive_max_pool2d_with_indices(input: Tensor, output_size: Any, return_indices: bool = True) -> tuple:
    return adaptive_max_pool2d(input, output_size, True)


# --------------------------------------------------------------------------- 3-d pooling, composed along depth
def _triple(value: Any) -> tuple:
    return (value,) * 3 if isinstance(value, int) else tuple(value)


def _pooled_size(size: int, kernel: int, stride: int, padding: int, dilation: int, ceil_mode: bool) -> int:
    """PyTorch's ``pooling_output_shape``: in ceil mode the last window must start inside the input
    or its left padding."""
    out = (size + 2 * padding - dilation * (kernel - 1) - 1 + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (out - 1) * stride >= size + padding:
        out -= 1
    return out


def _depth_slabs(x: Tensor, kernel: int, stride: int, padding: int, dilation: int, ceil_mode: bool,
                 fill: float) -> list:
    """For each kernel depth offset, the input slices ``(N, C, D_out, H, W)`` it meets, the depth
    padded with ``fill`` (including the overrun of a ceil-mode last window)."""
    depth = x.shape[2]
    out = _pooled_size(depth, kernel, stride, padding, dilation, ceil_mode)
    reach = (out - 1) * stride + dilation * (kernel - 1) + 1
    after = max(reach - depth - padding, 0)
    padded = pad(x, (0, 0, 0, 0, padding, after), value=fill) if padding or after else x
    return [padded[:, :, k * dilation:k * dilation + (out - 1) * stride + 1:stride] for k in range(kernel)]


def _as_batched_3d(op: str, input: Tensor) -> tuple:
    if input.ndim not in (4, 5):
        raise RuntimeError(f"{op}: Expected 4D or 5D tensor for input, but got: {list(input.shape)}")
    return (input, True) if input.ndim == 5 else (input.unsqueeze(0), False)


def _planes(x: Tensor) -> Tensor:
    """``(N, C, D, H, W)`` as ``(N, C*D, H, W)`` for the 2-d pools."""
    n, c, d = x.shape[:3]
    return x.reshape(n, c * d, *x.shape[3:])


def max_pool3d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               ceil_mode: bool = False, return_indices: bool = False) -> Tensor:
    """3-d max pooling of ``(N, C, D, H, W)`` or ``(C, D, H, W)``: the max over the depth offsets of a
    window, then ``max_pool2d`` over height and width."""
    if return_indices:
        raise NotImplementedError("max_pool3d: return_indices=True is not supported by tinyframe; use max_pool2d "
                                  "on depth slices if you need the indices")
    x, batched = _as_batched_3d("max_pool3d", input)
    kernel = _triple(kernel_size)
    strides = kernel if stride is None else _triple(stride)
    pads, dilations = _triple(padding), _triple(dilation)
    slabs = _depth_slabs(x, kernel[0], strides[0], pads[0], dilations[0], ceil_mode, float("-inf"))
    deepest = slabs[0]
    for slab in slabs[1:]:
        deepest = binary.maximum(deepest, slab)
    n, c, depth = deepest.shape[:3]
    out = max_pool2d(_planes(deepest), kernel[1:], strides[1:], pads[1:], dilations[1:], ceil_mode)
    out = out.reshape(n, c, depth, *out.shape[2:])
    return out if batched else out.squeeze(0)


def avg_pool3d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """3-d average pooling of ``(N, C, D, H, W)`` or ``(C, D, H, W)``: window sums (along depth, then
    ``avg_pool2d`` sums) divided by the window size, or by the positions inside the input when
    ``count_include_pad=False``, or by ``divisor_override``."""
    x, batched = _as_batched_3d("avg_pool3d", input)
    kernel = _triple(kernel_size)
    strides = kernel if stride is None else _triple(stride)
    pads = _triple(padding)
    slabs = _depth_slabs(x, kernel[0], strides[0], pads[0], 1, ceil_mode, 0.0)
    total = slabs[0]
    for slab in slabs[1:]:
        total = binary.add(total, slab)
    n, c, depth = total.shape[:3]
    sums = avg_pool2d(_planes(total), kernel[1:], strides[1:], pads[1:], ceil_mode, True, 1)
    sums = sums.reshape(n, c, depth, *sums.shape[2:])
    if divisor_override is not None:
        out = binary.div(sums, divisor_override)
    else:
        counts = [_window_counts(size, out, k, s, p, count_include_pad)
                  for size, out, k, s, p in zip(x.shape[2:], sums.shape[2:], kernel, strides, pads)]
        divisor = counts[0][:, None, None] * counts[1][None, :, None] * counts[2][None, None, :]
        out = binary.div(sums, Tensor._make(array_module_of(x._data).asarray(divisor.astype(x._data.dtype))))
    return out if batched else out.squeeze(0)


def _window_counts(size: int, out: int, kernel: int, stride: int, padding: int, include_pad: bool) -> np.ndarray:
    """How many positions each window along one axis divides by (PyTorch's rule, per axis)."""
    start = np.arange(out) * stride - padding
    end = np.minimum(start + kernel, size + padding)
    if include_pad:
        return end - start
    return np.minimum(end, size) - np.maximum(start, 0)


def adaptive_avg_pool3d(input: Tensor, output_size: Any) -> Tensor:
    """3-d adaptive average pooling: averages over adaptive depth windows, then ``adaptive_avg_pool2d``."""
    x, batched = _as_batched_3d("adaptive_avg_pool3d", input)
    sizes = _triple(output_size) if output_size is not None else (None,) * 3
    sizes = tuple(n if o is None else o for o, n in zip(sizes, x.shape[2:]))
    depth = x.shape[2]
    windows = [(o * depth // sizes[0], -(-(o + 1) * depth // sizes[0])) for o in range(sizes[0])]
    means = shape_ops.stack([reductions.mean(x[:, :, a:b], 2) for a, b in windows], 2)
    n, c = x.shape[:2]
    out = adaptive_avg_pool2d(_planes(means), sizes[1:]).reshape(n, c, *sizes)
    return out if batched else out.squeeze(0)


def adaptive_max_pool3d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """3-d adaptive max pooling of ``(N, C, D, H, W)`` or ``(C, D, H, W)``; indices are flat positions
    in each ``D*H*W`` volume."""
    return _adaptive_max_pool("adaptive_max_pool3d", 3, input, output_size, return_indices)


def max_unpool3d(input: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 output_size: Any = None) -> Tensor:
    """The partial inverse of a 3-d max pool: values back at their flat ``indices``, zeros elsewhere."""
    return _max_unpool("max_unpool3d", 3, input, indices, kernel_size, stride, padding, output_size)


def lp_pool3d(input: Tensor, norm_type: float, kernel_size: Any, stride: Any = None,
              ceil_mode: bool = False) -> Tensor:
    """``(sum over each window of x^p)^(1/p)`` on ``(N, C, D, H, W)``."""
    kernel = _triple(kernel_size)
    pooled = avg_pool3d(binary.pow(input, norm_type), kernel, stride, 0, ceil_mode)
    return _lp_finish(pooled, math.prod(kernel), norm_type)


def conv_transpose3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0,
                     output_padding: Any = 0, groups: int = 1, dilation: Any = 1) -> Tensor:
    """3-d transposed convolution of ``(N, C_in, D, H, W)`` or ``(C_in, D, H, W)`` with
    ``weight (C_in, C_out/groups, kD, kH, kW)``: each kernel depth ``k`` is a 2-d transposed
    convolution of every input depth slice ``d``, landing at output depth ``d*sD + k*dD - pD``.
    ``D_out = (D - 1)*sD - 2*pD + dD*(kD - 1) + output_padding_D + 1``, and likewise ``H``, ``W``."""
    x, batched = _as_batched_3d("conv_transpose3d", input)
    strides, pads, extras, dilations = _triple(stride), _triple(padding), _triple(output_padding), _triple(dilation)
    if weight.ndim != 5:
        raise RuntimeError(f"conv_transpose3d: expected weight to be 5-dimensional, but got weight of size "
                           f"{list(weight.shape)}")
    n, c, depth = x.shape[:3]
    k_depth = weight.shape[2]
    full = (depth - 1) * strides[0] + dilations[0] * (k_depth - 1) + 1 + extras[0]
    planes = shape_ops.transpose(x, 1, 2).reshape(n * depth, c, *x.shape[3:])
    out = None
    for k in range(k_depth):
        y = conv_transpose2d(planes, weight[:, :, k], None, strides[1:], pads[1:], extras[1:], groups, dilations[1:])
        y = y.reshape(n, depth, *y.shape[1:])
        if strides[0] > 1:  # (s - 1) zero slices after each input depth
            zeros = binary.mul(y, 0.0)
            y = shape_ops.stack([y] + [zeros] * (strides[0] - 1), 2).reshape(n, depth * strides[0], *y.shape[2:])
            y = y[:, :(depth - 1) * strides[0] + 1]
        before = k * dilations[0]
        y = pad(y, (0, 0, 0, 0, 0, 0, before, full - before - y.shape[1]))
        out = y if out is None else binary.add(out, y)
    out = shape_ops.transpose(out[:, pads[0]:full - pads[0]], 1, 2)
    if bias is not None:
        out = binary.add(out, bias.reshape(-1, 1, 1, 1))
    return out if batched else out.squeeze(0)


# --------------------------------------------------------------------------- spatial transformers
_ALIGN_CORNERS_WARNING = ("Default grid_sample and affine_grid behavior has changed to align_corners=False since "
                          "1.3.0. Please specify align_corners=True if the old behavior is desired. See the "
                          "documentation of grid_sample for details.")


def affine_grid(theta: Tensor, size: Any, align_corners: bool | None = None) -> Tensor:
    """The sampling grid ``(N, H, W, 2)`` of the affine maps ``theta (N, 2, 3)`` for an output of
    ``size = (N, C, H, W)``: ``grid[n, h, w] = theta[n] @ (x_w, y_h, 1)`` over normalised
    coordinates in ``[-1, 1]`` (pixel centres unless ``align_corners``)."""
    if align_corners is None:
        warnings.warn(_ALIGN_CORNERS_WARNING, UserWarning, stacklevel=2)
        align_corners = False
    size = tuple(size)
    if len(size) != 4:
        raise NotImplementedError(f"affine_grid only supports 4D sizes in tinyframe, for 2D affine "
                                  f"transformations. Got size {list(size)}.")
    if theta.ndim != 3 or tuple(theta.shape[1:]) != (2, 3):
        raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size "
                         f"tinyframe.Size({list(size)}). Got {list(theta.shape)}.")
    n, _, h, w = size

    def axis(steps: int) -> np.ndarray:
        values = np.linspace(-1.0, 1.0, steps) if steps > 1 else np.zeros(1)
        return values if align_corners else values * (steps - 1) / steps
    xs, ys = np.meshgrid(axis(w), axis(h))
    base = np.stack([xs, ys, np.ones_like(xs)], -1).reshape(1, h * w, 3)
    base = Tensor._make(array_module_of(theta._data).asarray(base.astype(theta._data.dtype)))
    return linalg.matmul(base, shape_ops.transpose(theta, 1, 2)).reshape(n, h, w, 2)


def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear", padding_mode: str = "zeros",
                align_corners: bool | None = None) -> Tensor:
    """Samples ``input (N, C, H, W)`` at the normalised positions ``grid (N, H_out, W_out, 2)``
    (``x`` then ``y``, ``-1`` and ``1`` the edges, or the corner pixels' centres with
    ``align_corners``), bilinearly or at the nearest pixel; positions outside read zeros
    (``padding_mode='zeros'``), the border (``'border'``) or the reflected image (``'reflection'``).
    Differentiable in ``input`` and ``grid``."""
    if mode not in ("bilinear", "nearest"):
        if mode == "bicubic":
            raise NotImplementedError("grid_sample: mode='bicubic' is not supported by tinyframe; use 'bilinear'")
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but "
                         f"got: '{mode}'")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         f"'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        warnings.warn(_ALIGN_CORNERS_WARNING, UserWarning, stacklevel=2)
        align_corners = False
    if input.ndim != 4:
        raise NotImplementedError("grid_sample: tinyframe samples 4-D inputs (N, C, H, W) only")
    n, c, h, w = input.shape
    xs = _source_coordinate(grid[..., 0], w, padding_mode, align_corners)
    ys = _source_coordinate(grid[..., 1], h, padding_mode, align_corners)
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
    tx = binary.sub(xs, Tensor._make(x0)).unsqueeze(1)
    ty = binary.sub(ys, Tensor._make(y0)).unsqueeze(1)
    x0, y0 = x0.astype(np.int64), y0.astype(np.int64)
    top = binary.add(read(x0, y0), binary.mul(binary.sub(read(x0 + 1, y0), read(x0, y0)), tx))
    bottom = binary.add(read(x0, y0 + 1), binary.mul(binary.sub(read(x0 + 1, y0 + 1), read(x0, y0 + 1)), tx))
    return binary.add(top, binary.mul(binary.sub(bottom, top), ty))


def _source_coordinate(coord: Tensor, size: int, padding_mode: str, align_corners: bool) -> Tensor:
    """A normalised coordinate in pixels, then clipped or reflected per ``padding_mode``."""
    if align_corners:
        pixel = binary.mul(binary.add(coord, 1.0), (size - 1) / 2)
    else:
        pixel = binary.div(binary.sub(binary.mul(binary.add(coord, 1.0), size), 1.0), 2)
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
