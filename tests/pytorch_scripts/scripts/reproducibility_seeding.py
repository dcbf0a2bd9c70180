"""Reproducibility utilities as in training templates: seed_everything (random, numpy, torch), generator
state save/restore with get_state / set_state and torch.get_rng_state / set_rng_state mid-run,
torch.random.fork_rng, initial_seed, per-sample augmentations drawn from a dedicated Generator, Tensor.random_
with and without bounds, randint_like / rand_like / randn_like on several dtypes, float16 and float64 draws,
bernoulli_ with a probability tensor, exponential_ / geometric_ on float64, poisson, randperm on a
generator, multinomial without replacement on many categories, and resuming a data order exactly."""
import random

import numpy as np
import torch
import torch.nn as nn


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True, warn_only=True)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    return seed


seed_everything(97)
print("initial_seed", torch.initial_seed(), torch.are_deterministic_algorithms_enabled(), random.random() < 1, np.random.rand() < 1)
a = torch.randn(3)
state = torch.get_rng_state()
b = torch.randn(3)
torch.set_rng_state(state)
print("rng state replay", torch.equal(b, torch.randn(3)), state.dtype, state.shape)
with torch.random.fork_rng():
    torch.manual_seed(1)
    inner = torch.rand(2)
after = torch.rand(2)
torch.set_rng_state(state)
torch.randn(3)
print("fork_rng leaves outer stream", torch.equal(after, torch.rand(2)), inner)

g = torch.Generator().manual_seed(2024)
g_state = g.get_state()
first = torch.randint(0, 100, (5,), generator=g)
g.set_state(g_state)
print("generator replay", first, torch.equal(first, torch.randint(0, 100, (5,), generator=g)), g.initial_seed())
g2 = torch.Generator()
g2.set_state(g.get_state())
print("cloned generator", torch.equal(torch.rand(3, generator=g), torch.rand(3, generator=g2)))


def augment(img, generator):
    if torch.rand(1, generator=generator).item() < 0.5:
        img = img.flip(-1)
    shift = torch.randint(-1, 2, (2,), generator=generator)
    img = torch.roll(img, shifts=(int(shift[0]), int(shift[1])), dims=(-2, -1))
    return img + 0.1 * torch.randn(img.shape, generator=generator)


img = torch.arange(16.0).view(1, 4, 4)
aug_g = torch.Generator().manual_seed(7)
print("augment", augment(img, aug_g)[0, 0], augment(img, aug_g)[0, 1])

torch.manual_seed(5)
print("random_ bounds", torch.empty(6, dtype=torch.int64).random_(0, 10), torch.empty(4).random_(5),
      torch.empty(3, dtype=torch.int32).random_(-5, 5))
print("random_ uint8", torch.empty(5, dtype=torch.uint8).random_(), torch.empty(3, dtype=torch.bool).random_())
base = torch.zeros(2, 3, dtype=torch.float64)
print("like", torch.randint_like(base, 3, 9), torch.rand_like(base), torch.randn_like(base.float()))
print("float16", torch.rand(4, dtype=torch.float16), torch.randn(3, dtype=torch.float16), torch.empty(2, dtype=torch.float16).uniform_(-1, 1))
probs = torch.tensor([[0.1, 0.9, 0.5], [1.0, 0.0, 0.3]])
print("bernoulli tensor p", torch.empty(2, 3).bernoulli_(probs), torch.bernoulli(probs, generator=torch.Generator().manual_seed(0)))
print("exponential f64", torch.empty(3, dtype=torch.float64).exponential_(2.0), torch.empty(4, dtype=torch.float64).geometric_(0.25))
print("poisson", torch.poisson(torch.tensor([0.5, 3.0, 10.0, 50.0])))
print("randperm generator", torch.randperm(10, generator=torch.Generator().manual_seed(3)), torch.randperm(5, dtype=torch.int32))
weights = torch.arange(1.0, 301.0)
print("multinomial no replacement", torch.multinomial(weights, 8), torch.multinomial(weights.view(3, 100), 3))

seed_everything(11)
model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.3), nn.Linear(8, 1))
data = torch.randn(40, 4)
targets = data.sum(1, keepdim=True)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
loader_gen = torch.Generator().manual_seed(0)
losses = []
checkpoint = None
for epoch in range(4):
    if epoch == 2:
        checkpoint = {"model": {k: v.clone() for k, v in model.state_dict().items()}, "opt": opt.state_dict(),
                      "rng": torch.get_rng_state(), "loader": loader_gen.get_state()}
    for idx in torch.randperm(40, generator=loader_gen).split(10):
        loss = nn.functional.mse_loss(model(data[idx]), targets[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    losses.append(round(loss.item(), 6))
print("run", losses)
model.load_state_dict(checkpoint["model"])
opt.load_state_dict(checkpoint["opt"])
torch.set_rng_state(checkpoint["rng"])
loader_gen.set_state(checkpoint["loader"])
resumed = []
for epoch in range(2, 4):
    for idx in torch.randperm(40, generator=loader_gen).split(10):
        loss = nn.functional.mse_loss(model(data[idx]), targets[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    resumed.append(round(loss.item(), 6))
print("resumed", resumed, resumed == losses[2:])
torch.use_deterministic_algorithms(False)
