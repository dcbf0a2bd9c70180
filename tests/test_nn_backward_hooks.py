"""Module full backward hooks and backward pre-hooks, checked against PyTorch 2.13's values."""
import pytest

import tinyframe as torch
from tinyframe import nn


def _linear():
    lin = nn.Linear(3, 2)
    with torch.no_grad():
        lin.weight.copy_(torch.tensor([[1.0, 2, 3], [-1, 0.5, 2]]))
        lin.bias.fill_(0.1)
    return lin


def test_full_backward_hook_sees_input_and_output_gradients():
    lin, seen = _linear(), []
    lin.register_full_backward_hook(lambda m, gin, gout: seen.append((m, gin, gout)))
    x = torch.tensor([[1.0, 2, 3]], requires_grad=True)
    y = lin(x)
    assert type(y.grad_fn).__name__ == "BackwardHookFunctionBackward"
    (y * torch.tensor([[1.0, 2]])).sum().backward()
    (module, (grad_input,), (grad_output,)), = seen
    assert module is lin
    assert grad_input.tolist() == [[-1.0, 3.0, 7.0]] and grad_output.tolist() == [[1.0, 2.0]]
    assert x.grad.tolist() == [[-1.0, 3.0, 7.0]]
    assert lin.weight.grad.tolist() == [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]]


def test_hooks_may_replace_gradients_and_be_removed():
    lin, seen = _linear(), []
    handle = lin.register_full_backward_hook(lambda m, gin, gout: seen.append(gin[0].tolist()))
    lin.register_full_backward_hook(lambda m, gin, gout: (gin[0] * 10,))
    lin.register_full_backward_pre_hook(lambda m, gout: (gout[0] * 2,))
    x = torch.tensor([[1.0, 2, 3]], requires_grad=True)
    lin(x).sum().backward()
    assert seen == [[[0.0, 5.0, 10.0]]] and x.grad.tolist() == [[0.0, 50.0, 100.0]]
    handle.remove()
    x.grad = None
    lin(x).sum().backward()
    assert len(seen) == 1 and x.grad.tolist() == [[0.0, 50.0, 100.0]]


def test_hook_fires_on_outputs_with_a_warning_when_no_input_requires_grad():
    lin, seen = _linear(), []
    lin.register_full_backward_hook(lambda m, gin, gout: seen.append((gin, gout[0].tolist())))
    with pytest.warns(UserWarning, match="Full backward hook is firing when gradients are computed with respect "
                                         "to module outputs since no inputs require gradients"):
        lin(torch.ones(1, 3)).sum().backward()
    assert seen == [((None,), [[1.0, 1.0]])]


def test_no_hook_node_is_recorded_without_grad_mode():
    lin = _linear()
    lin.register_full_backward_hook(lambda m, gin, gout: None)
    with torch.no_grad():
        assert not lin(torch.ones(1, 3, requires_grad=True)).requires_grad
