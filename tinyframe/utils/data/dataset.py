"""Datasets: ``Dataset``, ``IterableDataset``, ``TensorDataset``, ``Subset``, ``ConcatDataset``,
``random_split``."""
from __future__ import annotations

import bisect
import itertools
import math
import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Generic, NoReturn, TypeVar

import numpy as np

from ... import random
from ...device import CPU, device_of, move_array
from ...random import Generator, default_generator, generator_for
from ...tensor import Tensor

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "Subset", "ConcatDataset", "ChainDataset", "StackDataset",
           "random_split"]

T_co = TypeVar("T_co", covariant=True)


class Dataset(Generic[T_co]):
    """A map-style dataset: ``dataset[i]`` is the i-th sample; subclasses define ``__getitem__`` and
    usually ``__len__``. ``a + b`` concatenates two datasets."""

    def __getitem__(self, index: Any) -> T_co:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Dataset) -> ConcatDataset:
        return ConcatDataset([self, other])


class IterableDataset(Dataset[T_co]):
    """A dataset that is a stream of samples: subclasses define ``__iter__``.

    A DataLoader reads it in order (no sampler, no shuffle) and batches consecutive samples.
    """

    def __iter__(self) -> Iterator[T_co]:
        raise NotImplementedError(f"{type(self).__name__} must implement __iter__")

    def __add__(self, other: Dataset) -> NoReturn:
        raise TypeError("ConcatDataset does not support IterableDataset")


class TensorDataset(Dataset[tuple]):
    """Samples are slices of tensors along their first dimension: ``dataset[i] = (t[i] for t in tensors)``.

    A DataLoader with the default collate function reads a whole batch of a TensorDataset with one
    index array per tensor, not one ``__getitem__`` per sample.
    """

    def __init__(self, *tensors: Tensor) -> None:
        if not tensors:
            raise ValueError("TensorDataset needs at least one tensor")
        for i, t in enumerate(tensors):
            if not isinstance(t, Tensor):
                raise TypeError(f"TensorDataset expects Tensors, got {type(t).__name__} at position {i}")
            if t.ndim == 0:
                raise ValueError(f"TensorDataset needs tensors with a first dimension to index, got a "
                                 f"0-d tensor at position {i}")
        sizes = [t.shape[0] for t in tensors]
        if any(size != sizes[0] for size in sizes):
            raise AssertionError("Size mismatch between tensors")  # PyTorch's words, exactly
        self.tensors = tensors

    def __getitem__(self, index: Any) -> tuple:
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].shape[0]

    def _get_batch(self, indices: np.ndarray) -> list:
        """The collated batch at ``indices``: one fancy index per tensor (a new ``[B, ...]`` tensor)."""
        return [_take(t, indices) for t in self.tensors]


def _take(t: Tensor, indices: np.ndarray) -> Tensor:
    data = t._data
    if not isinstance(data, np.ndarray):
        indices = move_array(indices, device_of(data))
    if t._requires_grad:  # through the indexing op, so the batch stays in the graph as stack would
        return t[Tensor._make(indices)]
    return Tensor._make(data[indices])


class Subset(Dataset[T_co]):
    """The samples of ``dataset`` at ``indices``: ``subset[i] = dataset[indices[i]]``."""

    def __init__(self, dataset: Dataset[T_co], indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, list):
            return self.dataset[[self.indices[i] for i in index]]
        return self.dataset[self.indices[index]]

    def __getitems__(self, indices: list) -> list:
        """The samples at ``indices`` (through a subclass's own ``__getitem__`` when it has one)."""
        if type(self).__getitem__ is not Subset.__getitem__:
            return [self[i] for i in indices]
        getitems = getattr(self.dataset, "__getitems__", None)
        if callable(getitems):
            return getitems([self.indices[i] for i in indices])
        return [self.dataset[self.indices[i]] for i in indices]

    def __len__(self) -> int:
        return len(self.indices)


class ConcatDataset(Dataset[T_co]):
    """The samples of several datasets one after another."""

    datasets: list
    cumulative_sizes: list

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, index: int) -> T_co:
        if index < 0:
            if -index > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            index += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, index)
        offset = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][index - offset]


class ChainDataset(IterableDataset):
    """Iterable datasets read one after another (the streaming counterpart of ``ConcatDataset``)."""

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        self.datasets = datasets

    def __iter__(self) -> Iterator:
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            yield from d

    def __len__(self) -> int:
        total = 0
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            total += len(d)  # type: ignore[arg-type]  # no __len__ declared, as in PyTorch
        return total


class StackDataset(Dataset):
    """Datasets of one length read side by side: ``StackDataset(a, b)[i]`` is ``(a[i], b[i])``, and
    ``StackDataset(image=a, label=b)[i]`` is ``{"image": a[i], "label": b[i]}``."""

    def __init__(self, *args: Dataset, **kwargs: Dataset) -> None:
        if args and kwargs:
            raise ValueError("Supported either ``tuple``- (via ``args``) or``dict``- (via ``kwargs``) like "
                             "input/output, but both types are given.")
        if not args and not kwargs:
            raise ValueError("At least one dataset should be passed")
        datasets = list(args) if args else list(kwargs.values())
        self._length = len(datasets[0])  # type: ignore[arg-type]  # no __len__ declared, as in PyTorch
        if any(self._length != len(d) for d in datasets):  # type: ignore[arg-type]  # no __len__ declared, as in PyTorch
            raise ValueError("Size mismatch between datasets")
        self.datasets: tuple | dict = args if args else kwargs

    def __getitem__(self, index: int) -> tuple | dict:
        if isinstance(self.datasets, dict):
            return {key: d[index] for key, d in self.datasets.items()}
        return tuple(d[index] for d in self.datasets)

    def __len__(self) -> int:
        return self._length


def random_split(dataset: Dataset, lengths: Sequence[int | float],
                 generator: Generator | None = default_generator) -> list[Subset]:
    """Splits ``dataset`` into non-overlapping random subsets of the given ``lengths``.

    ``lengths`` are sample counts summing to ``len(dataset)``, or fractions summing to 1: then each
    split gets ``floor(fraction * len(dataset))`` samples and the remainder is dealt one by one to the
    splits in order. The permutation comes from ``generator`` (the global CPU generator by default,
    so ``tinyframe.manual_seed`` makes it reproducible).
    """
    total = len(dataset)  # type: ignore[arg-type]  # no __len__ declared, as in PyTorch
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        counts = []
        for i, fraction in enumerate(lengths):
            if fraction < 0 or fraction > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            counts.append(math.floor(total * fraction))
        for i in range(total - sum(counts)):
            counts[i % len(counts)] += 1
        for i, count in enumerate(counts):
            if count == 0:
                warnings.warn(f"Length of split at index {i} is 0. This might result in an empty dataset.",
                              stacklevel=2)
        lengths = counts
    if sum(lengths) != total:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = random.randperm(generator_for(CPU, generator), total).tolist()
    return [Subset(dataset, order[end - length:end])
            for end, length in zip(itertools.accumulate(lengths), lengths)]
