"""Activation functions of ``tinyframe.nn.functional`` and their layers: values against NumPy formulas
and PyTorch's numbers, gradients (first and second order), in-place forms, dtypes, reprs."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import tinyframe as tf
import tinyframe.nn as nn
import tinyframe.nn.functional as F
from tinyframe.autograd import gradcheck, gradgradcheck

X = [[-2.5, -1.0, -0.3, 0.0], [0.4, 1.2, 3.0, 7.5]]
SMOOTH_X = [[-2.5, -1.0, -0.3, 0.15], [0.4, 1.2, 3.0, 4.5]]  # away from every kink (0, +-1, 6, thresholds)

_erf = np.vectorize(math.erf)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def _softmax(x: np.ndarray, dim: int) -> np.ndarray:
    e = np.exp(x - x.max(axis=dim, keepdims=True))
    return e / e.sum(axis=dim, keepdims=True)


# name: (function of a tensor, NumPy formula, PyTorch's grad_fn name)
ACTIVATIONS = {
    "relu": (F.relu, lambda x: np.maximum(x, 0), "ReluBackward0"),
    "relu6": (F.relu6, lambda x: np.clip(x, 0, 6), "HardtanhBackward0"),
    "leaky_relu": (lambda t: F.leaky_relu(t, 0.2), lambda x: np.where(x > 0, x, 0.2 * x), "LeakyReluBackward0"),
    "elu": (lambda t: F.elu(t, 0.7), lambda x: np.where(x > 0, x, 0.7 * np.expm1(x)), "EluBackward0"),
    "gelu": (F.gelu, lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2))), "GeluBackward0"),
    "gelu_tanh": (lambda t: F.gelu(t, approximate="tanh"),
                  lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3))), "GeluBackward0"),
    "silu": (F.silu, lambda x: x * _sigmoid(x), "SiluBackward0"),
    "sigmoid": (F.sigmoid, _sigmoid, "SigmoidBackward0"),
    "tanh": (F.tanh, np.tanh, "TanhBackward0"),
    "softplus": (lambda t: F.softplus(t, 2.0, 5.0),
                 lambda x: np.where(2 * x > 5, x, np.log1p(np.exp(2 * x)) / 2), "SoftplusBackward0"),
    "hardtanh": (lambda t: F.hardtanh(t, -0.5, 2.0), lambda x: np.clip(x, -0.5, 2.0), "HardtanhBackward0"),
    "logsigmoid": (F.logsigmoid, lambda x: np.log(_sigmoid(x)), "LogSigmoidBackward0"),
    "softmax": (lambda t: F.softmax(t, 1), lambda x: _softmax(x, 1), "SoftmaxBackward0"),
    "log_softmax": (lambda t: F.log_softmax(t, 0), lambda x: np.log(_softmax(x, 0)), "LogSoftmaxBackward0"),
}

# torch.nn.functional on X in float64 (torch 2.13).
TORCH = {
    "relu": [0.0, 0.0, 0.0, 0.0, 0.4, 1.2, 3.0, 7.5],
    "relu6": [0.0, 0.0, 0.0, 0.0, 0.4, 1.2, 3.0, 6.0],
    "leaky_relu": [-0.5, -0.2, -0.06, 0.0, 0.4, 1.2, 3.0, 7.5],
    "elu": [-0.642540500963, -0.44248439118, -0.181427245523, 0.0, 0.4, 1.2, 3.0, 7.5],
    "gelu": [-0.015524163314, -0.158655253931, -0.114626573343, 0.0, 0.262168696644, 1.061916395734, 2.995950305905,
             7.5],
    "gelu_tanh": [-0.01508426609, -0.158808009392, -0.114629076457, 0.0, 0.262161169427, 1.061702769138,
                  2.996362607918, 7.5],
    "silu": [-0.189645450053, -0.26894142137, -0.127667244957, 0.0, 0.239475064045, 0.922229740199, 2.857722380467,
             7.495854160223],
    "sigmoid": [0.075858180021, 0.26894142137, 0.425557483188, 0.5, 0.598687660112, 0.768524783499, 0.952574126822,
                0.999447221363],
    "tanh": [-0.986614298151, -0.761594155956, -0.291312612452, 0.0, 0.379948962255, 0.833654607012, 0.995054753687,
             0.999999388196],
    "softplus": [0.003357674245, 0.063464005521, 0.218743975243, 0.34657359028, 0.585550332974, 1.243418076077, 3.0,
                 7.5],
    "hardtanh": [-0.5, -0.5, -0.3, 0.0, 0.4, 1.2, 2.0, 2.0],
    "logsigmoid": [-2.578889734293, -1.313261687518, -0.854355244469, -0.69314718056, -0.5130152524, -0.263282467338,
                   -0.048587351574, -0.000552931475],
    "softmax": [0.037468344124, 0.167921468345, 0.338152311522, 0.45645787601, 0.000813897228, 0.001811361592,
                0.010958099063, 0.986416642118],
    "log_softmax": [-2.953562776218, -2.305083319769, -3.336219258871, -7.500552931475, -0.053562776218,
                    -0.105083319769, -0.036219258871, -0.000552931475],
}


@pytest.mark.parametrize("name", ACTIVATIONS)
def test_activation_matches_numpy_formula_and_torch(name: str, device: str) -> None:
    fn, formula, _ = ACTIVATIONS[name]
    out = fn(tf.tensor(X, dtype=tf.float64, device=device))
    np.testing.assert_allclose(out.cpu().numpy(), formula(np.array(X)), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(out.cpu().numpy().reshape(-1), TORCH[name], rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name", ACTIVATIONS)
def test_activation_gradients_match_finite_differences(name: str, device: str) -> None:
    fn = ACTIVATIONS[name][0]
    x = tf.tensor(SMOOTH_X, dtype=tf.float64, device=device, requires_grad=True)
    assert gradcheck(fn, [x])
    assert gradgradcheck(fn, [x])


@pytest.mark.parametrize("name", ACTIVATIONS)
def test_activation_keeps_float32_and_names_its_node_like_torch(name: str) -> None:
    fn, _, node = ACTIVATIONS[name]
    out = fn(tf.tensor(X, requires_grad=True))
    assert out.dtype == tf.float32
    assert out.grad_fn.name() == node


INPLACE = [
    ("relu", lambda t: F.relu(t, inplace=True), F.relu, "ReluBackward0"),
    ("relu_", F.relu_, F.relu, "ReluBackward0"),
    ("relu6", lambda t: F.relu6(t, inplace=True), F.relu6, "HardtanhBackward0"),
    ("leaky_relu", lambda t: F.leaky_relu(t, 0.2, inplace=True), lambda t: F.leaky_relu(t, 0.2), None),
    ("leaky_relu_", lambda t: F.leaky_relu_(t, 0.2), lambda t: F.leaky_relu(t, 0.2), None),
    ("elu", lambda t: F.elu(t, 0.7, inplace=True), lambda t: F.elu(t, 0.7), None),
    ("elu_", lambda t: F.elu_(t, 0.7), lambda t: F.elu(t, 0.7), None),
    ("hardtanh", lambda t: F.hardtanh(t, -0.5, 2.0, inplace=True), lambda t: F.hardtanh(t, -0.5, 2.0),
     "HardtanhBackward0"),
    ("hardtanh_", lambda t: F.hardtanh_(t, -0.5, 2.0), lambda t: F.hardtanh(t, -0.5, 2.0), "HardtanhBackward0"),
    ("silu", lambda t: F.silu(t, inplace=True), F.silu, "SiluBackward0"),
]


@pytest.mark.parametrize("name, inplace, out_of_place, node", INPLACE, ids=[c[0] for c in INPLACE])
def test_inplace_form_overwrites_its_input_and_records_the_op(name: str, inplace: object, out_of_place: object,
                                                               node: str | None) -> None:
    leaf = tf.tensor(SMOOTH_X, dtype=tf.float64, requires_grad=True)
    x = leaf * 1.0
    version = x._version
    assert inplace(x) is x
    assert x._version > version
    reference = tf.tensor(SMOOTH_X, dtype=tf.float64, requires_grad=True)
    expected = out_of_place(reference)
    np.testing.assert_allclose(x.detach().numpy(), expected.detach().numpy(), rtol=1e-12)
    if node is not None:  # PyTorch names in-place leaky_relu / elu nodes ...Backward1; ours stay Backward0
        assert x.grad_fn.name() == node
    x.sum().backward()
    expected.sum().backward()
    np.testing.assert_allclose(leaf.grad.numpy(), reference.grad.numpy(), rtol=1e-12)


def test_inplace_activation_on_a_leaf_that_requires_grad_raises() -> None:
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        F.relu(tf.tensor([1.0, -1.0], requires_grad=True), inplace=True)


def test_inplace_activation_without_grad_writes_the_storage() -> None:
    x = tf.tensor([-1.0, 2.0])
    assert F.relu_(x) is x
    assert x.tolist() == [0.0, 2.0]


def test_relu_and_relu6_keep_integer_dtypes() -> None:
    assert F.relu(tf.tensor([1, -1])).dtype == tf.int64
    assert F.relu6(tf.tensor([1, -1, 8])).tolist() == [1, 0, 6]


def test_softmax_without_dim_warns_and_picks_torchs_legacy_dim() -> None:
    x = tf.tensor(X, dtype=tf.float64)
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax has been deprecated"):
        out = F.softmax(x)
    np.testing.assert_allclose(out.numpy(), _softmax(np.array(X), 1))
    with pytest.warns(UserWarning, match="log_softmax"):
        out = F.log_softmax(tf.tensor([1.0, 2.0, 3.0]))
    np.testing.assert_allclose(out.numpy(), np.log(_softmax(np.array([1.0, 2.0, 3.0]), 0)), rtol=1e-6)
    with pytest.warns(UserWarning):
        assert F.softmax(tf.ones(2, 3, 4)).sum(0).allclose(tf.ones(3, 4))  # 3-D: dim 0


def test_softmax_dtype_argument_casts_first() -> None:
    out = F.softmax(tf.tensor(X), 1, dtype=tf.float64)
    assert out.dtype == tf.float64


def test_gelu_rejects_unknown_approximation() -> None:
    with pytest.raises(RuntimeError, match="approximate argument must be either none or tanh"):
        F.gelu(tf.tensor([1.0]), approximate="fast")


# --------------------------------------------------------------------------- layers
LAYERS = [
    (nn.ReLU(), "ReLU()", "relu"),
    (nn.ReLU(inplace=True), "ReLU(inplace=True)", None),
    (nn.ReLU6(), "ReLU6()", "relu6"),
    (nn.ReLU6(True), "ReLU6(inplace=True)", None),
    (nn.LeakyReLU(), "LeakyReLU(negative_slope=0.01)", None),
    (nn.LeakyReLU(0.2, True), "LeakyReLU(negative_slope=0.2, inplace=True)", None),
    (nn.LeakyReLU(0.2), "LeakyReLU(negative_slope=0.2)", "leaky_relu"),
    (nn.ELU(0.7), "ELU(alpha=0.7)", "elu"),
    (nn.ELU(0.5, True), "ELU(alpha=0.5, inplace=True)", None),
    (nn.GELU(), "GELU(approximate='none')", "gelu"),
    (nn.GELU("tanh"), "GELU(approximate='tanh')", "gelu_tanh"),
    (nn.SiLU(), "SiLU()", "silu"),
    (nn.SiLU(True), "SiLU(inplace=True)", None),
    (nn.Sigmoid(), "Sigmoid()", "sigmoid"),
    (nn.Tanh(), "Tanh()", "tanh"),
    (nn.LogSigmoid(), "LogSigmoid()", "logsigmoid"),
    (nn.Softplus(), "Softplus(beta=1.0, threshold=20.0)", None),
    (nn.Softplus(2, 5), "Softplus(beta=2, threshold=5)", "softplus"),
    (nn.Hardtanh(), "Hardtanh(min_val=-1.0, max_val=1.0)", None),
    (nn.Hardtanh(-0.5, 2.0), "Hardtanh(min_val=-0.5, max_val=2.0)", "hardtanh"),
    (nn.Hardtanh(-2, 2, True), "Hardtanh(min_val=-2, max_val=2, inplace=True)", None),
    (nn.Softmax(dim=1), "Softmax(dim=1)", "softmax"),
    (nn.Softmax(), "Softmax(dim=None)", None),
    (nn.LogSoftmax(0), "LogSoftmax(dim=0)", "log_softmax"),
]


@pytest.mark.parametrize("layer, text, reference", LAYERS, ids=[t for _, t, _ in LAYERS])
def test_layer_repr_and_forward_match_torch(layer: nn.Module, text: str, reference: str | None) -> None:
    assert repr(layer) == text
    if reference is not None:
        out = layer(tf.tensor(X, dtype=tf.float64))
        np.testing.assert_allclose(out.numpy().reshape(-1), TORCH[reference], rtol=1e-9, atol=1e-12)
    assert list(layer.state_dict()) == []


def test_inplace_layer_overwrites_its_input() -> None:
    x = tf.tensor([-1.0, 2.0])
    assert nn.ReLU(inplace=True)(x) is x
    assert x.tolist() == [0.0, 2.0]


def test_softmax_layer_without_dim_warns_at_the_callers_line() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nn.Softmax()(tf.ones(2, 3))
    assert caught[0].filename == __file__


def test_hardtanh_layer_requires_max_above_min() -> None:
    with pytest.raises(AssertionError):
        nn.Hardtanh(1.0, -1.0)
    assert repr(nn.Hardtanh(min_value=-3.0, max_value=3.0)) == "Hardtanh(min_val=-3.0, max_val=3.0)"


def test_activation_layers_in_a_sequential_backpropagate() -> None:
    model = nn.Sequential(nn.Linear(4, 3), nn.GELU(), nn.Linear(3, 2), nn.Tanh())
    model(tf.randn(5, 4)).sum().backward()
    assert all(p.grad is not None for p in model.parameters())


def test_softshrink_gives_pytorchs_signed_zeros() -> None:
    # PyTorch 2.13's CPU kernel: x * 0 (a -0 for negative x) in its scalar loop, which takes the last
    # numel % (64 / itemsize) elements in memory order, +0 in its vector loop (recorded)
    def negative_zeros(x: tf.Tensor) -> list:
        return tf.signbit(F.softshrink(x, 1.0)).int().tolist()

    assert negative_zeros(tf.full((5,), -0.25)) == [1] * 5
    assert negative_zeros(tf.full((17,), -0.25)) == [0] * 16 + [1]
    assert negative_zeros(tf.full((9,), -0.25, dtype=tf.float64)) == [0] * 8 + [1]
    assert negative_zeros(tf.full((4, 5), -0.25).t()) == [[0, 0, 0, 0]] + [[0, 0, 0, 1]] * 4
    assert negative_zeros(tf.full((2, 20), -0.25)[:, ::2]) == [[0] * 10, [0] * 6 + [1] * 4]
    assert F.softshrink(tf.tensor([-3.0, -1.0, -0.5, 0.0, 1.0, 3.0]), 1.0).tolist() == [-2.0, -0.0, -0.0, 0.0, 0.0, 2.0]
