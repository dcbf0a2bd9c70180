"""Device placement: cpu on NumPy, cuda on CuPy. The CUDA checks run where CuPy sees a GPU."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as tf

from .conftest import CUDA_REASON

needs_cuda = pytest.mark.skipif(not tf.cuda.is_available(), reason=CUDA_REASON)


def _train_step_grads(device: str) -> tuple[np.ndarray, list[np.ndarray]]:
    tf.manual_seed(0)
    model = tf.nn.Sequential(tf.nn.Conv2d(1, 4, 3, padding=1), tf.nn.ReLU(), tf.nn.MaxPool2d(2), tf.nn.Flatten(),
                             tf.nn.Linear(4 * 4 * 4, 3)).double()
    x = tf.tensor(np.random.default_rng(0).standard_normal((5, 1, 8, 8)))
    y = tf.tensor([0, 1, 2, 1, 0])
    model.to(device)
    loss = tf.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
    loss.backward()
    return loss.item(), [p.grad.cpu().numpy() for p in model.parameters()]


@needs_cuda
def test_cpu_and_cuda_agree_on_a_training_step() -> None:
    cpu_loss, cpu_grads = _train_step_grads("cpu")
    cuda_loss, cuda_grads = _train_step_grads("cuda")
    assert cuda_loss == pytest.approx(cpu_loss, rel=1e-10)
    for on_cpu, on_cuda in zip(cpu_grads, cuda_grads):
        np.testing.assert_allclose(on_cuda, on_cpu, rtol=1e-9, atol=1e-12)


@needs_cuda
def test_mixing_devices_names_both() -> None:
    with pytest.raises(RuntimeError, match="cuda:0 and cpu|cpu and cuda:0"):
        tf.ones(2, device="cuda") + tf.ones(2)


@needs_cuda
def test_numpy_of_cuda_tensor_says_to_call_cpu() -> None:
    x = tf.ones(2, device="cuda")
    with pytest.raises(TypeError, match=r"\.cpu\(\)"):
        x.numpy()
    assert x.sum().item() == 2.0
    assert "device='cuda:0'" in repr(x)


@needs_cuda
def test_module_to_cuda_keeps_parameter_objects() -> None:
    model = tf.nn.Linear(3, 2)
    before = list(model.parameters())
    model.to("cuda")
    assert all(a is b for a, b in zip(before, model.parameters()))
    assert all(p.device == tf.device("cuda:0") for p in model.parameters())


def test_cuda_without_cupy_or_gpu_is_a_clear_error() -> None:
    if tf.cuda.is_available():
        pytest.skip("a GPU is present: the error path is for machines without one")
    with pytest.raises(RuntimeError, match="CuPy|CUDA"):
        tf.ones(2).to("cuda")


def test_cpu_device_round_trip() -> None:
    x = tf.tensor([1.0, 2.0])
    assert x.to("cpu") is x and x.cpu() is x and x.to("cpu", copy=True) is not x
    assert x.device == tf.device("cpu") and tf.zeros(1, device="cpu").device.type == "cpu"
