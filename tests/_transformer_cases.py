"""Transformer cases shared by ``test_nn_transformer.py`` and the script that recorded PyTorch's
outputs: every state_dict entry is filled from one NumPy generator in key order (the keys are
PyTorch's), so both frameworks run the same weights; all in float64, eval mode."""
from __future__ import annotations

from typing import Any

import numpy as np

_rng = np.random.default_rng(11)
SRC = _rng.standard_normal((3, 2, 4))  # (S, N, E)
TGT = _rng.standard_normal((2, 2, 4))  # (T, N, E)
PAD = np.array([[False, False, False], [False, False, True]])


def filled(lib: Any, model: Any, seed: int) -> Any:
    """``model`` in eval mode with every floating state_dict entry drawn from ``N(0, 0.3^2)``."""
    rng = np.random.default_rng(seed)
    state = {key: lib.tensor(rng.standard_normal(tuple(value.shape)) * 0.5) if value.is_floating_point() else value
             for key, value in model.state_dict().items()}
    model.load_state_dict(state)
    return model.eval()


def _t(lib: Any, array: np.ndarray) -> Any:
    return lib.tensor(array)


def _mask(lib: Any, size: int) -> Any:
    return lib.nn.Transformer.generate_square_subsequent_mask(size, dtype=lib.float64)


def _encoder_layer(lib: Any, **options: Any) -> Any:
    return lib.nn.TransformerEncoderLayer(4, 2, 6, dtype=lib.float64, **options)


def _decoder_layer(lib: Any, **options: Any) -> Any:
    return lib.nn.TransformerDecoderLayer(4, 2, 6, dtype=lib.float64, **options)


CASES = {
    "encoder_layer": lambda lib: filled(lib, _encoder_layer(lib), 0)(_t(lib, SRC)),
    "encoder_layer_causal_mask": lambda lib: filled(lib, _encoder_layer(lib), 0)(
        _t(lib, SRC), src_mask=_mask(lib, 3), is_causal=True),
    "encoder_layer_padding_mask": lambda lib: filled(lib, _encoder_layer(lib), 0)(
        _t(lib, SRC), src_key_padding_mask=_t(lib, PAD)),
    "encoder_layer_gelu_norm_first_batch_first": lambda lib: filled(
        lib, _encoder_layer(lib, activation="gelu", norm_first=True, batch_first=True), 1)(
        _t(lib, SRC.transpose(1, 0, 2)), src_key_padding_mask=_t(lib, PAD)),
    "encoder_layer_callable_activation": lambda lib: filled(
        lib, _encoder_layer(lib, activation=lib.nn.functional.silu), 2)(_t(lib, SRC)),
    "encoder_layer_unbatched": lambda lib: filled(lib, _encoder_layer(lib), 0)(_t(lib, SRC[:, 0])),
    "decoder_layer": lambda lib: filled(lib, _decoder_layer(lib), 3)(
        _t(lib, TGT), _t(lib, SRC), tgt_mask=_mask(lib, 2), memory_key_padding_mask=_t(lib, PAD)),
    "decoder_layer_norm_first_no_bias": lambda lib: filled(lib, _decoder_layer(lib, norm_first=True, bias=False), 4)(
        _t(lib, TGT), _t(lib, SRC)),
    "encoder_stack_with_norm": lambda lib: filled(lib, lib.nn.TransformerEncoder(
        _encoder_layer(lib), 2, norm=lib.nn.LayerNorm(4, dtype=lib.float64)), 5)(_t(lib, SRC), mask=_mask(lib, 3)),
    "decoder_stack": lambda lib: filled(lib, lib.nn.TransformerDecoder(_decoder_layer(lib), 2), 6)(
        _t(lib, TGT), _t(lib, SRC), tgt_mask=_mask(lib, 2)),
    "transformer": lambda lib: filled(lib, lib.nn.Transformer(4, 2, 2, 1, 6, dtype=lib.float64), 7)(
        _t(lib, SRC), _t(lib, TGT), tgt_mask=_mask(lib, 2), src_key_padding_mask=_t(lib, PAD),
        memory_key_padding_mask=_t(lib, PAD)),
    "transformer_batch_first": lambda lib: filled(
        lib, lib.nn.Transformer(4, 2, 1, 2, 6, batch_first=True, dtype=lib.float64), 8)(
        _t(lib, SRC.transpose(1, 0, 2)), _t(lib, TGT.transpose(1, 0, 2)), tgt_mask=_mask(lib, 2)),
    "encoder_inference_pads_with_zeros": lambda lib: _no_grad(lib, filled(lib, lib.nn.TransformerEncoder(
        _encoder_layer(lib, batch_first=True), 2), 9), _t(lib, SRC.transpose(1, 0, 2)),
        src_key_padding_mask=_t(lib, PAD)),
    "multihead_attention_weights_per_head": lambda lib: filled(
        lib, lib.nn.MultiheadAttention(4, 2, dtype=lib.float64), 10)(
        _t(lib, TGT), _t(lib, SRC), _t(lib, SRC), key_padding_mask=_t(lib, PAD), average_attn_weights=False)[1],
}


