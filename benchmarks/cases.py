"""The benchmark cases. Each builds a ``Case``: one step per implementation (tinyframe, hand-written
NumPy as the floor, PyTorch when importable), which bench.py times interleaved.

Training steps and eval passes are ``TrainStep`` / ``EvalPass`` objects written once for both
frameworks (``lib`` is ``tinyframe`` or ``torch``), so that ``--profile`` can time their parts.
"""
from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import tinyframe as tf


@dataclass
class Case:
    """A workload: ``steps`` maps an implementation's name to one call of the work, and
    ``iterations`` calls make one timed round (a few tens of milliseconds)."""

    title: str
    iterations: int
    steps: dict[str, Callable[[], object]] = field(default_factory=dict)


def torch_or_none(threads: int, device: str = "cpu") -> Any:
    """PyTorch with ``threads`` intra-op threads, or None when it is not importable or cannot use
    ``device`` (a CPU-only build on ``cuda``)."""
    try:
        import torch
    except ImportError:
        return None
    if device != "cpu" and not torch.cuda.is_available():
        return None
    torch.set_num_threads(threads)
    return torch


class TrainStep:
    """One SGD step: ``forward`` (model and loss), ``backward`` (zero_grad and backward), ``update``."""

    def __init__(self, lib: Any, model: Any, inputs: np.ndarray, loss: Callable[[Any, Any], Any],
                 device: str = "cpu") -> None:
        self.lib, self.model, self.loss = lib, model.to(device), loss
        self.inputs = lib.tensor(inputs).to(device)
        self.optimizer = lib.optim.SGD(self.model.parameters(), lr=0.01)

    def forward(self) -> Any:
        return self.loss(self.model, self.inputs)

    def backward(self, loss: Any) -> None:
        self.optimizer.zero_grad()
        loss.backward()

    def update(self) -> None:
        self.optimizer.step()

    def __call__(self) -> None:
        self.backward(self.forward())
        self.update()


class EvalPass:
    """The model in eval mode on a batch under ``no_grad``; its one part is ``forward``."""

    def __init__(self, lib: Any, model: Any, inputs: np.ndarray, device: str = "cpu") -> None:
        self.lib, self.model = lib, model.to(device).eval()
        self.inputs = lib.tensor(inputs).to(device)

    def forward(self) -> Any:
        with self.lib.no_grad():
            return self.model(self.inputs)

    __call__ = forward


def cross_entropy(lib: Any, y: np.ndarray, device: str = "cpu") -> Callable[[Any, Any], Any]:
    """The loss ``CrossEntropyLoss(model(x), y)`` of a classifier."""
    criterion, targets = lib.nn.CrossEntropyLoss(), lib.tensor(y).to(device)
    return lambda model, x: criterion(model(x), targets)


def mean_square(model: Any, x: Any) -> Any:
    """``mean(model(x) ** 2)``: a loss that reaches every output of a sequence model."""
    out = model(x)
    out = out[0] if isinstance(out, tuple) else out  # an LSTM returns (output, (h, c))
    return (out * out).mean()


def _compare(case: Case, build: Callable[[Any], Any], threads: int, device: str) -> Case:
    """Adds tinyframe's and (when importable, with ``device``) PyTorch's step, each from ``build(lib)``."""
    case.steps["tinyframe"] = build(tf)
    torch = torch_or_none(threads, device)
    if torch is not None:
        case.steps["torch"] = build(torch)
    return case


# ---------------------------------------------------------------------------- tiny graph
def tiny(device: str, threads: int) -> Case:
    """((a*b + c).exp() * a).sum().backward() on shape-(4,) float32 leaves."""
    values = np.array([0.1, 0.2, 0.3, 0.4], np.float32)

    def build(lib: Any) -> Callable[[], None]:
        a, b, c = (lib.tensor(values, requires_grad=True, device=device) for _ in range(3))
        return lambda: ((a * b + c).exp() * a).sum().backward()

    an, bn, cn = values.copy(), values.copy(), values.copy()

    def numpy_step() -> tuple:
        e = np.exp(an * bn + cn)
        (e * an).sum()
        g = np.ones_like(e)
        ge = g * an * e
        return g * e + ge * bn, ge * an, ge

    return _compare(Case("tiny graph", 500, {"numpy": numpy_step}), build, threads, device)


