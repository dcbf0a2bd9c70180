import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x ** 3).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g, g.grad_fn is not None)
g2, = torch.autograd.grad(g.sum(), x)
print(g2)
x = torch.tensor(2.0, requires_grad=True)
y = x ** 4
dy = torch.autograd.grad(y, x, create_graph=True)[0]
d2y = torch.autograd.grad(dy, x, create_graph=True)[0]
d3y = torch.autograd.grad(d2y, x)[0]
print(dy.item(), d2y.item(), d3y.item())


@torch.no_grad()
def evaluate(t):
    return t * 2


print(evaluate(x).requires_grad)
with torch.inference_mode():
    z = x * 2
print(z.requires_grad, torch.is_inference_mode_enabled())
with torch.enable_grad():
    print((x * 2).requires_grad)
with torch.no_grad():
    with torch.enable_grad():
        print((x * 2).requires_grad)
w = torch.tensor([1.0, -1.0], requires_grad=True)
h = w.register_hook(lambda grad: grad * 2)
(w * 3).sum().backward()
print(w.grad)
h.remove()
w.grad.zero_()
(w * 3).sum().backward()
print(w.grad)
a = torch.tensor([0.5, 1.5], requires_grad=True)
b = a.exp()
b.backward(torch.ones(2))
print(a.grad)
print(b.grad_fn.next_functions)
c = a.detach().clone()
c.requires_grad = True
print(c.is_leaf, c.requires_grad)
d = a.clone()
print(d.grad_fn, d.is_leaf)
try:
    a.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
e = a * 1
f = e.sigmoid()
e.mul_(2)
try:
    f.sum().backward()
    print(a.grad)
except RuntimeError as err:
    print("RuntimeError:", str(err)[:80])
p = torch.tensor([1.0, 2.0], requires_grad=True)
q = p.sin()
q.mul_(2)
q.sum().backward()
print(p.grad, q.grad_fn)
x = torch.randn(3, requires_grad=True)
print(torch.autograd.functional.jacobian(lambda t: t ** 2, torch.tensor([1.0, 2.0])))
print(torch.autograd.functional.hessian(lambda t: (t ** 3).sum(), torch.tensor([1.0, 2.0])))
