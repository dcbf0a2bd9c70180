"""Normalisation layers as re-implemented in model repos next to the built-ins: RMSNorm (LLaMA / T5
style, computed in float32), LayerNorm without bias, ScaleNorm, channels-first LayerNorm (ConvNeXt),
BatchNorm1d on (N, C, L) with momentum=None (cumulative average), track_running_stats=False,
GroupNorm against its definition, InstanceNorm with running stats, F.layer_norm over the last two dims,
conditional BatchNorm, and conv-bn fusion for inference computed by hand."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(4)


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def _norm(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)

    def forward(self, x):
        output = self._norm(x.float()).type_as(x)
        return output * self.weight


class T5LayerNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states


class ScaleNorm(nn.Module):
    def __init__(self, scale, eps=1e-5):
        super().__init__()
        self.scale = nn.Parameter(torch.tensor(scale ** 0.5))
        self.eps = eps

    def forward(self, x):
        norm = self.scale / torch.norm(x, dim=-1, keepdim=True).clamp(min=self.eps)
        return x * norm


class LayerNormChannelsFirst(nn.Module):
    def __init__(self, normalized_shape, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))
        self.eps = eps

    def forward(self, x):
        u = x.mean(1, keepdim=True)
        s = (x - u).pow(2).mean(1, keepdim=True)
        x = (x - u) / torch.sqrt(s + self.eps)
        return self.weight[:, None, None] * x + self.bias[:, None, None]


class ConditionalBatchNorm2d(nn.Module):
    def __init__(self, num_features, num_classes):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features, affine=False)
        self.embed = nn.Embedding(num_classes, num_features * 2)
        self.embed.weight.data[:, :num_features].normal_(1, 0.02)
        self.embed.weight.data[:, num_features:].zero_()

    def forward(self, x, y):
        out = self.bn(x)
        gamma, beta = self.embed(y).chunk(2, 1)
        return gamma.view(-1, out.size(1), 1, 1) * out + beta.view(-1, out.size(1), 1, 1)


def fuse_conv_bn(conv, bn):
    fused = copy.deepcopy(conv)
    w_conv = conv.weight.clone().view(conv.out_channels, -1)
    w_bn = torch.diag(bn.weight.div(torch.sqrt(bn.eps + bn.running_var)))
    fused.weight.data.copy_(torch.mm(w_bn, w_conv).view(fused.weight.size()))
    b_conv = conv.bias if conv.bias is not None else torch.zeros(conv.weight.size(0))
    b_bn = bn.bias - bn.weight.mul(bn.running_mean).div(torch.sqrt(bn.running_var + bn.eps))
    if fused.bias is None:
        fused.bias = nn.Parameter(torch.zeros(conv.out_channels))
    fused.bias.data.copy_(torch.matmul(w_bn, b_conv) + b_bn)
    return fused


x = torch.randn(2, 3, 8)
rms = RMSNorm(8)
print("rms", rms(x)[0, 0].round(decimals=4), (rms(x) - T5LayerNorm(8)(x)).abs().max().item() < 1e-5)
print("nn.RMSNorm", (nn.RMSNorm(8, eps=1e-6)(x) - rms(x)).abs().max().item() < 1e-5,
      F.rms_norm(x, (3, 8)).pow(2).mean(dim=(1, 2)))
ln_nobias = nn.LayerNorm(8, bias=False)
print("layernorm bias=False", [n for n, _ in ln_nobias.named_parameters()], ln_nobias(x)[1, 2].round(decimals=4))
ln_noaffine = nn.LayerNorm([3, 8], elementwise_affine=False)
print("no affine", list(ln_noaffine.parameters()), (ln_noaffine(x) - F.layer_norm(x, (3, 8))).abs().max().item())
print("scalenorm", ScaleNorm(8.0)(x).norm(dim=-1))

img = torch.randn(2, 4, 3, 3)
cf = LayerNormChannelsFirst(4)
ref = F.layer_norm(img.permute(0, 2, 3, 1), (4,), eps=1e-6).permute(0, 3, 1, 2)
print("channels first", (cf(img) - ref).abs().max().item() < 1e-5)
gn = nn.GroupNorm(2, 4)
manual = img.view(2, 2, -1)
manual = ((manual - manual.mean(-1, keepdim=True)) / torch.sqrt(manual.var(-1, unbiased=False, keepdim=True) + 1e-5)).view_as(img)
print("groupnorm", (gn(img) - manual).abs().max().item() < 1e-5, F.group_norm(img, 4).std().item())

seq = torch.randn(4, 3, 6) * 3 + 1
bn_cma = nn.BatchNorm1d(3, momentum=None)
for i in range(3):
    bn_cma(seq + i)
print("cumulative average", bn_cma.running_mean, bn_cma.running_var, bn_cma.num_batches_tracked)
bn_ema = nn.BatchNorm1d(3, momentum=0.3)
for i in range(3):
    bn_ema(seq + i)
print("ema", bn_ema.running_mean, bn_ema.running_var)
bn_nostats = nn.BatchNorm1d(3, track_running_stats=False)
bn_nostats.eval()
print("no stats", bn_nostats.running_mean, bn_nostats(seq)[0, 0, :3].round(decimals=4))
inorm = nn.InstanceNorm1d(3, affine=True, track_running_stats=True)
inorm(seq)
print("instancenorm stats", inorm.running_mean, inorm.running_var)
inorm.eval()
print(inorm(seq)[0, 1, :3].round(decimals=4))

cbn = ConditionalBatchNorm2d(4, 3)
print("conditional bn", cbn(img, torch.tensor([0, 2])).mean(dim=(2, 3)).round(decimals=4))

conv = nn.Conv2d(3, 4, 3, padding=1, bias=False)
bn = nn.BatchNorm2d(4)
model = nn.Sequential(conv, bn)
for _ in range(5):
    model(torch.randn(8, 3, 6, 6))
bn.weight.data.uniform_(0.5, 1.5)
bn.bias.data.uniform_(-0.2, 0.2)
model.eval()
fused = fuse_conv_bn(conv, bn)
probe = torch.randn(2, 3, 6, 6)
print("fused", (fused(probe) - model(probe)).abs().max().item() < 1e-5, fused.bias.round(decimals=4))
