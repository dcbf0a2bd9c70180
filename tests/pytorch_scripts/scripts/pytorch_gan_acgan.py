# eriklindernoren/PyTorch-GAN style (acgan.py / infogan.py), trimmed: the Tensor type picked by hand
# (torch.cuda.FloatTensor if cuda else torch.FloatTensor, LongTensor likewise), Variable targets built
# with Tensor(n, 1).fill_(1.0), noise from NumPy (Tensor(np.random.normal(...))), label embedding
# multiplied into the noise, an auxiliary classifier head (adversarial + auxiliary losses), InfoGAN's
# to_categorical with np.eye and its information loss, discriminator accuracy with np.concatenate.
import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Variable

np.random.seed(0)
torch.manual_seed(0)
cuda = True if torch.cuda.is_available() else False
n_classes, latent_dim, img_size, channels, code_dim = 3, 6, 8, 1, 2
FloatTensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor
LongTensor = torch.cuda.LongTensor if cuda else torch.LongTensor


def weights_init_normal(m):
    classname = m.__class__.__name__
    if classname.find("Conv") != -1:
        torch.nn.init.normal_(m.weight.data, 0.0, 0.02)
    elif classname.find("BatchNorm2d") != -1:
        torch.nn.init.normal_(m.weight.data, 1.0, 0.02)
        torch.nn.init.constant_(m.bias.data, 0.0)


def to_categorical(y, num_columns):
    y_cat = np.zeros((y.shape[0], num_columns))
    y_cat[range(y.shape[0]), y] = 1.0
    return Variable(FloatTensor(y_cat))


class Generator(nn.Module):
    def __init__(self):
        super(Generator, self).__init__()
        self.label_emb = nn.Embedding(n_classes, latent_dim)
        self.init_size = img_size // 4
        self.l1 = nn.Sequential(nn.Linear(latent_dim, 8 * self.init_size ** 2))
        self.conv_blocks = nn.Sequential(
            nn.BatchNorm2d(8),
            nn.Upsample(scale_factor=2),
            nn.Conv2d(8, 8, 3, stride=1, padding=1),
            nn.BatchNorm2d(8, 0.8),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Upsample(scale_factor=2),
            nn.Conv2d(8, 4, 3, stride=1, padding=1),
            nn.BatchNorm2d(4, 0.8),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(4, channels, 3, stride=1, padding=1),
            nn.Tanh(),
        )

    def forward(self, noise, labels):
        gen_input = torch.mul(self.label_emb(labels), noise)
        out = self.l1(gen_input)
        out = out.view(out.shape[0], 8, self.init_size, self.init_size)
        return self.conv_blocks(out)


class Discriminator(nn.Module):
    def __init__(self):
        super(Discriminator, self).__init__()

        def discriminator_block(in_filters, out_filters, bn=True):
            block = [nn.Conv2d(in_filters, out_filters, 3, 2, 1), nn.LeakyReLU(0.2, inplace=True), nn.Dropout2d(0.25)]
            if bn:
                block.append(nn.BatchNorm2d(out_filters, 0.8))
            return block

        self.conv_blocks = nn.Sequential(*discriminator_block(channels, 4, bn=False), *discriminator_block(4, 8))
        ds_size = img_size // 2 ** 2
        self.adv_layer = nn.Sequential(nn.Linear(8 * ds_size ** 2, 1), nn.Sigmoid())
        self.aux_layer = nn.Sequential(nn.Linear(8 * ds_size ** 2, n_classes), nn.Softmax())
        self.latent_layer = nn.Sequential(nn.Linear(8 * ds_size ** 2, code_dim))

    def forward(self, img):
        out = self.conv_blocks(img)
        out = out.view(out.shape[0], -1)
        validity = self.adv_layer(out)
        label = self.aux_layer(out)
        return validity, label, self.latent_layer(out)


