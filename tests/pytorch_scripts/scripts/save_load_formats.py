"""Saving and loading as real projects do it: torch.save of a whole pickled model (weights_only=False) and
of a checkpoint dict with optimizer / scheduler / scaler / RNG state and epoch, torch.load with
map_location as a string, a torch.device, a dict and a function, weights_only=True on plain state dicts,
add_safe_globals for a custom class, a module with _load_from_state_dict handling an old key layout via
_version, state_dict()._metadata, saving tensors that share storage (views stay views), saving a list of
tensors and nested containers, and round trips through io.BytesIO and a file path."""
import collections
import io
import os
import tempfile

import torch
import torch.nn as nn

torch.manual_seed(47)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3)
        self.bn = nn.BatchNorm2d(2)
        self.fc = nn.Linear(8, 3)
        self.register_buffer("counter", torch.zeros(()))

    def forward(self, x):
        x = torch.relu(self.bn(self.conv(x)))
        return self.fc(x.flatten(1))


class RenamedLinear(nn.Module):
    _version = 2

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.zeros(2, 2))
        self.offset = nn.Parameter(torch.zeros(2))

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
        version = local_metadata.get("version", None)
        if version is None or version < 2:
            old_key = prefix + "bias"
            if old_key in state_dict:
                state_dict[prefix + "offset"] = state_dict.pop(old_key)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)


class Config:
    def __init__(self, width):
        self.width = width


model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
x = torch.randn(4, 1, 4, 4)
for _ in range(3):
    opt.zero_grad()
    model(x).pow(2).mean().backward()
    opt.step()
    sched.step()

buffer = io.BytesIO()
torch.save(model, buffer)
buffer.seek(0)
whole = torch.load(buffer, weights_only=False)
print("whole model", type(whole).__name__, torch.equal(whole(x), model(x)), whole.bn.num_batches_tracked)
buffer.seek(0)
try:
    torch.load(buffer, weights_only=True)
except Exception as e:
    print("weights_only refuses a pickled module:", type(e).__name__)

checkpoint = {"epoch": 3, "model_state_dict": model.state_dict(), "optimizer_state_dict": opt.state_dict(),
              "scheduler": sched.state_dict(), "rng": torch.get_rng_state(), "loss": 0.25,
              "history": collections.OrderedDict(train=[1.0, 0.5], val=[1.2, 0.7])}
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "ckpt.pth")
    torch.save(checkpoint, path)
    for location in ("cpu", torch.device("cpu"), {"cuda:0": "cpu"}, lambda storage, loc: storage):
        loaded = torch.load(path, map_location=location, weights_only=True)
        print("map_location", type(location).__name__, loaded["epoch"], loaded["model_state_dict"]["fc.bias"].device)
    print("os.path.getsize > 0", os.path.getsize(path) > 0)

restored = Net()
missing = restored.load_state_dict(loaded["model_state_dict"])
print(missing, missing.missing_keys)
opt2 = torch.optim.SGD(restored.parameters(), lr=0.1, momentum=0.9)
opt2.load_state_dict(loaded["optimizer_state_dict"])
sched2 = torch.optim.lr_scheduler.StepLR(opt2, step_size=2, gamma=0.5)
sched2.load_state_dict(loaded["scheduler"])
print("optimizer state", opt2.state_dict()["param_groups"][0]["lr"], sorted(opt2.state_dict()["state"].keys()),
      sched2.last_epoch, sched2.get_last_lr())
print("momentum buffer", torch.equal(opt2.state[restored.fc.weight]["momentum_buffer"], opt.state[model.fc.weight]["momentum_buffer"]))
torch.set_rng_state(loaded["rng"])
print("rng restored", torch.rand(2), loaded["history"])

sd = model.state_dict()
print("metadata", sd._metadata[""], sd._metadata["bn"], list(sd.keys())[:4])
old = RenamedLinear()
old_state = {"weight": torch.eye(2), "bias": torch.tensor([1.0, 2.0])}
old.load_state_dict(old_state)
print("old layout migrated", old.offset.data, RenamedLinear().state_dict()._metadata[""]["version"])

base = torch.arange(6.0)
view = base[2:5]
blob = io.BytesIO()
torch.save({"base": base, "view": view, "list": [base, view.view(3, 1)]}, blob)
blob.seek(0)
back = torch.load(blob)
back["view"][0] = 100.0
print("shared storage", back["base"], back["list"][0] is back["base"], back["list"][1].shape)

torch.serialization.add_safe_globals([Config])
blob = io.BytesIO()
torch.save({"config": Config(64), "weights": torch.ones(2)}, blob)
blob.seek(0)
print("safe globals", torch.load(blob, weights_only=True)["config"].width)
half = {k: v.half() if v.is_floating_point() else v for k, v in model.state_dict().items()}
blob = io.BytesIO()
torch.save(half, blob)
blob.seek(0)
loaded_half = torch.load(blob)
print("half", loaded_half["fc.weight"].dtype, loaded_half["bn.num_batches_tracked"].dtype)
as_float = Net()
as_float.load_state_dict(loaded_half)
print("loaded into float32", as_float.fc.weight.dtype, (as_float.fc.weight - model.fc.weight).abs().max().item() < 1e-3)
