"""Device placement: cpu on NumPy, cuda on CuPy. The CUDA checks run where CuPy sees a GPU."""
from __future__ import annotations

import importlib
from collections.abc import Iterator
from types import SimpleNamespace

import numpy as np
import pytest

import tinyframe as tf
from tinyframe.examples.mnist.train import main as mnist_main

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


class _CUDARuntimeError(RuntimeError):
    """What CuPy's runtime raises where a driver or a device is missing."""


@pytest.fixture(params=["cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime version",
                        "cudaErrorNoDevice: no CUDA-capable device is detected"], ids=["no-driver", "no-device"])
def cupy_without_a_gpu(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """CuPy installed on a machine without a driver or a GPU: getDeviceCount() raises."""
    def get_device_count() -> int:
        raise _CUDARuntimeError(request.param)

    cupy = SimpleNamespace(cuda=SimpleNamespace(runtime=SimpleNamespace(getDeviceCount=get_device_count)))
    for module in ("tinyframe.device", "tinyframe.cuda"):
        monkeypatch.setattr(importlib.import_module(module), "cupy_module", lambda: cupy)
    importlib.import_module("tinyframe.device").cuda_status.cache_clear()
    yield
    importlib.import_module("tinyframe.device").cuda_status.cache_clear()


def test_cuda_is_unavailable_not_an_error_when_cupy_finds_no_gpu(cupy_without_a_gpu: None) -> None:
    assert tf.cuda.is_available() is False and tf.cuda.device_count() == 0


def test_to_cuda_without_a_gpu_says_no_gpu_was_found(cupy_without_a_gpu: None) -> None:
    with pytest.raises(RuntimeError, match="No CUDA GPU was found") as raised:
        tf.ones(2).to("cuda")
    assert "driver version is insufficient" not in str(raised.value)


@pytest.mark.parametrize("device", ["cuda", "cuda:0", "gpu", "tpu"])
def test_mnist_example_with_an_unusable_device_prints_one_error_line(device: str, cupy_without_a_gpu: None,
                                                                     capsys: pytest.CaptureFixture) -> None:
    assert mnist_main(["--device", device, "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: --device {device}: ") and err.count("\n") == 1
    assert ("No CUDA GPU was found" if device.startswith("cuda") else "choose cpu, cuda") in err
