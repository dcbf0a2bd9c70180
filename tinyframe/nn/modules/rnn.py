"""Recurrent layers ``RNN``, ``LSTM``, ``GRU`` and their single-step cells."""
from __future__ import annotations

import math
import numbers
import warnings
from typing import Any

import numpy as np

from ... import creation
from ...device import array_module_of
from ...ops import rnn as rnn_ops
from ...ops.indexing import index_select
from ...ops.shape import cat, contiguous, squeeze, stack, transpose, unbind, unsqueeze
from ...tensor import Tensor
from .. import functional as F
from .. import init
from ..packed_sequence import PackedSequence, pad_packed_sequence
from ..parameter import Parameter
from .module import Module

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


class RecurrentStack:
    """One run of a stack of recurrent layers over given weights (an ``RNNBase``'s parameters, or the
    ``params`` list of ``torch.lstm`` and its siblings): ``weights[layer * directions + direction]`` is
    ``(w_ih, w_hh, b_ih, b_hh, w_hr)``, None where absent; ``dropout`` applies between layers in training."""

    def __init__(self, mode: str, weights: list, num_layers: int, directions: int, dropout: float,
                 training: bool) -> None:
        self.mode, self.weights, self.num_layers, self.directions = mode, weights, num_layers, directions
        self.dropout, self.training = dropout, training

    def fuses(self, dtype: Any) -> bool:
        """Whether each layer and direction runs as one node (see ``ops.rnn.fuses``)."""
        return rnn_ops.fuses(self.mode, dtype, self.weights[0][4] is not None)

    def run_layers(self, x: Tensor, h0: Tensor, c0: Tensor | None, batch_first: bool) -> tuple:
        """``(output, h_n, c_n)`` of the stack on a batch ``x``, built as PyTorch's CPU build builds it:
        a float32 LSTM without projections as one node per layer and direction (``mkldnn_rnn``), the
        others composed of their cells (``_rnn_impl``)."""
        fused = self.fuses(x.dtype)
        if batch_first:
            x = transpose(x, 0, 1)
        if fused:
            x, h0 = contiguous(x), contiguous(h0)
            c0 = contiguous(c0) if c0 is not None else None
        # mkldnn_rnn selects each layer's states; _rnn_impl unbinds them
        h0s = [h0[k] for k in range(h0.shape[0])] if fused else unbind(h0, 0)
        c0s = None if c0 is None else [c0[k] for k in range(c0.shape[0])] if fused else unbind(c0, 0)
        h_last: list = []
        c_last: list = []
        for layer in range(self.num_layers):
            rows = slice(layer * self.directions, (layer + 1) * self.directions)
            x, hs, cs = self.run_layer(layer, x, h0s[rows], c0s[rows] if c0s is not None else None, fused)
            h_last += hs
            c_last += cs
            x = self.between_layers(x, layer)
        if batch_first:  # mkldnn_rnn transposes its output back; _rnn_impl's caller does so in place
            x = transpose(x, 0, 1) if fused else x.transpose_(0, 1)
        h_n = stack(h_last, 0)
        c_n = stack(c_last, 0) if c0 is not None else None
        return x, h_n, c_n

    def run_layer(self, layer: int, x: Tensor, h0s: Any, c0s: Any, fused: bool) -> tuple:
        """``(output, [h_n per direction], [c_n per direction])`` of one layer on a time-major ``x``,
        from that layer's initial states (one per direction): one fused node per direction, or the
        layer composed of its cells."""
        outputs, hs, cs = [], [], []
        for direction in range(len(h0s)):
            w_ih, w_hh, b_ih, b_hh, w_hr = self.weights[layer * len(h0s) + direction]
            if fused:
                out, h, c = rnn_ops.fused_lstm_layer(x, h0s[direction], c0s[direction], w_ih, w_hh, b_ih, b_hh,
                                                     reverse=direction == 1)
            else:
                state = h0s[direction] if c0s is None else (h0s[direction], c0s[direction])
                out, state = rnn_ops.composed_layer(self.mode, x, state, w_ih, w_hh, b_ih, b_hh, w_hr,
                                                    reverse=direction == 1)
                h, c = state if c0s is not None else (state, None)
            outputs.append(out)
            hs.append(h)
            cs.append(c)
        return (outputs[0] if len(outputs) == 1 else cat(outputs, 2)), hs, cs

    def between_layers(self, x: Tensor, layer: int) -> Tensor:
        """Dropout on every layer's output but the last's, in training."""
        if self.dropout and self.training and layer < self.num_layers - 1:
            return F.dropout(x, self.dropout, True)
        return x


