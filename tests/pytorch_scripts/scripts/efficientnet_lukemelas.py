# lukemelas/EfficientNet-PyTorch utils + model, trimmed: BlockArgs/GlobalParams namedtuples decoded
# from strings with re, round_filters/round_repeats, MemoryEfficientSwish (a custom autograd
# Function with save_for_backward), Conv2dStaticSamePadding with nn.ZeroPad2d and
# Conv2dDynamicSamePadding with F.pad, drop_connect (rand + floor), MBConvBlock with squeeze-excite,
# BatchNorm momentum/eps from the TF defaults.
import collections
import math
import re
from functools import partial

import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)

GlobalParams = collections.namedtuple('GlobalParams', [
    'width_coefficient', 'depth_coefficient', 'image_size', 'dropout_rate', 'num_classes',
    'batch_norm_momentum', 'batch_norm_epsilon', 'drop_connect_rate', 'depth_divisor', 'min_depth'])
BlockArgs = collections.namedtuple('BlockArgs', [
    'num_repeat', 'kernel_size', 'stride', 'expand_ratio', 'input_filters', 'output_filters', 'se_ratio', 'id_skip'])
GlobalParams.__new__.__defaults__ = (None,) * len(GlobalParams._fields)
BlockArgs.__new__.__defaults__ = (None,) * len(BlockArgs._fields)


