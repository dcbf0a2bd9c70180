"""``DataLoader``: iterates a dataset in batches.

Loading runs in the calling process. A batch of a ``TensorDataset`` (or of a ``Subset`` of one, as
``random_split`` makes) with the default collate function is read with one fancy index per tensor;
other datasets are read sample by sample (or through their ``__getitems__``) and collated.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Generic, TypeVar

import numpy as np

from ... import random
from ...device import CPU
from ...random import Generator, generator_for
from .collate import default_collate, default_convert
from .dataset import Dataset, IterableDataset, Subset, TensorDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler, chunks

__all__ = ["DataLoader", "get_worker_info"]

T_co = TypeVar("T_co", covariant=True)


def get_worker_info() -> None:
    """Information about the current loader worker: always ``None``, as tinyframe loads data in the
    calling process (PyTorch's value in the main process)."""
    return None


class DataLoader(Generic[T_co]):
    """Iterates ``dataset`` in batches, as ``torch.utils.data.DataLoader``.

    Each epoch (each ``iter(loader)``) visits the indices of ``sampler`` — in order, or in a new random
    order per epoch with ``shuffle=True`` (drawn from ``generator``, else from the global CPU
    generator that ``tinyframe.manual_seed`` seeds) — groups them into batches of ``batch_size``
    (dropping a short last batch when ``drop_last``) and merges each batch with ``collate_fn``
    (``default_collate``: tensors and arrays are stacked to ``[batch_size, *shape]``). With
    ``batch_size=None`` samples come one by one, converted by ``default_convert``.

    Batches stay on the dataset's device (cpu for data built from NumPy); move them with ``.to(device)``.

    Differences from PyTorch: ``num_workers > 0`` is accepted but data is still loaded in the calling
    process (``worker_init_fn``, if given, is called with worker id 0 once per epoch, or only for the
    first with ``persistent_workers``, and ``get_worker_info()`` is ``None``); ``pin_memory``,
    ``timeout``, ``prefetch_factor``, ``multiprocessing_context``, ``pin_memory_device`` and
    ``in_order`` are checked as PyTorch checks them and otherwise have no effect.
    """

    def __init__(self, dataset: Dataset[T_co], batch_size: int | None = 1, shuffle: bool | None = None,
                 sampler: Sampler | Iterable | None = None, batch_sampler: Sampler | Iterable | None = None,
                 num_workers: int = 0, collate_fn: Callable | None = None, pin_memory: bool = False,
                 drop_last: bool = False, timeout: float = 0, worker_init_fn: Callable | None = None,
                 multiprocessing_context: Any = None, generator: Generator | None = None, *,
                 prefetch_factor: int | None = None, persistent_workers: bool = False,
                 pin_memory_device: str = "", in_order: bool = True) -> None:
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing.let "
                             "num_workers > 0 to enable multiprocessing, otherwise set prefetch_factor to None.")
        if prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle not in (False, None):
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle option, "
                                 f"but got shuffle={shuffle}")
            if sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler option, "
                                 f"but got sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified batch_sampler "
                                 f"option, but got batch_sampler={batch_sampler}")
        shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, "
                                 "sampler, and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive "
                             "with drop_last")
        if sampler is None and not self._iterable:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)  # type: ignore[arg-type]  # no __len__ declared, as in PyTorch
        if batch_size is not None and batch_sampler is None and sampler is not None:  # not an IterableDataset
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        auto_collation = batch_size is not None or batch_sampler is not None

        self.dataset = dataset
        self.batch_size = batch_size
        self.drop_last = drop_last
        # Samplers or any iterables of indices (None for an IterableDataset, whose order is its own).
        self.sampler: Any = sampler
        self.batch_sampler: Any = batch_sampler
        self.num_workers = num_workers
        self.collate_fn: Callable = collate_fn or (default_collate if auto_collation else default_convert)
        self.pin_memory = pin_memory
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.generator = generator
        self.prefetch_factor = 2 if num_workers > 0 and prefetch_factor is None else prefetch_factor
        self.persistent_workers = persistent_workers
        self._workers_started = False
        self.pin_memory_device = pin_memory_device
        self.in_order = in_order

    def __iter__(self) -> Iterator[Any]:
        # PyTorch's iterator draws its workers' base seed first, one int64 from the loader's generator,
        # and starts its workers; persistent workers are started, and the seed drawn, for the first epoch only
        if not (self.persistent_workers and self._workers_started):
            random.random_bits(generator_for(CPU, self.generator), (), np.int64)
            if self.num_workers > 0 and self.worker_init_fn is not None:
                self.worker_init_fn(0)
            self._workers_started = True
        if self._iterable:
            return self._stream_batches()
        if self.batch_sampler is None:
            return (self.collate_fn(self.dataset[i]) for i in self.sampler)
        return self._map_batches()

    def _map_batches(self) -> Iterator[Any]:
        fetch = _vectorised_fetch(self.dataset) if self.collate_fn is default_collate else None
        if fetch is not None:
            batches = self.batch_sampler
            if type(batches).__iter__ is BatchSampler.__iter__:
                batches = batches._index_batches()  # index arrays, never Python ints
            for indices in batches:
                yield fetch(np.asarray(indices, dtype=np.int64))
            return
        getitems = getattr(self.dataset, "__getitems__", None)
        for indices in self.batch_sampler:
            samples = getitems(indices) if callable(getitems) else [self.dataset[i] for i in indices]
            yield self.collate_fn(samples)

    def _stream_batches(self) -> Iterator[Any]:
        stream = iter(self.dataset)
        if self.batch_size is None:
            return (self.collate_fn(sample) for sample in stream)
        return (self.collate_fn(batch) for batch in chunks(stream, self.batch_size, self.drop_last))

    def __len__(self) -> int:
        """The number of batches per epoch (samples, with ``batch_size=None``)."""
        if self._iterable:
            length = len(self.dataset)  # type: ignore[arg-type]  # no __len__ declared, as in PyTorch
            if self.batch_size is None:
                return length
            return length // self.batch_size if self.drop_last else -(-length // self.batch_size)
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        return len(self.sampler)


def _vectorised_fetch(dataset: Dataset) -> Callable[[np.ndarray], list] | None:
    """A function reading the collated batch at an index array in one fancy index per tensor, for a
    TensorDataset or a Subset of one whose item access is not overridden; None for other datasets."""
    kind = type(dataset)
    if isinstance(dataset, TensorDataset) and kind.__getitem__ is TensorDataset.__getitem__:
        return dataset._get_batch
    if (isinstance(dataset, Subset) and kind.__getitem__ is Subset.__getitem__
            and type(dataset).__getitems__ is Subset.__getitems__):
        inner = _vectorised_fetch(dataset.dataset)
        if inner is not None:
            return functools.partial(_fetch_subset, inner, np.asarray(dataset.indices, dtype=np.int64))
    return None


def _fetch_subset(inner: Callable[[np.ndarray], list], positions: np.ndarray, indices: np.ndarray) -> list:
    return inner(positions[indices])
