"""pytorch.org's "(beta) Building a Convolution/Batch Norm fuser" tutorial done by hand: fuse_conv_bn_eval
and fuse_conv_bn_weights written out (w * gamma / sqrt(var + eps), (b - mean) * scale + beta), the
fused model matching the unfused one in eval mode, torch.nn.utils.fusion's own helpers, and fusing a
Linear with a BatchNorm1d."""
import copy

import torch
import torch.nn as nn
from torch.nn.utils.fusion import fuse_conv_bn_eval as torch_fuse, fuse_linear_bn_eval

torch.manual_seed(0)


def fuse_conv_bn_weights(conv_w, conv_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b):
    if conv_b is None:
        conv_b = bn_rm.new_zeros(bn_rm.shape)
    bn_var_rsqrt = torch.rsqrt(bn_rv + bn_eps)
    conv_w = conv_w * (bn_w * bn_var_rsqrt).reshape([-1] + [1] * (len(conv_w.shape) - 1))
    conv_b = (conv_b - bn_rm) * bn_var_rsqrt * bn_w + bn_b
    return torch.nn.Parameter(conv_w), torch.nn.Parameter(conv_b)


def fuse_conv_bn_eval(conv, bn):
    assert not (conv.training or bn.training), "Fusion only for eval!"
    fused_conv = copy.deepcopy(conv)
    fused_conv.weight, fused_conv.bias = fuse_conv_bn_weights(
        fused_conv.weight, fused_conv.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias)
    return fused_conv


class WrappedBatchNorm(nn.Module):
    def __init__(self):
        super().__init__()
        self.mod = nn.BatchNorm2d(1)

    def forward(self, x):
        return self.mod(x)


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 1, 1)
        self.bn1 = nn.BatchNorm2d(1)
        self.conv2 = nn.Conv2d(1, 1, 1)
        self.nested = nn.Sequential(nn.BatchNorm2d(1), nn.Conv2d(1, 1, 1))
        self.wrapped = WrappedBatchNorm()

    def forward(self, x):
        x = self.conv1(x)
        x = self.bn1(x)
        x = self.conv2(x)
        x = self.nested(x)
        x = self.wrapped(x)
        return x


model = M()
model.train()
for _ in range(3):
    model(torch.randn(8, 1, 4, 4) * 2 + 1)
model.eval()
print(model.bn1.running_mean, model.bn1.running_var, model.bn1.num_batches_tracked)
fused = copy.deepcopy(model)
fused.conv1 = fuse_conv_bn_eval(fused.conv1, fused.bn1)
fused.bn1 = nn.Identity()
print(fused)
inp = torch.randn(5, 1, 1, 1)
print(torch.testing.assert_close(fused(inp), model(inp)))
print(torch.allclose(fused(inp), model(inp), atol=1e-6))

conv = nn.Conv2d(3, 8, 3, padding=1, bias=False).eval()
bn = nn.BatchNorm2d(8).eval()
bn.running_mean.uniform_(-1, 1)
bn.running_var.uniform_(0.5, 2)
bn.weight.data.uniform_(0.5, 1.5)
bn.bias.data.uniform_(-0.5, 0.5)
x = torch.randn(2, 3, 6, 6)
mine = fuse_conv_bn_eval(conv, bn)
theirs = torch_fuse(conv, bn)
print(mine.bias is not None, theirs.bias.shape, theirs.weight.requires_grad)
print(torch.allclose(mine(x), bn(conv(x)), atol=1e-5), torch.allclose(theirs(x), bn(conv(x)), atol=1e-5))
print(torch.allclose(mine.weight, theirs.weight), f"{(mine(x) - bn(conv(x))).abs().max().item() < 1e-5}")
try:
    fuse_conv_bn_eval(conv.train(), bn)
except AssertionError as e:
    print("AssertionError:", e)

lin = nn.Linear(6, 4).eval()
bn1d = nn.BatchNorm1d(4).eval()
bn1d.running_mean.normal_()
bn1d.running_var.uniform_(0.5, 2.0)
fl = fuse_linear_bn_eval(lin, bn1d)
v = torch.randn(3, 6)
print(type(fl).__name__, torch.allclose(fl(v), bn1d(lin(v)), atol=1e-5))
