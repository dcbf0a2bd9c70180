"""pytorch.org's "Broadcasting semantics" note: which shapes broadcast (trailing dimensions equal, one
of them 1, or missing), the resulting sizes, in-place operations that may not change the shape of
their target (the RuntimeError), torch.broadcast_shapes / broadcast_tensors / expand_as, and the
backwards-compatibility example where a 4-element (4,1) and (1,4) pair make a 4x4 result."""
import torch

x = torch.empty(5, 7, 3)
y = torch.empty(5, 7, 3)
print((x + y).size())
x = torch.empty((0,))
y = torch.empty(2, 2)
try:
    x + y
except RuntimeError as e:
    print("RuntimeError:", e)
x = torch.empty(5, 3, 4, 1)
y = torch.empty(3, 1, 1)
print((x + y).size())
x = torch.empty(5, 2, 4, 1)
y = torch.empty(3, 1, 1)
try:
    (x + y).size()
except RuntimeError as e:
    print("RuntimeError:", e)
x = torch.empty(5, 1, 4, 1)
y = torch.empty(3, 1, 1)
print((x + y).size())
x = torch.empty(1)
y = torch.empty(3, 1, 7)
print((x + y).size())
x = torch.empty(5, 2, 4, 1)
y = torch.empty(3, 1, 1)
try:
    x + y
except RuntimeError as e:
    print("RuntimeError:", e)

# In-place semantics: the in-place tensor does not change shape.
x = torch.empty(5, 3, 4, 1)
y = torch.empty(3, 1, 1)
print(x.add_(y).size())
x = torch.empty(1, 3, 1)
y = torch.empty(3, 1, 7)
try:
    x.add_(y)
except RuntimeError as e:
    print("RuntimeError:", e)
for op in ("mul_", "sub_", "div_", "copy_"):
    try:
        getattr(torch.zeros(3), op)(torch.ones(2, 3))
    except RuntimeError as e:
        print(op, "RuntimeError:", e)

# Backwards compatibility: same number of elements, different shapes.
a = torch.add(torch.ones(4, 1), torch.randn(4))
print(a.shape)
print(torch.broadcast_shapes((2,), (3, 1), (1, 1, 1)))
try:
    torch.broadcast_shapes((2, 3), (3, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
p, q = torch.broadcast_tensors(torch.arange(3.0), torch.arange(2.0).view(2, 1))
print(p.shape, q.shape, p.stride(), q.stride())
print(p)
print(torch.arange(3.0).expand_as(torch.empty(2, 3)).is_contiguous())
w = torch.ones(2, 3, requires_grad=True)
b = torch.ones(3, requires_grad=True)
(w * b).sum().backward()
print(b.grad, b.grad.shape)
try:
    torch.ones(3).expand(2, 3).add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
