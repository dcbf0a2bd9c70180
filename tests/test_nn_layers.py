"""Embedding, MultiheadAttention and Bilinear: forward against NumPy, PyTorch 2.13's numbers,
gradients, initialisation, printing, state_dict keys and errors."""
from __future__ import annotations

import math

import numpy as np
import pytest

import tinyframe as tf
import tinyframe.nn as nn
import tinyframe.nn.functional as F
from tinyframe.autograd import gradcheck, gradgradcheck


def _host(t: tf.Tensor) -> np.ndarray:
    return t.detach().cpu().numpy()


def _fill(module: nn.Module, seed: int) -> np.random.Generator:
    rng = np.random.default_rng(seed)
    for _, p in module.named_parameters():
        p.data.copy_(tf.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))
    return rng


# --------------------------------------------------------------------------- Embedding
def test_embedding_looks_up_rows(device: str) -> None:
    module = nn.Embedding(6, 3).to(device)
    idx = np.array([[0, 5, 2], [2, 2, 1]])
    y = module(tf.tensor(idx, device=device))
    assert y.shape == (2, 3, 3) and y.dtype == tf.float32 and y.grad_fn.name() == "EmbeddingBackward0"
    np.testing.assert_array_equal(_host(y), _host(module.weight)[idx])
    assert module(tf.tensor(4, device=device)).shape == (3,)
    assert module(tf.tensor([1, 2], dtype=tf.int32, device=device)).shape == (2, 3)


def test_embedding_gradient_accumulates_repeated_rows_and_skips_padding() -> None:
    module = nn.Embedding(6, 3, padding_idx=2).double()
    np.testing.assert_array_equal(_host(module.weight)[2], np.zeros(3))
    idx = tf.tensor([[0, 2, 5], [2, 2, 1]])
    (module(idx) * tf.arange(18.0, dtype=tf.float64).reshape(2, 3, 3)).sum().backward()
    expected = np.zeros((6, 3))
    expected[0], expected[5], expected[1] = [0, 1, 2], [6, 7, 8], [15, 16, 17]
    np.testing.assert_array_equal(_host(module.weight.grad), expected)


def test_embedding_scale_grad_by_freq_matches_pytorch() -> None:
    weight = tf.tensor([[0.1, 0.2, 0.3]] * 5, requires_grad=True)
    idx = tf.tensor([[1, 2, 1], [4, 0, 1]])
    (F.embedding(idx, weight, padding_idx=4, scale_grad_by_freq=True) * tf.arange(18.0).reshape(2, 3, 3)).sum() \
        .backward()
    np.testing.assert_allclose(_host(weight.grad), [[12, 13, 14], [7, 8, 9], [3, 4, 5], [0, 0, 0], [0, 0, 0]])


def test_embedding_gradients_to_second_order() -> None:
    weight = tf.randn(5, 3, dtype=tf.float64, requires_grad=True)
    idx = tf.tensor([[1, 2, 1], [4, 0, 1]])
    assert gradcheck(lambda w: F.embedding(idx, w), (weight,))
    assert gradgradcheck(lambda w: F.embedding(idx, w) ** 2, (weight,))
    assert gradgradcheck(lambda w: F.embedding(idx, w, padding_idx=1) ** 2, (weight,))
    # The frequency-scaled "gradient" is not the true one, so only its own adjoint can be checked.
    assert gradgradcheck(lambda w: F.embedding(idx, w, scale_grad_by_freq=True), (weight,))


def test_embedding_init_state_dict_and_repr() -> None:
    tf.manual_seed(0)
    module = nn.Embedding(1000, 20)
    values = _host(module.weight)
    assert abs(values.mean()) < 0.02 and abs(values.std() - 1) < 0.02  # N(0, 1)
    assert list(module.state_dict()) == ["weight"]
    assert repr(module) == "Embedding(1000, 20)"
    assert repr(nn.Embedding(10, 3, padding_idx=-1, scale_grad_by_freq=True)) == \
        "Embedding(10, 3, padding_idx=9, scale_grad_by_freq=True)"


def test_embedding_from_pretrained_is_frozen_by_default() -> None:
    weights = tf.tensor([[1.0, 2.0], [3.0, 4.0]])
    module = nn.Embedding.from_pretrained(weights)
    assert not module.weight.requires_grad
    np.testing.assert_array_equal(_host(module(tf.tensor([1, 0]))), [[3, 4], [1, 2]])
    assert nn.Embedding.from_pretrained(weights, freeze=False).weight.requires_grad


