import torch
from torch.utils.data import Dataset, DataLoader, TensorDataset, ConcatDataset, Subset, SequentialSampler, BatchSampler, WeightedRandomSampler
from torch.utils.data.dataloader import default_collate


class DictDataset(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {"x": torch.full((2,), float(i)), "y": i % 3, "name": f"item{i}", "t": (i, float(i) / 2)}


ds = DictDataset(7)
loader = DataLoader(ds, batch_size=3)
for batch in loader:
    print(batch["x"].shape, batch["y"], batch["name"], batch["t"])
print(len(loader), len(DataLoader(ds, batch_size=3, drop_last=True)))
print(default_collate([(torch.zeros(2), 1), (torch.ones(2), 2)]))
print(default_collate([1.5, 2.5]).dtype, default_collate([1, 2]).dtype, default_collate([True, False]))
import numpy as np
print(default_collate([np.array([1.0, 2.0]), np.array([3.0, 4.0])]))


def collate_fn(batch):
    xs, ys = zip(*batch)
    return torch.stack(xs), torch.tensor(ys)


tds = TensorDataset(torch.arange(12.).view(6, 2), torch.arange(6))
print([tuple(b[1].tolist()) for b in DataLoader(tds, batch_size=4, collate_fn=collate_fn)])
cat = ConcatDataset([tds, tds])
print(len(cat), cat[7][1], cat.cumulative_sizes)
sub = Subset(tds, [5, 0, 2])
print(len(sub), [sub[i][1].item() for i in range(len(sub))])
print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)))
print(list(DataLoader(range(5), batch_size=2)))
print(list(DataLoader(tds, batch_size=None))[0])
sampler = WeightedRandomSampler([0.0, 0.0, 1.0], num_samples=4, replacement=True)
print(list(sampler), len(sampler))
it = iter(DataLoader(tds, batch_size=2, shuffle=True))
x, y = next(it)
print(x.shape, y.dtype, len(list(it)))
g = torch.Generator()
g.manual_seed(0)
print(len(list(DataLoader(tds, batch_size=2, shuffle=True, generator=g, num_workers=0, pin_memory=False))))
for i, (xb, yb) in enumerate(DataLoader(tds, batch_size=4)):
    print(i, xb.sum().item(), yb.tolist())
