"""Shared fixtures: every device-aware test runs on each available device."""
from __future__ import annotations

from pathlib import Path

import pytest

import tinyframe

CUDA_REASON = "CUDA unavailable: no CuPy or no GPU on this machine"
DEVICES = [
    pytest.param("cpu", id="cpu"),
    pytest.param("cuda", id="cuda",
                 marks=pytest.mark.skipif(not tinyframe.cuda.is_available(), reason=CUDA_REASON)),
]
MNIST_DIR = Path(__file__).resolve().parents[2] / "shared" / "data" / "mnist"


@pytest.fixture(params=DEVICES)
def device(request: pytest.FixtureRequest) -> str:
    """The device a test runs on: 'cpu', and 'cuda' where a GPU is present."""
    return request.param


@pytest.fixture(autouse=True)
def _seed() -> None:
    tinyframe.manual_seed(0)
