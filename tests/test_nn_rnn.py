"""Recurrent layers (RNN, LSTM, GRU and their cells): outputs against a NumPy reference and against
numbers from PyTorch 2.13 for fixed weights, gradients, parameter names, initialisation, shapes
and errors."""
from __future__ import annotations

import math

import numpy as np
import pytest

import tinyframe as tf
import tinyframe.nn as nn
from tinyframe.autograd import gradcheck, gradgradcheck
from tinyframe.ops import rnn as rnn_ops


def _fill(module: nn.Module, seed: int) -> np.random.Generator:
    """Sets every parameter, in registration order, from U(-0.5, 0.5) drawn by a seeded generator
    (the PyTorch reference numbers below were made the same way)."""
    rng = np.random.default_rng(seed)
    for _, p in module.named_parameters():
        p.data.copy_(tf.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))
    return rng


def _host(t: tf.Tensor) -> np.ndarray:
    return t.detach().cpu().numpy()


# --------------------------------------------------------------------------- NumPy reference
def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def _np_cell(mode: str, x: np.ndarray, h: np.ndarray, c: np.ndarray | None, w: dict) -> tuple:
    gi = x @ w["w_ih"].T + w.get("b_ih", 0)
    gh = h @ w["w_hh"].T + w.get("b_hh", 0)
    if mode in ("tanh", "relu"):
        pre = gi + gh
        return (np.tanh(pre) if mode == "tanh" else np.maximum(pre, 0)), None
    if mode == "LSTM":
        i, f, g, o = np.split(gi + gh, 4, axis=-1)
        c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
        h = _sigmoid(o) * np.tanh(c)
        if "w_hr" in w:
            h = h @ w["w_hr"].T
        return h, c
    r_i, z_i, n_i = np.split(gi, 3, axis=-1)
    r_h, z_h, n_h = np.split(gh, 3, axis=-1)
    r, z = _sigmoid(r_i + r_h), _sigmoid(z_i + z_h)
    n = np.tanh(n_i + r * n_h)
    return (1 - z) * n + z * h, None


def _np_rnn(module: nn.RNNBase, x: np.ndarray) -> tuple:
    """A naive time loop over a time-major ``x (L, N, F)``, with zero initial states."""
    mode = {"RNN_TANH": "tanh", "RNN_RELU": "relu"}.get(module.mode, module.mode)
    params = {name: _host(p) for name, p in module.named_parameters()}
    directions = 2 if module.bidirectional else 1
    size = module.proj_size or module.hidden_size
    h_n, c_n = [], []
    for layer in range(module.num_layers):
        outs = []
        for d in range(directions):
            suffix = f"_l{layer}" + ("_reverse" if d else "")
            w = {k: params[n + suffix] for k, n in (("w_ih", "weight_ih"), ("w_hh", "weight_hh"), ("b_ih", "bias_ih"),
                                                    ("b_hh", "bias_hh"), ("w_hr", "weight_hr")) if n + suffix in params}
            h = np.zeros((x.shape[1], size))
            c = np.zeros((x.shape[1], module.hidden_size))
            out = np.zeros((x.shape[0], x.shape[1], size))
            for t in (range(x.shape[0] - 1, -1, -1) if d else range(x.shape[0])):
                h, c = _np_cell(mode, x[t], h, c, w)
                out[t] = h
            outs.append(out)
            h_n.append(h)
            c_n.append(c)
        x = np.concatenate(outs, axis=-1)
    return x, np.stack(h_n), (np.stack(c_n) if module.mode == "LSTM" else None)


CONFIGS = [
    ("RNN", {}), ("RNN", {"nonlinearity": "relu", "num_layers": 2}), ("RNN", {"bias": False, "bidirectional": True}),
    ("LSTM", {}), ("LSTM", {"num_layers": 2, "bidirectional": True}), ("LSTM", {"proj_size": 3}),
    ("LSTM", {"bias": False, "num_layers": 2}), ("GRU", {}), ("GRU", {"num_layers": 2, "bidirectional": True}),
]


