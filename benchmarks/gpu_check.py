"""Checks tinyframe's CUDA backend on a GPU machine in one command, and writes one report.

    python benchmarks/gpu_check.py [--data-dir ../shared/data/mnist] [--report gpu_check_report.md]
                                   [--epochs 1] [--limit N] [--fake-cuda]

Run it from the repository root in an environment that already has tinyframe's dev extras, CuPy for
the machine's CUDA (e.g. ``pip install cupy-cuda12x``) and optionally PyTorch with CUDA; it installs
nothing. In order it: checks that CuPy sees a GPU (exits 2 at once, saying what is missing, when not);
runs the test suite's ``cuda`` tests; times the benchmark cases (``cases.py``) on ``cuda``, against
PyTorch CUDA when importable; trains the MNIST MLP and CNN with ``--device cuda`` for a short run; and
writes the pass/skip counts, step times, epoch times, accuracies and ratios to the report. The exit
status is 0 when every test passed and both models trained, else 1.

``--fake-cuda`` is a dry run on the test suite's CuPy stand-in (tests/fake_cupy), for checking this
script on a machine without a GPU: the numbers it reports are NumPy's, not a GPU's.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA_DIR = REPO.parent / "shared" / "data" / "mnist"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR,
                        help=f"the MNIST files for the training runs (default: {DEFAULT_DATA_DIR})")
    parser.add_argument("--report", type=Path, default=Path("gpu_check_report.md"),
                        help="where to write the report (default: gpu_check_report.md)")
    parser.add_argument("--epochs", type=int, default=1, help="epochs of each MNIST run (default: 1)")
    parser.add_argument("--limit", type=int, default=None,
                        help="train on the first N images only (default: all 60,000)")
    parser.add_argument("--repeat", type=int, default=5, help="timing rounds per benchmark case (default: 5)")
    parser.add_argument("--fake-cuda", action="store_true",
                        help="dry run on the CPU through the test suite's CuPy stand-in (no GPU needed)")
    return parser.parse_args()


def fail(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def gpu_or_exit(fake: bool) -> str:
    """A line naming the GPU that CuPy sees; without one, says what is missing and exits 2."""
    if fake:
        sys.path.insert(0, str(REPO))
        from tests import fake_cupy
        fake_cupy.install()
        return "CuPy stand-in (tests/fake_cupy, NumPy on the CPU): a dry run, not a GPU"
    try:
        import cupy
    except ImportError:
        fail("CuPy is not installed: pip install cupy-cuda12x (or cupy-cuda13x) for this machine's "
                 "CUDA, then run this again")
    try:
        count = cupy.cuda.runtime.getDeviceCount()
        name = cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()
    except Exception as error:  # CUDARuntimeError: no driver, no device
        fail(f"CuPy {cupy.__version__} sees no CUDA GPU ({error}): run this on a machine with an "
                 "NVIDIA GPU and its driver (nvidia-smi should list the GPU)")
    import tinyframe
    if not tinyframe.cuda.is_available():
        fail("CuPy sees a GPU but tinyframe.cuda.is_available() is False")
    return f"{name} ({count} visible), CuPy {cupy.__version__}, CUDA runtime {cupy.cuda.runtime.runtimeGetVersion()}"


def run_tests(fake: bool) -> dict:
    """The suite's cuda tests in a subprocess; their counts from pytest's JUnit XML."""
    with tempfile.TemporaryDirectory() as folder:
        junit = Path(folder) / "junit.xml"
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "cuda",
                   f"--junitxml={junit}", *(["--fake-cuda"] if fake else [])]
        started = time.perf_counter()
        finished = subprocess.run(command, cwd=REPO, capture_output=True, text=True)
        seconds = time.perf_counter() - started
        if not junit.is_file():
            return {"error": finished.stdout[-2000:] + finished.stderr[-2000:], "seconds": seconds}
        suite = ElementTree.parse(junit).getroot().find("testsuite")
    counts = {key: int(suite.get(key, 0)) for key in ("tests", "failures", "errors", "skipped")}
    counts["passed"] = counts["tests"] - counts["failures"] - counts["errors"] - counts["skipped"]
    failed = [line for line in finished.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
    return {**counts, "seconds": seconds, "failed": failed[:50]}


def run_benchmarks(repeat: int) -> list[str]:
    """The benchmark cases on cuda, as bench.py reports them (with PyTorch CUDA rows when torch is
    importable with CUDA)."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    import bench
    import cases
    lines = []
    for make in cases.CASES.values():
        case = make("cuda", 2)
        steps = {name: bench.synchronized(step) for name, step in case.steps.items()}
        lines.extend(bench.report(case.title, bench.interleaved_seconds(steps, case.iterations, repeat)))
    return lines


