"""pytorch.org's "Parametrizations Tutorial": Symmetric and Skew parametrizations registered with
torch.nn.utils.parametrize, the parametrized module's repr and state_dict keys, caching with
parametrize.cached(), concatenating parametrizations (MatrixExponential after Skew gives an orthogonal
matrix), right_inverse for initialisation, an error when right_inverse is missing, and removing
parametrizations with leave_parametrized True / False."""
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as parametrize

torch.manual_seed(0)


def symmetric(X):
    return X.triu() + X.triu(1).transpose(-1, -2)


X = torch.rand(3, 3)
A = symmetric(X)
print(torch.allclose(A, A.T))
print(A)


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Symmetric())
A = layer.weight
print(torch.allclose(A, A.T))
print(A)


class Skew(nn.Module):
    def forward(self, X):
        A = X.triu(1)
        return A - A.transpose(-1, -2)


cnn = nn.Conv2d(in_channels=5, out_channels=8, kernel_size=3)
parametrize.register_parametrization(cnn, "weight", Skew())
print(torch.allclose(cnn.weight, -cnn.weight.transpose(-1, -2)))
print(cnn.weight[0, 1])
print(cnn.weight[2, 2])
print(layer)
print(layer.parametrizations.weight.original.shape)
print(list(layer.state_dict().keys()))
print(parametrize.is_parametrized(layer), parametrize.is_parametrized(layer, "bias"))
print(type(layer).__name__, type(layer).__mro__[1].__name__)

with parametrize.cached():
    foo = layer.weight
    bar = layer.weight
    print(foo is bar)
print(layer.weight is layer.weight)


class MatrixExponential(nn.Module):
    def forward(self, X):
        return torch.matrix_exp(X)


layer_orthogonal = nn.Linear(3, 3)
parametrize.register_parametrization(layer_orthogonal, "weight", Skew())
parametrize.register_parametrization(layer_orthogonal, "weight", MatrixExponential())
X = layer_orthogonal.weight
print(torch.dist(X.T @ X, torch.eye(3)) < 1e-5)
print(layer_orthogonal.parametrizations.weight)
layer_spd = nn.Linear(3, 3)
parametrize.register_parametrization(layer_spd, "weight", Symmetric())
parametrize.register_parametrization(layer_spd, "weight", MatrixExponential())
print((torch.linalg.eigvalsh(layer_spd.weight) > 0.0).all())


class Symmetric2(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

    def right_inverse(self, A):
        return A.triu()


layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Symmetric2())
X = torch.rand(3, 3)
X = X + X.T
layer.weight = X
print(torch.allclose(layer.weight, X))
layer2 = nn.Linear(3, 3)
parametrize.register_parametrization(layer2, "weight", Symmetric())
try:
    layer2.weight = X
except RuntimeError as e:
    print("RuntimeError:", e)

layer = nn.Linear(3, 3)
print("Before:")
print(layer)
print(layer.weight)
parametrize.register_parametrization(layer, "weight", Skew())
print("\nParametrized:")
print(layer)
print(layer.weight)
parametrize.remove_parametrizations(layer, "weight")
print("\nAfter. Weight has skew-symmetric values but it is unconstrained:")
print(layer)
print(layer.weight)
layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Skew())
parametrize.remove_parametrizations(layer, "weight", leave_parametrized=False)
print(layer.weight.shape, parametrize.is_parametrized(layer))
opt = torch.optim.SGD(layer_orthogonal.parameters(), lr=0.1)
for _ in range(3):
    opt.zero_grad()
    (layer_orthogonal(torch.ones(4, 3)) ** 2).sum().backward()
    opt.step()
Q = layer_orthogonal.weight
print(torch.allclose(Q.T @ Q, torch.eye(3), atol=1e-5), layer_orthogonal.parametrizations.weight.original.grad.shape)
