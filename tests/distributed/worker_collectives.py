"""Run under ``mpiexec -n 2``: every collective against a NumPy reference, for every ReduceOp and dtype,
and the errors of mismatched or misused collectives. Usage: worker_collectives.py [mpi|nccl]."""
import sys

import numpy as np

import tinyframe as tf
import tinyframe.distributed as dist
from tinyframe.distributed import ReduceOp

dist.init_process_group(sys.argv[1] if len(sys.argv) > 1 else "mpi")
RANK, WORLD = dist.get_rank(), dist.get_world_size()
DEVICE = "cuda" if dist.get_backend() == "nccl" else "cpu"
DTYPES = ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool"]
if DEVICE == "cuda":
    DTYPES.remove("int16")  # NCCL has no 16-bit integers
REFERENCES = {
    ReduceOp.SUM: lambda a: np.add.reduce(a, axis=0, dtype=a.dtype),
    ReduceOp.AVG: lambda a: np.add.reduce(a, axis=0, dtype=a.dtype) / a.dtype.type(len(a)),
    ReduceOp.PRODUCT: lambda a: np.multiply.reduce(a, axis=0, dtype=a.dtype),
    ReduceOp.MIN: lambda a: a.min(axis=0),
    ReduceOp.MAX: lambda a: a.max(axis=0),
}
BOOL_REFERENCES = {ReduceOp.SUM: np.any, ReduceOp.MAX: np.any, ReduceOp.PRODUCT: np.all, ReduceOp.MIN: np.all}
checks = 0


def values(rank: int, dtype: str, shape: tuple = (2, 3)) -> np.ndarray:
    """Rank ``rank``'s input: small numbers, exact in every dtype (quarters for floats)."""
    draws = np.random.default_rng(100 + rank).integers(-3, 4, shape)
    if dtype == "uint8":
        draws = np.abs(draws)
    if dtype == "bool":
        return draws > 0
    if dtype.startswith("float"):
        return (draws + 0.25).astype(dtype)
    return draws.astype(dtype)


def every_rank(dtype: str, shape: tuple = (2, 3)) -> np.ndarray:
    return np.stack([values(r, dtype, shape) for r in range(WORLD)])


def tensor(array: np.ndarray) -> tf.Tensor:
    return tf.tensor(array).to(DEVICE)


def check(result: tf.Tensor, expected: np.ndarray, what: str) -> None:
    global checks
    got = result.cpu().numpy()
    assert got.dtype == expected.dtype, f"{what}: dtype {got.dtype}, expected {expected.dtype}"
    assert np.array_equal(got, expected), f"{what}: got {got}, expected {expected}"
    checks += 1


def expect_error(kind: type, words: list, call) -> None:  # noqa: ANN001
    global checks
    try:
        call()
    except kind as error:
        assert all(word in str(error) for word in words), f"{kind.__name__} {error!s} lacks {words}"
        checks += 1
        return
    raise AssertionError(f"expected {kind.__name__} with {words}")


for dtype in DTYPES:
    for op in ReduceOp:
        if op is ReduceOp.AVG and not dtype.startswith("float"):
            expect_error(TypeError, ["AVG", dtype], lambda op=op, dtype=dtype: dist.all_reduce(
                tensor(values(RANK, dtype)), op))
            continue
        stacked = every_rank(dtype)
        expected = BOOL_REFERENCES[op](stacked, axis=0) if dtype == "bool" else REFERENCES[op](stacked)
        t = tensor(values(RANK, dtype))
        assert dist.all_reduce(t, op) is None
        check(t, expected, f"all_reduce {op} {dtype}")
        t = tensor(values(RANK, dtype))
        work = dist.all_reduce(t, op, async_op=True)
        assert work.wait() and work.is_completed()
        check(t, expected, f"async all_reduce {op} {dtype}")
        transposed = tensor(values(RANK, dtype).T.copy()).t()  # a non-contiguous view is reduced in place
        dist.all_reduce(transposed, op)
        check(transposed, expected, f"non-contiguous all_reduce {op} {dtype}")
        rows = every_rank(dtype, (WORLD, 3))  # rank r's input_list: the rows of rows[r]
        row_expected = BOOL_REFERENCES[op](rows, axis=0) if dtype == "bool" else REFERENCES[op](rows)
        outputs = tensor(np.zeros(3, dtype))
        dist.reduce_scatter(outputs, [tensor(row) for row in rows[RANK]], op)
        check(outputs, row_expected[RANK], f"reduce_scatter {op} {dtype}")

    stacked = every_rank(dtype)
    t = tensor(values(RANK, dtype))
    dist.broadcast(t, src=WORLD - 1)
    check(t, stacked[-1], f"broadcast {dtype}")
    gathered = [tensor(np.zeros((2, 3), dtype)) for _ in range(WORLD)]
    dist.all_gather(gathered, tensor(values(RANK, dtype)), async_op=True).wait()
    for r in range(WORLD):
        check(gathered[r], stacked[r], f"all_gather {dtype}")
    gathered = [tensor(np.zeros((2, 3), dtype)) for _ in range(WORLD)] if RANK == 0 else None
    dist.gather(tensor(values(RANK, dtype)), gathered, dst=0)
    for r in range(WORLD if RANK == 0 else 0):
        check(gathered[r], stacked[r], f"gather {dtype}")
    t = tensor(np.zeros((2, 3), dtype))
    dist.scatter(t, [tensor(values(r, dtype)) for r in range(WORLD)] if RANK == WORLD - 1 else None, src=WORLD - 1)
    check(t, stacked[RANK], f"scatter {dtype}")

objects = [None] * WORLD
dist.all_gather_object(objects, {"rank": RANK, "name": f"r{RANK}"})
assert objects == [{"rank": r, "name": f"r{r}"} for r in range(WORLD)], objects
shared = ["from rank 0", 3] if RANK == 0 else [None, None]
dist.broadcast_object_list(shared, src=0)
assert shared == ["from rank 0", 3], shared
checks += 2

if WORLD == 2:  # a mismatch needs two ranks (the nccl run has one where one GPU is present)
    expect_error(RuntimeError, ["all_reduce", "rank 0 has shape [3] float32", "rank 1 has shape [4] float32"],
                 lambda: dist.all_reduce(tensor(np.ones(3 + RANK, "float32"))))
    expect_error(RuntimeError, ["broadcast", "rank 0 has shape [3] float32", "rank 1 has shape [3] float64"],
                 lambda: dist.broadcast(tensor(np.ones(3, ["float32", "float64"][RANK])), src=0))
expect_error(ValueError, ["tensor_list", f"world_size={WORLD}", f"got {WORLD + 1}"],
             lambda: dist.all_gather([tensor(np.ones(3, "float32"))] * (WORLD + 1), tensor(np.ones(3, "float32"))))
expect_error(ValueError, ["src=5", f"world_size={WORLD}"], lambda: dist.broadcast(tensor(np.ones(3, "float32")), 5))
if WORLD == 2:  # wrong arguments on one rank only: that rank raises its error, the others say which rank failed
    ones = tensor(np.ones(3, "float32"))
    expect_error(ValueError if RANK == 0 else RuntimeError, ["gather_list", "world_size=2"] + (
        ["gather: rank 0 failed: ValueError"] if RANK else []), lambda: dist.gather(ones, [ones] * (1 - RANK), dst=0))
expect_error(ValueError, ["twice"], lambda: dist.init_process_group("mpi"))
dist.barrier()
dist.destroy_process_group()
assert not dist.is_initialized()
print(f"rank {RANK}: {checks} collective checks passed", flush=True)