def test_embedding_errors() -> None:
    weight = tf.randn(5, 3)
    with pytest.raises(IndexError, match="index out of range in self"):
        F.embedding(tf.tensor([5]), weight)
    with pytest.raises(IndexError, match="index out of range in self"):
        F.embedding(tf.tensor([-1]), weight)
    with pytest.raises(RuntimeError, match="Expected tensor for argument #1 'indices' to have one of the following"):
        F.embedding(tf.tensor([1.0]), weight)
    with pytest.raises(AssertionError, match="Padding_idx must be within num_embeddings"):
        nn.Embedding(5, 3, padding_idx=5)
    with pytest.raises(NotImplementedError, match="sparse gradients are not supported"):
        nn.EmbeddingBag(5, 3, sparse=True)  # (Embedding(sparse=True) works: tests/test_sparse.py)


# --------------------------------------------------------------------------- MultiheadAttention
def _np_softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _np_mha(module: nn.MultiheadAttention, q: np.ndarray, k: np.ndarray, v: np.ndarray,
            mask: np.ndarray | None) -> tuple:
    """Per batch element and head, on time-major inputs; ``mask (N, L, S)`` additive."""
    e, heads = module.embed_dim, module.num_heads
    if module._qkv_same_embed_dim:
        w_q, w_k, w_v = np.split(_host(module.in_proj_weight), 3)
    else:
        w_q, w_k, w_v = (_host(getattr(module, f"{n}_proj_weight")) for n in "qkv")
    b_q, b_k, b_v = np.split(_host(module.in_proj_bias), 3) if module.in_proj_bias is not None else (0, 0, 0)
    out_w = _host(module.out_proj.weight)
    out_b = _host(module.out_proj.bias) if module.out_proj.bias is not None else 0
    d = e // heads
    outs, weights = [], []
    for n in range(q.shape[1]):
        qp, kp, vp = q[:, n] @ w_q.T + b_q, k[:, n] @ w_k.T + b_k, v[:, n] @ w_v.T + b_v
        head_outs, head_weights = [], []
        for h in range(heads):
            scores = qp[:, h * d:(h + 1) * d] @ kp[:, h * d:(h + 1) * d].T / math.sqrt(d)
            if mask is not None:
                scores = scores + mask[n]
            a = _np_softmax(scores)
            head_weights.append(a)
            head_outs.append(a @ vp[:, h * d:(h + 1) * d])
        outs.append(np.concatenate(head_outs, -1) @ out_w.T + out_b)
        weights.append(np.mean(head_weights, axis=0))
    return np.stack(outs, 1), np.stack(weights)


@pytest.mark.parametrize("kwargs", [{}, {"kdim": 3, "vdim": 5}, {"bias": False}],
                         ids=["packed", "kdim-vdim", "no-bias"])
def test_multihead_attention_matches_numpy(kwargs: dict, device: str) -> None:
    module = nn.MultiheadAttention(4, 2, **kwargs).double()
    rng = _fill(module, 1)
    q = rng.standard_normal((3, 2, 4))
    k = rng.standard_normal((5, 2, kwargs.get("kdim", 4)))
    v = rng.standard_normal((5, 2, kwargs.get("vdim", 4)))
    padding = np.array([[False, False, True, False, True], [False, True, False, False, False]])
    attn_mask = rng.standard_normal((3, 5))
    module.to(device)
    out, weights = module(tf.tensor(q, device=device), tf.tensor(k, device=device), tf.tensor(v, device=device),
                          key_padding_mask=tf.tensor(padding, device=device),
                          attn_mask=tf.tensor(attn_mask, device=device))
    mask = attn_mask[None] + np.where(padding, -np.inf, 0.0)[:, None, :]
    ref_out, ref_weights = _np_mha(module.cpu(), q, k, v, mask)
    np.testing.assert_allclose(_host(out), ref_out, atol=1e-12)
    np.testing.assert_allclose(_host(weights), ref_weights, atol=1e-12)


def test_multihead_attention_matches_pytorch() -> None:
    module = nn.MultiheadAttention(4, 2).double()
    rng = _fill(module, 2)
    q, k = tf.tensor(rng.standard_normal((2, 1, 4))), tf.tensor(rng.standard_normal((3, 1, 4)))
    out, weights = module(q, k, k, key_padding_mask=tf.tensor([[False, True, False]]))
    np.testing.assert_allclose(_host(out), [[[0.57100617, -0.18572709, 0.00397734, 0.04190201]],
                                            [[0.61329839, -0.18701294, -0.03910766, 0.04254504]]], atol=1e-7)
    np.testing.assert_allclose(_host(weights), [[[0.46960556, 0.0, 0.53039444], [0.52197501, 0.0, 0.47802499]]],
                               atol=1e-7)


