"""Data-loading idioms beyond the basics: class-balanced sampling with WeightedRandomSampler built from
1 / class counts (bincount), SubsetRandomSampler for train/valid index splits (the classic
np.random.shuffle + np.floor(valid_size * num_train) recipe), random_split with fractions and a seeded
Generator, DataLoader(generator=...) reproducibility, a custom BatchSampler that groups by length,
IterableDataset with get_worker_info sharding (num_workers=0), ChainDataset and StackDataset, default_collate
on dicts/namedtuples/numpy, default_convert, and DistributedSampler with num_replicas/rank/set_epoch."""
from collections import namedtuple
import numpy as np
import torch
from torch.utils.data import (Dataset, IterableDataset, DataLoader, TensorDataset, WeightedRandomSampler,
                              SubsetRandomSampler, random_split, ChainDataset, StackDataset, Sampler, get_worker_info)
from torch.utils.data.dataloader import default_collate
from torch.utils.data._utils.collate import default_convert
from torch.utils.data.distributed import DistributedSampler

torch.manual_seed(0)
np.random.seed(0)
X = torch.randn(20, 3)
y = torch.tensor([0] * 14 + [1] * 4 + [2] * 2)
dataset = TensorDataset(X, y)
class_sample_count = torch.bincount(y)
weight = 1. / class_sample_count.float()
samples_weight = weight[y]
print(class_sample_count, samples_weight[:3], samples_weight[-3:])
sampler = WeightedRandomSampler(samples_weight, num_samples=len(samples_weight), replacement=True)
loader = DataLoader(dataset, batch_size=10, sampler=sampler)
counts = torch.zeros(3, dtype=torch.long)
for _, target in loader:
    counts += torch.bincount(target, minlength=3)
print(counts, len(sampler), list(WeightedRandomSampler([0.1, 0.9, 0.4], 5, replacement=True, generator=torch.Generator().manual_seed(3))))
print(list(WeightedRandomSampler([0.1, 0.9, 0.4, 0.0], 3, replacement=False)))

valid_size, num_train = 0.2, len(dataset)
indices = list(range(num_train))
split = int(np.floor(valid_size * num_train))
np.random.shuffle(indices)
train_idx, valid_idx = indices[split:], indices[:split]
train_sampler = SubsetRandomSampler(train_idx)
valid_sampler = SubsetRandomSampler(valid_idx, generator=torch.Generator().manual_seed(1))
print(valid_idx, list(valid_sampler), len(train_sampler))
train_loader = DataLoader(dataset, batch_size=8, sampler=train_sampler)
print([b[1].tolist() for b in train_loader])

g = torch.Generator().manual_seed(42)
train, val, test = random_split(dataset, [0.6, 0.25, 0.15], generator=g)
print(len(train), len(val), len(test), train.indices[:5], type(train).__name__)
a, b = random_split(range(10), [7, 3], generator=torch.Generator().manual_seed(0))
print(list(a), list(b))


def seed_worker(worker_id):
    worker_seed = torch.initial_seed() % 2**32
    np.random.seed(worker_seed)


g1 = torch.Generator()
g1.manual_seed(0)
l1 = DataLoader(dataset, batch_size=5, shuffle=True, worker_init_fn=seed_worker, generator=g1)
g2 = torch.Generator()
g2.manual_seed(0)
l2 = DataLoader(dataset, batch_size=5, shuffle=True, worker_init_fn=seed_worker, generator=g2)
print([b[1].tolist() for b in l1] == [b[1].tolist() for b in l2], [b[1].tolist() for b in l1][0])


class LengthGroupedBatchSampler(Sampler):
    def __init__(self, lengths, batch_size):
        self.lengths, self.batch_size = lengths, batch_size

    def __iter__(self):
        order = sorted(range(len(self.lengths)), key=lambda i: self.lengths[i])
        batches = [order[i:i + self.batch_size] for i in range(0, len(order), self.batch_size)]
        return iter(batches)

    def __len__(self):
        return (len(self.lengths) + self.batch_size - 1) // self.batch_size


class Sentences(Dataset):
    def __init__(self):
        self.data = [torch.arange(n) for n in [5, 2, 7, 3, 2, 6]]

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        return self.data[i]


sents = Sentences()
bl = DataLoader(sents, batch_sampler=LengthGroupedBatchSampler([len(s) for s in sents.data], 2),
                collate_fn=lambda batch: torch.nn.utils.rnn.pad_sequence(batch, batch_first=True, padding_value=-1))
for batch in bl:
    print(batch.tolist())
print(len(bl))


class RangeStream(IterableDataset):
    def __init__(self, start, end):
        super().__init__()
        self.start, self.end = start, end

    def __iter__(self):
        worker_info = get_worker_info()
        if worker_info is None:
            iter_start, iter_end = self.start, self.end
        else:
            per_worker = int(np.ceil((self.end - self.start) / float(worker_info.num_workers)))
            iter_start = self.start + worker_info.id * per_worker
            iter_end = min(iter_start + per_worker, self.end)
        return iter(range(iter_start, iter_end))


ds = RangeStream(3, 9)
print(list(DataLoader(ds, num_workers=0)), list(DataLoader(ds, batch_size=4)))
chain = ChainDataset([RangeStream(0, 2), RangeStream(10, 12)])
print(list(chain))
stack = StackDataset(x=TensorDataset(torch.arange(3)), y=[10, 20, 30])
print(stack[1], len(stack))
print(next(iter(DataLoader(stack, batch_size=2))))

Point = namedtuple("Point", ["x", "y"])
print(default_collate([Point(1, 2.0), Point(3, 4.0)]))
print(default_collate([{"a": np.array([1.0, 2.0]), "b": "s"}, {"a": np.array([3.0, 4.0]), "b": "t"}]))
print(default_collate([(torch.ones(2), 1), (torch.zeros(2), 0)]))
print(default_convert(np.arange(3)), default_convert({"k": np.float64(1.5)}))

for epoch in range(2):
    samplers = [DistributedSampler(dataset, num_replicas=3, rank=r, shuffle=True, seed=7) for r in range(3)]
    for s in samplers:
        s.set_epoch(epoch)
    parts = [list(s) for s in samplers]
    print(epoch, [len(p) for p in parts], parts[0][:4], sorted(sum(parts, []))[:6])
print(list(DistributedSampler(range(7), num_replicas=2, rank=1, shuffle=False, drop_last=True)))
