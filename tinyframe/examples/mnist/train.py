"""Trains a model on MNIST with the usual PyTorch pattern; ``python -m tinyframe.examples.mnist``."""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

import tinyframe
import tinyframe.distributed as dist
from tinyframe import nn
from tinyframe.nn.parallel import DistributedDataParallel
from tinyframe.utils.data import DataLoader, DistributedSampler, TensorDataset

from .data import MNISTError, default_data_dir, load_mnist
from .models import MODELS

MEAN, STD = 0.1307, 0.3081
THREADS = 1  # the README's "Threads": on a busy 2-core machine one BLAS thread trained 3-10x faster than two
# Per model. The learning rate is multiplied by lr_decay after every epoch (ExponentialLR): a decay per
# epoch that does not depend on --epochs lets a run be resumed or extended with the results of one long run.
DEFAULTS = {
    "mlp": {"epochs": 5, "batch_size": 64, "lr": 1e-3, "optimizer": "adam", "lr_decay": 0.5},
    "cnn": {"epochs": 3, "batch_size": 64, "lr": 2e-3, "optimizer": "adam", "lr_decay": 0.3},
}


def positive(kind: type) -> Any:
    """An argparse type: ``kind`` (int or float) that must be > 0."""
    def convert(text: str) -> Any:
        value = kind(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be > 0, got {text}")
        return value
    convert.__name__ = kind.__name__  # argparse names the type in its "invalid int value" message
    return convert


def per_model(key: str) -> str:
    """The defaults of option ``key`` for --help, e.g. "mlp 5, cnn 3"."""
    return ", ".join(f"{name} {config[key]}" for name, config in DEFAULTS.items())


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tinyframe.examples.mnist",
        description="Train an MLP or a CNN on MNIST with tinyframe, evaluating on the test set after every epoch.")
    parser.add_argument("--model", choices=sorted(MODELS), default="mlp", help="which model to train (default: mlp)")
    parser.add_argument("--epochs", type=positive(int),
                        help=f"passes over the training set (default: {per_model('epochs')})")
    parser.add_argument("--batch-size", type=positive(int),
                        help=f"training batch size (default: {per_model('batch_size')})")
    parser.add_argument("--lr", type=positive(float),
                        help=f"learning rate of the first epoch (default: {per_model('lr')}); it is multiplied by "
                             f"{per_model('lr_decay')} after every epoch")
    parser.add_argument("--optimizer", choices=["sgd", "adam"],
                        help=f"SGD with momentum 0.9, or Adam (default: {per_model('optimizer')})")
    parser.add_argument("--device", default="auto",
                        help="cpu, cuda, cuda:N, or auto: cuda when CuPy sees a GPU, else cpu (default: auto)")
    parser.add_argument("--seed", type=int, default=0,
                        help="random seed of the initial weights, the shuffling and dropout: the same seed gives "
                             "the same results on the same machine (default: 0)")
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="folder with the four MNIST files (.gz or not), flat or in MNIST/raw; they are "
                             f"downloaded there when missing (default: $TINYFRAME_DATA or {default_data_dir()})")
    parser.add_argument("--limit", type=positive(int), default=None,
                        help="train on the first N training images only (the test set stays whole)")
    parser.add_argument("--save", type=Path, default=None,
                        help="write a checkpoint (model, optimizer, schedule, epoch, metrics) here after every epoch")
    parser.add_argument("--resume", type=Path, default=None,
                        help="continue from a checkpoint written by --save, up to --epochs in all")
    parser.add_argument("--metrics", type=Path, default=None,
                        help="write the per-epoch metrics (losses, accuracies, seconds, samples/s) here as JSON")
    parser.add_argument("--threads", type=positive(int), default=THREADS,
                        help="CPU threads for NumPy's BLAS (tinyframe.set_num_threads); more than the idle cores "
                             f"slows training down on a busy machine (default: {THREADS})")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bars")
    parser.add_argument("--distributed", action="store_true",
                        help="data-parallel training on the ranks started by mpiexec (mpiexec -n 2 python -m "
                             "tinyframe.examples.mnist --distributed): each rank trains on its share of every "
                             "batch of --batch-size; rank 0 prints, writes metrics and checkpoints")
    parser.add_argument("--sync-bn", action="store_true",
                        help="with --distributed, batch norm statistics over the whole batch (SyncBatchNorm) "
                             "instead of each rank's share")
    args = parser.parse_args(argv)
    for key, value in DEFAULTS[args.model].items():
        if getattr(args, key, None) is None:
            setattr(args, key, value)
    if args.device == "auto":
        args.device = "cuda" if tinyframe.cuda.is_available() else "cpu"
    return args


