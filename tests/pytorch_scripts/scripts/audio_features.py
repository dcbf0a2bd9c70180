"""Audio front ends in plain torch, as speech and vocoder repositories write them without torchaudio:
a HiFi-GAN style mel_spectrogram (reflect padding by hand, torch.stft with a cached hann_window,
return_complex=True then abs, a mel filterbank built from the HTK formula with torch.linspace and
torch.clamp of triangular slopes, dynamic range compression with log(clamp(x, min=1e-5))), MFCCs
through a DCT-II matrix, SpecAugment time/frequency masks with masked_fill, an STFT loss
(spectral convergence with torch.norm(p='fro') plus log-magnitude L1) used to fit a tiny conv
generator, and the round trip through torch.istft."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
sr, n_fft, hop, win, n_mels = 8000, 64, 16, 64, 12


def hz_to_mel(f):
    return 2595.0 * math.log10(1.0 + f / 700.0)


def mel_filterbank(sr, n_fft, n_mels, fmin=0.0, fmax=None):
    fmax = fmax or sr / 2
    mels = torch.linspace(hz_to_mel(fmin), hz_to_mel(fmax), n_mels + 2)
    hz = 700.0 * (10 ** (mels / 2595.0) - 1.0)
    bins = torch.linspace(0, sr / 2, n_fft // 2 + 1)
    lower = (bins[None, :] - hz[:-2, None]) / (hz[1:-1, None] - hz[:-2, None])
    upper = (hz[2:, None] - bins[None, :]) / (hz[2:, None] - hz[1:-1, None])
    fb = torch.clamp(torch.minimum(lower, upper), min=0.0)
    enorm = 2.0 / (hz[2:n_mels + 2] - hz[:n_mels])
    return fb * enorm[:, None]


mel_basis, hann_window = {}, {}


def dynamic_range_compression_torch(x, C=1, clip_val=1e-5):
    return torch.log(torch.clamp(x, min=clip_val) * C)


def mel_spectrogram(y, n_fft, num_mels, sampling_rate, hop_size, win_size, fmin, fmax, center=False):
    global mel_basis, hann_window
    if fmax not in mel_basis:
        mel_basis[str(fmax) + '_' + str(y.device)] = mel_filterbank(sampling_rate, n_fft, num_mels, fmin, fmax)
        hann_window[str(y.device)] = torch.hann_window(win_size).to(y.device)
    y = torch.nn.functional.pad(y.unsqueeze(1), (int((n_fft - hop_size) / 2), int((n_fft - hop_size) / 2)),
                                mode='reflect')
    y = y.squeeze(1)
    spec = torch.stft(y, n_fft, hop_length=hop_size, win_length=win_size, window=hann_window[str(y.device)],
                      center=center, pad_mode='reflect', normalized=False, onesided=True, return_complex=True)
    spec = torch.sqrt(spec.abs().pow(2) + 1e-9)
    spec = torch.matmul(mel_basis[str(fmax) + '_' + str(y.device)], spec)
    return dynamic_range_compression_torch(spec)


t = torch.arange(0, 1024) / sr
audio = 0.5 * torch.sin(2 * math.pi * 440 * t) + 0.3 * torch.sin(2 * math.pi * 1200 * t) + 0.05 * torch.randn(1024)
batch = torch.stack([audio, audio.flip(0)])
fb = mel_filterbank(sr, n_fft, n_mels)
print("filterbank", fb.shape, fb.sum(1)[:4].round(decimals=5).tolist(), (fb > 0).sum(1).tolist()[:6])
mel = mel_spectrogram(batch, n_fft, n_mels, sr, hop, win, 0.0, None)
print("mel", mel.shape, round(mel.mean().item(), 4), round(mel.max().item(), 4))
peak_bin = torch.stft(audio, n_fft, hop, window=torch.hann_window(n_fft), return_complex=True).abs().mean(1).argmax()
print("peak bin", peak_bin.item(), round(peak_bin.item() * sr / n_fft, 1))

n_mfcc = 6
k = torch.arange(n_mels).float()
dct = torch.cos(math.pi / n_mels * (k[None, :] + 0.5) * torch.arange(n_mfcc).float()[:, None]) * math.sqrt(2.0 / n_mels)
dct[0] /= math.sqrt(2.0)
mfcc = torch.einsum("cm,bmt->bct", dct, mel)
print("mfcc", mfcc.shape, mfcc[0, :, 3].round(decimals=3).tolist(), torch.allclose(dct @ dct.T, torch.eye(n_mfcc), atol=1e-5))


def spec_augment(spec, F_=3, T_=4, generator=None):
    spec = spec.clone()
    n_freq, n_time = spec.shape[-2:]
    f = int(torch.randint(0, F_ + 1, (1,), generator=generator))
    f0 = int(torch.randint(0, n_freq - f + 1, (1,), generator=generator))
    t_ = int(torch.randint(0, T_ + 1, (1,), generator=generator))
    t0 = int(torch.randint(0, n_time - t_ + 1, (1,), generator=generator))
    freq_mask = (torch.arange(n_freq) >= f0) & (torch.arange(n_freq) < f0 + f)
    time_mask = (torch.arange(n_time) >= t0) & (torch.arange(n_time) < t0 + t_)
    return spec.masked_fill(freq_mask[:, None] | time_mask[None, :], spec.mean()), (f, f0, t_, t0)


aug, params = spec_augment(mel[0], generator=torch.Generator().manual_seed(3))
print("specaugment", params, (aug != mel[0]).sum().item())


class STFTLoss(nn.Module):
    def __init__(self, fft_size, shift_size, win_length):
        super().__init__()
        self.fft_size, self.shift_size, self.win_length = fft_size, shift_size, win_length
        self.register_buffer("window", torch.hann_window(win_length))

    def forward(self, x, y):
        x_mag = torch.stft(x, self.fft_size, self.shift_size, self.win_length, self.window, return_complex=True).abs()
        y_mag = torch.stft(y, self.fft_size, self.shift_size, self.win_length, self.window, return_complex=True).abs()
        x_mag, y_mag = x_mag.clamp(min=1e-7), y_mag.clamp(min=1e-7)
        sc = torch.norm(y_mag - x_mag, p="fro") / torch.norm(y_mag, p="fro")
        mag = F.l1_loss(torch.log(y_mag), torch.log(x_mag))
        return sc, mag


gen = nn.Sequential(nn.Conv1d(1, 8, 9, padding=4), nn.Tanh(), nn.Conv1d(8, 1, 9, padding=4))
loss_fn = STFTLoss(64, 16, 64)
opt = torch.optim.Adam(gen.parameters(), lr=3e-3)
noise = torch.randn(2, 1, 1024) * 0.1
for step in range(4):
    fake = gen(noise + batch[:, None]).squeeze(1)
    sc, mag = loss_fn(fake, batch)
    loss = sc + mag
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} sc {sc.item():.4f} mag {mag.item():.4f}")
print(list(loss_fn.state_dict().keys()), gen[0].weight.grad.abs().sum().item() > 0)
spec = torch.stft(audio, n_fft, hop, window=torch.hann_window(n_fft), return_complex=True)
rebuilt = torch.istft(spec, n_fft, hop, window=torch.hann_window(n_fft), length=audio.shape[0])
print("istft round trip", round((rebuilt - audio).abs().max().item(), 6), spec.dtype, rebuilt.dtype)
