"""A denoising diffusion model as the annotated-diffusion / lucidrains code writes it: linear and cosine
beta schedules, cumprod and F.pad(value=1.0), extract() with gather and a reshape to broadcast,
q_sample, sinusoidal time embeddings, a small conv net with GroupNorm/SiLU and time conditioning,
the p_losses training step (l1/l2/huber), and the reverse p_sample loop with torch.randn_like."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def cosine_beta_schedule(timesteps, s=0.008):
    steps = timesteps + 1
    x = torch.linspace(0, timesteps, steps)
    alphas_cumprod = torch.cos(((x / timesteps) + s) / (1 + s) * torch.pi * 0.5) ** 2
    alphas_cumprod = alphas_cumprod / alphas_cumprod[0]
    betas = 1 - (alphas_cumprod[1:] / alphas_cumprod[:-1])
    return torch.clip(betas, 0.0001, 0.9999)


def linear_beta_schedule(timesteps):
    beta_start = 0.0001
    beta_end = 0.02
    return torch.linspace(beta_start, beta_end, timesteps)


timesteps = 20
betas = linear_beta_schedule(timesteps=timesteps)
alphas = 1. - betas
alphas_cumprod = torch.cumprod(alphas, axis=0)
alphas_cumprod_prev = F.pad(alphas_cumprod[:-1], (1, 0), value=1.0)
sqrt_recip_alphas = torch.sqrt(1.0 / alphas)
sqrt_alphas_cumprod = torch.sqrt(alphas_cumprod)
sqrt_one_minus_alphas_cumprod = torch.sqrt(1. - alphas_cumprod)
posterior_variance = betas * (1. - alphas_cumprod_prev) / (1. - alphas_cumprod)
print(cosine_beta_schedule(10), alphas_cumprod_prev[:3], posterior_variance[-3:])


def extract(a, t, x_shape):
    batch_size = t.shape[0]
    out = a.gather(-1, t.cpu())
    return out.reshape(batch_size, *((1,) * (len(x_shape) - 1))).to(t.device)


def q_sample(x_start, t, noise=None):
    if noise is None:
        noise = torch.randn_like(x_start)
    sqrt_alphas_cumprod_t = extract(sqrt_alphas_cumprod, t, x_start.shape)
    sqrt_one_minus_alphas_cumprod_t = extract(sqrt_one_minus_alphas_cumprod, t, x_start.shape)
    return sqrt_alphas_cumprod_t * x_start + sqrt_one_minus_alphas_cumprod_t * noise


class SinusoidalPositionEmbeddings(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, time):
        device = time.device
        half_dim = self.dim // 2
        embeddings = math.log(10000) / (half_dim - 1)
        embeddings = torch.exp(torch.arange(half_dim, device=device) * -embeddings)
        embeddings = time[:, None] * embeddings[None, :]
        embeddings = torch.cat((embeddings.sin(), embeddings.cos()), dim=-1)
        return embeddings


class Block(nn.Module):
    def __init__(self, dim, dim_out, groups=2):
        super().__init__()
        self.proj = nn.Conv2d(dim, dim_out, 3, padding=1)
        self.norm = nn.GroupNorm(groups, dim_out)
        self.act = nn.SiLU()

    def forward(self, x, scale_shift=None):
        x = self.proj(x)
        x = self.norm(x)
        if scale_shift is not None:
            scale, shift = scale_shift
            x = x * (scale + 1) + shift
        x = self.act(x)
        return x


class ResnetBlock(nn.Module):
    def __init__(self, dim, dim_out, *, time_emb_dim=None, groups=2):
        super().__init__()
        self.mlp = nn.Sequential(nn.SiLU(), nn.Linear(time_emb_dim, dim_out * 2)) if time_emb_dim is not None else None
        self.block1 = Block(dim, dim_out, groups=groups)
        self.block2 = Block(dim_out, dim_out, groups=groups)
        self.res_conv = nn.Conv2d(dim, dim_out, 1) if dim != dim_out else nn.Identity()

    def forward(self, x, time_emb=None):
        scale_shift = None
        if self.mlp is not None and time_emb is not None:
            time_emb = self.mlp(time_emb)
            time_emb = time_emb[:, :, None, None]
            scale_shift = time_emb.chunk(2, dim=1)
        h = self.block1(x, scale_shift=scale_shift)
        h = self.block2(h)
        return h + self.res_conv(x)


class TinyUnet(nn.Module):
    def __init__(self, dim=4, channels=1):
        super().__init__()
        time_dim = dim * 4
        self.time_mlp = nn.Sequential(SinusoidalPositionEmbeddings(dim), nn.Linear(dim, time_dim), nn.GELU(),
                                      nn.Linear(time_dim, time_dim))
        self.init_conv = nn.Conv2d(channels, dim, 1, padding=0)
        self.down = ResnetBlock(dim, dim * 2, time_emb_dim=time_dim)
        self.pool = nn.Conv2d(dim * 2, dim * 2, 4, 2, 1)
        self.mid = ResnetBlock(dim * 2, dim * 2, time_emb_dim=time_dim)
        self.up = nn.ConvTranspose2d(dim * 2, dim * 2, 4, 2, 1)
        self.up_block = ResnetBlock(dim * 4, dim, time_emb_dim=time_dim)
        self.final_conv = nn.Conv2d(dim, channels, 1)

    def forward(self, x, time):
        x = self.init_conv(x)
        t = self.time_mlp(time)
        h = self.down(x, t)
        x = self.mid(self.pool(h), t)
        x = torch.cat((self.up(x), h), dim=1)
        x = self.up_block(x, t)
        return self.final_conv(x)


def p_losses(denoise_model, x_start, t, noise=None, loss_type="l1"):
    if noise is None:
        noise = torch.randn_like(x_start)
    x_noisy = q_sample(x_start=x_start, t=t, noise=noise)
    predicted_noise = denoise_model(x_noisy, t)
    if loss_type == 'l1':
        loss = F.l1_loss(noise, predicted_noise)
    elif loss_type == 'l2':
        loss = F.mse_loss(noise, predicted_noise)
    elif loss_type == "huber":
        loss = F.smooth_l1_loss(noise, predicted_noise)
    else:
        raise NotImplementedError()
    return loss


@torch.no_grad()
def p_sample(model, x, t, t_index):
    betas_t = extract(betas, t, x.shape)
    sqrt_one_minus_alphas_cumprod_t = extract(sqrt_one_minus_alphas_cumprod, t, x.shape)
    sqrt_recip_alphas_t = extract(sqrt_recip_alphas, t, x.shape)
    model_mean = sqrt_recip_alphas_t * (x - betas_t * model(x, t) / sqrt_one_minus_alphas_cumprod_t)
    if t_index == 0:
        return model_mean
    else:
        posterior_variance_t = extract(posterior_variance, t, x.shape)
        noise = torch.randn_like(x)
        return model_mean + torch.sqrt(posterior_variance_t) * noise


@torch.no_grad()
def p_sample_loop(model, shape):
    device = next(model.parameters()).device
    b = shape[0]
    img = torch.randn(shape, device=device)
    imgs = []
    for i in reversed(range(0, timesteps)):
        img = p_sample(model, img, torch.full((b,), i, device=device, dtype=torch.long), i)
        imgs.append(img.cpu().numpy())
    return imgs


torch.manual_seed(0)
x_start = torch.rand(4, 1, 8, 8) * 2 - 1
t = torch.tensor([0, 5, 10, 19])
print(extract(sqrt_alphas_cumprod, t, x_start.shape).flatten(), q_sample(x_start, t).std())
model = TinyUnet()
print(sum(p.numel() for p in model.parameters()), model.time_mlp[0](t.float()).shape)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step, loss_type in enumerate(['l1', 'l2', 'huber', 'huber', 'l1', 'l2']):
    optimizer.zero_grad()
    t = torch.randint(0, timesteps, (4,), device=x_start.device).long()
    loss = p_losses(model, x_start, t, loss_type=loss_type)
    loss.backward()
    optimizer.step()
    print(step, loss_type, t.tolist(), f'{loss.item():.4f}')
try:
    p_losses(model, x_start, t, loss_type='l3')
except NotImplementedError as e:
    print('NotImplementedError', repr(e))
samples = p_sample_loop(model, shape=(2, 1, 8, 8))
print(len(samples), samples[-1].shape, samples[-1].dtype, float(abs(samples[-1]).mean()) > 0, samples[-1][0, 0, 0, :3].round(4).tolist())
