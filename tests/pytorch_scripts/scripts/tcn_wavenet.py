"""Causal convolutional sequence models as locuslab/TCN and the popular WaveNet ports write them:
Chomp1d slicing off the right padding (x[:, :, :-chomp_size].contiguous()), TemporalBlock with dilated
Conv1d under weight_norm (torch.nn.utils.parametrizations), normal_(0, 0.01) init, a 1x1 downsample
residual, TemporalConvNet with dilation 2**i and the receptive field, causality checked by perturbing
a future step and looking at the gradient of an early output; then WaveNet's causal conv via F.pad on
the left, gated activation tanh(f) * sigmoid(g), residual and skip 1x1 convs summed over layers, mu-law
companding (sign, log1p, quantise with long()) and its inverse, trained with cross entropy over 16
classes for a few steps."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.parametrizations import weight_norm

torch.manual_seed(0)


class Chomp1d(nn.Module):
    def __init__(self, chomp_size):
        super(Chomp1d, self).__init__()
        self.chomp_size = chomp_size

    def forward(self, x):
        return x[:, :, :-self.chomp_size].contiguous()


class TemporalBlock(nn.Module):
    def __init__(self, n_inputs, n_outputs, kernel_size, stride, dilation, padding, dropout=0.2):
        super(TemporalBlock, self).__init__()
        self.conv1 = weight_norm(nn.Conv1d(n_inputs, n_outputs, kernel_size, stride=stride, padding=padding,
                                           dilation=dilation))
        self.chomp1 = Chomp1d(padding)
        self.relu1 = nn.ReLU()
        self.dropout1 = nn.Dropout(dropout)
        self.conv2 = weight_norm(nn.Conv1d(n_outputs, n_outputs, kernel_size, stride=stride, padding=padding,
                                           dilation=dilation))
        self.chomp2 = Chomp1d(padding)
        self.relu2 = nn.ReLU()
        self.dropout2 = nn.Dropout(dropout)
        self.net = nn.Sequential(self.conv1, self.chomp1, self.relu1, self.dropout1,
                                 self.conv2, self.chomp2, self.relu2, self.dropout2)
        self.downsample = nn.Conv1d(n_inputs, n_outputs, 1) if n_inputs != n_outputs else None
        self.relu = nn.ReLU()
        self.init_weights()

    def init_weights(self):
        self.conv1.weight.data.normal_(0, 0.01)
        self.conv2.weight.data.normal_(0, 0.01)
        if self.downsample is not None:
            self.downsample.weight.data.normal_(0, 0.01)

    def forward(self, x):
        out = self.net(x)
        res = x if self.downsample is None else self.downsample(x)
        return self.relu(out + res)


class TemporalConvNet(nn.Module):
    def __init__(self, num_inputs, num_channels, kernel_size=2, dropout=0.2):
        super(TemporalConvNet, self).__init__()
        layers = []
        num_levels = len(num_channels)
        for i in range(num_levels):
            dilation_size = 2 ** i
            in_channels = num_inputs if i == 0 else num_channels[i - 1]
            out_channels = num_channels[i]
            layers += [TemporalBlock(in_channels, out_channels, kernel_size, stride=1, dilation=dilation_size,
                                     padding=(kernel_size - 1) * dilation_size, dropout=dropout)]
        self.network = nn.Sequential(*layers)

    def forward(self, x):
        return self.network(x)


tcn = TemporalConvNet(2, [8, 8, 8], kernel_size=3, dropout=0.0)
print(tcn.network[1].conv1)
print("receptive field", 1 + 2 * (3 - 1) * sum(2 ** i for i in range(3)))
print("weight_norm params", sorted(n for n, _ in tcn.network[0].conv1.named_parameters()))
x = torch.randn(2, 2, 30, requires_grad=True)
y = tcn(x)
print(y.shape, y.grad_fn.name())
y[:, :, 10].sum().backward()
g = x.grad.abs().sum(dim=(0, 1))
print("grad reaches future:", bool((g[11:] > 0).any()), "earliest step with grad", int((g > 0).nonzero()[0]))


class CausalConv1d(nn.Conv1d):
    def __init__(self, in_channels, out_channels, kernel_size, dilation=1):
        super().__init__(in_channels, out_channels, kernel_size, dilation=dilation)
        self.left_padding = (kernel_size - 1) * dilation

    def forward(self, x):
        return super().forward(F.pad(x, (self.left_padding, 0)))


class ResidualLayer(nn.Module):
    def __init__(self, residual_channels, skip_channels, dilation):
        super().__init__()
        self.filter_conv = CausalConv1d(residual_channels, residual_channels, 2, dilation)
        self.gate_conv = CausalConv1d(residual_channels, residual_channels, 2, dilation)
        self.residual = nn.Conv1d(residual_channels, residual_channels, 1)
        self.skip = nn.Conv1d(residual_channels, skip_channels, 1)

    def forward(self, x):
        z = torch.tanh(self.filter_conv(x)) * torch.sigmoid(self.gate_conv(x))
        return x + self.residual(z), self.skip(z)


class WaveNet(nn.Module):
    def __init__(self, classes=16, residual_channels=8, skip_channels=12, n_layers=4):
        super().__init__()
        self.embed = nn.Embedding(classes, residual_channels)
        self.layers = nn.ModuleList([ResidualLayer(residual_channels, skip_channels, 2 ** i) for i in range(n_layers)])
        self.out = nn.Sequential(nn.ReLU(), nn.Conv1d(skip_channels, skip_channels, 1), nn.ReLU(),
                                 nn.Conv1d(skip_channels, classes, 1))

    def forward(self, tokens):
        x = self.embed(tokens).transpose(1, 2)
        skips = 0
        for layer in self.layers:
            x, s = layer(x)
            skips = skips + s
        return self.out(skips)


def mu_law_encode(audio, quantization_channels=16):
    mu = quantization_channels - 1.0
    safe_audio_abs = torch.minimum(torch.abs(audio), torch.tensor(1.0))
    magnitude = torch.log1p(mu * safe_audio_abs) / math.log1p(mu)
    signal = torch.sign(audio) * magnitude
    return ((signal + 1) / 2 * mu + 0.5).long()


def mu_law_decode(output, quantization_channels=16):
    mu = quantization_channels - 1.0
    signal = 2 * (output.float() / mu) - 1
    magnitude = (1 / mu) * ((1 + mu) ** torch.abs(signal) - 1)
    return torch.sign(signal) * magnitude


t = torch.linspace(0, 4 * math.pi, 65)
wave = 0.8 * torch.sin(t) * torch.exp(-0.1 * t)
q = mu_law_encode(wave)
print("mu-law", q[:12].tolist(), q.dtype, round((mu_law_decode(q) - wave).abs().max().item(), 4))
net = WaveNet()
print(net.layers[3].filter_conv, net.layers[3].filter_conv.left_padding)
opt = torch.optim.Adam(net.parameters(), lr=3e-3)
inp, tgt = q[:-1].unsqueeze(0), q[1:].unsqueeze(0)
for step in range(6):
    logits = net(inp)
    loss = F.cross_entropy(logits, tgt)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"wavenet step {step} loss {loss.item():.4f}", tuple(logits.shape))