def _no_grad(lib: Any, model: Any, *args: Any, **kwargs: Any) -> Any:
    with lib.no_grad():
        return model(*args, **kwargs)


def _causal_bias_kv(lib: Any) -> Any:
    attention = filled(lib, lib.nn.MultiheadAttention(4, 2, add_bias_kv=True, add_zero_attn=True, dtype=lib.float64),
                       12)
    x = _t(lib, SRC)
    mask = _t(lib, np.triu(np.ones((3, 3), dtype=bool), 1))
    return attention(x, x, x, attn_mask=mask, is_causal=True, need_weights=False)[0]


CASES["multihead_attention_is_causal_masks_all_later_keys"] = _causal_bias_kv


def _mha_functional(lib: Any, unbatched: bool = False, **options: Any) -> Any:
    """``F.multi_head_attention_forward`` called directly, on float64 leaves drawn from one generator: the
    output, the weights (when asked for) and the gradients of their sum with respect to every leaf
    tensor, flattened into one tensor."""
    rng = np.random.default_rng(13)

    def leaf(*shape: int) -> Any:
        return lib.tensor(rng.standard_normal(shape) * 0.5, requires_grad=True)

    query = leaf(3, 4) if unbatched else leaf(3, 2, 4)
    key = leaf(2, 4) if unbatched else leaf(2, 2, 4)
    value = key if options.pop("key_is_value", False) else leaf(*key.shape)
    leaves = {"query": query, "key": key, "value": value, "in_proj_bias": leaf(12), "out_proj_weight": leaf(4, 4),
              "out_proj_bias": leaf(4)}
    if options.get("use_separate_proj_weight"):
        leaves.update(q_proj_weight=leaf(4, 4), k_proj_weight=leaf(4, 4), v_proj_weight=leaf(4, 4),
                      in_proj_weight=None)
    else:
        leaves["in_proj_weight"] = leaf(12, 4)
    for name in ("bias_k", "bias_v"):
        leaves[name] = leaf(1, 1, 4) if options.pop(name, False) else None
    for name in ("static_k", "static_v"):
        if options.pop(name, False):
            leaves[name] = leaf(2 if unbatched else 4, 2, 2)
    inputs = list({id(t): t for t in leaves.values() if t is not None}.values())  # key is value: once
    out, weights = lib.nn.functional.multi_head_attention_forward(
        leaves.pop("query"), leaves.pop("key"), leaves.pop("value"), 4, 2, leaves.pop("in_proj_weight"),
        leaves.pop("in_proj_bias"), leaves.pop("bias_k"), leaves.pop("bias_v"), options.pop("add_zero_attn", False),
        0.0, leaves.pop("out_proj_weight"), leaves.pop("out_proj_bias"), **leaves, **options)
    total = out.sum() if weights is None else out.sum() + (weights * weights).sum()
    grads = lib.autograd.grad(total, inputs, allow_unused=True)
    parts = [out, weights] + [g for g in grads if g is not None]
    return lib.cat([p.reshape(-1) for p in parts if p is not None])


PAD_MASK = np.array([[False, True], [False, False]])
CASES.update({
    "mha_functional_packed_bias_kv_zero_attn_padding": lambda lib: _mha_functional(
        lib, bias_k=True, bias_v=True, add_zero_attn=True, key_padding_mask=_t(lib, PAD_MASK)),
    "mha_functional_key_is_value_attn_mask_per_head": lambda lib: _mha_functional(
        lib, key_is_value=True, attn_mask=_t(lib, np.array([[False, True], [False, False], [True, False]])),
        average_attn_weights=False),
    "mha_functional_separate_weights_static_kv": lambda lib: _mha_functional(
        lib, use_separate_proj_weight=True, static_k=True, static_v=True),
    "mha_functional_separate_weights_without_weights": lambda lib: _mha_functional(
        lib, use_separate_proj_weight=True, need_weights=False, key_padding_mask=_t(lib, PAD_MASK)),
    "mha_functional_unbatched_static_v_eval": lambda lib: _mha_functional(lib, True, static_v=True, training=False),
})
