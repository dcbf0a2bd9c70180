"""PyTorch scripts in the style of the official tutorials run unchanged on tinyframe and print what
PyTorch 2.13 printed (recorded in tests/pytorch_scripts/scripts/<name>.torch.txt; numbers compared
with a small tolerance). Regenerate the recordings with tests/pytorch_scripts/record.py."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

from tests.pytorch_scripts.compare import first_difference

HERE = pathlib.Path(__file__).parent / "pytorch_scripts"
NAMES = sorted(p.stem for p in (HERE / "scripts").glob("*.py"))


@pytest.fixture(scope="module")
def outputs() -> dict:
    """Every script's output under tinyframe, from one subprocess (the shim makes `import torch`
    tinyframe there, which must not leak into this process)."""
    root = HERE.parent.parent
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE / "shim"), str(root)]))
    done = subprocess.run([sys.executable, str(HERE / "run_all.py")], capture_output=True, text=True,
                          env=env, cwd=root, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("name", NAMES)
def test_script_prints_what_pytorch_prints(name: str, outputs: dict) -> None:
    expected = (HERE / "scripts" / f"{name}.torch.txt").read_text()
    difference = first_difference(outputs[name], expected)
    assert difference is None, difference
