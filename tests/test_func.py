"""``torch.func`` over dicts of parameters (the per-sample-gradient and model-ensembling tutorials):
values and errors as PyTorch 2.13 gives them (recorded)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import tinyframe as tf
import tinyframe.nn as nn
from tinyframe.func import functional_call, grad, stack_module_state, vmap


def test_vmap_of_grad_over_a_parameter_dict_gives_per_sample_gradients() -> None:
    model = nn.Linear(3, 2).double()
    with tf.no_grad():
        model.weight.copy_(tf.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]]))
        model.bias.copy_(tf.tensor([0.05, -0.05]))
    params = {k: v.detach() for k, v in model.named_parameters()}
    x = tf.tensor([[1.0, 2, 3], [-1, 0, 1]], dtype=tf.float64)

    def loss(p: dict, xi: tf.Tensor) -> tf.Tensor:
        return functional_call(model, p, (xi,)).pow(2).sum()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # torch.func.functional_call is not the deprecated one
        g = vmap(grad(loss), in_dims=(None, 0))(params, x)
    assert list(g) == ["weight", "bias"]
    np.testing.assert_allclose(g["bias"].numpy(), [[1.3, -0.9], [0.5, -2.1]], rtol=1e-6)
    np.testing.assert_allclose(g["weight"][1].numpy(), [[-0.5, 0.0, 0.5], [2.1, 0.0, -2.1]], rtol=1e-6)


def test_vmap_maps_and_stacks_nested_structures() -> None:
    out = vmap(lambda d: {"s": d["a"] + d["b"], "t": (d["a"], d["b"] * 2)})(
        {"a": tf.ones(2, 3), "b": tf.arange(6.0).view(2, 3)})
    assert out["s"].tolist() == [[1, 2, 3], [4, 5, 6]]
    assert isinstance(out["t"], tuple) and out["t"][1].tolist() == [[0, 2, 4], [6, 8, 10]]


def test_stack_module_state() -> None:
    params, buffers = stack_module_state([nn.Linear(2, 1) for _ in range(3)])
    assert {k: tuple(v.shape) for k, v in params.items()} == {"weight": (3, 1, 2), "bias": (3, 1)}
    assert params["weight"].requires_grad and params["weight"].is_leaf and buffers == {}
    with pytest.raises(RuntimeError, match=r"^stack_module_state: Expected at least one model, got 0\.$"):
        stack_module_state([])
    with pytest.raises(RuntimeError, match=r"^stack_module_state: Expected all models to have the same training/eval "
                                           r"mode\.$"):
        stack_module_state([nn.Linear(1, 1), nn.Linear(1, 1).eval()])
    with pytest.raises(RuntimeError, match=r"^stack_module_state: Expected all models to be of the same class\.$"):
        stack_module_state([nn.Linear(1, 1), nn.Conv1d(1, 1, 1)])
    frozen = [nn.Linear(1, 1), nn.Linear(1, 1)]
    frozen[1].weight.requires_grad_(False)
    with pytest.raises(RuntimeError, match=r"^Expected weight from each model to have the same \.requires_grad$"):
        stack_module_state(frozen)


def test_hessian_is_the_jacobian_of_the_jacobian() -> None:
    # PyTorch's hessian is jacfwd(jacrev(f)): a vector output gives one Hessian per element (recorded).
    x = tf.tensor([0.5, 1.0], dtype=tf.float64)
    h = tf.func.hessian(lambda v: tf.stack([v.sin().sum(), (v ** 3).sum()]))(x)
    np.testing.assert_allclose(h.numpy(), [[[-0.479425538604203, 0.0], [0.0, -0.8414709848078965]],
                                           [[3.0, 0.0], [0.0, 6.0]]])
    both = tf.func.hessian(lambda a, b: (a * b ** 2).sum(), argnums=(0, 1))(tf.tensor([1.0]), tf.tensor([2.0]))
    assert [[t.tolist() for t in row] for row in both] == [[[[0.0]], [[4.0]]], [[[4.0]], [[2.0]]]]


def test_jacrev_vjp_and_jvp_take_dicts_of_tensors() -> None:
    p = {"w": tf.tensor([1.0, 2.0]), "b": tf.tensor(3.0)}
    jac = tf.func.jacrev(lambda q, x: (q["w"] * x).sum() + q["b"] ** 2)(p, tf.tensor([4.0, 5.0]))
    assert {k: v.tolist() for k, v in jac.items()} == {"w": [4.0, 5.0], "b": 6.0}
    _, vjp_fn = tf.func.vjp(lambda q: q["w"] * q["b"], p)
    assert {k: v.tolist() for k, v in vjp_fn(tf.ones(2))[0].items()} == {"w": [3.0, 3.0], "b": 3.0}
    tangents = ({"w": tf.ones(2), "b": tf.tensor(1.0)},)
    assert tf.func.jvp(lambda q: q["w"] * q["b"], (p,), tangents)[1].tolist() == [4.0, 5.0]
