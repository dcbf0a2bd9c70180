"""Shared fixtures: every device-aware test runs on each available device."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

import tinyframe

CUDA_REASON = "CUDA unavailable: no CuPy or no GPU on this machine (pytest --fake-cuda runs these on a stand-in)"
DEVICES = [pytest.param("cpu", id="cpu"), pytest.param("cuda", id="cuda")]
MNIST_DIR = Path(__file__).resolve().parents[2] / "shared" / "data" / "mnist"


@pytest.fixture(params=DEVICES)
def device(request: pytest.FixtureRequest) -> str:
    """The device a test runs on: 'cpu', and 'cuda' where a GPU (or the --fake-cuda stand-in) is present."""
    if request.param == "cuda" and not tinyframe.cuda.is_available():
        pytest.skip(CUDA_REASON)
    return request.param


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--fake-cuda", action="store_true",
                     help="run the cuda tests on tests/fake_cupy, a strict CuPy stand-in backed by NumPy "
                          "(also TINYFRAME_FAKE_CUDA=1)")


def pytest_configure(config: pytest.Config) -> None:
    """With --fake-cuda, ``import cupy`` gives the stand-in before any test module asks for CUDA."""
    if config.getoption("--fake-cuda") or os.environ.get("TINYFRAME_FAKE_CUDA") == "1":
        from . import fake_cupy
        fake_cupy.install()


@pytest.fixture(autouse=True)
def _seed() -> None:
    tinyframe.manual_seed(0)
