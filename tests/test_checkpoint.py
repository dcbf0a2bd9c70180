"""tinyframe.utils.checkpoint: gradients equal those without checkpointing (values recorded from
torch 2.13), the function re-runs in backward with the forward's random state, PyTorch's two
variants and warnings."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import tinyframe
from tinyframe import nn
from tinyframe.utils.checkpoint import checkpoint, checkpoint_sequential

X0 = np.array([[0.5, -1.0, 2.0], [0.1, 0.2, 0.3]], dtype=np.float32)
# torch 2.13, with and without checkpointing, for (model(x) ** 2).sum() on _model()
EXPECTED_WEIGHT_GRAD = [[-0.025399, 0.026214, -0.09545], [0.0124, -0.01689, 0.047622],
                        [0.043171, -0.046409, 0.162701], [0.02958, -0.004351, 0.104618]]
EXPECTED_INPUT_GRAD = [[0.055273, 0.069904, 0.084535], [0.148744, 0.18423, 0.219716]]


def _model() -> nn.Sequential:
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2), nn.Sigmoid())
    with tinyframe.no_grad():
        model[0].weight.copy_(tinyframe.tensor(np.linspace(-1, 1, 12).reshape(4, 3).astype(np.float32)))
        model[0].bias.fill_(0.1)
        model[2].weight.copy_(tinyframe.tensor(np.linspace(-0.5, 0.7, 8).reshape(2, 4).astype(np.float32)))
        model[2].bias.fill_(-0.2)
    return model


@pytest.mark.parametrize("use_reentrant", [False, True])
@pytest.mark.parametrize("sequential", [False, True], ids=["checkpoint", "checkpoint_sequential"])
def test_checkpointed_gradients_equal_pytorchs(use_reentrant, sequential):
    model = _model()
    x = tinyframe.tensor(X0, requires_grad=True)
    if sequential:
        y = checkpoint_sequential(model, 2, x, use_reentrant=use_reentrant)
    else:
        y = checkpoint(model, x, use_reentrant=use_reentrant)
    (y * y).sum().backward()
    np.testing.assert_allclose(model[0].weight.grad.numpy(), EXPECTED_WEIGHT_GRAD, atol=2e-6)
    np.testing.assert_allclose(x.grad.numpy(), EXPECTED_INPUT_GRAD, atol=2e-6)


def test_non_reentrant_checkpoint_reaches_parameters_when_no_input_requires_grad():
    model = _model()
    y = checkpoint(model, tinyframe.tensor(X0), use_reentrant=False)
    assert y.requires_grad
    (weight_grad,) = tinyframe.autograd.grad((y * y).sum(), [model[0].weight])
    np.testing.assert_allclose(weight_grad.numpy(), EXPECTED_WEIGHT_GRAD, atol=2e-6)


def test_reentrant_checkpoint_without_input_grads_warns_and_gives_no_graph():
    with pytest.warns(UserWarning, match="None of the inputs have requires_grad=True. Gradients will be None"):
        y = checkpoint(_model(), tinyframe.tensor(X0), use_reentrant=True)
    assert not y.requires_grad


def test_checkpoint_keeps_one_node_and_recomputes_in_backward():
    calls = []

    def block(a, b):
        calls.append(1)
        return (a * b).tanh() * b, a.sum()

    a = tinyframe.tensor([0.3, -0.2], dtype=tinyframe.float64, requires_grad=True)
    b = tinyframe.tensor([1.5, 0.5], dtype=tinyframe.float64, requires_grad=True)
    out, total = checkpoint(block, a, b, use_reentrant=False)
    assert type(out.grad_fn).__name__ == "CheckpointBackward" and out.grad_fn is total.grad_fn
    assert [type(n).__name__ for n, _ in out.grad_fn.next_functions] == ["AccumulateGrad"] * 2
    assert len(calls) == 1
    (out.sum() + total).backward()
    assert len(calls) == 2
    a2, b2 = (t.detach().requires_grad_() for t in (a, b))
    expected_out, expected_total = block(a2, b2)
    (expected_out.sum() + expected_total).backward()
    np.testing.assert_allclose(a.grad.numpy(), a2.grad.numpy(), rtol=1e-14)
    np.testing.assert_allclose(b.grad.numpy(), b2.grad.numpy(), rtol=1e-14)


@pytest.mark.parametrize("use_reentrant", [False, True])
def test_recomputation_sees_the_forwards_random_state(use_reentrant):
    dropout = nn.Dropout(0.5)
    x = tinyframe.ones(200, requires_grad=True)
    tinyframe.manual_seed(3)
    y = checkpoint(lambda t: dropout(t) * t, x, use_reentrant=use_reentrant)
    mask = y.detach().numpy() != 0
    tinyframe.rand(5)   # the random stream moves on before backward
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy() != 0, mask)


def test_checkpoint_without_use_reentrant_warns_as_pytorch():
    with pytest.warns(UserWarning, match="the use_reentrant parameter should be passed explicitly"):
        checkpoint(lambda t: t * 2, tinyframe.ones(2, requires_grad=True))


def test_reentrant_checkpoint_rejects_keyword_arguments():
    with pytest.raises(ValueError, match="Unexpected keyword arguments: scale"):
        checkpoint(lambda t, scale: t * scale, tinyframe.ones(2), use_reentrant=True, scale=2)


def test_checkpoint_under_no_grad_just_runs_the_function():
    with tinyframe.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("error")
        y = checkpoint(_model(), tinyframe.tensor(X0, requires_grad=True), use_reentrant=False)
    assert not y.requires_grad and y.grad_fn is None