def test_multihead_attention_layouts_and_options() -> None:
    module = nn.MultiheadAttention(4, 2, batch_first=True).double()
    x = tf.randn(2, 3, 4, dtype=tf.float64)
    out, weights = module(x, x, x)
    assert out.shape == (2, 3, 4) and weights.shape == (2, 3, 3)
    time_major = nn.MultiheadAttention(4, 2).double()
    time_major.load_state_dict(module.state_dict())
    reference, _ = time_major(x.transpose(0, 1), x.transpose(0, 1), x.transpose(0, 1))
    np.testing.assert_allclose(_host(out), _host(reference.transpose(0, 1)), atol=1e-12)
    per_head = module(x, x, x, average_attn_weights=False)[1]
    assert per_head.shape == (2, 2, 3, 3)
    np.testing.assert_allclose(_host(per_head.mean(1)), _host(weights), atol=1e-12)
    assert module(x, x, x, need_weights=False)[1] is None
    causal = tf.tensor(np.triu(np.ones((3, 3), bool), 1))
    masked = module(x, x, x, attn_mask=causal)[1]
    assert np.all(_host(masked)[:, np.triu_indices(3, 1)[0], np.triu_indices(3, 1)[1]] == 0)
    single, single_weights = module(x[0], x[0], x[0])
    np.testing.assert_allclose(_host(single), _host(out[0]), atol=1e-12)
    assert single_weights.shape == (3, 3)


def test_multihead_attention_bias_kv_and_zero_attn() -> None:
    module = nn.MultiheadAttention(4, 2, add_bias_kv=True, add_zero_attn=True)
    assert list(module.state_dict()) == ["in_proj_weight", "in_proj_bias", "bias_k", "bias_v", "out_proj.weight",
                                         "out_proj.bias"]
    out, weights = module(tf.randn(3, 2, 4), tf.randn(5, 2, 4), tf.randn(5, 2, 4))
    assert out.shape == (3, 2, 4) and weights.shape == (2, 3, 7)  # 5 keys + bias_k + the zero key


def test_multihead_attention_gradcheck_in_float64() -> None:
    module = nn.MultiheadAttention(4, 2, kdim=3, vdim=2).double()
    _fill(module, 3)
    q = tf.randn(2, 1, 4, dtype=tf.float64, requires_grad=True)
    k = tf.randn(3, 1, 3, dtype=tf.float64, requires_grad=True)
    v = tf.randn(3, 1, 2, dtype=tf.float64, requires_grad=True)
    mask = tf.tensor([[False, True, False]])
    assert gradcheck(lambda q, k, v, *_: module(q, k, v, key_padding_mask=mask),
                     (q, k, v, *module.parameters()))


def test_multihead_attention_parameters_init_and_repr() -> None:
    module = nn.MultiheadAttention(8, 2)
    assert list(module.state_dict()) == ["in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"]
    assert module.in_proj_weight.shape == (24, 8) and module.in_proj_bias.shape == (24,)
    bound = math.sqrt(6 / (24 + 8))  # xavier_uniform_ of (3E, E)
    assert np.abs(_host(module.in_proj_weight)).max() <= bound
    np.testing.assert_array_equal(_host(module.in_proj_bias), np.zeros(24))
    np.testing.assert_array_equal(_host(module.out_proj.bias), np.zeros(8))
    assert repr(module) == ("MultiheadAttention(\n  (out_proj): NonDynamicallyQuantizableLinear(in_features=8, "
                            "out_features=8, bias=True)\n)")
    separate = nn.MultiheadAttention(4, 2, kdim=3, vdim=5, bias=False)
    assert list(separate.state_dict()) == ["q_proj_weight", "k_proj_weight", "v_proj_weight", "out_proj.weight"]
    assert separate.in_proj_weight is None and separate.k_proj_weight.shape == (4, 3)


def test_multihead_attention_dropout_only_in_training() -> None:
    module = nn.MultiheadAttention(4, 2, dropout=0.5)
    x = tf.randn(3, 2, 4)
    module.eval()
    first, second = module(x, x, x)[0], module(x, x, x)[0]
    np.testing.assert_array_equal(_host(first), _host(second))
    module.train()
    assert not np.allclose(_host(module(x, x, x)[0]), _host(first))


