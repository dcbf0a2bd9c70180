"""Times tinyframe against hand-written NumPy (the floor) and PyTorch (when importable).

    python benchmarks/bench.py [--threads 2] [--repeat 7] [--only tiny,mlp,cnn] [--device cpu]

Each case is timed in one process, side by side; the script prints per-iteration medians and the
ratios the project tracks. PyTorch is optional and never a dependency.
"""
from __future__ import annotations

import argparse
import os
import statistics
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
    args = parser.parse_args()
    _set_threads(args.threads)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import cases  # after the thread count is set, so BLAS reads it

    rows = []
    for name in args.only.split(","):
        rows.extend(cases.run_case(name, args.device, args.threads, args.repeat, median_seconds))
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        print(f"{label:<{width}}  {value}")


if __name__ == "__main__":
    main()
