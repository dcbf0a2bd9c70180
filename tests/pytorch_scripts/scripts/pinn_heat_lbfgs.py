"""Physics-informed networks as in the PINN tutorials (Raissi et al. re-implementations): the 1D heat
equation u_t = k u_xx and Burgers' residual from nested torch.autograd.grad calls with create_graph=True
and grad_outputs=torch.ones_like, boundary/initial losses, Adam then L-BFGS with strong Wolfe line search
and a closure, an inverse problem learning k, and the gradient of the loss through second derivatives."""
import math

import torch
import torch.nn as nn

torch.manual_seed(1)
torch.set_default_dtype(torch.float64)


class PINN(nn.Module):
    def __init__(self, layers=(2, 20, 20, 1)):
        super().__init__()
        mods = []
        for i in range(len(layers) - 2):
            mods += [nn.Linear(layers[i], layers[i + 1]), nn.Tanh()]
        mods.append(nn.Linear(layers[-2], layers[-1]))
        self.net = nn.Sequential(*mods)
        for m in self.net:
            if isinstance(m, nn.Linear):
                nn.init.xavier_normal_(m.weight)
                nn.init.zeros_(m.bias)

    def forward(self, x, t):
        return self.net(torch.cat([x, t], dim=1))


def derivatives(u, x, t):
    u_x = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), create_graph=True, retain_graph=True)[0]
    u_t = torch.autograd.grad(u, t, grad_outputs=torch.ones_like(u), create_graph=True, retain_graph=True)[0]
    u_xx = torch.autograd.grad(u_x, x, grad_outputs=torch.ones_like(u_x), create_graph=True, retain_graph=True)[0]
    return u_x, u_t, u_xx


x_f = (torch.rand(200, 1) * 2 - 1).requires_grad_(True)
t_f = torch.rand(200, 1).requires_grad_(True)
x_0 = torch.linspace(-1, 1, 40).unsqueeze(1)
t_0 = torch.zeros_like(x_0)
u_0 = torch.sin(math.pi * x_0)
t_b = torch.linspace(0, 1, 20).unsqueeze(1)
k_true = 0.1


def heat_loss(model, k):
    u = model(x_f, t_f)
    _, u_t, u_xx = derivatives(u, x_f, t_f)
    residual = u_t - k * u_xx
    loss_f = residual.pow(2).mean()
    loss_0 = (model(x_0, t_0) - u_0).pow(2).mean()
    loss_b = model(-torch.ones_like(t_b), t_b).pow(2).mean() + model(torch.ones_like(t_b), t_b).pow(2).mean()
    return loss_f, loss_0 + loss_b


model = PINN()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for epoch in range(90):
    loss_f, loss_d = heat_loss(model, k_true)
    loss = loss_f + loss_d
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 30 == 29:
        print(f"adam {epoch + 1} residual {loss_f.item():.3e} data {loss_d.item():.3e}")

lbfgs = torch.optim.LBFGS(model.parameters(), lr=1.0, max_iter=25, history_size=20, line_search_fn="strong_wolfe",
                          tolerance_grad=1e-9, tolerance_change=1e-12)
calls = []


def closure():
    lbfgs.zero_grad()
    loss_f, loss_d = heat_loss(model, k_true)
    loss = loss_f + loss_d
    loss.backward()
    calls.append(loss.item())
    return loss


for _ in range(2):
    lbfgs.step(closure)
state = lbfgs.state[lbfgs._params[0]]
print(f"lbfgs closures {len(calls)} final {calls[-1]:.3e} n_iter {state['n_iter']} func_evals {state['func_evals']}")
x_test = torch.linspace(-1, 1, 5).unsqueeze(1)
t_test = torch.full_like(x_test, 0.5)
exact = torch.sin(math.pi * x_test) * math.exp(-k_true * math.pi ** 2 * 0.5)
with torch.no_grad():
    print("u(x, 0.5)", model(x_test, t_test).squeeze(1), "\nexact    ", exact.squeeze(1))

k = nn.Parameter(torch.tensor(0.5))
inverse_model = PINN()
x_d = torch.rand(100, 1) * 2 - 1
t_d = torch.rand(100, 1)
u_d = torch.sin(math.pi * x_d) * torch.exp(-k_true * math.pi ** 2 * t_d)
opt = torch.optim.Adam([{"params": inverse_model.parameters()}, {"params": [k], "lr": 1e-2}], lr=5e-3)
for epoch in range(120):
    u = inverse_model(x_f, t_f)
    _, u_t, u_xx = derivatives(u, x_f, t_f)
    loss = (u_t - k * u_xx).pow(2).mean() + (inverse_model(x_d, t_d) - u_d).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 40 == 39:
        print(f"inverse {epoch + 1} loss {loss.item():.4e} k {k.item():.5f} k.grad {k.grad.item():.3e}")

burgers = PINN((2, 10, 10, 1))
nu = 0.01 / math.pi
u = burgers(x_f, t_f)
u_x, u_t, u_xx = derivatives(u, x_f, t_f)
f = u_t + u * u_x - nu * u_xx
loss = f.pow(2).mean()
grads = torch.autograd.grad(loss, list(burgers.parameters()), retain_graph=True)
print("burgers residual", round(loss.item(), 8), [round(g.norm().item(), 6) for g in grads])
u_xxx = torch.autograd.grad(u_xx.sum(), x_f)[0]
print("third derivative", u_xxx[:3].squeeze(1))
torch.set_default_dtype(torch.float32)
