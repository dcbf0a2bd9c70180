"""Runs every script in scripts/ in this one process and prints {name: output} as JSON.

Run with tests/pytorch_scripts/shim first on PYTHONPATH, so that a script's ``import torch`` is
tinyframe. Global settings a script may change are reset before each script.
"""
import contextlib
import io
import json
import pathlib
import runpy
import sys
import traceback

import torch  # tinyframe, through the shim

SCRIPTS = pathlib.Path(__file__).parent / "scripts"


def _reset() -> None:
    torch.set_default_dtype(torch.float32)
    torch.set_default_device("cpu")
    torch.set_grad_enabled(True)
    torch.set_printoptions(profile="default")
    torch.manual_seed(0)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = True
    torch.set_float32_matmul_precision("highest")
    torch.use_deterministic_algorithms(False)


def run(path: pathlib.Path) -> str:
    """The script's stdout, ending with the last line of the traceback if it raised."""
    _reset()
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        try:
            runpy.run_path(str(path), run_name="__main__")
        except BaseException:  # noqa: B036  a script's failure is its output, as when run alone
            out.write(traceback.format_exc().strip().splitlines()[-1] + "\n")
    return out.getvalue()


if __name__ == "__main__":
    names = sys.argv[1:] or sorted(p.stem for p in SCRIPTS.glob("*.py"))
    json.dump({name: run(SCRIPTS / f"{name}.py") for name in names}, sys.stdout)
