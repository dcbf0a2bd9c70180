"""``MultiheadAttention``: scaled dot-product attention over ``num_heads`` projected subspaces."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ... import creation
from ...device import array_module_of
from ...ops import linalg, reduction
from ...ops.contraction import baddbmm
from ...ops.shape import cat, chunk, contiguous, expand, permute, split, squeeze, transpose, unflatten, unsqueeze, view
from ...tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .linear import NonDynamicallyQuantizableLinear
from .module import Module

__all__ = ["MultiheadAttention"]


class MultiheadAttention(Module):
    """``MultiHead(Q, K, V) = Concat(head_1, ..., head_h) W_O^T + b_O`` with
    ``head_i = softmax((Q W_Qi^T)(K W_Ki^T)^T / sqrt(head_dim) + mask) (V W_Vi^T)``.

    Inputs are ``(L, N, E)`` (``(N, L, E)`` with ``batch_first``, or unbatched ``(L, E)``); keys
    and values may have other sizes ``kdim`` / ``vdim``. Parameters as in PyTorch:
    ``in_proj_weight (3E, E)`` (or ``q_proj_weight``, ``k_proj_weight``, ``v_proj_weight`` when
    ``kdim`` or ``vdim`` differ from ``E``) Xavier-uniform, ``in_proj_bias (3E,)`` zeros, and
    ``out_proj`` a Linear with zero bias.
    """

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim: int | None = None,
                 vdim: int | None = None, batch_first: bool = False, device: Any = None, dtype: Any = None) -> None:
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} and "
                             f"num_heads={num_heads} instead")
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads, self.dropout, self.batch_first = num_heads, dropout, batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        factory = {"device": device, "dtype": dtype}
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(creation.empty(3 * embed_dim, embed_dim, **factory))
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)
        else:
            self.q_proj_weight = Parameter(creation.empty(embed_dim, embed_dim, **factory))
            self.k_proj_weight = Parameter(creation.empty(embed_dim, self.kdim, **factory))
            self.v_proj_weight = Parameter(creation.empty(embed_dim, self.vdim, **factory))
            self.register_parameter("in_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(creation.empty(3 * embed_dim, **factory))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, **factory)
        if add_bias_kv:
            self.bias_k: Parameter | None = Parameter(creation.empty(1, 1, embed_dim, **factory))
            self.bias_v: Parameter | None = Parameter(creation.empty(1, 1, embed_dim, **factory))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self) -> None:
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            init.xavier_uniform_(self.q_proj_weight)
            init.xavier_uniform_(self.k_proj_weight)
            init.xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None and self.out_proj.bias is not None:  # both made with bias=True
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None and self.bias_v is not None:  # both made with add_bias_kv
            init.xavier_normal_(self.bias_k)
            init.xavier_normal_(self.bias_v)

    def forward(self, query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Tensor | None = None,
                need_weights: bool = True, attn_mask: Tensor | None = None, average_attn_weights: bool = True,
                is_causal: bool = False) -> tuple:
        """Returns ``(attn_output, attn_weights)``: the output like ``query``, and the attention
        weights ``(N, L, S)`` averaged over the heads (``(N, num_heads, L, S)`` with
        ``average_attn_weights=False``; None unless ``need_weights``).

        ``key_padding_mask (N, S)``: True (or ``-inf``) marks keys to ignore. ``attn_mask (L, S)`` or
        ``(N * num_heads, L, S)``: True marks pairs that may not attend; a float mask is added to the
        scores.
        """
        batched = _check_shapes(query, key, value, key_padding_mask, attn_mask, self.num_heads)
        if self.batch_first and batched:  # one transposed view per distinct input: "is" keeps meaning self-attention
            if key is value:
                if query is key:
                    query = key = value = transpose(query, 1, 0)
                else:
                    query, key = transpose(query, 1, 0), transpose(key, 1, 0)
                    value = key
            else:
                query, key, value = (transpose(x, 1, 0) for x in (query, key, value))
        out, weights = self._attend(query, key, value, key_padding_mask, attn_mask, need_weights,
                                    average_attn_weights, is_causal, batched)
        return (transpose(out, 1, 0) if self.batch_first and batched else out), weights

    def _project(self, query: Tensor, key: Tensor, value: Tensor) -> tuple:
        """``(q, k, v)``: the inputs through the input projections, as PyTorch's ``_in_projection_packed``
        and ``_in_projection`` compute them (one product for self-attention, two when key is value)."""
        bias = self.in_proj_bias
        if not self._qkv_same_embed_dim:
            b_q, b_k, b_v = (None, None, None) if bias is None else chunk(bias, 3)
            return (F.linear(query, self.q_proj_weight, b_q), F.linear(key, self.k_proj_weight, b_k),
                    F.linear(value, self.v_proj_weight, b_v))
        weight, size = self.in_proj_weight, query.shape[-1]
        if key is value:
            if query is key:  # self-attention
                q, k, v = _unpack(F.linear(query, weight, bias), 3, size)
                return q, k, v
            w_q, w_kv = split(weight, [size, 2 * size])
            b_q, b_kv = (None, None) if bias is None else split(bias, [size, 2 * size])
            k, v = _unpack(F.linear(key, w_kv, b_kv), 2, size)
            return F.linear(query, w_q, b_q), k, v
        w_q, w_k, w_v = chunk(weight, 3)
        b_q, b_k, b_v = (None, None, None) if bias is None else chunk(bias, 3)
        return F.linear(query, w_q, b_q), F.linear(key, w_k, b_k), F.linear(value, w_v, b_v)

    def _attend(self, query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Tensor | None,
                attn_mask: Tensor | None, need_weights: bool, average_attn_weights: bool, is_causal: bool,
                batched: bool) -> tuple:
        """PyTorch's ``F.multi_head_attention_forward`` on time-major ``(L, N, E)`` inputs (unbatched
        ``(L, E)`` ones get their batch dimension here), op for op: its graph is PyTorch's."""
        if not batched:
            query, key, value = unsqueeze(query, 1), unsqueeze(key, 1), unsqueeze(value, 1)
            if key_padding_mask is not None:
                key_padding_mask = unsqueeze(key_padding_mask, 0)
        tgt_len, batch, embed_dim = query.shape
        key_padding_mask = _additive_mask(key_padding_mask, "key_padding_mask", query.dtype)
        if is_causal and attn_mask is None:
            raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                               "method `generate_square_subsequent_mask` to create this mask.")
        if is_causal and key_padding_mask is None and not need_weights:
            attn_mask = None  # the attention below masks causally itself
        else:
            attn_mask = _additive_mask(attn_mask, "attn_mask", query.dtype)
            if key_padding_mask is not None:
                is_causal = False
        if embed_dim != self.embed_dim:
            raise AssertionError(f"was expecting embedding dimension of {self.embed_dim}, but got {embed_dim}")
        if self._qkv_same_embed_dim and key.shape != value.shape:
            raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")
        if not self._qkv_same_embed_dim and key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match value's "
                                 f"{value.shape[:2]}")
        q, k, v = self._project(query, key, value)
        src_len, heads, head_dim = key.shape[0], self.num_heads, self.head_dim
        if attn_mask is not None:
            expected = (tgt_len, src_len) if attn_mask.ndim == 2 else (batch * heads, tgt_len, src_len)
            if tuple(attn_mask.shape) != expected:
                raise RuntimeError(f"The shape of the {attn_mask.ndim}D attn_mask is {attn_mask.shape}, but should "
                                   f"be {expected}.")
            if attn_mask.ndim == 2:
                attn_mask = unsqueeze(attn_mask, 0)
        if self.bias_k is not None and self.bias_v is not None:
            k = cat([k, self.bias_k.repeat(1, batch, 1)])
            v = cat([v, self.bias_v.repeat(1, batch, 1)])
            attn_mask = F.pad(attn_mask, (0, 1)) if attn_mask is not None else None
            key_padding_mask = F.pad(key_padding_mask, (0, 1)) if key_padding_mask is not None else None
        q = transpose(view(q, tgt_len, batch * heads, head_dim), 0, 1)
        k = transpose(view(k, k.shape[0], batch * heads, head_dim), 0, 1)
        v = transpose(view(v, v.shape[0], batch * heads, head_dim), 0, 1)
        if self.add_zero_attn:
            zeros = creation.zeros(batch * heads, 1, head_dim, dtype=k.dtype, device=k.device)
            k, v = cat([k, zeros], 1), cat([v, zeros], 1)
            attn_mask = F.pad(attn_mask, (0, 1)) if attn_mask is not None else None
            key_padding_mask = F.pad(key_padding_mask, (0, 1)) if key_padding_mask is not None else None
        src_len = k.shape[1]
        if key_padding_mask is not None:
            if tuple(key_padding_mask.shape) != (batch, src_len):
                raise AssertionError(f"expecting key_padding_mask shape of {(batch, src_len)}, but got "
                                     f"{key_padding_mask.shape}")
            padding = expand(view(key_padding_mask, batch, 1, 1, src_len), (batch, heads, 1, src_len))
            padding = padding.reshape(batch * heads, 1, src_len)
            attn_mask = padding if attn_mask is None else attn_mask + padding
        dropout = self.dropout if self.training else 0.0
        if not need_weights:
            return self._attend_fused(q, k, v, attn_mask, dropout, is_causal, batched, tgt_len)
        scores = linalg.bmm(q * math.sqrt(1.0 / float(head_dim)), transpose(k, -2, -1)) if attn_mask is None else \
            baddbmm(attn_mask, q * math.sqrt(1.0 / float(head_dim)), transpose(k, -2, -1))
        weights = F.softmax(scores, dim=-1)
        if dropout > 0.0:
            weights = F.dropout(weights, p=dropout)
        out = transpose(linalg.bmm(weights, v), 0, 1).reshape(tgt_len * batch, embed_dim)
        out = F.linear(out, self.out_proj.weight, self.out_proj.bias)
        out = view(out, tgt_len, batch, out.shape[1])
        weights = view(weights, batch, heads, tgt_len, src_len)
        if average_attn_weights:
            weights = reduction.mean(weights, 1)
        return (out, weights) if batched else (squeeze(out, 1), squeeze(weights, 0))

    def _attend_fused(self, q: Tensor, k: Tensor, v: Tensor, attn_mask: Tensor | None, dropout: float,
                      is_causal: bool, batched: bool, tgt_len: int) -> tuple:
        """The rest of ``_attend`` without the weights: ``scaled_dot_product_attention`` on the heads."""
        batch, heads, head_dim = q.shape[0] // self.num_heads, self.num_heads, self.head_dim
        src_len = k.shape[1]
        if attn_mask is not None:
            if attn_mask.shape[0] == 1 and attn_mask.ndim == 3:
                attn_mask = unsqueeze(attn_mask, 0)
            else:
                attn_mask = view(attn_mask, batch, heads, -1, src_len)
        q, k, v = (view(x, batch, heads, x.shape[1], head_dim) for x in (q, k, v))
        out = F.scaled_dot_product_attention(q, k, v, attn_mask, dropout, is_causal)
        out = permute(out, 2, 0, 1, 3).reshape(batch * tgt_len, self.embed_dim)
        out = F.linear(out, self.out_proj.weight, self.out_proj.bias)
        out = view(out, tgt_len, batch, out.shape[1])
        return (out if batched else squeeze(out, 1)), None


def _unpack(proj: Tensor, count: int, size: int) -> tuple:
    """The ``count`` projections side by side in ``proj (..., count * size)``, each made contiguous at
    once (PyTorch's ``unflatten(-1, (count, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()``)."""
    proj = contiguous(squeeze(transpose(unsqueeze(unflatten(proj, -1, (count, size)), 0), 0, -2), -2))
    return tuple(proj[i] for i in range(count))


def _check_shapes(query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Tensor | None,
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
