"""WGAN and WGAN-GP as the popular reference implementations write them (eriklindernoren/PyTorch-GAN,
caogang/wgan-gp): the original WGAN critic with RMSprop and weight clipping by p.data.clamp_, the
gradient penalty from torch.autograd.grad(outputs, inputs, grad_outputs=ones, create_graph=True,
retain_graph=True, only_inputs=True) on random interpolates, n_critic steps per generator step,
requires_grad toggling on the critic, Adam with betas=(0.0, 0.9), and R1 regularisation on reals."""
import torch
import torch.autograd as autograd
import torch.nn as nn

torch.manual_seed(0)
latent_dim, data_dim = 4, 2


class Generator(nn.Module):
    def __init__(self):
        super().__init__()

        def block(in_feat, out_feat, normalize=True):
            layers = [nn.Linear(in_feat, out_feat)]
            if normalize:
                layers.append(nn.BatchNorm1d(out_feat, 0.8))
            layers.append(nn.LeakyReLU(0.2, inplace=True))
            return layers

        self.model = nn.Sequential(
            *block(latent_dim, 16, normalize=False),
            *block(16, 16),
            nn.Linear(16, data_dim),
        )

    def forward(self, z):
        return self.model(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(
            nn.Linear(data_dim, 16),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(16, 8),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(8, 1),
        )

    def forward(self, x):
        return self.model(x)


def real_batch(n):
    angles = torch.rand(n) * 2 * torch.pi
    return torch.stack([angles.cos(), angles.sin()], dim=1) * 2 + 0.05 * torch.randn(n, 2)


def compute_gradient_penalty(D, real_samples, fake_samples):
    """Calculates the gradient penalty loss for WGAN GP"""
    alpha = torch.rand((real_samples.size(0), 1))
    interpolates = (alpha * real_samples + ((1 - alpha) * fake_samples)).requires_grad_(True)
    d_interpolates = D(interpolates)
    fake = torch.ones(real_samples.shape[0], 1, requires_grad=False)
    gradients = autograd.grad(
        outputs=d_interpolates,
        inputs=interpolates,
        grad_outputs=fake,
        create_graph=True,
        retain_graph=True,
        only_inputs=True,
    )[0]
    gradients = gradients.view(gradients.size(0), -1)
    gradient_penalty = ((gradients.norm(2, dim=1) - 1) ** 2).mean()
    return gradient_penalty


# --- original WGAN: weight clipping
generator, discriminator = Generator(), Discriminator()
optimizer_G = torch.optim.RMSprop(generator.parameters(), lr=0.005)
optimizer_D = torch.optim.RMSprop(discriminator.parameters(), lr=0.005)
for i in range(10):
    real = real_batch(16)
    optimizer_D.zero_grad()
    z = torch.randn(16, latent_dim)
    fake = generator(z).detach()
    loss_D = -torch.mean(discriminator(real)) + torch.mean(discriminator(fake))
    loss_D.backward()
    optimizer_D.step()
    for p in discriminator.parameters():
        p.data.clamp_(-0.01, 0.01)
    if i % 5 == 4:
        optimizer_G.zero_grad()
        gen = generator(z)
        loss_G = -torch.mean(discriminator(gen))
        loss_G.backward()
        optimizer_G.step()
        print(f"[clip {i}] D {loss_D.item():.5f} G {loss_G.item():.5f}")
print("max |w|", max(p.abs().max().item() for p in discriminator.parameters()))

# --- WGAN-GP
torch.manual_seed(1)
generator, discriminator = Generator(), Discriminator()
optimizer_G = torch.optim.Adam(generator.parameters(), lr=1e-3, betas=(0.0, 0.9))
optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=1e-3, betas=(0.0, 0.9))
lambda_gp, n_critic = 10, 3
for i in range(9):
    real = real_batch(16)
    for p in discriminator.parameters():
        p.requires_grad = True
    optimizer_D.zero_grad()
    z = torch.randn(16, latent_dim)
    fake_imgs = generator(z)
    real_validity = discriminator(real)
    fake_validity = discriminator(fake_imgs.detach())
    gradient_penalty = compute_gradient_penalty(discriminator, real.data, fake_imgs.data)
    d_loss = -torch.mean(real_validity) + torch.mean(fake_validity) + lambda_gp * gradient_penalty
    d_loss.backward()
    optimizer_D.step()
    if i % n_critic == n_critic - 1:
        for p in discriminator.parameters():
            p.requires_grad = False
        optimizer_G.zero_grad()
        g_loss = -torch.mean(discriminator(generator(z)))
        g_loss.backward()
        optimizer_G.step()
        print(f"[gp {i}] D {d_loss.item():.4f} GP {gradient_penalty.item():.4f} G {g_loss.item():.4f}",
              discriminator.model[0].weight.grad is None)

# --- R1 penalty on reals (StyleGAN-style), and a gradient-of-gradient check
for p in discriminator.parameters():
    p.requires_grad_(True)
real = real_batch(8).requires_grad_()
out = discriminator(real)
(grad_real,) = torch.autograd.grad(outputs=out.sum(), inputs=real, create_graph=True)
r1 = grad_real.pow(2).reshape(grad_real.shape[0], -1).sum(1).mean()
r1.backward()
print("r1", round(r1.item(), 5), grad_real.grad_fn is not None)
print("d w grad", round(discriminator.model[0].weight.grad.norm().item(), 5))

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x ** 3).sum()
(g,) = torch.autograd.grad(y, x, create_graph=True)
(h,) = torch.autograd.grad(g.sum(), x)
print(g.tolist(), h.tolist(), g.grad_fn.name())
try:
    torch.autograd.grad(y, x)
except RuntimeError as e:
    print("second grad:", str(e)[:70])
print(torch.autograd.grad((x * 2).sum(), [x, torch.ones(2, requires_grad=True)], allow_unused=True))
