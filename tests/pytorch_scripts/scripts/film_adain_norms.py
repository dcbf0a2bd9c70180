"""Conditioning layers as GAN, style-transfer and VQA code writes them: FiLM (gamma/beta from a
condition via Linear and chunk(2, dim=1), broadcast with [:, :, None, None]), conditional batch norm
(BatchNorm2d(affine=False) plus class-embedding gamma/beta, embed.weight.data[:, :C].normal_(1, 0.02)),
AdaIN from calc_mean_std (var over view(N, C, -1) + eps, sqrt) with the style's statistics,
StyleGAN's modulated conv (weight * style, demodulation by rsqrt of the summed squares, grouped conv
over the batch via view(1, -1, H, W) and groups=batch), pixel norm, equalised-learning-rate scaling,
instance/layer/group norm equivalences checked against F.instance_norm / F.group_norm / F.layer_norm,
and nn.LocalResponseNorm / nn.CrossMapLRN2d-free AlexNet LRN."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class FiLM(nn.Module):
    def __init__(self, cond_dim, channels):
        super().__init__()
        self.proj = nn.Linear(cond_dim, 2 * channels)

    def forward(self, x, cond):
        gamma, beta = self.proj(cond).chunk(2, dim=1)
        return (1 + gamma)[:, :, None, None] * x + beta[:, :, None, None]


class ConditionalBatchNorm2d(nn.Module):
    def __init__(self, num_features, num_classes):
        super().__init__()
        self.num_features = num_features
        self.bn = nn.BatchNorm2d(num_features, affine=False)
        self.embed = nn.Embedding(num_classes, num_features * 2)
        self.embed.weight.data[:, :num_features].normal_(1, 0.02)
        self.embed.weight.data[:, num_features:].zero_()

    def forward(self, x, y):
        out = self.bn(x)
        gamma, beta = self.embed(y).chunk(2, 1)
        out = gamma.view(-1, self.num_features, 1, 1) * out + beta.view(-1, self.num_features, 1, 1)
        return out


def calc_mean_std(feat, eps=1e-5):
    size = feat.size()
    assert (len(size) == 4)
    N, C = size[:2]
    feat_var = feat.view(N, C, -1).var(dim=2) + eps
    feat_std = feat_var.sqrt().view(N, C, 1, 1)
    feat_mean = feat.view(N, C, -1).mean(dim=2).view(N, C, 1, 1)
    return feat_mean, feat_std


def adaptive_instance_normalization(content_feat, style_feat):
    assert (content_feat.size()[:2] == style_feat.size()[:2])
    size = content_feat.size()
    style_mean, style_std = calc_mean_std(style_feat)
    content_mean, content_std = calc_mean_std(content_feat)
    normalized_feat = (content_feat - content_mean.expand(size)) / content_std.expand(size)
    return normalized_feat * style_std.expand(size) + style_mean.expand(size)


x = torch.randn(2, 4, 5, 5)
film = FiLM(3, 4)
out = film(x, torch.randn(2, 3))
print("film", out.shape, out.grad_fn.name())
cbn = ConditionalBatchNorm2d(4, 10)
print(cbn.bn, "gamma mean", round(cbn.embed.weight[:, :4].mean().item(), 2), cbn.embed.weight[:, 4:].abs().sum().item())
y = cbn(x, torch.tensor([3, 7]))
print("cbn", y.shape, cbn.bn.running_mean.shape, cbn.bn.num_batches_tracked.item(), y.grad_fn.name())
style = torch.randn(2, 4, 6, 6) * 3 + 1
t = adaptive_instance_normalization(x, style)
tm, ts = calc_mean_std(t)
sm, ss = calc_mean_std(style)
print("adain stats", torch.allclose(tm, sm, atol=1e-4), torch.allclose(ts, ss, atol=1e-3), t.shape)
inorm = F.instance_norm(x, eps=1e-5)
manual = (x - x.mean(dim=(2, 3), keepdim=True)) / torch.sqrt(x.var(dim=(2, 3), unbiased=False, keepdim=True) + 1e-5)
print("instance_norm", torch.allclose(inorm, manual, atol=1e-5))
gn = F.group_norm(x, 2, eps=1e-5)
xg = x.view(2, 2, -1)
manual_gn = ((xg - xg.mean(-1, keepdim=True)) / torch.sqrt(xg.var(-1, unbiased=False, keepdim=True) + 1e-5)).view_as(x)
print("group_norm", torch.allclose(gn, manual_gn, atol=1e-5), torch.allclose(F.group_norm(x, 1), F.layer_norm(x, x.shape[1:]), atol=1e-5),
      torch.allclose(F.group_norm(x, 4), inorm, atol=1e-5))


class ModulatedConv2d(nn.Module):
    def __init__(self, in_channel, out_channel, kernel_size, style_dim, demodulate=True):
        super().__init__()
        self.eps = 1e-8
        self.kernel_size = kernel_size
        self.in_channel, self.out_channel = in_channel, out_channel
        fan_in = in_channel * kernel_size ** 2
        self.scale = 1 / math.sqrt(fan_in)
        self.padding = kernel_size // 2
        self.weight = nn.Parameter(torch.randn(1, out_channel, in_channel, kernel_size, kernel_size))
        self.modulation = nn.Linear(style_dim, in_channel)
        self.modulation.bias.data.fill_(1)
        self.demodulate = demodulate

    def __repr__(self):
        return (f"{self.__class__.__name__}({self.in_channel}, {self.out_channel}, {self.kernel_size}, "
                f"demodulate={self.demodulate})")

    def forward(self, input, style):
        batch, in_channel, height, width = input.shape
        style = self.modulation(style).view(batch, 1, in_channel, 1, 1)
        weight = self.scale * self.weight * style
        if self.demodulate:
            demod = torch.rsqrt(weight.pow(2).sum([2, 3, 4]) + 1e-8)
            weight = weight * demod.view(batch, self.out_channel, 1, 1, 1)
        weight = weight.view(batch * self.out_channel, in_channel, self.kernel_size, self.kernel_size)
        input = input.view(1, batch * in_channel, height, width)
        out = F.conv2d(input, weight, padding=self.padding, groups=batch)
        _, _, height, width = out.shape
        return out.view(batch, self.out_channel, height, width)


mod = ModulatedConv2d(4, 6, 3, 5)
print(mod)
w = torch.randn(2, 5)
o = mod(x, w)
print("modconv", o.shape, o.grad_fn.name())
ref = torch.stack([F.conv2d(x[i:i + 1], (mod.scale * mod.weight[0] * mod.modulation(w)[i].view(1, 4, 1, 1)) *
                            torch.rsqrt((mod.scale * mod.weight[0] * mod.modulation(w)[i].view(1, 4, 1, 1)).pow(2)
                                        .sum([1, 2, 3]) + 1e-8).view(6, 1, 1, 1), padding=1)[0] for i in range(2)])
print("grouped == per-sample:", torch.allclose(o, ref, atol=1e-5))
o.square().mean().backward()
print("grads", mod.weight.grad.shape, mod.modulation.weight.grad.shape)


class PixelNorm(nn.Module):
    def forward(self, input):
        return input * torch.rsqrt(torch.mean(input ** 2, dim=1, keepdim=True) + 1e-8)


pn = PixelNorm()(x)
print("pixelnorm", torch.allclose((pn ** 2).mean(1), torch.ones(2, 5, 5), atol=1e-4))


class EqualLinear(nn.Module):
    def __init__(self, in_dim, out_dim, lr_mul=0.01, bias_init=0):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_dim, in_dim).div_(lr_mul))
        self.bias = nn.Parameter(torch.zeros(out_dim).fill_(bias_init))
        self.scale = (1 / math.sqrt(in_dim)) * lr_mul
        self.lr_mul = lr_mul

    def forward(self, input):
        return F.linear(input, self.weight * self.scale, bias=self.bias * self.lr_mul)


eq = EqualLinear(5, 3, bias_init=1)
print("equal linear", eq(w).shape, round(eq.weight.std().item() * eq.scale, 2) > 0, eq.bias.tolist())
lrn = nn.LocalResponseNorm(3, alpha=1e-4, beta=0.75, k=2.0)
print(lrn, torch.allclose(lrn(x), x / (2.0 + 1e-4 / 3 * F.avg_pool3d(F.pad(x.pow(2).unsqueeze(1), (0, 0, 0, 0, 1, 1)),
                                                                   (3, 1, 1), stride=1).squeeze(1) * 3) ** 0.75, atol=1e-5))
