"""Seeded random draws print PyTorch's numbers: factories, in-place samplers, module initialisation,
dropout, data loading order and a short training run."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(0)
print(torch.randn(3))
print(torch.rand(2, 3))
print(torch.randn(2, 10))
print(torch.randint(0, 10, (5,)), torch.randint(3, (4,)))
print(torch.randperm(8))
print(torch.randn(2, dtype=torch.float64), torch.rand(2, dtype=torch.float64))
print(torch.empty(5).normal_(2.0, 0.5), torch.empty(4).uniform_(-1, 1))
print(torch.normal(torch.arange(4.0), 0.1), torch.normal(0.0, 1.0, size=(3,)))
g = torch.Generator().manual_seed(1)
print(torch.randn(4, generator=g), torch.rand(4, generator=g), g.initial_seed())
print(torch.bernoulli(torch.full((8,), 0.5)), torch.empty(6).bernoulli_(0.3))
print(torch.multinomial(torch.tensor([0.2, 0.3, 0.5]), 6, replacement=True), torch.multinomial(torch.tensor([1.0, 2, 3, 4]), 2))
print(torch.empty(3).exponential_(), torch.empty(3).cauchy_(), torch.empty(3).geometric_(0.4), torch.empty(3).log_normal_())

torch.manual_seed(42)
linear = nn.Linear(4, 3)
print(linear.weight, linear.bias)
conv = nn.Conv2d(1, 2, 3)
print(conv.weight[0, 0], conv.bias)
w = torch.empty(3, 5)
print(nn.init.xavier_uniform_(w), nn.init.kaiming_normal_(w, mode="fan_out"), nn.init.trunc_normal_(w, std=0.02))
print(F.dropout(torch.ones(2, 8), 0.5), nn.Dropout2d(0.5)(torch.ones(1, 4, 1, 1)).flatten())

state = torch.get_rng_state()
print(state.dtype, state.shape, torch.randn(2))
torch.set_rng_state(state)
print(torch.randn(2))

torch.manual_seed(0)
x, y = torch.randn(64, 4), torch.randint(0, 3, (64,))
train, val = random_split(TensorDataset(x, y), [48, 16])
print(train.indices[:8], val.indices[:8])
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Dropout(0.2), nn.Linear(16, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
loader = DataLoader(train, batch_size=16, shuffle=True)
for epoch in range(3):
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(epoch, round(loss.item(), 4), [b[1].tolist() for b in DataLoader(val, batch_size=8, shuffle=True)])
print(model[0].weight[0], torch.rand(2))
