"""``MultiheadAttention``: scaled dot-product attention over ``num_heads`` projected subspaces."""
from __future__ import annotations

from typing import Any

from ... import creation
from ...ops.shape import transpose
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
        scores. The work is ``F.multi_head_attention_forward``'s, on time-major inputs.
        """
        batched = query.ndim == 3
        if self.batch_first and batched:  # one transposed view per distinct input: "is" keeps meaning self-attention
            if key is value:
                if query is key:
                    query = key = value = transpose(query, 1, 0)
                else:
                    query, key = transpose(query, 1, 0), transpose(key, 1, 0)
                    value = key
            else:
                query, key, value = (transpose(x, 1, 0) for x in (query, key, value))
        out, weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias, self.bias_k,
            self.bias_v, self.add_zero_attn, self.dropout, self.out_proj.weight, self.out_proj.bias,
            training=self.training, key_padding_mask=key_padding_mask, need_weights=need_weights,
            attn_mask=attn_mask, use_separate_proj_weight=not self._qkv_same_embed_dim,
            q_proj_weight=self.q_proj_weight, k_proj_weight=self.k_proj_weight, v_proj_weight=self.v_proj_weight,
            average_attn_weights=average_attn_weights, is_causal=is_causal)
        return (transpose(out, 1, 0) if self.batch_first and batched else out), weights
