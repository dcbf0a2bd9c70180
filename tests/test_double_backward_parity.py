"""Double backward through piecewise ops, against PyTorch 2.13's recorded behaviour.

For each op ``f`` and ``x`` below, ``g = autograd.grad(loss, x, create_graph=True)`` with ``loss`` either
``f(x).pow(2).sum()`` or ``f(x).sum()`` (where the second-order term is structurally zero): PyTorch's values
of ``g``, whether it requires grad and its ``grad_fn``'s name, then ``autograd.grad(g.sum(), x,
allow_unused=True)`` and ``x.grad`` after ``g.sum().backward()`` (a list, or the exception's type).
"""
from __future__ import annotations

from typing import Any

import pytest

import tinyframe as torch
import tinyframe.nn.functional as F

DATA = [-1.5, -0.5, 0.0, 0.5, 1.5, 2.5]

OPS: dict[str, Any] = {
    "relu": torch.relu, "F.relu": F.relu, "leaky_relu": lambda x: F.leaky_relu(x, 0.1),
    "hardtanh": F.hardtanh, "relu6": F.relu6, "threshold": lambda x: F.threshold(x, 0.5, -2.0),
    "hardshrink": F.hardshrink, "softshrink": F.softshrink,
    "clamp": lambda x: torch.clamp(x, -1, 1), "clamp_min": lambda x: torch.clamp(x, min=0),
    "clamp_max": lambda x: torch.clamp(x, max=0), "clamp_min_": lambda x: x.clamp_min(0),
    "clip": lambda x: torch.clip(x, -1, 1),
    "sign": torch.sign, "floor": torch.floor, "ceil": torch.ceil, "round": torch.round,
    "round_decimals": lambda x: torch.round(x, decimals=1), "trunc": torch.trunc, "frac": torch.frac,
    "silu": F.silu, "softplus": F.softplus, "logsigmoid": F.logsigmoid,
    "rrelu_eval": lambda x: F.rrelu(x, training=False),
}

