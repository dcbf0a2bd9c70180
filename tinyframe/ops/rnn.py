"""Recurrent cells and layers: Elman RNN (tanh / relu), LSTM and GRU, with PyTorch's gate layouts and
the graphs PyTorch's CPU build records.

Layouts, gates stacked along the rows of the weights as in PyTorch (``H`` hidden size):
    RNN:  h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh)
    LSTM: i, f, g, o = (x W_ih^T + b_ih + h W_hh^T + b_hh).chunk(4)
          c' = sigmoid(f) * c + sigmoid(i) * tanh(g);  h' = sigmoid(o) * tanh(c')  (then h' W_hr^T)
    GRU:  r, z = sigmoid(gi_r + gh_r), sigmoid(gi_z + gh_z);  n = tanh(gi_n + r * gh_n)
          h' = (1 - z) * n + z * h,   with gi = x W_ih^T + b_ih and gh = h W_hh^T + b_hh

A layer is composed of the cells as PyTorch composes it (``FullLayer`` in ATen's RNN.cpp): the input
projection of the whole sequence at once, unbound into steps, each step a cell whose gates come from
``unsafe_chunk``, the hidden states stacked. The exception is a float32 LSTM without projections,
which PyTorch's CPU build runs as one oneDNN kernel per layer and direction
(``MkldnnRnnLayerBackward0``); here that is ``_LSTMLayer``, a fused op that loops over time on raw
arrays in forward and runs backpropagation through time in its backward, with the input projection
and all weight gradients as single matmuls over the sequence. While the backward pass itself is
recorded (``create_graph=True``), the fused op re-runs its layer with the composed cells and
differentiates that, so higher-order gradients follow.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import dtypes
from .._graph import MultiOutputOp
from . import linalg, shape, unary
from .linear import linear
from .unary import _sigmoid_array

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["rnn_tanh_cell", "rnn_relu_cell", "lstm_cell", "gru_cell"]


# ------------------------------------------------------------------ steps (composed of core ops)
# Each step takes the input's projection ``gi = x W_ih^T + b_ih`` (a layer projects the whole
# sequence at once) and builds PyTorch's nodes in PyTorch's order (ATen's ``SimpleCell``,
# ``LSTMCell``, ``GRUCell``, whose in-place ops record as these out-of-place ones do).

def _simple_step(act: Callable[[Tensor], Tensor]) -> Callable[..., Tensor]:
    def step(gi: Tensor, h: Tensor, w_hh: Tensor, b_hh: Tensor | None, w_hr: Tensor | None = None) -> Tensor:
        return act(linear(h, w_hh, b_hh) + gi)
    return step


_tanh_step, _relu_step = _simple_step(unary.tanh), _simple_step(unary.relu)


def _lstm_step(gi: Tensor, hx: tuple, w_hh: Tensor, b_hh: Tensor | None, w_hr: Tensor | None = None) -> tuple:
    h, c = hx
    i, f, g, o = shape.unsafe_chunk(linear(h, w_hh, b_hh) + gi, 4, 1)
    c = unary.sigmoid(f) * c + unary.sigmoid(i) * unary.tanh(g)
    h = unary.sigmoid(o) * unary.tanh(c)
    return (h if w_hr is None else linalg.matmul(h, shape.t(w_hr))), c


def _gru_step(gi: Tensor, h: Tensor, w_hh: Tensor, b_hh: Tensor | None, w_hr: Tensor | None = None) -> Tensor:
    i_r, i_z, i_n = shape.unsafe_chunk(gi, 3, 1)
    h_r, h_z, h_n = shape.unsafe_chunk(linear(h, w_hh, b_hh), 3, 1)
    r = unary.sigmoid(h_r + i_r)
    z = unary.sigmoid(h_z + i_z)
    n = unary.tanh(i_n + h_n * r)
    return (h - n) * z + n


_STEPS: dict[str, Callable[..., Any]] = {"RNN_TANH": _tanh_step, "RNN_RELU": _relu_step, "LSTM": _lstm_step,
                                         "GRU": _gru_step}


# ------------------------------------------------------------------ cells

def rnn_tanh_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None = None,
                  b_hh: Tensor | None = None) -> Tensor:
    """One Elman step: ``h' = tanh(input W_ih^T + b_ih + hx W_hh^T + b_hh)``."""
    return _tanh_step(linear(input, w_ih, b_ih), hx, w_hh, b_hh)


