"""``tinyframe.nn.functional``: the functional form of every layer, activation and loss.

Each function here is the one definition its Module calls. Distances, resampling, pooling by index
and in 3-d, and the margin and likelihood losses live in ``nn/_functional/`` (one concept a file)
and are re-exported here.
"""
from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from .. import _autocast, creation, dtypes, random
from .._dims import wrap_dim
from .._lazy import lazy_module
from ..device import array_module_of, device_of
from ..ops import activation as activation_ops
from ..ops import attention as attention_ops
from ..ops import binary, indexing, linalg, unary
from ..ops import embedding as embedding_ops
from ..ops import inplace as inplace_ops
from ..ops import reduction as reductions
from ..ops import shape as shape_ops
from ..ops._composite import composed_op
from ..ops.activation import prelu
from ..ops.bilinear import bilinear
from ..ops.contraction import baddbmm
from ..ops.convolution import (
    check_convolution_arguments,
    conv1d,
    conv2d,
    conv_tbc,
    conv_transpose1d,
    conv_transpose2d,
)
from ..ops.ctc import ctc_loss
from ..ops.embedding import embedding, embedding_renorm_
from ..ops.fold import fold, unfold
from ..ops.linear import linear
from ..ops.loss import (
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    cross_entropy,
    huber_loss,
    kl_div,
    l1_loss,
    mse_loss,
    nll_loss,
    smooth_l1_loss,
)
from ..ops.normalization import batch_norm, group_norm, layer_norm, rms_norm
from ..ops.padding import pad
from ..ops.pooling import adaptive_avg_pool1d, adaptive_avg_pool2d, avg_pool1d, avg_pool2d, max_pool1d, max_pool2d
from ..random import generator_for
from ..tensor import Tensor
from ._functional.distance import cosine_similarity, normalize, pairwise_distance
from ._functional.fractional_pooling import (
    fractional_max_pool2d,
    fractional_max_pool2d_with_indices,
    fractional_max_pool3d,
    fractional_max_pool3d_with_indices,
)
from ._functional.losses import (
    cosine_embedding_loss,
    gaussian_nll_loss,
    hinge_embedding_loss,
    margin_ranking_loss,
    multi_margin_loss,
    multilabel_margin_loss,
    multilabel_soft_margin_loss,
    poisson_nll_loss,
    soft_margin_loss,
    triplet_margin_loss,
    triplet_margin_with_distance_loss,
)
from ._functional.pooling import (
    _lp_pool,
    adaptive_avg_pool3d,
    adaptive_max_pool1d,
    adaptive_max_pool2d,
    adaptive_max_pool3d,
    avg_pool3d,
    conv_transpose3d,
    lp_pool3d,
    max_pool3d,
    max_pool3d_with_indices,
    max_unpool1d,
    max_unpool2d,
    max_unpool3d,
)
from ._functional.resampling import (
    affine_grid,
    grid_sample,
    interpolate,
    pixel_shuffle,
    pixel_unshuffle,
    upsample,
)

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
            "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d_with_indices", "adaptive_max_pool3d_with_indices",
            "multilabel_margin_loss", "rrelu_", "native_channel_shuffle"]
__all__ += ["fractional_max_pool2d", "fractional_max_pool3d", "fractional_max_pool2d_with_indices",
            "fractional_max_pool3d_with_indices"]
__all__ += ["max_pool3d", "avg_pool3d", "adaptive_avg_pool3d", "adaptive_max_pool3d", "max_unpool3d", "lp_pool3d",
            "conv_transpose3d", "affine_grid", "grid_sample", "conv_tbc", "linear_cross_entropy"]
__all__ += ["max_pool3d_with_indices", "multi_head_attention_forward"]


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
    # PyTorch: empty_like(input).bernoulli_(1 - p).div_(1 - p), the division in input's dtype
    mask = _bernoulli_keep(data, data.shape, p)
    mask /= data.dtype.type(1.0 - p)
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
    return activation_ops.glu(input, dim)


