"""Complex-valued signal processing and networks as in deep-complex-networks, radar and MRI code: a complex
linear layer from two real weights against a complex-dtype nn.Linear, CReLU / modReLU activations on
torch.complex64, Wirtinger gradients through abs / angle / real / imag, view_as_real / view_as_complex
round trips, FFT convolution with rfft / irfft against F.conv1d, fftshift / fftfreq, a 2D k-space
undersampling mask with ifft2, magnitude/phase losses, and torch.polar."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(83)


class ComplexLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc_r = nn.Linear(in_features, out_features)
        self.fc_i = nn.Linear(in_features, out_features)

    def forward(self, x):
        return torch.complex(self.fc_r(x.real) - self.fc_i(x.imag), self.fc_r(x.imag) + self.fc_i(x.real))


def complex_relu(z):
    return torch.complex(F.relu(z.real), F.relu(z.imag))


class ModReLU(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.b = nn.Parameter(torch.full((features,), -0.1))

    def forward(self, z):
        mag = z.abs()
        return F.relu(mag + self.b) * z / (mag + 1e-6)


z = torch.randn(4, 3, dtype=torch.cfloat)
print("cfloat", z.dtype, z[0], z.real.dtype)
layer = ComplexLinear(3, 2)
native = nn.Linear(3, 2, dtype=torch.cfloat)
with torch.no_grad():
    native.weight.copy_(torch.complex(layer.fc_r.weight, layer.fc_i.weight))
    native.bias.copy_(torch.complex(layer.fc_r.bias - layer.fc_i.bias, layer.fc_r.bias + layer.fc_i.bias))
print("complex linear", torch.allclose(layer(z), native(z), atol=1e-6), layer(z)[0])
print("crelu", complex_relu(z)[0], "modrelu", ModReLU(3)(z)[0])

w = torch.randn(3, dtype=torch.cfloat, requires_grad=True)
loss = (z @ w).abs().pow(2).sum()
loss.backward()
print("wirtinger grad", w.grad)
w.grad = None
(z @ w).angle().sum().backward()
print("angle grad", w.grad)
u = torch.tensor([1.0 + 2.0j, -0.5 + 0.1j], requires_grad=True)
(u.real * 2 + u.imag ** 2).sum().backward()
print("real/imag grad", u.grad)
r = torch.view_as_real(z)
print("view_as_real", r.shape, torch.equal(torch.view_as_complex(r), z), r.is_contiguous())
print("polar", torch.polar(torch.tensor([1.0, 2.0]), torch.tensor([0.0, math.pi / 2])))

signal = torch.randn(1, 1, 32)
kernel = torch.randn(1, 1, 5)
n = 32 + 5 - 1
fft_conv = torch.fft.irfft(torch.fft.rfft(signal, n=n) * torch.fft.rfft(kernel, n=n), n=n)
direct = F.conv1d(F.pad(signal, (4, 4)), kernel.flip(-1))
print("fft conv == conv1d", torch.allclose(fft_conv, direct, atol=1e-4), fft_conv.shape)
print("fftfreq", torch.fft.fftfreq(8, d=0.5), torch.fft.rfftfreq(8))
print("fftshift", torch.fft.fftshift(torch.arange(8)), torch.fft.ifftshift(torch.fft.fftshift(torch.arange(7))))

image = torch.zeros(16, 16)
image[4:12, 6:10] = 1.0
image += 0.05 * torch.randn(16, 16)
kspace = torch.fft.fftshift(torch.fft.fft2(image))
mask = torch.zeros(16, 16, dtype=torch.bool)
mask[:, 6:10] = True
mask[:, ::3] = True
under = torch.fft.ifft2(torch.fft.ifftshift(kspace * mask))
print("kept", mask.float().mean().item(), "zero-filled error", (under.abs() - image).abs().mean().item())
print("energy (parseval)", image.pow(2).sum().item(), kspace.abs().pow(2).sum().item() / 256)

recon = nn.Sequential(nn.Conv2d(2, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 2, 3, padding=1))
opt = torch.optim.Adam(recon.parameters(), lr=1e-2)
inp = torch.view_as_real(under).permute(2, 0, 1).unsqueeze(0).contiguous()
for step in range(30):
    out = recon(inp) + inp
    out_c = torch.view_as_complex(out[0].permute(1, 2, 0).contiguous())
    k_out = torch.fft.fftshift(torch.fft.fft2(out_c))
    dc = (torch.abs(k_out - kspace) * mask).pow(2).mean()
    mag = F.l1_loss(out_c.abs(), image)
    loss = mag + 0.01 * dc
    opt.zero_grad()
    loss.backward()
    opt.step()
print("recon loss", round(loss.item(), 5), "dc", round(dc.item(), 5))
print("complex ops", (z * z.conj()).real[0], torch.sgn(z)[0].abs(), z.abs().dtype, torch.linalg.norm(z, dim=1))