def test_multihead_attention_errors_match_pytorch() -> None:
    with pytest.raises(AssertionError, match="embed_dim must be divisible by num_heads"):
        nn.MultiheadAttention(5, 2)
    module = nn.MultiheadAttention(4, 2)
    with pytest.raises(AssertionError, match="For batched \\(3-D\\) `query`, expected `key` and `value` to be 3-D"):
        module(tf.randn(3, 2, 4), tf.randn(3, 4), tf.randn(3, 4))
    with pytest.raises(RuntimeError, match=r"The shape of the 2D attn_mask is tinyframe.Size\(\[2, 2\]\), but "
                                           r"should be \(3, 3\)"):
        module(tf.randn(3, 2, 4), tf.randn(3, 2, 4), tf.randn(3, 2, 4), attn_mask=tf.zeros(2, 2))
    with pytest.raises(AssertionError, match="only bool and floating types of key_padding_mask are supported"):
        module(tf.randn(3, 2, 4), tf.randn(3, 2, 4), tf.randn(3, 2, 4), key_padding_mask=tf.zeros(2, 3, dtype=tf.int64))


# --------------------------------------------------------------------------- Bilinear
def test_bilinear_matches_numpy_and_gradcheck(device: str) -> None:
    module = nn.Bilinear(3, 4, 5).double()
    rng = np.random.default_rng(4)
    x1, x2 = rng.standard_normal((2, 6, 3)), rng.standard_normal((2, 6, 4))
    module.to(device)
    y = module(tf.tensor(x1, device=device), tf.tensor(x2, device=device))
    ref = np.einsum("...i,oij,...j->...o", x1, _host(module.weight), x2) + _host(module.bias)
    np.testing.assert_allclose(_host(y), ref, atol=1e-12)
    a = tf.tensor(x1[0], device=device, requires_grad=True)
    b = tf.tensor(x2[0], device=device, requires_grad=True)
    assert gradcheck(lambda a, b, *_: module(a, b), (a, b, *module.parameters()))


def test_bilinear_init_state_dict_repr_and_errors() -> None:
    tf.manual_seed(0)
    module = nn.Bilinear(16, 4, 8)
    bound = 1 / math.sqrt(16)
    assert np.abs(_host(module.weight)).max() <= bound and np.abs(_host(module.bias)).max() <= bound
    assert np.abs(_host(module.weight)).max() > 0.9 * bound
    assert module.weight.shape == (8, 16, 4) and list(module.state_dict()) == ["weight", "bias"]
    assert repr(module) == "Bilinear(in1_features=16, in2_features=4, out_features=8, bias=True)"
    assert module(tf.randn(16), tf.randn(4)).shape == (8,)
    with pytest.raises(RuntimeError, match="bilinear\\(\\): input2 size does not match weight size: got 5"):
        module(tf.randn(2, 16), tf.randn(2, 5))
    with pytest.raises(RuntimeError, match="input batch dimensions do not match at dim 0: got 2 and 3"):
        module(tf.randn(2, 16), tf.randn(3, 4))


def test_functional_names_exported() -> None:
    for name in ("batch_norm", "layer_norm", "group_norm", "rms_norm", "embedding", "bilinear"):
        assert callable(getattr(F, name)) and name in F.__all__
    for name in ("MultiheadAttention", "Bilinear", "Embedding", "LSTM", "GRU", "RNN", "LayerNorm", "GroupNorm",
                 "BatchNorm1d", "BatchNorm2d", "Conv2d", "MaxPool2d"):
        assert hasattr(nn, name)


@pytest.mark.parametrize("rows", [2, 200])
def test_linear_output_is_row_major_and_exact_to_float32_rounding(rows: int) -> None:
    # 2 rows by a 256 x 128 weight take the float32 fast path of ops.linalg.matmul_add (the product
    # as (W @ x^T)^T, written back row-major); 200 rows take the plain x @ W^T.
    layer = nn.Linear(256, 128)
    x = tf.randn(rows, 256)
    y = layer(x)
    w, b = layer.weight.detach().numpy().astype(np.float64), layer.bias.detach().numpy().astype(np.float64)
    assert y.dtype == tf.float32 and y.stride() == (128, 1)
    np.testing.assert_allclose(y.detach().numpy(), x.numpy().astype(np.float64) @ w.T + b, rtol=1e-5, atol=1e-5)
