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
