# Two popular vision heads written as their repos do: ESRGAN's RRDB generator (xinntao/ESRGAN
# RRDBNet_arch: ResidualDenseBlock_5C with torch.cat growth, LeakyReLU, 0.2 residual scaling,
# F.interpolate nearest x2 upsampling, kaiming init scaled by 0.1) with the relativistic average GAN
# loss; DeepLabV3's ASPP (torchvision: atrous 3x3 convs with dilation, ASPPPooling with
# AdaptiveAvgPool2d(1) and bilinear F.interpolate back, concatenation, 1x1 projection, dropout),
# with the poly learning-rate schedule and per-class IoU from a confusion matrix (bincount).
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def initialize_weights(net_l, scale=1):
    if not isinstance(net_l, list):
        net_l = [net_l]
    for net in net_l:
        for m in net.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, a=0, mode='fan_in')
                m.weight.data *= scale
                if m.bias is not None:
                    m.bias.data.zero_()


def make_layer(block, n_layers):
    return nn.Sequential(*[block() for _ in range(n_layers)])


class ResidualDenseBlock_5C(nn.Module):
    def __init__(self, nf=8, gc=4, bias=True):
        super(ResidualDenseBlock_5C, self).__init__()
        self.conv1 = nn.Conv2d(nf, gc, 3, 1, 1, bias=bias)
        self.conv2 = nn.Conv2d(nf + gc, gc, 3, 1, 1, bias=bias)
        self.conv3 = nn.Conv2d(nf + 2 * gc, gc, 3, 1, 1, bias=bias)
        self.conv4 = nn.Conv2d(nf + 3 * gc, gc, 3, 1, 1, bias=bias)
        self.conv5 = nn.Conv2d(nf + 4 * gc, nf, 3, 1, 1, bias=bias)
        self.lrelu = nn.LeakyReLU(negative_slope=0.2, inplace=True)
        initialize_weights([self.conv1, self.conv2, self.conv3, self.conv4, self.conv5], 0.1)

    def forward(self, x):
        x1 = self.lrelu(self.conv1(x))
        x2 = self.lrelu(self.conv2(torch.cat((x, x1), 1)))
        x3 = self.lrelu(self.conv3(torch.cat((x, x1, x2), 1)))
        x4 = self.lrelu(self.conv4(torch.cat((x, x1, x2, x3), 1)))
        x5 = self.conv5(torch.cat((x, x1, x2, x3, x4), 1))
        return x5 * 0.2 + x


class RRDB(nn.Module):
    def __init__(self, nf, gc=4):
        super(RRDB, self).__init__()
        self.RDB1 = ResidualDenseBlock_5C(nf, gc)
        self.RDB2 = ResidualDenseBlock_5C(nf, gc)
        self.RDB3 = ResidualDenseBlock_5C(nf, gc)

    def forward(self, x):
        out = self.RDB1(x)
        out = self.RDB2(out)
        out = self.RDB3(out)
        return out * 0.2 + x


class RRDBNet(nn.Module):
    def __init__(self, in_nc, out_nc, nf, nb, gc=4):
        super(RRDBNet, self).__init__()
        RRDB_block_f = functools.partial(RRDB, nf=nf, gc=gc)
        self.conv_first = nn.Conv2d(in_nc, nf, 3, 1, 1, bias=True)
        self.RRDB_trunk = make_layer(RRDB_block_f, nb)
        self.trunk_conv = nn.Conv2d(nf, nf, 3, 1, 1, bias=True)
        self.upconv1 = nn.Conv2d(nf, nf, 3, 1, 1, bias=True)
        self.HRconv = nn.Conv2d(nf, nf, 3, 1, 1, bias=True)
        self.conv_last = nn.Conv2d(nf, out_nc, 3, 1, 1, bias=True)
        self.lrelu = nn.LeakyReLU(negative_slope=0.2, inplace=True)

    def forward(self, x):
        fea = self.conv_first(x)
        trunk = self.trunk_conv(self.RRDB_trunk(fea))
        fea = fea + trunk
        fea = self.lrelu(self.upconv1(F.interpolate(fea, scale_factor=2, mode='nearest')))
        out = self.conv_last(self.lrelu(self.HRconv(fea)))
        return out


class ASPPConv(nn.Sequential):
    def __init__(self, in_channels, out_channels, dilation):
        modules = [nn.Conv2d(in_channels, out_channels, 3, padding=dilation, dilation=dilation, bias=False),
                   nn.BatchNorm2d(out_channels), nn.ReLU()]
        super().__init__(*modules)


class ASPPPooling(nn.Sequential):
    def __init__(self, in_channels, out_channels):
        super().__init__(nn.AdaptiveAvgPool2d(1), nn.Conv2d(in_channels, out_channels, 1, bias=False),
                         nn.BatchNorm2d(out_channels), nn.ReLU())

    def forward(self, x):
        size = x.shape[-2:]
        for mod in self:
            x = mod(x)
        return F.interpolate(x, size=size, mode="bilinear", align_corners=False)


class ASPP(nn.Module):
    def __init__(self, in_channels, atrous_rates, out_channels=8):
        super().__init__()
        modules = [nn.Sequential(nn.Conv2d(in_channels, out_channels, 1, bias=False), nn.BatchNorm2d(out_channels), nn.ReLU())]
        rates = tuple(atrous_rates)
        for rate in rates:
            modules.append(ASPPConv(in_channels, out_channels, rate))
        modules.append(ASPPPooling(in_channels, out_channels))
        self.convs = nn.ModuleList(modules)
        self.project = nn.Sequential(nn.Conv2d(len(self.convs) * out_channels, out_channels, 1, bias=False),
                                     nn.BatchNorm2d(out_channels), nn.ReLU(), nn.Dropout(0.5))

    def forward(self, x):
        _res = []
        for conv in self.convs:
            _res.append(conv(x))
        res = torch.cat(_res, dim=1)
        return self.project(res)


