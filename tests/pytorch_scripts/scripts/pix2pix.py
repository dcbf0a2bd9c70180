"""pix2pix / CycleGAN as junyanz/pytorch-CycleGAN-and-pix2pix writes it, shrunk: a recursive
UnetSkipConnectionBlock generator (Conv2d stride 2, ConvTranspose2d, InstanceNorm2d with
functools.partial, use_bias from the norm layer's func, LeakyReLU/ReLU/Tanh, torch.cat skips), an
NLayerDiscriminator PatchGAN, init_weights through net.apply with normal_(0.0, 0.02) by classname,
GANLoss with registered real/fake label buffers and expand_as, L1 plus adversarial loss,
set_requires_grad over nets, an ImagePool of past fakes, a ResnetBlock with ReflectionPad2d, and
LambdaLR's linear decay rule."""
import functools
import random

import torch
import torch.nn as nn

torch.manual_seed(0)
random.seed(0)


class UnetSkipConnectionBlock(nn.Module):
    def __init__(self, outer_nc, inner_nc, input_nc=None, submodule=None, outermost=False, innermost=False,
                 norm_layer=nn.BatchNorm2d, use_dropout=False):
        super(UnetSkipConnectionBlock, self).__init__()
        self.outermost = outermost
        if type(norm_layer) == functools.partial:
            use_bias = norm_layer.func == nn.InstanceNorm2d
        else:
            use_bias = norm_layer == nn.InstanceNorm2d
        if input_nc is None:
            input_nc = outer_nc
        downconv = nn.Conv2d(input_nc, inner_nc, kernel_size=4, stride=2, padding=1, bias=use_bias)
        downrelu = nn.LeakyReLU(0.2, True)
        downnorm = norm_layer(inner_nc)
        uprelu = nn.ReLU(True)
        upnorm = norm_layer(outer_nc)

        if outermost:
            upconv = nn.ConvTranspose2d(inner_nc * 2, outer_nc, kernel_size=4, stride=2, padding=1)
            down = [downconv]
            up = [uprelu, upconv, nn.Tanh()]
            model = down + [submodule] + up
        elif innermost:
            upconv = nn.ConvTranspose2d(inner_nc, outer_nc, kernel_size=4, stride=2, padding=1, bias=use_bias)
            down = [downrelu, downconv]
            up = [uprelu, upconv, upnorm]
            model = down + up
        else:
            upconv = nn.ConvTranspose2d(inner_nc * 2, outer_nc, kernel_size=4, stride=2, padding=1, bias=use_bias)
            down = [downrelu, downconv, downnorm]
            up = [uprelu, upconv, upnorm]
            if use_dropout:
                model = down + [submodule] + up + [nn.Dropout(0.5)]
            else:
                model = down + [submodule] + up

        self.model = nn.Sequential(*model)

    def forward(self, x):
        if self.outermost:
            return self.model(x)
        else:  # add skip connections
            return torch.cat([x, self.model(x)], 1)


class UnetGenerator(nn.Module):
    def __init__(self, input_nc, output_nc, num_downs, ngf=4, norm_layer=nn.BatchNorm2d, use_dropout=False):
        super(UnetGenerator, self).__init__()
        unet_block = UnetSkipConnectionBlock(ngf * 4, ngf * 4, input_nc=None, submodule=None,
                                             norm_layer=norm_layer, innermost=True)
        for i in range(num_downs - 4):
            unet_block = UnetSkipConnectionBlock(ngf * 4, ngf * 4, input_nc=None, submodule=unet_block,
                                                 norm_layer=norm_layer, use_dropout=use_dropout)
        unet_block = UnetSkipConnectionBlock(ngf * 2, ngf * 4, input_nc=None, submodule=unet_block,
                                             norm_layer=norm_layer)
        unet_block = UnetSkipConnectionBlock(ngf, ngf * 2, input_nc=None, submodule=unet_block, norm_layer=norm_layer)
        self.model = UnetSkipConnectionBlock(output_nc, ngf, input_nc=input_nc, submodule=unet_block,
                                             outermost=True, norm_layer=norm_layer)

    def forward(self, input):
        return self.model(input)


class NLayerDiscriminator(nn.Module):
    def __init__(self, input_nc, ndf=4, n_layers=2, norm_layer=nn.BatchNorm2d):
        super(NLayerDiscriminator, self).__init__()
        if type(norm_layer) == functools.partial:
            use_bias = norm_layer.func == nn.InstanceNorm2d
        else:
            use_bias = norm_layer == nn.InstanceNorm2d
        kw, padw = 4, 1
        sequence = [nn.Conv2d(input_nc, ndf, kernel_size=kw, stride=2, padding=padw), nn.LeakyReLU(0.2, True)]
        nf_mult = 1
        for n in range(1, n_layers):
            nf_mult_prev, nf_mult = nf_mult, min(2 ** n, 8)
            sequence += [
                nn.Conv2d(ndf * nf_mult_prev, ndf * nf_mult, kernel_size=kw, stride=2, padding=padw, bias=use_bias),
                norm_layer(ndf * nf_mult),
                nn.LeakyReLU(0.2, True),
            ]
        sequence += [nn.Conv2d(ndf * nf_mult, 1, kernel_size=kw, stride=1, padding=padw)]
        self.model = nn.Sequential(*sequence)

    def forward(self, input):
        return self.model(input)


