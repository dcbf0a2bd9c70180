"""Samplers: which dataset indices a DataLoader visits, and in which order.

The built-in samplers draw an epoch's order as NumPy index arrays with PyTorch's draws (the same
orders as PyTorch after the same ``manual_seed``; ``RandomSampler`` without a generator seeds a fresh
one from one int64 draw of the global generator, as PyTorch does). Most draw the whole epoch as one
array; ``RandomSampler`` draws it in chunks as it is consumed, so an endless stream
(``num_samples=int(1e10)``, as minGPT's trainer asks) costs no more memory than a short one.
``BatchSampler`` slices those arrays into batches without a Python step per sample.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sized
from typing import Any, Generic, TypeVar, cast

import numpy as np

from ... import random
from ...creation import as_tensor
from ...device import CPU
from ...dtypes import float64
from ...ops.sampling import multinomial
from ...random import Generator, generator_for

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler", "WeightedRandomSampler",
           "BatchSampler"]

T_co = TypeVar("T_co", covariant=True)
_CHUNK = 1 << 16  # indices RandomSampler draws at a time with replacement


class Sampler(Generic[T_co]):
    """Base class of samplers: an iterable over dataset indices (or batches of them) with a length."""

    def __iter__(self) -> Iterator[T_co]:
        raise NotImplementedError(f"{type(self).__name__} must implement __iter__")


class _ArraySampler(Sampler[int]):
    """A sampler whose epoch is a sequence of index arrays (by default the one ``_index_array``);
    iterating it yields their entries as ints."""

    def _index_array(self) -> np.ndarray:
        raise NotImplementedError

    def _index_chunks(self) -> Iterator[np.ndarray]:
        yield self._index_array()

    def __iter__(self) -> Iterator[int]:
        return itertools.chain.from_iterable(chunk.tolist() for chunk in self._index_chunks())


def _generator(generator: Generator | None) -> Generator:
    return generator_for(CPU, generator)


class SequentialSampler(_ArraySampler):
    """Samples ``0, 1, ..., len(data_source) - 1`` in order."""

    def __init__(self, data_source: Sized) -> None:
        self.data_source = data_source

    def _index_array(self) -> np.ndarray:
        return np.arange(len(self.data_source), dtype=np.int64)

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(_ArraySampler):
    """Samples indices of ``data_source`` in a random order, a new one each epoch.

    Without replacement every index appears once per ``len(data_source)`` samples (whole
    permutations, then a partial one when ``num_samples`` is larger); with ``replacement=True``
    ``num_samples`` indices are drawn uniformly and independently.

    Args:
        data_source: the dataset (anything with ``len``).
        replacement: draw with replacement.
        num_samples: how many indices an epoch yields (default ``len(data_source)``).
        generator: the ``tinyframe.Generator`` to draw from (default: the global CPU generator).
    """

    def __init__(self, data_source: Sized, replacement: bool = False, num_samples: int | None = None,
                 generator: Generator | None = None) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={replacement}")
        if not isinstance(self.num_samples, int) or isinstance(self.num_samples, bool) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def _index_chunks(self) -> Iterator[np.ndarray]:
        n, count = len(self.data_source), self.num_samples
        gen = self.generator
        if gen is None:  # PyTorch seeds a fresh generator from one int64 draw of the global one
            gen = Generator().manual_seed(int(random.random_bits(_generator(None), (), np.int64)))
        if self.replacement:  # the draws are sequential: any chunking gives PyTorch's stream
            for start in range(0, count, _CHUNK):
                yield random.randint(gen, (min(_CHUNK, count - start),), np.int64, 0, n)
            return
        whole, part = divmod(count, n)
        for _ in range(whole):
            yield random.randperm(gen, n)
        yield random.randperm(gen, n)[:part]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(_ArraySampler):
    """Samples the given ``indices`` in a random order (without replacement), a new one each epoch."""

    def __init__(self, indices: Any, generator: Generator | None = None) -> None:
        self.indices = indices
        self.generator = generator

    def _index_array(self) -> np.ndarray:
        indices = np.asarray(self.indices, dtype=np.int64)
        return indices[random.randperm(_generator(self.generator), len(indices))]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(_ArraySampler):
    """Samples ``num_samples`` indices in ``[0, len(weights))``, index ``i`` with probability
    proportional to ``weights[i]`` (the weights need not sum to one), a new draw each epoch.

    Without replacement, each index is drawn at most once: indices are ordered by ``w_i / E_i`` with
    ``E_i`` exponential draws (PyTorch's ``multinomial`` method), so zero-weight indices come
    only after all the others.

    Args:
        weights (sequence): the weights, one per index (stored as a float64 tensor).
        num_samples (int): how many indices an epoch yields.
        replacement (bool): draw with replacement (default: True).
        generator: the ``tinyframe.Generator`` to draw from (default: the global CPU generator).

    Example::

        >>> list(WeightedRandomSampler([0.1, 0.9, 0.4, 0.7, 3.0, 0.6], 5, replacement=True))  # doctest: +SKIP
        [4, 4, 1, 4, 5]
    """

    def __init__(self, weights: Any, num_samples: int, replacement: bool = True,
                 generator: Generator | None = None) -> None:
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got replacement={replacement}")
        weights_tensor = as_tensor(weights, dtype=float64)
        if weights_tensor.ndim != 1:
            raise ValueError(f"weights should be a 1d sequence but given weights have shape "
                             f"{tuple(weights_tensor.shape)}")
        self.weights = weights_tensor
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def _index_array(self) -> np.ndarray:
        picks = multinomial(self.weights, self.num_samples, self.replacement, generator=self.generator)
        return np.asarray(picks._data)

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler[list]):
    """Groups the indices of ``sampler`` into lists of ``batch_size``.

    ``list(BatchSampler(SequentialSampler(range(10)), 3, drop_last=False))`` is
    ``[[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]``; with ``drop_last=True`` the short last batch is dropped.
    """

    def __init__(self, sampler: Sampler[int] | Iterable[int], batch_size: int, drop_last: bool) -> None:
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list]:
        return (batch.tolist() if isinstance(batch, np.ndarray) else batch for batch in self._index_batches())

    def _index_batches(self) -> Iterator[np.ndarray | list]:
        """The batches as index arrays when the sampler draws its epoch as arrays (the fast path of
        the DataLoader), else as lists built from the sampler's iterator."""
        if type(self.sampler).__iter__ is _ArraySampler.__iter__:
            return self._array_batches(cast(_ArraySampler, self.sampler)._index_chunks())
        return chunks(iter(self.sampler), self.batch_size, self.drop_last)

    def _array_batches(self, orders: Iterator[np.ndarray]) -> Iterator[np.ndarray]:
        """Slices of ``size`` from the concatenation of ``orders``; a batch may span two of them."""
        size = self.batch_size
        rest = np.empty(0, dtype=np.int64)
        for order in orders:
            order = np.concatenate((rest, order)) if len(rest) else order
            stop = len(order) - len(order) % size
            for start in range(0, stop, size):
                yield order[start:start + size]
            rest = order[stop:]
        if len(rest) and not self.drop_last:
            yield rest

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size  # type: ignore[arg-type]  # Sampler declares no __len__, as PyTorch's
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size  # type: ignore[arg-type]  # Sampler declares no __len__, as PyTorch's


def chunks(items: Iterator, size: int, drop_last: bool) -> Iterator[list]:
    """Consecutive lists of ``size`` items; the short last one unless ``drop_last``."""
    chunk = list(itertools.islice(items, size))
    while chunk and (len(chunk) == size or not drop_last):
        yield chunk
        chunk = list(itertools.islice(items, size))
