"""Views against PyTorch 2.13's recorded behaviour: the node of a basic index, and views made without grad."""
from __future__ import annotations

from typing import Any

import pytest

import tinyframe as torch

# index -> (grad_fn's name, its first next function's name, shape) for x of shape (3, 4), as PyTorch's
# (x[:] always slices; in a tuple, a slice that takes everything is skipped). tinyframe records one node
# where PyTorch chains one per index element: the next function is compared where PyTorch's is the leaf's.
_BASIC: dict[str, tuple] = {
    "[:]": ("SliceBackward0", "AccumulateGrad", (3, 4)),
    "[..., :]": ("AliasBackward0", "AccumulateGrad", (3, 4)),
    "[0:]": ("SliceBackward0", "AccumulateGrad", (3, 4)),
    "[None]": ("UnsqueezeBackward0", "AccumulateGrad", (1, 3, 4)),
    "[...]": ("AliasBackward0", "AccumulateGrad", (3, 4)),
    "[:, :]": ("AliasBackward0", "AccumulateGrad", (3, 4)),
    "[1:]": ("SliceBackward0", "AccumulateGrad", (2, 4)),
    "[0]": ("SelectBackward0", "AccumulateGrad", (4,)),
    "[:, 0]": ("SelectBackward0", "AccumulateGrad", (3,)),
    "[None, :]": ("UnsqueezeBackward0", "AccumulateGrad", (1, 3, 4)),
    "[..., None]": ("UnsqueezeBackward0", "AccumulateGrad", (3, 4, 1)),
    "[::2]": ("SliceBackward0", "AccumulateGrad", (2, 4)),
    "[:, 1:]": ("SliceBackward0", "AccumulateGrad", (3, 3)),
    "[0, 1]": ("SelectBackward0", "SelectBackward0", ()),
    "[:, None, 1:]": ("SliceBackward0", "UnsqueezeBackward0", (3, 1, 3)),
    "[-1]": ("SelectBackward0", "AccumulateGrad", (4,)),
    "[..., 0]": ("SelectBackward0", "AccumulateGrad", (3,)),
    "[:, ...]": ("AliasBackward0", "AccumulateGrad", (3, 4)),
    "[0:3]": ("SliceBackward0", "AccumulateGrad", (3, 4)),
    "[:, 0:4]": ("AliasBackward0", "AccumulateGrad", (3, 4)),
    "[:, -4:]": ("SliceBackward0", "AccumulateGrad", (3, 4)),
    "[:, 0:100]": ("AliasBackward0", "AccumulateGrad", (3, 4)),
    "[:, :4:1]": ("AliasBackward0", "AccumulateGrad", (3, 4)),
    "[-3:, :]": ("SliceBackward0", "AccumulateGrad", (3, 4)),
    "[None, None]": ("UnsqueezeBackward0", "UnsqueezeBackward0", (1, 1, 3, 4)),
    "[()]": ("AliasBackward0", "AccumulateGrad", (3, 4)),
}


@pytest.mark.parametrize("index", list(_BASIC))
def test_basic_index_node_as_pytorch(index: str) -> None:
    x = torch.randn(3, 4, requires_grad=True)
    view = eval(f"x{index}", {"x": x})
    name, next_name, shape = _BASIC[index]
    assert type(view.grad_fn).__name__ == name
    assert tuple(view.shape) == shape
    if next_name == "AccumulateGrad":
        assert type(view.grad_fn.next_functions[0][0]).__name__ == next_name


def _no_grad_view(x: Any) -> Any:
    with torch.no_grad():
        return x[:2]


def test_a_view_made_without_grad_requires_grad_as_its_base_but_gets_no_gradient() -> None:
    x = torch.randn(3, requires_grad=True)
    view = _no_grad_view(x)
    assert (view.requires_grad, view.grad_fn, view.is_leaf, view._base is x) == (True, None, True, True)
    y = (view * 2).sum()
    assert type(y.grad_fn).__name__ == "SumBackward0"
    mul = y.grad_fn.next_functions[0][0]
    assert type(mul).__name__ == "MulBackward0" and mul.next_functions == ((None, 0), (None, 0))
    y.backward()
    assert (x.grad, view.grad) == (None, None)
    nested = _no_grad_view(x.view(3))
    assert (nested.requires_grad, nested.grad_fn, nested.is_leaf) == (True, None, True)
    with pytest.raises(RuntimeError, match="A view was created in no_grad mode and is being modified inplace with "
                                           "grad mode enabled"):
        view.mul_(2)
    with torch.no_grad():
        view.mul_(2)  # in-place without grad too: allowed
    plain = _no_grad_view(torch.randn(3))
    assert not plain.requires_grad
