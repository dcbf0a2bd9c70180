"""Classical image processing written with tensors, as kornia and course notebooks do it: Gaussian
blur with a separable kernel and groups=C depthwise conv2d, Sobel gradients and magnitude/angle
with atan2, a Canny-style non-maximum suppression, RGB <-> grayscale / HSV conversions, histogram
equalisation with torch.histc and cumsum lookups, morphology (dilation / erosion / opening) with
max_pool2d, a median filter with unfold, Harris corners, bilateral weights, and image pyramids with
avg_pool2d and interpolate."""
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)
H, W = 24, 24
yy, xx = torch.meshgrid(torch.arange(H, dtype=torch.float32), torch.arange(W, dtype=torch.float32), indexing="ij")
square = ((xx > 6) & (xx < 17) & (yy > 6) & (yy < 17)).float()
disk = ((xx - 16) ** 2 + (yy - 8) ** 2 < 20).float()
img = torch.stack([square, disk, 0.5 * square + 0.5 * disk]).unsqueeze(0)  # 1x3xHxW
img = (img + 0.05 * torch.randn_like(img)).clamp(0, 1)
print("image", tuple(img.shape), round(img.mean().item(), 4))


def gaussian_kernel1d(sigma, ksize):
    x = torch.arange(ksize, dtype=torch.float32) - ksize // 2
    k = torch.exp(-x ** 2 / (2 * sigma ** 2))
    return k / k.sum()


def gaussian_blur(x, sigma=1.0, ksize=5):
    C = x.shape[1]
    k = gaussian_kernel1d(sigma, ksize)
    kx = k.view(1, 1, 1, -1).repeat(C, 1, 1, 1)
    ky = k.view(1, 1, -1, 1).repeat(C, 1, 1, 1)
    x = F.pad(x, (ksize // 2, ksize // 2, ksize // 2, ksize // 2), mode="reflect")
    return F.conv2d(F.conv2d(x, kx, groups=C), ky, groups=C)


blurred = gaussian_blur(img)
k2d = torch.outer(gaussian_kernel1d(1.0, 5), gaussian_kernel1d(1.0, 5))
direct = F.conv2d(F.pad(img, (2, 2, 2, 2), mode="reflect"), k2d.expand(3, 1, 5, 5), groups=3)
print("kernel", gaussian_kernel1d(1.0, 5).round(decimals=4).tolist(), "separable == 2d", torch.allclose(blurred, direct, atol=1e-6))


def rgb_to_grayscale(x):
    r, g, b = x.unbind(dim=-3)
    return (0.299 * r + 0.587 * g + 0.114 * b).unsqueeze(-3)


def rgb_to_hsv(image, eps=1e-8):
    max_rgb, argmax_rgb = image.max(-3)
    min_rgb, argmin_rgb = image.min(-3)
    deltac = max_rgb - min_rgb
    v = max_rgb
    s = deltac / (max_rgb + eps)
    deltac = torch.where(deltac == 0, torch.ones_like(deltac), deltac)
    rc, gc, bc = torch.unbind((max_rgb.unsqueeze(-3) - image), dim=-3)
    h1 = bc - gc
    h2 = (rc - bc) + 2.0 * deltac
    h3 = (gc - rc) + 4.0 * deltac
    h = torch.stack((h1, h2, h3), dim=-3) / deltac.unsqueeze(-3)
    h = torch.gather(h, dim=-3, index=argmax_rgb.unsqueeze(-3)).squeeze(-3)
    h = (h / 6.0) % 1.0
    h = 2 * math.pi * h
    return torch.stack((h, s, v), dim=-3)


gray = rgb_to_grayscale(blurred)
hsv = rgb_to_hsv(blurred)
print("gray", round(gray.mean().item(), 4), "hsv means", hsv.mean(dim=(0, 2, 3)).round(decimals=4).tolist())

sobel_x = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]])
kernels = torch.stack([sobel_x, sobel_x.t()]).unsqueeze(1)
grads = F.conv2d(F.pad(gray, (1, 1, 1, 1), mode="replicate"), kernels)
gx, gy = grads[:, 0], grads[:, 1]
mag = torch.sqrt(gx ** 2 + gy ** 2 + 1e-12)
angle = torch.atan2(gy, gx)
print("sobel max", round(mag.max().item(), 4), "angles", torch.histc(angle, bins=4, min=-math.pi, max=math.pi).tolist())