class RNNBase(Module):
    """A stack of ``num_layers`` recurrent layers, each optionally bidirectional.

    Parameters per layer ``k`` (and direction, ``_reverse`` for the backward one), named as in
    PyTorch: ``weight_ih_l{k}`` ``(gates*hidden_size, layer_input)``, ``weight_hh_l{k}``
    ``(gates*hidden_size, hidden_size)``, ``bias_ih_l{k}``, ``bias_hh_l{k}`` and, for an LSTM with
    ``proj_size``, ``weight_hr_l{k}`` ``(proj_size, hidden_size)``. All start as
    U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)). ``dropout`` is applied to the output of each
    layer but the last, in training mode.
    """

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False, proj_size: int = 0,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        if not isinstance(dropout, numbers.Number) or isinstance(dropout, bool) or not 0 <= dropout <= 1:
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                             "element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and "
                          f"num_layers={num_layers}", stacklevel=2)
        for name, flag in (("bias", bias), ("batch_first", batch_first)):
            if not isinstance(flag, bool):
                raise TypeError(f"{name} should be of type bool, got: {type(flag).__name__}")
        for name, value in (("input_size", input_size), ("hidden_size", hidden_size)):
            if not isinstance(value, int):
                raise TypeError(f"{name} should be of type int, got: {type(value).__name__}")
            if value <= 0:
                raise ValueError(f"{name} must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        self.mode, self.input_size, self.hidden_size, self.num_layers = mode, input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout = bias, batch_first, float(dropout)
        self.bidirectional, self.proj_size = bidirectional, proj_size
        gate_size = _GATES[mode] * hidden_size
        real_hidden = proj_size if proj_size > 0 else hidden_size
        directions = 2 if bidirectional else 1
        self._flat_weights_names: list = []
        self._all_weights: list = []
        for layer in range(num_layers):
            layer_input = input_size if layer == 0 else real_hidden * directions
            for direction in range(directions):
                suffix = "_reverse" if direction == 1 else ""
                shapes: list[tuple[str, tuple[int, ...]]] = [("weight_ih", (gate_size, layer_input)),
                                                            ("weight_hh", (gate_size, real_hidden))]
                if bias:
                    shapes += [("bias_ih", (gate_size,)), ("bias_hh", (gate_size,))]
                if proj_size > 0:
                    shapes += [("weight_hr", (proj_size, hidden_size))]
                names = []
                for kind, size in shapes:
                    name = f"{kind}_l{layer}{suffix}"
                    setattr(self, name, Parameter(creation.empty(*size, device=device, dtype=dtype)))
                    names.append(name)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        bound = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -bound, bound)

    @property
    def all_weights(self) -> list:
        """The parameters of each layer and direction, as lists in PyTorch's order."""
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    @property
    def _flat_weights(self) -> list:
        """The parameters in ``_flat_weights_names``' order (PyTorch's list, which code reads to reach
        every weight at once)."""
        return [getattr(self, name) for name in self._flat_weights_names]

    def flatten_parameters(self) -> None:
        """Does nothing: PyTorch compacts the weights for cuDNN here; tinyframe keeps them as they are."""

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s

    # ----------------------------------------------------------------- forward
    def _layer_weights(self, layer: int, direction: int) -> tuple:
        """``(w_ih, w_hh, b_ih, b_hh, w_hr)`` of one layer and direction (None where absent)."""
        suffix = "_reverse" if direction == 1 else ""
        get = self._parameters.get
        return (get(f"weight_ih_l{layer}{suffix}"), get(f"weight_hh_l{layer}{suffix}"),
                get(f"bias_ih_l{layer}{suffix}"), get(f"bias_hh_l{layer}{suffix}"),
                get(f"weight_hr_l{layer}{suffix}"))

    def _stack(self) -> RecurrentStack:
        directions = 2 if self.bidirectional else 1
        weights = [self._layer_weights(layer, direction) for layer in range(self.num_layers)
                   for direction in range(directions)]
        return RecurrentStack(self.mode, weights, self.num_layers, directions, self.dropout, self.training)

    def _check_input(self, input: Tensor) -> None:
        weight = self._parameters[self._flat_weights_names[0]]
        if input.dtype != weight.dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight.dtype}). "
                             f"Convert input: input.to({weight.dtype}), or convert model: model.to({input.dtype})")
        if input.shape[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got "
                               f"{input.shape[-1]}")

    def _state_shape(self, batch: int, size: int) -> tuple:
        return (self.num_layers * (2 if self.bidirectional else 1), batch, size)

    def _check_state(self, state: Tensor, expected: tuple, message: str) -> None:
        if tuple(state.shape) != expected:
            raise RuntimeError(message.format(expected, list(state.shape)))

    def _prepare(self, input: Tensor, hx: Any, batch_first: bool) -> tuple:
        """The input batched (a batch dimension added to an unbatched one), whether it was batched, and
        the checked states."""
        name = {"RNN_TANH": "RNN", "RNN_RELU": "RNN"}.get(self.mode, self.mode)
        if input.ndim not in (2, 3):
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.ndim}D "
                             f"{'tensor ' if name == 'RNN' else ''}instead")
        batched = input.ndim == 3
        if not batched:
            input = unsqueeze(input, 0 if batch_first else 1)
        self._check_input(input)
        batch = input.shape[0 if batch_first else 1]
        hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        expected = self._state_shape(batch, hidden)
        lstm = self.mode == "LSTM"
        if hx is None:
            h0 = creation.zeros(*expected, dtype=input.dtype, device=input.device)
            c0 = creation.zeros(*self._state_shape(batch, self.hidden_size), dtype=input.dtype,
                                device=input.device) if lstm else None
            return input, batched, h0, c0
        states = tuple(hx) if lstm else (hx,)
        dims = 3 if batched else 2
        if any(s.ndim != dims for s in states):
            got = ", ".join(f"{s.ndim}-D" for s in states)
            shape_word = "3-D" if batched else "2-D"
            kind = "batched 3-D" if batched else "unbatched 2-D"
            what = "hx and cx" if lstm else "hx"
            raise RuntimeError(f"For {kind} input, {what} should also be {shape_word} but got "
                               + (f"({got}) tensors" if lstm else f"{got} tensor"))
        if not batched:
            states = tuple(unsqueeze(s, 1) for s in states)
        if lstm:
            self._check_state(states[0], expected, "Expected hidden[0] size {}, got {}")
            self._check_state(states[1], self._state_shape(batch, self.hidden_size),
                              "Expected hidden[1] size {}, got {}")
            return input, batched, states[0], states[1]
        self._check_state(states[0], expected, "Expected hidden size {}, got {}")
        return input, batched, states[0], None

    def forward(self, input: Tensor, hx: Any = None) -> tuple:
        """``input (L, N, input_size)`` (``(N, L, ...)`` with ``batch_first``, or unbatched ``(L, ...)``)
        and optional initial states ``(num_layers * directions, N, hidden)``: returns ``(output, h_n)``,
        or ``(output, (h_n, c_n))`` for an LSTM, ``output`` holding the last layer's hidden state of
        every step (both directions concatenated).

        A ``PackedSequence`` input runs each sequence for its own length only and gives a
        ``PackedSequence`` output; ``h_n`` then holds each sequence's state at its last step.
        """
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        x, batched, h0, c0 = self._prepare(input, hx, self.batch_first)
        x, h_n, c_n = self._stack().run_layers(x, h0, c0, self.batch_first)
        if not batched:
            x = squeeze(x, 0 if self.batch_first else 1)
            h_n = squeeze(h_n, 1)
            c_n = squeeze(c_n, 1) if c_n is not None else None
        return x, ((h_n, c_n) if c_n is not None else h_n)

    def _forward_packed(self, input: PackedSequence, hx: Any) -> tuple:
        """Each layer runs once per distinct sequence length on the sequences of that length (so no
        sequence runs past its end, in either direction), and its outputs are gathered back into
        packed order, where the dropout between layers applies, as in PyTorch."""
        padded, lengths = pad_packed_sequence(input)
        lengths = lengths.numpy()
        batch = padded.shape[1]
        lstm = self.mode == "LSTM"
        if hx is not None:
            states = tuple(hx) if lstm else (hx,)
            hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
            self._check_state(states[0], self._state_shape(batch, hidden), "Expected hidden size {}, got {}")
        _, _, h0, c0 = self._prepare(padded, hx, False)
        layers = self._stack()
        fused = layers.fuses(padded.dtype)
        xp = array_module_of(padded._data)
        groups = [(length, np.flatnonzero(lengths == length)) for length in sorted(set(lengths.tolist()), reverse=True)]
        indices = [Tensor._make(xp.asarray(members)) for _, members in groups]
        rows = Tensor._make(xp.asarray(_packed_rows(groups, _host_order(input.sorted_indices, batch),
                                                    input.batch_sizes.tolist())))
        h0s, c0s = unbind(h0, 0), (unbind(c0, 0) if c0 is not None else None)
        directions = 2 if self.bidirectional else 1
        finals: list = [[] for _ in h0s]  # per layer and direction: each group's final states
        cells: list = [[] for _ in h0s]
        x = padded
        for layer in range(self.num_layers):
            ks = range(layer * directions, (layer + 1) * directions)
            outputs = []
            for (length, members), index in zip(groups, indices):
                out, hs, cs = layers.run_layer(layer, index_select(x[:length], 1, index),
                                              [index_select(h0s[k], 0, index) for k in ks],
                                              [index_select(c0s[k], 0, index) for k in ks] if c0s is not None else None,
                                              fused)
                outputs.append(out.reshape(length * len(members), out.shape[2]))
                for k, h, c in zip(ks, hs, cs):
                    finals[k].append(h)
                    cells[k].append(c)
            data = layers.between_layers(index_select(cat(outputs, 0), 0, rows), layer)
            output = PackedSequence(data, input.batch_sizes, input.sorted_indices, input.unsorted_indices)
            x = pad_packed_sequence(output)[0] if layer < self.num_layers - 1 else x
        back = Tensor._make(xp.asarray(np.argsort(np.concatenate([m for _, m in groups]))))
        h_n = index_select(stack([cat(group_states, 0) for group_states in finals], 0), 1, back)
        if lstm:
            return output, (h_n, index_select(stack([cat(group_states, 0) for group_states in cells], 0), 1, back))
        return output, h_n