# ---------------------------------------------------------------------------- MLP step
def mlp(device: str, threads: int) -> Case:
    """784-512-256-10 ReLU MLP, batch 128: forward, cross-entropy, backward, SGD update."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((128, 784)).astype(np.float32)
    y = rng.integers(0, 10, 128)
    sizes = [(784, 512), (512, 256), (256, 10)]
    weights = [(rng.uniform(-1, 1, (o, i)) / np.sqrt(i)).astype(np.float32) for i, o in sizes]
    biases = [np.zeros(o, np.float32) for _, o in sizes]

    def build(lib: Any) -> TrainStep:
        nn = lib.nn
        model = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 10))
        return TrainStep(lib, model, x, cross_entropy(lib, y, device), device)

    case = Case("MLP step", 10, {"numpy": lambda: _numpy_mlp_step(x, y, weights, biases)})
    return _compare(case, build, threads, device)


def _numpy_mlp_step(x: np.ndarray, y: np.ndarray, weights: list, biases: list) -> None:
    """The same step written by hand: the floor for any NumPy framework."""
    activations = [x]
    for i, (w, b) in enumerate(zip(weights, biases)):
        z = activations[-1] @ w.T + b
        activations.append(np.maximum(z, 0) if i < len(weights) - 1 else z)
    logits = activations[-1]
    shifted = logits - logits.max(axis=1, keepdims=True)
    probs = np.exp(shifted)
    probs /= probs.sum(axis=1, keepdims=True)
    g = probs
    g[np.arange(len(y)), y] -= 1
    g /= len(y)
    for i in range(len(weights) - 1, -1, -1):
        grad_w, grad_b = g.T @ activations[i], g.sum(axis=0)
        if i:
            g = (g @ weights[i]) * (activations[i] > 0)
        weights[i] -= 0.01 * grad_w
        biases[i] -= 0.01 * grad_b


# ---------------------------------------------------------------------------- CNN step
def cnn(device: str, threads: int) -> Case:
    """conv(1->16,3x3,pad 1)-ReLU-maxpool(2)-conv(16->32)-ReLU-maxpool(2)-flatten-linear(1568->10), batch 64."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 1, 28, 28)).astype(np.float32)
    y = rng.integers(0, 10, 64)

    def build(lib: Any) -> TrainStep:
        nn = lib.nn
        model = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                              nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                              nn.Linear(1568, 10))
        return TrainStep(lib, model, x, cross_entropy(lib, y, device), device)

    return _compare(Case("CNN step", 3, {}), build, threads, device)


# ---------------------------------------------------------------------------- Transformer / LSTM steps
def transformer(device: str, threads: int) -> Case:
    """TransformerEncoderLayer(d_model 256, 4 heads, feed-forward 2048, dropout 0.1, batch_first),
    sequence 64, batch 32: forward, mean-square loss, backward, SGD update."""
    x = np.random.default_rng(0).standard_normal((32, 64, 256)).astype(np.float32)

    def build(lib: Any) -> TrainStep:
        return TrainStep(lib, lib.nn.TransformerEncoderLayer(256, 4, batch_first=True), x, mean_square, device)

    return _compare(Case("Transformer layer step", 1, {}), build, threads, device)


def lstm(device: str, threads: int) -> Case:
    """2-layer LSTM(256 -> 256), sequence 35, batch 32: forward, mean-square loss, backward, SGD."""
    x = np.random.default_rng(0).standard_normal((35, 32, 256)).astype(np.float32)

    def build(lib: Any) -> TrainStep:
        return TrainStep(lib, lib.nn.LSTM(256, 256, num_layers=2), x, mean_square, device)

    return _compare(Case("LSTM step", 1, {}), build, threads, device)


# ---------------------------------------------------------------------------- MNIST eval
def mnist_models(nn: Any) -> dict[str, Any]:
    """The MNIST example's two models (tinyframe/examples/mnist/models.py), for either library."""
    mlp = nn.Sequential(nn.Flatten(), nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(),
                        nn.Linear(256, 10))
    cnn = nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.MaxPool2d(2), nn.BatchNorm2d(16), nn.ReLU(),
        nn.Conv2d(16, 32, 3, padding=1), nn.MaxPool2d(2), nn.BatchNorm2d(32), nn.ReLU(),
        nn.Flatten(), nn.Linear(32 * 7 * 7, 128), nn.ReLU(), nn.Dropout(0.25), nn.Linear(128, 10))
    return {"mlp": mlp, "cnn": cnn}


def _mnist_eval(kind: str, iterations: int, device: str, threads: int) -> Case:
    x = np.random.default_rng(0).random((1000, 1, 28, 28), np.float32)

    def build(lib: Any) -> EvalPass:
        return EvalPass(lib, mnist_models(lib.nn)[kind], x, device)

    return _compare(Case(f"MNIST {kind} eval, 1000 images", iterations, {}), build, threads, device)


def mnist_cnn_eval(device: str, threads: int) -> Case:
    """The MNIST example's CNN in eval mode under no_grad on 1000 images."""
    return _mnist_eval("cnn", 1, device, threads)


def mnist_mlp_eval(device: str, threads: int) -> Case:
    """The MNIST example's MLP in eval mode under no_grad on 1000 images."""
    return _mnist_eval("mlp", 5, device, threads)


# ---------------------------------------------------------------------------- import
def import_time(device: str, threads: int) -> Case:
    """``import tinyframe`` in a fresh interpreter, beside ``import numpy``, ``import torch`` and the bare
    interpreter (``python``), each a process per call. The processes may write bytecode (the warm-up
    call compiles it), since an installed package imports from compiled bytecode."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    paths = [root, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    torch = torch_or_none(threads)
    if torch is not None:  # where this process found it (PYTHONPATH or --torch-site)
        paths.append(os.path.dirname(os.path.dirname(torch.__file__)))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join(paths)

    def importing(code: str) -> Callable[[], None]:
        return lambda: subprocess.run([sys.executable, "-c", code], env=env, check=True)

    steps = {"tinyframe": importing("import tinyframe"), "numpy": importing("import numpy"),
             "python": importing("pass")}
    if torch is not None:
        steps["torch"] = importing("import torch")
    return Case("import", 3, steps)


CASES = {"tiny": tiny, "mlp": mlp, "cnn": cnn, "transformer": transformer, "lstm": lstm,
         "mnist-cnn-eval": mnist_cnn_eval, "mnist-mlp-eval": mnist_mlp_eval, "import": import_time}