# --------------------------------------------------------------------------- attention
@_autocast.lower_precision
def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None = None,
                                 dropout_p: float = 0.0, is_causal: bool = False, scale: float | None = None,
                                 enable_gqa: bool = False) -> Tensor:
    """``softmax(query @ key^T * scale + bias) @ value`` for ``query (..., L, E)``, ``key (..., S, E)``,
    ``value (..., S, Ev)``; ``scale`` defaults to ``1 / sqrt(E)``.

    ``attn_mask``: a boolean mask (True = *may* attend, the opposite of ``MultiheadAttention``'s
    masks) or a float bias added to the scores; ``is_causal`` masks keys after each query
    (``tril``), on top of ``attn_mask`` where the flash kernel applies (elsewhere both raise).
    ``dropout_p`` drops attention weights (always; pass 0 in evaluation). ``enable_gqa`` repeats
    key/value heads to match the query's. Rows whose every key is masked give zeros.

    As PyTorch on the CPU: one fused node (``ScaledDotProductFlashAttentionForCpuBackward0``) where
    its flash kernel applies (4-D inputs, no dropout, ...), else the math path's ops.
    """
    if min(query.ndim, key.ndim, value.ndim) < 2:
        raise RuntimeError(f"Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: "
                           f"{query.ndim} key.dim: {key.ndim} and value.dim: {value.ndim} instead.")
    if enable_gqa:  # PyTorch reads the head dimension, -3
        wrap_dim(-3, query.ndim)
    target, source = query.shape[-2], key.shape[-2]
    grouped = enable_gqa and key.ndim >= 3 and key.shape[-3] != query.shape[-3]
    factor = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    xp = array_module_of(query._data)
    if attn_mask is not None and attn_mask.dtype == dtypes.bool_:
        attn_mask = Tensor._make(xp.where(attn_mask._data, 0.0, -np.inf).astype(query._data.dtype))
    if is_causal:
        causal = xp.triu(xp.full((target, source), -np.inf, dtype=query._data.dtype), 1)
        if attn_mask is None:
            attn_mask = Tensor._make(causal)
        elif attention_ops.flash_applies(query, key, value, attn_mask, dropout_p, grouped):
            attn_mask = Tensor._make(attn_mask._data + causal)  # PyTorch's flash kernel takes both
        else:
            raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when "
                               "is_causal=True")
    if attention_ops.flash_applies(query, key, value, attn_mask, dropout_p, grouped):
        bias = None if attn_mask is None else attn_mask._data
        return attention_ops.FlashAttention.apply(query, key, value, bias=bias, scale=factor)
    if grouped:
        repeats = query.shape[-3] // key.shape[-3]
        key = _repeat_heads(key, repeats)
        value = _repeat_heads(value, repeats)
    weights = attention_ops.attention_weights(query, key, attn_mask, factor)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, True)
    return attention_ops.batched_matmul(weights, value)


def _repeat_heads(t: Tensor, repeats: int) -> Tensor:
    """``t (..., H, S, E)`` with each head repeated ``repeats`` times in place (``repeat_interleave``)."""
    shape = tuple(t.shape)
    expanded = shape_ops.broadcast_to(t.unsqueeze(-3), shape[:-2] + (repeats,) + shape[-2:])
    return expanded.reshape(*shape[:-3], shape[-3] * repeats, *shape[-2:])



