"""Image resampling as in augmentation libraries and super-resolution code: F.interpolate in every mode
(nearest, nearest-exact, bilinear and bicubic with and without align_corners and antialias, area,
trilinear on volumes, scale_factor with recompute_scale_factor), grid_sample with border / reflection
padding and nearest mode, affine_grid rotations and zooms, random resized crop by indexing, Tensor.unfold
patch extraction, F.unfold / F.fold overlap-add with a divisor, pixel_shuffle / pixel_unshuffle, Sobel and
Gaussian filters with grouped conv2d, and a Laplacian pyramid."""
import math

import torch
import torch.nn.functional as F

torch.manual_seed(6)
img = torch.arange(2 * 3 * 6 * 6, dtype=torch.float32).view(2, 3, 6, 6) / 100
img = img + 0.1 * torch.randn_like(img)

for mode, kw in [("nearest", {}), ("nearest-exact", {}), ("bilinear", {"align_corners": False}),
                 ("bilinear", {"align_corners": True}), ("bicubic", {"align_corners": False}),
                 ("bicubic", {"align_corners": True}), ("area", {})]:
    up = F.interpolate(img, size=(9, 7), mode=mode, **kw)
    down = F.interpolate(img, scale_factor=0.5, mode=mode, **kw)
    print(f"{mode:14s} {str(kw):25s} up {up[0, 1, 4].round(decimals=4)} down {down[1, 2, 1].round(decimals=4)}")
print("antialias bilinear", F.interpolate(img, size=(3, 4), mode="bilinear", antialias=True)[0, 0].round(decimals=4))
print("antialias bicubic", F.interpolate(img, size=(4, 3), mode="bicubic", antialias=True)[1, 2].round(decimals=4))
print("recompute scale", F.interpolate(img, scale_factor=1.7, mode="bilinear", recompute_scale_factor=True).shape,
      F.interpolate(img, scale_factor=1.7, mode="nearest")[0, 0, -1].round(decimals=3))
vol = torch.randn(1, 2, 3, 4, 4)
print("trilinear", F.interpolate(vol, size=(5, 6, 3), mode="trilinear", align_corners=False)[0, 1, 2, 3].round(decimals=4))
seq = torch.randn(1, 2, 7)
print("linear 1d", F.interpolate(seq, size=10, mode="linear")[0, 0].round(decimals=4))

theta = torch.tensor([[[math.cos(0.3), -math.sin(0.3), 0.1], [math.sin(0.3), math.cos(0.3), -0.2]],
                      [[1.3, 0.0, 0.0], [0.0, 1.3, 0.0]]])
grid = F.affine_grid(theta, img.shape, align_corners=False)
print("affine grid", grid[0, 0, :2])
for padding_mode in ("zeros", "border", "reflection"):
    for align in (False, True):
        out = F.grid_sample(img, grid, mode="bilinear", padding_mode=padding_mode, align_corners=align)
        print(f"grid_sample {padding_mode:10s} align={align!s:5s}", out[1, 0, 0].round(decimals=4), out[0, 2, 5].round(decimals=4))
print("grid_sample nearest", F.grid_sample(img, grid, mode="nearest", align_corners=False)[0, 1, 3])
print("grid_sample bicubic", F.grid_sample(img, grid, mode="bicubic", padding_mode="border", align_corners=False)[0, 1, 3].round(decimals=4))

g = torch.Generator().manual_seed(3)
area = img.shape[-1] * img.shape[-2]
for _ in range(2):
    scale = torch.empty(1).uniform_(0.3, 1.0, generator=g).item()
    log_ratio = torch.log(torch.tensor([3 / 4, 4 / 3]))
    aspect = torch.exp(torch.empty(1).uniform_(log_ratio[0].item(), log_ratio[1].item(), generator=g)).item()
    w = int(round(math.sqrt(area * scale * aspect)))
    h = int(round(math.sqrt(area * scale / aspect)))
    i = torch.randint(0, 6 - h + 1, size=(1,), generator=g).item()
    j = torch.randint(0, 6 - w + 1, size=(1,), generator=g).item()
    crop = F.interpolate(img[..., i:i + h, j:j + w], size=(4, 4), mode="bilinear", align_corners=False, antialias=True)
    print("random resized crop", (i, j, h, w), crop[0, 0, 0].round(decimals=4))

patches = img.unfold(2, 3, 3).unfold(3, 3, 3)
print("Tensor.unfold patches", patches.shape, patches.contiguous().view(2, 3, -1, 9).permute(0, 2, 1, 3).shape)
cols = F.unfold(img, kernel_size=3, stride=2, padding=1)
ones = F.fold(F.unfold(torch.ones_like(img), 3, stride=2, padding=1), (6, 6), 3, stride=2, padding=1)
recon = F.fold(cols, (6, 6), 3, stride=2, padding=1) / ones
print("fold/unfold", cols.shape, ones[0, 0, :3], (recon - img).abs().max().item() < 1e-5)
ps = F.pixel_shuffle(torch.arange(16.0).view(1, 4, 2, 2), 2)
print("pixel_shuffle", ps[0, 0], torch.equal(F.pixel_unshuffle(ps, 2), torch.arange(16.0).view(1, 4, 2, 2)))

sobel_x = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]])
kernels = torch.stack([sobel_x, sobel_x.t()]).unsqueeze(1).repeat(3, 1, 1, 1)
edges = F.conv2d(F.pad(img, (1, 1, 1, 1), mode="replicate"), kernels, groups=3)
magnitude = edges.view(2, 3, 2, 6, 6).pow(2).sum(2).sqrt()
print("sobel", magnitude[0, 0, 2].round(decimals=3))


def gaussian_kernel(size, sigma):
    coords = torch.arange(size, dtype=torch.float32) - size // 2
    k = torch.exp(-coords ** 2 / (2 * sigma ** 2))
    return k / k.sum()


k1 = gaussian_kernel(5, 1.0)
blur = F.conv2d(F.pad(img, (2, 2, 0, 0), mode="reflect"), k1.view(1, 1, 1, 5).expand(3, 1, 1, 5), groups=3)
blur = F.conv2d(F.pad(blur, (0, 0, 2, 2), mode="reflect"), k1.view(1, 1, 5, 1).expand(3, 1, 5, 1), groups=3)
print("gaussian blur", blur[1, 1, 3].round(decimals=4))
pyramid, current = [], img
for level in range(2):
    down = F.avg_pool2d(current, 2)
    up = F.interpolate(down, size=current.shape[-2:], mode="bilinear", align_corners=False)
    pyramid.append(current - up)
    current = down
print("laplacian pyramid", [p.shape[-1] for p in pyramid], pyramid[0].abs().mean().item(), current[0, 0])
x = img.clone().requires_grad_(True)
F.grid_sample(F.interpolate(x, scale_factor=2, mode="bicubic", align_corners=False), grid.repeat(1, 1, 1, 1),
              padding_mode="reflection", align_corners=False).pow(2).sum().backward()
print("grad through resampling", x.grad[0, 0, 0].round(decimals=4))