# non-maximum suppression along the quantised gradient direction
q = (torch.round(angle / (math.pi / 4)) % 4).long()
offsets = torch.tensor([[0, 1], [1, 1], [1, 0], [1, -1]])
padded = F.pad(mag, (1, 1, 1, 1))
keep = torch.ones_like(mag, dtype=torch.bool)
for d in range(4):
    dy, dx = offsets[d].tolist()
    fwd = padded[:, 1 + dy:1 + dy + H, 1 + dx:1 + dx + W]
    bwd = padded[:, 1 - dy:1 - dy + H, 1 - dx:1 - dx + W]
    keep &= ~((q == d) & ((mag < fwd) | (mag < bwd)))
edges = keep & (mag > 0.5 * mag.max())
print("edge pixels", int(edges.sum()), "thin", int((keep & (mag > 0.1)).sum()))

# histogram equalisation of the grayscale image
g = (gray[0, 0] * 255).clamp(0, 255)
hist = torch.histc(g, bins=256, min=0, max=255)
cdf = hist.cumsum(0)
cdf_min = cdf[cdf > 0].min()
lut = ((cdf - cdf_min) / (cdf[-1] - cdf_min) * 255).round().clamp(0, 255)
equalized = lut[g.long().clamp(0, 255)]
print("equalized", round(equalized.mean().item(), 3), round(equalized.std().item(), 3), "unique", equalized.unique().numel())

# morphology with max pooling
binary = (gray > 0.3).float()
dilate = F.max_pool2d(binary, 3, stride=1, padding=1)
erode = -F.max_pool2d(-binary, 3, stride=1, padding=1)
opening = F.max_pool2d(-F.max_pool2d(-binary, 3, 1, 1), 3, 1, 1)
gradient = dilate - erode
print("morph", int(binary.sum()), int(dilate.sum()), int(erode.sum()), int(opening.sum()), int(gradient.sum()))

# median filter with unfold
noisy = gray.clone()
salt = torch.rand_like(noisy) < 0.05
noisy[salt] = 1.0
patches = F.unfold(F.pad(noisy, (1, 1, 1, 1), mode="reflect"), kernel_size=3)
median = patches.median(dim=1).values.view(1, 1, H, W)
print("median filter", round((noisy - gray).abs().mean().item(), 4), "->", round((median - gray).abs().mean().item(), 4))

# Harris corner response
Ixx = gaussian_blur(gx.unsqueeze(1) ** 2)
Iyy = gaussian_blur(gy.unsqueeze(1) ** 2)
Ixy = gaussian_blur((gx * gy).unsqueeze(1))
R = Ixx * Iyy - Ixy ** 2 - 0.04 * (Ixx + Iyy) ** 2
peaks = (R == F.max_pool2d(R, 5, 1, 2)) & (R > 0.1 * R.max())
ys, xs = torch.nonzero(peaks[0, 0], as_tuple=True)
print("corners", len(ys), sorted(zip(ys.tolist(), xs.tolist()))[:4])

# bilateral filter weights for one pixel window
win = F.unfold(F.pad(gray, (2, 2, 2, 2), mode="reflect"), 5).view(1, 25, H, W)
center = gray.view(1, 1, H, W)
spatial = torch.exp(-((torch.arange(5) - 2).view(-1, 1) ** 2 + (torch.arange(5) - 2).view(1, -1) ** 2).float() / 8).view(1, 25, 1, 1)
rng = torch.exp(-(win - center) ** 2 / (2 * 0.1 ** 2))
w_ = spatial * rng
bilateral = (w_ * win).sum(1, keepdim=True) / w_.sum(1, keepdim=True)
print("bilateral", round(bilateral.mean().item(), 4), round((bilateral - gray).abs().max().item(), 4))

# Gaussian / Laplacian pyramid
pyr = [img]
for _ in range(2):
    pyr.append(F.avg_pool2d(gaussian_blur(pyr[-1]), 2))
lap = [pyr[i] - F.interpolate(pyr[i + 1], size=pyr[i].shape[-2:], mode="bilinear", align_corners=False)
       for i in range(2)]
print("pyramid", [tuple(p.shape[-2:]) for p in pyr], "laplacian energy", [round(l.pow(2).mean().item(), 5) for l in lap])
recon = F.interpolate(pyr[2], size=pyr[1].shape[-2:], mode="bilinear", align_corners=False) + lap[1]
print("reconstruct level 1", torch.allclose(recon, pyr[1], atol=1e-6))
