"""Weight-initialisation code as model zoos write it: nn.init.calculate_gain for each nonlinearity,
_calculate_fan_in_and_fan_out for Linear/Conv weights, kaiming_uniform_/kaiming_normal_ with mode and
nonlinearity (fan_in vs fan_out bounds checked against the sample spread), xavier_uniform_ /
xavier_normal_ with gain, orthogonal_ (W W^T = I), trunc_normal_ bounds, sparse_, eye_/dirac_
identity inits, constant_/zeros_/ones_, Linear's reset_parameters reproduced by hand, an init_weights
function applied with model.apply and a seeded re-init giving identical weights, and the errors
init raises for bad shapes and modes."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
for nl in ["linear", "conv2d", "sigmoid", "tanh", "relu", "selu"]:
    print(nl, round(nn.init.calculate_gain(nl), 6))
print("leaky_relu", round(nn.init.calculate_gain("leaky_relu", 0.2), 6), round(nn.init.calculate_gain("leaky_relu"), 6))
for shape in [(16, 8), (6, 3, 5, 5), (4, 2, 3)]:
    w = torch.empty(shape)
    print(shape, nn.init._calculate_fan_in_and_fan_out(w))

w = torch.empty(256, 128)
nn.init.kaiming_uniform_(w, a=0, mode="fan_in", nonlinearity="relu")
bound = math.sqrt(6 / 128)
print("kaiming_uniform max<=bound", w.abs().max().item() <= bound, round(w.std().item(), 2), round(math.sqrt(2 / 128), 2))
nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
print("kaiming_normal std", round(w.std().item(), 2), round(math.sqrt(2 / 256), 2))
nn.init.xavier_uniform_(w, gain=nn.init.calculate_gain("tanh"))
print("xavier_uniform", round(w.abs().max().item(), 2), round(5 / 3 * math.sqrt(6 / 384), 2))
nn.init.xavier_normal_(w)
print("xavier_normal std", round(w.std().item(), 2), round(math.sqrt(2 / 384), 2))
q = torch.empty(6, 10)
nn.init.orthogonal_(q, gain=2.0)
print("orthogonal", torch.allclose(q @ q.T, 4 * torch.eye(6), atol=1e-5), q.shape)
q2 = torch.empty(10, 6)
nn.init.orthogonal_(q2)
print("orthogonal tall", torch.allclose(q2.T @ q2, torch.eye(6), atol=1e-5))
t = torch.empty(1000)
nn.init.trunc_normal_(t, mean=0.5, std=1.0, a=-0.5, b=1.0)
print("trunc_normal bounds", t.min().item() >= -0.5, t.max().item() <= 1.0)
s = torch.empty(10, 4)
nn.init.sparse_(s, sparsity=0.3)
print("sparse zeros per column", (s == 0).sum(0).tolist())
e = torch.empty(3, 5)
print("eye_", nn.init.eye_(e).tolist())
d = torch.empty(2, 2, 3, 3)
nn.init.dirac_(d)
print("dirac centre", d[:, :, 1, 1].tolist(), d.sum().item())
x = torch.randn(1, 2, 5, 5)
print("dirac conv is identity", torch.allclose(F.conv2d(x, d, padding=1), x))
c = torch.empty(2, 3)
print(nn.init.constant_(c, 0.3).tolist(), nn.init.zeros_(c).sum().item(), nn.init.ones_(c).sum().item())
print("returns same tensor", nn.init.ones_(c) is c)

torch.manual_seed(1)
lin = nn.Linear(5, 3)
torch.manual_seed(1)
w = torch.empty(3, 5)
b = torch.empty(3)
nn.init.kaiming_uniform_(w, a=math.sqrt(5))
fan_in, _ = nn.init._calculate_fan_in_and_fan_out(w)
bound = 1 / math.sqrt(fan_in)
nn.init.uniform_(b, -bound, bound)
print("Linear.reset_parameters by hand", torch.equal(lin.weight.data, w), torch.equal(lin.bias.data, b))


def init_weights(m):
    if isinstance(m, nn.Linear):
        torch.nn.init.xavier_uniform_(m.weight)
        m.bias.data.fill_(0.01)
    elif isinstance(m, nn.Conv2d):
        nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="leaky_relu")
    elif isinstance(m, nn.BatchNorm2d):
        nn.init.constant_(m.weight, 1)
        nn.init.constant_(m.bias, 0)
    elif isinstance(m, (nn.LSTM, nn.GRU)):
        for name, param in m.named_parameters():
            if "weight_ih" in name:
                nn.init.xavier_uniform_(param.data)
            elif "weight_hh" in name:
                nn.init.orthogonal_(param.data)
            elif "bias" in name:
                param.data.fill_(0)
                n = param.size(0)
                param.data[n // 4:n // 2].fill_(1)


net = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.Flatten(), nn.Linear(4 * 4 * 4, 2))
lstm = nn.LSTM(3, 4)
torch.manual_seed(5)
net.apply(init_weights)
lstm.apply(init_weights)
first = [p.clone() for p in net.parameters()]
torch.manual_seed(5)
net.apply(init_weights)
print("seeded re-init identical", all(torch.equal(a, b) for a, b in zip(first, net.parameters())))
print("lstm forget bias", lstm.bias_ih_l0[4:8].tolist(), lstm.bias_hh_l0.sum().item())
print("lstm hh orthogonal", torch.allclose(lstm.weight_hh_l0.T @ lstm.weight_hh_l0, torch.eye(4), atol=1e-5))
print("linear bias", net[3].bias.tolist(), net[3].weight.requires_grad, net[3].weight.grad_fn)
for bad in [lambda: nn.init.xavier_uniform_(torch.empty(5)),
            lambda: nn.init.kaiming_uniform_(torch.empty(3, 4), mode="fan_avg"),
            lambda: nn.init.calculate_gain("gelu"),
            lambda: nn.init.orthogonal_(torch.empty(3)),
            lambda: nn.init.eye_(torch.empty(2, 2, 2)),
            lambda: nn.init.dirac_(torch.empty(2, 2))]:
    try:
        bad()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__ + ":", e)
