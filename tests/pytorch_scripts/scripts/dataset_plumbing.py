"""Data-loading plumbing from course notebooks and repos: a map-style Dataset returning dicts with
strings and namedtuples, default_collate over nested structures, a bucketing batch_sampler by length,
collate_fn with pad_sequence (batch_first, padding_value) and pack_sequence(enforce_sorted=False) /
pad_packed_sequence(total_length=), ConcatDataset index mapping and cumulative_sizes, Subset of a
Subset, random_split with fractions, SubsetRandomSampler, SequentialSampler, BatchSampler(drop_last),
an IterableDataset with batch_size=None and chunking, ChainDataset, DataLoader(drop_last, len), and a
StackDataset."""
import collections

import torch
from torch.nn.utils.rnn import pack_sequence, pad_packed_sequence, pad_sequence
from torch.utils.data import (BatchSampler, ChainDataset, ConcatDataset, DataLoader, Dataset, IterableDataset,
                              RandomSampler, Sampler, SequentialSampler, StackDataset, Subset, SubsetRandomSampler,
                              TensorDataset, default_collate, random_split)

torch.manual_seed(13)
Pair = collections.namedtuple("Pair", ["x", "y"])


class TextDataset(Dataset):
    def __init__(self, n=11):
        g = torch.Generator().manual_seed(4)
        self.lengths = torch.randint(2, 7, (n,), generator=g).tolist()
        self.items = [torch.randint(1, 20, (length,), generator=g) for length in self.lengths]
        self.labels = torch.arange(n) % 3

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        return {"tokens": self.items[idx], "label": self.labels[idx], "id": f"doc{idx}", "length": self.lengths[idx]}


def pad_collate(batch):
    tokens = [b["tokens"] for b in batch]
    return {"tokens": pad_sequence(tokens, batch_first=True, padding_value=0),
            "lengths": torch.tensor([len(t) for t in tokens]),
            "labels": torch.stack([b["label"] for b in batch]),
            "ids": [b["id"] for b in batch]}


class BucketBatchSampler(Sampler):
    def __init__(self, lengths, batch_size, generator=None):
        self.lengths, self.batch_size, self.generator = lengths, batch_size, generator

    def __iter__(self):
        order = torch.randperm(len(self.lengths), generator=self.generator).tolist()
        order.sort(key=lambda i: self.lengths[i])
        batches = [order[i:i + self.batch_size] for i in range(0, len(order), self.batch_size)]
        for j in torch.randperm(len(batches), generator=self.generator).tolist():
            yield batches[j]

    def __len__(self):
        return (len(self.lengths) + self.batch_size - 1) // self.batch_size


ds = TextDataset()
print("lengths", ds.lengths)
print("default_collate", default_collate([Pair(torch.tensor([1, 2]), 3.5), Pair(torch.tensor([4, 5]), 1.0)]))
print("nested", default_collate([{"a": (1, "x"), "b": [torch.ones(2), 2]}, {"a": (2, "y"), "b": [torch.zeros(2), 3]}]))
loader = DataLoader(ds, batch_size=4, shuffle=True, collate_fn=pad_collate, generator=torch.Generator().manual_seed(1))
for batch in loader:
    print(batch["ids"], batch["tokens"].shape, batch["lengths"].tolist(), batch["labels"].tolist())
bucket = DataLoader(ds, batch_sampler=BucketBatchSampler(ds.lengths, 3, torch.Generator().manual_seed(2)), collate_fn=pad_collate)
print("buckets", [b["lengths"].tolist() for b in bucket], len(bucket))
plain = DataLoader(ds, batch_size=3, collate_fn=None)
first = next(iter(DataLoader(Subset(ds, [0, 5, 9]), batch_size=3, collate_fn=lambda b: b)))
print("identity collate", [d["id"] for d in first])

seqs = [ds[i]["tokens"].float() for i in range(4)]
packed = pack_sequence(seqs, enforce_sorted=False)
print("packed", packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
padded, lens = pad_packed_sequence(packed, batch_first=True, total_length=8)
print("pad_packed", padded.shape, lens, torch.equal(padded[1, :len(seqs[1])], seqs[1]))
rnn = torch.nn.GRU(1, 3, batch_first=True)
out, h = rnn(torch.nn.utils.rnn.pack_padded_sequence(pad_sequence(seqs, batch_first=True).unsqueeze(-1), lens, batch_first=True, enforce_sorted=False))
print("gru on packed", h.shape, h[0, :, 0], out.data.shape)

a = TensorDataset(torch.arange(5.0), torch.zeros(5))
b = TensorDataset(torch.arange(10.0, 13.0), torch.ones(3))
cat = ConcatDataset([a, b, a])
print("concat", len(cat), cat.cumulative_sizes, cat[4], cat[5], cat[-1])
train, val, test = random_split(range(20), [0.6, 0.25, 0.15], generator=torch.Generator().manual_seed(3))
print("split fractions", len(train), len(val), len(test), list(train)[:4], list(test))
sub = Subset(Subset(cat, list(range(2, 10))), [0, 3, 5])
print("subset of subset", [sub[i][0].item() for i in range(len(sub))])
print("SubsetRandomSampler", list(SubsetRandomSampler([3, 6, 9, 12], generator=torch.Generator().manual_seed(5))))
print("BatchSampler", list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=True)),
      list(BatchSampler(RandomSampler(range(7), generator=torch.Generator().manual_seed(6)), 3, False)))
print("drop_last", len(DataLoader(range(10), batch_size=4, drop_last=True)), len(DataLoader(range(10), batch_size=4)))


class StreamDataset(IterableDataset):
    def __init__(self, start, end, chunk):
        self.start, self.end, self.chunk = start, end, chunk

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        assert info is None
        for i in range(self.start, self.end, self.chunk):
            yield torch.arange(i, min(i + self.chunk, self.end))


print("iterable batch_size=None", [t.tolist() for t in DataLoader(StreamDataset(0, 7, 3), batch_size=None)])
print("iterable batched", [t.tolist() for t in DataLoader(ChainDataset([StreamDataset(0, 4, 2), StreamDataset(10, 14, 2)]), batch_size=2)])
stack = StackDataset(a, TensorDataset(torch.arange(5) * 2))
print("StackDataset", len(stack), stack[2])
stack_named = StackDataset(x=torch.arange(4.0), y=torch.arange(4) % 2)
print("StackDataset named", next(iter(DataLoader(stack_named, batch_size=4))))
seen = []
for epoch in range(2):
    g = torch.Generator().manual_seed(epoch)
    seen.append([x.item() for x, _ in DataLoader(a, batch_size=1, shuffle=True, generator=g)])
print("per-epoch orders", seen)
