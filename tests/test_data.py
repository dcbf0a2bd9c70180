"""Tests for ``tinyframe.utils.data``: datasets, samplers, collation and the DataLoader."""
from __future__ import annotations

import collections
import re
from typing import Any

import numpy as np
import pytest

import tinyframe
from tinyframe.utils.data import (
    BatchSampler,
    ChainDataset,
    ConcatDataset,
    DataLoader,
    Dataset,
    DistributedSampler,
    IterableDataset,
    RandomSampler,
    SequentialSampler,
    StackDataset,
    Subset,
    SubsetRandomSampler,
    TensorDataset,
    WeightedRandomSampler,
    default_collate,
    default_convert,
    get_worker_info,
    random_split,
)


def make_dataset(n: int = 10, device: str = "cpu") -> TensorDataset:
    x = tinyframe.tensor(np.arange(n * 3, dtype=np.float32).reshape(n, 3), device=device)
    y = tinyframe.tensor(np.arange(n), device=device)
    return TensorDataset(x, y)


class Squares(Dataset):
    """A map-style dataset of (array, label) samples built in Python, one per __getitem__."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.calls = 0

    def __getitem__(self, index: int) -> tuple:
        self.calls += 1
        return np.full(2, index * index, dtype=np.float32), index

    def __len__(self) -> int:
        return self.n


class CountingArray(np.ndarray):
    """An ndarray that records every __getitem__ index (to see how a batch is read)."""

    calls: list = []

    def __getitem__(self, index: Any) -> Any:
        CountingArray.calls.append(index)
        return super().__getitem__(index)


def labels(loader: DataLoader) -> list:
    return [batch[1].tolist() for batch in loader]


# ----------------------------------------------------------------------------------------- datasets
def test_tensor_dataset_length_and_items() -> None:
    ds = make_dataset(5)
    assert len(ds) == 5
    x, y = ds[2]
    assert x.tolist() == [6.0, 7.0, 8.0] and y.item() == 2


def test_tensor_dataset_rejects_mismatched_first_dims() -> None:
    with pytest.raises(AssertionError, match=r"^Size mismatch between tensors$"):
        TensorDataset(tinyframe.zeros(4, 2), tinyframe.zeros(3))


def test_tensor_dataset_rejects_non_tensors_and_scalars() -> None:
    with pytest.raises(TypeError, match="expects Tensors, got ndarray at position 1"):
        TensorDataset(tinyframe.zeros(3), np.zeros(3))
    with pytest.raises(ValueError, match="0-d tensor at position 0"):
        TensorDataset(tinyframe.tensor(1.0))
    with pytest.raises(ValueError, match="at least one tensor"):
        TensorDataset()


def test_subset_maps_indices() -> None:
    ds = Squares(10)
    sub = Subset(ds, [7, 2, 5])
    assert len(sub) == 3
    assert sub[0][1] == 7 and sub[-1][1] == 5
    assert [label for _, label in sub.__getitems__([2, 0])] == [5, 7]


def test_concat_dataset_indexes_across_parts() -> None:
    both = Squares(3) + Squares(4)
    assert isinstance(both, ConcatDataset)
    assert len(both) == 7 and both.cumulative_sizes == [3, 7]
    assert [both[i][1] for i in range(7)] == [0, 1, 2, 0, 1, 2, 3]
    assert both[-1][1] == 3
    with pytest.raises(ValueError, match="should not exceed dataset length"):
        both[-8]
    with pytest.raises(AssertionError, match="empty iterable"):
        ConcatDataset([])


def test_random_split_with_lengths_is_a_disjoint_cover() -> None:
    a, b = random_split(range(10), [7, 3])
    assert (len(a), len(b)) == (7, 3)
    assert sorted(list(a) + list(b)) == list(range(10))


def test_random_split_with_fractions_deals_the_remainder_in_order() -> None:
    parts = random_split(range(10), [0.33, 0.33, 0.34])
    assert [len(p) for p in parts] == [4, 3, 3]
    with pytest.warns(UserWarning, match="Length of split at index") as caught:
        parts = random_split(range(3), [0.9, 0.05, 0.05])
    assert [len(p) for p in parts] == [3, 0, 0]
    assert [str(w.message)[:31] for w in caught] == [f"Length of split at index {i} is 0" for i in (1, 2)]


def test_random_split_is_reproducible() -> None:
    tinyframe.manual_seed(3)
    first = [list(p) for p in random_split(range(20), [0.5, 0.5])]
    tinyframe.manual_seed(3)
    assert [list(p) for p in random_split(range(20), [0.5, 0.5])] == first
    g1 = tinyframe.Generator().manual_seed(42)
    g2 = tinyframe.Generator().manual_seed(42)
    assert [list(p) for p in random_split(range(20), [5, 15], generator=g1)] == \
           [list(p) for p in random_split(range(20), [5, 15], generator=g2)]


def test_random_split_rejects_bad_lengths() -> None:
    with pytest.raises(ValueError, match="Sum of input lengths does not equal"):
        random_split(range(10), [3, 3])
    with pytest.raises(ValueError, match="Fraction at index 1 is not between 0 and 1"):
        random_split(range(10), [0.5, 1.5, -1.0])


# ----------------------------------------------------------------------------------------- samplers
def test_sequential_and_batch_samplers() -> None:
    assert list(SequentialSampler(range(4))) == [0, 1, 2, 3]
    assert list(BatchSampler(SequentialSampler(range(10)), 3, False)) == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    assert list(BatchSampler(SequentialSampler(range(10)), 3, True)) == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    assert list(BatchSampler(range(5), 2, True)) == [[0, 1], [2, 3]]
    assert list(BatchSampler(iter(range(5)), 2, False)) == [[0, 1], [2, 3], [4]]
    assert len(BatchSampler(range(10), 3, False)) == 4 and len(BatchSampler(range(10), 3, True)) == 3
    assert all(type(i) is int for batch in BatchSampler(RandomSampler(range(7)), 3, False) for i in batch)


def test_batch_sampler_validates_arguments() -> None:
    with pytest.raises(ValueError, match="batch_size should be a positive integer value, but got batch_size=0"):
        BatchSampler(range(3), 0, False)
    with pytest.raises(ValueError, match="drop_last should be a boolean value"):
        BatchSampler(range(3), 2, 1)


def test_random_sampler_permutes_and_follows_its_generator() -> None:
    order = list(RandomSampler(range(50), generator=tinyframe.Generator().manual_seed(1)))
    assert sorted(order) == list(range(50)) and order != list(range(50))
    assert list(RandomSampler(range(50), generator=tinyframe.Generator().manual_seed(1))) == order


def test_random_sampler_num_samples_and_replacement() -> None:
    counts = collections.Counter(RandomSampler(range(4), num_samples=10))
    assert sorted(counts.values()) == [2, 2, 3, 3]  # two whole permutations, then half of one
    drawn = list(RandomSampler(range(3), replacement=True, num_samples=100))
    assert len(drawn) == 100 and set(drawn) == {0, 1, 2}
    with pytest.raises(ValueError, match="num_samples should be a positive integer value, but got num_samples=0"):
        RandomSampler(range(3), num_samples=0)
    with pytest.raises(TypeError, match="replacement should be a boolean value"):
        RandomSampler(range(3), replacement=1)


def test_random_sampler_streams_an_endless_epoch_in_chunks() -> None:
    # minGPT's trainer: RandomSampler(ds, replacement=True, num_samples=int(1e10)); PyTorch draws lazily,
    # so the stream starts at once and its prefix is a short sampler's whole epoch
    def sampler(num_samples: int) -> RandomSampler:
        return RandomSampler(range(10), replacement=True, num_samples=num_samples,
                             generator=tinyframe.Generator().manual_seed(0))
    short = list(sampler(140_000))
    endless = iter(sampler(int(1e10)))
    assert [next(endless) for _ in range(140_000)] == short
    batches = iter(BatchSampler(sampler(int(1e10)), 7, drop_last=True))  # batches span the drawn chunks
    assert [i for _ in range(20_000) for i in next(batches)] == short


def test_subset_random_sampler_permutes_its_indices() -> None:
    sampler = SubsetRandomSampler([10, 20, 30, 40])
    assert len(sampler) == 4
    assert sorted(sampler) == [10, 20, 30, 40]


# ----------------------------------------------------------------------------------------- collation
def test_default_collate_numbers_follow_pytorch_dtypes() -> None:
    assert default_collate([1, 2]).dtype == tinyframe.int64
    floats = default_collate([1.0, 2.5])
    assert floats.dtype == tinyframe.float64 and floats.tolist() == [1.0, 2.5]
    assert default_collate([True, False]).dtype == tinyframe.bool
    assert default_collate([np.float32(1), np.float32(2)]).dtype == tinyframe.float32
    assert default_collate([np.int32(1), np.int32(2)]).dtype == tinyframe.int32


def test_default_collate_stacks_arrays_and_tensors_keeping_dtype() -> None:
    batch = default_collate([np.zeros((2, 3), np.int32), np.ones((2, 3), np.int32)])
    assert batch.shape == (2, 2, 3) and batch.dtype == tinyframe.int32
    stacked = default_collate([tinyframe.zeros(3), tinyframe.ones(3)])
    assert stacked.shape == (2, 3) and stacked.dtype == tinyframe.float32
    assert stacked.tolist() == [[0.0] * 3, [1.0] * 3]
    assert default_collate([np.array(1.5), np.array(2.5)]).tolist() == [1.5, 2.5]


def test_default_collate_structures() -> None:
    batch = default_collate([(1, "a", 2.0), (2, "b", 3.0)])
    assert isinstance(batch, list)  # tuples come back as lists, as in PyTorch
    assert batch[0].tolist() == [1, 2] and batch[1] == ("a", "b") and batch[2].dtype == tinyframe.float64
    d = default_collate([{"x": np.ones(2), "y": [1, 2]}, {"x": np.zeros(2), "y": [3, 4]}])
    assert d["x"].shape == (2, 2) and d["x"].dtype == tinyframe.float64
    assert [t.tolist() for t in d["y"]] == [[1, 3], [2, 4]]
    ordered = default_collate([collections.OrderedDict(b=1, a=2)] * 2)
    assert isinstance(ordered, collections.OrderedDict) and list(ordered) == ["b", "a"]
    Point = collections.namedtuple("Point", "x y")
    p = default_collate([Point(1, 2.0), Point(3, 4.0)])
    assert isinstance(p, Point) and p.x.tolist() == [1, 3] and p.y.dtype == tinyframe.float64


def test_default_collate_errors() -> None:
    with pytest.raises(RuntimeError, match="each element in list of batch should be of equal size"):
        default_collate([(1, 2), (1, 2, 3)])
    with pytest.raises(TypeError, match="batch must contain tensors, numpy arrays, numbers, dicts or lists; "
                                        "found <class 'object'>"):
        default_collate([object(), object()])
    with pytest.raises(TypeError, match="found <U1"):
        default_collate([np.array(["a"]), np.array(["b"])])
    with pytest.raises(RuntimeError, match=r"stack expects each tensor to be equal size, but got \[2\] at entry 0 "
                                           r"and \[3\] at entry 1"):
        default_collate([tinyframe.zeros(2), tinyframe.zeros(3)])


def test_default_convert_turns_arrays_into_tensors() -> None:
    converted = default_convert([np.ones(2), 1, (np.float32(1), "a")])
    assert isinstance(converted[0], tinyframe.Tensor) and converted[0].dtype == tinyframe.float64
    assert converted[1] == 1 and converted[2][1] == "a" and converted[2][0].dtype == tinyframe.float32


# ----------------------------------------------------------------------------------------- DataLoader
def test_loader_batches_shapes_dtypes_and_last_partial_batch() -> None:
    loader = DataLoader(make_dataset(10), batch_size=4)
    batches = list(loader)
    assert len(loader) == 3 and len(batches) == 3
    assert all(isinstance(b, list) and len(b) == 2 for b in batches)
    assert [tuple(b[0].shape) for b in batches] == [(4, 3), (4, 3), (2, 3)]
    assert batches[0][0].dtype == tinyframe.float32 and batches[0][1].dtype == tinyframe.int64
    assert labels(loader) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert batches[2][0].tolist() == [[24.0, 25.0, 26.0], [27.0, 28.0, 29.0]]


def test_loader_drop_last() -> None:
    loader = DataLoader(make_dataset(10), batch_size=4, drop_last=True)
    assert len(loader) == 2
    assert labels(loader) == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_loader_default_batch_size_is_one() -> None:
    loader = DataLoader(make_dataset(3))
    assert len(loader) == 3 and [tuple(b[0].shape) for b in loader] == [(1, 3)] * 3


def test_shuffle_is_reproducible_with_manual_seed_and_changes_each_epoch() -> None:
    loader = DataLoader(make_dataset(30), batch_size=8, shuffle=True)
    tinyframe.manual_seed(7)
    epoch1, epoch2 = labels(loader), labels(loader)
    tinyframe.manual_seed(7)
    assert labels(loader) == epoch1
    assert epoch1 != epoch2
    for epoch in (epoch1, epoch2):
        assert sorted(i for batch in epoch for i in batch) == list(range(30))
        assert [len(batch) for batch in epoch] == [8, 8, 8, 6]


def test_shuffle_uses_the_given_generator() -> None:
    def run(seed: int) -> list:
        loader = DataLoader(make_dataset(20), batch_size=5, shuffle=True,
                            generator=tinyframe.Generator().manual_seed(seed))
        return labels(loader)

    tinyframe.manual_seed(1)
    first = run(5)
    tinyframe.manual_seed(2)  # the global generator does not matter
    assert run(5) == first



@pytest.mark.parametrize("workers, persistent, expected", [
    # PyTorch 2.13's epochs for a generator seeded 0: every iterator draws its workers' base seed from the
    # generator, and persistent workers are started (the seed drawn) for the first epoch only
    (2, False, [[3, 7, 5, 2, 0, 8, 1, 6, 9, 4], [1, 3, 2, 7, 5, 9, 0, 6, 4, 8], [6, 8, 5, 7, 2, 4, 1, 0, 3, 9]]),
    (2, True, [[3, 7, 5, 2, 0, 8, 1, 6, 9, 4], [6, 3, 9, 5, 0, 4, 7, 2, 1, 8], [1, 8, 4, 3, 0, 9, 5, 6, 7, 2]]),
])
def test_persistent_workers_draw_the_base_seed_once(workers: int, persistent: bool, expected: list) -> None:
    loader = DataLoader(TensorDataset(tinyframe.arange(10)), batch_size=5, shuffle=True, num_workers=workers,
                        persistent_workers=persistent, generator=tinyframe.Generator().manual_seed(0))
    assert [[i for batch in loader for i in batch[0].tolist()] for _ in range(3)] == expected

def test_tensor_dataset_batches_are_one_fancy_index_per_tensor(monkeypatch: pytest.MonkeyPatch) -> None:
    x = tinyframe.from_numpy(np.arange(20.0).reshape(10, 2).view(CountingArray))
    y = tinyframe.from_numpy(np.arange(10).view(CountingArray))
    dataset = TensorDataset(x, y)

    def per_sample(self: TensorDataset, index: Any) -> None:
        raise AssertionError("the DataLoader read a TensorDataset sample by sample")

    monkeypatch.setattr(TensorDataset, "__getitem__", per_sample)
    monkeypatch.setattr(CountingArray, "calls", [])
    batches = list(DataLoader(dataset, batch_size=4, shuffle=True))
    assert len(CountingArray.calls) == 2 * 3  # 3 batches, 2 tensors
    assert all(isinstance(index, np.ndarray) and index.dtype == np.int64 for index in CountingArray.calls)
    assert sorted(i for b in batches for i in b[1].tolist()) == list(range(10))
    for bx, by in batches:
        assert bx.tolist() == [[2.0 * i, 2.0 * i + 1] for i in by.tolist()]


def test_subsets_of_a_tensor_dataset_take_the_vectorised_path(monkeypatch: pytest.MonkeyPatch) -> None:
    dataset = make_dataset(10)
    monkeypatch.setattr(TensorDataset, "__getitem__", None)  # any per-sample access would fail
    train, _ = random_split(dataset, [6, 4])
    got = labels(DataLoader(train, batch_size=4))
    assert got == [train.indices[:4], train.indices[4:]]


def test_overridden_getitem_is_honoured() -> None:
    class Doubled(TensorDataset):
        def __getitem__(self, index: int) -> tuple:
            x, y = self.tensors
            return x._data[index] * 2, int(y._data[index])

    loader = DataLoader(Doubled(*make_dataset(4).tensors), batch_size=2)
    first = next(iter(loader))
    assert first[0].tolist() == [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]] and first[1].tolist() == [0, 1]


def test_map_dataset_collates_samples() -> None:
    ds = Squares(5)
    batches = list(DataLoader(ds, batch_size=2))
    assert ds.calls == 5
    assert [b[1].tolist() for b in batches] == [[0, 1], [2, 3], [4]]
    assert batches[1][0].dtype == tinyframe.float32 and batches[1][0].tolist() == [[4.0, 4.0], [9.0, 9.0]]


def test_custom_collate_fn_gets_the_list_of_samples() -> None:
    seen = []
    loader = DataLoader(Squares(5), batch_size=2, collate_fn=lambda samples: seen.append(samples) or len(samples))
    assert list(loader) == [2, 2, 1]
    assert seen[0][1][1] == 1 and isinstance(seen[0], list)
    tensor_batches = list(DataLoader(make_dataset(3), batch_size=2, collate_fn=lambda samples: samples))
    assert len(tensor_batches[0]) == 2 and len(tensor_batches[0][0]) == 2  # samples, not a collated batch


def test_batch_size_none_yields_converted_samples() -> None:
    loader = DataLoader(Squares(3), batch_size=None)
    assert len(loader) == 3
    samples = list(loader)
    assert isinstance(samples[2][0], tinyframe.Tensor) and samples[2][0].tolist() == [4.0, 4.0]
    assert samples[2][1] == 2


def test_custom_sampler_and_batch_sampler() -> None:
    assert labels(DataLoader(make_dataset(6), batch_size=2, sampler=[5, 4, 3, 2, 1, 0])) == [[5, 4], [3, 2], [1, 0]]
    loader = DataLoader(make_dataset(6), batch_sampler=[[0, 5], [1], [2, 3, 4]])
    assert len(loader) == 3
    assert labels(loader) == [[0, 5], [1], [2, 3, 4]]
    assert labels(DataLoader(Squares(6), batch_sampler=[[0, 5], [1]])) == [[0, 5], [1]]


def test_loader_validates_arguments() -> None:
    ds = make_dataset(4)
    with pytest.raises(ValueError, match="sampler option is mutually exclusive with shuffle"):
        DataLoader(ds, sampler=[0, 1], shuffle=True)
    with pytest.raises(ValueError, match="batch_sampler option is mutually exclusive with batch_size"):
        DataLoader(ds, batch_size=2, batch_sampler=[[0]])
    with pytest.raises(ValueError, match="num_workers option should be non-negative"):
        DataLoader(ds, num_workers=-1)
    with pytest.raises(ValueError, match="batch_size=None option disables auto-batching"):
        DataLoader(ds, batch_size=None, drop_last=True)
    with pytest.raises(ValueError, match="persistent_workers option needs num_workers > 0"):
        DataLoader(ds, persistent_workers=True)


def test_num_workers_load_in_process() -> None:
    init_calls = []
    loader = DataLoader(make_dataset(9), batch_size=4, num_workers=2, worker_init_fn=init_calls.append,
                        pin_memory=True, persistent_workers=True)
    assert labels(loader) == [[0, 1, 2, 3], [4, 5, 6, 7], [8]]
    assert init_calls == [0]
    assert get_worker_info() is None


def test_iterable_dataset_batches_the_stream() -> None:
    class Stream(IterableDataset):
        def __iter__(self):
            return iter(range(7))

        def __len__(self) -> int:
            return 7

    loader = DataLoader(Stream(), batch_size=3)
    assert [b.tolist() for b in loader] == [[0, 1, 2], [3, 4, 5], [6]]
    assert len(loader) == 3
    assert [b.tolist() for b in DataLoader(Stream(), batch_size=3, drop_last=True)] == [[0, 1, 2], [3, 4, 5]]
    assert len(DataLoader(Stream(), batch_size=3, drop_last=True)) == 2
    with pytest.raises(ValueError, match="expected unspecified shuffle option, but got shuffle=True"):
        DataLoader(Stream(), shuffle=True)


def test_batches_stay_on_the_dataset_device(device: str) -> None:
    loader = DataLoader(make_dataset(6, device), batch_size=4, shuffle=True)
    for x, y in loader:
        assert x.device.type == device and y.device.type == device
        assert x.cpu().tolist() == [[3.0 * i, 3.0 * i + 1, 3.0 * i + 2] for i in y.cpu().tolist()]


def test_batches_of_tensors_requiring_grad_stay_in_the_graph() -> None:
    x = tinyframe.ones(4, 2, requires_grad=True)
    batch, = next(iter(DataLoader(TensorDataset(x), batch_size=3)))
    assert batch.requires_grad and batch.grad_fn is not None


# ----------------------------------------------------------------- WeightedRandomSampler
def test_weighted_random_sampler_draws_in_proportion_to_the_weights() -> None:
    sampler = WeightedRandomSampler([1.0, 0.0, 3.0], num_samples=4000, generator=tinyframe.Generator().manual_seed(0))
    counts = np.bincount(list(sampler), minlength=3)
    assert len(sampler) == 4000 and counts[1] == 0
    assert counts[2] / counts[0] == pytest.approx(3.0, rel=0.1)
    assert sampler.weights.dtype == tinyframe.float64 and sampler.replacement is True


def test_weighted_random_sampler_follows_its_generator() -> None:
    def draw(seed: int) -> list:
        return list(WeightedRandomSampler([0.2, 0.5, 0.3], 20, generator=tinyframe.Generator().manual_seed(seed)))
    assert draw(7) == draw(7) and draw(7) != draw(8)


def test_weighted_random_sampler_without_replacement_draws_each_index_once_zero_weights_last() -> None:
    for seed in range(5):
        drawn = list(WeightedRandomSampler([0.1, 0.0, 0.5, 0.0], 4, replacement=False,
                                           generator=tinyframe.Generator().manual_seed(seed)))
        assert sorted(drawn[:2]) == [0, 2] and drawn[2:] == [1, 3]


def test_weighted_random_sampler_feeds_a_loader() -> None:
    loader = DataLoader(make_dataset(10), batch_size=4, sampler=WeightedRandomSampler([0.0] * 9 + [1.0], 6))
    assert [batch[0].shape for batch in loader] == [(4, 3), (2, 3)]
    assert all((batch[0][:, 0] == 27).all() for batch in loader)


@pytest.mark.parametrize("args, error, message", [
    (([0.1, 0.2], 0), ValueError, "num_samples should be a positive integer value, but got num_samples=0"),
    (([0.1, 0.2], 2, 1), ValueError, "replacement should be a boolean value, but got replacement=1"),
    (([[0.1, 0.2]], 2), ValueError, "weights should be a 1d sequence but given weights have shape (1, 2)"),
])
def test_weighted_random_sampler_rejects_bad_arguments_as_pytorch(args, error, message) -> None:
    with pytest.raises(error, match=re.escape(message)):
        WeightedRandomSampler(*args)


@pytest.mark.parametrize("args, message", [
    (([0.1, -1.0, 0.5], 2), "invalid multinomial distribution (encountering probability entry < 0)"),
    (([0.0, 0.0], 2), "invalid multinomial distribution (sum of probabilities <= 0)"),
    (([0.1, 0.2, 0.3], 5, False), "cannot sample n_sample > prob_dist.size(-1) samples without replacement"),
])
def test_weighted_random_sampler_raises_pytorchs_errors_when_drawing(args, message) -> None:
    sampler = WeightedRandomSampler(*args)
    with pytest.raises(RuntimeError, match=re.escape(message)):
        list(sampler)


def test_worker_init_fn_is_not_called_without_workers_as_in_pytorch() -> None:
    calls: list = []
    batches = list(DataLoader(range(4), batch_size=2, worker_init_fn=calls.append))
    assert calls == [] and [b.tolist() for b in batches] == [[0, 1], [2, 3]]



# ----------------------------------------------------------------- DistributedSampler, ChainDataset, StackDataset
@pytest.mark.parametrize("n, replicas, drop_last, expected", [
    (10, 3, False, [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]),
    (10, 3, True, [[0, 3, 6], [1, 4, 7], [2, 5, 8]]),
    (2, 5, False, [[0], [1], [0], [1], [0]]),
], ids=["padded", "drop_last", "fewer-samples-than-replicas"])
def test_distributed_sampler_shares_as_pytorch(n, replicas, drop_last, expected) -> None:
    shares = [list(DistributedSampler(range(n), num_replicas=replicas, rank=rank, shuffle=False,
                                      drop_last=drop_last)) for rank in range(replicas)]
    assert shares == expected
    assert [len(DistributedSampler(range(n), replicas, rank, drop_last=drop_last)) for rank in range(replicas)] == [
        len(share) for share in expected]


def test_distributed_sampler_shuffles_alike_in_every_rank_and_per_epoch() -> None:
    samplers = [DistributedSampler(range(12), num_replicas=3, rank=rank, seed=5) for rank in range(3)]
    first = [list(s) for s in samplers]
    assert sorted(sum(first, [])) == list(range(12))
    for s in samplers:
        s.set_epoch(1)
    second = [list(s) for s in samplers]
    assert sorted(sum(second, [])) == list(range(12)) and second != first


class _Count(IterableDataset):
    def __init__(self, n: int) -> None:
        self.n = n

    def __iter__(self):
        return iter(range(self.n))

    def __len__(self) -> int:
        return self.n


def test_chain_dataset_streams_its_datasets_in_turn() -> None:
    chained = ChainDataset([_Count(2), _Count(3)])
    assert list(chained) == [0, 1, 0, 1, 2] and len(chained) == 5
    with pytest.raises(AssertionError, match="ChainDataset only supports IterableDataset"):
        list(ChainDataset([_Count(2), [1]]))


def test_stack_dataset_reads_datasets_side_by_side() -> None:
    assert StackDataset([1, 2], [3, 4])[1] == (2, 4) and len(StackDataset([1, 2], [3, 4])) == 2
    assert StackDataset(a=[1, 2], b=[3, 4])[0] == {"a": 1, "b": 3}
    batch = next(iter(DataLoader(StackDataset(x=[1, 2, 3], y=[4, 5, 6]), batch_size=2)))
    assert batch["y"].tolist() == [4, 5]
    with pytest.raises(ValueError, match="Size mismatch between datasets"):
        StackDataset([1, 2], [3])
    with pytest.raises(ValueError, match="At least one dataset should be passed"):
        StackDataset()


def test_collate_functions_import_from_pytorchs_private_path() -> None:
    from tinyframe.utils.data import default_collate, default_convert
    from tinyframe.utils.data._utils import collate
    assert collate.default_collate is default_collate and collate.default_convert is default_convert
