"""``DistributedSampler``: each rank's share of a dataset, as ``torch.utils.data.distributed``'s."""
from __future__ import annotations

import math
from collections.abc import Sized

import numpy as np

from ... import distributed as dist
from .sampler import _ArraySampler

__all__ = ["DistributedSampler"]


def pytorch_randperm(n: int, seed: int) -> np.ndarray:
    """``torch.randperm(n, generator=torch.Generator().manual_seed(seed))``, the same numbers.

    PyTorch's CPU generator is a Mersenne Twister (MT19937) initialised with the low 32 bits of the
    seed; ``randperm`` swaps entry ``i`` with entry ``i + r_i % (n - i)`` for ``i = 0 .. n-2``, ``r_i``
    the generator's 32-bit outputs (its algorithm for ``n`` below 2**32 / 20). NumPy's legacy seeding
    of MT19937 is the same initialisation, so its raw outputs are PyTorch's.
    """
    key = np.random.RandomState(seed & 0xFFFFFFFF).get_state(legacy=False)["state"]["key"]
    twister = np.random.MT19937()
    twister.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": 624}}
    draws = twister.random_raw(max(n - 1, 0)).tolist()
    order = list(range(n))
    for i, draw in enumerate(draws):
        j = i + draw % (n - i)
        order[i], order[j] = order[j], order[i]
    return np.array(order, dtype=np.int64)


class DistributedSampler(_ArraySampler):
    """The indices of ``dataset`` that rank ``rank`` of ``num_replicas`` visits in an epoch.

    The epoch's order (a permutation seeded with ``seed + epoch`` when ``shuffle``, else
    ``0 .. len-1``) is padded by repeating its start to a multiple of ``num_replicas`` (or, with
    ``drop_last``, cut to one), and rank ``r`` takes every ``num_replicas``-th index from ``r`` on. The
    permutation is the one ``torch.randperm`` draws for that seed, so the partition is PyTorch's.
    Call ``set_epoch(epoch)`` before each epoch for a new order. ``num_replicas`` and ``rank`` default
    to those of the default process group.
    """

    def __init__(self, dataset: Sized, num_replicas: int | None = None, rank: int | None = None,
                 shuffle: bool = True, seed: int = 0, drop_last: bool = False) -> None:
        if num_replicas is None:
            num_replicas = dist.get_world_size()
        if rank is None:
            rank = dist.get_rank()
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank {rank}, rank should be in the interval [0, {num_replicas - 1}]")
        self.dataset, self.num_replicas, self.rank = dataset, num_replicas, rank
        self.epoch, self.drop_last, self.shuffle, self.seed = 0, drop_last, shuffle, seed
        if drop_last and len(dataset) % num_replicas != 0:
            self.num_samples = math.ceil((len(dataset) - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(len(dataset) / num_replicas)
        self.total_size = self.num_samples * num_replicas

    def _index_array(self) -> np.ndarray:
        n = len(self.dataset)
        order = pytorch_randperm(n, self.seed + self.epoch) if self.shuffle else np.arange(n, dtype=np.int64)
        if self.drop_last:
            order = order[:self.total_size]
        else:
            order = np.resize(order, self.total_size)  # repeats the order from its start to fill
        return order[self.rank:self.total_size:self.num_replicas]

    def __len__(self) -> int:
        return self.num_samples

    def set_epoch(self, epoch: int) -> None:
        """Sets the epoch, which seeds the shuffle: every rank must set the same one."""
        self.epoch = epoch