# (op, squared): (g, g.requires_grad, g.grad_fn's name ("?": not compared), allow_unused grad, x.grad)
EXPECTED: dict[tuple[str, bool], tuple] = {
    ('F.relu', False): (
        [0.0, 0.0, 0.0, 1.0, 1.0, 1.0], True, 'ThresholdBackwardBackward0',
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    ('F.relu', True): (
        [0.0, 0.0, 0.0, 1.0, 3.0, 5.0], True, 'ThresholdBackwardBackward0',
        [0.0, 0.0, 0.0, 2.0, 2.0, 2.0],
        [0.0, 0.0, 0.0, 2.0, 2.0, 2.0]),
    ('ceil', False): (
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], False, None,
        'RuntimeError',
        'RuntimeError'),
    ('ceil', True): (
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], False, None,
        'RuntimeError',
        'RuntimeError'),
    ('clamp', False): (
        [0.0, 1.0, 1.0, 1.0, 0.0, 0.0], False, None,
        'RuntimeError',
        'RuntimeError'),
    ('clamp', True): (
        [0.0, -1.0, 0.0, 1.0, 0.0, 0.0], True, 'WhereBackward0',
        [0.0, 2.0, 2.0, 2.0, 0.0, 0.0],
        [0.0, 2.0, 2.0, 2.0, 0.0, 0.0]),
    ('clamp_max', False): (
        [1.0, 1.0, 1.0, 0.0, 0.0, 0.0], False, None,
        'RuntimeError',
        'RuntimeError'),
    ('clamp_max', True): (
        [-3.0, -1.0, 0.0, 0.0, 0.0, 0.0], True, 'WhereBackward0',
        [2.0, 2.0, 2.0, 0.0, 0.0, 0.0],
        [2.0, 2.0, 2.0, 0.0, 0.0, 0.0]),
    ('clamp_min', False): (
        [0.0, 0.0, 1.0, 1.0, 1.0, 1.0], False, None,
        'RuntimeError',
        'RuntimeError'),
    ('clamp_min', True): (
        [0.0, 0.0, 0.0, 1.0, 3.0, 5.0], True, 'WhereBackward0',
        [0.0, 0.0, 2.0, 2.0, 2.0, 2.0],
        [0.0, 0.0, 2.0, 2.0, 2.0, 2.0]),
    ('clamp_min_', False): (
        [0.0, 0.0, 1.0, 1.0, 1.0, 1.0], False, None,
        'RuntimeError',
        'RuntimeError'),
    ('clamp_min_', True): (
        [0.0, 0.0, 0.0, 1.0, 3.0, 5.0], True, 'WhereBackward0',
        [0.0, 0.0, 2.0, 2.0, 2.0, 2.0],
        [0.0, 0.0, 2.0, 2.0, 2.0, 2.0]),
    ('clip', False): (
        [0.0, 1.0, 1.0, 1.0, 0.0, 0.0], False, None,
        'RuntimeError',
        'RuntimeError'),
    ('clip', True): (
        [0.0, -1.0, 0.0, 1.0, 0.0, 0.0], True, 'WhereBackward0',
        [0.0, 2.0, 2.0, 2.0, 0.0, 0.0],
        [0.0, 2.0, 2.0, 2.0, 0.0, 0.0]),
    ('floor', False): (
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], False, None,
        'RuntimeError',
        'RuntimeError'),
    ('floor', True): (
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], False, None,
        'RuntimeError',
        'RuntimeError'),
    ('frac', False): (
        [1.0, 1.0, 1.0, 1.0, 1.0, 1.0], False, None,
        'RuntimeError',
        'RuntimeError'),
    ('frac', True): (
        [-1.0, -1.0, 0.0, 1.0, 1.0, 1.0], True, 'MulBackward0',
        [2.0, 2.0, 2.0, 2.0, 2.0, 2.0],
        [2.0, 2.0, 2.0, 2.0, 2.0, 2.0]),
    ('hardshrink', False): (
        [1.0, 0.0, 0.0, 0.0, 1.0, 1.0], True, 'HardshrinkBackwardBackward0',
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    ('hardshrink', True): (
        [-3.0, 0.0, 0.0, 0.0, 3.0, 5.0], True, 'HardshrinkBackwardBackward0',
        [2.0, 0.0, 0.0, 0.0, 2.0, 2.0],
        [2.0, 0.0, 0.0, 0.0, 2.0, 2.0]),
    ('hardtanh', False): (
        [0.0, 1.0, 1.0, 1.0, 0.0, 0.0], True, 'HardtanhBackwardBackward0',
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    ('hardtanh', True): (
        [0.0, -1.0, 0.0, 1.0, 0.0, 0.0], True, 'HardtanhBackwardBackward0',
        [0.0, 2.0, 2.0, 2.0, 0.0, 0.0],
        [0.0, 2.0, 2.0, 2.0, 0.0, 0.0]),
    ('leaky_relu', False): (
        [0.1, 0.1, 0.1, 1.0, 1.0, 1.0], True, 'LeakyReluBackwardBackward0',
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    ('leaky_relu', True): (
        [-0.03, -0.01, 0.0, 1.0, 3.0, 5.0], True, 'LeakyReluBackwardBackward0',
        [0.02, 0.02, 0.02, 2.0, 2.0, 2.0],
        [0.02, 0.02, 0.02, 2.0, 2.0, 2.0]),
    ('logsigmoid', False): (
        [0.817574476194, 0.622459331202, 0.5, 0.377540668798, 0.182425523806, 0.075858180021],
        True, 'LogSigmoidBackwardBackward0',
        [-0.14914645207, -0.235003712202, -0.25, -0.235003712202, -0.14914645207, -0.070103716545],
        [-0.14914645207, -0.235003712202, -0.25, -0.235003712202, -0.14914645207, -0.070103716545]),
    ('logsigmoid', True): (
        [-2.782064139071, -1.212646616224, -0.69314718056, -0.357966683338, -0.073485845475, -0.011968863332],
        True, 'LogSigmoidBackwardBackward0',
        [1.84437555608, 1.232734652505, 0.84657359028, 0.507893615496, 0.126638295094, 0.022569854095],
        [1.84437555608, 1.232734652505, 0.84657359028, 0.507893615496, 0.126638295094, 0.022569854095]),
    ('relu', False): (
        [0.0, 0.0, 0.0, 1.0, 1.0, 1.0], True, 'ThresholdBackwardBackward0',
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    ('relu', True): (
        [0.0, 0.0, 0.0, 1.0, 3.0, 5.0], True, 'ThresholdBackwardBackward0',
        [0.0, 0.0, 0.0, 2.0, 2.0, 2.0],
        [0.0, 0.0, 0.0, 2.0, 2.0, 2.0]),
    ('relu6', False): (
        [0.0, 0.0, 0.0, 1.0, 1.0, 1.0], True, 'HardtanhBackwardBackward0',
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    ('relu6', True): (
        [0.0, 0.0, 0.0, 1.0, 3.0, 5.0], True, 'HardtanhBackwardBackward0',
        [0.0, 0.0, 0.0, 2.0, 2.0, 2.0],
        [0.0, 0.0, 0.0, 2.0, 2.0, 2.0]),
    ('round', False): (
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], False, None,
        'RuntimeError',
        'RuntimeError'),
    ('round', True): (
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], False, None,
        'RuntimeError',
        'RuntimeError'),
    ('round_decimals', False): (
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], False, None,
        'RuntimeError',
        'RuntimeError'),
    ('round_decimals', True): (
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], False, None,
        'RuntimeError',
        'RuntimeError'),
    ('rrelu_eval', False): (
        [0.229166666667, 0.229166666667, 0.229166666667, 1.0, 1.0, 1.0], True, 'RreluWithNoiseBackwardBackward0',
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    ('rrelu_eval', True): (
        [-0.157552083333, -0.052517361111, 0.0, 1.0, 3.0, 5.0], True, 'RreluWithNoiseBackwardBackward0',
        [0.105034722222, 0.105034722222, 0.105034722222, 2.0, 2.0, 2.0],
        [0.105034722222, 0.105034722222, 0.105034722222, 2.0, 2.0, 2.0]),
    ('sign', False): (
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], False, None,
        'RuntimeError',
        'RuntimeError'),
    ('sign', True): (
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], False, None,
        'RuntimeError',
        'RuntimeError'),
    ('silu', False): (
        [-0.041294154299, 0.260038812697, 0.5, 0.739961187303, 1.041294154299, 1.099401111342], True, 'MulBackward0',
        [0.156197584964, 0.441229026977, 0.5, 0.441229026977, 0.156197584964, -0.008462156523],
        [0.156197584964, 0.441229026977, 0.5, 0.441229026977, 0.156197584964, -0.008462156523]),
    ('silu', True): (
        [0.022599323184, -0.098175227259, 0.0, 0.460595745764, 2.554006568294, 5.080012719609], True, 'MulBackward0',
        [-0.082072864404, -0.03134153372, 0.5, 1.369732242468, 2.551696507683, 2.378264443586],
        [-0.082072864404, -0.03134153372, 0.5, 1.369732242468, 2.551696507683, 2.378264443586]),
    ('softplus', False): (
        [0.182425523806, 0.377540668798, 0.5, 0.622459331202, 0.817574476194, 0.924141819979],
        True, 'SoftplusBackwardBackward0',
        [0.14914645207, 0.235003712202, 0.25, 0.235003712202, 0.14914645207, 0.070103716545],
        [0.14914645207, 0.235003712202, 0.25, 0.235003712202, 0.14914645207, 0.070103716545]),
    ('softplus', True): (
        [0.073485845475, 0.357966683338, 0.69314718056, 1.212646616224, 2.782064139071, 4.766519705147],
        True, 'SoftplusBackwardBackward0',
        [0.126638295094, 0.507893615496, 0.84657359028, 1.232734652505, 1.84437555608, 2.069655716735],
        [0.126638295094, 0.507893615496, 0.84657359028, 1.232734652505, 1.84437555608, 2.069655716735]),
    ('softshrink', False): (
        [1.0, 0.0, 0.0, 0.0, 1.0, 1.0], True, 'SoftshrinkBackwardBackward0',
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    ('softshrink', True): (
        [-2.0, 0.0, 0.0, 0.0, 2.0, 4.0], True, 'SoftshrinkBackwardBackward0',
        [2.0, 0.0, 0.0, 0.0, 2.0, 2.0],
        [2.0, 0.0, 0.0, 0.0, 2.0, 2.0]),
    ('threshold', False): (
        [0.0, 0.0, 0.0, 0.0, 1.0, 1.0], True, 'ThresholdBackwardBackward0',
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    ('threshold', True): (
        [0.0, 0.0, 0.0, 0.0, 3.0, 5.0], True, 'ThresholdBackwardBackward0',
        [0.0, 0.0, 0.0, 0.0, 2.0, 2.0],
        [0.0, 0.0, 0.0, 0.0, 2.0, 2.0]),
    ('trunc', False): (
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], False, None,
        'RuntimeError',
        'RuntimeError'),
    ('trunc', True): (
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], False, None,
        'RuntimeError',
        'RuntimeError'),
}


