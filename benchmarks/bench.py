"""Times tinyframe against hand-written NumPy (the floor) and PyTorch (when importable), interleaved.

    python benchmarks/bench.py [--threads 1] [--repeat 7] [--only tiny,mlp,cnn,...] [--device cpu]
    python benchmarks/bench.py --profile [--only cnn] [--repeat 5]
    python benchmarks/bench.py --distributed [--ranks 1,2] [--repeat 5]

PyTorch is optional and never a dependency: put its site-packages on ``PYTHONPATH`` (or pass
``--torch-site DIR``, which appends it after this environment's packages, so NumPy stays this one's).

Within each repeat every implementation of a case runs one round in turn (the order rotates between
repeats), so all of them see the same machine load; the script prints each one's median time per
call, and the median and the range over the repeats of the per-repeat ratios (tinyframe / NumPy,
tinyframe / PyTorch). It first prints the machine: CPU, cores, NumPy, the BLAS and its threads.
``--profile`` instead times a step's parts (see benchmarks/breakdown.py). ``--distributed`` runs
benchmarks/distributed.py under ``mpiexec -n N`` for each N of ``--ranks`` (one BLAS thread per rank):
the MNIST CNN trained with DistributedDataParallel on a global batch of 64, in samples/s, and the
time the gradient all-reduce takes per step.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

DEFAULT_CASES = "tiny,mlp,cnn,transformer,lstm,mnist-cnn-eval,mnist-mlp-eval,import"


def _set_threads(count: int) -> None:
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = str(count)


def interleaved_seconds(steps: dict[str, Callable[[], object]], iterations: int,
                        repeat: int) -> dict[str, list[float]]:
    """Per implementation, the mean seconds per call of each of ``repeat`` rounds of ``iterations``
    calls; in each repeat every implementation runs one round, starting one later each repeat."""
    for step in steps.values():  # warm-up: first-call allocations, lazy initialisation
        step()
    names = list(steps)
    seconds: dict[str, list[float]] = {name: [] for name in names}
    for r in range(repeat):
        for name in names[r % len(names):] + names[:r % len(names)]:
            step = steps[name]
            started = time.perf_counter()
            for _ in range(iterations):
                step()
            seconds[name].append((time.perf_counter() - started) / iterations)
    return seconds


def _duration(seconds: float) -> str:
    return f"{seconds * 1e3:9.2f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:9.1f} us"


def report(title: str, seconds: dict[str, list[float]]) -> list[str]:
    """Lines: each implementation's median and range, then tinyframe's per-repeat ratios to the others."""
    lines = []
    for name, rounds in seconds.items():
        lines.append(f"{title}: {name:<9} {_duration(statistics.median(rounds))}  "
                     f"({_duration(min(rounds)).strip()} - {_duration(max(rounds)).strip()})")
    for floor in ("numpy", "torch"):
        if floor in seconds and "tinyframe" in seconds:
            ratios = [t / f for t, f in zip(seconds["tinyframe"], seconds[floor])]
            lines.append(f"{title}: tinyframe / {floor:<5} {statistics.median(ratios):6.2f} x  "
                         f"(per-repeat ratios {min(ratios):.2f} - {max(ratios):.2f}, {len(ratios)} repeats)")
    return lines


def machine(threads: int) -> list[str]:
    """The CPU, core count, NumPy and its BLAS (with the threads it will use), and PyTorch's version."""
    import numpy as np

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    lines = [f"machine: {cpu}, {os.cpu_count()} logical cores, load average "
             f"{', '.join(f'{v:.1f}' for v in os.getloadavg())}; Python {platform.python_version()}",
             f"numpy {np.__version__} ({os.path.dirname(np.__file__)})"]
    try:
        from threadpoolctl import threadpool_info
        lines += [f"  {pool['internal_api']} {pool.get('version') or ''} {pool.get('architecture') or ''}: "
                  f"{pool['num_threads']} threads ({os.path.basename(pool['filepath'])})" for pool in threadpool_info()]
    except ImportError:
        blas = np.show_config(mode="dicts").get("Build Dependencies", {}).get("blas", {})
        lines.append(f"  BLAS {blas.get('name')} {blas.get('version')}; threads from OPENBLAS_NUM_THREADS={threads}")
    import cases

    torch = cases.torch_or_none(threads)
    lines.append(f"torch {torch.__version__}, {torch.get_num_threads()} threads" if torch is not None
                 else "torch: not importable (PYTHONPATH or --torch-site to compare)")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1,
                        help="BLAS / OpenMP / PyTorch threads (default 1, as the MNIST example: on the shared "
                             "2-core machine 2 threads made every case several times slower, PyTorch's too)")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--only", default=DEFAULT_CASES, help=f"cases, comma-separated (default {DEFAULT_CASES})")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--torch-site", help="a site-packages holding PyTorch, appended to sys.path")
    parser.add_argument("--profile", action="store_true", help="time a step's parts and ops, beside PyTorch's")
    parser.add_argument("--distributed", action="store_true", help="the data-parallel case, under mpiexec")
    parser.add_argument("--ranks", default="1,2", help="with --distributed: the rank counts to run")
    args = parser.parse_args()
    if args.distributed:
        distributed(args.ranks, args.repeat)
        return
    _set_threads(args.threads)
    if args.torch_site:
        sys.path.append(args.torch_site)
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:0] = [here, os.path.dirname(here)]  # this checkout's tinyframe, not another one installed
    import cases  # after the thread count is set, so BLAS reads it

    for line in machine(args.threads):
        print(line, flush=True)
    for name in args.only.split(","):
        case = cases.CASES[name](args.device, args.threads)
        if args.profile:
            import breakdown

            lines = breakdown.profile(case, args.repeat)
        else:
            steps = case.steps if args.device == "cpu" else {n: synchronized(s) for n, s in case.steps.items()}
            lines = report(case.title, interleaved_seconds(steps, case.iterations, args.repeat))
        print("\n".join(lines), flush=True)


def synchronized(step: Callable[[], object]) -> Callable[[], None]:
    """``step`` followed by a wait for the GPU work it queued (tinyframe's, and PyTorch's when loaded)."""
    import tinyframe

    torch = sys.modules.get("torch")

    def step_and_wait() -> None:
        step()
        tinyframe.cuda.synchronize()
        if torch is not None and torch.cuda.is_available():
            torch.cuda.synchronize()
    return step_and_wait


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
