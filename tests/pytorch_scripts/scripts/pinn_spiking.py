"""Two autograd-heavy research idioms: a physics-informed neural network as the PINN tutorials write it
for the viscous Burgers equation (collocation points with requires_grad_, u_t / u_x from
torch.autograd.grad(u, [t, x], grad_outputs=torch.ones_like(u), create_graph=True), u_xx from a second
grad, the PDE residual plus initial/boundary losses, Tanh MLP with xavier_normal_, Adam then an LBFGS
step with strong_wolfe line search and a closure), and a spiking network as snntorch-free code writes it:
a Heaviside spike with a fast-sigmoid surrogate gradient (autograd.Function saving the membrane
input), leaky integrate-and-fire neurons with reset by subtraction over time steps, rate-coded inputs,
spike counts as logits, and BPTT gradients reaching the input weights."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)


class PINN(nn.Module):
    def __init__(self, layers=(2, 16, 16, 1)):
        super().__init__()
        mods = []
        for i in range(len(layers) - 1):
            lin = nn.Linear(layers[i], layers[i + 1])
            nn.init.xavier_normal_(lin.weight)
            nn.init.zeros_(lin.bias)
            mods += [lin, nn.Tanh()]
        self.net = nn.Sequential(*mods[:-1])

    def forward(self, t, x):
        return self.net(torch.cat([t, x], dim=1))


nu = 0.01 / math.pi
t_f = torch.linspace(0, 1, 12).repeat_interleave(8).unsqueeze(1).requires_grad_(True)
x_f = torch.linspace(-1, 1, 8).repeat(12).unsqueeze(1).requires_grad_(True)
x0 = torch.linspace(-1, 1, 10).unsqueeze(1)
u0 = -torch.sin(math.pi * x0)
tb = torch.linspace(0, 1, 6).unsqueeze(1)
model = PINN()


def losses():
    u = model(t_f, x_f)
    u_t, u_x = torch.autograd.grad(u, [t_f, x_f], grad_outputs=torch.ones_like(u), create_graph=True)
    u_xx = torch.autograd.grad(u_x, x_f, grad_outputs=torch.ones_like(u_x), create_graph=True)[0]
    f = u_t + u * u_x - nu * u_xx
    loss_f = f.pow(2).mean()
    loss_0 = (model(torch.zeros_like(x0), x0) - u0).pow(2).mean()
    loss_b = model(tb, -torch.ones_like(tb)).pow(2).mean() + model(tb, torch.ones_like(tb)).pow(2).mean()
    return loss_f, loss_0, loss_b, u_xx


loss_f, loss_0, loss_b, u_xx = losses()
print("u_xx", u_xx.shape, u_xx.grad_fn.name(), round(loss_f.item(), 6), round(loss_0.item(), 5), round(loss_b.item(), 5))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for it in range(10):
    loss_f, loss_0, loss_b, _ = losses()
    loss = loss_f + loss_0 + loss_b
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 3 == 0:
        print(f"adam {it} loss {loss.item():.5f} pde {loss_f.item():.5f}")
lbfgs = torch.optim.LBFGS(model.parameters(), lr=1.0, max_iter=10, history_size=5, line_search_fn="strong_wolfe")


def closure():
    lbfgs.zero_grad()
    lf, l0, lb, _ = losses()
    total = lf + l0 + lb
    total.backward()
    return total


before = closure().item()
lbfgs.step(closure)
after = closure().item()
print("lbfgs improves:", after < before, lbfgs.state[next(iter(lbfgs.state))]["n_iter"] <= 10)


class SpikeFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, mem, slope=25.0):
        ctx.save_for_backward(mem)
        ctx.slope = slope
        return (mem > 0).float()

    @staticmethod
    def backward(ctx, grad_output):
        (mem,) = ctx.saved_tensors
        grad = grad_output / (ctx.slope * mem.abs() + 1.0) ** 2
        return grad, None


spike_fn = SpikeFn.apply
m = torch.tensor([-0.5, 0.0, 0.2], requires_grad=True)
s = spike_fn(m)
s.sum().backward()
print("spikes", s.tolist(), "surrogate grad", [round(v, 5) for v in m.grad.tolist()], s.grad_fn.name())


class LIFNet(nn.Module):
    def __init__(self, n_in=6, n_hidden=10, n_out=3, beta=0.9, threshold=1.0):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(n_in, n_hidden), nn.Linear(n_hidden, n_out)
        self.beta, self.threshold = beta, threshold

    def forward(self, x_seq):
        mem1 = torch.zeros(x_seq.shape[1], self.fc1.out_features)
        mem2 = torch.zeros(x_seq.shape[1], self.fc2.out_features)
        spk2_rec = []
        for step in range(x_seq.shape[0]):
            mem1 = self.beta * mem1 + self.fc1(x_seq[step])
            spk1 = spike_fn(mem1 - self.threshold)
            mem1 = mem1 - spk1 * self.threshold
            mem2 = self.beta * mem2 + self.fc2(spk1)
            spk2 = spike_fn(mem2 - self.threshold)
            mem2 = mem2 - spk2 * self.threshold
            spk2_rec.append(spk2)
        return torch.stack(spk2_rec)


rates = torch.rand(4, 6)
x_seq = (torch.rand(15, 4, 6) < rates).float()
targets = torch.tensor([0, 1, 2, 1])
net = LIFNet()
with torch.no_grad():
    net.fc1.weight.mul_(4.0)
    net.fc2.weight.mul_(4.0)
    net.fc2.bias.fill_(0.5)
    net.fc1.bias.fill_(0.3)
opt = torch.optim.Adam(net.parameters(), lr=5e-2)
for epoch in range(5):
    spk = net(x_seq)
    counts = spk.sum(0)
    loss = nn.functional.cross_entropy(counts, targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"snn epoch {epoch} loss {loss.item():.4f} spikes {int(spk.sum().item())}", counts.shape)
print("input weights learn:", net.fc1.weight.grad.abs().sum().item() > 0, spk.grad_fn.name())
