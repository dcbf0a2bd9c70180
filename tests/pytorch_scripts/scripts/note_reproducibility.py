"""pytorch.org's "Reproducibility" note: torch.manual_seed / random.seed / numpy seeding giving the same
draws, torch.backends.cudnn.benchmark and .deterministic flags, use_deterministic_algorithms with
are_deterministic_algorithms_enabled and is_deterministic_algorithms_warn_only_enabled, the DataLoader
seed_worker + generator recipe giving the same shuffled order twice, and generator / RNG state round trips."""
import random

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
random.seed(0)
np.random.seed(0)
a = torch.rand(3)
torch.manual_seed(0)
print(torch.equal(a, torch.rand(3)), torch.initial_seed())
print(torch.backends.cudnn.benchmark, torch.backends.cudnn.deterministic)
torch.backends.cudnn.benchmark = False
torch.backends.cudnn.deterministic = True
print(torch.backends.cudnn.benchmark, torch.backends.cudnn.deterministic)
print(torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled())
torch.use_deterministic_algorithms(True)
print(torch.are_deterministic_algorithms_enabled())
x = torch.zeros(5)
x.index_add_(0, torch.tensor([0, 0, 2]), torch.ones(3))
print(x)
torch.use_deterministic_algorithms(True, warn_only=True)
print(torch.is_deterministic_algorithms_warn_only_enabled())
torch.use_deterministic_algorithms(False)
print(torch.are_deterministic_algorithms_enabled())
torch.backends.cudnn.deterministic = False


def seed_worker(worker_id):
    worker_seed = torch.initial_seed() % 2 ** 32
    np.random.seed(worker_seed)
    random.seed(worker_seed)


dataset = TensorDataset(torch.arange(10))
orders = []
for _ in range(2):
    g = torch.Generator()
    g.manual_seed(0)
    loader = DataLoader(dataset, batch_size=4, shuffle=True, num_workers=0, worker_init_fn=seed_worker, generator=g)
    orders.append([batch[0].tolist() for batch in loader])
print(orders[0])
print(orders[0] == orders[1])
g = torch.Generator().manual_seed(42)
print(torch.randperm(6, generator=g).tolist(), g.initial_seed())
state = torch.get_rng_state()
r1 = torch.randn(2)
torch.set_rng_state(state)
print(torch.equal(r1, torch.randn(2)), state.dtype, state.shape)
print(np.random.rand() == np.random.RandomState(0).rand())
