"""benchmarks/gpu_check.py on a machine without a usable GPU: one error line, exit status 2, at once."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# Runs gpu_check.py with ``cupy`` replaced first: None (not installed), or a CuPy whose runtime raises.
RUN = """
import runpy, sys, types

class CUDARuntimeError(RuntimeError):
    pass

def no_gpu():
    raise CUDARuntimeError("cudaErrorNoDevice: no CUDA-capable device is detected")

cupy = types.SimpleNamespace(__version__="14.0.0",
                             cuda=types.SimpleNamespace(runtime=types.SimpleNamespace(getDeviceCount=no_gpu)))
sys.modules["cupy"] = None if sys.argv[1] == "missing" else cupy
sys.argv = ["benchmarks/gpu_check.py"]
runpy.run_path("benchmarks/gpu_check.py", run_name="__main__")
"""


@pytest.mark.parametrize("cupy, message", [("missing", "error: CuPy is not installed: pip install cupy-cuda12x"),
                                           ("no-device", "error: CuPy 14.0.0 sees no CUDA GPU (cudaErrorNoDevice")])
def test_gpu_check_without_a_gpu_says_what_is_missing_and_exits_2(cupy: str, message: str) -> None:
    done = subprocess.run([sys.executable, "-c", RUN, cupy], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(message) and done.stderr.count("\n") == 1 and done.stdout == ""
