import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.prune as prune
import torch.autograd.forward_ad as fwAD
from torch.func import jvp

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3)
        self.pool = nn.FractionalMaxPool2d(2, output_size=3)
        self.fc = nn.Linear(36, 16)
        self.out = nn.AdaptiveLogSoftmaxWithLoss(16, 10, cutoffs=[4, 7], div_value=2.0)

    def forward(self, x, target):
        x = self.pool(F.relu(self.conv(x)))
        return self.out(F.relu(self.fc(x.flatten(1))), target)


model = Net()
prune.l1_unstructured(model.conv, "weight", amount=0.3)
prune.ln_structured(model.fc, "weight", amount=0.25, n=2, dim=0)
prune.random_unstructured(model.fc, "bias", amount=3)
prune.global_unstructured([(model.out.head, "weight"), (model.out.tail[0][0], "weight")],
                          pruning_method=prune.L1Unstructured, amount=0.2)
print(list(model.state_dict().keys()))
print(prune.is_pruned(model), int(model.conv.weight_mask.sum()), int(model.fc.weight_mask.sum()),
      model.fc.bias_mask.tolist())

optimizer = torch.optim.Adafactor(model.parameters(), lr=0.05)
x = torch.randn(8, 1, 8, 8)
target = torch.randint(0, 10, (8,))
for step in range(5):
    optimizer.zero_grad()
    output, loss = model(x, target)
    loss.backward()
    optimizer.step()
    print(step, round(loss.item(), 4))
print(model.out.predict(F.relu(model.fc(model.pool(F.relu(model.conv(x))).flatten(1)))).tolist())
prune.remove(model.conv, "weight")
print(list(model.conv.state_dict().keys()), float(model.conv.weight.abs().sum()) > 0)

A = torch.randn(4, 4, dtype=torch.float64) + 4 * torch.eye(4, dtype=torch.float64)
B = torch.randn(4, 2, dtype=torch.float64)
LU, pivots = torch.linalg.lu_factor(A)
print(pivots.tolist())
print(torch.allclose(torch.linalg.lu_solve(LU, pivots, B), torch.linalg.solve(A, B)))
P, L, U = torch.linalg.lu(A)
print(torch.allclose(P @ L @ U, A), L.diagonal().tolist())
a, tau = torch.geqrf(A)
print(torch.allclose(torch.linalg.householder_product(a, tau).abs(), torch.linalg.qr(A).Q.abs()))

primal = torch.tensor([0.5, 1.0, 2.0])
tangent = torch.tensor([1.0, -1.0, 0.5])
with fwAD.dual_level():
    dual = fwAD.make_dual(primal, tangent)
    out = torch.tanh(dual) * dual.exp()
    p, t = fwAD.unpack_dual(out)
    print([round(v, 4) for v in p.tolist()], [round(v, 4) for v in t.tolist()])
value, derivative = jvp(lambda v: (v ** 3).sum(), (primal,), (tangent,))
print(round(value.item(), 4), round(derivative.item(), 4))
