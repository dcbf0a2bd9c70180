"""pytorch.org's "Forward-mode Automatic Differentiation" tutorial: dual_level / make_dual /
unpack_dual (a namedtuple with primal and tangent), tangents through ops and of non-dual tensors
(None), forward AD through an nn.Module with make_dual on its parameters via functional_call,
the functional torch.func.jvp, and Jacobian columns built from jvp."""
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn as nn
from torch.func import functional_call, jvp

torch.manual_seed(0)
primal = torch.randn(10, 10)
tangent = torch.randn(10, 10)


def fn(x, y):
    return x ** 2 + y ** 2


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    plain_tensor = torch.randn(10, 10)
    dual_output = fn(dual_input, plain_tensor)
    jvp_out = fwAD.unpack_dual(dual_output)
    print(type(jvp_out).__name__, jvp_out._fields)
    print(torch.allclose(jvp_out.tangent, 2 * primal * tangent))
    print(fwAD.unpack_dual(plain_tensor).tangent)
    print(jvp_out.primal.shape, jvp_out.tangent.shape)

model = nn.Linear(5, 5)
input = torch.randn(16, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    dual_params = {}
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out = functional_call(model, dual_params, input)
    jvp_tangent = fwAD.unpack_dual(out).tangent
print(jvp_tangent.shape)
expected = input @ tangents["weight"].T + tangents["bias"]
print(torch.allclose(jvp_tangent, expected, atol=1e-6))


primal = torch.randn(10, 10)
tangent = torch.randn(10, 10)
y = torch.randn(10, 10)
import functools
new_fn = functools.partial(lambda x, y: x ** 2 + y ** 2, y=y)
primal_out, tangent_out = jvp(new_fn, (primal,), (tangent,))
print(torch.allclose(tangent_out, 2 * primal * tangent), primal_out.shape)


def f(x):
    return torch.stack([x[0] * x[1], x[1].sin(), x.sum()])


x = torch.tensor([1.0, 2.0])
columns = [jvp(f, (x,), (e,))[1] for e in torch.eye(2)]
print(torch.stack(columns, 1))
print(torch.autograd.functional.jacobian(f, x))
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([0.5, 1.5]), torch.tensor([1.0, 0.0]))
    for op in (torch.sigmoid, torch.tanh, torch.log, torch.sqrt, torch.nn.functional.softplus):
        p, t = fwAD.unpack_dual(op(d))
        print(op.__name__, [round(v, 4) for v in t.tolist()])
    m = d.view(2, 1).expand(2, 3).sum(1)
    print(fwAD.unpack_dual(m).tangent)
