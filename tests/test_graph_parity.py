"""Walking ``grad_fn.next_functions`` from an output shows PyTorch's nodes in PyTorch's order, for the
layers, losses and tutorial expressions in ``_graph_walk.py`` (PyTorch's walks recorded as literals),
recurrent layers and attention included."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe

from ._graph_expected import EXPECTED
from ._graph_walk import CASES, walk


@pytest.mark.parametrize("name", list(CASES))
def test_backward_graph_matches_pytorch(name: str) -> None:
    tinyframe.manual_seed(0)
    assert walk(*CASES[name](tinyframe)) == EXPECTED[name]


def test_linear_weight_gradient_is_row_major_like_the_weight() -> None:
    layer = tinyframe.nn.Linear(4, 3)
    layer(tinyframe.randn(5, 4)).sum().backward()
    assert layer.weight.grad._data.flags.c_contiguous and layer.bias.grad.shape == (3,)


def test_a_leaf_gradient_never_shares_memory_with_the_gradient_given_to_backward() -> None:
    w = tinyframe.randn(3, 4, requires_grad=True)
    given = tinyframe.randn(3, 4)
    w.t().backward(given.t())  # arrives at w transposed back: all of given's memory
    given.add_(1.0)
    assert not (w.grad == given).all()


def test_a_composed_node_owns_its_result_and_checks_its_saved_input() -> None:
    x = tinyframe.randn(1, 1, 2, 2, requires_grad=True)
    y = tinyframe.nn.functional.pixel_shuffle(x, 1)  # the composition is a reshape of x: the node copies it
    assert y.grad_fn.name() == "PixelShuffleBackward0"
    y.data.add_(1.0)
    assert not (x == y).any()
    z = tinyframe.nn.functional.celu(x)  # CeluBackward0 saves its input, as PyTorch's
    with tinyframe.no_grad():
        x.mul_(2.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()


def test_a_composed_node_gives_third_derivatives() -> None:
    x = tinyframe.tensor([[[0.5, -1.0, 2.0]]], dtype=tinyframe.float64, requires_grad=True)
    y = tinyframe.nn.functional.interpolate(x ** 3, scale_factor=2, mode="linear").sum()
    (g,) = tinyframe.autograd.grad(y, x, create_graph=True)
    (gg,) = tinyframe.autograd.grad(g.sum(), x, create_graph=True)
    (ggg,) = tinyframe.autograd.grad(gg.sum(), x)
    np.testing.assert_allclose(ggg.numpy(), [[[12.0, 12.0, 12.0]]])  # each input reaches two outputs: 2 * 6


def test_a_composed_node_runs_again_with_retain_graph_and_refuses_without() -> None:
    x = tinyframe.tensor([[[[-1.0, 2.0], [0.5, -0.5]]]], requires_grad=True)
    y = tinyframe.nn.functional.celu(x).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy().ravel(), [0.735758900642395, 2.0, 2.0, 1.2130613327026367])  # PyTorch's
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.backward()


_F = tinyframe.nn.functional
# (PyTorch 2.13) Ops whose gradient does not depend on the input save none: a second backward without
# retain_graph runs (and in-place changes to the input after the op do not matter) ...
_RUN_AGAIN = {
    "affine_grid": lambda t: _F.affine_grid(t[:6].reshape(1, 2, 3), [1, 1, 3, 4], align_corners=False),
    "affine_grid_3d": lambda t: _F.affine_grid(t.reshape(1, 3, 4), [1, 1, 2, 3, 4], align_corners=False),
    "pixel_shuffle": lambda t: _F.pixel_shuffle(t.reshape(1, 4, 1, 3), 2),
    "pixel_unshuffle": lambda t: _F.pixel_unshuffle(t.reshape(1, 1, 2, 6), 2),
    "channel_shuffle": lambda t: _F.channel_shuffle(t.reshape(1, 4, 3), 2),
    "block_diag": lambda t: tinyframe.block_diag(t[:4].reshape(2, 2), t[4:].reshape(2, 4)),
    "nearest": lambda t: _F.interpolate(t.reshape(1, 1, 3, 4), scale_factor=2),
    "bilinear": lambda t: _F.interpolate(t.reshape(1, 1, 3, 4), scale_factor=2, mode="bilinear"),
    "bicubic": lambda t: _F.interpolate(t.reshape(1, 1, 3, 4), scale_factor=2, mode="bicubic"),
    "linear": lambda t: _F.interpolate(t.reshape(1, 1, 12), scale_factor=2, mode="linear"),
    "trilinear": lambda t: _F.interpolate(t.reshape(1, 1, 2, 2, 3), scale_factor=2, mode="trilinear"),
}
# ... and those that save their input (or indices) refuse it, as PyTorch's
_REFUSE = {
    "reflect": lambda t: _F.pad(t.reshape(1, 1, 3, 4), (1, 1, 1, 1), mode="reflect"),
    "replicate": lambda t: _F.pad(t.reshape(1, 1, 3, 4), (1, 1, 1, 1), mode="replicate"),
    "circular": lambda t: _F.pad(t.reshape(1, 1, 3, 4), (1, 1, 1, 1), mode="circular"),
    "embedding": lambda t: _F.embedding(tinyframe.tensor([0, 2]), t.reshape(4, 3)),
    "grid_sample": lambda t: _F.grid_sample(t.reshape(1, 1, 3, 4), tinyframe.zeros(1, 2, 2, 2), align_corners=False),
}


@pytest.mark.parametrize("name", list(_RUN_AGAIN) + list(_REFUSE))
def test_a_second_backward_without_retain_graph_as_pytorch(name: str) -> None:
    x = tinyframe.arange(12.0, requires_grad=True)
    y = (_RUN_AGAIN.get(name) or _REFUSE[name])(x).sum()
    y.backward()
    first = x.grad.clone()
    if name in _REFUSE:
        with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
            y.backward()
        return
    with tinyframe.no_grad():
        x.mul_(2.0)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * first.numpy())
