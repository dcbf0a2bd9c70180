"""Transformer layers: PyTorch's parameter names (state_dicts interchange), outputs equal to PyTorch
2.13's for the same weights (recorded in ``_transformer_expected.py``), masks, options and errors."""
from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import tinyframe as tf
import tinyframe.nn as nn

from ._transformer_cases import CASES
from ._transformer_expected import EXPECTED

pytestmark = pytest.mark.filterwarnings("ignore:enable_nested_tensor is True")

ENCODER_LAYER_KEYS = [
    "self_attn.in_proj_weight", "self_attn.in_proj_bias", "self_attn.out_proj.weight", "self_attn.out_proj.bias",
    "linear1.weight", "linear1.bias", "linear2.weight", "linear2.bias", "norm1.weight", "norm1.bias",
    "norm2.weight", "norm2.bias"]


@pytest.mark.parametrize("name", list(CASES))
def test_outputs_match_pytorch(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = CASES[name](tf)
    np.testing.assert_allclose(out.detach().numpy(), np.asarray(EXPECTED[name]), rtol=1e-7, atol=1e-9)


def test_encoder_layer_state_dict_keys_are_pytorchs() -> None:
    layer = nn.TransformerEncoderLayer(8, 2, 16)
    assert list(layer.state_dict()) == ENCODER_LAYER_KEYS
    assert layer.linear1.weight.shape == (16, 8) and layer.self_attn.in_proj_weight.shape == (24, 8)


def test_transformer_state_dict_names_and_xavier_init() -> None:
    model = nn.Transformer(8, 2, 2, 1, 16)
    keys = list(model.state_dict())
    assert keys[:12] == [f"encoder.layers.0.{k}" for k in ENCODER_LAYER_KEYS]
    assert "encoder.norm.weight" in keys and "decoder.layers.0.multihead_attn.in_proj_weight" in keys
    assert "decoder.layers.0.norm3.bias" in keys and "decoder.norm.bias" in keys
    assert len(keys) == 2 * 12 + 2 + 18 + 2
    weight = model.encoder.layers[0].linear1.weight.detach().numpy()
    bound = np.sqrt(6.0 / (8 + 16))
    assert np.abs(weight).max() <= bound and np.abs(weight).max() > 0.8 * bound


def test_cloned_layers_are_independent() -> None:
    encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 6), 2, enable_nested_tensor=False)
    first, second = encoder.layers[0].linear1.weight, encoder.layers[1].linear1.weight
    np.testing.assert_array_equal(first.detach().numpy(), second.detach().numpy())
    assert first is not second


def test_training_step_reaches_every_parameter() -> None:
    model = nn.Transformer(4, 2, 1, 1, 6, dropout=0.1)
    out = model(tf.randn(3, 2, 4), tf.randn(2, 2, 4))
    out.sum().backward()
    assert all(p.grad is not None for p in model.parameters())


def test_square_subsequent_mask() -> None:
    mask = nn.Transformer.generate_square_subsequent_mask(3)
    np.testing.assert_array_equal(mask.numpy(), [[0, -np.inf, -np.inf], [0, 0, -np.inf], [0, 0, 0]])
    assert mask.dtype == tf.float32


def test_unknown_activation_string() -> None:
    with pytest.raises(RuntimeError, match="activation should be relu/gelu, not tanh"):
        nn.TransformerEncoderLayer(4, 2, activation="tanh")


def test_encoder_warns_when_the_nested_tensor_path_is_off() -> None:
    with pytest.warns(UserWarning, match="self.use_nested_tensor is False because encoder_layer.self_attn.batch_first"):
        nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 6), 1)


def test_transformer_checks_batch_and_feature_sizes() -> None:
    model = nn.Transformer(4, 2, 1, 1, 6)
    with pytest.raises(RuntimeError, match="the batch number of src and tgt must be equal"):
        model(tf.randn(3, 2, 4), tf.randn(2, 3, 4))
    with pytest.raises(RuntimeError, match="the feature number of src and tgt must be equal to d_model"):
        model(tf.randn(3, 2, 5), tf.randn(2, 2, 5))


@pytest.mark.parametrize("options, message", [
    (dict(in_proj_weight=None), "use_separate_proj_weight is False but in_proj_weight is None"),
    (dict(bias_k=(1, 1, 4)), "bias_k is set but bias_v is None"),
    (dict(use_separate_proj_weight=True), "use_separate_proj_weight is True but q_proj_weight is None"),
    (dict(static_k=(3, 2, 2)), "expecting static_k.size(0) of 4, but got 3"),
    (dict(static_v=(4, 2, 3)), "expecting static_v.size(2) of 2, but got 3"),
    (dict(embed_dim_to_check=5), "was expecting embedding dimension of 5, but got 4"),
    (dict(num_heads=3), "embed_dim 4 not divisible by num_heads 3"),
    (dict(bias_k=(1, 1, 4), bias_v=(1, 1, 4), static_k=(4, 3, 2)), "bias cannot be added to static key."),
])
def test_multi_head_attention_forward_raises_pytorchs_errors(options: dict, message: str) -> None:
    q = tf.randn(3, 2, 4)
    args = dict(query=q, key=q, value=q, embed_dim_to_check=4, num_heads=2, in_proj_weight=tf.randn(12, 4),
                in_proj_bias=tf.randn(12), bias_k=None, bias_v=None, add_zero_attn=False, dropout_p=0.0,
                out_proj_weight=tf.randn(4, 4), out_proj_bias=None)
    args.update({k: tf.randn(*v) if isinstance(v, tuple) else v for k, v in options.items()})
    with pytest.raises(AssertionError, match=f"^{re.escape(message)}$"):
        nn.functional.multi_head_attention_forward(**args)


def test_multihead_attention_module_runs_the_public_function(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    original = nn.functional.multi_head_attention_forward
    monkeypatch.setattr(nn.functional, "multi_head_attention_forward",
                        lambda *args, **kwargs: calls.append(kwargs) or original(*args, **kwargs))
    nn.MultiheadAttention(4, 2, kdim=3)(tf.randn(3, 4), tf.randn(2, 3), tf.randn(2, 4))
    assert len(calls) == 1 and calls[0]["use_separate_proj_weight"] is True