def rnn_relu_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None = None,
                  b_hh: Tensor | None = None) -> Tensor:
    """One Elman step: ``h' = relu(input W_ih^T + b_ih + hx W_hh^T + b_hh)``."""
    return _relu_step(linear(input, w_ih, b_ih), hx, w_hh, b_hh)


def lstm_cell(input: Tensor, hx: tuple, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None = None,
              b_hh: Tensor | None = None) -> tuple:
    """One LSTM step on ``hx = (h, c)``, gates ``i, f, g, o``: returns ``(h', c')``."""
    return _lstm_step(linear(input, w_ih, b_ih), hx, w_hh, b_hh)


def gru_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None = None,
             b_hh: Tensor | None = None) -> Tensor:
    """One GRU step, gates ``r, z, n``: ``h' = n + z * (hx - n)``."""
    return _gru_step(linear(input, w_ih, b_ih), hx, w_hh, b_hh)


# ------------------------------------------------------------------ layers

def _steps(length: int, reverse: bool) -> range:
    return range(length - 1, -1, -1) if reverse else range(length)


def composed_layer(mode: str, x: Tensor, state: Any, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None,
                   b_hh: Tensor | None, w_hr: Tensor | None = None, *, reverse: bool = False) -> tuple:
    """One layer in one direction over a time-major ``x (L, N, F)`` from ``state`` (``h0 (N, P)``, or
    ``(h0, c0)`` for an LSTM), composed of the cells: ``(output (L, N, P), final state)``."""
    step = _STEPS[mode]
    inputs = shape.unbind(linear(x, w_ih, b_ih), 0)
    outputs: list = [None] * len(inputs)
    for t in _steps(len(inputs), reverse):
        state = step(inputs[t], state, w_hh, b_hh, w_hr)
        outputs[t] = state[0] if mode == "LSTM" else state
    return shape.stack(outputs, 0), state


def fuses(mode: str, dtype: Any, projected: bool) -> bool:
    """Whether PyTorch's CPU build runs the layer as one kernel: a float32 LSTM without projections."""
    return mode == "LSTM" and dtype == dtypes.float32 and not projected


def _previous(xp: Any, sequence: Any, first: Any, reverse: bool) -> Any:
    """The state each step starts from: ``first`` at the first step, else the previous step's."""
    prev = xp.empty_like(sequence)
    if reverse:
        prev[-1], prev[:-1] = first, sequence[1:]
    else:
        prev[0], prev[1:] = first, sequence[:-1]
    return prev


def _rows(a: Any) -> Any:
    return a.reshape(-1, a.shape[-1])


