"""The optimizers people compare on the Rosenbrock function and a small regression (as in the
pytorch-optimizer README and many blog posts): Rprop, Adamax, NAdam (momentum_decay, decoupled weight
decay), RAdam (decoupled), ASGD, Adagrad with lr_decay, Adadelta, SGD with dampening and maximize,
AdamW amsgrad, plus per-group options, optimizer.state inspection and add_param_group."""
import torch
import torch.nn as nn


def rosenbrock(xy):
    x, y = xy
    return (1 - x) ** 2 + 100 * (y - x ** 2) ** 2


def run_optimizer(optimizer_class, iterations=60, **kwargs):
    xy = torch.tensor([-1.5, 2.0], requires_grad=True)
    optimizer = optimizer_class([xy], **kwargs)
    for _ in range(iterations):
        optimizer.zero_grad()
        loss = rosenbrock(xy)
        loss.backward()
        torch.nn.utils.clip_grad_norm_([xy], 1.0)
        optimizer.step()
    return xy.detach(), rosenbrock(xy).item()


configs = [
    (torch.optim.Rprop, dict(lr=0.01)),
    (torch.optim.Rprop, dict(lr=0.01, etas=(0.3, 1.5), step_sizes=(1e-5, 0.5))),
    (torch.optim.Adamax, dict(lr=0.05)),
    (torch.optim.NAdam, dict(lr=0.05)),
    (torch.optim.NAdam, dict(lr=0.05, momentum_decay=0.01, weight_decay=0.01, decoupled_weight_decay=True)),
    (torch.optim.RAdam, dict(lr=0.05)),
    (torch.optim.RAdam, dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True)),
    (torch.optim.ASGD, dict(lr=0.002, t0=20)),
    (torch.optim.Adagrad, dict(lr=0.3, lr_decay=0.01, initial_accumulator_value=0.1)),
    (torch.optim.Adadelta, dict(lr=5.0, rho=0.8)),
    (torch.optim.SGD, dict(lr=0.002, momentum=0.9, dampening=0.5)),
    (torch.optim.AdamW, dict(lr=0.05, amsgrad=True)),
]
for cls, kwargs in configs:
    xy, value = run_optimizer(cls, **kwargs)
    print(f"{cls.__name__:9s} {str(kwargs):70s} xy=({xy[0]:.4f}, {xy[1]:.4f}) f={value:.5f}")

# maximize=True climbs -f
xy = torch.tensor([0.5, 0.5], requires_grad=True)
opt = torch.optim.SGD([xy], lr=0.001, maximize=True)
for _ in range(5):
    opt.zero_grad()
    (-rosenbrock(xy)).backward()
    opt.step()
print("maximize:", xy.detach(), rosenbrock(xy).item())

# a regression with parameter groups and a group added later
torch.manual_seed(0)
X = torch.randn(64, 5)
true_w = torch.tensor([[1.0], [-2.0], [0.5], [0.0], [3.0]])
y = X @ true_w + 0.1 * torch.randn(64, 1)
body = nn.Linear(5, 8)
head = nn.Linear(8, 1)
optimizer = torch.optim.NAdam([{"params": body.parameters()}, {"params": head.weight, "lr": 0.01}], lr=0.02)
optimizer.add_param_group({"params": [head.bias], "lr": 0.05, "weight_decay": 0.0})
for epoch in range(40):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(head(torch.tanh(body(X))), y)
    loss.backward()
    optimizer.step()
    if epoch % 10 == 9:
        print(f"epoch {epoch + 1} loss {loss.item():.5f}")
print([g["lr"] for g in optimizer.param_groups], [len(g["params"]) for g in optimizer.param_groups])
print(sorted(optimizer.param_groups[1].keys()))
state = optimizer.state[head.weight]
print(sorted(state.keys()), state["step"], state["mu_product"])
print(state["exp_avg"].shape, state["exp_avg_sq"].sum().item())

asgd = torch.optim.ASGD(body.parameters(), lr=0.01, t0=2)
for _ in range(4):
    asgd.zero_grad()
    nn.functional.mse_loss(head(torch.tanh(body(X))), y).backward()
    asgd.step()
s = asgd.state[body.weight]
print(sorted(s.keys()), s["eta"], s["mu"], s["ax"][0, :3])
rp = torch.optim.Rprop([body.bias], lr=0.01)
for _ in range(3):
    rp.zero_grad()
    nn.functional.mse_loss(head(torch.tanh(body(X))), y).backward()
    rp.step()
print(rp.state[body.bias]["step_size"], rp.state[body.bias]["prev"][:3])