def _rounded(t: Any) -> list:
    return [round(v, 12) for v in t.tolist()]


def _outcome(compute: Any) -> Any:
    try:
        value = compute()
    except RuntimeError:
        return "RuntimeError"
    return value if value is None else _rounded(value)


@pytest.mark.parametrize("case", list(EXPECTED), ids=lambda case: f"{case[0]}-{'squared' if case[1] else 'linear'}")
def test_double_backward_as_pytorch(case: tuple[str, bool]) -> None:
    name, squared = case
    g_expected, requires_grad, grad_fn, unused_expected, x_grad_expected = EXPECTED[case]
    x = torch.tensor(DATA, dtype=torch.float64, requires_grad=True)
    y = OPS[name](x)
    (g,) = torch.autograd.grad((y.pow(2) if squared else y).sum(), x, create_graph=True)
    assert _rounded(g) == pytest.approx(g_expected, abs=1e-12)
    assert g.requires_grad is requires_grad
    if grad_fn != "?":
        assert (None if g.grad_fn is None else type(g.grad_fn).__name__) == grad_fn
    unused = _outcome(lambda: torch.autograd.grad(g.sum(), x, allow_unused=True, retain_graph=True)[0])
    assert unused == unused_expected if isinstance(unused, str) else unused == pytest.approx(unused_expected)

    def backward() -> Any:
        g.sum().backward()
        return x.grad
    x_grad = _outcome(backward)
    assert x_grad == x_grad_expected if isinstance(x_grad, str) else x_grad == pytest.approx(x_grad_expected)


