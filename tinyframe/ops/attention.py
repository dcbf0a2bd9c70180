"""Scaled dot-product attention as PyTorch's CPU build runs it: one fused kernel
(``_scaled_dot_product_flash_attention_for_cpu``, whose node has the query, key and value as its
only edges) where PyTorch's backend selection picks it (``flash_applies``), else the math path
(``_scaled_dot_product_attention_math``) composed of other ops, node for node.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from .. import _graph
from .._graph import Op
from . import linalg, shape
from .binary import MulNumber, add
from .reduction import safe_softmax, softmax_array

if TYPE_CHECKING:
    from ..tensor import Tensor


def flash_applies(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None, dropout_p: float,
                  grouped: bool) -> bool:
    """PyTorch's conditions for its CPU flash kernel (``use_flash_attention_cpp``): no dropout, 4-D
    inputs of one batch size and head count with one head size, non-empty sequences, unit last
    strides, and a mask (not requiring grad) of 2 or 4 dimensions broadcasting to the scores."""
    q, k, v = query._data, key._data, value._data
    if dropout_p > 0.0 or grouped or not q.ndim == k.ndim == v.ndim == 4:
        return False
    if not q.shape[:2] == k.shape[:2] == v.shape[:2] or not q.shape[-1] == k.shape[-1] == v.shape[-1]:
        return False
    if 0 in (q.shape[0], q.shape[1], q.shape[2], k.shape[2], q.shape[3]):
        return False
    if any(a.strides[-1] != a.itemsize for a in (q, k, v)):
        return False
    if attn_mask is None:
        return True
    m = attn_mask._data.shape
    if attn_mask.requires_grad or m[-2] not in (q.shape[2], 1) or m[-1] not in (k.shape[2], 1):
        return False
    return len(m) == 2 or (len(m) == 4 and m[0] in (1, q.shape[0]) and m[1] in (1, q.shape[1]))


class FlashAttention(Op, node_name="ScaledDotProductFlashAttentionForCpuBackward0"):
    """``softmax(query @ key^T * scale + bias) @ value`` in one node; ``bias`` (an additive mask,
    causal or given) is a constant. The output has the query's memory layout, as PyTorch's kernel
    writes it."""

    @staticmethod
    def forward(ctx: FlashAttention, q: Any, k: Any, v: Any, *, bias: Any, scale: float) -> Any:
        xp = ctx.xp
        scores = (q @ xp.swapaxes(k, -1, -2)) * q.dtype.type(scale)
        if bias is not None:
            scores += bias
        ctx.bias, ctx.scale = bias, scale
        weights = softmax_array(xp, scores, -1, safe=True)  # rows masked throughout are zeros, as PyTorch's
        out = xp.empty_like(q)  # order "K": the query's layout
        xp.matmul(weights, v, out=out)
        ctx.save_for_backward(q, k, v, weights)
        return out

    @staticmethod
    def backward(ctx: FlashAttention, g: Any) -> tuple:
        q, k, v, weights = ctx.saved_tensors
        xp = ctx.xp
        scale = q.dtype.type(ctx.scale)
        d_weights = g @ xp.swapaxes(v, -1, -2)
        d_scores = weights * (d_weights - (d_weights * weights).sum(axis=-1, keepdims=True)) * scale
        needs = ctx.needs_input_grad
        return (d_scores @ k if needs[0] else None, xp.swapaxes(d_scores, -1, -2) @ q if needs[1] else None,
                xp.swapaxes(weights, -1, -2) @ g if needs[2] else None)

    @staticmethod
    def compose(ctx: FlashAttention) -> tuple:
        """The inputs and the output by the math path, for a recorded backward pass."""
        q, k, v = ctx.saved_tensors[:3]
        bias = None if ctx.bias is None else _graph.wrap(ctx.bias)
        return (q, k, v), batched_matmul(attention_weights(q, k, bias, ctx.scale), v)


def attention_weights(query: Tensor, key: Tensor, bias: Tensor | None, scale: float) -> Tensor:
    """The math path's ``softmax(query @ key^T * scale + bias)``: query and key each multiplied by
    the square root of the scale first (for stability, as PyTorch does), rows masked throughout zeros."""
    root = math.sqrt(abs(scale))
    scores = batched_matmul(MulNumber.apply(query, other=-root if scale < 0 else root),
                            MulNumber.apply(shape.transpose(key, -2, -1), other=root))
    if bias is not None:
        scores = add(scores, bias)
    return safe_softmax(scores, -1)


def batched_matmul(a: Tensor, b: Tensor) -> Tensor:
    """``matmul(a, b)`` with the graph ``torch.matmul`` records for two batches of matrices (3-D or
    more): each expanded to the broadcast batch shape and flattened to one batch dimension, ``bmm``,
    and the result viewed back."""
    if a.ndim < 3 or b.ndim < 3:
        return linalg.matmul(a, b)
    batch = tuple(shape.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
    count = math.prod(batch)
    a3 = shape.reshape(shape.expand(a, *batch, *a.shape[-2:]), count, *a.shape[-2:])
    b3 = shape.reshape(shape.expand(b, *batch, *b.shape[-2:]), count, *b.shape[-2:])
    return shape.UnsafeView.apply(linalg.bmm(a3, b3), shape=(*batch, a.shape[-2], b.shape[-1]))
