"""Regularised autoencoders as the classic tutorials write them: a contractive autoencoder whose
penalty is the Frobenius norm of the encoder Jacobian (closed form for a sigmoid layer and by
torch.autograd.functional.jacobian / create_graph=True), a sparse autoencoder with the KL sparsity
penalty on mean activations, a denoising autoencoder with masking noise via torch.bernoulli, tied
weights through F.linear(h, W.t()), and a k-sparse autoencoder keeping the top-k activations with
topk and scatter."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
n, d, h = 64, 12, 5
latent = torch.randn(n, 3)
data = torch.sigmoid(latent @ torch.randn(3, d) + 0.1 * torch.randn(n, d))


class CAE(nn.Module):
    def __init__(self):
        super(CAE, self).__init__()
        self.fc1 = nn.Linear(d, h, bias=False)
        self.fc2 = nn.Linear(h, d, bias=False)

    def encoder(self, x):
        return torch.sigmoid(self.fc1(x))

    def decoder(self, z):
        return torch.sigmoid(self.fc2(z))

    def forward(self, x):
        h1 = self.encoder(x)
        return h1, self.decoder(h1)


def loss_function(W, x, recons_x, h, lam):
    mse_loss = nn.BCELoss(reduction="sum")
    mse = mse_loss(recons_x, x)
    dh = h * (1 - h)
    w_sum = torch.sum(W ** 2, dim=1)
    w_sum = w_sum.unsqueeze(1)
    contractive_loss = torch.sum(torch.mm(dh ** 2, w_sum), 0)
    return mse + contractive_loss.mul_(lam)


cae = CAE()
opt = torch.optim.Adam(cae.parameters(), lr=0.01)
for epoch in range(40):
    h1, recon = cae(data)
    W = cae.state_dict()["fc1.weight"]
    loss = loss_function(W, data, recon, h1, 1e-2)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("cae loss", round(loss.item(), 4), "state_dict weight is detached", W.requires_grad)

x0 = data[:4]
J = torch.autograd.functional.jacobian(cae.encoder, x0)  # [4, h, 4, d]
J_per = torch.stack([J[i, :, i, :] for i in range(4)])
closed = (h1[:4] * (1 - h1[:4])).unsqueeze(2) * cae.fc1.weight.unsqueeze(0)
print("jacobian", tuple(J.shape), "closed form matches", torch.allclose(J_per, closed, atol=1e-6))
print("frobenius", J_per.pow(2).sum(dim=(1, 2)).round(decimals=6).tolist())

# the same penalty through create_graph=True on each hidden unit
x = x0.clone().requires_grad_(True)
hid = cae.encoder(x)
pen = 0
for j in range(h):
    g, = torch.autograd.grad(hid[:, j].sum(), x, create_graph=True)
    pen = pen + g.pow(2).sum()
pen.backward()
print("autograd penalty", round(pen.item(), 6), "== closed", round(closed.pow(2).sum().item(), 6),
      "grad wrt W", round(cae.fc1.weight.grad.abs().sum().item(), 6))


# sparse autoencoder with KL sparsity on the mean activation
def kl_divergence(p, p_hat):
    p_hat = torch.clamp(p_hat, 1e-6, 1 - 1e-6)
    return torch.sum(p * torch.log(p / p_hat) + (1 - p) * torch.log((1 - p) / (1 - p_hat)))


class TiedAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.W = nn.Parameter(torch.randn(h, d) * 0.1)
        self.b_enc = nn.Parameter(torch.zeros(h))
        self.b_dec = nn.Parameter(torch.zeros(d))

    def forward(self, x):
        z = torch.sigmoid(F.linear(x, self.W, self.b_enc))
        return z, torch.sigmoid(F.linear(z, self.W.t(), self.b_dec))


sae = TiedAE()
opt = torch.optim.SGD(sae.parameters(), lr=0.5, momentum=0.9)
rho = 0.05
for epoch in range(60):
    z, recon = sae(data)
    rho_hat = z.mean(0)
    loss = F.mse_loss(recon, data) + 0.1 * kl_divergence(torch.tensor(rho), rho_hat)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("sparse ae", round(loss.item(), 5), "mean activations", z.mean(0).round(decimals=3).tolist())
print("tied params", [n for n, _ in sae.named_parameters()])

# denoising autoencoder with masking noise
dae = nn.Sequential(nn.Linear(d, 8), nn.ReLU(), nn.Linear(8, d), nn.Sigmoid())
opt = torch.optim.Adam(dae.parameters(), lr=0.01)
for epoch in range(40):
    mask = torch.bernoulli(torch.full_like(data, 0.7))
    noisy = data * mask
    loss = F.binary_cross_entropy(dae(noisy), data)
    opt.zero_grad()
    loss.backward()
    opt.step()
with torch.no_grad():
    clean_err = F.binary_cross_entropy(dae(data), data).item()
    corrupted = data * torch.bernoulli(torch.full_like(data, 0.7))
    print("dae", round(loss.item(), 4), "clean", round(clean_err, 4), "noisy input", round(F.binary_cross_entropy(dae(corrupted), data).item(), 4))


# k-sparse autoencoder
class KSparse(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k
        self.enc = nn.Linear(d, 10)
        self.dec = nn.Linear(10, d)

    def forward(self, x):
        z = self.enc(x)
        topk = torch.topk(z, self.k, dim=1)
        sparse = torch.zeros_like(z).scatter(1, topk.indices, topk.values)
        return sparse, self.dec(sparse)


ks = KSparse(3)
opt = torch.optim.Adam(ks.parameters(), lr=0.01)
for epoch in range(40):
    z, recon = ks(data)
    loss = F.mse_loss(recon, data)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("k-sparse", round(loss.item(), 5), "nonzeros per row", (z != 0).sum(1)[:5].tolist(),
      "grad only through kept", int((ks.enc.weight.grad.abs().sum(1) > 0).sum()))