def _packed_rows(groups: list, sorted_batch: list, batch_sizes: list) -> np.ndarray:
    """The row of (step t, sequence b) in the concatenated group outputs (groups of sequences of one
    length, each ``(length * members, F)`` time-major), for every entry of packed order."""
    where, offset = {}, 0
    for length, members in groups:
        for k, b in enumerate(members):
            where[b] = (offset, k, len(members))
        offset += length * len(members)
    return np.array([where[b][0] + t * where[b][2] + where[b][1]
                     for t, n in enumerate(batch_sizes) for b in sorted_batch[:n]], dtype=np.int64)


def _host_order(sorted_indices: Tensor | None, batch: int) -> list:
    if sorted_indices is None:
        return list(range(batch))
    return [int(i) for i in sorted_indices.detach().cpu().numpy()]


class RNN(RNNBase):
    """Elman RNN: ``h_t = act(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh)`` with ``act`` tanh
    (``nonlinearity='tanh'``) or relu. Returns ``(output, h_n)``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        positional = list(args)
        nonlinearity = positional.pop(3) if len(positional) > 3 else kwargs.pop("nonlinearity", "tanh")
        modes = {"tanh": "RNN_TANH", "relu": "RNN_RELU"}
        if nonlinearity not in modes:
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(modes[nonlinearity], *positional, **kwargs)
        self.nonlinearity = nonlinearity


class LSTM(RNNBase):
    """Long short-term memory, gates ``i, f, g, o`` (PyTorch's order):
    ``c_t = f * c_{t-1} + i * g``, ``h_t = o * tanh(c_t)`` (then ``h_t W_hr^T`` with ``proj_size``).
    Returns ``(output, (h_n, c_n))``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)


