"""On ``cuda`` a training step never waits for the GPU: no device-to-host copy until the loss is read.

The stand-in (``pytest --fake-cuda``) counts the copies; on a real GPU these tests are skipped.
"""
from __future__ import annotations

import sys

import numpy as np
import pytest

import tinyframe as tf
from tinyframe import nn
from tinyframe.examples.mnist.models import MODELS

from .fake_cupy import MODULES, TRANSFERS

pytestmark = pytest.mark.skipif(sys.modules.get("cupy") is not MODULES["cupy"],
                                reason="counting host transfers needs the CuPy stand-in: pytest --fake-cuda")


def _optimizer(name: str, model: nn.Module) -> tf.optim.Optimizer:
    if name == "sgd":
        return tf.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    return tf.optim.Adam(model.parameters(), lr=1e-3)


@pytest.mark.parametrize("optimizer", ["adam", "sgd"])
@pytest.mark.parametrize("model_name", sorted(MODELS))
def test_mnist_training_step_copies_nothing_to_the_host_until_the_loss_is_read(model_name: str,
                                                                                 optimizer: str) -> None:
    model = MODELS[model_name]().to("cuda")
    opt = _optimizer(optimizer, model)
    criterion = nn.CrossEntropyLoss()
    x, y = tf.randn(8, 1, 28, 28), tf.randint(0, 10, (8,))
    TRANSFERS.reset()
    for _ in range(2):  # the second step also runs with the optimizer's state in place
        out = model(x.to("cuda"))
        loss = criterion(out, y.to("cuda"))
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert TRANSFERS.reasons == []
    loss.item()
    assert TRANSFERS.reasons == ["item"]


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_on_cuda_ignores_targets_on_the_device_as_on_the_cpu(reduction: str) -> None:
    logits = np.random.default_rng(0).standard_normal((4, 5))
    target = tf.tensor([1, -100, 3, 0])
    results = []
    for device in ("cpu", "cuda"):
        x = tf.tensor(logits, device=device, requires_grad=True)
        loss = nn.functional.cross_entropy(x, target.to(device), reduction=reduction)
        (grad,) = tf.autograd.grad(loss.sum(), x, create_graph=True)
        (second,) = tf.autograd.grad((grad * grad).sum(), x)
        results.append([t.detach().cpu().numpy() for t in (loss, grad, second)])
    for on_cpu, on_cuda in zip(*results):
        np.testing.assert_allclose(on_cuda, on_cpu, rtol=1e-12, atol=1e-12)


def test_cross_entropy_on_cuda_flags_an_out_of_range_target_with_nan_not_a_wait() -> None:
    x = tf.zeros(2, 3, device="cuda")
    TRANSFERS.reset()
    loss = nn.functional.cross_entropy(x, tf.tensor([0, 7], device="cuda"))
    assert TRANSFERS.count == 0 and np.isnan(loss.item())


@pytest.mark.parametrize("op", [lambda v: v.logsumexp(1), lambda v: v.prod(1)], ids=["logsumexp", "prod"])
def test_ops_that_branch_on_their_values_do_not_wait_for_the_gpu(op: object) -> None:
    v = tf.randn(4, 10, device="cuda", requires_grad=True)
    TRANSFERS.reset()
    op(v).sum().backward()
    assert TRANSFERS.reasons == []
