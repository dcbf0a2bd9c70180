"""Getting at intermediate activations as vision and interpretability code does it: torchvision's
IntermediateLayerGetter written out (iterating named_children into an OrderedDict), forward hooks with
with_kwargs=True and always_call=True, forward pre-hooks that rewrite args and kwargs, prepend=True ordering,
a global nn.modules.module.register_module_forward_hook, activation statistics and dead-ReLU fractions,
hook handles used as context managers, full backward hooks giving gradients w.r.t. a block's output,
saliency maps from input gradients, and removing every hook afterwards."""
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(59)


class Block(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x, scale=1.0):
        return F.relu(self.bn(self.conv(x))) * scale


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = Block(3, 4)
        self.layer1 = Block(4, 8)
        self.pool = nn.MaxPool2d(2)
        self.layer2 = Block(8, 8)
        self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 5))

    def forward(self, x):
        x = self.stem(x)
        x = self.pool(self.layer1(x))
        x = self.layer2(x, scale=0.5)
        return self.head(x)


class IntermediateLayerGetter(nn.ModuleDict):
    def __init__(self, model, return_layers):
        if not set(return_layers).issubset([name for name, _ in model.named_children()]):
            raise ValueError("return_layers are not present in model")
        orig_return_layers = return_layers
        return_layers = {str(k): str(v) for k, v in return_layers.items()}
        layers = OrderedDict()
        for name, module in model.named_children():
            layers[name] = module
            if name in return_layers:
                del return_layers[name]
            if not return_layers:
                break
        super().__init__(layers)
        self.return_layers = orig_return_layers

    def forward(self, x):
        out = OrderedDict()
        for name, module in self.items():
            x = module(x)
            if name in self.return_layers:
                out[self.return_layers[name]] = x
        return out


model = Net()
model.eval()
x = torch.randn(2, 3, 8, 8)
getter = IntermediateLayerGetter(model, {"layer1": "feat1", "layer2": "feat2"})
print("getter", list(getter.keys()), {k: tuple(v.shape) for k, v in getter(x).items()})
try:
    IntermediateLayerGetter(model, {"missing": "x"})
except ValueError as e:
    print("ValueError:", e)

features, order = {}, []


def save_output(name):
    def hook(module, args, kwargs, output):
        features[name] = output.detach()
        order.append((name, len(args), sorted(kwargs)))
    return hook


handles = [model.get_submodule(n).register_forward_hook(save_output(n), with_kwargs=True) for n in ("stem", "layer2")]
handles.append(model.layer2.register_forward_pre_hook(lambda m, args, kwargs: (args, {**kwargs, "scale": 2.0}), with_kwargs=True))
handles.append(model.layer1.register_forward_pre_hook(lambda m, args: (args[0] * 0.0,)))
handles.append(model.layer1.register_forward_hook(lambda m, a, out: order.append("layer1 first"), prepend=True))
handles.append(model.layer1.register_forward_hook(lambda m, a, out: order.append("layer1 second")))
out = model(x)
print("order", order)
print("layer2 with scale 2", features["layer2"].abs().sum().item(), "stem", features["stem"].mean().item())
print("zeroed input gives bias-only output", out[0])
for h in handles:
    h.remove()
print("after removal", torch.allclose(model(x), model.head(model.layer2(model.pool(model.layer1(model.stem(x))), scale=0.5))))

calls = []
with model.head.register_forward_hook(lambda m, a, o: calls.append(o.shape)):
    model(x)
model(x)
print("handle as context manager", calls)


class Boom(nn.Module):
    def forward(self, x):
        raise RuntimeError("boom")


boom = Boom()
always = []
boom.register_forward_hook(lambda m, a, o: always.append("always"), always_call=True)
boom.register_forward_hook(lambda m, a, o: always.append("normal"))
try:
    boom(x)
except RuntimeError as e:
    print("raised", e, always)

stats = OrderedDict()
global_handle = nn.modules.module.register_module_forward_hook(
    lambda m, a, o: stats.__setitem__(type(m).__name__ + str(len(stats)), (o.mean().item(), o.std().item(), (o == 0).float().mean().item()))
    if isinstance(o, torch.Tensor) else None)
model.train()
model(x)
global_handle.remove()
model(x)
print("global hook modules", len(stats), [k for k in stats][:5])
print("dead fraction in stem", round(stats["Block3"][2], 4) if "Block3" in stats else None)

grads = {}
model.layer2.register_full_backward_hook(lambda m, gin, gout: grads.__setitem__("layer2_out", gout[0].detach()))
model.layer2.register_full_backward_pre_hook(lambda m, gout: grads.__setitem__("pre", gout[0].shape))
inp = x.clone().requires_grad_(True)
model.eval()
score = model(inp)[:, 3].sum()
score.backward()
saliency = inp.grad.abs().amax(dim=1)
print("backward hooks", grads["pre"], grads["layer2_out"].abs().sum().item())
print("saliency", saliency.shape, saliency[0, 0].round(decimals=4))
print("hooks left", len(model.layer2._backward_hooks), len(model.layer2._forward_hooks), len(model.layer2._forward_pre_hooks))
