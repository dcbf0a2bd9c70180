"""Checkpointing as training scripts do it: a dict with epoch, model/optimizer/scheduler/scaler state
dicts and RNG state saved with torch.save into io.BytesIO, loaded back with map_location='cpu' and
weights_only=True/False, training resumed to match an uninterrupted run bit for bit, optimizer state
(AdamW exp_avg / exp_avg_sq / step) and param_groups inspected, state-dict key order of nested
modules with buffers, load_state_dict(strict=False) reporting missing/unexpected keys, the
'module.' prefix from DataParallel stripped with consume_prefix_in_state_dict_if_present, and
saving a tensor view together with its base (shared storage kept)."""
import collections
import io

import torch
import torch.nn as nn
import torch.nn.functional as F


def make():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Dropout(0.1), nn.Linear(8, 3))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.05)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    return model, opt, sched


data = torch.randn(32, 4, generator=torch.Generator().manual_seed(1))
labels = torch.randint(0, 3, (32,), generator=torch.Generator().manual_seed(2))


def train_epoch(model, opt, sched):
    model.train()
    for i in range(0, 32, 8):
        loss = F.cross_entropy(model(data[i:i + 8]), labels[i:i + 8])
        opt.zero_grad()
        loss.backward()
        opt.step()
    sched.step()
    return loss.item()


model, opt, sched = make()
full = [train_epoch(model, opt, sched) for _ in range(4)]
print("uninterrupted", [round(v, 5) for v in full])

model, opt, sched = make()
for epoch in range(2):
    train_epoch(model, opt, sched)
buffer = io.BytesIO()
torch.save({"epoch": 2, "model_state_dict": model.state_dict(), "optimizer_state_dict": opt.state_dict(),
            "scheduler": sched.state_dict(), "rng": torch.get_rng_state(), "loss": full[1]}, buffer)
print("bytes written > 0:", buffer.tell() > 0)

model2, opt2, sched2 = make()
buffer.seek(0)
checkpoint = torch.load(buffer, map_location="cpu", weights_only=False)
model2.load_state_dict(checkpoint["model_state_dict"])
opt2.load_state_dict(checkpoint["optimizer_state_dict"])
sched2.load_state_dict(checkpoint["scheduler"])
torch.set_rng_state(checkpoint["rng"])
start_epoch = checkpoint["epoch"]
resumed = [train_epoch(model2, opt2, sched2) for _ in range(start_epoch, 4)]
print("resumed", [round(v, 5) for v in resumed], resumed == full[2:])
print("weights equal:", all(torch.equal(a, b) for a, b in zip(model.state_dict().values(),
                                                              model2.state_dict().values())))

sd = opt2.state_dict()
print(list(sd.keys()), list(sd["state"].keys()), sorted(sd["state"][0].keys()))
print({k: v for k, v in sd["param_groups"][0].items() if k != "params"})
print(sd["state"][0]["step"], sd["state"][0]["exp_avg"].shape, sched2.get_last_lr(), sched2.last_epoch)
print(list(model2.state_dict().keys()))
print(model2.state_dict()["1.num_batches_tracked"], model2.state_dict()["1.running_var"][:3].round(decimals=4))

buffer = io.BytesIO()
torch.save(model.state_dict(), buffer)
buffer.seek(0)
weights = torch.load(buffer, weights_only=True)
print(type(weights).__name__, isinstance(weights, collections.OrderedDict), len(weights))

# Architecture changes: strict=False
class Bigger(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8))
        self.head = nn.Linear(8, 5)

    def forward(self, x):
        return self.head(self.backbone(x).relu())


renamed = {k.replace("0.", "backbone.0.", 1).replace("1.", "backbone.1.", 1) if k[0] in "01" else k: v
           for k, v in weights.items()}
big = Bigger()
result = big.load_state_dict(renamed, strict=False)
print("missing", result.missing_keys)
print("unexpected", result.unexpected_keys)
try:
    big.load_state_dict(renamed)
except RuntimeError as e:
    print(str(e).splitlines()[0])
try:
    big.head.load_state_dict({"weight": torch.zeros(3, 8), "bias": torch.zeros(3)})
except RuntimeError as e:
    print(str(e).splitlines()[1].strip())

# DataParallel-style prefixes
wrapped = collections.OrderedDict(("module." + k, v) for k, v in model.state_dict().items())
torch.nn.modules.utils.consume_prefix_in_state_dict_if_present(wrapped, "module.")
print(list(wrapped.keys())[:3], model.load_state_dict(wrapped))
stripped = {k.removeprefix("module."): v for k, v in wrapped.items()}
print(len(stripped))

# Views share storage through save/load
base = torch.arange(10.0)
view = base[2:5]
buffer = io.BytesIO()
torch.save({"base": base, "view": view}, buffer)
buffer.seek(0)
loaded = torch.load(buffer)
loaded["view"].fill_(-1)
print(loaded["base"].tolist(), loaded["view"].storage_offset())