class GRU(RNNBase):
    """Gated recurrent unit, gates ``r, z, n`` (PyTorch's order and formula):
    ``n = tanh(x W_in^T + b_in + r * (h W_hn^T + b_hn))``, ``h_t = (1 - z) * n + z * h_{t-1}``.
    Returns ``(output, h_n)``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)


# ------------------------------------------------------------------ cells

class RNNCellBase(Module):
    """One step of a recurrent layer: ``weight_ih (chunks*hidden_size, input_size)``,
    ``weight_hh (chunks*hidden_size, hidden_size)``, ``bias_ih``, ``bias_hh``, all
    U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""

    _chunks = 1

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        rows = self._chunks * hidden_size
        self.weight_ih = Parameter(creation.empty(rows, input_size, device=device, dtype=dtype))
        self.weight_hh = Parameter(creation.empty(rows, hidden_size, device=device, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(creation.empty(rows, device=device, dtype=dtype))
            self.bias_hh = Parameter(creation.empty(rows, device=device, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        bound = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -bound, bound)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s

    def _batch(self, input: Tensor, states: tuple) -> tuple:
        """The input and states as batched ``(N, ...)``, and whether the input was batched."""
        name = type(self).__name__
        if input.ndim not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.ndim}D instead")
        for label, state in states:
            if state is not None and state.ndim not in (1, 2):
                raise ValueError(f"{name}: Expected {label} to be 1D or 2D, got {state.ndim}D instead")
        batched = input.ndim == 2
        if not batched:
            input = input.reshape(1, input.shape[0])
        zeros = None
        out = []
        for _, state in states:
            if state is None:
                if zeros is None:
                    zeros = creation.zeros(input.shape[0], self.hidden_size, dtype=input.dtype, device=input.device)
                state = zeros
            elif not batched:
                state = state.reshape(1, *state.shape)
            out.append(state)
        self._check_sizes(input, out)
        return input, out, batched

    def _check_sizes(self, input: Tensor, states: list) -> None:
        """PyTorch's checks of batched cell inputs, with its messages."""
        if input.shape[1] != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.shape[1]} expected {self.input_size}")
        for i, state in enumerate(states):
            if state.shape[0] != input.shape[0]:
                raise RuntimeError(f"Input batch size {input.shape[0]} doesn't match hidden{i} batch size "
                                   f"{state.shape[0]}")
            if state.shape[1] != self.hidden_size:
                raise RuntimeError(f"hidden{i} has inconsistent hidden_size: got {state.shape[1]}, expected "
                                   f"{self.hidden_size}")

    def _weights(self) -> tuple:
        return self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh


class RNNCell(RNNCellBase):
    """``h' = act(input W_ih^T + b_ih + h W_hh^T + b_hh)``, ``act`` tanh or relu."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, nonlinearity: str = "tanh",
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        input, (h,), batched = self._batch(input, (("hidden", hx),))
        if self.nonlinearity == "tanh":
            out = rnn_ops.rnn_tanh_cell(input, h, *self._weights())
        elif self.nonlinearity == "relu":
            out = rnn_ops.rnn_relu_cell(input, h, *self._weights())
        else:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        return out if batched else out.reshape(out.shape[1])


class LSTMCell(RNNCellBase):
    """One LSTM step on ``hx = (h, c)``; returns ``(h', c')``."""

    _chunks = 4

    def forward(self, input: Tensor, hx: tuple | None = None) -> tuple:
        h, c = (None, None) if hx is None else hx
        input, (h, c), batched = self._batch(input, (("hx[0]", h), ("hx[1]", c)))
        h, c = rnn_ops.lstm_cell(input, (h, c), *self._weights())
        if not batched:
            h, c = h.reshape(h.shape[1]), c.reshape(c.shape[1])
        return h, c


class GRUCell(RNNCellBase):
    """One GRU step: returns ``h'``."""

    _chunks = 3

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        input, (h,), batched = self._batch(input, (("hidden", hx),))
        out = rnn_ops.gru_cell(input, h, *self._weights())
        return out if batched else out.reshape(out.shape[1])
