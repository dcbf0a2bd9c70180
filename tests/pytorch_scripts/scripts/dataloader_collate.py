"""The 'Datasets & DataLoaders' tutorial past the basics, as NLP and detection code uses it: a map-style
Dataset returning dicts, default_collate on dicts / tuples / namedtuples / numbers / strings / numpy
arrays, a custom collate_fn padding variable-length sequences with pad_sequence and returning
lengths and masks, detection-style collate (tuple(zip(*batch))), SequentialSampler / RandomSampler
with a seeded generator / BatchSampler(drop_last), a bucketing batch sampler sorting by length,
DataLoader(batch_size=None) for unbatched loading, drop_last and len(loader), Subset / ConcatDataset
indexing and cumulative_sizes, TensorDataset's tensors, random_split lengths, and the errors
for mismatched tensor sizes and collating unequal tensors."""
import collections

import numpy as np
import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import (BatchSampler, ConcatDataset, DataLoader, Dataset, RandomSampler, SequentialSampler,
                              Subset, TensorDataset, default_collate, random_split)

torch.manual_seed(0)
Point = collections.namedtuple("Point", ["x", "y"])


class SeqDataset(Dataset):
    def __init__(self):
        self.seqs = [torch.arange(n) + 1 for n in (3, 1, 4, 2, 5, 2, 3)]
        self.labels = [0, 1, 0, 1, 1, 0, 1]

    def __len__(self):
        return len(self.seqs)

    def __getitem__(self, idx):
        return {"ids": self.seqs[idx], "label": self.labels[idx], "name": f"s{idx}"}


print(default_collate([{"a": torch.tensor([1, 2]), "b": 1.5}, {"a": torch.tensor([3, 4]), "b": 2.5}]))
print(default_collate([(1, "x"), (2, "y")]), default_collate([Point(1, 2.0), Point(3, 4.0)]))
print(default_collate([np.array([1.0, 2.0]), np.array([3.0, 4.0])]), default_collate([True, False]))
try:
    default_collate([torch.zeros(2), torch.zeros(3)])
except RuntimeError as e:
    print("RuntimeError:", e)


def collate_batch(batch):
    ids = [item["ids"] for item in batch]
    lengths = torch.tensor([len(x) for x in ids])
    padded = pad_sequence(ids, batch_first=True, padding_value=0)
    mask = padded != 0
    labels = torch.tensor([item["label"] for item in batch], dtype=torch.float32)
    return padded, lengths, mask, labels, [item["name"] for item in batch]


ds = SeqDataset()
loader = DataLoader(ds, batch_size=3, shuffle=False, collate_fn=collate_batch)
print("len(loader)", len(loader))
for padded, lengths, mask, labels, names in loader:
    print(padded.tolist(), lengths.tolist(), mask.sum(1).tolist(), labels.dtype, names)
dl = DataLoader(ds, batch_size=3, drop_last=True, collate_fn=collate_batch)
print("drop_last", len(dl), [b[0].shape[0] for b in dl])
g = torch.Generator().manual_seed(42)
print("sequential", list(SequentialSampler(ds)))
print("random", sorted(RandomSampler(ds, generator=g)), len(RandomSampler(ds, replacement=True, num_samples=10)))
print("batch sampler", list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)),
      list(BatchSampler(range(7), 3, True)), len(BatchSampler(range(7), 3, True)))


class BucketBatchSampler:
    def __init__(self, lengths, batch_size):
        self.order = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
        self.batch_size = batch_size

    def __iter__(self):
        for i in range(0, len(self.order), self.batch_size):
            yield self.order[i:i + self.batch_size]

    def __len__(self):
        return (len(self.order) + self.batch_size - 1) // self.batch_size


bucket_loader = DataLoader(ds, batch_sampler=BucketBatchSampler([len(s) for s in ds.seqs], 3), collate_fn=collate_batch)
print("bucketed", [b[1].tolist() for b in bucket_loader], len(bucket_loader))
print("unbatched", [type(x["label"]).__name__ for x in DataLoader(ds, batch_size=None)][:2],
      next(iter(DataLoader(ds, batch_size=None)))["ids"])
images = [torch.zeros(3, 4, 5), torch.zeros(3, 6, 2)]
targets = [{"boxes": torch.tensor([[0., 0., 1., 1.]])}, {"boxes": torch.zeros(0, 4)}]
det = DataLoader(list(zip(images, targets)), batch_size=2, collate_fn=lambda batch: tuple(zip(*batch)))
imgs, tgts = next(iter(det))
print("detection collate", type(imgs).__name__, [i.shape for i in imgs], [t["boxes"].shape for t in tgts])
td = TensorDataset(torch.arange(10.).view(5, 2), torch.tensor([0, 1, 0, 1, 1]))
print(td[1], len(td), [t.shape for t in td.tensors])
try:
    TensorDataset(torch.zeros(3), torch.zeros(4))
except AssertionError as e:
    print("AssertionError:", e)
sub = Subset(td, [4, 0, 2])
cat = ConcatDataset([td, sub])
print(len(sub), sub[0][1].item(), len(cat), cat.cumulative_sizes, cat[6][0].tolist(), cat[-1][0].tolist())
train, val = random_split(td, [0.6, 0.4], generator=torch.Generator().manual_seed(1))
print("random_split", len(train), len(val), type(train).__name__, sorted(train.indices + val.indices))
for xb, yb in DataLoader(td, batch_size=2):
    print(xb.shape, yb.tolist(), xb.dtype, yb.dtype)
nested = default_collate([{"img": torch.ones(2), "meta": {"id": 1, "size": (4, 5)}},
                          {"img": torch.zeros(2), "meta": {"id": 2, "size": (6, 7)}}])
print(nested["meta"], nested["img"].shape)