@pytest.mark.parametrize("kind, kwargs", CONFIGS, ids=[f"{k}-{sorted(kw.items())}" for k, kw in CONFIGS])
def test_forward_matches_numpy_reference(kind: str, kwargs: dict, device: str) -> None:
    module = getattr(nn, kind)(4, 5, **kwargs).double()
    rng = _fill(module, 3)
    x = rng.standard_normal((6, 2, 4))
    out, hidden = module.to(device)(tf.tensor(x, device=device))
    ref_out, ref_h, ref_c = _np_rnn(module.cpu(), x)
    h_n, c_n = hidden if kind == "LSTM" else (hidden, None)
    np.testing.assert_allclose(_host(out), ref_out, atol=1e-12)
    np.testing.assert_allclose(_host(h_n), ref_h, atol=1e-12)
    if c_n is not None:
        np.testing.assert_allclose(_host(c_n), ref_c, atol=1e-12)


# --------------------------------------------------------------------------- PyTorch's numbers
TORCH_LAST_STEP = {  # output[-1] of nn.<kind>(3, 4) filled by _fill(m, 0), input rng.standard_normal((3, 2, 3))
    "LSTM": [[-0.04136074, -0.03324537, 0.47018431, 0.01740555], [-0.17569235, 0.00752559, 0.55931865, 0.14354817]],
    "GRU": [[-0.22958617, 0.50279452, 0.16703325, 0.38417269], [-0.698587, 0.47204288, 0.2781281, 0.47319576]],
    "RNN": [[0.0, 0.0, 0.77985409, 0.98799006], [0.0, 1.17326136, 0.0, 0.0]],
}
TORCH_LSTM_C_N = [[[-0.13135336, -0.05943052, 0.84034079, 0.06656952],
                   [-0.50150914, 0.01382996, 1.03196762, 0.41164532]]]


@pytest.mark.parametrize("kind", ["LSTM", "GRU", "RNN"])
def test_outputs_match_pytorch_for_fixed_weights(kind: str) -> None:
    module = getattr(nn, kind)(3, 4, **({"nonlinearity": "relu"} if kind == "RNN" else {})).double()
    rng = _fill(module, 0)
    out, hidden = module(tf.tensor(rng.standard_normal((3, 2, 3))))
    h_n = hidden[0] if kind == "LSTM" else hidden
    np.testing.assert_allclose(_host(out[-1]), TORCH_LAST_STEP[kind], atol=1e-7)
    np.testing.assert_allclose(_host(h_n[0]), TORCH_LAST_STEP[kind], atol=1e-7)
    if kind == "LSTM":
        np.testing.assert_allclose(_host(hidden[1]), TORCH_LSTM_C_N, atol=1e-7)


def test_deep_bidirectional_batch_first_lstm_matches_pytorch() -> None:
    module = nn.LSTM(3, 4, num_layers=2, bidirectional=True, batch_first=True).double()
    rng = _fill(module, 1)
    out, (h_n, c_n) = module(tf.tensor(rng.standard_normal((2, 3, 3))))
    assert out.shape == (2, 3, 8) and h_n.shape == (4, 2, 4) and c_n.shape == (4, 2, 4)
    np.testing.assert_allclose(_host(out.sum((0, 1))), [-1.20809917, -0.24464719, -0.80236902, 1.03195294,
                                                         0.75381742, 0.30926714, -0.82904503, 0.45278361], atol=1e-7)
    np.testing.assert_allclose(_host(h_n[3]), [[0.14911036, 0.07757816, -0.1549633, 0.0907845],
                                               [0.15517602, 0.0626338, -0.15482681, 0.1116941]], atol=1e-7)
    np.testing.assert_allclose(_host(c_n[0]), [[0.26680972, 0.34114978, 0.30809995, -0.18193243],
                                               [-0.03687276, 0.61904131, 0.56360128, -0.39849134]], atol=1e-7)


# --------------------------------------------------------------------------- gradients
@pytest.mark.parametrize("kind, kwargs", CONFIGS, ids=[f"{k}-{sorted(kw.items())}" for k, kw in CONFIGS])
def test_gradcheck_in_float64(kind: str, kwargs: dict) -> None:
    module = getattr(nn, kind)(2, 3, **{**kwargs, "proj_size": 2} if "proj_size" in kwargs else kwargs).double()
    rng = _fill(module, 4)
    x = tf.tensor(rng.standard_normal((3, 2, 2)), requires_grad=True)
    params = list(module.parameters())

    def fn(x: tf.Tensor, *_: tf.Tensor) -> tuple:
        out, hidden = module(x)
        return (out, *hidden) if kind == "LSTM" else (out, hidden)

    assert gradcheck(fn, (x, *params))


