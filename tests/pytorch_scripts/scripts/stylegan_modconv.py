"""StyleGAN2 building blocks as in the rosinality and lucidrains re-implementations: equalized-learning-rate
linear and conv layers (weights scaled at run time), a mapping network with PixelNorm, modulated
convolution with demodulation done as one grouped conv2d over the batch (groups=batch), noise injection,
upsampling with conv_transpose2d and a blur, minibatch standard deviation, the non-saturating logistic
loss with softplus, the R1 penalty from autograd.grad(create_graph=True), and path-length regularisation."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(61)


class PixelNorm(nn.Module):
    def forward(self, x):
        return x * torch.rsqrt(torch.mean(x ** 2, dim=1, keepdim=True) + 1e-8)


class EqualLinear(nn.Module):
    def __init__(self, in_dim, out_dim, bias_init=0.0, lr_mul=1.0, activation=False):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_dim, in_dim).div_(lr_mul))
        self.bias = nn.Parameter(torch.zeros(out_dim).fill_(bias_init))
        self.scale = (1 / math.sqrt(in_dim)) * lr_mul
        self.lr_mul, self.activation = lr_mul, activation

    def forward(self, x):
        out = F.linear(x, self.weight * self.scale, self.bias * self.lr_mul)
        return F.leaky_relu(out, 0.2) * math.sqrt(2) if self.activation else out


class ModulatedConv2d(nn.Module):
    def __init__(self, in_channel, out_channel, kernel_size, style_dim, demodulate=True, upsample=False):
        super().__init__()
        self.eps, self.kernel_size = 1e-8, kernel_size
        self.in_channel, self.out_channel = in_channel, out_channel
        self.scale = 1 / math.sqrt(in_channel * kernel_size ** 2)
        self.padding = kernel_size // 2
        self.weight = nn.Parameter(torch.randn(1, out_channel, in_channel, kernel_size, kernel_size))
        self.modulation = EqualLinear(style_dim, in_channel, bias_init=1)
        self.demodulate, self.upsample = demodulate, upsample
        self.register_buffer("blur", torch.tensor([[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]) / 16)

    def forward(self, x, style):
        batch, in_channel, height, width = x.shape
        style = self.modulation(style).view(batch, 1, in_channel, 1, 1)
        weight = self.scale * self.weight * style
        if self.demodulate:
            demod = torch.rsqrt(weight.pow(2).sum([2, 3, 4]) + 1e-8)
            weight = weight * demod.view(batch, self.out_channel, 1, 1, 1)
        weight = weight.view(batch * self.out_channel, in_channel, self.kernel_size, self.kernel_size)
        if self.upsample:
            x = x.view(1, batch * in_channel, height, width)
            weight = weight.view(batch, self.out_channel, in_channel, self.kernel_size, self.kernel_size)
            weight = weight.transpose(1, 2).reshape(batch * in_channel, self.out_channel, self.kernel_size, self.kernel_size)
            out = F.conv_transpose2d(x, weight, padding=0, stride=2, groups=batch)
            _, _, h, w = out.shape
            out = out.view(batch, self.out_channel, h, w)
            blur = self.blur.expand(self.out_channel, 1, 3, 3)
            return F.conv2d(F.pad(out, (0, 0, 0, 0)), blur, groups=self.out_channel)
        x = x.view(1, batch * in_channel, height, width)
        out = F.conv2d(x, weight, padding=self.padding, groups=batch)
        return out.view(batch, self.out_channel, height, width)


class NoiseInjection(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.zeros(1))

    def forward(self, image, noise=None):
        if noise is None:
            batch, _, height, width = image.shape
            noise = image.new_empty(batch, 1, height, width).normal_()
        return image + self.weight * noise


def minibatch_stddev(x, group_size=2):
    batch, channel, height, width = x.shape
    group = min(batch, group_size)
    stddev = x.view(group, -1, 1, channel, height, width)
    stddev = torch.sqrt(stddev.var(0, unbiased=False) + 1e-8)
    stddev = stddev.mean([2, 3, 4], keepdims=True).squeeze(2)
    stddev = stddev.repeat(group, 1, height, width)
    return torch.cat([x, stddev], 1)


style_dim = 8
mapping = nn.Sequential(PixelNorm(), *[EqualLinear(style_dim, style_dim, lr_mul=0.01, activation=True) for _ in range(3)])
z = torch.randn(4, style_dim)
w = mapping(z)
print("mapping", w.shape, w[0, :4])
const = torch.randn(1, 6, 4, 4).repeat(4, 1, 1, 1)
conv = ModulatedConv2d(6, 5, 3, style_dim)
noise = NoiseInjection()
out = noise(conv(const, w), noise=torch.zeros(4, 1, 4, 4))
print("modulated conv", out.shape, out[0, 0, 0])


def modulated_weight(layer, style):
    weight = layer.scale * layer.weight * layer.modulation(style).view(1, 1, -1, 1, 1)
    return (weight * torch.rsqrt(weight.pow(2).sum([2, 3, 4]) + 1e-8).view(1, -1, 1, 1, 1))[0]


per_sample = torch.cat([F.conv2d(const[i:i + 1], modulated_weight(conv, w[i:i + 1]), padding=1) for i in range(4)])
print("grouped == per sample", torch.allclose(per_sample, out, atol=1e-5))
up = ModulatedConv2d(5, 3, 3, style_dim, upsample=True)
img = up(out, w)
print("upsampled", img.shape, img[1, 2, :2, :3])
nondemod = ModulatedConv2d(6, 5, 1, style_dim, demodulate=False)
print("no demod", nondemod(const, w).std().item())
print("minibatch std", minibatch_stddev(img).shape, minibatch_stddev(img)[:, -1, 0, 0])
print("noise injection random", noise(torch.zeros(1, 2, 2, 2)).shape)

disc = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1), nn.LeakyReLU(0.2), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 1))
real = torch.randn(4, 3, 9, 9).requires_grad_(True)
real_pred = disc(minibatch_stddev(real))
fake_pred = disc(minibatch_stddev(img))
d_loss = F.softplus(-real_pred).mean() + F.softplus(fake_pred).mean()
g_loss = F.softplus(-fake_pred).mean()
(grad_real,) = torch.autograd.grad(outputs=real_pred.sum(), inputs=real, create_graph=True)
r1 = grad_real.pow(2).reshape(grad_real.shape[0], -1).sum(1).mean()
(d_loss + 10 / 2 * r1).backward()
print("d_loss", d_loss.item(), "g_loss", g_loss.item(), "r1", r1.item(), "disc grad", disc[0].weight.grad.abs().sum().item())

w = mapping(z)
fake_img = up(conv(const, w), w)
path_noise = torch.randn_like(fake_img) / math.sqrt(fake_img.shape[2] * fake_img.shape[3])
(grad,) = torch.autograd.grad(outputs=(fake_img * path_noise).sum(), inputs=w, create_graph=True)
path_lengths = torch.sqrt(grad.pow(2).sum(1))
mean_path_length = 0.0 + 0.01 * (path_lengths.mean().item() - 0.0)
path_penalty = (path_lengths - mean_path_length).pow(2).mean()
path_penalty.backward()
print("path lengths", path_lengths, "penalty", path_penalty.item(), "mapping grad", mapping[1].weight.grad.abs().sum().item())
