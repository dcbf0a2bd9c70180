"""``nn.AdaptiveLogSoftmaxWithLoss``: structure, outputs, gradients, ``log_prob``, ``predict`` and errors,
recorded from torch 2.13 (torch.manual_seed(0), the module, then x = torch.randn(5, 8))."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as torch
import tinyframe.nn as nn

TARGET = [0, 4, 9, 2, 7]


def _setup() -> tuple:
    torch.manual_seed(0)
    m = nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[3, 6], div_value=2.0)
    return m, torch.randn(5, 8, requires_grad=True)


def test_structure_matches_pytorch() -> None:
    m, _ = _setup()
    assert [(n, tuple(p.shape)) for n, p in m.named_parameters()] == [
        ("head.weight", (5, 8)), ("tail.0.0.weight", (4, 8)), ("tail.0.1.weight", (3, 4)),
        ("tail.1.0.weight", (2, 8)), ("tail.1.1.weight", (4, 2))]
    assert repr(m).startswith("AdaptiveLogSoftmaxWithLoss(\n"
                              "  (head): Linear(in_features=8, out_features=5, bias=False)")


def test_outputs_loss_and_gradients_match_pytorch() -> None:
    m, x = _setup()
    out, loss = m(x, torch.tensor(TARGET))
    np.testing.assert_allclose(out.tolist(), [-1.7786942720413208, -2.4934165477752686, -3.1047353744506836,
                                              -2.1102542877197266, -2.696575164794922], rtol=1e-6)
    assert loss.item() == pytest.approx(2.436735153198242, rel=1e-6)
    assert type(out.grad_fn).__name__ == "AddBackward0" and type(loss.grad_fn).__name__ == "MeanBackward0"
    loss.backward()
    np.testing.assert_allclose(x.grad.sum(0).tolist(), [0.04955894127488136, 0.0390387699007988,
                                                        0.013031996786594391, 0.047148797661066055,
                                                        0.008009441196918488, -0.10944032669067383,
                                                        -0.08002874255180359, -0.07093466818332672], rtol=1e-5)
    single = m(x[0], torch.tensor(TARGET[0]))
    assert single.output.shape == () and single.loss.item() == pytest.approx(1.7786942720413208, rel=1e-6)


def test_log_prob_and_predict_match_pytorch() -> None:
    m, x = _setup()
    log_prob = m.log_prob(x)
    np.testing.assert_allclose(log_prob.exp().sum(1).tolist(), [1.0] * 5, rtol=1e-6)
    np.testing.assert_allclose(log_prob[0].tolist(), [-1.7786942720413208, -1.1551387310028076, -2.6365697383880615,
                                                      -3.09981632232666, -1.9916493892669678, -2.8552489280700684,
                                                      -2.400440216064453, -3.1236071586608887, -3.396061420440674,
                                                      -3.2895431518554688], rtol=1e-6)
    assert m.predict(x).tolist() == [1, 0, 1, 1, 2]
    assert m.predict(x * 5).tolist() == [1, 6, 4, 1, 2]


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda m, x: nn.AdaptiveLogSoftmaxWithLoss(8, 10, []), ValueError,
     "cutoffs should be a sequence of length larger than 0"),
    (lambda m, x: nn.AdaptiveLogSoftmaxWithLoss(8, 10, [6, 3]), ValueError,
     "cutoffs should be a sequence of unique, positive integers sorted in an increasing order, where each value is "
     "between 1 and n_classes-1"),
    (lambda m, x: m(x, torch.tensor([0, 1, 10, 2, 3])), RuntimeError,
     "Target values should be in [0, 9], but values in range [0, 10] were found. "),
    (lambda m, x: m(x, torch.tensor(TARGET[:3])), RuntimeError,
     "Input and target should have the same size in the batch dimension."),
    (lambda m, x: m(x, torch.tensor([TARGET])), RuntimeError,
     "0D or 1D target tensor expected, multi-target not supported"),
])
def test_bad_inputs_raise_pytorch_errors(call, error, message) -> None:
    m, x = _setup()
    with pytest.raises(error) as info:
        call(m, x)
    assert str(info.value) == message
