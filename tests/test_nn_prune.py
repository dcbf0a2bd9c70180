"""``nn.utils.prune``: masks, the ``weight_orig`` / ``weight_mask`` parametrisation, pruning containers,
random masks from the seeded generator and PyTorch's errors, recorded from torch 2.13."""
from __future__ import annotations

import pytest

import tinyframe as torch
import tinyframe.nn as nn
import tinyframe.nn.utils.prune as prune


def _linear() -> nn.Linear:
    m = nn.Linear(4, 3)
    with torch.no_grad():
        m.weight.copy_(torch.tensor([[0.5, -0.1, 0.3, -0.8], [0.05, 0.9, -0.4, 0.2], [-0.6, 0.15, 0.7, -0.25]]))
        m.bias.copy_(torch.tensor([0.1, -0.2, 0.3]))
    return m


def test_l1_unstructured_reparametrises_the_weight_with_pytorchs_keys() -> None:
    m = _linear()
    assert prune.l1_unstructured(m, "weight", amount=0.25) is m
    assert list(m.state_dict()) == ["bias", "weight_orig", "weight_mask"]
    assert [n for n, _ in m.named_parameters()] == ["bias", "weight_orig"]
    assert [n for n, _ in m.named_buffers()] == ["weight_mask"]
    assert m.weight_mask.tolist() == [[1, 0, 1, 1], [0, 1, 1, 1], [1, 0, 1, 1]]
    assert type(m.weight.grad_fn).__name__ == "MulBackward0" and prune.is_pruned(m)
    assert [type(h).__name__ for h in m._forward_pre_hooks.values()] == ["L1Unstructured"]


def test_repeated_pruning_combines_masks_and_gradients_reach_orig() -> None:
    m = _linear()
    prune.l1_unstructured(m, "weight", amount=0.25)
    prune.ln_structured(m, "weight", amount=1, n=2, dim=0)
    assert m.weight_mask.tolist() == [[1, 0, 1, 1], [0, 1, 1, 1], [0, 0, 0, 0]]
    container = list(m._forward_pre_hooks.values())[-1]
    assert type(container).__name__ == "PruningContainer"
    assert [type(method).__name__ for method in container] == ["L1Unstructured", "LnStructured"]
    torch.manual_seed(1)
    prune.random_unstructured(m, "bias", amount=1)
    assert m.bias_mask.tolist() == [0, 1, 1]
    y = m(torch.tensor([[1.0, 2, 3, 4]]))
    y.sum().backward()
    assert y.tolist()[0] == pytest.approx([-1.7999999523162842, 1.1999998092651367, 0.30000001192092896], rel=1e-6)
    assert m.weight_orig.grad.tolist() == [[1, 0, 3, 4], [0, 2, 3, 4], [0, 0, 0, 0]]
    assert m.bias_orig.grad.tolist() == [0, 1, 1]


def test_remove_makes_the_pruning_permanent() -> None:
    m = _linear()
    prune.l1_unstructured(m, "weight", amount=0.25)
    prune.remove(m, "weight")
    assert list(m.state_dict()) == ["bias", "weight"] and isinstance(m.weight, nn.Parameter)
    assert m.weight.flatten().tolist() == pytest.approx([0.5, 0, 0.3, -0.8, 0, 0.9, -0.4, 0.2, -0.6, 0, 0.7, -0.25])
    assert not prune.is_pruned(m)
    with pytest.raises(ValueError, match="^Parameter 'weight' of module Linear\\(in_features=4, out_features=3, "
                                         "bias=True\\) has to be pruned before pruning can be removed$"):
        prune.remove(m, "weight")


def test_random_masks_follow_the_seeded_generator_as_pytorch() -> None:
    torch.manual_seed(2)
    c = nn.Conv2d(2, 4, 3)
    prune.random_structured(c, "weight", amount=0.5, dim=0)
    assert c.weight_mask.sum(dim=(1, 2, 3)).tolist() == [18, 0, 18, 0]
    torch.manual_seed(3)
    prune.random_unstructured(c, "bias", amount=0.5)
    assert c.bias_mask.tolist() == [1, 0, 0, 1]


def test_global_unstructured_custom_from_mask_and_identity() -> None:
    a, b = nn.Linear(3, 2), nn.Linear(2, 2)
    with torch.no_grad():
        a.weight.copy_(torch.tensor([[0.1, -0.5, 0.3], [0.2, 0.05, -0.9]]))
        b.weight.copy_(torch.tensor([[0.4, -0.02], [0.6, 0.25]]))
    prune.global_unstructured([(a, "weight"), (b, "weight")], pruning_method=prune.L1Unstructured, amount=4)
    assert a.weight_mask.tolist() == [[0, 1, 1], [0, 0, 1]] and b.weight_mask.tolist() == [[1, 0], [1, 1]]
    prune.custom_from_mask(b, "bias", torch.tensor([0.0, 1.0]))
    assert b.bias_mask.tolist() == [0, 1]
    assert list(b.state_dict()) == ["weight_orig", "bias_orig", "weight_mask", "bias_mask"]
    prune.identity(a, "bias")
    assert a.bias_mask.tolist() == [1, 1]


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=1.5), ValueError,
     "amount=1.5 should either be a float in the range [0, 1] or a non-negative integer"),
    (lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=-1), ValueError,
     "amount=-1 should either be a float in the range [0, 1] or a non-negative integer"),
    (lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=5), ValueError,
     "amount=5 should be smaller than the number of parameters to prune=4"),
    (lambda: prune.ln_structured(nn.Linear(2, 2), "bias", amount=1, n=1, dim=0), ValueError,
     "Structured pruning can only be applied to multidimensional tensors. Found tensor of shape "
     "tinyframe.Size([2]) with 1 dims"),
    (lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount="a"), TypeError,
     "Invalid type for amount: a. Must be int or float."),
    (lambda: prune.global_unstructured([(nn.Linear(2, 2), "weight")], pruning_method=prune.LnStructured, amount=1,
                                       n=1), TypeError,
     "Only \"unstructured\" PRUNING_TYPE supported for the `pruning_method`. Found method "
     "<class 'tinyframe.nn.utils.prune.LnStructured'> of type structured"),
])
def test_bad_arguments_raise_pytorch_errors(call, error, message) -> None:
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


def test_a_failed_pruning_leaves_the_parameter_as_it_was() -> None:
    m = nn.Linear(2, 2)
    with pytest.raises(ValueError):
        prune.l1_unstructured(m, "weight", amount=5)
    assert list(m.state_dict()) == ["bias", "weight"] and not prune.is_pruned(m)
