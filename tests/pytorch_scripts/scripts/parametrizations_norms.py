"""nn.utils.parametrizations as GAN and RNN code uses them: spectral_norm on a discriminator
(power iteration buffers _u/_v, n_power_iterations, eval mode freezing u), weight_norm (original0 = g,
original1 = v, dim=None) and the legacy nn.utils.weight_norm/spectral_norm hooks (weight_g/weight_v,
weight_orig/weight_u), orthogonal on a square recurrent matrix (Q^T Q = I after optimizer steps,
orthogonal_map choices) and a custom Symmetric parametrization with right_inverse."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import parametrizations, parametrize

torch.manual_seed(0)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            parametrizations.spectral_norm(nn.Conv2d(1, 4, 3, 2, 1)),
            nn.LeakyReLU(0.2, inplace=True),
            parametrizations.spectral_norm(nn.Conv2d(4, 8, 3, 2, 1)),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Flatten(),
            parametrizations.spectral_norm(nn.Linear(8 * 2 * 2, 1)),
        )

    def forward(self, x):
        return self.main(x)


D = Discriminator()
sn = D.main[0].parametrizations.weight[0]
print(type(sn).__name__, sn.n_power_iterations, sn.eps, sn.dim, sn._u.shape, sn._v.shape)
print(sorted(D.main[0].state_dict().keys()))
optD = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
real = torch.randn(8, 1, 8, 8)
fake = torch.randn(8, 1, 8, 8) * 0.5
for step in range(3):
    optD.zero_grad()
    loss = F.relu(1.0 - D(real)).mean() + F.relu(1.0 + D(fake)).mean()
    loss.backward()
    optD.step()
    print(step, round(loss.item(), 5))
W = D.main[5].weight
print(torch.linalg.matrix_norm(W, ord=2).item())
u_before = sn._u.clone()
D.eval()
with torch.no_grad():
    out = D(real)
print(torch.equal(u_before, sn._u), out.shape)
D.train()
D(real)
print(torch.equal(u_before, sn._u))

# weight_norm
lin = parametrizations.weight_norm(nn.Linear(5, 3))
g, v = lin.parametrizations.weight.original0, lin.parametrizations.weight.original1
print(g.shape, v.shape, torch.allclose(lin.weight, g * v / v.norm(dim=1, keepdim=True)))
lin_none = parametrizations.weight_norm(nn.Linear(5, 3), dim=None)
print(lin_none.parametrizations.weight.original0.shape, lin_none.parametrizations.weight.original0)
old = nn.utils.weight_norm(nn.Linear(5, 3), name="weight")
print(sorted(n for n, _ in old.named_parameters()), old.weight_g.shape)
nn.utils.remove_weight_norm(old)
print(sorted(n for n, _ in old.named_parameters()))
old_sn = nn.utils.spectral_norm(nn.Linear(5, 3))
print(sorted(n for n, _ in old_sn.named_parameters()), sorted(n for n, _ in old_sn.named_buffers()))
y = old_sn(torch.randn(2, 5))
print(y.shape, torch.linalg.matrix_norm(old_sn.weight.detach(), ord=2).item() < 1.5)

# orthogonal recurrent weight
rnn_cell = nn.Linear(6, 6, bias=False)
parametrizations.orthogonal(rnn_cell)
Q = rnn_cell.weight
print(torch.allclose(Q.T @ Q, torch.eye(6), atol=1e-5), type(rnn_cell.parametrizations.weight[0]).__name__)
opt = torch.optim.SGD(rnn_cell.parameters(), lr=0.1)
h = torch.randn(4, 6)
for _ in range(3):
    opt.zero_grad()
    out = h
    for _ in range(5):
        out = torch.tanh(rnn_cell(out))
    l = (out - 0.5).pow(2).mean()
    l.backward()
    opt.step()
print(round(l.item(), 5), torch.allclose(rnn_cell.weight.T @ rnn_cell.weight, torch.eye(6), atol=1e-5))
for m in ["matrix_exp", "cayley", "householder"]:
    layer = parametrizations.orthogonal(nn.Linear(4, 3), orthogonal_map=m)
    W = layer.weight
    print(m, W.shape, torch.allclose(W @ W.T, torch.eye(3), atol=1e-5))


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

    def right_inverse(self, A):
        return A.triu()


layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Symmetric())
A = torch.rand(3, 3)
A = A + A.T
layer.weight = A
print(torch.allclose(layer.weight, A), torch.allclose(layer.parametrizations.weight.original, A.triu()))
print(layer)
print(parametrize.type_before_parametrizations(layer).__name__, layer.parametrizations.weight.original.requires_grad)
