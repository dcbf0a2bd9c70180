"""The two models of the MNIST example."""
from __future__ import annotations

from ... import nn


def mlp() -> nn.Module:
    """784-512-256-10 multilayer perceptron with ReLU."""
    return nn.Sequential(
        nn.Flatten(),
        nn.Linear(784, 512), nn.ReLU(),
        nn.Linear(512, 256), nn.ReLU(),
        nn.Linear(256, 10),
    )


def cnn() -> nn.Module:
    """Two 3x3 conv blocks (16 and 32 channels) with max-pooling and batch norm, then a 128-unit hidden
    layer with dropout.

    Each block pools before it normalises and applies the ReLU: max-pooling commutes with the ReLU
    (ReLU is monotonic), and normalising the pooled map does a quarter of the work of normalising the
    full one, with the same accuracy.
    """
    return nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.MaxPool2d(2), nn.BatchNorm2d(16), nn.ReLU(),
        nn.Conv2d(16, 32, 3, padding=1), nn.MaxPool2d(2), nn.BatchNorm2d(32), nn.ReLU(),
        nn.Flatten(),
        nn.Linear(32 * 7 * 7, 128), nn.ReLU(), nn.Dropout(0.25),
        nn.Linear(128, 10),
    )


MODELS = {"mlp": mlp, "cnn": cnn}
