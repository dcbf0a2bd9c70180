"""Energy-based models trained with contrastive divergence and stochastic-gradient Langevin dynamics, as
in the JEM / IGEBM tutorials (UvA DL course style): a replay buffer of samples with 5% fresh noise,
Langevin steps from autograd.grad of the energy w.r.t. the input with clamped noise and gradient clipping,
the contrastive loss plus an energy regulariser, torch.no_grad for buffer updates, a joint energy model's
logsumexp energy from classifier logits, and score matching on a 2D Gaussian mixture."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(67)


class EnergyNet(nn.Module):
    def __init__(self, dim=2, hidden=32, n_classes=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, n_classes))

    def logits(self, x):
        return self.net(x)

    def forward(self, x):
        return -torch.logsumexp(self.logits(x), dim=-1)


def langevin(model, x, steps=12, step_size=0.05, noise=0.01):
    is_training = model.training
    model.eval()
    for p in model.parameters():
        p.requires_grad_(False)
    x = x.clone().detach().requires_grad_(True)
    for _ in range(steps):
        x.data.add_(torch.randn_like(x).mul_(noise).clamp_(-0.03, 0.03))
        energy = model(x).sum()
        (grad,) = torch.autograd.grad(energy, x)
        x.data.add_(-step_size * grad.clamp(-0.1, 0.1))
        x.data.clamp_(-3.0, 3.0)
    for p in model.parameters():
        p.requires_grad_(True)
    model.train(is_training)
    return x.detach()


class ReplayBuffer:
    def __init__(self, size, dim):
        self.examples = [(torch.rand(1, dim) * 6 - 3) for _ in range(size)]

    def sample(self, n):
        n_new = (torch.rand(n) < 0.05).sum().item()
        fresh = torch.rand(n_new, 2) * 6 - 3
        old = torch.cat([self.examples[i] for i in torch.randint(len(self.examples), (n - n_new,)).tolist()], 0)
        return torch.cat([fresh, old], 0)

    def push(self, x):
        self.examples = list(x.split(1, dim=0)) + self.examples
        self.examples = self.examples[:200]


means = torch.tensor([[-1.5, 0.0], [1.5, 0.0]])
labels = torch.randint(0, 2, (256,))
data = means[labels] + 0.3 * torch.randn(256, 2)
model = EnergyNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-2, betas=(0.0, 0.999))
buffer = ReplayBuffer(100, 2)
for step in range(25):
    idx = torch.randint(0, 256, (32,))
    real = data[idx] + 0.005 * torch.randn(32, 2)
    fake = langevin(model, buffer.sample(32))
    buffer.push(fake)
    real_e, fake_e = model(real), model(fake)
    reg = 0.1 * (real_e ** 2 + fake_e ** 2).mean()
    cdiv = real_e.mean() - fake_e.mean()
    clf = F.cross_entropy(model.logits(real), labels[idx])
    loss = reg + cdiv + clf
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 8 == 7:
        print(f"step {step + 1} cdiv {cdiv.item():.4f} reg {reg.item():.4f} clf {clf.item():.4f} buffer {len(buffer.examples)}")
with torch.no_grad():
    grid = torch.tensor([[-1.5, 0.0], [0.0, 0.0], [1.5, 0.0], [0.0, 2.5]])
    print("energies", model(grid), "class probs", F.softmax(model.logits(grid), -1)[:, 0])
samples = langevin(model, torch.zeros(8, 2), steps=60)
print("samples move to modes", samples.abs()[:, 0].mean().item() > 0.3, samples.shape)


def mixture_score(x):
    x = x.detach().requires_grad_(True)
    comps = torch.stack([-0.5 * ((x - m) / 0.3).pow(2).sum(-1) for m in means], -1)
    log_p = torch.logsumexp(comps, -1).sum()
    return torch.autograd.grad(log_p, x)[0]


score_net = nn.Sequential(nn.Linear(2, 64), nn.Softplus(), nn.Linear(64, 2))
opt = torch.optim.Adam(score_net.parameters(), lr=5e-3)
for step in range(80):
    x = data[torch.randint(0, 256, (64,))]
    sigma = 0.3
    noisy = x + sigma * torch.randn_like(x)
    target = -(noisy - x) / sigma ** 2
    loss = 0.5 * ((score_net(noisy) - target) ** 2).sum(-1).mean() * sigma ** 2
    opt.zero_grad()
    loss.backward()
    opt.step()
print("dsm loss", round(loss.item(), 4))
probe = torch.tensor([[-1.0, 0.2], [1.0, -0.2]])
print("learned score", score_net(probe).detach(), "\ntrue score   ", mixture_score(probe))
