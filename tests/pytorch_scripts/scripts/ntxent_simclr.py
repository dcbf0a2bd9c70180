"""SimCLR as Spijkervet/SimCLR and sthalles/SimCLR write it: the NT_Xent module with
mask_correlated_samples (fill_diagonal_ on a bool mask), CosineSimilarity over unsqueezed pairs,
torch.diag with offsets, cat of positives and masked negatives, CrossEntropyLoss(reduction='sum') over
zero labels; the projection head, a random augmentation with flips and noise, LARS-free Adam training,
and a linear-evaluation probe on frozen features with torch.no_grad."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class NT_Xent(nn.Module):
    def __init__(self, batch_size, temperature, world_size):
        super(NT_Xent, self).__init__()
        self.batch_size = batch_size
        self.temperature = temperature
        self.world_size = world_size
        self.mask = self.mask_correlated_samples(batch_size, world_size)
        self.criterion = nn.CrossEntropyLoss(reduction="sum")
        self.similarity_f = nn.CosineSimilarity(dim=2)

    def mask_correlated_samples(self, batch_size, world_size):
        N = 2 * batch_size * world_size
        mask = torch.ones((N, N), dtype=bool)
        mask = mask.fill_diagonal_(0)
        for i in range(batch_size * world_size):
            mask[i, batch_size * world_size + i] = 0
            mask[batch_size * world_size + i, i] = 0
        return mask

    def forward(self, z_i, z_j):
        N = 2 * self.batch_size * self.world_size
        z = torch.cat((z_i, z_j), dim=0)
        sim = self.similarity_f(z.unsqueeze(1), z.unsqueeze(0)) / self.temperature
        sim_i_j = torch.diag(sim, self.batch_size * self.world_size)
        sim_j_i = torch.diag(sim, -self.batch_size * self.world_size)
        positive_samples = torch.cat((sim_i_j, sim_j_i), dim=0).reshape(N, 1)
        negative_samples = sim[self.mask].reshape(N, -1)
        labels = torch.zeros(N).to(positive_samples.device).long()
        logits = torch.cat((positive_samples, negative_samples), dim=1)
        loss = self.criterion(logits, labels)
        loss /= N
        return loss


class SimCLR(nn.Module):
    def __init__(self, encoder, projection_dim, n_features):
        super(SimCLR, self).__init__()
        self.encoder = encoder
        self.n_features = n_features
        self.encoder.fc = nn.Identity()
        self.projector = nn.Sequential(
            nn.Linear(self.n_features, self.n_features, bias=False),
            nn.ReLU(),
            nn.Linear(self.n_features, projection_dim, bias=False),
        )

    def forward(self, x_i, x_j):
        h_i = self.encoder(x_i)
        h_j = self.encoder(x_j)
        z_i = self.projector(h_i)
        z_j = self.projector(h_j)
        return h_i, h_j, z_i, z_j


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        return self.fc(self.conv(x))


def augment(x):
    flip = torch.rand(x.size(0), 1, 1, 1) < 0.5
    x = torch.where(flip, x.flip(-1), x)
    return x + 0.1 * torch.randn_like(x)


mask = NT_Xent(4, 0.5, 1).mask
print(mask.dtype, mask.sum().item(), mask[0].int())
model = SimCLR(Encoder(), projection_dim=4, n_features=8)
print(model.encoder.fc, model)
criterion = NT_Xent(batch_size=8, temperature=0.5, world_size=1)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
images = torch.randn(32, 1, 6, 6)
labels = (images.mean((1, 2, 3)) > 0).long()
for epoch in range(2):
    loss_epoch = 0
    for step, x in enumerate(images.split(8)):
        optimizer.zero_grad()
        x_i, x_j = augment(x), augment(x)
        h_i, h_j, z_i, z_j = model(x_i, x_j)
        loss = criterion(z_i, z_j)
        loss.backward()
        optimizer.step()
        loss_epoch += loss.item()
    print(f"Epoch [{epoch}/2]\t Loss: {loss_epoch / 4}")


def info_nce_loss(features, batch_size, n_views=2, temperature=0.07):
    labels = torch.cat([torch.arange(batch_size) for i in range(n_views)], dim=0)
    labels = (labels.unsqueeze(0) == labels.unsqueeze(1)).float()
    features = F.normalize(features, dim=1)
    similarity_matrix = torch.matmul(features, features.T)
    mask = torch.eye(labels.shape[0], dtype=torch.bool)
    labels = labels[~mask].view(labels.shape[0], -1)
    similarity_matrix = similarity_matrix[~mask].view(similarity_matrix.shape[0], -1)
    positives = similarity_matrix[labels.bool()].view(labels.shape[0], -1)
    negatives = similarity_matrix[~labels.bool()].view(similarity_matrix.shape[0], -1)
    logits = torch.cat([positives, negatives], dim=1)
    labels = torch.zeros(logits.shape[0], dtype=torch.long)
    logits = logits / temperature
    return logits, labels


with torch.no_grad():
    _, _, z_i, z_j = model(images[:8], images[:8].flip(-1))
logits, lab = info_nce_loss(torch.cat([z_i, z_j]), 8)
print(logits.shape, F.cross_entropy(logits, lab).item(), criterion(z_i, z_j).item())


def accuracy(output, target, topk=(1,)):
    with torch.no_grad():
        maxk = max(topk)
        batch_size = target.size(0)
        _, pred = output.topk(maxk, 1, True, True)
        pred = pred.t()
        correct = pred.eq(target.view(1, -1).expand_as(pred))
        res = []
        for k in topk:
            correct_k = correct[:k].reshape(-1).float().sum(0, keepdim=True)
            res.append(correct_k.mul_(100.0 / batch_size))
        return res


print(accuracy(logits, lab, topk=(1, 5)))
model.eval()
with torch.no_grad():
    feats = model.encoder(images)
probe = nn.Linear(8, 2)
opt = torch.optim.SGD(probe.parameters(), lr=0.5)
for _ in range(20):
    opt.zero_grad()
    l = F.cross_entropy(probe(feats), labels)
    l.backward()
    opt.step()
print(round(l.item(), 4), (probe(feats).argmax(1) == labels).float().mean().item(), feats.requires_grad)
