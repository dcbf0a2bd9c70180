"""Recurrent cells and layers: Elman RNN (tanh / relu), LSTM and GRU, with PyTorch's gate layouts.

The cells (``lstm_cell`` ...) are compositions of core ops. A whole layer, though, runs as one fused
op per direction: composed step by step, a sequence of length L costs ~15 ops per step, and
slicing the per-step inputs out of the sequence makes the backward pass O(L^2) (every slice's
gradient is a zero-padded copy of the whole sequence). The fused op loops over time on raw arrays
in forward and runs backpropagation through time in its backward, with the input projection and
all weight gradients as single matmuls over the sequence.

Layouts, gates stacked along the rows of the weights as in PyTorch (``H`` hidden size):
    RNN:  h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh)
    LSTM: i, f, g, o = (x W_ih^T + b_ih + h W_hh^T + b_hh).chunk(4)
          c' = sigmoid(f) * c + sigmoid(i) * tanh(g);  h' = sigmoid(o) * tanh(c')  (then h' W_hr^T)
    GRU:  r, z = sigmoid(gi_r + gh_r), sigmoid(gi_z + gh_z);  n = tanh(gi_n + r * gh_n)
          h' = (1 - z) * n + z * h,   with gi = x W_ih^T + b_ih and gh = h W_hh^T + b_hh

While the backward pass itself is recorded (``create_graph=True``), the fused op re-runs its layer
with the composed cells and differentiates that, so higher-order gradients follow.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._graph import Op
from . import linalg, shape, unary
from .linear import linear
from .unary import _sigmoid_array

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["rnn_tanh_cell", "rnn_relu_cell", "lstm_cell", "gru_cell"]


# ------------------------------------------------------------------ cells (composed of core ops)

def rnn_tanh_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None = None,
                  b_hh: Tensor | None = None) -> Tensor:
    """One Elman step: ``h' = tanh(input W_ih^T + b_ih + hx W_hh^T + b_hh)``."""
    return unary.tanh(linear(input, w_ih, b_ih) + linear(hx, w_hh, b_hh))


def rnn_relu_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None = None,
                  b_hh: Tensor | None = None) -> Tensor:
    """One Elman step: ``h' = relu(input W_ih^T + b_ih + hx W_hh^T + b_hh)``."""
    return unary.relu(linear(input, w_ih, b_ih) + linear(hx, w_hh, b_hh))


def lstm_cell(input: Tensor, hx: tuple, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None = None,
              b_hh: Tensor | None = None) -> tuple:
    """One LSTM step on ``hx = (h, c)``, gates ``i, f, g, o``: returns ``(h', c')``."""
    h, c = hx
    i, f, g, o = shape.chunk(linear(input, w_ih, b_ih) + linear(h, w_hh, b_hh), 4, 1)
    c = unary.sigmoid(f) * c + unary.sigmoid(i) * unary.tanh(g)
    return unary.sigmoid(o) * unary.tanh(c), c


def gru_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None = None,
             b_hh: Tensor | None = None) -> Tensor:
    """One GRU step, gates ``r, z, n``: ``h' = n + z * (hx - n)``."""
    i_r, i_z, i_n = shape.chunk(linear(input, w_ih, b_ih), 3, 1)
    h_r, h_z, h_n = shape.chunk(linear(hx, w_hh, b_hh), 3, 1)
    r = unary.sigmoid(i_r + h_r)
    z = unary.sigmoid(i_z + h_z)
    n = unary.tanh(i_n + r * h_n)
    return n + z * (hx - n)


# ------------------------------------------------------------------ fused layers

def _steps(length: int, reverse: bool) -> range:
    return range(length - 1, -1, -1) if reverse else range(length)


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


