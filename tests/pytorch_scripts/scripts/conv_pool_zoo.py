"""Convolution and pooling layers that segmentation, audio and video repos use: a SegNet encoder/decoder
with MaxPool2d(return_indices=True) and MaxUnpool2d, ShuffleNet's channel shuffle (nn.ChannelShuffle and the
view/transpose version), LPPool1d/2d, AdaptiveMaxPool2d with indices, AdaptiveAvgPool1d/3d, a 1D
autoencoder with ConvTranspose1d (output_padding), Conv2d padding="same" with dilation and
padding_mode="circular"/"reflect"/"replicate", nn.CircularPad2d, a C3D-style block (Conv3d, BatchNorm3d,
MaxPool3d with ceil_mode), and output-size arithmetic checked against the layers."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(8)


class SegNetTiny(nn.Module):
    def __init__(self, in_ch=3, n_classes=4):
        super().__init__()
        self.enc1 = nn.Sequential(nn.Conv2d(in_ch, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(inplace=True))
        self.enc2 = nn.Sequential(nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(inplace=True))
        self.pool = nn.MaxPool2d(2, 2, return_indices=True)
        self.unpool = nn.MaxUnpool2d(2, 2)
        self.dec2 = nn.Sequential(nn.Conv2d(16, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(inplace=True))
        self.dec1 = nn.Conv2d(8, n_classes, 3, padding=1)

    def forward(self, x):
        x = self.enc1(x)
        size1 = x.size()
        x, idx1 = self.pool(x)
        x = self.enc2(x)
        size2 = x.size()
        x, idx2 = self.pool(x)
        x = self.unpool(x, idx2, output_size=size2)
        x = self.dec2(x)
        x = self.unpool(x, idx1, output_size=size1)
        return self.dec1(x)


def channel_shuffle(x, groups):
    batchsize, num_channels, height, width = x.size()
    channels_per_group = num_channels // groups
    x = x.view(batchsize, groups, channels_per_group, height, width)
    x = torch.transpose(x, 1, 2).contiguous()
    return x.view(batchsize, -1, height, width)


class Audio1DAutoencoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv1d(1, 4, 5, stride=2, padding=2), nn.ELU(),
                                     nn.Conv1d(4, 8, 5, stride=2, padding=2), nn.ELU())
        self.decoder = nn.Sequential(nn.ConvTranspose1d(8, 4, 5, stride=2, padding=2, output_padding=1), nn.ELU(),
                                     nn.ConvTranspose1d(4, 1, 5, stride=2, padding=2, output_padding=1))
        self.pool = nn.AdaptiveAvgPool1d(3)

    def forward(self, x):
        z = self.encoder(x)
        return self.decoder(z), self.pool(z)


class C3DBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(3, 4, kernel_size=3, padding=1)
        self.bn = nn.BatchNorm3d(4)
        self.pool = nn.MaxPool3d(kernel_size=(1, 2, 2), stride=(1, 2, 2), ceil_mode=True)
        self.gap = nn.AdaptiveAvgPool3d((1, 2, 2))

    def forward(self, x):
        x = self.pool(F.relu(self.bn(self.conv(x))))
        return x, self.gap(x)


def conv_out(size, kernel, stride=1, padding=0, dilation=1):
    return (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


x = torch.randn(2, 3, 8, 8)
segnet = SegNetTiny()
out = segnet(x)
print("segnet", out.shape, out[0, :, 0, 0])
pooled, idx = F.max_pool2d(x[:, :1], 2, return_indices=True)
print("indices", idx[0, 0, :2], "\nunpooled", F.max_unpool2d(pooled, idx, 2)[0, 0, :2])
pooled3, idx3 = F.max_pool2d(x[:1, :1, :7, :7], 2, return_indices=True)
print("unpool odd", F.max_unpool2d(pooled3, idx3, 2, output_size=(7, 7)).shape)

feat = torch.arange(2 * 6 * 2 * 2, dtype=torch.float32).view(2, 6, 2, 2)
print("channel shuffle", channel_shuffle(feat, 3)[0, :, 0, 0], torch.equal(nn.ChannelShuffle(3)(feat), channel_shuffle(feat, 3)))
print("lppool2d", nn.LPPool2d(2, 2)(x.abs())[0, 0], "\nlppool1d", F.lp_pool1d(x[0, :, 0], 3, 2))
amax, amax_idx = nn.AdaptiveMaxPool2d((3, 2), return_indices=True)(x)
print("adaptive max", amax[1, 2], amax_idx[1, 2])
print("adaptive avg 2d non-divisible", F.adaptive_avg_pool2d(x, (3, 5))[0, 0])

wave = torch.sin(torch.linspace(0, 12.0, 32)).view(1, 1, 32)
ae = Audio1DAutoencoder()
recon, summary = ae(wave)
print("audio ae", recon.shape, summary.shape, recon[0, 0, :4])
opt = torch.optim.Adam(ae.parameters(), lr=1e-2)
for step in range(40):
    recon, _ = ae(wave)
    loss = F.mse_loss(recon, wave)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("audio ae loss", round(loss.item(), 5))
ct = nn.ConvTranspose1d(2, 3, 4, stride=3, padding=1, dilation=2, groups=1)
print("convtranspose1d", ct(torch.randn(1, 2, 5)).shape, ct(torch.randn(1, 2, 5), output_size=[18]).shape)

for mode in ("zeros", "circular", "reflect", "replicate"):
    conv = nn.Conv2d(3, 2, 3, padding="same", dilation=2, padding_mode=mode, bias=False)
    with torch.no_grad():
        conv.weight.fill_(0.1)
    print(f"same/{mode}", conv(x)[0, 0, 0, :4])
print("circular pad", nn.CircularPad2d((1, 2, 0, 1))(feat[:1, :1]), F.pad(feat[:1, :1], (1, 1, 1, 1), mode="circular").shape)
print("circular 1d", F.pad(torch.arange(4.0).view(1, 1, 4), (2, 3), mode="circular"))

video = torch.randn(2, 3, 4, 7, 7)
c3d = C3DBlock()
clip_feat, gap = c3d(video)
print("c3d", clip_feat.shape, gap.shape, gap[0, :, 0].round(decimals=4))
print("maxpool3d ceil", F.max_pool3d(video, 2, ceil_mode=True).shape, F.avg_pool3d(video, (2, 3, 3), stride=2).shape)
for k, s, p, d in [(3, 1, 1, 1), (5, 2, 2, 1), (3, 2, 0, 2), (4, 3, 1, 1)]:
    layer = nn.Conv2d(3, 1, k, stride=s, padding=p, dilation=d)
    print((k, s, p, d), conv_out(8, k, s, p, d), layer(x).shape[-1])
(out.pow(2).mean() + clip_feat.mean()).backward()
print("grads", segnet.enc1[0].weight.grad.abs().sum().round(decimals=4), c3d.conv.weight.grad.abs().sum().round(decimals=4))