@pytest.mark.parametrize("kind", ["RNN", "LSTM", "GRU"])
def test_gradgradcheck_in_float64(kind: str) -> None:
    module = getattr(nn, kind)(2, 2).double()
    rng = _fill(module, 5)
    x = tf.tensor(rng.standard_normal((2, 1, 2)), requires_grad=True)
    h0 = tf.tensor(rng.standard_normal((1, 1, 2)), requires_grad=True)

    def fn(x: tf.Tensor, h0: tf.Tensor, w: tf.Tensor) -> tf.Tensor:
        return module(x, (h0, h0 * 0.5) if kind == "LSTM" else h0)[0]

    assert gradgradcheck(fn, (x, h0, module.weight_hh_l0))


def test_initial_state_gradients_and_unused_input_gradient() -> None:
    module = nn.LSTM(2, 3).double()
    rng = _fill(module, 6)
    x = tf.tensor(rng.standard_normal((4, 2, 2)))  # no gradient needed for the input
    h0 = tf.tensor(rng.standard_normal((1, 2, 3)), requires_grad=True)
    c0 = tf.tensor(rng.standard_normal((1, 2, 3)), requires_grad=True)
    assert gradcheck(lambda h, c: module(x, (h, c))[0], (h0, c0))
    out, _ = module(x, (h0, c0))
    out.sum().backward()
    assert x.grad is None and h0.grad.shape == (1, 2, 3) and module.weight_ih_l0.grad.shape == (12, 2)


def test_grad_fn_names_match_pytorch() -> None:
    x = tf.randn(3, 2, 4, requires_grad=True)
    out, (h, c) = nn.LSTM(4, 5)(x)
    assert (out.grad_fn.name(), h.grad_fn.name(), c.grad_fn.name()) == (
        "MkldnnRnnLayerBackward0", "StackBackward0", "StackBackward0")
    assert nn.LSTM(4, 5, bidirectional=True)(x)[0].grad_fn.name() == "CatBackward0"
    assert nn.GRU(4, 5)(x)[0].grad_fn.name() == "StackBackward0"
    assert nn.RNN(4, 5)(x)[1].grad_fn.name() == "StackBackward0"


# --------------------------------------------------------------------------- parameters and printing
def test_parameter_names_and_shapes_match_pytorch() -> None:
    lstm = nn.LSTM(10, 20, num_layers=2, bidirectional=True)
    keys = list(lstm.state_dict())
    assert keys == ["weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0", "weight_ih_l0_reverse",
                    "weight_hh_l0_reverse", "bias_ih_l0_reverse", "bias_hh_l0_reverse", "weight_ih_l1",
                    "weight_hh_l1", "bias_ih_l1", "bias_hh_l1", "weight_ih_l1_reverse", "weight_hh_l1_reverse",
                    "bias_ih_l1_reverse", "bias_hh_l1_reverse"]
    assert lstm.weight_ih_l0.shape == (80, 10) and lstm.weight_ih_l1.shape == (80, 40)
    assert lstm.weight_hh_l1_reverse.shape == (80, 20) and lstm.bias_hh_l0.shape == (80,)
    assert list(nn.GRU(3, 4, bias=False).state_dict()) == ["weight_ih_l0", "weight_hh_l0"]
    assert nn.GRU(3, 4).weight_ih_l0.shape == (12, 3)
    proj = nn.LSTM(3, 5, proj_size=2)
    assert list(proj.state_dict()) == ["weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0", "weight_hr_l0"]
    assert proj.weight_hh_l0.shape == (20, 2) and proj.weight_hr_l0.shape == (2, 5)
    assert [w is getattr(proj, n) for w, n in zip(proj._flat_weights, proj._flat_weights_names)] == [True] * 5
    assert list(nn.LSTMCell(3, 4).state_dict()) == ["weight_ih", "weight_hh", "bias_ih", "bias_hh"]
    assert list(nn.GRUCell(3, 4, bias=False).state_dict()) == ["weight_ih", "weight_hh"]


