"""pytorch.org's "Extending PyTorch" note, autograd part: LinearFunction (forward, setup_context,
backward with needs_input_grad) used through a Linear-like module and checked with gradcheck,
MulConstant with a non-tensor argument (None gradient), MyCube returning an extra output with
mark_non_differentiable, set_materialize_grads(False) with None gradients, and the printed errors when
backward returns the wrong number of gradients or a gradient of the wrong shape."""
import torch
import torch.nn as nn
from torch.autograd import Function, gradcheck

torch.manual_seed(0)


class LinearFunction(Function):
    @staticmethod
    def forward(input, weight, bias):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


class MulConstant(Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, constant = inputs
        ctx.constant = constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None


class MyCube(Function):
    @staticmethod
    def forward(x):
        dx = 3 * x ** 2
        result = x ** 3
        return result, dx

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)

    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        result = grad_output * dx + grad_dx * 6 * x
        return result


class SimpleFunc(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.clone(), x.clone()

    @staticmethod
    def backward(ctx, g1, g2):
        print("grads are None:", g1 is None, g2 is None)
        if g1 is None:
            return g2 * 2
        return g1 if g2 is None else g1 + g2


class Argmax(Function):
    @staticmethod
    def forward(ctx, x):
        values, idx = x.max(1)
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(x, idx)
        return values, idx

    @staticmethod
    def backward(ctx, g, _):
        x, idx = ctx.saved_tensors
        return torch.zeros_like(x).scatter(1, idx.unsqueeze(1), g.unsqueeze(1))


class MyLinear(nn.Module):
    def __init__(self, input_features, output_features, bias=True):
        super().__init__()
        self.input_features = input_features
        self.output_features = output_features
        self.weight = nn.Parameter(torch.empty(output_features, input_features))
        if bias:
            self.bias = nn.Parameter(torch.empty(output_features))
        else:
            self.register_parameter("bias", None)
        self.weight.data.uniform_(-0.1, 0.1)
        if self.bias is not None:
            self.bias.data.uniform_(-0.1, 0.1)

    def forward(self, input):
        return LinearFunction.apply(input, self.weight, self.bias)

    def extra_repr(self):
        return "input_features={}, output_features={}, bias={}".format(
            self.input_features, self.output_features, self.bias is not None)


layer = MyLinear(4, 3)
print(layer)
x = torch.randn(5, 4)
out = layer(x)
print(out.grad_fn, out.grad_fn.name())
out.sum().backward()
print(layer.weight.grad, layer.bias.grad)
input = (torch.randn(20, 20, dtype=torch.double, requires_grad=True),
         torch.randn(30, 20, dtype=torch.double, requires_grad=True), None)
test = gradcheck(LinearFunction.apply, input, eps=1e-6, atol=1e-4)
print(test)

a = torch.tensor([1.0, 2.0], requires_grad=True)
y = MulConstant.apply(a, 3.0)
y.sum().backward()
print(y, a.grad)

x = torch.tensor([1.0, 2.0], requires_grad=True)
cube, dx = MyCube.apply(x)
print(cube, dx.requires_grad)
g, = torch.autograd.grad(cube.sum(), x, create_graph=True)
print(g)
print(gradcheck(lambda v: MyCube.apply(v)[0], (torch.tensor([1.5], dtype=torch.double, requires_grad=True),)))

x = torch.tensor([1.0, 2.0], requires_grad=True)
p, q = SimpleFunc.apply(x)
q.sum().backward()
print(x.grad)
m = torch.tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]], requires_grad=True)
values, idx = Argmax.apply(m)
print(values, idx, idx.requires_grad)
values.sum().backward()
print(m.grad)


class TooMany(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g, g


class WrongShape(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g.sum()


for fn in (TooMany, WrongShape):
    try:
        fn.apply(torch.ones(3, requires_grad=True)).sum().backward()
    except RuntimeError as e:
        print("RuntimeError:", e)
