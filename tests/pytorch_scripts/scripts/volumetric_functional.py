"""Volumetric (3D medical imaging) and assorted functional calls as in MONAI-style code written on plain
PyTorch: 3D affine_grid / grid_sample for augmentation, trilinear and nearest 5D interpolation, conv3d /
conv_transpose3d with stride and output_padding, max_pool3d with indices and max_unpool3d, F.pad with
negative padding (cropping) and value=, replicate / reflect padding on 5D, a 3D Dice loss with one_hot
permuted to channels-first, sliding-window inference with overlap averaging, and the activation family
(softplus with beta/threshold, celu, glu, hardtanh, softsign, tanhshrink, logsigmoid, threshold, rrelu in
eval mode, hardsigmoid, mish) with their gradients."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(109)
vol = torch.randn(2, 1, 6, 8, 8)

angle = 0.4
theta = torch.tensor([[math.cos(angle), -math.sin(angle), 0.0, 0.1],
                      [math.sin(angle), math.cos(angle), 0.0, 0.0],
                      [0.0, 0.0, 1.0, -0.1]]).unsqueeze(0).repeat(2, 1, 1)
grid = F.affine_grid(theta, vol.shape, align_corners=False)
print("3d grid", grid.shape, grid[0, 0, 0, 0])
for mode, padding in (("bilinear", "zeros"), ("nearest", "border"), ("bilinear", "reflection")):
    warped = F.grid_sample(vol, grid, mode=mode, padding_mode=padding, align_corners=False)
    print(f"grid_sample 3d {mode}/{padding}", warped[1, 0, 3, 4, :4])
print("trilinear", F.interpolate(vol, scale_factor=(0.5, 0.5, 0.5), mode="trilinear", align_corners=True)[0, 0, 1, 1])
print("nearest 5d", F.interpolate(vol, size=(3, 5, 5), mode="nearest")[0, 0, 2, 4])
print("area 5d", F.interpolate(vol, size=(3, 4, 4), mode="area")[1, 0, 0, 0])

enc = nn.Conv3d(1, 4, 3, stride=2, padding=1)
dec = nn.ConvTranspose3d(4, 1, 3, stride=2, padding=1, output_padding=1)
z = enc(vol)
print("conv3d", z.shape, "convtranspose3d", dec(z).shape, dec(z)[0, 0, 0, 0, :3])
pooled, idx = F.max_pool3d(vol, 2, return_indices=True)
print("maxpool3d indices", idx[0, 0, 0, 0], F.max_unpool3d(pooled, idx, 2).shape, (F.max_unpool3d(pooled, idx, 2) != 0).sum().item())
print("negative pad crops", F.pad(vol, (-1, -1, -2, 0, 0, -1)).shape, torch.equal(F.pad(vol, (-1, -1, 0, 0, 0, 0)), vol[..., 1:-1]))
print("pad value", F.pad(torch.ones(1, 2), (1, 2), value=-3.0), F.pad(vol, (1, 1, 1, 1, 1, 1), mode="replicate").shape,
      F.pad(vol, (2, 2, 1, 1, 1, 1), mode="reflect")[0, 0, 0, 0, :5])


def dice_loss_3d(logits, target, smooth=1e-5):
    num_classes = logits.shape[1]
    probs = F.softmax(logits, dim=1)
    one_hot = F.one_hot(target, num_classes).permute(0, 4, 1, 2, 3).float()
    dims = (0, 2, 3, 4)
    intersection = (probs * one_hot).sum(dims)
    cardinality = (probs + one_hot).sum(dims)
    dice = (2.0 * intersection + smooth) / (cardinality + smooth)
    return 1.0 - dice.mean(), dice


logits = torch.randn(2, 3, 6, 8, 8, requires_grad=True)
labels = torch.randint(0, 3, (2, 6, 8, 8))
loss, per_class = dice_loss_3d(logits, labels)
loss.backward()
print("dice 3d", loss.item(), per_class, logits.grad.abs().sum().item())


def sliding_window(volume, roi, overlap, predictor):
    _, _, D, H, W = volume.shape
    step = [max(1, int(r * (1 - overlap))) for r in roi]
    out = torch.zeros_like(volume)
    count = torch.zeros_like(volume)
    starts = [sorted(set(list(range(0, s - r + 1, st)) + [s - r])) for s, r, st in zip((D, H, W), roi, step)]
    for d in starts[0]:
        for h in starts[1]:
            for w in starts[2]:
                patch = volume[:, :, d:d + roi[0], h:h + roi[1], w:w + roi[2]]
                out[:, :, d:d + roi[0], h:h + roi[1], w:w + roi[2]] += predictor(patch)
                count[:, :, d:d + roi[0], h:h + roi[1], w:w + roi[2]] += 1
    return out / count, count


smooth = nn.Conv3d(1, 1, 3, padding=1, bias=False)
nn.init.constant_(smooth.weight, 1 / 27)
with torch.no_grad():
    pred, count = sliding_window(vol, (4, 4, 4), 0.5, smooth)
print("sliding window", pred.shape, count[0, 0, :, 0, 0], pred[0, 0, 2, 3, :3])

x = torch.linspace(-3, 3, 7, requires_grad=True)
acts = {
    "softplus": lambda t: F.softplus(t, beta=2.0, threshold=4.0), "celu": lambda t: F.celu(t, alpha=0.5),
    "hardtanh": lambda t: F.hardtanh(t, -1.5, 2.0), "softsign": F.softsign, "tanhshrink": F.tanhshrink,
    "logsigmoid": F.logsigmoid, "threshold": lambda t: F.threshold(t, 0.5, -1.0),
    "rrelu_eval": lambda t: F.rrelu(t, training=False), "hardsigmoid": F.hardsigmoid, "mish": F.mish,
    "hardswish": F.hardswish, "elu": lambda t: F.elu(t, alpha=1.3), "selu": F.selu, "softshrink": lambda t: F.softshrink(t, 1.0),
}
for name, fn in acts.items():
    y = fn(x)
    (g,) = torch.autograd.grad(y.sum(), x)
    print(f"{name:11s}", y.detach(), g)
print("glu", F.glu(torch.arange(8.0).view(2, 4), dim=-1), nn.GLU(dim=0)(torch.arange(4.0)))
print("softmin", F.softmin(torch.tensor([1.0, 2.0, 3.0]), dim=0), nn.Softmax2d()(torch.ones(1, 2, 1, 1)).flatten())
print("lrn", F.local_response_norm(torch.arange(1.0, 9.0).view(1, 8, 1, 1), size=3)[0, :, 0, 0])