class ResnetBlock(nn.Module):
    def __init__(self, dim, norm_layer):
        super(ResnetBlock, self).__init__()
        self.conv_block = nn.Sequential(nn.ReflectionPad2d(1), nn.Conv2d(dim, dim, kernel_size=3), norm_layer(dim),
                                        nn.ReLU(True), nn.ReflectionPad2d(1), nn.Conv2d(dim, dim, kernel_size=3),
                                        norm_layer(dim))

    def forward(self, x):
        return x + self.conv_block(x)


def init_weights(net, init_type="normal", init_gain=0.02):
    def init_func(m):
        classname = m.__class__.__name__
        if hasattr(m, "weight") and (classname.find("Conv") != -1 or classname.find("Linear") != -1):
            nn.init.normal_(m.weight.data, 0.0, init_gain)
            if hasattr(m, "bias") and m.bias is not None:
                nn.init.constant_(m.bias.data, 0.0)
        elif classname.find("BatchNorm2d") != -1:
            nn.init.normal_(m.weight.data, 1.0, init_gain)
            nn.init.constant_(m.bias.data, 0.0)

    net.apply(init_func)


class GANLoss(nn.Module):
    def __init__(self, gan_mode, target_real_label=1.0, target_fake_label=0.0):
        super(GANLoss, self).__init__()
        self.register_buffer("real_label", torch.tensor(target_real_label))
        self.register_buffer("fake_label", torch.tensor(target_fake_label))
        self.gan_mode = gan_mode
        if gan_mode == "lsgan":
            self.loss = nn.MSELoss()
        elif gan_mode == "vanilla":
            self.loss = nn.BCEWithLogitsLoss()

    def get_target_tensor(self, prediction, target_is_real):
        target_tensor = self.real_label if target_is_real else self.fake_label
        return target_tensor.expand_as(prediction)

    def __call__(self, prediction, target_is_real):
        return self.loss(prediction, self.get_target_tensor(prediction, target_is_real))


class ImagePool:
    def __init__(self, pool_size):
        self.pool_size = pool_size
        self.num_imgs = 0
        self.images = []

    def query(self, images):
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


norm_layer = functools.partial(nn.InstanceNorm2d, affine=False, track_running_stats=False)
netG = UnetGenerator(3, 3, 5, ngf=4, norm_layer=norm_layer)
netD = NLayerDiscriminator(6, ndf=4, n_layers=2, norm_layer=norm_layer)
init_weights(netG)
init_weights(netD)
print(netG.model.model[1].model[3])
print(netD)
print("G params", sum(p.numel() for p in netG.parameters()), "D params", sum(p.numel() for p in netD.parameters()))
print(list(dict(netG.named_buffers()).keys()), list(GANLoss("lsgan").state_dict().keys()))

optimizer_G = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizer_D = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
n_epochs, n_epochs_decay, epoch_count = 2, 2, 1


def lambda_rule(epoch):
    return 1.0 - max(0, epoch + epoch_count - n_epochs) / float(n_epochs_decay + 1)


schedulers = [torch.optim.lr_scheduler.LambdaLR(o, lr_lambda=lambda_rule) for o in (optimizer_G, optimizer_D)]
criterionGAN, criterionL1 = GANLoss("vanilla"), torch.nn.L1Loss()
pool = ImagePool(2)
real_A, real_B = torch.rand(2, 3, 32, 32) * 2 - 1, torch.rand(2, 3, 32, 32) * 2 - 1
for epoch in range(4):
    fake_B = netG(real_A)
    set_requires_grad(netD, True)
    optimizer_D.zero_grad()
    fake_AB = pool.query(torch.cat((real_A, fake_B), 1))
    loss_D_fake = criterionGAN(netD(fake_AB.detach()), False)
    loss_D_real = criterionGAN(netD(torch.cat((real_A, real_B), 1)), True)
    loss_D = (loss_D_fake + loss_D_real) * 0.5
    loss_D.backward()
    optimizer_D.step()
    set_requires_grad(netD, False)
    optimizer_G.zero_grad()
    loss_G_GAN = criterionGAN(netD(torch.cat((real_A, fake_B), 1)), True)
    loss_G_L1 = criterionL1(fake_B, real_B) * 100.0
    loss_G = loss_G_GAN + loss_G_L1
    loss_G.backward()
    optimizer_G.step()
    for s in schedulers:
        s.step()
    print(f"epoch {epoch} D {loss_D.item():.4f} G_GAN {loss_G_GAN.item():.4f} L1 {loss_G_L1.item():.3f} "
          f"lr {optimizer_G.param_groups[0]['lr']:.7f}")
print(fake_B.shape, fake_B.grad_fn.name(), round(fake_B.min().item(), 4), round(fake_B.max().item(), 4))

block = ResnetBlock(4, nn.InstanceNorm2d)
x = torch.randn(1, 4, 6, 6)
y = block(x)
print(block.conv_block[2], y.shape, round(y.std().item(), 4))
inorm = nn.InstanceNorm2d(4, affine=True, track_running_stats=True)
inorm.train()
z = inorm(x * 3 + 1)
print(z.mean(dim=(2, 3)).abs().max().item() < 1e-5, inorm.running_mean.round(decimals=4).tolist())
inorm.eval()
print(inorm(x).flatten()[:4].round(decimals=4).tolist(), inorm.num_batches_tracked)
up = nn.ConvTranspose2d(4, 2, kernel_size=3, stride=2, padding=1, output_padding=1)
print(up(x).shape, up(x, output_size=[11, 11]).shape, up.weight.shape)