# The gradient of a smooth activation taken with create_graph=True: PyTorch 2.13 records its backward kernel
# as one node. name: (g.grad_fn's name, sum of g, sum of grad(g.sum())) for the x and weights below.
SMOOTH: dict[str, tuple] = {
    "sigmoid": ("SigmoidBackwardBackward0", 5.77463733, -0.59643683),
    "tanh": ("TanhBackwardBackward0", 16.29292803, -5.62171485),
    "gelu": ("GeluBackwardBackward0", 23.34396376, 10.92145883),
    "gelu_tanh": ("GeluBackwardBackward0", 23.33355963, 10.91575821),
    "elu": ("EluBackwardBackward0", 29.36958555, 2.36958555),
    "selu": ("EluBackwardBackward0", 32.53489346, 4.1659668),
    "softplus": ("SoftplusBackwardBackward0", 21.03954416, 5.77463733),
    "silu": ("MulBackward0", 22.4308788, 8.70264152),
    "mish": ("MulBackward0", 24.07870679, 9.33234151),
    "logsigmoid": ("LogSigmoidBackwardBackward0", 14.96045584, -5.77463733),
    "softmax": ("SoftmaxBackwardDataBackward0", 0.0, 0.0),
    "log_softmax": ("LogSoftmaxBackwardDataBackward0", 0.0, 0.0),
    "hardswish": ("HardswishBackwardBackward0", 20.15, 9.33333333),
    "glu": ("GluBackwardBackward0", 10.64032624, 4.91713812),
}
SMOOTH_OPS: dict[str, Any] = {
    "sigmoid": torch.sigmoid, "tanh": torch.tanh, "gelu": F.gelu, "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
    "elu": F.elu, "selu": F.selu, "softplus": F.softplus, "silu": F.silu, "mish": F.mish, "logsigmoid": F.logsigmoid,
    "softmax": lambda x: torch.softmax(x, -1), "log_softmax": lambda x: torch.log_softmax(x, -1),
    "hardswish": F.hardswish, "glu": lambda x: F.glu(x, -1),
}
# PyTorch 2.13's third derivatives, grad((g2 * g2).sum()) with g2 = grad((g * w).sum(), create_graph=True)
THIRD = {
    "sigmoid": [0.00297045, -0.13289078, 0.47985505, 2.79611379, 1.43117931, 7.71683294, 3.73907506, -9.5845419],
    "tanh": [0.34473051, -23.27754535, 104.32240698, -47.76423622, -420.74455793, 43.1311808, 947.66722189,
             -4.21468056],
    "softmax": [0.07960932, -0.05945707, -0.01444411, -0.00570814, 0.83173888, -0.01412025, -0.14209308, -0.67552556],
    "log_softmax": [3.40438816, 6.77507496, -10.12439238, -0.05507073, 209.91190595, 1.00929633, -3.62148955,
                    -207.29971272],
    "gelu": [-0.02201693, 10.42833529, -38.4542743, -185.2114792, -81.08776478, 17.11946322, -304.3699801,
             -11.57042512],
    "softplus": [0.02825735, 0.28471519, -0.98918905, -8.46595967, -21.24462826, 16.73214651, -7.49219212,
                 -12.73683319],
}


@pytest.mark.parametrize("name", list(SMOOTH))
def test_gradient_of_a_smooth_activation_is_its_backward_node(name: str) -> None:
    node, g_sum, gg_sum = SMOOTH[name]
    x = torch.tensor([[-1.5, -0.3, 0.2, 0.7], [1.2, -2.2, 0.05, 3.1]], dtype=torch.float64, requires_grad=True)
    y = SMOOTH_OPS[name](x)
    w = torch.tensor([[1., 2., 3., 4.], [5., 6., 7., 8.]], dtype=torch.float64)[:, :y.shape[1]]
    (g,) = torch.autograd.grad((y * w).sum(), x, create_graph=True)
    assert type(g.grad_fn).__name__ == node
    assert float(g.sum()) == pytest.approx(g_sum, abs=1e-7)
    (gg,) = torch.autograd.grad(g.sum(), x, retain_graph=True)
    assert float(gg.sum()) == pytest.approx(gg_sum, abs=1e-7)
    if name in THIRD:
        (g2,) = torch.autograd.grad((g * w[:, :g.shape[1]]).sum(), x, create_graph=True)
        (g3,) = torch.autograd.grad((g2 * g2).sum(), x)
        assert g3.reshape(-1).tolist() == pytest.approx(THIRD[name], abs=1e-6)


