"""Hooks as feature-extraction and debugging code uses them: a forward hook storing activations in a
dict (detach().clone()), forward pre-hooks with with_kwargs, prepend and always_call, global
nn.modules.module.register_module_forward_hook, full backward (pre-)hooks on a layer, Tensor.register_hook
and retain_grad, register_post_accumulate_grad_hook for optimizer-in-backward, autograd.graph.saved_tensors_hooks
(pack/unpack counting), register_multi_grad_hook, handle.remove(), and hooks that modify outputs."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3)
        self.bn = nn.BatchNorm2d(4)
        self.fc1 = nn.Linear(4 * 4 * 4, 16)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x, scale=1.0):
        x = F.relu(self.bn(self.conv(x)))
        x = torch.flatten(x, 1)
        return self.fc2(F.relu(self.fc1(x))) * scale


model = Net()
activation = {}


def get_activation(name):
    def hook(model, input, output):
        activation[name] = output.detach().clone()
    return hook


handles = [model.fc1.register_forward_hook(get_activation('fc1')), model.conv.register_forward_hook(get_activation('conv'))]
x = torch.randn(2, 1, 6, 6)
output = model(x)
print(activation['fc1'].shape, activation['conv'].shape, activation['fc1'][0, :4])

features = []
model.bn.register_forward_hook(lambda m, inp, out: features.append((type(m).__name__, inp[0].shape, out.mean().item())))
model.fc2.register_forward_hook(lambda m, inp, out: out * 0, prepend=True)
model.fc2.register_forward_hook(lambda m, inp, out: print("sees", out.abs().sum().item()))
print(model(x).abs().sum().item(), features[-1])


def pre_hook(module, args, kwargs):
    kwargs["scale"] = 2.0
    return args, kwargs


h = model.register_forward_pre_hook(pre_hook, with_kwargs=True)
order = []
model.register_forward_hook(lambda m, a, k, o: order.append(("kw", sorted(k), o.shape)), with_kwargs=True)
model.register_forward_pre_hook(lambda m, a: order.append("first"), prepend=True)
model(x)
print(order)
h.remove()
for hd in handles:
    hd.remove()
print(len(model._forward_hooks), len(model._forward_pre_hooks), len(model.fc1._forward_hooks))

calls = []
glob = nn.modules.module.register_module_forward_hook(lambda m, i, o: calls.append(type(m).__name__))
nn.Sequential(nn.Linear(2, 2), nn.ReLU())(torch.ones(1, 2))
glob.remove()
nn.Linear(2, 2)(torch.ones(1, 2))
print(calls)


class Failing(nn.Module):
    def forward(self, x):
        raise ValueError("boom")


f = Failing()
ran = []
f.register_forward_hook(lambda m, i, o: ran.append("always"), always_call=True)
try:
    f(torch.ones(1))
except ValueError as e:
    print("ValueError:", e, ran)

# backward hooks
lin = nn.Linear(3, 2)
grads = {}
lin.register_full_backward_pre_hook(lambda m, grad_output: grads.update(pre=grad_output[0].clone()))
lin.register_full_backward_hook(lambda m, grad_input, grad_output: grads.update(gin=grad_input[0], gout=grad_output[0]))
inp = torch.randn(4, 3, requires_grad=True)
lin(inp).pow(2).sum().backward()
print(grads["pre"].shape, torch.equal(grads["pre"], grads["gout"]), torch.allclose(grads["gin"], inp.grad))


def clip_hook(module, grad_input, grad_output):
    return tuple(g.clamp(-0.1, 0.1) if g is not None else None for g in grad_input)


inp.grad = None
lin.register_full_backward_hook(clip_hook)
lin(inp).pow(2).sum().backward()
print(inp.grad.abs().max().item())

# tensor hooks
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 2
b.retain_grad()
hb = b.register_hook(lambda g: g * 10)
c = (b ** 2).sum()
c.backward()
print(b.grad, a.grad, b.is_leaf, b.retains_grad)
hb.remove()

# optimizer step inside backward
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
optimizer_dict = {p: torch.optim.SGD([p], lr=0.1) for p in net.parameters()}


def optimizer_hook(parameter) -> None:
    optimizer_dict[parameter].step()
    optimizer_dict[parameter].zero_grad()


for p in net.parameters():
    p.register_post_accumulate_grad_hook(optimizer_hook)
before = net[0].weight.detach().clone()
for _ in range(3):
    loss = net(torch.ones(5, 3)).pow(2).mean()
    loss.backward()
print(round(loss.item(), 5), (net[0].weight - before).abs().sum().item() > 0, net[0].weight.grad)

# saved tensors hooks
packed = []


def pack_hook(t):
    packed.append(tuple(t.shape))
    return t.clone()


def unpack_hook(t):
    return t


w = torch.randn(3, 3, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = (w.exp() * w).sum()
y.backward()
print(len(packed) > 0, w.grad.shape)
with torch.autograd.graph.save_on_cpu():
    z = (w.sin() * 2).sum()
z.backward()
print(w.grad[0])

seen = []
p1 = torch.ones(2, requires_grad=True)
p2 = torch.ones(3, requires_grad=True)
torch.autograd.graph.register_multi_grad_hook((p1, p2), lambda grads: seen.append([g.shape if g is not None else None for g in grads]))
(p1.sum() * 2 + p2.sum()).backward()
print(seen)
