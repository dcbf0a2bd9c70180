"""The benchmark cases: each returns rows of (label, formatted value)."""
from __future__ import annotations

import sys
from collections.abc import Callable

import numpy as np

import tinyframe as tf

Timer = Callable[[Callable[[], object], int, int], float]


def _torch(threads: int, device: str = "cpu"):  # noqa: ANN202
    """PyTorch when it is importable and has ``device`` (its CUDA build on a GPU), else None."""
    try:
        import torch
    except ImportError:
        return None
    if device != "cpu" and not torch.cuda.is_available():
        return None
    torch.set_num_threads(threads)
    return torch


def _rows(name: str, times: dict[str, float]) -> list[tuple[str, str]]:
    rows = [(f"{name}: {impl}", f"{seconds * 1e6:10.1f} us") for impl, seconds in times.items()]
    for floor in ("numpy", "torch"):
        if floor in times:
            rows.append((f"{name}: tinyframe / {floor}", f"{times['tinyframe'] / times[floor]:10.2f} x"))
    return rows


# ---------------------------------------------------------------------------- tiny graph
def tiny(device: str, threads: int, repeat: int, timer: Timer) -> list[tuple[str, str]]:
    """((a*b + c).exp() * a).sum().backward() on shape-(4,) float32 leaves."""
    values = np.array([0.1, 0.2, 0.3, 0.4], np.float32)
    a, b, c = (tf.tensor(values, device=device, requires_grad=True) for _ in range(3))

    def tinyframe_step() -> None:
        ((a * b + c).exp() * a).sum().backward()

    an, bn, cn = values.copy(), values.copy(), values.copy()

    def numpy_step() -> None:
        e = np.exp(an * bn + cn)
        (e * an).sum()
        g = np.ones_like(e)
        ge = g * an * e
        return g * e + ge * bn, ge * an, ge

    times = {"tinyframe": timer(tinyframe_step, 5000, repeat), "numpy": timer(numpy_step, 5000, repeat)}
    torch = _torch(threads, device)
    if torch is not None:
        ta, tb, tc = (torch.tensor(values, requires_grad=True, device=device) for _ in range(3))
        times["torch"] = timer(lambda: ((ta * tb + tc).exp() * ta).sum().backward(), 5000, repeat)
    return _rows("tiny graph", times)


def _train_step(lib, model, x: np.ndarray, y: np.ndarray, device: str = "cpu") -> Callable[[], None]:  # noqa: ANN001
    """One SGD training step of ``model`` in ``lib`` (tinyframe or torch: the same code serves both)."""
    optimizer = lib.optim.SGD(model.parameters(), lr=0.01)
    criterion = lib.nn.CrossEntropyLoss()
    inputs, targets = lib.tensor(x).to(device), lib.tensor(y).to(device)

    def step() -> None:
        loss = criterion(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return step


# ---------------------------------------------------------------------------- MLP step
def mlp(device: str, threads: int, repeat: int, timer: Timer) -> list[tuple[str, str]]:
    """784-512-256-10 ReLU MLP, batch 128: forward, cross-entropy, backward, SGD update."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((128, 784)).astype(np.float32)
    y = rng.integers(0, 10, 128)
    sizes = [(784, 512), (512, 256), (256, 10)]
    weights = [(rng.uniform(-1, 1, (o, i)) / np.sqrt(i)).astype(np.float32) for i, o in sizes]
    biases = [np.zeros(o, np.float32) for _, o in sizes]

    def build(nn):  # noqa: ANN001, ANN202
        return nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 10))

    times = {"tinyframe": timer(_train_step(tf, build(tf.nn).to(device), x, y, device), 30, repeat),
             "numpy": timer(lambda: _numpy_mlp_step(x, y, weights, biases), 30, repeat)}
    torch = _torch(threads, device)
    if torch is not None:
        times["torch"] = timer(_train_step(torch, build(torch.nn).to(device), x, y, device), 30, repeat)
    return _rows("MLP step", times)


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
def cnn(device: str, threads: int, repeat: int, timer: Timer) -> list[tuple[str, str]]:
    """conv(1->16,3x3,pad 1)-ReLU-maxpool(2)-conv(16->32)-ReLU-maxpool(2)-flatten-linear(1568->10), batch 64."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 1, 28, 28)).astype(np.float32)
    y = rng.integers(0, 10, 64)

    def build(nn):  # noqa: ANN001, ANN202
        return nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                             nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                             nn.Linear(1568, 10))

    times = {"tinyframe": timer(_train_step(tf, build(tf.nn).to(device), x, y, device), 10, repeat)}
    torch = _torch(threads, device)
    if torch is not None:
        times["torch"] = timer(_train_step(torch, build(torch.nn).to(device), x, y, device), 10, repeat)
    return _rows("CNN step", times)


CASES = {"tiny": tiny, "mlp": mlp, "cnn": cnn}


def run_case(name: str, device: str, threads: int, repeat: int, timer: Timer) -> list[tuple[str, str]]:
    if device != "cpu":
        timer = _synchronized(timer)
    return CASES[name](device, threads, repeat, timer)


def _synchronized(timer: Timer) -> Timer:
    """``timer`` that waits for the GPU (tinyframe's and PyTorch's queues) after every step."""
    def timed(step: Callable[[], object], iterations: int, repeat: int) -> float:
        def step_and_wait() -> None:
            step()
            tf.cuda.synchronize()
            torch = sys.modules.get("torch")
            if torch is not None and torch.cuda.is_available():
                torch.cuda.synchronize()
        return timer(step_and_wait, iterations, repeat)
    return timed
