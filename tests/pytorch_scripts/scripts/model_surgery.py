"""Model surgery as fine-tuning code does it: replacing layers found by named_modules (ReLU -> GELU,
BatchNorm -> GroupNorm, Linear heads) with setattr on the parent and set_submodule/get_submodule,
register_module/add_module, a non-persistent buffer and a persistent one, load_state_dict(strict=False)
reporting missing/unexpected keys, prefix stripping with consume_prefix_in_state_dict_if_present
('module.' from DataParallel checkpoints), state_dict(keep_vars=True), load_state_dict(assign=True),
state-dict hooks, named_modules(remove_duplicate=False) with shared layers, freezing by name with
requires_grad_, parameter counting, and layer-wise learning-rate groups."""
import collections
import torch
import torch.nn as nn
from torch.nn.modules.utils import consume_prefix_in_state_dict_if_present

torch.manual_seed(0)


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(inplace=True))
        self.layer1 = nn.Sequential(nn.Conv2d(8, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(inplace=True))
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, 10)
        self.register_buffer("mean", torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1))
        self.register_buffer("cache", torch.zeros(1), persistent=False)

    def forward(self, x):
        x = x - self.mean
        x = self.layer1(self.stem(x))
        return self.fc(torch.flatten(self.pool(x), 1))


model = Backbone()
print(list(model.state_dict().keys())[:3], "cache" in model.state_dict(), [n for n, _ in model.named_buffers()][-3:])
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))


def replace_modules(model, old_type, make_new):
    for name, module in model.named_modules():
        for child_name, child in module.named_children():
            if isinstance(child, old_type):
                setattr(module, child_name, make_new(child))


replace_modules(model, nn.ReLU, lambda m: nn.GELU())
replace_modules(model, nn.BatchNorm2d, lambda m: nn.GroupNorm(2, m.num_features))
print(model.stem, model.get_submodule("layer1.1"))
model.set_submodule("layer1.2", nn.SiLU())
print(model.get_submodule("layer1"))
try:
    model.get_submodule("layer1.9")
except AttributeError as e:
    print("AttributeError:", e)
model.fc = nn.Linear(model.fc.in_features, 4)
model.add_module("dropout", nn.Dropout(0.1))
model.register_module("extra", nn.Identity())
print([n for n, _ in model.named_children()])

x = torch.randn(2, 3, 6, 6)
print(model(x).shape)

for name, param in model.named_parameters():
    if not name.startswith("fc"):
        param.requires_grad_(False)
print([n for n, p in model.named_parameters() if p.requires_grad])

# loading weights from a "DataParallel" checkpoint with a different head
ckpt = {"module." + k: v for k, v in Backbone().state_dict().items()}
ckpt["module.unused.weight"] = torch.zeros(1)
consume_prefix_in_state_dict_if_present(ckpt, "module.")
print(list(ckpt.keys())[:2], len(ckpt))
ckpt = collections.OrderedDict((k, v) for k, v in ckpt.items() if not k.startswith("fc."))
result = model.load_state_dict(ckpt, strict=False)
print(result.missing_keys, result.unexpected_keys)
print(result)
try:
    model.load_state_dict(ckpt)
except RuntimeError as e:
    print(str(e).splitlines()[0])
    print(str(e).splitlines()[1][:120])
bad = dict(model.state_dict())
bad["fc.weight"] = torch.zeros(3, 8)
try:
    model.load_state_dict(bad)
except RuntimeError as e:
    print(str(e).splitlines()[1].strip())

sd = model.state_dict(keep_vars=True)
print(type(sd["fc.weight"]).__name__, sd["fc.weight"].requires_grad, type(model.state_dict()["fc.weight"]).__name__)
new_w = {"weight": torch.ones(2, 3), "bias": torch.zeros(2)}
lin = nn.Linear(3, 2)
lin.load_state_dict(new_w, assign=True)
print(type(lin.weight).__name__, lin.weight.requires_grad, lin.weight.sum().item())

# shared modules
shared = nn.Linear(4, 4)
net = nn.Sequential(shared, nn.ReLU(), shared)
print([n for n, _ in net.named_modules()], [n for n, _ in net.named_modules(remove_duplicate=False)])
print(len(list(net.parameters())), len(list(net.named_parameters(remove_duplicate=False))))
print(list(net.state_dict().keys()))


def hook(module, state_dict, prefix, local_metadata):
    state_dict[prefix + "version_tag"] = torch.tensor(2)
    return state_dict


lin2 = nn.Linear(2, 2)
lin2._register_state_dict_hook(hook)
print(list(lin2.state_dict().keys()))
seen = []
lin2.register_load_state_dict_post_hook(lambda module, keys: seen.append((sorted(keys.missing_keys), sorted(keys.unexpected_keys))))
lin2.load_state_dict({"weight": torch.zeros(2, 2), "bias": torch.zeros(2), "extra": torch.ones(1)}, strict=False)
print(seen)

# layer-wise lr decay groups
groups = []
for depth, (name, module) in enumerate([("stem", model.stem), ("layer1", model.layer1), ("fc", model.fc)]):
    groups.append({"params": [p for p in module.parameters()], "lr": 1e-3 * (0.5 ** (2 - depth)), "name": name})
opt = torch.optim.AdamW(groups, weight_decay=0.05)
print([(g["name"], g["lr"], len(g["params"])) for g in opt.param_groups])
print(model.training, model.eval().training, model.stem[1].training, model.train().dropout.training)
print(model.extra_repr() == "", nn.Linear(2, 3).extra_repr(), repr(model.extra))
