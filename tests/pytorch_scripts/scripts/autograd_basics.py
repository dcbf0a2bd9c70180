import torch

x = torch.ones(2, 2, requires_grad=True)
print(x)
y = x + 2
print(y)
print(y.grad_fn)
print(type(y.grad_fn).__name__, y.grad_fn.name())
z = y * y * 3
out = z.mean()
print(z, out)
a = torch.tensor([[1.0, -2.0], [3.0, 0.5]])
a = ((a * 3) / (a - 1))
print(a.requires_grad)
a.requires_grad_(True)
print(a.requires_grad)
b = (a * a).sum()
print(b.grad_fn)
out.backward()
print(x.grad)
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = x * 2
i = 0
while y.data.norm() < 100:
    y = y * 2
    i += 1
print(i, y)
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
print(x.grad)
print(x.requires_grad)
print((x ** 2).requires_grad)
with torch.no_grad():
    print((x ** 2).requires_grad)
print(x.requires_grad)
y = x.detach()
print(y.requires_grad)
print(x.eq(y).all())
print(torch.is_grad_enabled())
torch.set_grad_enabled(False)
print(torch.is_grad_enabled(), (x * 2).requires_grad)
torch.set_grad_enabled(True)
w = torch.tensor([1.0, 2.0], requires_grad=True)
l = (w * w).sum()
l.backward(retain_graph=True)
l.backward()
print(w.grad)
l = (w.exp()).sum()
l.backward()
try:
    l.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split("\n")[0][:60])
try:
    torch.tensor([1, 2], requires_grad=True)
except RuntimeError as e:
    print("RuntimeError:", e)
q = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    (q * 2).backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(q.is_leaf, (q * 2).is_leaf, q.grad_fn)
h = q * 3
h.retain_grad()
h.sum().backward()
print(h.grad, q.grad)
