"""pytorch/examples super_resolution (sub-pixel convolution with PixelShuffle, orthogonal_ init with
calculate_gain, PSNR) and fast_neural_style (TransformerNet with ReflectionPad2d, InstanceNorm2d,
nearest Upsample, a namedtuple feature extractor, gram_matrix with bmm, normalize_batch with new_tensor
and in-place div_, content and style losses, clamped uint8 output)."""
from collections import namedtuple
from math import log10
import numpy as np
import torch
import torch.nn as nn
import torch.nn.init as init
import torch.optim as optim


class Net(nn.Module):
    def __init__(self, upscale_factor):
        super(Net, self).__init__()
        self.relu = nn.ReLU()
        self.conv1 = nn.Conv2d(1, 8, (5, 5), (1, 1), (2, 2))
        self.conv2 = nn.Conv2d(8, 8, (3, 3), (1, 1), (1, 1))
        self.conv3 = nn.Conv2d(8, 4, (3, 3), (1, 1), (1, 1))
        self.conv4 = nn.Conv2d(4, upscale_factor ** 2, (3, 3), (1, 1), (1, 1))
        self.pixel_shuffle = nn.PixelShuffle(upscale_factor)
        self._initialize_weights()

    def forward(self, x):
        x = self.relu(self.conv1(x))
        x = self.relu(self.conv2(x))
        x = self.relu(self.conv3(x))
        x = self.pixel_shuffle(self.conv4(x))
        return x

    def _initialize_weights(self):
        init.orthogonal_(self.conv1.weight, init.calculate_gain('relu'))
        init.orthogonal_(self.conv2.weight, init.calculate_gain('relu'))
        init.orthogonal_(self.conv3.weight, init.calculate_gain('relu'))
        init.orthogonal_(self.conv4.weight)


torch.manual_seed(123)
print(init.calculate_gain('relu'), init.calculate_gain('leaky_relu', 0.2), init.calculate_gain('tanh'))
model = Net(upscale_factor=2)
w = model.conv1.weight.view(8, -1)
print(w.shape, torch.allclose(w @ w.t(), 2 * torch.eye(8), atol=1e-5), model.conv4.weight[0, 0])
criterion = nn.MSELoss()
optimizer = optim.Adam(model.parameters(), lr=0.01)
target = torch.rand(4, 1, 8, 8)
input = nn.functional.avg_pool2d(target, 2)
for epoch in range(1, 6):
    optimizer.zero_grad()
    loss = criterion(model(input), target)
    loss.backward()
    optimizer.step()
    print("===> Epoch {} Complete: Avg. Loss: {:.4f}".format(epoch, loss.item()))
with torch.no_grad():
    prediction = model(input)
    mse = criterion(prediction, target)
    psnr = 10 * log10(1 / mse.item())
print("===> Avg. PSNR: {:.4f} dB".format(psnr), prediction.shape)
out_img_y = prediction[0].detach().numpy()
out_img_y *= 255.0
out_img_y = out_img_y.clip(0, 255)
print(out_img_y.dtype, out_img_y.shape, np.uint8(out_img_y[0])[0, :4])
shuffle = nn.PixelShuffle(2)
x = torch.arange(16.).view(1, 4, 2, 2)
print(shuffle(x), nn.PixelUnshuffle(2)(shuffle(x)).equal(x), shuffle)


class TransformerNet(torch.nn.Module):
    def __init__(self):
        super(TransformerNet, self).__init__()
        self.conv1 = ConvLayer(3, 4, kernel_size=5, stride=1)
        self.in1 = torch.nn.InstanceNorm2d(4, affine=True)
        self.conv2 = ConvLayer(4, 8, kernel_size=3, stride=2)
        self.in2 = torch.nn.InstanceNorm2d(8, affine=True)
        self.res1 = ResidualBlock(8)
        self.res2 = ResidualBlock(8)
        self.deconv1 = UpsampleConvLayer(8, 4, kernel_size=3, stride=1, upsample=2)
        self.in4 = torch.nn.InstanceNorm2d(4, affine=True)
        self.deconv3 = ConvLayer(4, 3, kernel_size=5, stride=1)
        self.relu = torch.nn.ReLU()

    def forward(self, X):
        y = self.relu(self.in1(self.conv1(X)))
        y = self.relu(self.in2(self.conv2(y)))
        y = self.res1(y)
        y = self.res2(y)
        y = self.relu(self.in4(self.deconv1(y)))
        y = self.deconv3(y)
        return y


class ConvLayer(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride):
        super(ConvLayer, self).__init__()
        reflection_padding = kernel_size // 2
        self.reflection_pad = torch.nn.ReflectionPad2d(reflection_padding)
        self.conv2d = torch.nn.Conv2d(in_channels, out_channels, kernel_size, stride)

    def forward(self, x):
        out = self.reflection_pad(x)
        out = self.conv2d(out)
        return out


