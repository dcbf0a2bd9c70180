"""Soak and fault figures: memory over long runs, graphs freed without the cycle collector, and
checkpoints under SIGKILL (Linux: RSS is read from /proc/self/statm).

    PYTHONPATH=. python benchmarks/soak.py [--steps 200000] [--double-steps 50000] [--mnist-steps 20000]
                                           [--kills 100] [--kill-mib 32]

Prints the resident set size along each run, and for the kills how many left a temporary file and
what remained after one good save. tests/test_soak.py and tests/test_serialization_crashes.py run
short versions of the same workloads.
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import signal
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import tinyframe
from tinyframe import nn

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def rss_mib() -> float:
    """This process's resident set size in MiB."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * _PAGE / 2**20


def mlp_training_step(in_features: int = 8, hidden: int = 16, classes: int = 2, batch: int = 4) -> Callable[[], None]:
    """One step of the usual loop (zero_grad, forward, cross-entropy, backward, SGD with momentum)
    on a fixed batch of a Linear-ReLU-Linear model."""
    tinyframe.manual_seed(0)
    model = nn.Sequential(nn.Linear(in_features, hidden), nn.ReLU(), nn.Linear(hidden, classes))
    optimizer = tinyframe.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    x, y = tinyframe.randn(batch, in_features), tinyframe.randint(0, classes, (batch,))

    def step() -> None:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
    return step


def double_backward_step() -> Callable[[], None]:
    """A gradient-penalty step: ``autograd.grad(create_graph=True)``, then backward through the gradient,
    accumulating into ``.grad`` (which ``zero_grad`` then drops)."""
    tinyframe.manual_seed(0)
    w = tinyframe.randn(8, 4, requires_grad=True)
    x = tinyframe.randn(16, 8)

    def step() -> None:
        out = (tinyframe.tanh(x @ w) ** 2).sum()
        (grad,) = tinyframe.autograd.grad(out, w, create_graph=True)
        (out + (grad * grad).sum()).backward(create_graph=True)
        w.grad = None
    return step


def rss_trace(step: Callable[[], None], marks: list[int]) -> list[tuple[int, float]]:
    """Runs ``step`` up to ``max(marks)`` times; ``(steps done, RSS in MiB)`` at each mark."""
    trace, done = [], 0
    for mark in sorted(marks):
        for _ in range(mark - done):
            step()
        done = mark
        trace.append((done, rss_mib()))
    return trace


def cyclic_garbage(step: Callable[[], None], repeat: int = 3) -> list[str]:
    """Type names of the tinyframe objects that ``step`` leaves in reference cycles (freed only by
    the cycle collector), with the collector off while it runs."""
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(repeat):
            step()
        gc.collect()
        return sorted({type(o).__name__ for o in gc.garbage if type(o).__module__.startswith("tinyframe")})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def save_forever_in_a_child(path: Path, state: dict) -> int:
    """Forks a process that saves ``state`` to ``path`` over and over; returns its pid once it runs."""
    ready_read, ready_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns to the caller
        try:
            os.close(ready_read)
            os.write(ready_write, b"1")
            while True:
                tinyframe.save(state, path)
        finally:
            os._exit(1)
    os.close(ready_write)
    os.read(ready_read, 1)
    os.close(ready_read)
    return pid


def kill_a_save(path: Path, state: dict, rng: random.Random, within_s: float) -> None:
    """Starts saving ``state`` to ``path`` in a child and SIGKILLs it at a random point."""
    pid = save_forever_in_a_child(path, state)
    time.sleep(rng.uniform(0.0, within_s))
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def temporaries(directory: Path) -> list[Path]:
    return sorted(p for p in directory.iterdir() if p.name.endswith(".tmp"))


def _report_rss(title: str, trace: list[tuple[int, float]]) -> None:
    first = trace[0][1]
    print(title, flush=True)
    for steps, rss in trace:
        print(f"  {steps:>8} steps  RSS {rss:8.2f} MiB  ({rss - first:+.2f} MiB)", flush=True)


def _report_kills(kills: int, mib: int) -> None:
    rng = random.Random(0)
    with tempfile.TemporaryDirectory() as folder:
        directory = Path(folder)
        path = directory / "ckpt.pt"
        state = {"w": tinyframe.zeros(mib * 2**18), "epoch": 1}  # mib MiB of float32
        tinyframe.save(state, path)
        left, started = 0, time.perf_counter()
        for _ in range(kills):
            kill_a_save(path, state, rng, within_s=0.2)
            left += bool(temporaries(directory))
            assert tinyframe.load(path)["epoch"] == 1
        litter = temporaries(directory)
        litter_mib = sum(p.stat().st_size for p in litter) / 2**20
        tinyframe.save({**state, "epoch": 2}, path)
        after = temporaries(directory)
        print(f"checkpoint kills: {kills} SIGKILLs of a {mib} MiB save in {time.perf_counter() - started:.1f} s; "
              f"{left} left a temporary file at that moment; before the good save {len(litter)} file(s), "
              f"{litter_mib:.1f} MiB; after it {len(after)}; checkpoint loads: "
              f"epoch {tinyframe.load(path)['epoch']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--double-steps", type=int, default=50_000)
    parser.add_argument("--mnist-steps", type=int, default=20_000)
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--kill-mib", type=int, default=32)
    args = parser.parse_args()

    marks = sorted({500, 10_000, args.steps // 4, args.steps // 2, args.steps})
    _report_rss("small MLP (8-16-2, batch 4, SGD momentum)", rss_trace(mlp_training_step(), marks))
    marks = sorted({500, args.mnist_steps // 2, args.mnist_steps})
    mnist_step = mlp_training_step(in_features=784, hidden=128, classes=10, batch=64)
    _report_rss("MNIST-sized MLP (784-128-10, batch 64)", rss_trace(mnist_step, marks))
    marks = sorted({250, args.double_steps // 2, args.double_steps})
    _report_rss("double backward (create_graph=True)", rss_trace(double_backward_step(), marks))
    for name, step in (("training step", mlp_training_step()), ("double backward", double_backward_step())):
        print(f"objects left in reference cycles by a {name}: {cyclic_garbage(step, repeat=100) or 'none'}")
    if args.kills:
        _report_kills(args.kills, args.kill_mib)


if __name__ == "__main__":
    main()
