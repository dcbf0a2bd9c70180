"""The ``--distributed`` case of bench.py, run on every rank by ``mpiexec -n N``: data-parallel training
of the MNIST example's CNN with DistributedDataParallel, each rank on batch/N of a global batch.

Rank 0 prints one JSON line: samples/s of the synchronised steps, the step time without gradient
averaging (``no_sync``) and the time of one blocking all-reduce of all the gradients (float32).
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

import numpy as np

import tinyframe as tf
import tinyframe.distributed as dist
from tinyframe.examples.mnist.models import cnn
from tinyframe.nn.parallel import DistributedDataParallel


def median_seconds(step: Callable[[], object], iterations: int, repeat: int) -> float:
    """The median over ``repeat`` rounds of the mean time of ``iterations`` calls, all ranks in step."""
    step()
    rounds = []
    for _ in range(repeat):
        dist.barrier()
        started = time.perf_counter()
        for _ in range(iterations):
            step()
        rounds.append((time.perf_counter() - started) / iterations)
    return statistics.median(rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch-size", type=int, default=64, help="the global batch (default 64)")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    dist.init_process_group("mpi")
    rank, world = dist.get_rank(), dist.get_world_size()
    share = args.batch_size // world
    rng = np.random.default_rng(rank)
    x = tf.tensor(rng.standard_normal((share, 1, 28, 28)).astype(np.float32))
    y = tf.tensor(rng.integers(0, 10, share))
    tf.manual_seed(0)
    model = cnn()
    ddp = DistributedDataParallel(model)
    optimizer = tf.optim.Adam(model.parameters(), lr=1e-3)
    criterion = tf.nn.CrossEntropyLoss()

    def step() -> None:
        optimizer.zero_grad()
        criterion(ddp(x), y).backward()
        optimizer.step()

    def local_step() -> None:
        with ddp.no_sync():
            step()

    synced = median_seconds(step, args.steps, args.repeat)
    local = median_seconds(local_step, args.steps, args.repeat)
    gradients = tf.zeros(sum(p.numel() for p in model.parameters()))
    all_reduce = median_seconds(lambda: dist.all_reduce(gradients), 50, args.repeat)
    if rank == 0:
        print(json.dumps({"ranks": world, "batch": args.batch_size, "samples_per_s": args.batch_size / synced,
                          "step_s": synced, "no_sync_step_s": local, "all_reduce_s": all_reduce,
                          "gradient_mb": gradients.numel() * 4 / 2**20}), flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
