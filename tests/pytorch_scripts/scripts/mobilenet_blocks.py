"""torchvision's MobileNetV2 / MobileNetV3 building blocks written out: _make_divisible, Conv2dNormActivation
as an nn.Sequential subclass (padding=(k-1)//2*dilation, bias only without norm), InvertedResidual with
expand_ratio and use_res_connect, depthwise convolutions through groups=hidden_dim, ReLU6 and Hardswish,
SqueezeExcitation with a Hardsigmoid scale, width_mult, the classifier with Dropout, the torchvision
init loop (kaiming_normal_(mode='fan_out'), ones_/zeros_ for norms, normal_(0, 0.01) for Linear),
parameter counts, shapes through features, train/eval BatchNorm, and what a grouped conv rejects."""
from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def _make_divisible(v, divisor, min_value=None):
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


class Conv2dNormActivation(torch.nn.Sequential):
    def __init__(self, in_channels, out_channels, kernel_size=3, stride=1, padding=None, groups=1,
                 norm_layer=torch.nn.BatchNorm2d, activation_layer=torch.nn.ReLU, dilation=1, inplace=True):
        if padding is None:
            padding = (kernel_size - 1) // 2 * dilation
        bias = norm_layer is None
        layers = [torch.nn.Conv2d(in_channels, out_channels, kernel_size, stride, padding, dilation=dilation,
                                  groups=groups, bias=bias)]
        if norm_layer is not None:
            layers.append(norm_layer(out_channels))
        if activation_layer is not None:
            params = {} if inplace is None else {"inplace": inplace}
            layers.append(activation_layer(**params))
        super().__init__(*layers)
        self.out_channels = out_channels


class SqueezeExcitation(torch.nn.Module):
    def __init__(self, input_channels, squeeze_channels, activation=torch.nn.ReLU,
                 scale_activation=torch.nn.Hardsigmoid):
        super().__init__()
        self.avgpool = torch.nn.AdaptiveAvgPool2d(1)
        self.fc1 = torch.nn.Conv2d(input_channels, squeeze_channels, 1)
        self.fc2 = torch.nn.Conv2d(squeeze_channels, input_channels, 1)
        self.activation = activation()
        self.scale_activation = scale_activation()

    def forward(self, input):
        scale = self.scale_activation(self.fc2(self.activation(self.fc1(self.avgpool(input)))))
        return scale * input


class InvertedResidual(nn.Module):
    def __init__(self, inp, oup, stride, expand_ratio, norm_layer=nn.BatchNorm2d, se=False):
        super().__init__()
        self.stride = stride
        if stride not in [1, 2]:
            raise ValueError(f"stride should be 1 or 2 instead of {stride}")
        hidden_dim = int(round(inp * expand_ratio))
        self.use_res_connect = self.stride == 1 and inp == oup
        layers = []
        if expand_ratio != 1:
            layers.append(Conv2dNormActivation(inp, hidden_dim, kernel_size=1, norm_layer=norm_layer,
                                               activation_layer=nn.ReLU6))
        layers.append(Conv2dNormActivation(hidden_dim, hidden_dim, stride=stride, groups=hidden_dim,
                                           norm_layer=norm_layer, activation_layer=nn.Hardswish if se else nn.ReLU6))
        if se:
            layers.append(SqueezeExcitation(hidden_dim, _make_divisible(hidden_dim // 4, 8)))
        layers.extend([nn.Conv2d(hidden_dim, oup, 1, 1, 0, bias=False), norm_layer(oup)])
        self.conv = nn.Sequential(*layers)
        self.out_channels = oup

    def forward(self, x):
        if self.use_res_connect:
            return x + self.conv(x)
        return self.conv(x)


class MobileNetV2(nn.Module):
    def __init__(self, num_classes=10, width_mult=0.25, round_nearest=8, dropout=0.2):
        super().__init__()
        norm_layer = partial(nn.BatchNorm2d, eps=0.001, momentum=0.01)
        input_channel = _make_divisible(32 * width_mult, round_nearest)
        self.last_channel = _make_divisible(64 * max(1.0, width_mult), round_nearest)
        setting = [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 1, 2]]
        features = [Conv2dNormActivation(3, input_channel, stride=2, norm_layer=norm_layer, activation_layer=nn.ReLU6)]
        for t, c, n, s in setting:
            output_channel = _make_divisible(c * width_mult, round_nearest)
            for i in range(n):
                stride = s if i == 0 else 1
                features.append(InvertedResidual(input_channel, output_channel, stride, expand_ratio=t,
                                                 norm_layer=norm_layer, se=(c == 32)))
                input_channel = output_channel
        features.append(Conv2dNormActivation(input_channel, self.last_channel, kernel_size=1,
                                             norm_layer=norm_layer, activation_layer=nn.ReLU6))
        self.features = nn.Sequential(*features)
        self.classifier = nn.Sequential(nn.Dropout(p=dropout), nn.Linear(self.last_channel, num_classes))
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out")
                if m.bias is not None:
                    nn.init.zeros_(m.bias)
            elif isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)):
                nn.init.ones_(m.weight)
                nn.init.zeros_(m.bias)
            elif isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, 0, 0.01)
                nn.init.zeros_(m.bias)

    def forward(self, x):
        x = self.features(x)
        x = nn.functional.adaptive_avg_pool2d(x, (1, 1))
        x = torch.flatten(x, 1)
        return self.classifier(x)


print("make_divisible", [_make_divisible(v, 8) for v in (3, 8, 12.5, 30, 33, 100 * 0.75)])
model = MobileNetV2()
print(model.features[0])
print(model.features[-2])
print("params", sum(p.numel() for p in model.parameters()), "buffers", sum(b.numel() for b in model.buffers()))
dw = model.features[2].conv[1][0]
print("depthwise", dw.weight.shape, dw.groups, dw.padding, round(dw.weight.std().item(), 3))
x = torch.randn(4, 3, 32, 32)
h = x
for i, layer in enumerate(model.features):
    h = layer(h)
    if i in (0, 1, 2, 3, 4, 5):
        print(i, type(layer).__name__, tuple(h.shape), getattr(layer, "use_res_connect", None))
model.train()
y = torch.tensor([0, 3, 5, 9])
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=4e-5)
for step in range(3):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
bn = model.features[0][1]
print("bn running", round(bn.running_mean.abs().sum().item(), 4), bn.num_batches_tracked.item(), bn.momentum, bn.eps)
model.eval()
with torch.no_grad():
    print("eval", model(x).argmax(1).tolist(), model(x).shape)
try:
    nn.Conv2d(6, 4, 3, groups=4)
except ValueError as e:
    print("ValueError:", e)
try:
    F.conv2d(torch.randn(1, 6, 5, 5), torch.randn(6, 2, 3, 3), groups=4)
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
try:
    InvertedResidual(8, 8, 3, 2)
except ValueError as e:
    print("ValueError:", e)
print(nn.ReLU6(inplace=True), nn.Hardswish(), F.relu6(torch.tensor([-1., 3., 7.])).tolist(),
      F.hardswish(torch.tensor([-4., -1., 0.5, 4.])).tolist())