class _RecurrentLayer(Op):
    """One layer in one direction over a time-major sequence ``x (L, N, F)``.

    Inputs ``x, h0, c0, w_ih, w_hh, b_ih, b_hh, w_hr`` (``None`` where a layer has none). Subclasses
    give ``scan`` (the forward loop: output and the activations backward needs) and ``unscan``
    (backpropagation through time: gradients of the input and hidden pre-activations, of ``h0`` and
    ``c0``, and of ``w_hr``).
    """

    scan: Callable[..., tuple]
    unscan: Callable[..., tuple]

    @staticmethod
    def forward(ctx: _RecurrentLayer, x: Any, h0: Any, c0: Any, w_ih: Any, w_hh: Any, b_ih: Any, b_hh: Any,
                w_hr: Any, *, reverse: bool, relu: bool = False) -> Any:
        ctx.reverse, ctx.relu = reverse, relu
        gi = (_rows(x) @ w_ih.T).reshape(x.shape[:2] + (w_ih.shape[0],))  # 2-D matmuls reach BLAS directly
        if b_ih is not None:
            gi += b_ih
        out, activations = type(ctx).scan(ctx.xp, gi, h0, c0, w_hh, b_hh, w_hr, reverse, relu)
        ctx.save_for_backward(x, h0, c0, w_ih, w_hh, b_ih, b_hh, w_hr, out, *activations)
        return out

    @staticmethod
    def backward(ctx: _RecurrentLayer, g: Any) -> tuple:
        x, h0, c0, w_ih, w_hh, b_ih, b_hh, w_hr, out, *activations = ctx.saved_tensors
        xp = ctx.xp
        needs = ctx.needs_input_grad
        d_gi, d_gh, dh0, dc0, dw_hr = type(ctx).unscan(xp, g, h0, c0, w_hh, w_hr, out, activations, ctx.reverse,
                                                       ctx.relu)
        dx = (_rows(d_gi) @ w_ih).reshape(x.shape) if needs[0] else None
        dw_ih = _rows(d_gi).T @ _rows(x) if needs[3] else None
        dw_hh = None
        if needs[4]:
            h_prev = _previous(xp, out[..., :h0.shape[-1]], h0, ctx.reverse)
            dw_hh = _rows(d_gh).T @ _rows(h_prev)
        db_ih = d_gi.sum(axis=(0, 1)) if needs[5] else None
        db_hh = d_gh.sum(axis=(0, 1)) if needs[6] else None
        return dx, dh0, dc0, dw_ih, dw_hh, db_ih, db_hh, dw_hr


    @staticmethod
    def compose(ctx: _RecurrentLayer) -> tuple:
        """The inputs and the output recomputed with the cells, for a recorded backward pass (the
        engine differentiates this composition; ``unscan`` works on arrays only)."""
        inputs = ctx.saved_tensors[:8]
        mode = "LSTM" if isinstance(ctx, _LSTMLayer) else "GRU" if isinstance(ctx, _GRULayer) else (
            "RNN_RELU" if ctx.relu else "RNN_TANH")
        return inputs, _composed_layer(mode, *inputs, reverse=ctx.reverse)


class _RNNLayer(_RecurrentLayer, node_name="StackBackward0"):
    """Elman layer; output ``(L, N, H)``: the hidden states (PyTorch names this node after its stack)."""

    @staticmethod
    def scan(xp: Any, gi: Any, h0: Any, c0: Any, w_hh: Any, b_hh: Any, w_hr: Any, reverse: bool,
             relu: bool) -> tuple:
        if b_hh is not None:
            gi += b_hh
        out = xp.empty(gi.shape, gi.dtype)
        w_hh_t, h = w_hh.T, h0
        for t in _steps(len(gi), reverse):
            y = linalg.matmul_add(xp, h, w_hh_t, gi[t], out=out[t])
            if relu:
                xp.maximum(y, 0, out=y)
            else:
                xp.tanh(y, out=y)
            h = y
        return out, ()

    @staticmethod
    def unscan(xp: Any, g: Any, h0: Any, c0: Any, w_hh: Any, w_hr: Any, out: Any, activations: list,
               reverse: bool, relu: bool) -> tuple:
        d = xp.empty_like(out)
        dh = xp.zeros_like(h0)
        for t in reversed(_steps(len(out), reverse)):
            dh = dh + g[t]
            y = out[t]
            d[t] = dh * (y > 0) if relu else dh * (1 - y * y)
            dh = d[t] @ w_hh
        return d, d, dh, None, None


