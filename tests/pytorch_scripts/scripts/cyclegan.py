# junyanz/pytorch-CycleGAN-and-pix2pix, trimmed: ResnetGenerator (ReflectionPad2d, InstanceNorm2d via
# functools.partial, ConvTranspose2d with output_padding), NLayerDiscriminator, GANLoss with
# registered label buffers and expand_as (lsgan), ImagePool (python random), init_weights via apply
# and classname checks, set_requires_grad, itertools.chain optimisers, linear-decay LambdaLR,
# cycle and identity losses. Two iterations only: the conv biases before InstanceNorm get rounding-noise
# gradients that Adam turns into full-size steps, so later iterations are chaotic in the last bits.
import functools
import itertools
import random

import torch
import torch.nn as nn
from torch.nn import init
from torch.optim import lr_scheduler

torch.manual_seed(0)
random.seed(0)


def get_norm_layer(norm_type='instance'):
    if norm_type == 'batch':
        return functools.partial(nn.BatchNorm2d, affine=True, track_running_stats=True)
    return functools.partial(nn.InstanceNorm2d, affine=False, track_running_stats=False)


def init_weights(net, init_type='normal', init_gain=0.02):
    def init_func(m):
        classname = m.__class__.__name__
        if hasattr(m, 'weight') and (classname.find('Conv') != -1 or classname.find('Linear') != -1):
            if init_type == 'normal':
                init.normal_(m.weight.data, 0.0, init_gain)
            elif init_type == 'xavier':
                init.xavier_normal_(m.weight.data, gain=init_gain)
            if hasattr(m, 'bias') and m.bias is not None:
                init.constant_(m.bias.data, 0.0)
        elif classname.find('BatchNorm2d') != -1:
            init.normal_(m.weight.data, 1.0, init_gain)
            init.constant_(m.bias.data, 0.0)
    net.apply(init_func)


class ResnetBlock(nn.Module):
    def __init__(self, dim, padding_type, norm_layer, use_dropout, use_bias):
        super(ResnetBlock, self).__init__()
        self.conv_block = self.build_conv_block(dim, padding_type, norm_layer, use_dropout, use_bias)

    def build_conv_block(self, dim, padding_type, norm_layer, use_dropout, use_bias):
        conv_block = []
        p = 0
        if padding_type == 'reflect':
            conv_block += [nn.ReflectionPad2d(1)]
        elif padding_type == 'replicate':
            conv_block += [nn.ReplicationPad2d(1)]
        elif padding_type == 'zero':
            p = 1
        conv_block += [nn.Conv2d(dim, dim, kernel_size=3, padding=p, bias=use_bias), norm_layer(dim), nn.ReLU(True)]
        if use_dropout:
            conv_block += [nn.Dropout(0.5)]
        p = 0
        if padding_type == 'reflect':
            conv_block += [nn.ReflectionPad2d(1)]
        elif padding_type == 'replicate':
            conv_block += [nn.ReplicationPad2d(1)]
        elif padding_type == 'zero':
            p = 1
        conv_block += [nn.Conv2d(dim, dim, kernel_size=3, padding=p, bias=use_bias), norm_layer(dim)]
        return nn.Sequential(*conv_block)

    def forward(self, x):
        return x + self.conv_block(x)


class ResnetGenerator(nn.Module):
    def __init__(self, input_nc, output_nc, ngf=4, norm_layer=nn.BatchNorm2d, use_dropout=False, n_blocks=2,
                 padding_type='reflect'):
        super(ResnetGenerator, self).__init__()
        if type(norm_layer) == functools.partial:
            use_bias = norm_layer.func == nn.InstanceNorm2d
        else:
            use_bias = norm_layer == nn.InstanceNorm2d
        model = [nn.ReflectionPad2d(3), nn.Conv2d(input_nc, ngf, kernel_size=7, padding=0, bias=use_bias),
                 norm_layer(ngf), nn.ReLU(True)]
        n_downsampling = 2
        for i in range(n_downsampling):
            mult = 2 ** i
            model += [nn.Conv2d(ngf * mult, ngf * mult * 2, kernel_size=3, stride=2, padding=1, bias=use_bias),
                      norm_layer(ngf * mult * 2), nn.ReLU(True)]
        mult = 2 ** n_downsampling
        for i in range(n_blocks):
            model += [ResnetBlock(ngf * mult, padding_type=padding_type, norm_layer=norm_layer,
                                  use_dropout=use_dropout, use_bias=use_bias)]
        for i in range(n_downsampling):
            mult = 2 ** (n_downsampling - i)
            model += [nn.ConvTranspose2d(ngf * mult, int(ngf * mult / 2), kernel_size=3, stride=2, padding=1,
                                         output_padding=1, bias=use_bias),
                      norm_layer(int(ngf * mult / 2)), nn.ReLU(True)]
        model += [nn.ReflectionPad2d(3)]
        model += [nn.Conv2d(ngf, output_nc, kernel_size=7, padding=0)]
        model += [nn.Tanh()]
        self.model = nn.Sequential(*model)

    def forward(self, input):
        return self.model(input)


