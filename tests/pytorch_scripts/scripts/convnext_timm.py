"""Modern CNN blocks as timm / facebookresearch ConvNeXt write them: drop_path with a per-sample
bernoulli_ mask and div_(keep_prob) (DropPath module with extra_repr), a channels-first LayerNorm
written with mean/pow/sqrt and the channels-last F.layer_norm path through permute, the ConvNeXt
block (depthwise 7x7 Conv2d with groups=dim, pointwise Linear layers on NHWC, GELU, layer scale
gamma), ConvNeXt-V2's GRN (global response normalisation with torch.norm over (1, 2)), MBConv with
squeeze-excitation (adaptive_avg_pool2d, SiLU, Hardsigmoid gate) and stochastic depth in train vs
eval, trunc_normal_ init through model.apply, timm's param-group split for weight decay, and a
few AdamW steps with a cosine schedule."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def drop_path(x, drop_prob: float = 0., training: bool = False, scale_by_keep: bool = True):
    if drop_prob == 0. or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = x.new_empty(shape).bernoulli_(keep_prob)
    if keep_prob > 0.0 and scale_by_keep:
        random_tensor.div_(keep_prob)
    return x * random_tensor


class DropPath(nn.Module):
    def __init__(self, drop_prob: float = 0., scale_by_keep: bool = True):
        super(DropPath, self).__init__()
        self.drop_prob = drop_prob
        self.scale_by_keep = scale_by_keep

    def forward(self, x):
        return drop_path(x, self.drop_prob, self.training, self.scale_by_keep)

    def extra_repr(self):
        return f'drop_prob={round(self.drop_prob, 3):0.3f}'


class LayerNorm(nn.Module):
    def __init__(self, normalized_shape, eps=1e-6, data_format="channels_last"):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))
        self.eps = eps
        self.data_format = data_format
        if self.data_format not in ["channels_last", "channels_first"]:
            raise NotImplementedError
        self.normalized_shape = (normalized_shape, )

    def forward(self, x):
        if self.data_format == "channels_last":
            return F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        elif self.data_format == "channels_first":
            u = x.mean(1, keepdim=True)
            s = (x - u).pow(2).mean(1, keepdim=True)
            x = (x - u) / torch.sqrt(s + self.eps)
            x = self.weight[:, None, None] * x + self.bias[:, None, None]
            return x


class GRN(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.gamma = nn.Parameter(torch.zeros(1, 1, 1, dim))
        self.beta = nn.Parameter(torch.zeros(1, 1, 1, dim))

    def forward(self, x):
        Gx = torch.norm(x, p=2, dim=(1, 2), keepdim=True)
        Nx = Gx / (Gx.mean(dim=-1, keepdim=True) + 1e-6)
        return self.gamma * (x * Nx) + self.beta + x


class Block(nn.Module):
    def __init__(self, dim, drop_path=0., layer_scale_init_value=1e-6, v2=False):
        super().__init__()
        self.dwconv = nn.Conv2d(dim, dim, kernel_size=7, padding=3, groups=dim)
        self.norm = LayerNorm(dim, eps=1e-6)
        self.pwconv1 = nn.Linear(dim, 4 * dim)
        self.act = nn.GELU()
        self.grn = GRN(4 * dim) if v2 else nn.Identity()
        self.pwconv2 = nn.Linear(4 * dim, dim)
        self.gamma = nn.Parameter(layer_scale_init_value * torch.ones((dim)),
                                  requires_grad=True) if layer_scale_init_value > 0 and not v2 else None
        self.drop_path = DropPath(drop_path) if drop_path > 0. else nn.Identity()

    def forward(self, x):
        input = x
        x = self.dwconv(x)
        x = x.permute(0, 2, 3, 1)
        x = self.norm(x)
        x = self.pwconv1(x)
        x = self.act(x)
        x = self.grn(x)
        x = self.pwconv2(x)
        if self.gamma is not None:
            x = self.gamma * x
        x = x.permute(0, 3, 1, 2)
        x = input + self.drop_path(x)
        return x


class SqueezeExcitation(nn.Module):
    def __init__(self, input_channels, squeeze_channels):
        super().__init__()
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc1 = nn.Conv2d(input_channels, squeeze_channels, 1)
        self.fc2 = nn.Conv2d(squeeze_channels, input_channels, 1)
        self.activation, self.scale_activation = nn.SiLU(), nn.Hardsigmoid()

    def forward(self, x):
        scale = self.scale_activation(self.fc2(self.activation(self.fc1(self.avgpool(x)))))
        return scale * x


class MBConv(nn.Module):
    def __init__(self, c, expand=4, p=0.2):
        super().__init__()
        h = c * expand
        self.block = nn.Sequential(nn.Conv2d(c, h, 1, bias=False), nn.BatchNorm2d(h), nn.SiLU(inplace=True),
                                   nn.Conv2d(h, h, 3, padding=1, groups=h, bias=False), nn.BatchNorm2d(h),
                                   nn.SiLU(inplace=True), SqueezeExcitation(h, max(1, c // 4)),
                                   nn.Conv2d(h, c, 1, bias=False), nn.BatchNorm2d(c))
        self.stochastic_depth = DropPath(p)

    def forward(self, x):
        return x + self.stochastic_depth(self.block(x))


class TinyConvNeXt(nn.Module):
    def __init__(self, in_chans=3, num_classes=5, dims=(8, 16), drop_path_rate=0.2, v2=False):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(in_chans, dims[0], kernel_size=2, stride=2),
                                  LayerNorm(dims[0], eps=1e-6, data_format="channels_first"))
        self.down = nn.Sequential(LayerNorm(dims[0], eps=1e-6, data_format="channels_first"),
                                  nn.Conv2d(dims[0], dims[1], kernel_size=2, stride=2))
        dp_rates = [x.item() for x in torch.linspace(0, drop_path_rate, 3)]
        self.stage1 = Block(dims[0], dp_rates[0], v2=v2)
        self.stage2 = nn.Sequential(Block(dims[1], dp_rates[1], v2=v2), Block(dims[1], dp_rates[2], v2=v2))
        self.mb = MBConv(dims[1])
        self.norm = nn.LayerNorm(dims[-1], eps=1e-6)
        self.head = nn.Linear(dims[-1], num_classes)
        self.apply(self._init_weights)

    def _init_weights(self, m):
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            nn.init.trunc_normal_(m.weight, std=.02)
            if m.bias is not None:
                nn.init.constant_(m.bias, 0)

    def forward(self, x):
        x = self.stage1(self.stem(x))
        x = self.mb(self.stage2(self.down(x)))
        return self.head(self.norm(x.mean([-2, -1])))


model = TinyConvNeXt()
print(model.stage2[1].drop_path, model.stage1.drop_path, model.stage1.gamma.shape)
print("params", sum(p.numel() for p in model.parameters()), round(model.head.weight.std().item(), 4),
      model.head.weight.abs().max().item() <= 0.04)
x = torch.randn(4, 3, 8, 8)
ln = LayerNorm(3, data_format="channels_first")
print("channels_first == layer_norm:", torch.allclose(ln(x), F.layer_norm(x.permute(0, 2, 3, 1), (3,), eps=1e-6).permute(0, 3, 1, 2), atol=1e-5))
dp = DropPath(0.5).train()
y = dp(torch.ones(6, 2, 2))
print("drop_path", y[:, 0, 0].tolist(), DropPath(0.5).eval()(torch.ones(2)).tolist())
grn = GRN(4)
with torch.no_grad():
    grn.gamma.fill_(0.5)
print("grn", round(grn(torch.randn(2, 3, 3, 4)).sum().item(), 4))


def param_groups_weight_decay(model, weight_decay=1e-5, no_weight_decay_list=()):
    decay, no_decay = [], []
    for name, param in model.named_parameters():
        if not param.requires_grad:
            continue
        if param.ndim <= 1 or name.endswith(".bias") or name in no_weight_decay_list:
            no_decay.append(param)
        else:
            decay.append(param)
    return [{'params': no_decay, 'weight_decay': 0.}, {'params': decay, 'weight_decay': weight_decay}]


groups = param_groups_weight_decay(model, 0.05)
print("groups", [len(g["params"]) for g in groups])
opt = torch.optim.AdamW(groups, lr=4e-3)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: 0.5 * (1 + math.cos(math.pi * s / 5)))
targets = torch.randint(0, 5, (4,))
for step in range(4):
    model.train()
    loss = F.cross_entropy(model(x), targets, label_smoothing=0.1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    print(f"step {step} loss {loss.item():.4f} lr {sched.get_last_lr()[1]:.6f}")
model.eval()
with torch.no_grad():
    print("eval logits", model(x)[0].round(decimals=3).tolist())
print(model.mb.block[6])