def _nodes(node: Any) -> list:
    """``node``'s name and those of the nodes it leads to, two levels deep."""
    return [node.name(), [next_node.name() for next_node, _ in node.next_functions if next_node is not None]]


_X = [-1.5, -0.2, 0.3, 2.0, 4.0]
_X2 = [[-1.5, -0.2, 0.3], [2.0, -4.0, 1.0]]
_ACCUMULATE = "torch::autograd::AccumulateGrad"
# PyTorch 2.13's nodes of the gradients of ``f(x).pow(2).sum()`` (create_graph=True), with their edges, and the
# gradient of the gradients' sum: input (and weight), on float64 ``_X`` (``_X2`` with a weight per channel).
_SECOND = {
    "celu": (lambda x: F.celu(x, alpha=1.5), [["EluBackwardBackward0", ["MulBackward0", _ACCUMULATE]]],
             [[-0.194418, 1.313367, 2.0, 2.0, 2.0]]),
    "elu": (F.elu, [["EluBackwardBackward0", ["MulBackward0", _ACCUMULATE]]], [[-0.247112, 1.043819, 2.0, 2.0, 2.0]]),
    "selu": (F.selu, [["EluBackwardBackward0", ["MulBackward0", _ACCUMULATE]]],
             [[-0.763802, 3.226353, 2.207945, 2.207945, 2.207945]]),
    "prelu": (lambda x, w: F.prelu(x, w),
              [["PreluKernelBackwardBackward0", ["MulBackward0", _ACCUMULATE, _ACCUMULATE]],
               ["SumBackward1", ["PreluKernelBackwardBackward0"]]],
              [[-1.375, -0.075, 2.0, 2.0, 2.0], [2.88]]),
    "prelu_channels": (lambda x, w: F.prelu(x, w),
                       [["PreluKernelBackwardBackward0", ["MulBackward0", _ACCUMULATE, "ViewBackward0"]],
                        ["ViewBackward0", None]],
                       [[-1.375, 0.1, 2.0, 2.0, -7.5, 2.0], [3.0, 23.68, 0.0]]),
}


@pytest.mark.parametrize("name", list(_SECOND))
def test_double_backward_nodes_are_pytorchs(name: str) -> None:
    fn, nodes, second = _SECOND[name]
    if name == "prelu_channels":
        inputs = (torch.tensor(_X2, dtype=torch.float64, requires_grad=True),
                  torch.tensor([0.25, 0.5, 0.75], dtype=torch.float64, requires_grad=True))
    else:
        inputs = (torch.tensor(_X, dtype=torch.float64, requires_grad=True),)
        if name == "prelu":
            inputs += (torch.tensor([0.25], dtype=torch.float64, requires_grad=True),)
    grads = torch.autograd.grad(fn(*inputs).pow(2).sum(), inputs, create_graph=True)
    for g, (node, edges) in zip(grads, nodes):
        found = _nodes(g.grad_fn)
        assert found[0] == node and (edges is None or found[1] == edges)
    seconds = torch.autograd.grad(sum(g.sum() for g in grads), inputs)
    for found, expected in zip(seconds, second):
        assert found.reshape(-1).tolist() == pytest.approx(expected, abs=1e-6)


