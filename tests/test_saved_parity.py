"""What nodes show of their saved values (``_saved_<name>``), against PyTorch 2.13's recorded behaviour."""
from __future__ import annotations

from typing import Any

import pytest

import tinyframe as torch
import tinyframe.nn.functional as F

# A number operand of * and / is saved as PyTorch's wrapped 0-d tensor; the tensor operand, which no
# gradient needs then, is not saved (None): (node, value, dtype) of ``_saved_other``
_NUMBER_OPERAND: dict[str, tuple] = {
    "x * 2": ("MulBackward0", 2, torch.int64),
    "2 * x": ("MulBackward0", 2, torch.int64),
    "x * 2.5": ("MulBackward0", 2.5, torch.float64),
    "x * True": ("MulBackward0", True, torch.bool),
    "x / 2": ("DivBackward0", 2, torch.int64),
    "x / 0.5": ("DivBackward0", 0.5, torch.float64),
}


@pytest.mark.parametrize("expression", list(_NUMBER_OPERAND))
def test_a_number_operand_is_saved_as_pytorch_wraps_it(expression: str) -> None:
    x = torch.rand(3, requires_grad=True)
    node = eval(expression, {"x": x}).grad_fn
    name, value, dtype = _NUMBER_OPERAND[expression]
    assert type(node).__name__ == name
    assert node._saved_self is None
    other = node._saved_other
    assert (other.item(), other.dtype, tuple(other.shape), other.requires_grad) == (value, dtype, (), False)
    assert {"_saved_self", "_saved_other"} <= set(dir(node))


def test_tensor_operands_are_saved_as_themselves() -> None:
    x, w = torch.rand(3, requires_grad=True), torch.rand(3, requires_grad=True)
    for node in ((x * w).grad_fn, (x / w).grad_fn):
        assert node._saved_self is x and node._saved_other is w
    node = (x ** w).grad_fn
    assert node._saved_self is x and node._saved_exponent is w
    node = torch.addcmul(x, x, w, value=2).grad_fn
    assert (node._saved_tensor1 is x, node._saved_tensor2 is w, node._saved_value) == (True, True, 2)



def test_an_operand_is_saved_only_for_the_other_operands_gradient() -> None:
    # PyTorch 2.13: mul keeps self only if other requires grad and other only if self does; div keeps
    # its divisor always. An operand not kept may then change in place before backward.
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = torch.tensor([0.5, -1.0, 2.0])
    h = x * 1
    products = h * w, w * h
    assert products[0].grad_fn._saved_self is None and products[0].grad_fn._saved_other is w
    assert products[1].grad_fn._saved_self is w and products[1].grad_fn._saved_other is None
    quotient = h / w
    assert quotient.grad_fn._saved_self is None and quotient.grad_fn._saved_other is w
    assert (w / h).grad_fn._saved_self is w
    h.add_(1)
    (products[0].sum() + products[1].sum() + quotient.sum()).backward()
    assert x.grad.tolist() == [3.0, -3.0, 4.5]  # 2 * w + 1 / w, as PyTorch gives

# (PyTorch's node, its saved options)
_OPTIONS: dict[str, tuple[str, dict[str, Any]]] = {
    "x.clamp(0, 1)": ("ClampBackward1", {"min": 0, "max": 1}),
    "x.clamp_min(0.5)": ("ClampMinBackward0", {"min": 0.5}),
    "x.clamp_max(-1)": ("ClampMaxBackward0", {"max": -1}),
    "x ** 2": ("PowBackward0", {"exponent": 2}),
    "x.pow(0.5)": ("PowBackward0", {"exponent": 0.5}),
    "torch.lerp(x, x * 1, 0.3)": ("LerpBackward0", {"weight": 0.3}),
    "F.leaky_relu(x, 0.2)": ("LeakyReluBackward0", {"negative_slope": 0.2}),
    "F.threshold(x, 0.1, 2.0)": ("ThresholdBackward0", {"threshold": 0.1}),
    "F.hardtanh(x, -0.5, 0.5)": ("HardtanhBackward0", {"min_val": -0.5, "max_val": 0.5}),
    "F.softplus(x, 2, 10)": ("SoftplusBackward0", {"beta": 2, "threshold": 10}),
}


@pytest.mark.parametrize("expression", list(_OPTIONS))
def test_saved_options_as_pytorch(expression: str) -> None:
    x = torch.rand(3, requires_grad=True)
    node = eval(expression, {"x": x, "torch": torch, "F": F}).grad_fn
    name, options = _OPTIONS[expression]
    assert type(node).__name__ == name
    assert {option: getattr(node, f"_saved_{option}") for option in options} == options