def train_mnist(model: str, args: argparse.Namespace) -> dict:
    """A short ``python -m tinyframe.examples.mnist --device cuda`` run, in this process; its metrics."""
    from tinyframe.examples.mnist.train import main
    with tempfile.TemporaryDirectory() as folder:
        metrics = Path(folder) / "metrics.json"
        argv = ["--model", model, "--device", "cuda", "--epochs", str(args.epochs), "--data-dir", str(args.data_dir),
                "--no-progress", "--metrics", str(metrics)]
        if args.limit is not None:
            argv += ["--limit", str(args.limit)]
        status = main(argv)
        history = json.loads(metrics.read_text()) if metrics.is_file() else []
    return {"status": status, "history": history}


def report(gpu: str, tests: dict, benchmarks: list[str], training: dict, args: argparse.Namespace) -> str:
    lines = ["# tinyframe GPU check", "", f"- GPU: {gpu}", f"- Python {platform.python_version()}, "
             f"{platform.platform()}", f"- run: {' '.join(sys.argv)}", "", "## Test suite on cuda (-k cuda)", ""]
    if "error" in tests:
        lines += ["pytest did not finish:", "", "```", tests["error"], "```"]
    else:
        lines.append(f"{tests['passed']} passed, {tests['failures']} failed, {tests['errors']} errors, "
                     f"{tests['skipped']} skipped in {tests['seconds']:.0f} s")
        lines += [f"- {line}" for line in tests["failed"]]
    lines += ["", "## Benchmark cases on cuda (per-step medians; ratios tinyframe / other)", "", "```"]
    lines += benchmarks + ["```", "",
              f"## MNIST, --device cuda, {args.epochs} epoch(s), "
              f"{'all' if args.limit is None else args.limit} training images", "",
              "| model | epoch | seconds | samples/s | train loss | test acc |", "|---|---|---|---|---|---|"]
    for model, run in training.items():
        if run["status"] != 0 or not run["history"]:
            lines.append(f"| {model} | failed (exit status {run['status']}) | | | | |")
        for epoch in run["history"]:
            lines.append(f"| {model} | {epoch['epoch']} | {epoch['seconds']:.1f} | {epoch['samples_per_s']:,.0f} | "
                         f"{epoch['train_loss']:.4f} | {epoch['test_acc']:.2%} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    args = parse_args()
    os.chdir(REPO)
    gpu = gpu_or_exit(args.fake_cuda)
    print(f"GPU: {gpu}\nrunning the cuda tests ...", flush=True)
    tests = run_tests(args.fake_cuda)
    print("timing the benchmark cases ...", flush=True)
    benchmarks = run_benchmarks(args.repeat)
    training = {}
    for model in ("mlp", "cnn"):
        print(f"training the MNIST {model} ...", flush=True)
        training[model] = train_mnist(model, args)
    text = report(gpu, tests, benchmarks, training, args)
    args.report.write_text(text)
    print(text + f"\nreport written to {args.report.resolve()}")
    trained = all(run["status"] == 0 and run["history"] for run in training.values())
    tests_passed = "error" not in tests and tests["failures"] == 0 and tests["errors"] == 0
    return 0 if trained and tests_passed else 1


if __name__ == "__main__":
    sys.exit(main())