class NLayerDiscriminator(nn.Module):
    def __init__(self, input_nc, ndf=4, n_layers=2, norm_layer=nn.BatchNorm2d):
        super(NLayerDiscriminator, self).__init__()
        if type(norm_layer) == functools.partial:
            use_bias = norm_layer.func == nn.InstanceNorm2d
        else:
            use_bias = norm_layer == nn.InstanceNorm2d
        kw = 4
        padw = 1
        sequence = [nn.Conv2d(input_nc, ndf, kernel_size=kw, stride=2, padding=padw), nn.LeakyReLU(0.2, True)]
        nf_mult = 1
        for n in range(1, n_layers):
            nf_mult_prev = nf_mult
            nf_mult = min(2 ** n, 8)
            sequence += [nn.Conv2d(ndf * nf_mult_prev, ndf * nf_mult, kernel_size=kw, stride=2, padding=padw, bias=use_bias),
                         norm_layer(ndf * nf_mult), nn.LeakyReLU(0.2, True)]
        nf_mult_prev = nf_mult
        nf_mult = min(2 ** n_layers, 8)
        sequence += [nn.Conv2d(ndf * nf_mult_prev, ndf * nf_mult, kernel_size=kw, stride=1, padding=padw, bias=use_bias),
                     norm_layer(ndf * nf_mult), nn.LeakyReLU(0.2, True)]
        sequence += [nn.Conv2d(ndf * nf_mult, 1, kernel_size=kw, stride=1, padding=padw)]
        self.model = nn.Sequential(*sequence)

    def forward(self, input):
        return self.model(input)


class GANLoss(nn.Module):
    def __init__(self, gan_mode, target_real_label=1.0, target_fake_label=0.0):
        super(GANLoss, self).__init__()
        self.register_buffer('real_label', torch.tensor(target_real_label))
        self.register_buffer('fake_label', torch.tensor(target_fake_label))
        self.gan_mode = gan_mode
        if gan_mode == 'lsgan':
            self.loss = nn.MSELoss()
        elif gan_mode == 'vanilla':
            self.loss = nn.BCEWithLogitsLoss()
        else:
            self.loss = None

    def get_target_tensor(self, prediction, target_is_real):
        target_tensor = self.real_label if target_is_real else self.fake_label
        return target_tensor.expand_as(prediction)

    def __call__(self, prediction, target_is_real):
        if self.gan_mode in ['lsgan', 'vanilla']:
            return self.loss(prediction, self.get_target_tensor(prediction, target_is_real))
        return -prediction.mean() if target_is_real else prediction.mean()


class ImagePool():
    def __init__(self, pool_size):
        self.pool_size = pool_size
        if self.pool_size > 0:
            self.num_imgs = 0
            self.images = []

    def query(self, images):
        if self.pool_size == 0:
            return images
        return_images = []
        for image in images:
            image = torch.unsqueeze(image.data, 0)
            if self.num_imgs < self.pool_size:
                self.num_imgs = self.num_imgs + 1
                self.images.append(image)
                return_images.append(image)
            else:
                p = random.uniform(0, 1)
                if p > 0.5:
                    random_id = random.randint(0, self.pool_size - 1)
                    tmp = self.images[random_id].clone()
                    self.images[random_id] = image
                    return_images.append(tmp)
                else:
                    return_images.append(image)
        return torch.cat(return_images, 0)


def set_requires_grad(nets, requires_grad=False):
    if not isinstance(nets, list):
        nets = [nets]
    for net in nets:
        if net is not None:
            for param in net.parameters():
                param.requires_grad = requires_grad


def deterministic(net, seed):
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            if p.dim() > 1:
                p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.77 + i + seed).view_as(p) * 0.15)


norm_layer = get_norm_layer('instance')
netG_A = ResnetGenerator(3, 3, 4, norm_layer=norm_layer)
netG_B = ResnetGenerator(3, 3, 4, norm_layer=norm_layer, padding_type='replicate')
netD_A = NLayerDiscriminator(3, 4, n_layers=2, norm_layer=norm_layer)
netD_B = NLayerDiscriminator(3, 4, n_layers=2, norm_layer=norm_layer)
for net in (netG_A, netG_B, netD_A, netD_B):
    init_weights(net, 'normal', 0.02)
