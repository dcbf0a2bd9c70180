"""Growing neural cellular automata (the Distill article's PyTorch ports): perception with fixed
identity / Sobel filters applied as a depthwise conv2d with circular padding, a 1x1-conv update rule with a
zero-initialised last layer, stochastic cell updates from a rand mask, alive masking through max_pool2d of
the alpha channel, a sample pool with the worst sample replaced by the seed, per-sample losses sorted with
argsort, gradient normalisation per parameter, and a MultiStepLR schedule."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(71)
CHANNELS, SIZE = 8, 12


class CAModel(nn.Module):
    def __init__(self, channels=CHANNELS, hidden=32, fire_rate=0.5):
        super().__init__()
        self.channels, self.fire_rate = channels, fire_rate
        ident = torch.tensor([[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]])
        sobel_x = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]]) / 8.0
        kernel = torch.stack([ident, sobel_x, sobel_x.T])
        self.register_buffer("kernel", kernel.repeat(channels, 1, 1).unsqueeze(1))
        self.fc0 = nn.Conv2d(channels * 3, hidden, 1)
        self.fc1 = nn.Conv2d(hidden, channels, 1, bias=False)
        with torch.no_grad():
            self.fc1.weight.zero_()

    def perceive(self, x):
        return F.conv2d(F.pad(x, (1, 1, 1, 1), mode="circular"), self.kernel, groups=self.channels)

    def alive(self, x):
        return F.max_pool2d(x[:, 3:4], kernel_size=3, stride=1, padding=1) > 0.1

    def forward(self, x, fire_rate=None):
        pre_life_mask = self.alive(x)
        dx = self.fc1(F.relu(self.fc0(self.perceive(x))))
        rate = fire_rate if fire_rate is not None else self.fire_rate
        stochastic = (torch.rand(x.shape[0], 1, x.shape[2], x.shape[3]) <= rate).float()
        x = x + dx * stochastic
        post_life_mask = self.alive(x)
        return x * (pre_life_mask & post_life_mask).float()


def make_seed(n, size=SIZE, channels=CHANNELS):
    seed = torch.zeros(n, channels, size, size)
    seed[:, 3:, size // 2, size // 2] = 1.0
    return seed


yy, xx = torch.meshgrid(torch.arange(SIZE), torch.arange(SIZE), indexing="ij")
target = torch.zeros(4, SIZE, SIZE)
disk = ((yy - SIZE // 2) ** 2 + (xx - SIZE // 2) ** 2 <= 9).float()
target[0], target[1], target[2], target[3] = disk * 0.8, disk * 0.2, disk * 0.5, disk
print("target pixels", int(disk.sum().item()))

model = CAModel()
seed = make_seed(1)
print("perceive", model.perceive(seed).shape, model.perceive(seed)[0, 9:12, SIZE // 2, SIZE // 2 - 1:SIZE // 2 + 2])
print("alive cells at start", model.alive(seed).sum().item())
pool = make_seed(16)
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[10, 20], gamma=0.3)
for it in range(24):
    idx = torch.randperm(16)[:4]
    batch = pool[idx].clone()
    with torch.no_grad():
        losses = (batch[:, :4] - target).pow(2).mean(dim=(1, 2, 3))
    order = losses.argsort(descending=True)
    batch = batch[order]
    batch[:1] = make_seed(1)
    x = batch
    steps = 8 + int(torch.randint(0, 5, (1,)).item())
    for _ in range(steps):
        x = model(x)
    loss = (x[:, :4] - target).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    for p in model.parameters():
        p.grad /= p.grad.norm() + 1e-8
    opt.step()
    sched.step()
    pool[idx[order]] = x.detach()
    if it % 6 == 5:
        print(f"iter {it + 1} steps {steps} loss {loss.item():.5f} lr {sched.get_last_lr()[0]:.6f} alive {model.alive(x).float().mean().item():.3f}")
with torch.no_grad():
    x = make_seed(1)
    for _ in range(10):
        x = model(x, fire_rate=1.0)
    print("grown rgba center", x[0, :4, SIZE // 2, SIZE // 2], "alive", model.alive(x).sum().item())
    damaged = x.clone()
    damaged[:, :, :SIZE // 2] = 0
    print("damage", damaged.abs().sum().item() < x.abs().sum().item(), model(damaged, fire_rate=1.0).shape)
