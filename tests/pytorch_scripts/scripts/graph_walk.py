import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.ones(5)
y = torch.zeros(3)
w = torch.linspace(-1, 1, 15).reshape(5, 3).requires_grad_()
b = torch.linspace(0, 1, 3).requires_grad_()
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(f"Gradient function for z = {z.grad_fn}".split(" object")[0])
print(f"Gradient function for loss = {loss.grad_fn}".split(" object")[0])
loss.backward()
print(w.grad)
print(b.grad)
z = torch.matmul(x, w) + b
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w) + b
print(z.requires_grad)
z_det = (torch.matmul(x, w) + b).detach()
print(z_det.requires_grad)
inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")


def walk(fn, depth=0, seen=None):
    seen = set() if seen is None else seen
    if fn is None or fn in seen or depth > 6:
        return
    seen.add(fn)
    print("  " * depth + type(fn).__name__)
    for nxt, _ in fn.next_functions:
        walk(nxt, depth + 1, seen)


a = torch.tensor([1.0, 2.0], requires_grad=True)
c = (a.exp() * a.sin()).sum() / a.norm()
walk(c.grad_fn)
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
r = (m @ m.T).relu().mean(dim=0).max()
walk(r.grad_fn)
s = torch.cat([a, a * 2]).view(2, 2)[1].softmax(0).log()[0]
walk(s.grad_fn)
t = F.mse_loss(a.unsqueeze(0).expand(3, 2).reshape(-1), torch.zeros(6))
walk(t.grad_fn)
print(c.grad_fn.next_functions[0][1], len(c.grad_fn.next_functions))
