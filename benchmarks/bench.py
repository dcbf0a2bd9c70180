"""Times tinyframe against hand-written NumPy (the floor) and PyTorch (when importable).

    python benchmarks/bench.py [--threads 2] [--repeat 7] [--only tiny,mlp,cnn] [--device cpu]
    python benchmarks/bench.py --distributed [--ranks 1,2] [--repeat 5]

Each case is timed in one process, side by side; the script prints per-iteration medians and the
ratios the project tracks. PyTorch is optional and never a dependency. ``--distributed`` instead runs
benchmarks/distributed.py under ``mpiexec -n N`` for each N of ``--ranks`` (one BLAS thread per rank):
the MNIST CNN trained with DistributedDataParallel on a global batch of 64, in samples/s, and the
time the gradient all-reduce takes per step.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable


def _set_threads(count: int) -> None:
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = str(count)


def median_seconds(step: Callable[[], object], iterations: int, repeat: int) -> float:
    """The median over ``repeat`` rounds of the mean time of ``iterations`` calls."""
    step()
    rounds = []
    for _ in range(repeat):
        started = time.perf_counter()
        for _ in range(iterations):
            step()
        rounds.append((time.perf_counter() - started) / iterations)
    return statistics.median(rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--only", default="tiny,mlp,cnn")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--distributed", action="store_true", help="the data-parallel case, under mpiexec")
    parser.add_argument("--ranks", default="1,2", help="with --distributed: the rank counts to run")
    args = parser.parse_args()
    if args.distributed:
        distributed(args.ranks, args.repeat)
        return
    _set_threads(args.threads)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import cases  # after the thread count is set, so BLAS reads it

    rows = []
    for name in args.only.split(","):
        rows.extend(cases.run_case(name, args.device, args.threads, args.repeat, median_seconds))
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        print(f"{label:<{width}}  {value}")


def distributed(ranks: str, repeat: int) -> None:
    """Runs benchmarks/distributed.py on 1, 2, ... ranks and prints samples/s, the scaling against one
    rank, and the communication: a blocking all-reduce of the gradients, and the synchronised step
    minus the step under no_sync (what the overlapped all-reduces add to a step)."""
    here = os.path.dirname(os.path.abspath(__file__))
    mpiexec = shutil.which("mpiexec", path=os.pathsep.join([os.path.dirname(sys.executable), os.environ["PATH"]]))
    if mpiexec is None:
        raise SystemExit("--distributed needs mpiexec: pip install -e '.[distributed]'")
    _set_threads(1)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.dirname(here), os.environ.get("PYTHONPATH", "")]))
    single = None
    for count in (int(n) for n in ranks.split(",")):
        output = subprocess.run([mpiexec, "-n", str(count), sys.executable, os.path.join(here, "distributed.py"),
                                 "--repeat", str(repeat)], check=True, capture_output=True, text=True, env=env)
        result = json.loads(output.stdout.strip().splitlines()[-1])
        single = single or result["samples_per_s"]
        overhead = result["step_s"] - result["no_sync_step_s"]
        print(f"CNN DDP, {count} rank(s), global batch {result['batch']}: {result['samples_per_s']:8.0f} samples/s "
              f"({result['samples_per_s'] / single:.2f} x 1 rank); step {result['step_s'] * 1e3:.1f} ms, "
              f"no_sync step {result['no_sync_step_s'] * 1e3:.1f} ms (+{overhead * 1e3:.2f} ms); all-reduce of "
              f"{result['gradient_mb']:.2f} MB gradients {result['all_reduce_s'] * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
