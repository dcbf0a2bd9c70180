"""tinyframe.distributed, DistributedDataParallel, SyncBatchNorm and DistributedSampler.

The multi-process tests launch ``mpiexec -n 2 python tests/distributed/worker_*.py``; they are skipped,
with the reason, where mpi4py or mpiexec is missing (``pip install -e ".[distributed]"``). The NCCL runs
need CuPy and a GPU per rank.
"""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import tinyframe
import tinyframe.distributed as dist
import tinyframe.examples.mnist.models
from tinyframe.utils.data.distributed import DistributedSampler, pytorch_randperm

from .conftest import MNIST_DIR
from .fake_cupy import MODULES as FAKE_MODULES

ROOT = Path(__file__).resolve().parents[1]
WORKERS = ROOT / "tests" / "distributed"
MPIEXEC = shutil.which("mpiexec", path=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
needs_mpi = pytest.mark.skipif(importlib.util.find_spec("mpi4py") is None or MPIEXEC is None,
                               reason="needs mpi4py and mpiexec: pip install -e '.[distributed]'")
# The ranks are separate processes, which the --fake-cuda stand-in does not reach (and it has no NCCL).
GPUS = 0 if sys.modules.get("cupy") is FAKE_MODULES["cupy"] else tinyframe.cuda.device_count()
needs_gpu = pytest.mark.skipif(GPUS == 0, reason="the nccl backend needs CuPy and a CUDA GPU")


def run_ranks(worker: str, *args: str, ranks: int = 2) -> subprocess.CompletedProcess:
    """``mpiexec -n ranks python worker args`` (a worker of tests/distributed, or ``-m module``), one BLAS
    thread per rank."""
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
               OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    script = worker if worker == "-m" else str(WORKERS / worker)
    return subprocess.run([MPIEXEC, "-n", str(ranks), sys.executable, script, *args],
                          capture_output=True, text=True, timeout=300, env=env, cwd=ROOT)


def assert_succeeded(result: subprocess.CompletedProcess) -> None:
    assert result.returncode == 0, f"exit {result.returncode}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}"


# ---------------------------------------------------------------------------- without MPI
def test_import_tinyframe_does_not_import_mpi4py() -> None:
    code = ("import sys, tinyframe, tinyframe.distributed\n"
            "assert 'mpi4py' not in sys.modules and 'cupy' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_collective_before_init_process_group_says_so() -> None:
    assert not dist.is_initialized()
    for call in (lambda: dist.all_reduce(tinyframe.ones(2)), dist.get_rank, dist.get_world_size, dist.barrier):
        with pytest.raises(ValueError, match="Default process group has not been initialized"):
            call()


def test_init_process_group_names_the_backends_it_supports() -> None:
    with pytest.raises(ValueError, match="Invalid backend: 'gloo'; tinyframe.distributed supports 'mpi' and 'nccl'"):
        dist.init_process_group("gloo")
    assert not dist.is_initialized()


def test_ddp_before_init_process_group_says_so() -> None:
    with pytest.raises(ValueError, match="call init_process_group"):
        tinyframe.nn.parallel.DistributedDataParallel(tinyframe.nn.Linear(2, 2))


def test_pytorch_randperm_matches_torch_randperm_for_a_seed() -> None:
    # torch.randperm(10, generator=torch.Generator().manual_seed(s)).tolist(), recorded with torch 2.13
    assert pytorch_randperm(10, 0).tolist() == [4, 1, 7, 5, 3, 9, 0, 8, 6, 2]
    assert pytorch_randperm(10, 7).tolist() == [5, 0, 3, 4, 1, 7, 9, 6, 8, 2]
    assert pytorch_randperm(0, 0).tolist() == [] and pytorch_randperm(1, 3).tolist() == [0]


# list(torch.utils.data.distributed.DistributedSampler(range(11), 3, rank, shuffle, seed=5, drop_last))
# after set_epoch(2), recorded with torch 2.13: (shuffle, drop_last) -> one list per rank.
TORCH_PARTITIONS = {
    (True, False): [[3, 2, 4, 7], [0, 5, 10, 6], [9, 8, 1, 3]],
    (True, True): [[3, 2, 4], [0, 5, 10], [9, 8, 1]],
    (False, False): [[0, 3, 6, 9], [1, 4, 7, 10], [2, 5, 8, 0]],
    (False, True): [[0, 3, 6], [1, 4, 7], [2, 5, 8]],
}


@pytest.mark.parametrize(("shuffle", "drop_last"), list(TORCH_PARTITIONS))
def test_distributed_sampler_partition_equals_pytorchs(shuffle: bool, drop_last: bool) -> None:
    for rank, expected in enumerate(TORCH_PARTITIONS[(shuffle, drop_last)]):
        sampler = DistributedSampler(range(11), num_replicas=3, rank=rank, shuffle=shuffle, seed=5,
                                     drop_last=drop_last)
        sampler.set_epoch(2)
        assert list(sampler) == expected and len(sampler) == len(expected)


def test_distributed_sampler_ranks_cover_the_dataset_and_change_with_the_epoch() -> None:
    samplers = [DistributedSampler(range(100), num_replicas=4, rank=r) for r in range(4)]
    first = [list(s) for s in samplers]
    assert sorted(sum(first, [])) == list(range(100))
    for s in samplers:
        s.set_epoch(1)
    assert [list(s) for s in samplers] != first


def test_distributed_sampler_rejects_a_rank_outside_the_replicas() -> None:
    with pytest.raises(ValueError, match=r"Invalid rank 2, rank should be in the interval \[0, 1\]"):
        DistributedSampler(range(4), num_replicas=2, rank=2)


def test_distributed_sampler_batches_through_the_dataloader() -> None:
    dataset = tinyframe.utils.data.TensorDataset(tinyframe.arange(10))
    loader = tinyframe.utils.data.DataLoader(dataset, batch_size=2,
                                             sampler=DistributedSampler(dataset, 2, 1, shuffle=False))
    assert [b[0].tolist() for b in loader] == [[1, 3], [5, 7], [9]]


def test_sync_batchnorm_without_a_process_group_is_batchnorm() -> None:
    x = tinyframe.randn(6, 3, 4)
    sync, plain = tinyframe.nn.SyncBatchNorm(3), tinyframe.nn.BatchNorm1d(3)
    np.testing.assert_allclose(sync(x).detach().numpy(), plain(x).detach().numpy(), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(sync.running_var.numpy(), plain.running_var.numpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="expected at least 2D input"):
        sync(tinyframe.randn(3))


def test_convert_sync_batchnorm_replaces_batchnorms_in_place_sharing_their_state() -> None:
    bn = tinyframe.nn.BatchNorm2d(4, momentum=None).eval()
    model = tinyframe.nn.Sequential(tinyframe.nn.Conv2d(1, 4, 3), bn, tinyframe.nn.ReLU())
    converted = tinyframe.nn.SyncBatchNorm.convert_sync_batchnorm(model)
    assert [type(m).__name__ for m in converted] == ["Conv2d", "SyncBatchNorm", "ReLU"]
    sync = converted[1]
    assert sync.weight is bn.weight and sync.running_mean is bn.running_mean and not sync.training
    assert sync.momentum is None and list(converted.state_dict()) == list(model.state_dict())


# ---------------------------------------------------------------------------- mpiexec -n 2
@needs_mpi
def test_collectives_match_numpy_for_every_reduce_op_and_dtype() -> None:
    result = run_ranks("worker_collectives.py", "mpi")
    assert_succeeded(result)
    assert "rank 0:" in result.stdout and "rank 1:" in result.stdout


@needs_mpi
def test_a_rank_that_raises_ends_the_job_with_its_error() -> None:
    result = run_ranks("worker_fault.py")
    assert result.returncode != 0
    assert "[rank 1]" in result.stderr and "ValueError: rank 1 fails on purpose" in result.stderr


@needs_mpi
@needs_gpu
def test_nccl_collectives_match_numpy() -> None:
    assert_succeeded(run_ranks("worker_collectives.py", "nccl", ranks=min(GPUS, 2)))


@needs_mpi
def test_ddp_on_two_ranks_trains_as_one_process_on_the_whole_batch() -> None:
    """SGD with momentum and Adam, with and without no_sync accumulation and with small buckets; unused
    parameters, models that differ across ranks, and SyncBatchNorm (see worker_ddp.py)."""
    result = run_ranks("worker_ddp.py", "mpi")
    assert_succeeded(result)
    assert "rank 0: DistributedDataParallel checks passed" in result.stdout


@needs_mpi
@needs_gpu
def test_nccl_ddp_trains_as_one_process() -> None:
    assert_succeeded(run_ranks("worker_ddp.py", "nccl", ranks=min(GPUS, 2)))


@needs_mpi
@pytest.mark.skipif(not (MNIST_DIR / "train-images-idx3-ubyte.gz").is_file(), reason=f"no MNIST in {MNIST_DIR}")
def test_mnist_example_trains_on_two_ranks_and_only_rank_0_reports(tmp_path: Path) -> None:
    metrics, checkpoint = tmp_path / "metrics.json", tmp_path / "model.tf"
    result = run_ranks("-m", "tinyframe.examples.mnist", "--distributed", "--data-dir", str(MNIST_DIR), "--limit",
                       "2000", "--epochs", "1", "--no-progress", "--metrics", str(metrics), "--save", str(checkpoint))
    assert_succeeded(result)
    assert result.stdout.count("epoch 1/1") == 1 and result.stdout.count("final test accuracy") == 1
    history = json.loads(metrics.read_text())
    assert len(history) == 1 and history[0]["test_acc"] > 0.8
    assert set(tinyframe.load(checkpoint)["model"]) == set(tinyframe.examples.mnist.models.mlp().state_dict())
