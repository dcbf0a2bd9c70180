"""pytorch.org's "Autograd mechanics" note: saved tensors seen through grad_fn._saved_self /
_saved_result (the same object as the output for exp), requires_grad propagation and freezing a
pretrained model's parameters, grad modes (no_grad, inference_mode, set_grad_enabled, eval mode is not a
grad mode), in-place correctness checks (the version counter error), saved tensor hooks
(saved_tensors_hooks, save_on_cpu, disable_saved_tensors_hooks), Node.register_hook and
register_prehook, and register_multi_grad_hook."""
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self))
print(x is y.grad_fn._saved_self)
y = x.exp()
print(y.equal(y.grad_fn._saved_result))
print(y is y.grad_fn._saved_result)
print(y.grad_fn._saved_result.requires_grad)

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
for param in model.parameters():
    param.requires_grad = False
model[2] = nn.Linear(8, 3)
out = model(torch.randn(2, 4)).sum()
out.backward()
print([p.grad is None for p in model.parameters()])
print(out.grad_fn.name(), out.requires_grad)

with torch.no_grad():
    a = x * 2
print(a.requires_grad, a.grad_fn)
with torch.inference_mode():
    b = x * 2
print(b.requires_grad, b.is_inference())
try:
    (b * x).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
torch.set_grad_enabled(False)
c = x * 2
torch.set_grad_enabled(True)
print(c.requires_grad, torch.is_grad_enabled())
model.eval()
print(model(torch.randn(1, 4)).requires_grad)

a = torch.randn(3, requires_grad=True)
b = a.sigmoid()
b.mul_(2)
try:
    b.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(b._version)

def pack_hook(t):
    print("Packing", t.shape)
    return t


def unpack_hook(t):
    print("Unpacking", t.shape)
    return t


a = torch.ones(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * a
y.sum().backward()
print(a.grad)
with torch.autograd.graph.save_on_cpu(pin_memory=False):
    z = (a * a.exp()).sum()
z.backward()
print(a.grad)
a.grad = None
with torch.autograd.graph.disable_saved_tensors_hooks("saving is off"):
    try:
        with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
            pass
    except RuntimeError as e:
        print("RuntimeError:", e)

x = torch.randn(3, requires_grad=True)
y = x * 2
z = y.exp()
h = z.grad_fn.register_hook(lambda gi, go: print("post", [t.shape for t in gi], [t.shape for t in go]))
z.grad_fn.register_prehook(lambda go: print("pre", go[0].shape))
z.sum().backward()
h.remove()
a = torch.rand(2, 3, requires_grad=True)
b = torch.rand(2, 3, requires_grad=True)
c = a * b
d = a * b


def fn(grads):
    print([g is not None for g in grads])


torch.autograd.graph.register_multi_grad_hook((a, b, c, d), fn)
c.sum().backward(retain_graph=True)
c.sum().backward(inputs=(a,), retain_graph=True)
print(torch.autograd.graph.get_gradient_edge(c).node.name())
