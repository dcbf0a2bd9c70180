"""Run under ``mpiexec -n 2``: DistributedDataParallel on 2 ranks, each with half of every global batch,
against one process training on the whole batch (SGD with momentum and Adam, with and without
no_sync accumulation, small buckets), plus unused parameters, mismatched models and SyncBatchNorm.
Usage: worker_ddp.py [mpi|nccl]."""
import sys

import numpy as np

import tinyframe as tf
import tinyframe.distributed as dist
from tinyframe import nn
from tinyframe.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group(sys.argv[1] if len(sys.argv) > 1 else "mpi")
RANK, WORLD = dist.get_rank(), dist.get_world_size()
DEVICE = "cuda" if dist.get_backend() == "nccl" else "cpu"
STEPS, BATCH = 4, 8
TOLERANCE = 1e-5  # float32 round-off (Adam amplifies it where m/sqrt(v) is near 0/0), relative to the largest entry


def cnn(seed: int = 0) -> nn.Module:
    tf.manual_seed(seed)
    return nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 6 * 6, 16), nn.Tanh(),
                         nn.Linear(16, 3)).to(DEVICE)


def batches(accumulate: int) -> list:
    rng = np.random.default_rng(1)
    return [[(tf.tensor(rng.standard_normal((BATCH, 1, 8, 8)).astype(np.float32)).to(DEVICE),
              tf.tensor(rng.integers(0, 3, BATCH)).to(DEVICE)) for _ in range(accumulate)] for _ in range(STEPS)]


def optimizer(kind: str, params: object) -> tf.optim.Optimizer:
    if kind == "sgd":
        return tf.optim.SGD(params, lr=0.1, momentum=0.9)
    return tf.optim.Adam(params, lr=0.01)


def train(model: nn.Module, kind: str, data: list, share: slice, ddp: DDP | None = None) -> None:
    """STEPS optimizer steps, each over len(data[step]) backward passes (the first ones in no_sync)."""
    opt = optimizer(kind, model.parameters())
    runner = ddp if ddp is not None else model
    for micro_batches in data:
        for i, (x, y) in enumerate(micro_batches):
            last = i == len(micro_batches) - 1
            with ddp.no_sync() if ddp is not None and not last else _nothing():
                nn.functional.cross_entropy(runner(x[share]), y[share]).backward()
        opt.step()
        opt.zero_grad()


class _nothing:
    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        pass


def assert_close(got: nn.Module, expected: nn.Module, what: str) -> float:
    worst = 0.0
    for (name, a), (_, b) in zip(got.state_dict().items(), expected.state_dict().items()):
        a, b = a.cpu().numpy().astype(np.float64), b.cpu().numpy().astype(np.float64)
        error = np.abs(a - b).max() / max(np.abs(b).max(), 1e-30)
        assert error <= TOLERANCE, f"{what}: {name} differs by {error:.2e} relative"
        worst = max(worst, error)
    return worst


def assert_same_on_every_rank(model: nn.Module, what: str) -> None:
    mine = [t.cpu().numpy().tobytes() for t in model.state_dict().values()]
    everyone = [None] * WORLD
    dist.all_gather_object(everyone, mine)
    assert all(theirs == everyone[0] for theirs in everyone), f"{what}: the replicas differ"


