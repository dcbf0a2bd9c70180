"""Spectral methods as scientific-ML code writes them: the Fourier Neural Operator's SpectralConv1d
(neuraloperator / Zongyi Li's fourier_1d.py: torch.fft.rfft, complex weights as nn.Parameter of
torch.cfloat scaled by 1/(in*out), einsum 'bix,iox->box' on the low modes, irfft with n=), FNO1d with
a lifting layer, a pointwise Conv1d path and GELU, trained a few steps with Adam; plus the FFT
toolkit around it: fftfreq/rfftfreq, fftshift/ifftshift, a spectral derivative checked against
the analytic one, convolution by FFT against F.conv1d with circular padding, 2-d rfft2/irfft2 low-pass
filtering, norm='ortho' Parseval checks, complex tensor ops (abs, angle, conj, real/imag views)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SpectralConv1d(nn.Module):
    def __init__(self, in_channels, out_channels, modes1):
        super(SpectralConv1d, self).__init__()
        self.in_channels, self.out_channels, self.modes1 = in_channels, out_channels, modes1
        self.scale = 1 / (in_channels * out_channels)
        self.weights1 = nn.Parameter(self.scale * torch.rand(in_channels, out_channels, self.modes1, dtype=torch.cfloat))

    def compl_mul1d(self, input, weights):
        return torch.einsum("bix,iox->box", input, weights)

    def forward(self, x):
        batchsize = x.shape[0]
        x_ft = torch.fft.rfft(x)
        out_ft = torch.zeros(batchsize, self.out_channels, x.size(-1) // 2 + 1, device=x.device, dtype=torch.cfloat)
        out_ft[:, :, :self.modes1] = self.compl_mul1d(x_ft[:, :, :self.modes1], self.weights1)
        x = torch.fft.irfft(out_ft, n=x.size(-1))
        return x


class FNO1d(nn.Module):
    def __init__(self, modes, width):
        super(FNO1d, self).__init__()
        self.modes1, self.width = modes, width
        self.fc0 = nn.Linear(2, self.width)
        self.conv0 = SpectralConv1d(self.width, self.width, self.modes1)
        self.conv1 = SpectralConv1d(self.width, self.width, self.modes1)
        self.w0 = nn.Conv1d(self.width, self.width, 1)
        self.w1 = nn.Conv1d(self.width, self.width, 1)
        self.fc1 = nn.Linear(self.width, 16)
        self.fc2 = nn.Linear(16, 1)

    def get_grid(self, shape, device):
        batchsize, size_x = shape[0], shape[1]
        gridx = torch.tensor(torch.linspace(0, 1, size_x).tolist(), dtype=torch.float)
        gridx = gridx.reshape(1, size_x, 1).repeat([batchsize, 1, 1])
        return gridx.to(device)

    def forward(self, x):
        grid = self.get_grid(x.shape, x.device)
        x = torch.cat((x, grid), dim=-1)
        x = self.fc0(x)
        x = x.permute(0, 2, 1)
        x = F.gelu(self.conv0(x) + self.w0(x))
        x = self.conv1(x) + self.w1(x)
        x = x.permute(0, 2, 1)
        x = F.gelu(self.fc1(x))
        return self.fc2(x)


model = FNO1d(modes=4, width=8)
print(model.conv0.weights1.dtype, model.conv0.weights1.shape, model.conv0.weights1.is_complex())
print("params", sum(p.numel() for p in model.parameters()), sum(p.numel() * (2 if p.is_complex() else 1)
                                                                 for p in model.parameters()))
n = 32
xs = torch.linspace(0, 2 * math.pi, n + 1)[:-1]
a = torch.stack([torch.sin(k * xs) for k in (1.0, 2.0, 3.0, 1.5)]).unsqueeze(-1)
u = torch.stack([torch.cos(k * xs) * k for k in (1.0, 2.0, 3.0, 1.5)]).unsqueeze(-1)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for ep in range(5):
    out = model(a)
    loss = F.mse_loss(out, u)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"ep {ep} mse {loss.item():.5f}")
g = model.conv0.weights1.grad
print("complex grad", g.dtype, g.shape, round(g.abs().sum().item(), 4))

# FFT toolkit
print("fftfreq", torch.fft.fftfreq(6).tolist(), torch.fft.rfftfreq(6, d=0.5).tolist())
print("shift", torch.fft.fftshift(torch.arange(6)).tolist(), torch.fft.ifftshift(torch.fft.fftshift(torch.arange(5))).tolist())
f = torch.sin(3 * xs) + 0.5 * torch.cos(xs)
k = torch.fft.rfftfreq(n, d=1.0 / n)
df = torch.fft.irfft(1j * k * torch.fft.rfft(f), n=n)
print("spectral derivative err", (df - (3 * torch.cos(3 * xs) - 0.5 * torch.sin(xs))).abs().max().item() < 1e-4)
spec = torch.fft.rfft(f)
print("spectrum peaks", spec.abs().topk(2).indices.tolist(), spec.dtype, spec[3].abs().item() > 15)
kernel = torch.tensor([0.25, 0.5, 0.25])
signal = torch.randn(16)
padded = F.pad(signal.view(1, 1, -1), (1, 1), mode="circular")
direct = F.conv1d(padded, kernel.view(1, 1, -1)).flatten()
kfull = torch.zeros(16)
kfull[[15, 0, 1]] = kernel
via_fft = torch.fft.ifft(torch.fft.fft(signal) * torch.fft.fft(kfull).conj()).real
print("fft conv == circular conv1d:", torch.allclose(direct, via_fft, atol=1e-5))
img = torch.randn(1, 8, 8)
spec2 = torch.fft.rfft2(img)
spec2[..., 3:, :] = 0
spec2[..., :, 3:] = 0
low = torch.fft.irfft2(spec2, s=img.shape[-2:])
print("low-pass", spec2.shape, low.shape, round(low.std().item(), 4) < round(img.std().item(), 4))
ortho = torch.fft.fft(signal, norm="ortho")
print("parseval", round(signal.pow(2).sum().item(), 4) == round(ortho.abs().pow(2).sum().item(), 4),
      torch.allclose(torch.fft.ifft(ortho, norm="ortho").real, signal, atol=1e-6))
z = torch.complex(torch.tensor([3.0, 0.0]), torch.tensor([4.0, -1.0]))
print(z, z.abs().tolist(), z.angle().tolist(), z.conj(), torch.view_as_real(z).tolist(), z.real, z.imag)
zz = torch.randn(3, dtype=torch.cfloat, requires_grad=True)
(zz * zz.conj()).real.sum().backward()
print("wirtinger grad", torch.allclose(zz.grad, 2 * zz.detach()), zz.grad.dtype)
print(torch.fft.fft(torch.tensor([1.0, 2.0, 3.0, 4.0])), torch.fft.hfft(torch.tensor([1.0, 2.0, 3.0]), n=4))