class SwishImplementation(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i * torch.sigmoid(i)
        ctx.save_for_backward(i)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        i = ctx.saved_tensors[0]
        sigmoid_i = torch.sigmoid(i)
        return grad_output * (sigmoid_i * (1 + i * (1 - sigmoid_i)))


class MemoryEfficientSwish(nn.Module):
    def forward(self, x):
        return SwishImplementation.apply(x)


class Swish(nn.Module):
    def forward(self, x):
        return x * torch.sigmoid(x)


def round_filters(filters, global_params):
    multiplier = global_params.width_coefficient
    if not multiplier:
        return filters
    divisor = global_params.depth_divisor
    min_depth = global_params.min_depth
    filters *= multiplier
    min_depth = min_depth or divisor
    new_filters = max(min_depth, int(filters + divisor / 2) // divisor * divisor)
    if new_filters < 0.9 * filters:
        new_filters += divisor
    return int(new_filters)


def round_repeats(repeats, global_params):
    multiplier = global_params.depth_coefficient
    if not multiplier:
        return repeats
    return int(math.ceil(multiplier * repeats))


def drop_connect(inputs, p, training):
    assert 0 <= p <= 1, 'p must be in range of [0,1]'
    if not training:
        return inputs
    batch_size = inputs.shape[0]
    keep_prob = 1 - p
    random_tensor = keep_prob
    random_tensor += torch.rand([batch_size, 1, 1, 1], dtype=inputs.dtype, device=inputs.device)
    binary_tensor = torch.floor(random_tensor)
    output = inputs / keep_prob * binary_tensor
    return output


class Conv2dDynamicSamePadding(nn.Conv2d):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, dilation=1, groups=1, bias=True):
        super().__init__(in_channels, out_channels, kernel_size, stride, 0, dilation, groups, bias)
        self.stride = self.stride if len(self.stride) == 2 else [self.stride[0]] * 2

    def forward(self, x):
        ih, iw = x.size()[-2:]
        kh, kw = self.weight.size()[-2:]
        sh, sw = self.stride
        oh, ow = math.ceil(ih / sh), math.ceil(iw / sw)
        pad_h = max((oh - 1) * self.stride[0] + (kh - 1) * self.dilation[0] + 1 - ih, 0)
        pad_w = max((ow - 1) * self.stride[1] + (kw - 1) * self.dilation[1] + 1 - iw, 0)
        if pad_h > 0 or pad_w > 0:
            x = F.pad(x, [pad_w // 2, pad_w - pad_w // 2, pad_h // 2, pad_h - pad_h // 2])
        return F.conv2d(x, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class Conv2dStaticSamePadding(nn.Conv2d):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, image_size=None, **kwargs):
        super().__init__(in_channels, out_channels, kernel_size, stride, **kwargs)
        self.stride = self.stride if len(self.stride) == 2 else [self.stride[0]] * 2
        assert image_size is not None
        ih, iw = (image_size, image_size) if isinstance(image_size, int) else image_size
        kh, kw = self.weight.size()[-2:]
        sh, sw = self.stride
        oh, ow = math.ceil(ih / sh), math.ceil(iw / sw)
        pad_h = max((oh - 1) * self.stride[0] + (kh - 1) * self.dilation[0] + 1 - ih, 0)
        pad_w = max((ow - 1) * self.stride[1] + (kw - 1) * self.dilation[1] + 1 - iw, 0)
        if pad_h > 0 or pad_w > 0:
            self.static_padding = nn.ZeroPad2d((pad_w // 2, pad_w - pad_w // 2, pad_h // 2, pad_h - pad_h // 2))
        else:
            self.static_padding = nn.Identity()

    def forward(self, x):
        x = self.static_padding(x)
        return F.conv2d(x, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


def get_same_padding_conv2d(image_size=None):
    if image_size is None:
        return Conv2dDynamicSamePadding
    return partial(Conv2dStaticSamePadding, image_size=image_size)


def calculate_output_image_size(input_image_size, stride):
    if input_image_size is None:
        return None
    image_height, image_width = (input_image_size, input_image_size) if isinstance(input_image_size, int) else input_image_size
    stride = stride if isinstance(stride, int) else stride[0]
    return [int(math.ceil(image_height / stride)), int(math.ceil(image_width / stride))]


def decode_block_string(block_string):
    assert isinstance(block_string, str)
    ops = block_string.split('_')
    options = {}
    for op in ops:
        splits = re.split(r'(\d.*)', op)
        if len(splits) >= 2:
            key, value = splits[:2]
            options[key] = value
    return BlockArgs(num_repeat=int(options['r']), kernel_size=int(options['k']), stride=[int(options['s'][0])],
                     expand_ratio=int(options['e']), input_filters=int(options['i']), output_filters=int(options['o']),
                     se_ratio=float(options['se']) if 'se' in options else None, id_skip=('noskip' not in block_string))


class MBConvBlock(nn.Module):
    def __init__(self, block_args, global_params, image_size=None):
        super().__init__()
        self._block_args = block_args
        self._bn_mom = 1 - global_params.batch_norm_momentum
        self._bn_eps = global_params.batch_norm_epsilon
        self.has_se = (self._block_args.se_ratio is not None) and (0 < self._block_args.se_ratio <= 1)
        self.id_skip = block_args.id_skip
        inp = self._block_args.input_filters
        oup = self._block_args.input_filters * self._block_args.expand_ratio
        if self._block_args.expand_ratio != 1:
            Conv2d = get_same_padding_conv2d(image_size=image_size)
            self._expand_conv = Conv2d(in_channels=inp, out_channels=oup, kernel_size=1, bias=False)
            self._bn0 = nn.BatchNorm2d(num_features=oup, momentum=self._bn_mom, eps=self._bn_eps)
        k = self._block_args.kernel_size
        s = self._block_args.stride
        Conv2d = get_same_padding_conv2d(image_size=image_size)
        self._depthwise_conv = Conv2d(in_channels=oup, out_channels=oup, groups=oup, kernel_size=k, stride=s, bias=False)
        self._bn1 = nn.BatchNorm2d(num_features=oup, momentum=self._bn_mom, eps=self._bn_eps)
        image_size = calculate_output_image_size(image_size, s)
        if self.has_se:
            Conv2d = get_same_padding_conv2d(image_size=(1, 1))
            num_squeezed_channels = max(1, int(self._block_args.input_filters * self._block_args.se_ratio))
            self._se_reduce = Conv2d(in_channels=oup, out_channels=num_squeezed_channels, kernel_size=1)
            self._se_expand = Conv2d(in_channels=num_squeezed_channels, out_channels=oup, kernel_size=1)
        final_oup = self._block_args.output_filters
        Conv2d = get_same_padding_conv2d(image_size=image_size)
        self._project_conv = Conv2d(in_channels=oup, out_channels=final_oup, kernel_size=1, bias=False)
        self._bn2 = nn.BatchNorm2d(num_features=final_oup, momentum=self._bn_mom, eps=self._bn_eps)
        self._swish = MemoryEfficientSwish()

    def forward(self, inputs, drop_connect_rate=None):
        x = inputs
        if self._block_args.expand_ratio != 1:
            x = self._expand_conv(inputs)
            x = self._bn0(x)
            x = self._swish(x)
        x = self._depthwise_conv(x)
        x = self._bn1(x)
        x = self._swish(x)
        if self.has_se:
            x_squeezed = F.adaptive_avg_pool2d(x, 1)
            x_squeezed = self._se_reduce(x_squeezed)
            x_squeezed = self._swish(x_squeezed)
            x_squeezed = self._se_expand(x_squeezed)
            x = torch.sigmoid(x_squeezed) * x
        x = self._project_conv(x)
        x = self._bn2(x)
        input_filters, output_filters = self._block_args.input_filters, self._block_args.output_filters
        if self.id_skip and self._block_args.stride == 1 and input_filters == output_filters:
            if drop_connect_rate:
                x = drop_connect(x, p=drop_connect_rate, training=self.training)
            x = x + inputs
        return x

    def set_swish(self, memory_efficient=True):
        self._swish = MemoryEfficientSwish() if memory_efficient else Swish()


gp = GlobalParams(width_coefficient=1.1, depth_coefficient=1.2, image_size=9, dropout_rate=0.2, num_classes=5,
                  batch_norm_momentum=0.99, batch_norm_epsilon=1e-3, drop_connect_rate=0.2, depth_divisor=8,
                  min_depth=None)
print('round_filters', [round_filters(f, gp) for f in (16, 24, 40, 80, 112)], 'repeats', [round_repeats(r, gp) for r in (1, 2, 3)])
blocks_args = [decode_block_string(s) for s in ['r1_k3_s11_e1_i4_o4_se0.25', 'r2_k3_s22_e6_i4_o8_se0.25', 'r1_k5_s11_e6_i8_o8_se0.25']]
print(blocks_args[1])
blocks_args[1] = blocks_args[1]._replace(stride=2)
blocks_args[0] = blocks_args[0]._replace(stride=1)
blocks_args[2] = blocks_args[2]._replace(stride=1)
stem = Conv2dStaticSamePadding(3, 4, kernel_size=3, stride=2, image_size=9, bias=False)
print('stem padding', stem.static_padding)
dyn = Conv2dDynamicSamePadding(3, 4, kernel_size=3, stride=2, bias=False)
with torch.no_grad():
    dyn.weight.copy_(stem.weight)
img = torch.sin(torch.arange(2 * 3 * 9 * 9, dtype=torch.float32) * 0.05).view(2, 3, 9, 9)
print('static==dynamic', torch.allclose(stem(img), dyn(img)), tuple(stem(img).shape))
blocks = nn.ModuleList([MBConvBlock(b, gp, image_size=[5, 5] if i < 2 else [3, 3]) for i, b in enumerate(blocks_args)])
bn0 = nn.BatchNorm2d(4, momentum=0.01, eps=1e-3)
head = nn.Linear(8, 5)
params = list(stem.parameters()) + list(bn0.parameters()) + list(blocks.parameters()) + list(head.parameters())
with torch.no_grad():
    for i, p in enumerate(params):
        if p.dim() > 1:
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.83 + i).view_as(p) * 0.4)
print('bn momentum', blocks[0]._bn1.momentum, 'eps', blocks[0]._bn1.eps)


def forward(x):
    x = MemoryEfficientSwish()(bn0(stem(x)))
    for idx, block in enumerate(blocks):
        drop_connect_rate = gp.drop_connect_rate * float(idx) / len(blocks)
        x = block(x, drop_connect_rate=drop_connect_rate)
    x = F.adaptive_avg_pool2d(x, 1).flatten(start_dim=1)
    return head(F.dropout(x, gp.dropout_rate, training=blocks.training))


target = torch.tensor([1, 3])
opt = torch.optim.RMSprop(params, lr=0.01, alpha=0.9, eps=1e-3, momentum=0.9)
for step in range(3):
    logits = forward(img)
    loss = F.cross_entropy(logits, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print('step', step, round(loss.item(), 5), 'running_var', round(blocks[2]._bn2.running_var.mean().item(), 5))
x = torch.linspace(-3, 3, 7, dtype=torch.float64, requires_grad=True)
print('swish gradcheck', torch.autograd.gradcheck(SwishImplementation.apply, (x,)))
y = SwishImplementation.apply(x)
print('swish grad_fn', type(y.grad_fn).__name__, [round(v, 4) for v in torch.autograd.grad(y.sum(), x)[0].tolist()])
blocks.eval()
with torch.no_grad():
    print('eval', [round(v, 4) for v in forward(img)[0].tolist()])
    d = drop_connect(torch.ones(4, 2, 1, 1), 0.5, training=True)
print('drop_connect', d[:, 0, 0, 0].tolist())
