# All-MLP and token-mixer vision models as their short reference implementations write them:
# MLP-Mixer (lucidrains: token mixing through partial(nn.Conv1d, kernel_size=1), PreNormResidual,
# patches via unfold/reshape instead of einops), ConvMixer (Residual, depthwise Conv2d padding="same",
# GELU, BatchNorm), gMLP's SpatialGatingUnit (chunk, Conv1d over tokens initialised near zero with
# bias ones), PoolFormer's pooling mixer (AvgPool2d count_include_pad=False minus identity) and
# FNet's Fourier mixing (torch.fft.fft2(...).real); printed tensors with grad_fn.
from functools import partial

import torch
import torch.fft
from torch import nn

torch.manual_seed(0)


class PreNormResidual(nn.Module):
    def __init__(self, dim, fn):
        super().__init__()
        self.fn = fn
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        return self.fn(self.norm(x)) + x


def FeedForward(dim, expansion_factor=4, dropout=0., dense=nn.Linear):
    inner_dim = int(dim * expansion_factor)
    return nn.Sequential(dense(dim, inner_dim), nn.GELU(), nn.Dropout(dropout), dense(inner_dim, dim), nn.Dropout(dropout))


class Patchify(nn.Module):
    def __init__(self, p):
        super().__init__()
        self.p = p

    def forward(self, img):  # 'b c (h p1) (w p2) -> b (h w) (p1 p2 c)'
        b, c, H, W = img.shape
        p = self.p
        x = img.reshape(b, c, H // p, p, W // p, p).permute(0, 2, 4, 3, 5, 1)
        return x.reshape(b, (H // p) * (W // p), p * p * c)


def MLPMixer(*, image_size, channels, patch_size, dim, depth, num_classes, expansion_factor=4, expansion_factor_token=0.5):
    num_patches = (image_size // patch_size) ** 2
    chan_first, chan_last = partial(nn.Conv1d, kernel_size=1), nn.Linear
    return nn.Sequential(
        Patchify(patch_size),
        nn.Linear((patch_size ** 2) * channels, dim),
        *[nn.Sequential(
            PreNormResidual(dim, FeedForward(num_patches, expansion_factor, 0., chan_first)),
            PreNormResidual(dim, FeedForward(dim, expansion_factor_token, 0., chan_last))
        ) for _ in range(depth)],
        nn.LayerNorm(dim),
        Reduce(),
        nn.Linear(dim, num_classes))


class Reduce(nn.Module):
    def forward(self, x):
        return x.mean(dim=1)


class Residual(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x) + x


def ConvMixer(dim, depth, kernel_size=3, patch_size=2, n_classes=3):
    return nn.Sequential(
        nn.Conv2d(3, dim, kernel_size=patch_size, stride=patch_size), nn.GELU(), nn.BatchNorm2d(dim),
        *[nn.Sequential(
            Residual(nn.Sequential(nn.Conv2d(dim, dim, kernel_size, groups=dim, padding="same"), nn.GELU(), nn.BatchNorm2d(dim))),
            nn.Conv2d(dim, dim, kernel_size=1), nn.GELU(), nn.BatchNorm2d(dim)
        ) for i in range(depth)],
        nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Linear(dim, n_classes))


class SpatialGatingUnit(nn.Module):
    def __init__(self, dim, dim_seq, init_eps=1e-3):
        super().__init__()
        dim_out = dim // 2
        self.norm = nn.LayerNorm(dim_out)
        self.proj = nn.Conv1d(dim_seq, dim_seq, 1)
        init_eps /= dim_seq
        nn.init.uniform_(self.proj.weight, -init_eps, init_eps)
        nn.init.constant_(self.proj.bias, 1.)

    def forward(self, x):
        res, gate = x.chunk(2, dim=-1)
        gate = self.norm(gate)
        gate = self.proj(gate)
        return gate * res


class gMLPBlock(nn.Module):
    def __init__(self, dim, dim_ff, seq_len):
        super().__init__()
        self.proj_in = nn.Sequential(nn.Linear(dim, dim_ff), nn.GELU())
        self.sgu = SpatialGatingUnit(dim_ff, seq_len)
        self.proj_out = nn.Linear(dim_ff // 2, dim)

    def forward(self, x):
        return self.proj_out(self.sgu(self.proj_in(x)))


class Pooling(nn.Module):
    def __init__(self, pool_size=3):
        super().__init__()
        self.pool = nn.AvgPool2d(pool_size, stride=1, padding=pool_size // 2, count_include_pad=False)

    def forward(self, x):
        return self.pool(x) - x


class FNetBlock(nn.Module):
    def forward(self, x):
        return torch.fft.fft(torch.fft.fft(x, dim=-1), dim=-2).real


def formula(net, k):
    with torch.no_grad():
        for i, (n, p) in enumerate(net.named_parameters()):
            if p.dim() > 1:
                p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * k + i).view_as(p) * (1.0 / p[0].numel()) ** 0.5)


img = torch.sin(torch.arange(2 * 3 * 8 * 8, dtype=torch.float32) * 0.09).view(2, 3, 8, 8)
labels = torch.tensor([0, 2])
mixer = MLPMixer(image_size=8, channels=3, patch_size=4, dim=8, depth=2, num_classes=3)
print(mixer[2][0].fn[0])
convmixer = ConvMixer(8, 2)
print(convmixer[3][0].fn[0])
for name, model, k in (('mlp-mixer', mixer, 0.61), ('convmixer', convmixer, 0.47)):
    formula(model, k)
    opt = torch.optim.AdamW(model.parameters(), lr=5e-3, weight_decay=0.05)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-2, total_steps=3)
    for step in range(3):
        loss = nn.functional.cross_entropy(model(img), labels, label_smoothing=0.1)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        print(name, step, round(loss.item(), 5), round(sched.get_last_lr()[0], 6))
    model.eval()
    with torch.no_grad():
        print(name, 'eval', model(img).argmax(-1).tolist())

tokens = torch.cos(torch.arange(2 * 5 * 8, dtype=torch.float32) * 0.3).view(2, 5, 8)
blk = gMLPBlock(8, 16, 5)
print('sgu init', round(blk.sgu.proj.weight.abs().max().item(), 6) <= 2e-4, blk.sgu.proj.bias.tolist())
formula(blk.proj_in, 0.8)
formula(blk.proj_out, 0.4)
out = blk(tokens)
print('gmlp', tuple(out.shape), out.grad_fn.name())
torch.set_printoptions(precision=3)
print(out[0, :2])
pool = Pooling()
x = torch.arange(16.).view(1, 1, 4, 4).requires_grad_()
y = pool(x)
print(y)
y.pow(2).sum().backward()
print(x.grad)
f = FNetBlock()(tokens[:1, :3, :4])
print(f)
z = tokens[:1, :3, :4].clone().requires_grad_()
FNetBlock()(z).sum().backward()
print(z.grad)
