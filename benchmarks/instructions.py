"""Counts the CPU instructions of one call of a benchmark case's step under valgrind's callgrind.

    python benchmarks/instructions.py [--only tiny,mlp-small,mlp,import] [--iterations 2000]

A time on the shared 2-core machine moves by 30% with its load; an instruction count does not, so a
change to the per-op bookkeeping can be measured to a few hundred instructions while other work runs.
For each case and implementation the step runs in two processes under callgrind, ``--iterations``
calls and none (both after the same warm-up calls), and the difference is divided by the calls.
Counts say nothing of cache misses or of the BLAS's speed: the interleaved times of bench.py decide.

``mlp-small`` is the MLP step at sizes (784, 512, 256 -> 8, 8, 4; batch 4) where the arithmetic is
negligible: its count is the per-step cost of the framework itself, which the full ``mlp`` step pays
too. ``import`` counts whole processes: ``import numpy``, ``import tinyframe`` and ``import tinyframe.nn,
tinyframe.optim``, each also as the difference from NumPy's. Needs valgrind; ``setarch -R`` (no address
randomisation) is used where it exists.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable

import numpy as np

import tinyframe as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases  # noqa: E402  (the benchmarks folder is not a package when run as a script)

WARM_UP = 3
ITERATIONS = {"tiny": 2000, "mlp-small": 1000, "mlp": 5}


def _mlp_small(device: str, threads: int) -> cases.Case:
    """cases.mlp's step with layers 8 -> 8 -> 8 -> 4 on a batch of 4 (NumPy floor included)."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 8)).astype(np.float32)
    y = np.arange(4)
    sizes = [(8, 8), (8, 8), (8, 4)]
    weights = [(rng.uniform(-1, 1, (o, i)) / np.sqrt(i)).astype(np.float32) for i, o in sizes]
    biases = [np.zeros(o, np.float32) for _, o in sizes]
    nn = tf.nn
    model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 4))
    step = cases.TrainStep(tf, model, x, cases.cross_entropy(tf, y, device), device)
    return cases.Case("MLP step, small", 1, {"tinyframe": step,
                                              "numpy": lambda: cases._numpy_mlp_step(x, y, weights, biases)})


BUILDERS: dict[str, Callable[[str, int], cases.Case]] = {"tiny": cases.tiny, "mlp-small": _mlp_small,
                                                         "mlp": cases.mlp}


def run_step(case: str, implementation: str, calls: int) -> None:
    """The child process: warm-up calls, then ``calls`` calls of the step."""
    step = BUILDERS[case]("cpu", 1).steps[implementation]
    for _ in range(WARM_UP + calls):
        step()


def instructions(case: str, implementation: str, calls: int) -> int:
    """The instructions callgrind counts for a child process making ``calls`` calls."""
    return _callgrind([os.path.abspath(__file__), "--child", case, implementation, str(calls)])


def import_instructions(modules: str) -> int:
    """The instructions of ``python -c "import <modules>"``, interpreter start and exit included, from
    compiled bytecode, as an installed package imports."""
    return _callgrind(["-c", f"import {modules}"])


def _callgrind(arguments: list[str]) -> int:
    """The instructions of ``python <arguments>``, after a first, uncounted run has written the bytecode
    of what it imports: else the first counted process would also count compiling what changed."""
    subprocess.run([sys.executable, *arguments], env=_child_environment(), check=True, capture_output=True)
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, *arguments]
    if shutil.which("setarch"):
        command = ["setarch", "-R", *command]
    done = subprocess.run(command, env=_child_environment(), capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in callgrind's output:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def _child_environment() -> dict[str, str]:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # this checkout's tinyframe
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
               PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _report_imports() -> None:
    numpy = import_instructions("numpy")
    print(f"{'import':10s} {'numpy':30s} {numpy / 1e6:8.1f}M instructions")
    for modules in ("tinyframe", "tinyframe.nn, tinyframe.optim"):
        count = import_instructions(modules)
        print(f"{'import':10s} {modules:30s} {count / 1e6:8.1f}M instructions, {(count - numpy) / 1e6:.1f}M "
              "beyond numpy's")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="tiny,mlp-small", help=f"cases, of {', '.join(BUILDERS)}, import")
    parser.add_argument("--iterations", type=int, default=None, help="calls per count (default: per case)")
    parser.add_argument("--child", nargs=3, metavar=("CASE", "IMPLEMENTATION", "CALLS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        case, implementation, calls = args.child
        run_step(case, implementation, int(calls))
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    for case in args.only.split(","):
        if case == "import":
            _report_imports()
            continue
        calls = args.iterations or ITERATIONS[case]
        for implementation in BUILDERS[case]("cpu", 1).steps:
            if implementation == "torch":
                continue  # PyTorch's count would be its C++'s, not comparable bookkeeping
            per_call = (instructions(case, implementation, calls) - instructions(case, implementation, 0)) / calls
            print(f"{case:10s} {implementation:10s} {per_call / 1000:10.1f}K instructions per call")


if __name__ == "__main__":
    main()