class _LSTMLayer(MultiOutputOp, node_name="MkldnnRnnLayerBackward0"):
    """One float32 LSTM layer in one direction over a time-major ``x (L, N, F)``, as PyTorch's
    ``mkldnn_rnn_layer``: inputs ``x, w_ih, w_hh, b_ih, b_hh, h0, c0`` (biases None where the layer
    has none), outputs ``(output (L, N, H), h_last, c_last)``."""

    @staticmethod
    def forward(ctx: _LSTMLayer, x: Any, w_ih: Any, w_hh: Any, b_ih: Any, b_hh: Any, h0: Any, c0: Any, *,
                reverse: bool) -> Any:
        ctx.reverse = reverse
        xp = ctx.xp
        gates = (_rows(x) @ w_ih.T).reshape(x.shape[:2] + (w_ih.shape[0],))  # 2-D matmuls reach BLAS directly
        for bias in (b_ih, b_hh):
            if bias is not None:
                gates += bias
        length, n, width = gates.shape
        hidden = width // 4
        hs, cs = xp.empty((length, n, hidden), gates.dtype), xp.empty((length, n, hidden), gates.dtype)
        acts = xp.empty_like(gates)  # each step's gate activations (matmul_add cannot write into its addend)
        w_hh_t, h, c = w_hh.T, h0, c0
        for t in _steps(length, reverse):
            a = linalg.matmul_add(xp, h, w_hh_t, gates[t], out=acts[t])
            a[:, :2 * hidden] = _sigmoid_array(xp, a[:, :2 * hidden])
            a[:, 3 * hidden:] = _sigmoid_array(xp, a[:, 3 * hidden:])
            xp.tanh(a[:, 2 * hidden:3 * hidden], out=a[:, 2 * hidden:3 * hidden])
            i, f, g, o = (a[:, k * hidden:(k + 1) * hidden] for k in range(4))
            c = xp.multiply(f, c, out=cs[t])
            c += i * g
            h = xp.multiply(o, xp.tanh(c), out=hs[t])
        ctx.save_for_backward(x, w_ih, w_hh, b_ih, b_hh, h0, c0, hs, cs, acts)
        return hs, h.copy(), c.copy()  # the final states own their memory, as PyTorch's do

    @staticmethod
    def backward(ctx: _LSTMLayer, grads: Any) -> tuple:
        x, w_ih, w_hh, b_ih, b_hh, h0, c0, hs, cs, acts = ctx.saved_tensors
        xp, reverse = ctx.xp, ctx.reverse
        g_out, g_h, g_c = grads.slots
        dh_next = xp.zeros_like(h0) if g_h is None else g_h
        dc = xp.zeros_like(c0) if g_c is None else g_c
        length, n, width = acts.shape
        hidden = width // 4
        c_prev = _previous(xp, cs, c0, reverse)
        d_gates = xp.empty_like(acts)
        for t in reversed(_steps(length, reverse)):
            i, f, g, o = (acts[t, :, k * hidden:(k + 1) * hidden] for k in range(4))
            tanh_c = xp.tanh(cs[t])
            dh = dh_next if g_out is None else dh_next + g_out[t]
            dc = dc + dh * o * (1 - tanh_c * tanh_c)
            d = d_gates[t]
            d[:, :hidden] = dc * g * i * (1 - i)
            d[:, hidden:2 * hidden] = dc * c_prev[t] * f * (1 - f)
            d[:, 2 * hidden:3 * hidden] = dc * i * (1 - g * g)
            d[:, 3 * hidden:] = dh * tanh_c * o * (1 - o)
            dc = dc * f
            dh_next = d @ w_hh
        needs = ctx.needs_input_grad
        rows = _rows(d_gates)
        dx = (rows @ w_ih).reshape(x.shape) if needs[0] else None
        dw_ih = rows.T @ _rows(x) if needs[1] else None
        dw_hh = rows.T @ _rows(_previous(xp, hs, h0, reverse)) if needs[2] else None
        db = rows.sum(axis=0)  # both biases' gradient: each gets its own array
        return dx, dw_ih, dw_hh, db if needs[3] else None, db.copy() if needs[4] else None, dh_next, dc

    @staticmethod
    def compose(ctx: _LSTMLayer) -> tuple:
        """The inputs and the outputs recomputed with the cells, for a recorded backward pass (the
        engine differentiates this composition; the backward above works on arrays only)."""
        inputs = ctx.saved_tensors[:7]
        x, w_ih, w_hh, b_ih, b_hh, h0, c0 = inputs
        out, (h, c) = composed_layer("LSTM", x, (h0, c0), w_ih, w_hh, b_ih, b_hh, reverse=ctx.reverse)
        return inputs, (out, h, c)


def fused_lstm_layer(x: Tensor, h0: Tensor, c0: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None,
                     b_hh: Tensor | None, *, reverse: bool = False) -> tuple:
    """One float32 LSTM layer as one node (PyTorch's ``mkldnn_rnn_layer``): ``(output, h_last, c_last)``."""
    return _LSTMLayer.apply(x, w_ih, w_hh, b_ih, b_hh, h0, c0, reverse=reverse)