for i, net in enumerate((netG_A, netG_B, netD_A, netD_B)):
    deterministic(net, i)
print('generator params', sum(p.numel() for p in netG_A.parameters()), 'norm', netG_A.model[2])
criterionGAN = GANLoss('lsgan')
criterionCycle = torch.nn.L1Loss()
criterionIdt = torch.nn.L1Loss()
optimizer_G = torch.optim.Adam(itertools.chain(netG_A.parameters(), netG_B.parameters()), lr=2e-3, betas=(0.5, 0.999))
optimizer_D = torch.optim.Adam(itertools.chain(netD_A.parameters(), netD_B.parameters()), lr=2e-3, betas=(0.5, 0.999))
n_epochs, n_epochs_decay, epoch_count = 2, 2, 1


def lambda_rule(epoch):
    return 1.0 - max(0, epoch + epoch_count - n_epochs) / float(n_epochs_decay + 1)


schedulers = [lr_scheduler.LambdaLR(o, lr_lambda=lambda_rule) for o in (optimizer_G, optimizer_D)]
fake_A_pool, fake_B_pool = ImagePool(2), ImagePool(2)
grid = torch.arange(16 * 16, dtype=torch.float32).view(1, 1, 16, 16)
real_A = torch.cat([torch.sin(grid * 0.05 + c) for c in range(3)], 1).repeat(2, 1, 1, 1) * torch.tensor([1.0, -0.5]).view(2, 1, 1, 1)
real_B = torch.cat([torch.cos(grid * 0.03 + c) for c in range(3)], 1).repeat(2, 1, 1, 1) * torch.tensor([0.8, 0.3]).view(2, 1, 1, 1)
lambda_A, lambda_B, lambda_idt = 10.0, 10.0, 0.5
for epoch in range(2):
    fake_B = netG_A(real_A)
    rec_A = netG_B(fake_B)
    fake_A = netG_B(real_B)
    rec_B = netG_A(fake_A)
    set_requires_grad([netD_A, netD_B], False)
    optimizer_G.zero_grad()
    idt_A = netG_A(real_B)
    loss_idt_A = criterionIdt(idt_A, real_B) * lambda_B * lambda_idt
    idt_B = netG_B(real_A)
    loss_idt_B = criterionIdt(idt_B, real_A) * lambda_A * lambda_idt
    loss_G_A = criterionGAN(netD_A(fake_B), True)
    loss_G_B = criterionGAN(netD_B(fake_A), True)
    loss_cycle_A = criterionCycle(rec_A, real_A) * lambda_A
    loss_cycle_B = criterionCycle(rec_B, real_B) * lambda_B
    loss_G = loss_G_A + loss_G_B + loss_cycle_A + loss_cycle_B + loss_idt_A + loss_idt_B
    loss_G.backward()
    optimizer_G.step()
    set_requires_grad([netD_A, netD_B], True)
    optimizer_D.zero_grad()
    losses_D = []
    for netD, real, fake_pool, fake in ((netD_A, real_B, fake_B_pool, fake_B), (netD_B, real_A, fake_A_pool, fake_A)):
        fake = fake_pool.query(fake)
        loss_D_real = criterionGAN(netD(real), True)
        loss_D_fake = criterionGAN(netD(fake.detach()), False)
        loss_D = (loss_D_real + loss_D_fake) * 0.5
        loss_D.backward()
        losses_D.append(loss_D.item())
    optimizer_D.step()
    old_lr = optimizer_G.param_groups[0]['lr']
    for scheduler in schedulers:
        scheduler.step()
    lr = optimizer_G.param_groups[0]['lr']
    print('epoch %d G %.4f cycA %.4f idtA %.4f D_A %.4f D_B %.4f lr %.7f -> %.7f' % (
        epoch, loss_G.item(), loss_cycle_A.item(), loss_idt_A.item(), losses_D[0], losses_D[1], old_lr, lr))
print('fake_B', tuple(fake_B.shape), round(fake_B.mean().item(), 5), round(fake_B.abs().max().item(), 5))
print('D out', tuple(netD_A(real_B).shape), 'pool', fake_A_pool.num_imgs, len(fake_A_pool.images))
print('requires_grad', all(p.requires_grad for p in netD_A.parameters()), netD_A.model[0].weight.grad is not None)
for epoch in range(2, 5):
    for scheduler in schedulers:
        scheduler.step()
    print('epoch', epoch, 'lr %.7f' % optimizer_D.param_groups[0]['lr'], schedulers[1].last_epoch)
