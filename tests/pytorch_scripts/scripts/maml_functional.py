"""Meta-learning as learn2learn-free research code writes it: MAML on sine-wave regression with
torch.func.functional_call over a dict of named parameters, inner-loop updates from
torch.autograd.grad(create_graph=True) for second-order MAML and without it for first-order MAML,
a meta-batch of tasks averaged into the outer loss, Reptile's interpolation with a deepcopy'd model and
torch.no_grad parameter updates, prototypical networks (class prototypes by mean, negative squared
torch.cdist distances as logits), and an ANIL-style frozen body via requires_grad_(False)."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

torch.manual_seed(0)


def sample_task():
    amplitude = torch.rand(1).item() * 4.9 + 0.1
    phase = torch.rand(1).item() * math.pi
    def task(n):
        x = torch.rand(n, 1) * 10 - 5
        return x, amplitude * torch.sin(x + phase)
    return task


model = nn.Sequential(nn.Linear(1, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
meta_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
inner_lr, inner_steps = 0.01, 1


def adapt(params, x, y, first_order=False):
    for _ in range(inner_steps):
        loss = F.mse_loss(functional_call(model, params, (x,)), y)
        grads = torch.autograd.grad(loss, list(params.values()), create_graph=not first_order)
        params = {name: p - inner_lr * g for (name, p), g in zip(params.items(), grads)}
    return params


for first_order in (False, True):
    for it in range(3):
        meta_opt.zero_grad()
        outer = 0.0
        for _ in range(4):
            task = sample_task()
            xs, ys = task(10)
            xq, yq = task(10)
            fast = adapt(dict(model.named_parameters()), xs, ys, first_order)
            outer = outer + F.mse_loss(functional_call(model, fast, (xq,)), yq)
        outer = outer / 4
        outer.backward()
        meta_opt.step()
        print(f"{'FOMAML' if first_order else 'MAML'} iter {it} meta-loss {outer.item():.4f} "
              f"grad {model[0].weight.grad.norm().item():.5f}")
print(list(fast.keys()), fast["0.weight"].grad_fn.name(), fast["0.weight"].is_leaf)
buffers_too = functional_call(model, ({k: v for k, v in model.named_parameters()}, {}), torch.ones(2, 1))
print(buffers_too.shape, torch.allclose(buffers_too, model(torch.ones(2, 1))))

# Reptile
reptile_model = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
for outer_step in range(3):
    weights_before = copy.deepcopy(reptile_model.state_dict())
    task = sample_task()
    inner_opt = torch.optim.SGD(reptile_model.parameters(), lr=0.02)
    for _ in range(5):
        x, y = task(10)
        loss = F.mse_loss(reptile_model(x), y)
        inner_opt.zero_grad()
        loss.backward()
        inner_opt.step()
    outerstepsize = 0.1 * (1 - outer_step / 3)
    weights_after = reptile_model.state_dict()
    reptile_model.load_state_dict({name: weights_before[name] + (weights_after[name] - weights_before[name])
                                   * outerstepsize for name in weights_before})
    print(f"reptile {outer_step} inner loss {loss.item():.4f} "
          f"moved {sum((reptile_model.state_dict()[k] - weights_before[k]).abs().sum() for k in weights_before):.5f}")


# Prototypical networks
class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 8))

    def forward(self, x):
        return self.net(x)


def prototypical_loss(encoder, support, query, n_way, n_shot, n_query):
    z_support = encoder(support.view(n_way * n_shot, -1)).view(n_way, n_shot, -1)
    prototypes = z_support.mean(1)
    z_query = encoder(query.view(n_way * n_query, -1))
    dists = torch.cdist(z_query, prototypes) ** 2
    log_p_y = F.log_softmax(-dists, dim=1).view(n_way, n_query, -1)
    target_inds = torch.arange(0, n_way).view(n_way, 1, 1).expand(n_way, n_query, 1).long()
    loss_val = -log_p_y.gather(2, target_inds).squeeze().view(-1).mean()
    _, y_hat = log_p_y.max(2)
    acc_val = torch.eq(y_hat, target_inds.squeeze(2)).float().mean()
    return loss_val, acc_val


encoder = Encoder()
opt = torch.optim.Adam(encoder.parameters(), lr=1e-2)
centres = torch.randn(3, 6) * 2
for episode in range(4):
    support = centres[:, None] + torch.randn(3, 5, 6) * 0.5
    query = centres[:, None] + torch.randn(3, 4, 6) * 0.5
    loss, acc = prototypical_loss(encoder, support, query, 3, 5, 4)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"episode {episode} loss {loss.item():.4f} acc {acc.item():.3f}")

# ANIL: freeze the body, adapt only the head
anil = copy.deepcopy(model)
anil[:-1].requires_grad_(False)
print([n for n, p in anil.named_parameters() if p.requires_grad], sum(p.numel() for p in anil.parameters()
                                                                      if p.requires_grad))
head = {k: v for k, v in anil.named_parameters() if k.startswith("4.")}
xs, ys = sample_task()(10)
loss = F.mse_loss(functional_call(anil, head, (xs,), strict=False), ys)
g = torch.autograd.grad(loss, list(head.values()))
print([tuple(t.shape) for t in g], round(loss.item(), 4))
try:
    functional_call(anil, head, (xs,), strict=True)
except RuntimeError as e:
    print("strict:", str(e).splitlines()[0][:60])