class DeepLabHead(nn.Sequential):
    def __init__(self, in_channels, num_classes, atrous_rates=(1, 2, 3)):
        super().__init__(ASPP(in_channels, atrous_rates), nn.Conv2d(8, 8, 3, padding=1, bias=False),
                         nn.BatchNorm2d(8), nn.ReLU(), nn.Conv2d(8, num_classes, 1))


def formula_weights(net, k):
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            if p.dim() > 1:
                fan_in = p[0].numel()
                p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * k + i).view_as(p) * (2.0 / fan_in) ** 0.5)


netG = RRDBNet(3, 3, nf=8, nb=1, gc=4)
print('rrdb params', sum(p.numel() for p in netG.parameters()), 'init scale ok',
      netG.RRDB_trunk[0].RDB1.conv1.weight.std().item() < 0.1)
formula_weights(netG, 0.71)
netD = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), nn.LeakyReLU(0.2, True), nn.Conv2d(8, 8, 3, 2, 1),
                     nn.BatchNorm2d(8), nn.LeakyReLU(0.2, True), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 1))
formula_weights(netD, 0.53)
lr_img = torch.sin(torch.arange(2 * 3 * 6 * 6, dtype=torch.float32) * 0.2).view(2, 3, 6, 6) * 0.5 + 0.5
hr_img = F.interpolate(lr_img, scale_factor=2, mode='bicubic', align_corners=False).clamp(0, 1)
cri_gan = nn.BCEWithLogitsLoss()
opt_G = torch.optim.Adam(netG.parameters(), lr=1e-3, betas=(0.9, 0.99))
opt_D = torch.optim.Adam(netD.parameters(), lr=1e-3, betas=(0.9, 0.99))
for step in range(3):
    for p in netD.parameters():
        p.requires_grad = False
    opt_G.zero_grad()
    fake_H = netG(lr_img)
    l_g_pix = 1e-2 * F.l1_loss(fake_H, hr_img)
    pred_g_fake = netD(fake_H)
    pred_d_real = netD(hr_img).detach()
    l_g_gan = 5e-3 * (cri_gan(pred_d_real - torch.mean(pred_g_fake), torch.zeros_like(pred_d_real)) +
                      cri_gan(pred_g_fake - torch.mean(pred_d_real), torch.ones_like(pred_g_fake))) / 2
    l_g_total = l_g_pix + l_g_gan
    l_g_total.backward()
    opt_G.step()
    for p in netD.parameters():
        p.requires_grad = True
    opt_D.zero_grad()
    pred_d_real = netD(hr_img)
    pred_d_fake = netD(fake_H.detach())
    l_d_real = cri_gan(pred_d_real - torch.mean(pred_d_fake), torch.ones_like(pred_d_real))
    l_d_fake = cri_gan(pred_d_fake - torch.mean(pred_d_real), torch.zeros_like(pred_d_fake))
    l_d_total = (l_d_real + l_d_fake) / 2
    l_d_total.backward()
    opt_D.step()
    print('step %d l_g_pix %.6f l_g_gan %.6f l_d %.5f' % (step, l_g_pix.item(), l_g_gan.item(), l_d_total.item()))
mse = F.mse_loss(fake_H.detach().clamp(0, 1), hr_img)
print('sr', tuple(fake_H.shape), 'psnr %.3f' % (10 * torch.log10(1 / mse)).item())

num_classes = 3
head = DeepLabHead(6, num_classes)
formula_weights(head, 0.37)
feat = torch.cos(torch.arange(2 * 6 * 5 * 5, dtype=torch.float32) * 0.15).view(2, 6, 5, 5)
ii, jj = torch.meshgrid(torch.arange(10), torch.arange(10), indexing='ij')
target = ((ii + jj) // 7).clamp(max=2).expand(2, 10, 10).clone()
target[1, :2, :2] = 255
params = [{'params': head[0].parameters(), 'lr': 0.05}, {'params': list(head.parameters())[len(list(head[0].parameters())):], 'lr': 0.1}]
optimizer = torch.optim.SGD(params, lr=0.1, momentum=0.9, weight_decay=1e-4)
max_iters = 5
scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda it: (1 - it / max_iters) ** 0.9)
head.train()
for it in range(3):
    out = F.interpolate(head(feat), size=(10, 10), mode='bilinear', align_corners=False)
    loss = F.cross_entropy(out, target, ignore_index=255)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    scheduler.step()
    print('iter', it, round(loss.item(), 5), ['%.5f' % g['lr'] for g in optimizer.param_groups])
head.eval()
with torch.no_grad():
    pred = F.interpolate(head(feat), size=(10, 10), mode='bilinear', align_corners=False).argmax(1)
mask = (target >= 0) & (target < num_classes)
hist = torch.bincount(num_classes * target[mask] + pred[mask], minlength=num_classes ** 2).reshape(num_classes, num_classes)
iu = torch.diag(hist) / (hist.sum(dim=1) + hist.sum(dim=0) - torch.diag(hist))
print('confusion', hist.tolist())
print('IoU', [round(v, 4) if v == v else 'nan' for v in iu.tolist()], 'mIoU', round(torch.nanmean(iu).item(), 4))
print('pool branch', tuple(head[0].convs[-1](feat).shape), 'dilations', [c[0].dilation for c in head[0].convs[1:4]])