def as_dataset(images: np.ndarray, labels: np.ndarray, limit: int | None = None) -> TensorDataset:
    """Images scaled to [0, 1] and normalised once, as float32 (N, 1, 28, 28); labels int64."""
    if limit is not None:
        images, labels = images[:limit], labels[:limit]
    pixels = (images.astype(np.float32) / 255.0 - MEAN) / STD
    return TensorDataset(tinyframe.from_numpy(pixels[:, None]), tinyframe.from_numpy(labels.astype(np.int64)))


def make_optimizer(args: argparse.Namespace, model: nn.Module) -> tinyframe.optim.Optimizer:
    if args.optimizer == "sgd":
        return tinyframe.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    return tinyframe.optim.Adam(model.parameters(), lr=args.lr)


def train_epoch(model: nn.Module, loader: DataLoader, criterion: nn.Module, optimizer: Any, device: str,
                progress: tqdm) -> tuple[float, float]:
    """One pass over ``loader``; returns the mean loss and the accuracy.

    The running sums stay on the device (detached) so that a step never waits for the device;
    ``.item()`` reads them only when the progress bar is refreshed and at the end.
    """
    model.train()
    total_loss = tinyframe.zeros((), device=device)
    correct = tinyframe.zeros((), dtype=tinyframe.int64, device=device)
    seen = 0
    for step, (x, y) in enumerate(loader, 1):
        x, y = x.to(device), y.to(device)
        out = model(x)
        loss = criterion(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total_loss += loss.detach() * len(y)
        correct += (out.detach().argmax(1) == y).sum()
        seen += len(y)
        progress.update(1)
        if step % 20 == 0 and not progress.disable:
            progress.set_postfix(loss=f"{total_loss.item() / seen:.4f}", acc=f"{correct.item() / seen:.2%}")
    return total_loss.item() / seen, correct.item() / seen


def evaluate(model: nn.Module, loader: DataLoader, criterion: nn.Module, device: str,
             show: bool) -> tuple[float, float]:
    """Mean loss and accuracy over ``loader``, without recording the graph."""
    model.eval()
    total_loss = tinyframe.zeros((), device=device)
    correct = tinyframe.zeros((), dtype=tinyframe.int64, device=device)
    seen = 0
    with tinyframe.no_grad():
        for x, y in tqdm(loader, desc="  test", leave=False, disable=not show):
            x, y = x.to(device), y.to(device)
            out = model(x)
            total_loss += criterion(out, y) * len(y)
            correct += (out.argmax(1) == y).sum()
            seen += len(y)
    return total_loss.item() / seen, correct.item() / seen


class ResumeError(RuntimeError):
    """The checkpoint given to --resume cannot be read or does not fit the model and options."""


def resume(args: argparse.Namespace, model: nn.Module, optimizer: Any, scheduler: Any) -> tuple[int, list]:
    """Restores the state saved by --save; returns the first epoch to run and the metrics so far."""
    try:
        checkpoint = tinyframe.load(args.resume, map_location=args.device)
        model.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(checkpoint["optimizer"])
        scheduler.load_state_dict(checkpoint["scheduler"])
        tinyframe.set_rng_state(checkpoint["rng"].cpu())  # the dropout masks go on as in an uninterrupted run
        return checkpoint["epoch"] + 1, list(checkpoint["history"])
    except (OSError, RuntimeError, KeyError, ValueError, TypeError) as error:
        raise ResumeError(f"cannot resume from {args.resume}: {error} (expected a checkpoint written by --save "
                          f"with the same --model ({args.model}) and --optimizer ({args.optimizer}))") from error


def write_json_atomically(path: Path, payload: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp") as handle:
        json.dump(payload, handle, indent=2)
    os.replace(handle.name, path)


class Ranks:
    """This process's place in the job: rank 0 of 1 unless ``--distributed`` (ranks from mpiexec)."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.rank, self.size = 0, 1
        if args.distributed:
            dist.init_process_group("nccl" if args.device.startswith("cuda") else "mpi")
            self.rank, self.size = dist.get_rank(), dist.get_world_size()
            if args.device.startswith("cuda"):
                args.device = f"cuda:{tinyframe.cuda.current_device()}"  # the rank's GPU, chosen by the backend
            if args.batch_size % self.size:
                raise DistributedError(f"--batch-size {args.batch_size} is not a multiple of the {self.size} ranks")

    def mean(self, values: list[float], count: int) -> list[float]:
        """The means over every rank's samples, of per-rank means over ``count`` samples each."""
        if self.size == 1:
            return values
        sums = tinyframe.tensor([v * count for v in values] + [count], dtype=tinyframe.float64)
        dist.all_reduce(sums)
        return [v / sums[-1].item() for v in sums[:-1].tolist()]


class DistributedError(RuntimeError):
    """The options do not fit the ranks of the job."""


def run(args: argparse.Namespace) -> float:
    """Trains and evaluates; returns the final test accuracy."""
    tinyframe.set_num_threads(args.threads)
    ranks = Ranks(args)
    tinyframe.manual_seed(args.seed)
    (x_train, y_train), (x_test, y_test) = load_mnist(args.data_dir)
    train_set = as_dataset(x_train, y_train, args.limit)
    test_set = as_dataset(x_test[ranks.rank::ranks.size], y_test[ranks.rank::ranks.size])  # each rank a share
    test_loader = DataLoader(test_set, batch_size=1000)
    model = MODELS[args.model]().to(args.device)
    if args.distributed and args.sync_bn:
        model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    criterion = nn.CrossEntropyLoss()
    optimizer = make_optimizer(args, model)
    scheduler = tinyframe.optim.lr_scheduler.ExponentialLR(optimizer, gamma=args.lr_decay)
    first_epoch = 1
    history: list[dict] = []
    if args.resume is not None:
        first_epoch, history = resume(args, model, optimizer, scheduler)
    trained = DistributedDataParallel(model) if args.distributed else model  # rank 0's weights on every rank
    show = not args.no_progress and ranks.rank == 0
    test_acc = history[-1]["test_acc"] if history else 0.0
    for epoch in range(first_epoch, args.epochs + 1):
        train_loader = epoch_loader(args, train_set, epoch, ranks)
        started = time.perf_counter()
        with tqdm(total=len(train_loader), desc=f"epoch {epoch}/{args.epochs}", leave=False, disable=not show) as bar:
            train_loss, train_acc = train_epoch(trained, train_loader, criterion, optimizer, args.device, bar)
        train_loss, train_acc = ranks.mean([train_loss, train_acc], len(train_loader.sampler))
        scheduler.step()
        test_loss, test_acc = ranks.mean(list(evaluate(model, test_loader, criterion, args.device, show)),
                                         len(test_set))
        seconds = time.perf_counter() - started
        if ranks.rank != 0:
            continue
        history.append({"epoch": epoch, "train_loss": train_loss, "train_acc": train_acc, "test_loss": test_loss,
                        "test_acc": test_acc, "seconds": seconds, "samples_per_s": len(train_set) / seconds})
        print(f"epoch {epoch}/{args.epochs}  train loss {train_loss:.4f}  test loss {test_loss:.4f}  "
              f"test acc {test_acc:.2%}  {seconds:.1f} s  {len(train_set) / seconds:,.0f} samples/s", flush=True)
        if args.save is not None:
            tinyframe.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                            "scheduler": scheduler.state_dict(), "rng": tinyframe.get_rng_state(), "epoch": epoch,
                            "history": history}, args.save)
        if args.metrics is not None:
            write_json_atomically(args.metrics, history)
    if ranks.rank == 0:
        print(f"final test accuracy: {test_acc:.2%}")
    if args.distributed:
        dist.destroy_process_group()
    return test_acc