def test_init_is_uniform_within_one_over_sqrt_hidden() -> None:
    for module in (nn.LSTM(8, 16, num_layers=2), nn.GRU(8, 16), nn.RNN(8, 16), nn.LSTMCell(8, 16)):
        bound = 1 / math.sqrt(16)
        values = np.concatenate([_host(p).ravel() for p in module.parameters()])
        assert np.abs(values).max() <= bound
        assert np.abs(values).max() > 0.95 * bound and abs(values.mean()) < 0.02


REPRS = [
    (lambda: nn.LSTM(10, 20, batch_first=True), "LSTM(10, 20, batch_first=True)"),
    (lambda: nn.RNN(3, 4, nonlinearity="relu", num_layers=2, bias=False, dropout=0.5, bidirectional=True),
     "RNN(3, 4, num_layers=2, bias=False, dropout=0.5, bidirectional=True)"),
    (lambda: nn.GRU(3, 4), "GRU(3, 4)"),
    (lambda: nn.LSTM(3, 4, proj_size=2), "LSTM(3, 4, proj_size=2)"),
    (lambda: nn.RNNCell(3, 4), "RNNCell(3, 4)"),
    (lambda: nn.RNNCell(3, 4, nonlinearity="relu"), "RNNCell(3, 4, nonlinearity=relu)"),
    (lambda: nn.GRUCell(3, 4, bias=False), "GRUCell(3, 4, bias=False)"),
    (lambda: nn.LSTMCell(3, 4), "LSTMCell(3, 4)"),
]


@pytest.mark.parametrize("make, text", REPRS, ids=[t for _, t in REPRS])
def test_repr_matches_pytorch(make: object, text: str) -> None:
    assert repr(make()) == text


# --------------------------------------------------------------------------- shapes and modes
def test_unbatched_input_and_given_states(device: str) -> None:
    module = nn.GRU(3, 4, num_layers=2).double().to(device)
    x = tf.randn(5, 3, dtype=tf.float64, device=device)
    h0 = tf.randn(2, 4, dtype=tf.float64, device=device)
    out, h_n = module(x, h0)
    assert out.shape == (5, 4) and h_n.shape == (2, 4)
    batched_out, batched_h = module(x.reshape(5, 1, 3), h0.reshape(2, 1, 4))
    np.testing.assert_allclose(_host(out), _host(batched_out[:, 0]), atol=1e-12)
    np.testing.assert_allclose(_host(h_n), _host(batched_h[:, 0]), atol=1e-12)
    lstm = nn.LSTM(3, 4, batch_first=True).to(device)
    out, (h, c) = lstm(tf.randn(5, 3, device=device))
    assert out.shape == (5, 4) and h.shape == (1, 4) and c.shape == (1, 4)


def test_batch_first_is_the_transposed_layout() -> None:
    first = nn.LSTM(3, 4, batch_first=True).double()
    second = nn.LSTM(3, 4).double()
    second.load_state_dict(first.state_dict())
    x = tf.randn(2, 5, 3, dtype=tf.float64)
    a, (ha, _) = first(x)
    b, (hb, _) = second(x.transpose(0, 1))
    np.testing.assert_allclose(_host(a), _host(b.transpose(0, 1)), atol=1e-12)
    np.testing.assert_allclose(_host(ha), _host(hb), atol=1e-12)