class _LSTMLayer(_RecurrentLayer):
    """LSTM layer; output ``(L, N, P + H)``: each step's hidden state (size P, = H without a
    projection) and cell state side by side."""

    @staticmethod
    def scan(xp: Any, gi: Any, h0: Any, c0: Any, w_hh: Any, b_hh: Any, w_hr: Any, reverse: bool,
             relu: bool) -> tuple:
        if b_hh is not None:
            gi += b_hh
        length, n, gates = gi.shape
        hidden, size = gates // 4, h0.shape[-1]
        acts = xp.empty_like(gi)
        out = xp.empty((length, n, size + hidden), gi.dtype)
        w_hh_t = w_hh.T
        w_hr_t = w_hr.T if w_hr is not None else None
        h, c = h0, c0
        for t in _steps(length, reverse):
            a = linalg.matmul_add(xp, h, w_hh_t, gi[t], out=acts[t])
            a[:, :2 * hidden] = _sigmoid_array(xp, a[:, :2 * hidden])
            a[:, 3 * hidden:] = _sigmoid_array(xp, a[:, 3 * hidden:])
            xp.tanh(a[:, 2 * hidden:3 * hidden], out=a[:, 2 * hidden:3 * hidden])
            i, f, gg, o = (a[:, k * hidden:(k + 1) * hidden] for k in range(4))
            c_new = out[t, :, size:]
            xp.multiply(f, c, out=c_new)
            c_new += i * gg
            c = c_new
            h = o * xp.tanh(c)
            if w_hr_t is not None:
                h = h @ w_hr_t
            out[t, :, :size] = h
        return out, (acts,)

    @staticmethod
    def unscan(xp: Any, g: Any, h0: Any, c0: Any, w_hh: Any, w_hr: Any, out: Any, activations: list,
               reverse: bool, relu: bool) -> tuple:
        (acts,) = activations
        length, n, gates = acts.shape
        hidden, size = gates // 4, h0.shape[-1]
        cells = out[..., size:]
        c_prev = _previous(xp, cells, c0, reverse)
        d_gates = xp.empty_like(acts)
        d_proj = xp.empty((length, n, size), acts.dtype) if w_hr is not None else None
        dh_next, dc = xp.zeros_like(h0), xp.zeros_like(c0)
        for t in reversed(_steps(length, reverse)):
            i, f, gg, o = (acts[t, :, k * hidden:(k + 1) * hidden] for k in range(4))
            tanh_c = xp.tanh(cells[t])
            dh = dh_next + g[t, :, :size]
            if d_proj is not None:
                d_proj[t] = dh
                dh = dh @ w_hr
            dc = dc + g[t, :, size:] + dh * o * (1 - tanh_c * tanh_c)
            d = d_gates[t]
            d[:, :hidden] = dc * gg * i * (1 - i)
            d[:, hidden:2 * hidden] = dc * c_prev[t] * f * (1 - f)
            d[:, 2 * hidden:3 * hidden] = dc * i * (1 - gg * gg)
            d[:, 3 * hidden:] = dh * tanh_c * o * (1 - o)
            dc = dc * f
            dh_next = d @ w_hh
        dw_hr = None
        if d_proj is not None:
            unprojected = acts[..., 3 * hidden:] * xp.tanh(cells)
            dw_hr = _rows(d_proj).T @ _rows(unprojected)
        return d_gates, d_gates, dh_next, dc, dw_hr


class _GRULayer(_RecurrentLayer, node_name="StackBackward0"):
    """GRU layer; output ``(L, N, H)``: the hidden states (PyTorch names this node after its stack)."""

    @staticmethod
    def scan(xp: Any, gi: Any, h0: Any, c0: Any, w_hh: Any, b_hh: Any, w_hr: Any, reverse: bool,
             relu: bool) -> tuple:
        length, n, gates = gi.shape
        hidden = gates // 3
        acts = xp.empty_like(gi)  # r, z, n
        hidden_n = xp.empty((length, n, hidden), gi.dtype)  # h W_hn^T + b_hn, which r scales
        out = xp.empty((length, n, hidden), gi.dtype)
        w_hh_t, h = w_hh.T, h0
        for t in _steps(length, reverse):
            gh = h @ w_hh_t if b_hh is None else linalg.matmul_add(xp, h, w_hh_t, b_hh)
            a = acts[t]
            a[:, :2 * hidden] = _sigmoid_array(xp, gi[t, :, :2 * hidden] + gh[:, :2 * hidden])
            hidden_n[t] = gh[:, 2 * hidden:]
            new = a[:, 2 * hidden:]
            xp.multiply(a[:, :hidden], hidden_n[t], out=new)
            new += gi[t, :, 2 * hidden:]
            xp.tanh(new, out=new)
            y = out[t]
            xp.subtract(h, new, out=y)
            y *= a[:, hidden:2 * hidden]
            y += new
            h = y
        return out, (acts, hidden_n)

    @staticmethod
    def unscan(xp: Any, g: Any, h0: Any, c0: Any, w_hh: Any, w_hr: Any, out: Any, activations: list,
               reverse: bool, relu: bool) -> tuple:
        acts, hidden_n = activations
        hidden = acts.shape[-1] // 3
        h_prev = _previous(xp, out, h0, reverse)
        d_gi, d_gh = xp.empty_like(acts), xp.empty_like(acts)
        dh = xp.zeros_like(h0)
        for t in reversed(_steps(len(out), reverse)):
            r, z, new = (acts[t, :, k * hidden:(k + 1) * hidden] for k in range(3))
            dh = dh + g[t]
            d_new = dh * (1 - z) * (1 - new * new)
            d = d_gi[t]
            d[:, :hidden] = d_new * hidden_n[t] * r * (1 - r)
            d[:, hidden:2 * hidden] = dh * (h_prev[t] - new) * z * (1 - z)
            d[:, 2 * hidden:] = d_new
            e = d_gh[t]
            e[:, :2 * hidden] = d[:, :2 * hidden]
            e[:, 2 * hidden:] = d_new * r
            dh = dh * z + e @ w_hh
        return d_gi, d_gh, dh, None, None