class ResidualBlock(torch.nn.Module):
    def __init__(self, channels):
        super(ResidualBlock, self).__init__()
        self.conv1 = ConvLayer(channels, channels, kernel_size=3, stride=1)
        self.in1 = torch.nn.InstanceNorm2d(channels, affine=True)
        self.conv2 = ConvLayer(channels, channels, kernel_size=3, stride=1)
        self.in2 = torch.nn.InstanceNorm2d(channels, affine=True)
        self.relu = torch.nn.ReLU()

    def forward(self, x):
        residual = x
        out = self.relu(self.in1(self.conv1(x)))
        out = self.in2(self.conv2(out))
        out = out + residual
        return out


class UpsampleConvLayer(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, upsample=None):
        super(UpsampleConvLayer, self).__init__()
        self.upsample = upsample
        if upsample:
            self.upsample_layer = torch.nn.Upsample(mode='nearest', scale_factor=upsample)
        reflection_padding = kernel_size // 2
        self.reflection_pad = torch.nn.ReflectionPad2d(reflection_padding)
        self.conv2d = torch.nn.Conv2d(in_channels, out_channels, kernel_size, stride)

    def forward(self, x):
        x_in = x
        if self.upsample:
            x_in = self.upsample_layer(x_in)
        out = self.reflection_pad(x_in)
        out = self.conv2d(out)
        return out


class Vgg(torch.nn.Module):
    def __init__(self, requires_grad=False):
        super(Vgg, self).__init__()
        self.slice1 = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(inplace=True))
        self.slice2 = nn.Sequential(nn.MaxPool2d(2, 2), nn.Conv2d(4, 6, 3, padding=1), nn.ReLU(inplace=True))
        if not requires_grad:
            for param in self.parameters():
                param.requires_grad = False

    def forward(self, X):
        h = self.slice1(X)
        h_relu1_2 = h
        h = self.slice2(h)
        h_relu2_2 = h
        vgg_outputs = namedtuple("VggOutputs", ['relu1_2', 'relu2_2'])
        out = vgg_outputs(h_relu1_2, h_relu2_2)
        return out


def gram_matrix(y):
    (b, ch, h, w) = y.size()
    features = y.view(b, ch, w * h)
    features_t = features.transpose(1, 2)
    gram = features.bmm(features_t) / (ch * h * w)
    return gram


def normalize_batch(batch):
    mean = batch.new_tensor([0.485, 0.456, 0.406]).view(-1, 1, 1)
    std = batch.new_tensor([0.229, 0.224, 0.225]).view(-1, 1, 1)
    batch = batch.div_(255.0)
    return (batch - mean) / std


torch.manual_seed(42)
transformer = TransformerNet()
optimizer = optim.Adam(transformer.parameters(), 1e-2)
mse_loss = torch.nn.MSELoss()
vgg = Vgg(requires_grad=False)
print(sum(p.numel() for p in transformer.parameters()), sum(p.requires_grad for p in vgg.parameters()))
style = torch.rand(1, 3, 8, 8).mul(255)
style = style.repeat(2, 1, 1, 1)
features_style = vgg(normalize_batch(style))
gram_style = [gram_matrix(y) for y in features_style]
print(style.max() <= 1.0, [g.shape for g in gram_style], gram_style[1][0, :2])
content_weight, style_weight = 1e5, 1e10
for e in range(4):
    transformer.train()
    x = torch.rand(2, 3, 8, 8) * 255
    n_batch = len(x)
    optimizer.zero_grad()
    y = transformer(x)
    y = normalize_batch(y)
    x = normalize_batch(x)
    features_y = vgg(y)
    features_x = vgg(x)
    content_loss = content_weight * mse_loss(features_y.relu2_2, features_x.relu2_2)
    style_loss = 0.
    for ft_y, gm_s in zip(features_y, gram_style):
        gm_y = gram_matrix(ft_y)
        style_loss += mse_loss(gm_y, gm_s[:n_batch, :, :])
    style_loss *= style_weight
    total_loss = content_loss + style_loss
    total_loss.backward()
    optimizer.step()
    print("Epoch {}:\tcontent: {:.2f}\tstyle: {:.2f}\ttotal: {:.2f}".format(
        e + 1, content_loss.item(), style_loss.item(), total_loss.item()))

transformer.eval()
state = transformer.state_dict()
print([k for k in state if 'in1' in k], 'in1.running_mean' in state)
with torch.no_grad():
    content_image = torch.rand(3, 8, 8).mul(255).unsqueeze(0)
    output = transformer(content_image).cpu()
img = output[0].clone().clamp(0, 255).numpy()
img = img.transpose(1, 2, 0).astype("uint8")
print(img.shape, img.dtype, img[0, 0])
print(transformer.in1, transformer.deconv1.upsample_layer, transformer.conv1.reflection_pad)