@pytest.mark.parametrize("kind, kwargs", CONFIGS, ids=[f"{k}-{sorted(kw.items())}" for k, kw in CONFIGS])
def test_float32_matches_float64_forward_and_backward(kind: str, kwargs: dict) -> None:
    # A batch of 2 against hidden size 5: each step's h @ w_hh^T takes the float32 fast path of
    # ops.linalg.matmul_add ((w_hh @ h^T)^T, written back row-major); float64 never does.
    wide = getattr(nn, kind)(4, 5, **kwargs).double()
    rng = _fill(wide, 5)
    narrow = getattr(nn, kind)(4, 5, **kwargs)
    narrow.load_state_dict({k: v.float() for k, v in wide.state_dict().items()})
    x = rng.standard_normal((6, 2, 4))
    outs = []
    for module, dtype in ((wide, tf.float64), (narrow, tf.float32)):
        out = module(tf.tensor(x, dtype=dtype))[0]
        (out * out).sum().backward()
        assert out.dtype == dtype
        outs.append([_host(out)] + [_host(p.grad) for p in module.parameters()])
    for reference, value in zip(*outs):
        np.testing.assert_allclose(value, reference, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("batch, hidden, reverse, bias",
                         [(2, 4, False, True), (3, 6, True, False), (1, 16, True, True)])
def test_float32_lstm_layer_node_matches_its_cells(batch: int, hidden: int, reverse: bool, bias: bool) -> None:
    # The one-node float32 layer (MkldnnRnnLayerBackward0) against the same layer composed of its cells,
    # output, final states and every gradient; (2, 4) and (3, 6) take matmul_add's general path, (1, 16)
    # its transposed fast path.
    tf.manual_seed(3)
    x, h0, c0 = tf.randn(4, batch, 3), tf.randn(batch, hidden), tf.randn(batch, hidden)
    weights = [tf.randn(4 * hidden, 3), tf.randn(4 * hidden, hidden)]
    weights += [tf.randn(4 * hidden), tf.randn(4 * hidden)] if bias else [None, None]
    leaves = [t.requires_grad_() for t in (x, h0, c0, *weights) if t is not None]
    composed, (h_last, c_last) = rnn_ops.composed_layer("LSTM", x, (h0, c0), *weights, reverse=reverse)
    results = []
    for out, h, c in (rnn_ops.fused_lstm_layer(x, h0, c0, *weights, reverse=reverse), (composed, h_last, c_last)):
        loss = (out * out).sum() + (2 * h).sum() + (c * c).sum()
        results.append([out, h, c, *tf.autograd.grad(loss, leaves)])
    assert results[0][0].grad_fn.name() == "MkldnnRnnLayerBackward0"
    for fused, composed in zip(*results):
        np.testing.assert_allclose(_host(fused.detach()), _host(composed.detach()), rtol=1e-5, atol=1e-5)


def test_float32_stays_float32() -> None:
    out, (h, c) = nn.LSTM(3, 4, num_layers=2)(tf.randn(5, 2, 3))
    assert out.dtype == h.dtype == c.dtype == tf.float32
    assert nn.GRUCell(3, 4)(tf.randn(2, 3)).dtype == tf.float32


def test_dropout_between_layers_only_in_training() -> None:
    tf.manual_seed(0)
    with pytest.warns(UserWarning, match="non-zero dropout expects num_layers greater than 1"):
        nn.LSTM(3, 4, dropout=0.5)
    module = nn.GRU(3, 4, num_layers=2, dropout=0.5).double()
    plain = nn.GRU(3, 4, num_layers=2).double()
    plain.load_state_dict(module.state_dict())
    x = tf.randn(4, 2, 3, dtype=tf.float64)
    module.eval()
    np.testing.assert_allclose(_host(module(x)[0]), _host(plain(x)[0]), atol=1e-12)
    module.train()
    assert not np.allclose(_host(module(x)[0]), _host(plain(x)[0]))


def test_dropout_between_layers_of_a_packed_sequence_draws_pytorchs_mask() -> None:
    # PyTorch drops out on each layer's packed output (one mask over its rows); values from torch 2.13
    tf.manual_seed(0)
    lstm = nn.LSTM(3, 2, 2, dropout=0.5, bidirectional=True)
    x = tf.randn(4, 2, 3)
    tf.manual_seed(1)
    packed = nn.utils.rnn.pack_padded_sequence(x, tf.tensor([2, 4]), enforce_sorted=False)
    out, (h, c) = lstm(packed)
    np.testing.assert_allclose(out.data.sum(1).tolist(), [-0.2511, -0.1444, -0.1917, -0.1316, -0.1007, -0.0798],
                               atol=1e-4)
    np.testing.assert_allclose(h.sum((0, 2)).tolist(), [0.0674, 0.0431], atol=1e-4)
    assert round(tf.rand(1).item(), 4) == 0.3556  # the same number of draws


def test_errors_match_pytorch() -> None:
    lstm = nn.LSTM(3, 4)
    with pytest.raises(ValueError, match="LSTM: Expected input to be 2D or 3D, got 4D instead"):
        lstm(tf.randn(1, 2, 3, 4))
    with pytest.raises(RuntimeError, match="input.size\\(-1\\) must be equal to input_size. Expected 3, got 5"):
        lstm(tf.randn(2, 2, 5))
    with pytest.raises(RuntimeError, match=r"Expected hidden\[0\] size \(1, 2, 4\), got \[1, 3, 4\]"):
        lstm(tf.randn(2, 2, 3), (tf.zeros(1, 3, 4), tf.zeros(1, 2, 4)))
    with pytest.raises(RuntimeError, match="For batched 3-D input, hx and cx should also be 3-D"):
        lstm(tf.randn(2, 2, 3), (tf.zeros(2, 4), tf.zeros(2, 4)))
    with pytest.raises(RuntimeError, match=r"Expected hidden size \(1, 2, 4\), got \[2, 2, 4\]"):
        nn.GRU(3, 4)(tf.randn(2, 2, 3), tf.zeros(2, 2, 4))
    with pytest.raises(RuntimeError, match="For unbatched 2-D input, hx should also be 2-D but got 3-D tensor"):
        nn.RNN(3, 4)(tf.randn(2, 3), tf.zeros(1, 1, 4))
    with pytest.raises(ValueError, match="does not match weight dtype"):
        lstm(tf.randn(2, 2, 3, dtype=tf.float64))
    with pytest.raises(ValueError, match="Unknown nonlinearity 'gelu'"):
        nn.RNN(3, 4, nonlinearity="gelu")
    with pytest.raises(ValueError, match="proj_size argument is only supported for LSTM"):
        nn.GRU(3, 4, proj_size=2)
    with pytest.raises(ValueError, match="proj_size has to be smaller than hidden_size"):
        nn.LSTM(3, 4, proj_size=4)
    with pytest.raises(ValueError, match="dropout should be a number in range"):
        nn.LSTM(3, 4, dropout=1.5)
    with pytest.raises(ValueError, match="LSTMCell: Expected input to be 1D or 2D, got 3D instead"):
        nn.LSTMCell(3, 4)(tf.randn(1, 2, 3))


# --------------------------------------------------------------------------- cells
@pytest.mark.parametrize("kind, mode", [("RNNCell", "tanh"), ("GRUCell", "GRU"), ("LSTMCell", "LSTM")])
def test_cells_match_numpy_and_run_unbatched(kind: str, mode: str) -> None:
    cell = getattr(nn, kind)(3, 4).double()
    rng = _fill(cell, 7)
    x, h = rng.standard_normal((2, 3)), rng.standard_normal((2, 4))
    c = rng.standard_normal((2, 4))
    w = {k: _host(getattr(cell, n)) for k, n in (("w_ih", "weight_ih"), ("w_hh", "weight_hh"), ("b_ih", "bias_ih"),
                                                  ("b_hh", "bias_hh"))}
    ref_h, ref_c = _np_cell(mode, x, h, c, w)
    state = (tf.tensor(h), tf.tensor(c)) if mode == "LSTM" else tf.tensor(h)
    out = cell(tf.tensor(x), state)
    np.testing.assert_allclose(_host(out[0] if mode == "LSTM" else out), ref_h, atol=1e-12)
    if mode == "LSTM":
        np.testing.assert_allclose(_host(out[1]), ref_c, atol=1e-12)
    single = cell(tf.tensor(x[0]))
    assert (single[0] if mode == "LSTM" else single).shape == (4,)
    params = list(cell.parameters())
    xt = tf.tensor(x, requires_grad=True)
    assert gradcheck(lambda x, *_: cell(x, state)[0] if mode == "LSTM" else cell(x, state), (xt, *params))


def test_cell_grad_fn_names_match_pytorch() -> None:
    x = tf.randn(2, 3, requires_grad=True)
    assert nn.RNNCell(3, 4)(x).grad_fn.name() == "TanhBackward0"
    assert nn.RNNCell(3, 4, nonlinearity="relu")(x).grad_fn.name() == "ReluBackward0"
    h, c = nn.LSTMCell(3, 4)(x)
    assert (h.grad_fn.name(), c.grad_fn.name()) == ("MulBackward0", "AddBackward0")
    assert nn.GRUCell(3, 4)(x).grad_fn.name() == "AddBackward0"
