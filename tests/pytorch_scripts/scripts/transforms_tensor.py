"""The 'Transforms' tutorial and torchvision.transforms.v2 idioms written in plain torch on tensors:
ToTensor's HWC uint8 -> CHW float / 255 (permute + contiguous + div), Lambda target transforms
building one-hot labels with torch.zeros(10).scatter_(0, torch.tensor(y), value=1), Normalize with
per-channel mean/std views and its inverse, Compose as a callable class with __repr__, horizontal /
vertical flips with torch.flip, center and padded random crops by slicing and F.pad (reflect,
replicate, constant), Resize through F.interpolate (bilinear/nearest, align_corners, antialias),
rotations by torch.rot90, a Gaussian blur as a depthwise conv2d with a separable kernel, brightness /
contrast / grayscale (weighted sum with keepdim), RandomErasing by slice assignment, five-crop by
stacking, uint8 round trips with clamp/round/to(torch.uint8), and a batch through default collation."""
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
img_hwc = torch.arange(4 * 5 * 3, dtype=torch.uint8).view(4, 5, 3) * 4


def to_tensor(pic):
    return pic.permute((2, 0, 1)).contiguous().to(torch.get_default_dtype()).div(255)


x = to_tensor(img_hwc)
print(x.shape, x.dtype, x[0, 0].tolist()[:3], x.is_contiguous(), round(x.max().item(), 4))
target_transform = lambda y: torch.zeros(10, dtype=torch.float).scatter_(0, torch.tensor(y), value=1)
print(target_transform(3), target_transform(torch.tensor(7)).nonzero().flatten().tolist())


class Normalize:
    def __init__(self, mean, std, inplace=False):
        self.mean, self.std, self.inplace = mean, std, inplace

    def __call__(self, tensor):
        if not self.inplace:
            tensor = tensor.clone()
        dtype = tensor.dtype
        mean = torch.as_tensor(self.mean, dtype=dtype, device=tensor.device)
        std = torch.as_tensor(self.std, dtype=dtype, device=tensor.device)
        if (std == 0).any():
            raise ValueError(f"std evaluated to zero after conversion to {dtype}, leading to division by zero.")
        if mean.ndim == 1:
            mean = mean.view(-1, 1, 1)
        if std.ndim == 1:
            std = std.view(-1, 1, 1)
        return tensor.sub_(mean).div_(std)

    def __repr__(self):
        return f"{self.__class__.__name__}(mean={self.mean}, std={self.std})"


class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, img):
        for t in self.transforms:
            img = t(img)
        return img

    def __repr__(self):
        lines = [self.__class__.__name__ + "("] + [f"    {t}" for t in self.transforms] + [")"]
        return "\n".join(lines)


norm = Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])
pipeline = Compose([to_tensor, norm])
print(pipeline.transforms[1])
y = pipeline(img_hwc)
print("normalized", y.shape, y.mean(dim=(1, 2)).round(decimals=4).tolist())
mean, std = torch.tensor(norm.mean).view(3, 1, 1), torch.tensor(norm.std).view(3, 1, 1)
print("inverse", torch.allclose(y * std + mean, x, atol=1e-6))
try:
    Normalize([0.5], [0.0])(x)
except ValueError as e:
    print("ValueError:", e)
print("hflip", torch.flip(x, dims=[-1])[0, 0].tolist()[:2], "vflip", x.flip(-2)[0, :, 0].tolist()[:2])


def center_crop(img, size):
    h, w = img.shape[-2:]
    top, left = int(round((h - size[0]) / 2.0)), int(round((w - size[1]) / 2.0))
    return img[..., top:top + size[0], left:left + size[1]]


print("center crop", center_crop(x, (2, 3)).shape, center_crop(x, (2, 3))[0].tolist())
for mode in ("reflect", "replicate", "constant"):
    padded = F.pad(x.unsqueeze(0), (2, 2, 1, 1), mode=mode).squeeze(0) if mode != "constant" else F.pad(x, (2, 2, 1, 1))
    print(mode, padded.shape, [round(v, 4) for v in padded[0, 0].tolist()])