adversarial_loss = torch.nn.BCELoss()
auxiliary_loss = torch.nn.CrossEntropyLoss()
continuous_loss = torch.nn.MSELoss()
generator = Generator()
discriminator = Discriminator()
generator.apply(weights_init_normal)
discriminator.apply(weights_init_normal)
print('bn eps', generator.conv_blocks[3].eps, 'bn momentum', generator.conv_blocks[3].momentum)
with torch.no_grad():
    for net, k in ((generator, 0.71), (discriminator, 0.53)):
        for i, p in enumerate(net.parameters()):
            if p.dim() > 1:
                p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * k + i).view_as(p) * 0.2)
optimizer_G = torch.optim.Adam(generator.parameters(), lr=2e-3, betas=(0.5, 0.999))
optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=2e-3, betas=(0.5, 0.999))
imgs = torch.tanh(torch.sin(torch.arange(4 * img_size * img_size, dtype=torch.float32) * 0.17)).view(4, 1, img_size, img_size)
labels = torch.tensor([0, 1, 2, 1])
print('types', FloatTensor.__name__, isinstance(imgs, FloatTensor), isinstance(labels, LongTensor), isinstance(imgs, torch.cuda.FloatTensor))
print('to_categorical', to_categorical(np.array([2, 0]), 3).tolist())
for i in range(2):
    batch_size = imgs.shape[0]
    valid = Variable(FloatTensor(batch_size, 1).fill_(1.0), requires_grad=False)
    fake = Variable(FloatTensor(batch_size, 1).fill_(0.0), requires_grad=False)
    real_imgs = Variable(imgs.type(FloatTensor))
    labels_v = Variable(labels.type(LongTensor))
    optimizer_G.zero_grad()
    z = Variable(FloatTensor(np.random.normal(0, 1, (batch_size, latent_dim))))
    gen_labels = Variable(LongTensor(np.random.randint(0, n_classes, batch_size)))
    gen_imgs = generator(z, gen_labels)
    validity, pred_label, _ = discriminator(gen_imgs)
    g_loss = 0.5 * (adversarial_loss(validity, valid) + auxiliary_loss(pred_label, gen_labels))
    g_loss.backward()
    optimizer_G.step()
    optimizer_D.zero_grad()
    real_pred, real_aux, _ = discriminator(real_imgs)
    d_real_loss = (adversarial_loss(real_pred, valid) + auxiliary_loss(real_aux, labels_v)) / 2
    fake_pred, fake_aux, _ = discriminator(gen_imgs.detach())
    d_fake_loss = (adversarial_loss(fake_pred, fake) + auxiliary_loss(fake_aux, gen_labels)) / 2
    d_loss = (d_real_loss + d_fake_loss) / 2
    pred = np.concatenate([real_aux.data.cpu().numpy(), fake_aux.data.cpu().numpy()], axis=0)
    gt = np.concatenate([labels_v.data.cpu().numpy(), gen_labels.data.cpu().numpy()], axis=0)
    d_acc = np.mean(np.argmax(pred, axis=1) == gt)
    d_loss.backward()
    optimizer_D.step()
    print("[Batch %d] [D loss: %f, acc: %d%%] [G loss: %f] gen_labels %s" % (i, d_loss.item(), 100 * d_acc, g_loss.item(), gen_labels.tolist()))
optimizer_info = torch.optim.Adam(list(generator.parameters()) + list(discriminator.parameters()), lr=2e-3, betas=(0.5, 0.999))
optimizer_info.zero_grad()
sampled_labels = np.random.randint(0, n_classes, 4)
gt_labels = Variable(LongTensor(sampled_labels), requires_grad=False)
code_input = Variable(FloatTensor(np.random.uniform(-1, 1, (4, code_dim))))
z = Variable(FloatTensor(np.random.normal(0, 1, (4, latent_dim))))
gen_imgs = generator(z, gt_labels)
_, pred_label, pred_code = discriminator(gen_imgs)
info_loss = auxiliary_loss(pred_label, gt_labels) + 0.1 * continuous_loss(pred_code, code_input)
info_loss.backward()
optimizer_info.step()
print('info loss %.5f' % info_loss.item(), 'sampled', sampled_labels.tolist(), tuple(gen_imgs.shape))
