"""Evaluation-time idioms and printing settings: torch.no_grad vs torch.inference_mode (decorators
and enable_grad inside no_grad), set_grad_enabled as a flag, requires_grad_ on the fly, then
set_printoptions (precision, sci_mode, linewidth, threshold/edgeitems, profile) on typical outputs,
torch.Generator objects (get_state/set_state, fork_rng, seed sequences) for reproducible sampling."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
x = torch.randn(3, 4)

# PyTorch's inference tensors (is_inference(), and the errors when one is later saved for backward or
# updated in place outside inference mode) are left out: tinyframe's inference_mode makes ordinary
# tensors that do not require grad, by design (tinyframe/grad_mode.py).
with torch.no_grad():
    y = model(x)
print(y.requires_grad, torch.is_grad_enabled())
with torch.inference_mode():
    z = model(x)
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
print(z.requires_grad, torch.equal(y, z))
w = z.clone()
w.add_(1)
print(w.requires_grad)


@torch.inference_mode()
def predict(m, inp):
    return m(inp).argmax(-1)


@torch.no_grad()
def evaluate(m, inp):
    with torch.enable_grad():
        inner = m(inp).sum()
    return m(inp), inner.requires_grad


print(predict(model, x))
out, inner_rg = evaluate(model, x)
print(out.requires_grad, inner_rg)
with torch.inference_mode(mode=False):
    print(model(x).requires_grad)
is_train = False
with torch.set_grad_enabled(is_train):
    print(model(x).requires_grad)
torch.set_grad_enabled(True)
with torch.no_grad():
    a = torch.ones(2)
a.requires_grad_()
print((a * 2).grad_fn is not None)

# printing
t = torch.tensor([[1.123456789, 2e-5, 300.5], [4.0, -5.25, 1e8]])
print(t)
torch.set_printoptions(precision=2)
print(t)
torch.set_printoptions(sci_mode=False)
print(t)
torch.set_printoptions(precision=4, sci_mode=None)
print(torch.tensor([0.1, 0.25, 1 / 3]))
torch.set_printoptions(threshold=10, edgeitems=2)
print(torch.arange(20.0))
print(torch.arange(60).reshape(5, 12))
torch.set_printoptions(linewidth=40)
print(torch.linspace(0, 1, 9))
torch.set_printoptions(profile="default")
print(torch.arange(5.0) / 3)
torch.set_printoptions(profile="short")
print(torch.randn(3, 3))
torch.set_printoptions(profile="default")
print(torch.tensor([1e-10, 1.0]), torch.tensor([float("nan"), float("inf"), -1.5]), torch.tensor(3.14159))
print(torch.tensor([True, False]), torch.tensor([1, 2], dtype=torch.int8), torch.zeros(2, 0), torch.tensor([1.5], dtype=torch.float64))

# generators
g = torch.Generator().manual_seed(123)
s = g.get_state()
a1 = torch.randn(3, generator=g)
g.set_state(s)
a2 = torch.randn(3, generator=g)
print(torch.equal(a1, a2), a1, g.initial_seed())
state = torch.get_rng_state()
r1 = torch.rand(2)
torch.set_rng_state(state)
print(torch.equal(r1, torch.rand(2)))
with torch.random.fork_rng():
    torch.manual_seed(5)
    inner = torch.rand(1)
after = torch.rand(1)
torch.manual_seed(5)
print(torch.equal(inner, torch.rand(1)), after)
gens = [torch.Generator().manual_seed(i) for i in range(3)]
print(torch.stack([torch.randint(0, 100, (2,), generator=gi) for gi in gens]))
print(torch.randperm(6, generator=torch.Generator().manual_seed(7)), torch.multinomial(torch.ones(5), 3, generator=torch.Generator().manual_seed(1)))