i, j = torch.randint(0, 3, size=(1,)).item(), torch.randint(0, 5, size=(1,)).item()
print("random crop offsets", (i, j), F.pad(x, (2, 2, 1, 1))[..., i:i + 4, j:j + 5].shape)
batch = x.unsqueeze(0)
for mode, kw in [("bilinear", {"align_corners": False}), ("bilinear", {"align_corners": True}), ("nearest", {}),
                 ("bilinear", {"align_corners": False, "antialias": True}), ("bicubic", {"align_corners": False})]:
    r = F.interpolate(batch, size=(8, 10), mode=mode, **kw)
    print("resize", mode, kw, r.shape, [round(v, 4) for v in r[0, 0, 1, :5].tolist()])
down = F.interpolate(batch, size=(2, 3), mode="bilinear", align_corners=False, antialias=True)
print("antialias down", [round(v, 4) for v in down[0, 0].flatten().tolist()])
print("rot90", torch.rot90(x, 1, dims=(1, 2)).shape, torch.rot90(x, 2, (1, 2))[0, 0].tolist()[:2],
      torch.equal(torch.rot90(x, -1, (1, 2)), torch.rot90(x, 3, (1, 2))))


def gaussian_blur(img, ksize=3, sigma=1.0):
    half = (ksize - 1) * 0.5
    xs = torch.linspace(-half, half, steps=ksize)
    pdf = torch.exp(-0.5 * (xs / sigma).pow(2))
    kernel1d = pdf / pdf.sum()
    kernel2d = torch.mm(kernel1d[:, None], kernel1d[None, :])
    kernel = kernel2d.expand(img.shape[-3], 1, ksize, ksize)
    padded = F.pad(img.unsqueeze(0), [ksize // 2] * 4, mode="reflect")
    return F.conv2d(padded, kernel, groups=img.shape[-3]).squeeze(0)


blurred = gaussian_blur(x)
print("blur", blurred.shape, round(blurred.sum().item(), 4), round((blurred - x).abs().max().item(), 4))
gray = (0.2989 * x[0] + 0.587 * x[1] + 0.114 * x[2]).unsqueeze(0)
gray2 = (x * torch.tensor([0.2989, 0.587, 0.114]).view(3, 1, 1)).sum(0, keepdim=True)
print("grayscale", gray.shape, torch.allclose(gray, gray2))
bright = (x * 1.5).clamp(0, 1)
m = gray.mean()
contrast = (1.7 * x + (1 - 1.7) * m).clamp(0.0, 1.0)
print("bright/contrast", round(bright.mean().item(), 4), round(contrast.std().item(), 4))
erased = x.clone()
erased[..., 1:3, 2:4] = 0
print("erased", (erased == 0).sum().item())
five = torch.stack([x[..., :2, :2], x[..., :2, -2:], x[..., -2:, :2], x[..., -2:, -2:], center_crop(x, (2, 2))])
print("five crop", five.shape)
back = (y * std + mean).mul(255).round().clamp(0, 255).to(torch.uint8).permute(1, 2, 0)
print("uint8 round trip", torch.equal(back, img_hwc), back.dtype)


class ImageSet(Dataset):
    def __init__(self, transform=None, target_transform=None):
        self.images = torch.randint(0, 256, (6, 4, 5, 3), dtype=torch.uint8)
        self.labels = [0, 3, 1, 9, 2, 3]
        self.transform, self.target_transform = transform, target_transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        image, label = self.images[idx], self.labels[idx]
        if self.transform:
            image = self.transform(image)
        if self.target_transform:
            label = self.target_transform(label)
        return image, label


loader = DataLoader(ImageSet(pipeline, target_transform), batch_size=4)
imgs, lbls = next(iter(loader))
print("batch", imgs.shape, imgs.dtype, lbls.shape, lbls.argmax(1).tolist())
