"""nn.LinearCrossEntropyLoss and F.linear_cross_entropy's K-dimensional logits and checks, as PyTorch 2.13's."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as torch
import tinyframe.nn as nn
import tinyframe.nn.functional as F


def test_linear_cross_entropy_loss_module_with_k_dimensional_logits() -> None:
    crit = nn.LinearCrossEntropyLoss(3, 2, out_features=(2,), bias=True, weight=torch.tensor([1.0, 3.0]),
                                     reduction="sum")
    assert str(crit) == ("LinearCrossEntropyLoss(\n  in_features=3, num_classes=2, out_features=(2,), bias=True, "
                         "reduction=sum, ignore_index=None, label_smoothing=0.0, options=None\n"
                         "  (linear): Linear(in_features=3, out_features=4, bias=True)\n)")
    assert list(crit.state_dict()) == ["weight", "linear.weight", "linear.bias"]
    with torch.no_grad():
        crit.linear.weight.copy_(torch.arange(12.0).view(4, 3) / 10)
        crit.linear.bias.copy_(torch.tensor([0.1, -0.2, 0.3, 0.0]))
    x = torch.tensor([[1.0, -1.0, 0.5], [0.2, 0.3, -0.4]], requires_grad=True)
    loss = crit(x, torch.tensor([[0, 1], [1, 1]]))
    loss.backward()
    assert loss.grad_fn.name() == "NllLoss2DBackward0"
    np.testing.assert_allclose(loss.item(), 5.825749397277832, rtol=1e-6)
    np.testing.assert_allclose(x.grad.tolist(), [[-0.3060976266860962, -0.3060976266860962, -0.3060975670814514],
                                                 [-1.5673092603683472, -1.5673092603683472, -1.5673093795776367]],
                               rtol=1e-5)


def test_linear_cross_entropy_checks_as_pytorch() -> None:
    with pytest.raises(RuntimeError, match=r"expected weight shape to be \(3,\), got \(2,\)"):
        nn.LinearCrossEntropyLoss(4, 3, weight=torch.ones(2))
    with pytest.raises(RuntimeError, match=r"expected label_smoothing to be in range \[0, 1\], got 1.5"):
        nn.LinearCrossEntropyLoss(4, 3, label_smoothing=1.5)
    w = torch.randn(3, 4)
    with pytest.raises(RuntimeError, match="expected input with dimensionality 1 or 2, got 3"):
        F.linear_cross_entropy(torch.randn(2, 5, 4), w, torch.zeros(2, 5, dtype=torch.long))
    with pytest.raises(RuntimeError, match="expected equal input and linear_weight last dimensions"):
        F.linear_cross_entropy(torch.randn(2, 5), w, torch.zeros(2, dtype=torch.long))
    with pytest.raises(RuntimeError, match="requires batched input"):
        F.linear_cross_entropy(torch.randn(4), torch.randn(3, 2, 4), torch.zeros(2, dtype=torch.long))
    with pytest.raises(RuntimeError, match="ignore_index cannot be specified when target contains probabilities"):
        F.linear_cross_entropy(torch.randn(2, 4), w, torch.full((2, 3), 1 / 3), ignore_index=0)
    assert F.linear_cross_entropy(torch.randn(4), w, torch.tensor(1)).dim() == 0
