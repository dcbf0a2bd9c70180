"""``nn.utils.parametrizations.weight_norm``, ``nn.utils.parametrize`` and the legacy
``nn.utils.weight_norm``: PyTorch 2.13's names, shapes, outputs and gradients (recorded below)."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as tf
import tinyframe.nn as nn
from tinyframe.autograd import gradcheck
from tinyframe.nn.utils import parametrizations, parametrize, remove_weight_norm, weight_norm

_rng = np.random.default_rng(0)
W, B, X = _rng.standard_normal((4, 3)), _rng.standard_normal(4), _rng.standard_normal((2, 3))
Y = [[-2.08805827, 0.04239138, -2.54486545, 0.17060249], [-1.30186113, 0.45352663, -0.96983469, -1.91490334]]
G_GRADS = {0: [1.89243612, 1.42573849, -0.58164841, -0.19824773], 1: [0.07352161, 0.1213505, 0.59274421],
           None: [0.36508417]}
G_SHAPES = {0: (4, 1), 1: (1, 3), None: ()}


def _linear() -> nn.Linear:
    layer = nn.Linear(3, 4, dtype=tf.float64)
    layer.load_state_dict({"weight": tf.tensor(W), "bias": tf.tensor(B)})
    return layer


@pytest.mark.parametrize("dim", [0, 1, None])
def test_weight_norm_parametrization_matches_pytorch(dim: int | None) -> None:
    layer = parametrizations.weight_norm(_linear(), dim=dim)
    assert type(layer).__name__ == "ParametrizedLinear" and isinstance(layer, nn.Linear)
    state = layer.state_dict()
    assert list(state) == ["bias", "parametrizations.weight.original0", "parametrizations.weight.original1"]
    assert tuple(state["parametrizations.weight.original0"].shape) == G_SHAPES[dim]
    out = layer(tf.tensor(X))
    np.testing.assert_allclose(out.detach().numpy(), Y, atol=1e-8)  # the weight itself is unchanged
    out.sum().backward()
    np.testing.assert_allclose(layer.parametrizations.weight.original0.grad.numpy().ravel(), G_GRADS[dim], atol=1e-8)


def test_weight_norm_repr_and_weight_property() -> None:
    layer = parametrizations.weight_norm(_linear())
    assert repr(layer) == ("ParametrizedLinear(\n  in_features=3, out_features=4, bias=True\n"
                           "  (parametrizations): ModuleDict(\n    (weight): ParametrizationList(\n"
                           "      (0): _WeightNorm()\n    )\n  )\n)")
    np.testing.assert_allclose(layer.weight.detach().numpy(), W, rtol=1e-12)
    assert parametrize.is_parametrized(layer, "weight") and not parametrize.is_parametrized(layer, "bias")


def test_weight_norm_gradients_match_finite_differences() -> None:
    layer = parametrizations.weight_norm(_linear())
    g, v = layer.parametrizations.weight.original0, layer.parametrizations.weight.original1

    def forward(g_: tf.Tensor, v_: tf.Tensor) -> tf.Tensor:
        return layer.parametrizations.weight[0](g_, v_)
    assert gradcheck(forward, [g.detach().requires_grad_(), v.detach().requires_grad_()])


def test_remove_parametrizations_restores_the_class() -> None:
    layer = parametrizations.weight_norm(_linear())
    parametrize.remove_parametrizations(layer, "weight")
    assert type(layer) is nn.Linear
    assert list(layer.state_dict()) == ["bias", "weight"]
    np.testing.assert_allclose(layer.weight.detach().numpy(), W, rtol=1e-12)


class _Double(nn.Module):
    def forward(self, w: tf.Tensor) -> tf.Tensor:
        return w * 2


def test_remove_parametrizations_keeps_the_original_tensor_as_pytorch() -> None:
    # PyTorch 2.13: the same Parameter object (so optimizers keep it), its requires_grad, the parametrized value
    layer = nn.Linear(2, 2)
    layer.weight.requires_grad_(False)
    original = layer.weight
    with tf.no_grad():
        layer.weight.copy_(tf.tensor([[1.0, 2.0], [3.0, 4.0]]))
    parametrize.register_parametrization(layer, "weight", _Double())
    parametrize.remove_parametrizations(layer, "weight", leave_parametrized=True)
    assert layer.weight is original and not layer.weight.requires_grad
    assert type(layer.weight) is nn.Parameter and layer.weight.tolist() == [[2.0, 4.0], [6.0, 8.0]]
    bn = nn.BatchNorm1d(2)
    parametrize.register_parametrization(bn, "running_mean", _Double())
    parametrize.remove_parametrizations(bn, "running_mean", leave_parametrized=True)
    assert "running_mean" in dict(bn.named_buffers()) and type(bn.running_mean) is tf.Tensor


def test_state_dict_loads_between_parametrized_layers() -> None:
    source = parametrizations.weight_norm(_linear())
    target = parametrizations.weight_norm(nn.Linear(3, 4, dtype=tf.float64))
    target.load_state_dict(source.state_dict())
    np.testing.assert_allclose(target(tf.tensor(X)).detach().numpy(), Y, atol=1e-8)


def test_legacy_weight_norm_hook() -> None:
    conv = nn.Conv1d(2, 3, 2, dtype=tf.float64)
    with pytest.warns(FutureWarning, match="is deprecated in favor of"):
        weight_norm(conv)
    assert list(conv.state_dict()) == ["bias", "weight_g", "weight_v"]
    assert conv.weight_g.shape == (3, 1, 1)
    with tf.no_grad():
        conv.weight_g.mul_(2.0)
    x = tf.randn(1, 2, 4, dtype=tf.float64)
    doubled = conv(x)  # the pre-hook recomputes the weight from g and v
    np.testing.assert_allclose(conv.weight.detach().numpy(), 2 * conv.weight_v.detach().numpy(), rtol=1e-12)
    remove_weight_norm(conv)
    assert list(conv.state_dict()) == ["bias", "weight"]
    np.testing.assert_allclose(conv(x).detach().numpy(), doubled.detach().numpy(), rtol=1e-12)


def _filled_spectral(layer: nn.Module) -> nn.Module:
    layer = parametrizations.spectral_norm(layer)
    rng = np.random.default_rng(0)
    layer.load_state_dict({k: tf.tensor(rng.standard_normal(tuple(v.shape))) for k, v in layer.state_dict().items()})
    return layer, tf.tensor(rng.standard_normal((2, 3)))


def test_spectral_norm_matches_pytorch() -> None:
    layer, x = _filled_spectral(nn.Linear(3, 4, dtype=tf.float64))
    assert list(layer.state_dict()) == ["bias", "parametrizations.weight.original", "parametrizations.weight.0._u",
                                        "parametrizations.weight.0._v"]
    out = layer(x)  # training: one power iteration, then weight / sigma
    np.testing.assert_allclose(out.detach().numpy().ravel()[:6], [0.27659538, -0.37596187, 0.40901024, -0.63003029,
                                                                 -0.181733, 0.17062797], atol=1e-8)
    out.sum().backward()
    np.testing.assert_allclose(layer.parametrizations.weight.original.grad.numpy().ravel()[:6],
                               [-0.24140986, 0.0173304, -0.26458711, -0.23835071, 0.01157482, -0.25336981], atol=1e-8)
    np.testing.assert_allclose(layer.parametrizations.weight[0]._u.numpy(),
                               [-0.1452462, -0.11526443, 0.80299331, -0.56640922], atol=1e-8)
    u = layer.parametrizations.weight[0]._u.numpy().copy()
    layer.eval()
    layer(x)
    np.testing.assert_array_equal(layer.parametrizations.weight[0]._u.numpy(), u)  # no iteration in eval mode


def test_spectral_norm_of_a_transposed_convolution_uses_dim_1() -> None:
    layer = parametrizations.spectral_norm(nn.ConvTranspose2d(2, 3, 2))
    assert layer.parametrizations.weight[0]._u.shape == (3,) and layer.parametrizations.weight[0]._v.shape == (8,)
    weight = layer.weight.detach().numpy()
    matrix = weight.transpose(1, 0, 2, 3).reshape(3, -1)
    assert abs(np.linalg.svd(matrix, compute_uv=False)[0] - 1.0) < 2e-2  # 15 iterations at creation


def test_legacy_spectral_norm_hook_matches_pytorch() -> None:
    from tinyframe.nn.utils import remove_spectral_norm, spectral_norm
    layer = spectral_norm(nn.Linear(3, 4, dtype=tf.float64))
    assert list(layer.state_dict()) == ["bias", "weight_orig", "weight_u", "weight_v"]
    rng = np.random.default_rng(0)
    layer.load_state_dict({k: tf.tensor(rng.standard_normal(tuple(v.shape))) for k, v in layer.state_dict().items()})
    x = tf.tensor(rng.standard_normal((2, 3)))
    out = layer(x)
    expected = [0.21420634, -0.27511682, 0.50470893, -0.32610589, -0.05458412, 0.04543531, 1.14538097, 0.6629793]
    np.testing.assert_allclose(out.detach().numpy().ravel(), expected, atol=1e-8)
    out.sum().backward()
    np.testing.assert_allclose(layer.weight_orig.grad.numpy().ravel()[:4], [-0.1447563, -0.03645349, -0.17221029,
                                                                           -0.12039233], atol=1e-8)
    np.testing.assert_allclose(layer.weight_u.numpy(), [-0.39461833, 0.41530731, 0.69190539, 0.43938951], atol=1e-8)
    remove_spectral_norm(layer)
    assert list(layer.state_dict()) == ["bias", "weight"]
    np.testing.assert_allclose(layer(x).detach().numpy().ravel(), expected, atol=1e-8)


def test_assigning_through_a_parametrization_without_right_inverse_raises() -> None:
    # PyTorch 2.13's message (the Parametrizations tutorial)
    class Symmetric(nn.Module):
        def forward(self, x):
            return x.triu() + x.triu(1).transpose(-1, -2)

    layer = nn.Linear(3, 3)
    parametrize.register_parametrization(layer, "weight", Symmetric())
    with pytest.raises(RuntimeError, match="^parametrization Symmetric does not implement right_inverse.$"):
        layer.weight = tf.eye(3)
