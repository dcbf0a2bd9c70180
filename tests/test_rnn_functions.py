"""torch.lstm, torch.gru, torch.rnn_tanh and torch.rnn_relu (the functions nn.LSTM, nn.GRU and nn.RNN
run), against PyTorch 2.13's values, graph node names and errors (recorded)."""
from __future__ import annotations

import pytest

import tinyframe as torch

# mode: (sums of the outputs, grad_fn names, sum of the first and of the last parameter's gradient) for a
# 2-layer bidirectional float64 stack with biases, loss = sum of output k times (k + 1)
EXPECTED = {
    "lstm": ([-1.5083442615, -1.8216172523, -3.8690261987], ["CatBackward0", "StackBackward0", "StackBackward0"],
             -1.1910410306, 28.0389701456),
    "gru": ([-4.3764481464, -2.0441366311], ["CatBackward0", "StackBackward0"], 2.86658301, 6.7699624004),
    "rnn_tanh": ([13.080915205, 11.3753429885], ["CatBackward0", "StackBackward0"], 0.4613708805, 26.1156042789),
    "rnn_relu": ([24.5834642436, 18.8787624677], ["CatBackward0", "StackBackward0"], 19.831857297, 19.9075147487),
}
GATES = {"lstm": 4, "gru": 3, "rnn_tanh": 1, "rnn_relu": 1}


def det(*shape: int, k: float = 1.0, dtype: torch.dtype = torch.float64) -> torch.Tensor:
    """Deterministic values in [-0.5, 0.5] that both frameworks compute alike."""
    n = 1
    for size in shape:
        n *= size
    return (torch.arange(n, dtype=dtype) * k).sin().reshape(*shape) * 0.5


@pytest.mark.parametrize("mode", list(EXPECTED))
def test_recurrent_function_values_gradients_and_nodes(mode: str) -> None:
    x, hidden, gates = det(3, 2, 4, k=0.7), 3, GATES[mode]
    params, i = [], 0
    for layer in range(2):
        for _ in range(2):
            for shape in [(gates * hidden, 4 if layer == 0 else 2 * hidden), (gates * hidden, hidden),
                          (gates * hidden,), (gates * hidden,)]:
                i += 1
                params.append(det(*shape, k=0.3 + 0.1 * i).requires_grad_())
    h0 = det(4, 2, hidden, k=1.3)
    hx = (h0, det(4, 2, hidden, k=1.7)) if mode == "lstm" else h0
    function = getattr(torch, mode)
    out = function(x, hx, params, True, 2, 0.0, False, True, False)
    sum(o.sum() * (k + 1) for k, o in enumerate(out)).backward()
    sums, names, first_grad, last_grad = EXPECTED[mode]
    assert isinstance(out, tuple) and [float(o.detach().sum()) for o in out] == pytest.approx(sums, abs=1e-9)
    assert [type(o.grad_fn).__name__ for o in out] == names
    assert float(params[0].grad.sum()) == pytest.approx(first_grad, abs=1e-9)
    assert float(params[-1].grad.sum()) == pytest.approx(last_grad, abs=1e-9)
    batch_first = function(x.transpose(0, 1), hx, params, True, 2, 0.0, False, True, True)
    assert torch.equal(batch_first[0].transpose(0, 1), out[0])


def test_float32_lstm_without_biases_is_one_fused_node_and_projections_follow_the_state_sizes() -> None:
    x = det(3, 2, 4, k=0.7, dtype=torch.float32)
    params = [det(12, 4, k=0.4, dtype=torch.float32).requires_grad_(), det(12, 3, k=0.6, dtype=torch.float32)]
    out = torch.lstm(x, (torch.zeros(1, 2, 3), torch.zeros(1, 2, 3)), params, False, 1, 0.0, True, False, False)
    assert [type(o.grad_fn).__name__ for o in out] == ["MkldnnRnnLayerBackward0", "StackBackward0", "StackBackward0"]
    assert [float(o.detach().sum()) for o in out] == pytest.approx([-0.46366, -0.1564, -0.41638], abs=1e-5)
    projected = [det(12, 4, k=0.4), det(12, 2, k=0.6), det(12, k=0.8), det(12, k=0.9), det(2, 3, k=1.1)]
    out = torch.lstm(det(3, 2, 4, k=0.7), (det(1, 2, 2, k=0.2), det(1, 2, 3, k=0.3)), projected, True, 1, 0.0,
                     True, False, False)
    assert [tuple(o.shape) for o in out] == [(3, 2, 2), (1, 2, 2), (1, 2, 3)]
    assert [float(o.sum()) for o in out] == pytest.approx([0.2144557304, 0.0997719089, -1.271745481], abs=1e-9)


def test_recurrent_function_errors() -> None:
    x, params = det(3, 2, 4, dtype=torch.float32), [torch.zeros(12, 4), torch.zeros(12, 3)]
    with pytest.raises(RuntimeError, match="^lstm expects two hidden states$"):
        torch.lstm(x, (torch.zeros(1, 2, 3),), params, False, 1, 0.0, True, False, False)
    with pytest.raises(RuntimeError, match="^got an incorrect number of RNN parameters$"):
        torch.gru(x, torch.zeros(1, 2, 3), params[:1], False, 1, 0.0, True, False, False)