class _HiddenStates(Op, node_name="MkldnnRnnLayerBackward0"):
    """The hidden-state half ``z[..., :size]`` of an LSTM layer's output: a view named, like the
    output of PyTorch's LSTM layer, after the fused layer."""

    is_view = True

    @staticmethod
    def forward(ctx: _HiddenStates, z: Any, *, size: int) -> Any:
        ctx.rest = z.shape[-1] - size
        return z[..., :size]

    @staticmethod
    def backward(ctx: _HiddenStates, g: Any) -> Any:
        return ctx.xp.pad(g, [(0, 0)] * (g.ndim - 1) + [(0, ctx.rest)])


class _ProjectedHiddenStates(_HiddenStates, node_name="StackBackward0"):
    """The same for an LSTM with projections, which PyTorch computes step by step and stacks."""


_LAYERS = {"RNN_TANH": _RNNLayer, "RNN_RELU": _RNNLayer, "LSTM": _LSTMLayer, "GRU": _GRULayer}


def _composed_layer(mode: str, x: Tensor, h0: Tensor, c0: Tensor | None, w_ih: Tensor, w_hh: Tensor,
                    b_ih: Tensor | None, b_hh: Tensor | None, w_hr: Tensor | None, *, reverse: bool) -> Tensor:
    """The fused op's output, computed with the cells (differentiable to any order)."""
    steps = shape.unbind(x, 0)
    outs: list = [None] * len(steps)
    h, c = h0, c0
    for t in _steps(len(steps), reverse):
        if mode == "LSTM":
            h, c = lstm_cell(steps[t], (h, c), w_ih, w_hh, b_ih, b_hh)
            if w_hr is not None:
                h = linear(h, w_hr)
            outs[t] = shape.cat([h, c], 1)
        elif mode == "GRU":
            h = outs[t] = gru_cell(steps[t], h, w_ih, w_hh, b_ih, b_hh)
        else:
            cell = rnn_relu_cell if mode == "RNN_RELU" else rnn_tanh_cell
            h = outs[t] = cell(steps[t], h, w_ih, w_hh, b_ih, b_hh)
    return shape.stack(outs, 0)


def recurrent_layer(mode: str, input: Tensor, h0: Tensor, c0: Tensor | None, w_ih: Tensor, w_hh: Tensor,
                    b_ih: Tensor | None, b_hh: Tensor | None, w_hr: Tensor | None = None, *,
                    reverse: bool = False) -> tuple:
    """Runs one layer in one direction over ``input (L, N, F)`` (time-major) from ``h0 (N, P)``
    (and ``c0 (N, H)`` for an LSTM). ``mode`` is ``'RNN_TANH'``, ``'RNN_RELU'``, ``'LSTM'`` or
    ``'GRU'``; ``reverse`` runs from the last step to the first.

    Returns ``(output (L, N, P), h_last, c_last)``: every step's hidden state, and the final hidden
    (and cell, else None) state.
    """
    out = _LAYERS[mode].apply(input, h0, c0, w_ih, w_hh, b_ih, b_hh, w_hr, reverse=reverse,
                              relu=mode == "RNN_RELU")
    last = 0 if reverse else input.shape[0] - 1
    if mode != "LSTM":
        return out, out[last], None
    size = h0.shape[-1]
    states = (_ProjectedHiddenStates if w_hr is not None else _HiddenStates).apply(out, size=size)
    return states, out[last, :, :size], out[last, :, size:]
