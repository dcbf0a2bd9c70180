"""Diffusion sampling pieces from improved-DDPM / DDIM / classifier-free guidance code: the cosine noise
schedule (alphas_cumprod from cos^2, betas clipped), sinusoidal timestep embeddings, a tiny conditional
MLP denoiser with label dropout for the null class, epsilon and v-prediction targets, DDPM training with
randint timesteps and gather-based extraction, deterministic DDIM sampling (eta=0) and stochastic
eta=1 steps with a generator, classifier-free guidance mixing conditional and unconditional predictions,
and an EMA copy of the weights with torch._foreach_lerp_."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(73)
T = 50


def cosine_beta_schedule(timesteps, s=0.008):
    steps = timesteps + 1
    x = torch.linspace(0, timesteps, steps, dtype=torch.float64)
    alphas_cumprod = torch.cos(((x / timesteps) + s) / (1 + s) * math.pi * 0.5) ** 2
    alphas_cumprod = alphas_cumprod / alphas_cumprod[0]
    betas = 1 - (alphas_cumprod[1:] / alphas_cumprod[:-1])
    return torch.clip(betas, 0, 0.999)


betas = cosine_beta_schedule(T).float()
alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
alphas_cumprod_prev = F.pad(alphas_cumprod[:-1], (1, 0), value=1.0)
sqrt_ac, sqrt_1m_ac = alphas_cumprod.sqrt(), (1 - alphas_cumprod).sqrt()
print("betas", betas[[0, 10, 25, 49]], "ac_prev", alphas_cumprod_prev[:3])


def extract(a, t, x_shape):
    out = a.gather(-1, t)
    return out.reshape(t.shape[0], *((1,) * (len(x_shape) - 1)))


def timestep_embedding(t, dim, max_period=10000):
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half, dtype=torch.float32) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class Denoiser(nn.Module):
    def __init__(self, dim=2, n_classes=3, hidden=64):
        super().__init__()
        self.n_classes = n_classes
        self.class_emb = nn.Embedding(n_classes + 1, hidden)
        self.time_mlp = nn.Sequential(nn.Linear(16, hidden), nn.SiLU(), nn.Linear(hidden, hidden))
        self.net = nn.Sequential(nn.Linear(dim + hidden, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, dim))

    def forward(self, x, t, y):
        h = self.time_mlp(timestep_embedding(t, 16)) + self.class_emb(y)
        return self.net(torch.cat([x, h], dim=-1))


print("embedding", timestep_embedding(torch.tensor([0, 7, 49]), 8)[1])
centers = torch.tensor([[2.0, 0.0], [-1.0, 1.7], [-1.0, -1.7]])
labels = torch.randint(0, 3, (512,))
data = centers[labels] + 0.1 * torch.randn(512, 2)
model = Denoiser()
ema = copy.deepcopy(model).requires_grad_(False)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
for step in range(40):
    idx = torch.randint(0, 512, (128,))
    x0, y = data[idx], labels[idx]
    y = torch.where(torch.rand(128) < 0.1, torch.full_like(y, 3), y)
    t = torch.randint(0, T, (128,))
    noise = torch.randn_like(x0)
    xt = extract(sqrt_ac, t, x0.shape) * x0 + extract(sqrt_1m_ac, t, x0.shape) * noise
    v_target = extract(sqrt_ac, t, x0.shape) * noise - extract(sqrt_1m_ac, t, x0.shape) * x0
    loss = F.mse_loss(model(xt, t, y), noise)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        torch._foreach_lerp_(list(ema.parameters()), list(model.parameters()), 0.05)
    if step % 20 == 19:
        print(f"step {step + 1} loss {loss.item():.4f} v-target norm {v_target.norm().item():.3f}")


@torch.no_grad()
def ddim_sample(net, y, n_steps=10, eta=0.0, guidance=0.0, generator=None):
    x = torch.randn(len(y), 2, generator=generator)
    times = torch.linspace(T - 1, 0, n_steps).long()
    for i, t in enumerate(times):
        tt = torch.full((len(y),), int(t), dtype=torch.long)
        eps = net(x, tt, y)
        if guidance:
            eps_uncond = net(x, tt, torch.full_like(y, 3))
            eps = (1 + guidance) * eps - guidance * eps_uncond
        a_t = alphas_cumprod[t]
        a_prev = alphas_cumprod[times[i + 1]] if i + 1 < n_steps else torch.tensor(1.0)
        x0_pred = ((x - (1 - a_t).sqrt() * eps) / a_t.sqrt()).clamp(-3, 3)
        eps = (x - a_t.sqrt() * x0_pred) / (1 - a_t).sqrt()
        sigma = eta * ((1 - a_prev) / (1 - a_t) * (1 - a_t / a_prev)).sqrt()
        dir_xt = (1 - a_prev - sigma ** 2).clamp(min=0).sqrt() * eps
        x = a_prev.sqrt() * x0_pred + dir_xt + sigma * torch.randn(x.shape, generator=generator)
    return x


y = torch.tensor([0, 0, 1, 1, 2, 2])
g = torch.Generator().manual_seed(5)
for name, net, kw in [("ddim", model, {}), ("ddim ema", ema, {}), ("eta=1", model, {"eta": 1.0}), ("cfg 2.0", model, {"guidance": 2.0})]:
    samples = ddim_sample(net, y, generator=g, **kw)
    dist = torch.cdist(samples, centers).argmin(1)
    print(f"{name:9s} nearest centers {dist.tolist()} mean dist to own center {(samples - centers[y]).norm(dim=1).mean().item():.4f}")
print("ema differs", sum((p - q).abs().sum() for p, q in zip(ema.parameters(), model.parameters())).item() > 0)