def test_hardsigmoid_has_no_second_derivative() -> None:
    x = torch.tensor(_X, dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(F.hardsigmoid(x).pow(2).sum(), x, create_graph=True)
    assert _nodes(g.grad_fn) == ["torch::autograd::NotImplemented", ["MulBackward0", _ACCUMULATE]]
    with pytest.raises(RuntimeError, match="^derivative for aten::hardsigmoid_backward is not implemented$"):
        torch.autograd.grad(g.sum(), x)


def test_ldexp_gradient_truncates_for_negative_integer_exponents() -> None:
    # PyTorch 2.13: the input's gradient is ``grad * pow(2, other)`` in the exponent's integer dtype
    for exponent, expected in (([-2, -1, 0, 1, 3], [0.0, 0.0, 1.0, 2.0, 8.0]), ([-3] * 5, [0.0] * 5)):
        a = torch.tensor([1.5, -2.0, 0.5, 3.0, 1.0], requires_grad=True)
        y = torch.ldexp(a, torch.tensor(exponent))
        y.sum().backward()
        assert (y.grad_fn.name(), y.dtype, a.grad.tolist()) == ("LdexpBackward0", torch.float32, expected)
    assert torch.ldexp(torch.tensor([1.5, -2.0]), torch.tensor([-1, -2])).tolist() == [0.75, -0.5]
    a = torch.tensor([1.5, -2.0], dtype=torch.float64, requires_grad=True)
    e = torch.tensor([-1.0, 2.0], dtype=torch.float64, requires_grad=True)
    torch.ldexp(a, e).sum().backward()  # a floating exponent: the true derivative
    assert a.grad.tolist() == [0.5, 4.0]



# Gradients taken with create_graph=True, as PyTorch 2.13 recorded them for sum(f(x)) at x = [0.5, -1.0, 2.0] in
# float64: each node's name and its inputs' nodes (None edges left out), and the gradient's values. Built-in
# formulas record their numbers as Scalars (MulBackward1, AddBackward1, ...), as PyTorch's C++ formulas do.
SECOND_ORDER_FUNCTIONS: dict[str, Any] = {
    "silu": F.silu, "mish": F.mish, "softsign": F.softsign, "div": lambda t: t / (t * t + 1), "cos": torch.cos,
    "tan": torch.tan, "rsqrt": lambda t: torch.rsqrt(t.abs() + 1), "asinh": torch.asinh, "erf": torch.erf,
    "erfc": torch.erfc, "pow2": lambda t: t ** 2, "pow3": lambda t: t.pow(3), "sum_squared": lambda t: t.sum() ** 2,
    "rsub_cubed": lambda t: (1 - t) ** 3, "frac_squared": lambda t: torch.frac(t) ** 2,
    "fmod": lambda t: torch.fmod(t * t, 0.7), "sqrt": lambda t: torch.sqrt(t.abs() + 1),
    "gelu_tanh": lambda t: F.gelu(t, approximate="tanh"),
    "clamp_squared": lambda t: torch.clamp(t, -0.7, 1.0) ** 2, "lerp_squared": lambda t: torch.lerp(t, t * t, 0.3) ** 2,
}

SECOND_ORDER_GRAPHS = {'asinh': (('MulBackward0',
            [('RsqrtBackward0', [('AddBackward1', [('PowBackward0', [('AccumulateGrad', [])])])])]),
           [0.894427191, 0.707106781187, 0.4472135955]),
 'clamp_squared': (('WhereBackward0',
                    [('MulBackward0',
                      [('MulBackward1', [('PowBackward0', [('ClampBackward1', [('AccumulateGrad', [])])])])])]),
                   [1.0, 0.0, 0.0]),
 'cos': (('MulBackward0', [('NegBackward0', [('SinBackward0', [('AccumulateGrad', [])])])]),
         [-0.479425538604, 0.841470984808, -0.909297426826]),
 'div': (('AddBackward0',
          [('AddBackward0',
            [('DivBackward0',
              [('AddBackward0', [('MulBackward0', [('AccumulateGrad', []), ('AccumulateGrad', [])])])]),
             ('MulBackward0',
              [('MulBackward0',
                [('DivBackward0',
                  [('DivBackward0',
                    [('AccumulateGrad', []),
                     ('AddBackward0', [('MulBackward0', [('AccumulateGrad', []), ('AccumulateGrad', [])])])]),
                   ('AddBackward0', [('MulBackward0', [('AccumulateGrad', []), ('AccumulateGrad', [])])])])]),
               ('AccumulateGrad', [])])]),
           ('MulBackward0',
            [('MulBackward0',
              [('DivBackward0',
                [('DivBackward0',
                  [('AccumulateGrad', []),
                   ('AddBackward0', [('MulBackward0', [('AccumulateGrad', []), ('AccumulateGrad', [])])])]),
                 ('AddBackward0', [('MulBackward0', [('AccumulateGrad', []), ('AccumulateGrad', [])])])])]),
             ('AccumulateGrad', [])])]),
         [0.48, 0.0, -0.12]),
 'erf': (('MulBackward0',
          [('MulBackward1',
            [('ExpBackward0', [('NegBackward0', [('PowBackward0', [('AccumulateGrad', [])])])])])]),
         [0.878782578935, 0.415107497421, 0.020666985354]),
 'erfc': (('MulBackward0',
           [('MulBackward1',
             [('ExpBackward0', [('NegBackward0', [('PowBackward0', [('AccumulateGrad', [])])])])])]),
          [-0.878782578935, -0.415107497421, -0.020666985354]),
 'fmod': (('AddBackward0',
           [('MulBackward0', [('AccumulateGrad', [])]), ('MulBackward0', [('AccumulateGrad', [])])]),
          [1.0, -2.0, 4.0]),
 'frac_squared': (('MulBackward0',
                   [('MulBackward1', [('PowBackward0', [('FracBackward0', [('AccumulateGrad', [])])])])]),
                  [1.0, 0.0, 0.0]),
 'gelu_tanh': (('GeluBackwardBackward0', [('AccumulateGrad', [])]),
               [0.867369903535, -0.082964083846, 1.086099256624]),
 'lerp_squared': (('AddBackward0',
                   [('AddBackward0',
                     [('MulBackward1',
                       [('MulBackward0',
                         [('MulBackward1',
                           [('PowBackward0',
                             [('LerpBackward0',
                               [('AccumulateGrad', []),
                                ('MulBackward0', [('AccumulateGrad', []), ('AccumulateGrad', [])])])])])])]),
                      ('MulBackward0',
                       [('MulBackward1',
                         [('MulBackward0',
                           [('MulBackward1',
                             [('PowBackward0',
                               [('LerpBackward0',
                                 [('AccumulateGrad', []),
                                  ('MulBackward0', [('AccumulateGrad', []), ('AccumulateGrad', [])])])])])])]),
                        ('AccumulateGrad', [])])]),
                    ('MulBackward0',
                     [('MulBackward1',
                       [('MulBackward0',
                         [('MulBackward1',
                           [('PowBackward0',
                             [('LerpBackward0',
                               [('AccumulateGrad', []),
                                ('MulBackward0', [('AccumulateGrad', []), ('AccumulateGrad', [])])])])])])]),
                      ('AccumulateGrad', [])])]),
                  [0.85, -0.08, 9.88]),
 'mish': (('MulBackward0',
           [('AddBackward0',
             [('TanhBackward0', [('Log1PBackward0', [('ExpBackward0', [('AccumulateGrad', [])])])]),
              ('MulBackward0',
               [('MulBackward0', [('AccumulateGrad', []), ('SigmoidBackward0', [('AccumulateGrad', [])])]),
                ('SubBackward0',
                 [('MulBackward0',
                   [('TanhBackward0', [('Log1PBackward0', [('ExpBackward0', [('AccumulateGrad', [])])])]),
                    ('TanhBackward0',
                     [('Log1PBackward0', [('ExpBackward0', [('AccumulateGrad', [])])])])])])])])]),
          [0.886424375358, 0.059216755877, 1.069317934279]),
 'pow2': (('MulBackward0', [('MulBackward1', [('PowBackward0', [('AccumulateGrad', [])])])]), [1.0, -2.0, 4.0]),
 'pow3': (('MulBackward0', [('MulBackward1', [('PowBackward0', [('AccumulateGrad', [])])])]), [0.75, 3.0, 12.0]),
 'rsqrt': (('MulBackward0',
            [('MulBackward0',
              [('PowBackward0',
                [('RsqrtBackward0', [('AddBackward0', [('AbsBackward0', [('AccumulateGrad', [])])])])])]),
             ('SgnBackward0', [('AccumulateGrad', [])])]),
           [-0.272165526976, 0.176776695297, -0.096225044865]),
 'rsub_cubed': (('NegBackward0',
                 [('MulBackward0',
                   [('MulBackward1', [('PowBackward0', [('RsubBackward1', [('AccumulateGrad', [])])])])])]),
                [-0.75, -12.0, -3.0]),
 'silu': (('MulBackward0',
           [('MulBackward0', [('SigmoidBackward0', [('AccumulateGrad', [])])]),
            ('AddBackward1',
             [('MulBackward0',
               [('AccumulateGrad', []), ('SubBackward0', [('SigmoidBackward0', [('AccumulateGrad', [])])])])])]),
          [0.739961187303, 0.072329488129, 1.090784248785]),
 'softsign': (('AddBackward0',
               [('DivBackward0', [('AddBackward0', [('AbsBackward0', [('AccumulateGrad', [])])])]),
                ('MulBackward0',
                 [('MulBackward0',
                   [('DivBackward0',
                     [('DivBackward0',
                       [('AccumulateGrad', []), ('AddBackward0', [('AbsBackward0', [('AccumulateGrad', [])])])]),
                      ('AddBackward0', [('AbsBackward0', [('AccumulateGrad', [])])])])]),
                  ('SgnBackward0', [('AccumulateGrad', [])])])]),
              [0.444444444444, 0.25, 0.111111111111]),
 'sqrt': (('MulBackward0',
           [('DivBackward0',
             [('MulBackward1',
               [('SqrtBackward0', [('AddBackward0', [('AbsBackward0', [('AccumulateGrad', [])])])])])]),
            ('SgnBackward0', [('AccumulateGrad', [])])]),
          [0.408248290464, -0.353553390593, 0.288675134595]),
 'sum_squared': (('ExpandBackward0',
                  [('MulBackward0',
                    [('MulBackward1', [('PowBackward0', [('SumBackward0', [('AccumulateGrad', [])])])])])]),
                 [3.0, 3.0, 3.0]),
 'tan': (('MulBackward0', [('AddBackward1', [('PowBackward0', [('TanBackward0', [('AccumulateGrad', [])])])])]),
         [1.29844641041, 3.425518820815, 5.774399204042])}


def _tree(node: Any) -> Any:
    return None if node is None else (type(node).__name__, [_tree(n) for n, _ in node.next_functions if n is not None])


@pytest.mark.parametrize("name", sorted(SECOND_ORDER_GRAPHS))
def test_recorded_gradient_has_pytorchs_nodes(name: str) -> None:
    x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(SECOND_ORDER_FUNCTIONS[name](x).sum(), x, create_graph=True)
    graph, values = SECOND_ORDER_GRAPHS[name]
    assert _tree(g.grad_fn) == graph
    assert [round(v, 12) for v in g.tolist()] == values


def test_a_hook_in_a_recorded_pass_runs_as_python() -> None:
    # the hook's arithmetic is Python's (a number wrapped as a tensor), not a built-in formula's
    x = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
    y = x * x
    y.register_hook(lambda g: g * 3)
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    assert _tree(g.grad_fn) == ("AddBackward0", [("MulBackward0", [("AccumulateGrad", [])]),
                                                 ("MulBackward0", [("AccumulateGrad", [])])])
    assert g.tolist() == [3.0, -6.0]


# Reductions over dimensions: PyTorch restores each reduced dimension with an unsqueeze (UnsqueezeBackward0) in
# its formulas; x = [[0.5, -1.0, 2.0], [0.3, 0.2, -0.4]] in float64, gradient of sum(f(x)) with create_graph=True
REDUCTION_GRAPHS = {'logsumexp_dim': ('MulBackward0',
                   [('UnsqueezeBackward0',
                     [('MulBackward0',
                       [('MulBackward1',
                         [('PowBackward0', [('LogsumexpBackward0', [('AccumulateGrad', [])])])])])]),
                    ('ExpBackward0',
                     [('SubBackward0',
                       [('AccumulateGrad', []),
                        ('UnsqueezeBackward0', [('LogsumexpBackward0', [('AccumulateGrad', [])])])])])]),
 'prod_dim': ('MulBackward0',
              [('UnsqueezeBackward0',
                [('MulBackward0',
                  [('MulBackward1', [('PowBackward0', [('ProdBackward1', [('AccumulateGrad', [])])])])])]),
               ('DivBackward0',
                [('UnsqueezeBackward0', [('ProdBackward1', [('AccumulateGrad', [])])]), ('AccumulateGrad', [])])]),
 'sum_dim': ('ExpandBackward0',
             [('UnsqueezeBackward0',
               [('MulBackward0',
                 [('MulBackward1', [('PowBackward0', [('SumBackward1', [('AccumulateGrad', [])])])])])])]),
 'sum_dims': ('ExpandBackward0',
              [('UnsqueezeBackward0',
                [('UnsqueezeBackward0',
                  [('MulBackward0',
                    [('MulBackward1', [('PowBackward0', [('SumBackward1', [('AccumulateGrad', [])])])])])])])]),
 'var_dim': ('MulBackward0',
             [('MulBackward1',
               [('UnsqueezeBackward0',
                 [('MulBackward0',
                   [('MulBackward1', [('PowBackward0', [('VarBackward0', [('AccumulateGrad', [])])])])])])]),
              ('SubBackward0', [('AccumulateGrad', []), ('MeanBackward1', [('AccumulateGrad', [])])])])}

REDUCTIONS: dict[str, Any] = {
    "sum_dim": lambda t: t.sum(0) ** 2, "sum_dims": lambda t: t.sum((0, 1)) ** 2,
    "logsumexp_dim": lambda t: torch.logsumexp(t, 1) ** 2, "prod_dim": lambda t: t.prod(1) ** 2,
    "var_dim": lambda t: t.var(1) ** 2,
}


@pytest.mark.parametrize("name", sorted(REDUCTION_GRAPHS))
def test_recorded_reduction_gradient_unsqueezes_as_pytorch(name: str) -> None:
    x = torch.tensor([[0.5, -1.0, 2.0], [0.3, 0.2, -0.4]], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(REDUCTIONS[name](x).sum(), x, create_graph=True)
    assert _tree(g.grad_fn) == REDUCTION_GRAPHS[name]
