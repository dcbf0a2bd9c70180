import torch
import torch.utils.data
from torch import nn, optim
from torch.nn import functional as F


class VAE(nn.Module):
    def __init__(self):
        super(VAE, self).__init__()
        self.fc1 = nn.Linear(784, 40)
        self.fc21 = nn.Linear(40, 8)
        self.fc22 = nn.Linear(40, 8)
        self.fc3 = nn.Linear(8, 40)
        self.fc4 = nn.Linear(40, 784)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.ones_like(std) * 0.1
        return mu + eps * std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 784))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 784), reduction='sum')
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD


device = torch.device("cpu")
model = VAE().to(device)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.08, 0.08, p.numel()).reshape(p.shape).roll(11 * i))
optimizer = optim.Adam(model.parameters(), lr=1e-3)
data = (torch.arange(32 * 784).reshape(32, 1, 28, 28) % 13 / 13.0).float()
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(data, torch.zeros(32)), batch_size=8, shuffle=False)
model.train()
for epoch in range(1, 3):
    train_loss = 0
    for batch_idx, (x, _) in enumerate(loader):
        x = x.to(device)
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(x)
        loss = loss_function(recon_batch, x, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
    print('====> Epoch: {} Average loss: {:.4f}'.format(epoch, train_loss / len(loader.dataset)))
model.eval()
with torch.no_grad():
    sample = torch.linspace(-1, 1, 64 * 8).reshape(64, 8).to(device)
    sample = model.decode(sample).cpu()
    print(sample.view(64, 1, 28, 28).shape, sample.mean().item(), sample[0, :4])
    recon, mu, logvar = model(data[:8])
    comparison = torch.cat([data[:8], recon.view(8, 1, 28, 28)])
    print(comparison.shape, mu[0], logvar.dtype)
print(optimizer.state_dict()["state"][0]["step"], optimizer.state_dict()["state"][0]["exp_avg"].shape)
print(optimizer)
