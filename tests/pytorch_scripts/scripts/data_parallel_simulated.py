"""Data-parallel training simulated in one process, as tutorials explain DDP: DistributedSampler with
explicit num_replicas / rank (shuffle, set_epoch, padding to equal shards, drop_last), replicas made with
copy.deepcopy, per-replica gradients averaged with torch._foreach_add_ / _foreach_div_ (what all_reduce
does), broadcasting rank 0's parameters, gradient accumulation with a no_sync-style skip, a check that the
averaged step equals the single-process step on the concatenated batch, and ZeRO-style sharding of the
optimizer state by parameter index."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

torch.manual_seed(131)
data = TensorDataset(torch.randn(22, 5), torch.randint(0, 3, (22,)))
world = 3
for shuffle, drop_last in ((False, False), (True, False), (True, True)):
    shards = [list(DistributedSampler(data, num_replicas=world, rank=r, shuffle=shuffle, seed=7, drop_last=drop_last)) for r in range(world)]
    print(f"shuffle={shuffle} drop_last={drop_last}", [len(s) for s in shards], shards[0][:5], sorted(sum(shards, []))[:8])
sampler = DistributedSampler(data, num_replicas=2, rank=1, shuffle=True, seed=0)
orders = []
for epoch in range(2):
    sampler.set_epoch(epoch)
    orders.append(list(sampler)[:6])
print("set_epoch changes order", orders, len(sampler))
try:
    DistributedSampler(data, num_replicas=2, rank=2)
except ValueError as e:
    print("ValueError:", e)

model = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 3))
replicas = [copy.deepcopy(model) for _ in range(world)]
for replica in replicas[1:]:
    with torch.no_grad():
        for p, p0 in zip(replica.parameters(), replicas[0].parameters()):
            p.copy_(p0)
reference = copy.deepcopy(model)
opts = [torch.optim.SGD(r.parameters(), lr=0.1, momentum=0.9) for r in replicas]
ref_opt = torch.optim.SGD(reference.parameters(), lr=0.1, momentum=0.9)
loaders = [DataLoader(data, batch_size=4, sampler=DistributedSampler(data, num_replicas=world, rank=r, shuffle=True, seed=1)) for r in range(world)]
for epoch in range(2):
    for loader in loaders:
        loader.sampler.set_epoch(epoch)
    for step, batches in enumerate(zip(*loaders)):
        for replica, (x, y) in zip(replicas, batches):
            replica.zero_grad()
            F.cross_entropy(replica(x), y).backward()
        grads = [[p.grad for p in r.parameters()] for r in replicas]
        total = [g.clone() for g in grads[0]]
        for other in grads[1:]:
            torch._foreach_add_(total, other)
        torch._foreach_div_(total, world)
        for r in replicas:
            for p, g in zip(r.parameters(), total):
                p.grad.copy_(g)
        for opt in opts:
            opt.step()
        x_all = torch.cat([b[0] for b in batches])
        y_all = torch.cat([b[1] for b in batches])
        ref_opt.zero_grad()
        F.cross_entropy(reference(x_all), y_all).backward()
        ref_opt.step()
    diffs = [max((p - q).abs().max().item() for p, q in zip(r.parameters(), reference.parameters())) for r in replicas]
    print(f"epoch {epoch} steps {step + 1} replicas agree with the big-batch step: {all(d < 1e-5 for d in diffs)}")

accum_model = copy.deepcopy(model)
accum_opt = torch.optim.SGD(accum_model.parameters(), lr=0.1)
big_model = copy.deepcopy(model)
big_opt = torch.optim.SGD(big_model.parameters(), lr=0.1)
x, y = data.tensors
micro = x[:12].split(4), y[:12].split(4)
accum_opt.zero_grad()
for i, (xb, yb) in enumerate(zip(*micro)):
    (F.cross_entropy(accum_model(xb), yb) / 3).backward()
accum_opt.step()
big_opt.zero_grad()
F.cross_entropy(big_model(x[:12]), y[:12]).backward()
big_opt.step()
print("accumulation == big batch", all(torch.allclose(p, q, atol=1e-6) for p, q in zip(accum_model.parameters(), big_model.parameters())))

params = list(model.parameters())
owners = {i: i % world for i in range(len(params))}
shard_opts = [torch.optim.Adam([p for i, p in enumerate(params) if owners[i] == r], lr=1e-2) for r in range(world)]
F.cross_entropy(model(x), y).backward()
for opt in shard_opts:
    opt.step()
state_sizes = [sum(s["exp_avg"].numel() for s in opt.state.values()) for opt in shard_opts]
print("zero-style shards", [len(o.param_groups[0]["params"]) for o in shard_opts], state_sizes, sum(p.numel() for p in params))