half = slice(RANK * BATCH // WORLD, (RANK + 1) * BATCH // WORLD)
for kind in ("sgd", "adam"):
    for accumulate, cap in ((1, None), (3, None), (1, 0.001)):
        data = batches(accumulate)
        reference = cnn()
        train(reference, kind, data, slice(None))
        replica = cnn(seed=RANK)  # rank 1 starts from other weights: DDP copies rank 0's
        ddp = DDP(replica, bucket_cap_mb=cap)
        train(replica, kind, data, half, ddp)
        what = f"{kind}, {accumulate} backward per step, bucket_cap_mb={cap}"
        worst = assert_close(replica, reference, what)
        assert_same_on_every_rank(replica, what)
        if RANK == 0:
            print(f"{what}: largest relative difference {worst:.1e}, {len(ddp._reducer.buckets)} buckets")


def check_buckets_launch_during_backward() -> None:
    """When the first layer's gradient arrives (last in backward), the later layers' buckets are already
    being all-reduced."""
    model = cnn()
    ddp = DDP(model, bucket_cap_mb=0.001)
    launched = []
    for param in model[0].parameters():  # the last bucket holds the first layer's weight and bias
        param.register_post_accumulate_grad_hook(lambda p: launched.append(ddp._reducer.next_bucket))
    x, y = batches(1)[0][0]
    nn.functional.cross_entropy(ddp(x[half]), y[half]).backward()
    buckets = len(ddp._reducer.buckets)
    assert buckets == 3 and min(launched) == buckets - 1, (buckets, launched)


check_buckets_launch_during_backward()


class TwoHeads(nn.Module):
    """``used`` always takes part in the loss; ``sometimes`` only on rank 0; ``never`` on no rank."""

    def __init__(self) -> None:
        super().__init__()
        tf.manual_seed(0)
        self.used, self.sometimes, self.never = nn.Linear(4, 2), nn.Linear(4, 2), nn.Linear(4, 2)

    def forward(self, x: tf.Tensor) -> tf.Tensor:
        return self.used(x) + (self.sometimes(x) if RANK == 0 else 0)


def check_unused_parameters() -> None:
    x = tf.ones(2, 4).to(DEVICE) * (RANK + 1)
    model = TwoHeads().to(DEVICE)
    ddp = DDP(model, find_unused_parameters=True)
    ddp(x).sum().backward()
    assert model.never.weight.grad is None, "a parameter unused on every rank keeps grad None"
    np.testing.assert_allclose(model.used.weight.grad.cpu().numpy(), np.full((2, 4), 3.0))  # (2*1 + 2*2) / 2
    np.testing.assert_allclose(model.sometimes.weight.grad.cpu().numpy(), np.full((2, 4), 1.0))  # (2*1 + 0) / 2
    strict = DDP(TwoHeads().to(DEVICE))
    strict(x).sum().backward()
    try:
        strict(x)
        raise AssertionError("an unused parameter without find_unused_parameters must fail at the next forward")
    except RuntimeError as error:
        assert "find_unused_parameters=True" in str(error) and "never.weight" in str(error), error


def check_models_of_different_shapes_fail() -> None:
    tf.manual_seed(0)
    try:
        DDP(nn.Linear(4, 5 + RANK).to(DEVICE))
        raise AssertionError("models of different shapes must fail")
    except RuntimeError as error:
        assert "differs across ranks" in str(error) and "[5, 4]" in str(error) and "[6, 4]" in str(error), error


if WORLD == 2:  # these expect two ranks (the nccl run has one where one GPU is present)
    check_unused_parameters()
    check_models_of_different_shapes_fail()


def bn_net(sync: bool) -> nn.Module:
    tf.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(1, 3, 3), nn.BatchNorm2d(3), nn.ReLU(), nn.Flatten(), nn.Linear(3 * 6 * 6, 4),
                        nn.BatchNorm1d(4), nn.Linear(4, 3)).to(DEVICE)
    return nn.SyncBatchNorm.convert_sync_batchnorm(net) if sync else net


data = batches(1)
reference = bn_net(sync=False)
train(reference, "sgd", data, slice(None))
synced = bn_net(sync=True)
assert isinstance(synced[1], nn.SyncBatchNorm) and isinstance(synced[5], nn.SyncBatchNorm)
train(synced, "sgd", data, half, DDP(synced))
assert_close(synced, reference, "SyncBatchNorm")  # parameters and running statistics

dist.destroy_process_group()
print(f"rank {RANK}: DistributedDataParallel checks passed", flush=True)