# --------------------------------------------------------------------------- multi-head attention
def multi_head_attention_forward(query: Tensor, key: Tensor, value: Tensor, embed_dim_to_check: int, num_heads: int,
                                 in_proj_weight: Tensor | None, in_proj_bias: Tensor | None, bias_k: Tensor | None,
                                 bias_v: Tensor | None, add_zero_attn: bool, dropout_p: float,
                                 out_proj_weight: Tensor, out_proj_bias: Tensor | None, training: bool = True,
                                 key_padding_mask: Tensor | None = None, need_weights: bool = True,
                                 attn_mask: Tensor | None = None, use_separate_proj_weight: bool = False,
                                 q_proj_weight: Tensor | None = None, k_proj_weight: Tensor | None = None,
                                 v_proj_weight: Tensor | None = None, static_k: Tensor | None = None,
                                 static_v: Tensor | None = None, average_attn_weights: bool = True,
                                 is_causal: bool = False) -> tuple[Tensor, Tensor | None]:
    """``MultiheadAttention``'s forward on time-major inputs: ``query (L, N, E)``, ``key (S, N, E)`` and
    ``value (S, N, E)`` (or unbatched ``(L, E)``, ``(S, E)``), PyTorch's steps op for op, so that the
    graph is PyTorch's.

    The inputs go through ``in_proj_weight``/``in_proj_bias`` (one product for self-attention, two
    when key is value), or ``q_proj_weight``, ``k_proj_weight``, ``v_proj_weight`` with
    ``use_separate_proj_weight``; ``bias_k``/``bias_v`` append a key and value, ``add_zero_attn`` a
    zero one; ``static_k``/``static_v`` ``(N * num_heads, S, E / num_heads)`` replace the projected
    keys and values. ``key_padding_mask (N, S)`` and ``attn_mask (L, S)`` or ``(N * num_heads, L, S)``:
    True (or a float added to the scores) masks. Dropout applies when ``training``.

    Returns ``(attn_output, attn_weights)``: the output like ``query`` and, when ``need_weights``, the
    weights ``(N, L, S)`` averaged over the heads (``(N, num_heads, L, S)`` unless
    ``average_attn_weights``); without weights the heads go through ``scaled_dot_product_attention``.
    """
    batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, batch, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _additive_mask(key_padding_mask, "key_padding_mask", query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                           "method `generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # scaled_dot_product_attention masks causally itself
    else:
        attn_mask = _additive_mask(attn_mask, "attn_mask", query.dtype)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight and key.shape[:2] != value.shape[:2]:
        raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match value's {value.shape[:2]}")
    if not use_separate_proj_weight and key.shape != value.shape:
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")
    q, k, v = _in_projection(query, key, value, in_proj_weight, in_proj_bias, use_separate_proj_weight,
                             (q_proj_weight, k_proj_weight, v_proj_weight))
    if attn_mask is not None:
        attn_mask = _checked_attn_mask(attn_mask, (tgt_len, src_len), batch * num_heads)
    if bias_k is not None and bias_v is not None:
        if static_k is not None:
            raise AssertionError("bias cannot be added to static key.")
        if static_v is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = shape_ops.cat([k, bias_k.repeat(1, batch, 1)])
        v = shape_ops.cat([v, bias_v.repeat(1, batch, 1)])
        attn_mask = pad(attn_mask, (0, 1)) if attn_mask is not None else None
        key_padding_mask = pad(key_padding_mask, (0, 1)) if key_padding_mask is not None else None
    elif bias_k is not None or bias_v is not None:
        raise AssertionError("bias_k is set but bias_v is None" if bias_k is not None else
                             "bias_v is set but bias_k is None")
    q = q.view(tgt_len, batch * num_heads, head_dim).transpose(0, 1)
    k = _heads(k, static_k, "static_k", batch * num_heads, head_dim)
    v = _heads(v, static_v, "static_v", batch * num_heads, head_dim)
    if add_zero_attn:
        zeros = Tensor._make(array_module_of(k._data).zeros((batch * num_heads, 1, head_dim), k._data.dtype))
        k, v = shape_ops.cat([k, zeros], 1), shape_ops.cat([v, zeros], 1)
        attn_mask = pad(attn_mask, (0, 1)) if attn_mask is not None else None
        key_padding_mask = pad(key_padding_mask, (0, 1)) if key_padding_mask is not None else None
    src_len = k.shape[1]
    if key_padding_mask is not None:
        if tuple(key_padding_mask.shape) != (batch, src_len):
            raise AssertionError(f"expecting key_padding_mask shape of {(batch, src_len)}, but got "
                                 f"{key_padding_mask.shape}")
        padding = key_padding_mask.view(batch, 1, 1, src_len).expand(-1, num_heads, -1, -1)
        padding = padding.reshape(batch * num_heads, 1, src_len)
        attn_mask = padding if attn_mask is None else attn_mask + padding
    dropout_p = dropout_p if training else 0.0
    if not need_weights:
        if attn_mask is not None:
            attn_mask = attn_mask.unsqueeze(0) if attn_mask.shape[0] == 1 and attn_mask.ndim == 3 else \
                attn_mask.view(batch, num_heads, -1, src_len)
        q, k, v = (x.view(batch, num_heads, x.shape[1], head_dim) for x in (q, k, v))
        out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
        out = linear(out.permute(2, 0, 1, 3).reshape(batch * tgt_len, embed_dim), out_proj_weight, out_proj_bias)
        out = out.view(tgt_len, batch, out.shape[1])
        return (out if batched else out.squeeze(1)), None
    q_scaled = q * math.sqrt(1.0 / float(head_dim))
    scores = linalg.bmm(q_scaled, k.transpose(-2, -1)) if attn_mask is None else \
        baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
    weights = softmax(scores, dim=-1)
    if dropout_p > 0.0:
        weights = dropout(weights, p=dropout_p)
    out = linalg.bmm(weights, v).transpose(0, 1).reshape(tgt_len * batch, embed_dim)
    out = linear(out, out_proj_weight, out_proj_bias)
    out = out.view(tgt_len, batch, out.shape[1])
    weights = weights.view(batch, num_heads, tgt_len, src_len)
    if average_attn_weights:
        weights = weights.mean(dim=1)
    return (out, weights) if batched else (out.squeeze(1), weights.squeeze(0))


def _in_projection(query: Tensor, key: Tensor, value: Tensor, weight: Tensor | None, bias: Tensor | None,
                   separate: bool, separate_weights: tuple) -> tuple:
    """``(q, k, v)``: the inputs through the input projections, as PyTorch's ``_in_projection_packed``
    (one product for self-attention, two when key is value) and ``_in_projection`` compute them."""
    if separate:
        for name, w in zip(("q", "k", "v"), separate_weights):
            if w is None:
                raise AssertionError(f"use_separate_proj_weight is True but {name}_proj_weight is None")
        b_q, b_k, b_v = (None, None, None) if bias is None else shape_ops.chunk(bias, 3)
        w_q, w_k, w_v = separate_weights
        return linear(query, w_q, b_q), linear(key, w_k, b_k), linear(value, w_v, b_v)
    if weight is None:
        raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
    size = query.shape[-1]
    if key is value:
        if query is key:  # self-attention
            q, k, v = _unpack(linear(query, weight, bias), 3, size)
            return q, k, v
        w_q, w_kv = shape_ops.split(weight, [size, 2 * size])
        b_q, b_kv = (None, None) if bias is None else shape_ops.split(bias, [size, 2 * size])
        k, v = _unpack(linear(key, w_kv, b_kv), 2, size)
        return linear(query, w_q, b_q), k, v
    w_q, w_k, w_v = shape_ops.chunk(weight, 3)
    b_q, b_k, b_v = (None, None, None) if bias is None else shape_ops.chunk(bias, 3)
    return linear(query, w_q, b_q), linear(key, w_k, b_k), linear(value, w_v, b_v)


def _unpack(proj: Tensor, count: int, size: int) -> tuple:
    """The ``count`` projections side by side in ``proj (..., count * size)``, each made contiguous at
    once (PyTorch's ``unflatten(-1, (count, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()``)."""
    proj = proj.unflatten(-1, (count, size)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
    return tuple(proj[i] for i in range(count))


def _checked_attn_mask(attn_mask: Tensor, size_2d: tuple, heads: int) -> Tensor:
    """The 2-D ``(L, S)`` mask with a leading 1, or the 3-D ``(N * num_heads, L, S)`` one, checked."""
    if attn_mask.ndim not in (2, 3):
        raise RuntimeError(f"attn_mask's dimension {attn_mask.ndim} is not supported")
    expected = size_2d if attn_mask.ndim == 2 else (heads,) + size_2d
    if tuple(attn_mask.shape) != expected:
        raise RuntimeError(f"The shape of the {attn_mask.ndim}D attn_mask is {attn_mask.shape}, but should be "
                           f"{expected}.")
    return attn_mask.unsqueeze(0) if attn_mask.ndim == 2 else attn_mask


def _heads(x: Tensor, static: Tensor | None, name: str, heads: int, head_dim: int) -> Tensor:
    """The projected keys or values ``(S, N, E)`` as ``(N * num_heads, S, head_dim)``, or ``static``."""
    if static is None:
        return x.view(x.shape[0], heads, head_dim).transpose(0, 1)
    if static.shape[0] != heads:
        raise AssertionError(f"expecting {name}.size(0) of {heads}, but got {static.shape[0]}")
    if static.shape[2] != head_dim:
        raise AssertionError(f"expecting {name}.size(2) of {head_dim}, but got {static.shape[2]}")
    return static


def _mha_shape_check(query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Tensor | None,
                  attn_mask: Tensor | None, num_heads: int) -> bool:
    """PyTorch's shape checks; True for batched (3-D) inputs."""
    if query.ndim == 3:
        if key.ndim != 3 or value.ndim != 3:
            raise AssertionError("For batched (3-D) `query`, expected `key` and `value` to be 3-D but found "
                                 f"{key.ndim}-D and {value.ndim}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.ndim != 2:
            raise AssertionError("For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D but "
                                 f"found {key_padding_mask.ndim}-D tensor instead")
        if attn_mask is not None and attn_mask.ndim not in (2, 3):
            raise AssertionError("For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but "
                                 f"found {attn_mask.ndim}-D tensor instead")
        return True
    if query.ndim == 2:
        if key.ndim != 2 or value.ndim != 2:
            raise AssertionError("For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found "
                                 f"{key.ndim}-D and {value.ndim}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.ndim != 1:
            raise AssertionError("For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D but "
                                 f"found {key_padding_mask.ndim}-D tensor instead")
        if attn_mask is not None:
            if attn_mask.ndim not in (2, 3):
                raise AssertionError("For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D "
                                     f"but found {attn_mask.ndim}-D tensor instead")
            expected = (num_heads, query.shape[0], key.shape[0])
            if attn_mask.ndim == 3 and tuple(attn_mask.shape) != expected:
                raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got {attn_mask.shape}")
        return False
    raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {query.ndim}-D query "
                         "tensor")


def _additive_mask(mask: Tensor | None, name: str, dtype: Any) -> Tensor | None:
    """A boolean mask (True = masked out) as ``-inf`` / 0 in ``dtype``; a float mask as given."""
    if mask is None:
        return None
    if mask.dtype.name == "bool":
        xp = array_module_of(mask._data)
        return Tensor._make(xp.where(mask._data, -np.inf, 0.0).astype(dtype.numpy))
    if not mask.is_floating_point():
        raise AssertionError(f"only bool and floating types of {name} are supported")
    return mask


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
    indices equal to ``padding_idx`` are left out. Empty bags give zeros. The checks and their order
    are PyTorch's; the work is ``torch.embedding_bag``'s.
    """
    if weight.dtype == dtypes.int64 and input.is_floating_point():
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage `embedding_bag(weight, "
                      "input, ...)` is deprecated, and should now be `embedding_bag(input, weight, ...)`.",
                      stacklevel=2)
        weight, input = input, weight
    if per_sample_weights is not None and input.shape != per_sample_weights.shape:
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, then it "
                         f"must have the same shape as the input ({input.shape})")
    if weight.ndim != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.ndim}")
    if input.ndim == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             f"fixed length sequences. However, found offsets of type {type(offsets)}")
        offsets = creation.arange(0, input.numel(), input.shape[1], dtype=input.dtype, device=input.device)
        include_last_offset = False
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.ndim == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.ndim != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.ndim}")
    mode_enum = _check_bag_mode(mode, scale_grad_by_freq, sparse)
    if max_norm is not None:
        embedding_renorm_(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  "GitHub.")
    return embedding_ops.embedding_bag(weight, input, offsets, scale_grad_by_freq, mode_enum, sparse,
                                       per_sample_weights, include_last_offset, padding_idx)[0]


def _check_bag_mode(mode: str, scale_grad_by_freq: bool, sparse: bool) -> int:
    """``mode``'s number in ``torch.embedding_bag``, with PyTorch's refusals for ``max``."""
    if mode not in embedding_ops.BAG_MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    return embedding_ops.BAG_MODES.index(mode)


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
    repeated: list[Any] = [None if t is None else t.repeat(n) for t in (running_mean, running_var, weight, bias)]
    mean, var, w, b = repeated
    # (as PyTorch's: the batch norm of the input made row-major, a view of it, whatever its layout)
    out = batch_norm(input.contiguous().view(1, n * c, *input.shape[2:]), mean, var, w, b, use_input_stats,
                     momentum, eps)
    if use_input_stats:
        for running, updated in ((running_mean, mean), (running_var, var)):
            if running is not None:
                running.copy_(updated.reshape(n, c).mean(0))
    return out.view(input.shape)


@composed_op("ConvolutionBackward0", ('input', 'weight', 'bias'))
@_autocast.lower_precision
def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0,
           dilation: Any = 1, groups: int = 1) -> Tensor:
    """3-d convolution of ``input (N, C_in, D, H, W)`` or ``(C_in, D, H, W)`` with
    ``weight (C_out, C_in/groups, kD, kH, kW)``: the sum over the ``kD`` kernel depths ``k`` of
    2-d convolutions of the depth slices ``d*sD + k*dD`` of the (padded) input with ``weight[:, :, k]``.
    ``D_out = floor((D + 2*pD - dD*(kD-1) - 1) / sD) + 1``, and likewise ``H_out``, ``W_out``.
    """
    check_convolution_arguments("conv3d", input, weight, bias, 3, transposed=False)
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
    out: Any = None  # the sum of the depth slices
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
    return _selu(input)


def _selu(input: Tensor) -> Tensor:
    return unary.Elu.apply(input, alpha=_SELU_ALPHA, scale=_SELU_SCALE)  # PyTorch's selu is its elu kernel


def selu_(input: Tensor) -> Tensor:
    return selu(input, True)


def _require_floating(name: str, kernel: str, input: Any) -> None:
    """A Tensor ``input`` of a floating dtype, the only ones PyTorch's ``kernel`` is built for."""
    if not isinstance(input, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    dtypes.check_kernel(kernel, input.dtype, "f")


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError")
    _require_floating("celu", "elu_cpu", input)  # before the division by alpha makes integers floating
    if inplace:
        return inplace_ops.apply(input, celu, alpha)
    return _celu(input, alpha)


def _celu(input: Tensor, alpha: float) -> Tensor:
    return unary.Celu.apply(input, alpha=alpha, input_scale=1.0 / alpha)


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
    return activation_ops.threshold(input, threshold, value)




threshold = _threshold  # PyTorch's name; the function's own parameter is also called threshold


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    return _threshold(input, threshold, value, True)


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``input`` where ``|input| > lambd``, 0 elsewhere."""
    _require_floating("hardshrink", "hardshrink_cpu", input)
    return activation_ops.hardshrink(input, lambd)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``input - lambd`` above ``lambd``, ``input + lambd`` below ``-lambd``, 0 between."""
    if lambd < 0:
        raise RuntimeError(f"lambda must be greater or equal to 0, but found to be {lambd}.")
    _require_floating("softshrink", "softshrink_check", input)
    return activation_ops.softshrink(input, lambd)


def tanhshrink(input: Tensor) -> Tensor:
    """``input - tanh(input)``."""
    return binary.sub(input, unary.tanh(input))


def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False,
          inplace: bool = False) -> Tensor:
    """Randomized leaky ReLU: negative inputs scaled by a slope drawn from ``U(lower, upper)`` per
    element in training, by ``(lower + upper) / 2`` in evaluation."""
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    _require_floating("rrelu", "leaky_relu_cpu", input)
    if inplace:
        return inplace_ops.apply(input, rrelu, lower, upper, training)
    data = input._data
    slopes: Any = (lower + upper) / 2
    if training:
        xp = array_module_of(data)
        # PyTorch draws one float64 uniform per element <= 0, in order
        slopes = xp.ones_like(data)
        nonpositive = data <= 0
        low, high = (float(data.dtype.type(bound)) for bound in (lower, upper))  # PyTorch's bounds are in opmath
        drawn = random.uniform(generator_for(device_of(data)), (int(nonpositive.sum()),), np.float64, low, high)
        slopes[nonpositive] = xp.asarray(drawn).astype(data.dtype)
    return activation_ops.rrelu_with_noise(input, slopes)


def rrelu_(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False) -> Tensor:
    """In-place ``rrelu``."""
    return rrelu(input, lower, upper, training, inplace=True)


def gumbel_softmax(logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10, dim: int = -1) -> Tensor:
    """``softmax((logits + g) / tau)`` with Gumbel noise ``g = -log(Exp(1))``; ``hard`` returns the
    one-hot of the argmax with the soft sample's gradient (straight-through)."""
    data = logits._data
    xp = array_module_of(data)
    # PyTorch: -empty_like(logits).exponential_().log()
    gumbels = -xp.log(xp.asarray(random.exponential(generator_for(device_of(data)), data.shape, data.dtype)))
    soft = reductions.softmax(binary.div(binary.add(logits, Tensor._make(gumbels)), tau), dim)
    if not hard:
        return soft
    index = xp.expand_dims(xp.argmax(soft._data, axis=dim), dim)
    one_hot_array = xp.zeros_like(soft._data)
    xp.put_along_axis(one_hot_array, index, 1.0, axis=dim)
    return binary.add(binary.sub(Tensor._make(one_hot_array), soft.detach()), soft)


# --------------------------------------------------------------------------- channel dropouts
def _feature_dropout(input: Tensor, p: float, training: bool, inplace: bool, batched: bool) -> Tensor:
    """Zeroes whole channels: one draw per (sample, channel), or per channel when not ``batched``."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0 or input.numel() == 0:
        return input
    lead = 2 if batched else 1
    if input.ndim < lead:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    shape = tuple(input.shape[:lead]) + (1,) * (input.ndim - lead)
    return _apply_dropout_mask(input, _bernoulli_keep(input._data, shape, p), p, False, inplace)


def _warn_feature_dropout_dims(name: str, input: Tensor, spatial: int) -> None:
    """PyTorch's dropout2d/dropout3d only warn about an input of the wrong rank, then drop on it anyway."""
    if input.ndim not in (spatial + 1, spatial + 2):
        warnings.warn(f"{name}: Received a {input.ndim}-D input to {name}, which is deprecated and will result in an "
                      "error in a future release. To retain the behavior and silence this warning, please use "
                      f"dropout instead. Note that {name} exists to provide channel-wise dropout on inputs with "
                      f"{spatial} spatial dimensions, a channel dimension, and an optional batch dimension (i.e. "
                      f"{spatial + 1}D or {spatial + 2}D inputs).", stacklevel=3)


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


def _bernoulli_keep(data: Any, shape: tuple, p: float) -> Any:
    """0/1 in ``shape``, 1 with probability ``1 - p``, for input ``data``: a mask of the input's shape
    is PyTorch's ``empty_like(input)``, filled in the input's memory order."""
    if p == 1.0:
        return array_module_of(data).zeros(shape, data.dtype)
    if data.dtype.kind in "biu":  # PyTorch scales the kept elements by 1 / (1 - p) in place, in input's dtype
        raise RuntimeError("result type Float can't be cast to the desired output type "
                           f"{dtypes.scalar_type_name(data.dtype)}")
    gen = generator_for(device_of(data))
    if shape != data.shape:  # a channel mask: a fresh contiguous tensor
        return random.bernoulli(gen, shape, data.dtype, 1.0 - p)
    order = inplace_ops.memory_order(data)
    keep = random.bernoulli(gen, tuple(shape[axis] for axis in order), data.dtype, 1.0 - p)
    return keep.transpose(tuple(int(axis) for axis in np.argsort(order)))


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zeroes whole channels of ``(N, C, L)`` or ``(C, L)`` with probability ``p``, scaling the rest by
    ``1 / (1 - p)``."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if input.ndim not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {input.ndim}D input. Note that "
                           "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, a "
                           "channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).")
    return _feature_dropout(input, p, training, inplace, input.ndim == 3)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zeroes whole channels of ``(N, C, H, W)`` with probability ``p``. As in PyTorch, a 3-D input is
    taken as ``(N, C, L)`` (with a warning), not as an unbatched ``(C, H, W)``."""
    _warn_feature_dropout_dims("dropout2d", input, 2)
    if input.ndim == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior "
                      "is desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior "
                      "will change in a future release to interpret the input as one without a batch dimension, i.e. "
                      "shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using "
                      "dropout1d instead.", stacklevel=2)
    return _feature_dropout(input, p, training, inplace, True)


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zeroes whole channels of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` with probability ``p``."""
    _warn_feature_dropout_dims("dropout3d", input, 3)
    return _feature_dropout(input, p, training, inplace, input.ndim == 5)


def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    """Dropout for SELU networks: dropped elements take SELU's negative saturation value and an
    affine map restores the mean and variance."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0 or input.numel() == 0:
        return input
    return _apply_dropout_mask(input, _bernoulli_keep(input._data, input._data.shape, p), p, True, inplace)


def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    """``alpha_dropout`` of whole channels (dimension 1)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0 or input.numel() == 0:
        return input
    shape = tuple(input.shape[:2]) + (1,) * (input.ndim - 2)
    return _apply_dropout_mask(input, _bernoulli_keep(input._data, shape, p), p, True, inplace)


# --------------------------------------------------------------------------- more pooling and normalisation
def lp_pool1d(input: Tensor, norm_type: float, kernel_size: int, stride: Any = None,
              ceil_mode: bool = False) -> Tensor:
    """``(sum over each window of x^p)^(1/p)``: ``avg_pool1d`` of ``x^p`` times the window size (for an
    infinite ``p`` the max, or min, of ``|x|``)."""
    size = kernel_size if isinstance(kernel_size, int) else kernel_size[0]
    return _lp_pool((avg_pool1d, max_pool1d), input, norm_type, kernel_size, stride, ceil_mode, size)


def lp_pool2d(input: Tensor, norm_type: float, kernel_size: Any, stride: Any = None,
              ceil_mode: bool = False) -> Tensor:
    """``(sum over each window of x^p)^(1/p)`` on ``(N, C, H, W)``."""
    kh, kw = (kernel_size, kernel_size) if isinstance(kernel_size, int) else kernel_size
    return _lp_pool((avg_pool2d, max_pool2d), input, norm_type, kernel_size, stride, ceil_mode, kh * kw)


def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> Tensor:
    """``x / (k + alpha * mean over the ``size`` neighbouring channels of x^2)^beta``."""
    if input.ndim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input (got {input.ndim} dimensions)")
    if input.numel() == 0:
        return input
    if input.ndim > 3:  # PyTorch averages 4-d and larger inputs' squares with avg_pool3d
        dtypes.check_kernel("avg_pool3d_out_frame", input.dtype, "fiub", half=False, bfloat16=False)
    shape = tuple(input.shape)
    squares = binary.mul(input, input).reshape(shape[0], 1, shape[1], -1)
    squares = pad(squares, (0, 0, size // 2, (size - 1) // 2))
    div = avg_pool2d(squares, (size, 1), stride=1).reshape(shape)
    return binary.div(input, binary.pow(binary.add(binary.mul(div, alpha), k), beta))


@composed_op("ChannelShuffleBackward0", ('input',), linear=True)
def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """``(N, g*c, *) -> (N, c*g, *)``: channel ``i*c + j`` moves to ``j*g + i``."""
    n, channels = input.shape[:2]
    if channels % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {channels} channels and {groups} "
                           "groups.")
    rest = tuple(input.shape[2:])
    grouped = input.reshape(n, groups, channels // groups, *rest)
    return shape_ops.transpose(grouped, 1, 2).reshape(n, channels, *rest)


@composed_op("PdistBackward0", ('input',))
def pdist(input: Tensor, p: float = 2) -> Tensor:
    """The ``p``-norm distances between the rows of ``input (N, M)``, for ``i < j`` in row-major order."""
    if input.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.ndim}D")
    if not input.dtype.is_floating_point:
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    dtypes.check_kernel("pdist", input.dtype, "f", half=False, bfloat16=False)
    rows, cols = np.triu_indices(input.shape[0], 1)
    xp = array_module_of(input._data)
    first = indexing.index_select(input, 0, Tensor._make(xp.asarray(rows)))
    second = indexing.index_select(input, 0, Tensor._make(xp.asarray(cols)))
    return reductions.norm(binary.sub(first, second), p, 1)


def upsample_nearest(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:
    """``interpolate(mode='nearest')`` (deprecated in PyTorch)."""
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:
    """``interpolate(mode='bilinear', align_corners=True)`` (deprecated in PyTorch)."""
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def max_pool1d_with_indices(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
                            dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = True) -> tuple:
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool2d_with_indices(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
                            dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = True) -> tuple:
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def adaptive_max_pool1d_with_indices(input: Tensor, output_size: Any, return_indices: bool = True) -> tuple:
    return adaptive_max_pool1d(input, output_size, True)


def adaptive_max_pool3d_with_indices(input: Tensor, output_size: Any, return_indices: bool = True) -> tuple:
    return adaptive_max_pool3d(input, output_size, True)


native_channel_shuffle = channel_shuffle


def adaptive_max_pool2d_with_indices(input: Tensor, output_size: Any, return_indices: bool = True) -> tuple:
    return adaptive_max_pool2d(input, output_size, True)


def linear_cross_entropy(input: Tensor, linear_weight: Tensor, target: Tensor, *, linear_bias: Tensor | None = None,
                         weight: Tensor | None = None, reduction: str = "mean", ignore_index: int | None = None,
                         label_smoothing: float = 0.0, options: Any = None) -> Tensor:
    """``cross_entropy(linear(input, linear_weight, linear_bias), target, ...)`` (``ignore_index`` None: -100) for
    an ``input`` of shape ``(N, in_features)`` or ``(in_features,)``; a ``linear_weight`` of shape
    ``(C, d1, ..., in_features)`` gives K-dimensional logits ``(N, C, d1, ...)``. ``options`` (PyTorch's chunked
    evaluation) changes nothing here: the logits are small enough to be formed."""
    if input.dim() < 1 or input.dim() > 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.dim()}")
    if linear_weight.dim() < 2:
        raise RuntimeError(f"expected linear_weight with dimensionality at least 2, got {linear_weight.dim()}")
    batches, in_features = tuple(input.shape[:-1]), input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError("expected equal input and linear_weight last dimensions (in_features), "
                           f"got {in_features} and {linear_weight.shape[-1]}, respectively")
    num_classes, out_features = linear_weight.shape[0], tuple(linear_weight.shape[1:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != (num_classes, *out_features):
        raise RuntimeError(f"expected linear_bias shape {(num_classes, *out_features)}, got {tuple(linear_bias.shape)}")
    if out_features and not batches:
        raise RuntimeError(f"K-dimensional loss defined by linear_weight shape {tuple(linear_weight.shape)} requires"
                           f" batched input, (N, {in_features}), got unbatched input with shape {tuple(input.shape)}")
    logits_shape = (*batches, num_classes, *out_features)
    if tuple(target.shape) == logits_shape and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains probabilities")
    if out_features:
        outputs = math.prod(out_features, start=num_classes)
        linear_weight = linear_weight.reshape((outputs, in_features))
        linear_bias = None if linear_bias is None else linear_bias.reshape(outputs)
    logits = linear(input, linear_weight, linear_bias).reshape(logits_shape)
    return cross_entropy(logits, target, weight, ignore_index=-100 if ignore_index is None else ignore_index,
                         reduction=reduction, label_smoothing=label_smoothing)


# ``functional.grad``, also ``nn.grad``: run on first use (it imports this module)
grad = lazy_module("tinyframe.nn.grad")
