"""``linalg.multi_dot`` (PyTorch's matrix chain order and final view), ``linalg.matrix_power``'s nodes for
0 and 1, and ``copy_``'s ``CopyBackwards``, recorded from torch 2.13."""
from __future__ import annotations

import pytest

import tinyframe as torch


def _names(t: torch.Tensor) -> list:
    out, stack = [], [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is not None:
            out.append(type(node).__name__)
            stack.extend(f for f, _ in node.next_functions)
    return out


def test_multi_dot_graph_matches_pytorch() -> None:
    x, y = torch.randn(2, 3, requires_grad=True), torch.randn(3, requires_grad=True)
    assert _names(torch.linalg.multi_dot([x, y])) == ["ViewBackward0", "MmBackward0", "UnsqueezeBackward0",
                                                      "AccumulateGrad", "AccumulateGrad"]
    assert _names(torch.linalg.multi_dot([x, x.mT])) == ["ViewBackward0", "MmBackward0", "TransposeBackward0",
                                                         "AccumulateGrad", "AccumulateGrad"]
    a, b, c, d = torch.randn(10, 2, requires_grad=True), torch.randn(2, 8), torch.randn(8, 3), torch.randn(3, 9)
    # (a (b c)) is cheapest for three; for six, the chain splits where PyTorch's dynamic programme does
    assert _names(torch.linalg.multi_dot([a, b, c])) == ["ViewBackward0", "MmBackward0", "AccumulateGrad"]
    assert _names(torch.linalg.multi_dot([b.T, a.T, a, b, c, d])) == [
        "ViewBackward0", "MmBackward0", "MmBackward0", "MmBackward0", "MmBackward0", "AccumulateGrad",
        "PermuteBackward0", "AccumulateGrad"]


@pytest.mark.parametrize(("tensors", "message"), [
    ([torch.ones(2, 3)], "multi_dot(): expected at least 2 tensors but got 1"),
    ([torch.ones(1, 2, 3), torch.ones(2, 3)], "multi_dot(): the first tensor must be 1D or 2D but got 3D"),
    ([torch.ones(2, 3), torch.ones(2, 3)], "multi_dot(): tensors 0 and 1 with shapes [2, 3] and [2, 3] cannot be "
                                           "multiplied"),
    ([torch.ones(2, 3), torch.ones(1, 2, 3), torch.ones(2, 3)], "multi_dot(): tensor 1 must be 2D but got 3D"),
    ([torch.ones(2, 3), torch.ones(3, 2, dtype=torch.float64)],
     "multi_dot(): all tensors must have be the same dtype but tensor 0 is float and tensor 1 double"),
])
def test_multi_dot_errors(tensors, message) -> None:
    with pytest.raises(RuntimeError) as info:
        torch.linalg.multi_dot(tensors)
    assert str(info.value) == message


def test_matrix_power_zero_and_one_keep_the_graph() -> None:
    a = torch.randn(2, 2, requires_grad=True)
    assert _names(torch.linalg.matrix_power(a, 1)) == ["CloneBackward0", "AccumulateGrad"]
    identity = torch.linalg.matrix_power(a, 0)
    assert _names(identity) == ["CopyBackwards", "CloneBackward0", "AccumulateGrad"]
    assert identity.requires_grad and identity.tolist() == [[1, 0], [0, 1]]
    identity.sum().backward()
    assert a.grad.tolist() == [[0, 0], [0, 0]]


def test_copy_into_a_tensor_is_one_copybackwards_node() -> None:
    x, y = torch.randn(2, 3, requires_grad=True), torch.randn(3, requires_grad=True)
    a = x.clone()
    a.copy_(y)
    assert _names(a) == ["CopyBackwards", "AccumulateGrad", "CloneBackward0", "AccumulateGrad"]
    (a * torch.arange(6.0).view(2, 3)).sum().backward()
    assert x.grad.tolist() == [[0, 0, 0], [0, 0, 0]] and y.grad.tolist() == [3, 5, 7]
    b = torch.zeros(2, 3)
    b.copy_(y.double())
    assert _names(b)[:3] == ["CopyBackwards", "ToCopyBackward0", "AccumulateGrad"] and b.dtype == torch.float32