def epoch_loader(args: argparse.Namespace, train_set: TensorDataset, epoch: int, ranks: Ranks) -> DataLoader:
    """The training batches of ``epoch``; with ``--distributed``, this rank's share of each batch.

    The order depends only on (seed, epoch), so a resumed run shuffles as an uninterrupted one. Each
    rank draws its share with ``DistributedSampler`` (PyTorch's partition) and its dropout masks from
    its own seed.
    """
    if not args.distributed:
        order = tinyframe.Generator().manual_seed(args.seed * 10_000 + epoch)
        return DataLoader(train_set, batch_size=args.batch_size, shuffle=True, generator=order)
    sampler = DistributedSampler(train_set, seed=args.seed)
    sampler.set_epoch(epoch)
    tinyframe.manual_seed((args.seed * 10_000 + epoch) * 1_000 + ranks.rank)
    return DataLoader(train_set, batch_size=args.batch_size // ranks.size, sampler=sampler)


class DeviceError(RuntimeError):
    """--device names a device that does not exist or is not usable on this machine."""


def check_device(spec: str) -> None:
    """Raises DeviceError, in one line saying what is missing and how to fix it, unless ``spec`` is usable."""
    try:
        tinyframe.device(spec)
    except (RuntimeError, TypeError) as error:
        raise DeviceError(f"--device {spec}: {error}; choose cpu, cuda, cuda:N or auto") from None
    try:
        tinyframe.zeros(1, device=spec)
    except RuntimeError as error:
        raise DeviceError(f"--device {spec}: {error}") from None


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        check_device(args.device)
        run(args)
    except (MNISTError, ResumeError, DistributedError, DeviceError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return 0
