"""Few-shot classification as jakesnell/prototypical-networks, the matching-networks and
relation-network repositories write it: an episodic sampler (torch.randperm over classes, then
over each class's examples), prototypes as support means, squared Euclidean distances by
broadcasting and torch.cdist, log_softmax over negative distances, matching networks' cosine
attention, a relation module on concatenated pairs, and accuracy with argmax / eq."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
n_classes, per_class, dim = 10, 12, 16
class_means = torch.randn(n_classes, dim) * 2
data = class_means.repeat_interleave(per_class, dim=0) + torch.randn(n_classes * per_class, dim)
labels = torch.arange(n_classes).repeat_interleave(per_class)
print("dataset", tuple(data.shape), torch.bincount(labels).tolist()[:3])


class EpisodicBatchSampler(object):
    def __init__(self, n_classes, n_way, n_episodes):
        self.n_classes = n_classes
        self.n_way = n_way
        self.n_episodes = n_episodes

    def __len__(self):
        return self.n_episodes

    def __iter__(self):
        for i in range(self.n_episodes):
            yield torch.randperm(self.n_classes)[:self.n_way]


def make_episode(classes, n_support, n_query):
    xs, xq = [], []
    for c in classes:
        idx = torch.nonzero(labels == c, as_tuple=False).squeeze(1)
        perm = idx[torch.randperm(idx.numel())]
        xs.append(data[perm[:n_support]])
        xq.append(data[perm[n_support:n_support + n_query]])
    return torch.stack(xs), torch.stack(xq)


def euclidean_dist(x, y):
    # x: N x D, y: M x D
    n = x.size(0)
    m = y.size(0)
    d = x.size(1)
    assert d == y.size(1)
    x = x.unsqueeze(1).expand(n, m, d)
    y = y.unsqueeze(0).expand(n, m, d)
    return torch.pow(x - y, 2).sum(2)


class Protonet(nn.Module):
    def __init__(self, encoder):
        super(Protonet, self).__init__()
        self.encoder = encoder

    def loss(self, xs, xq):
        n_class = xs.size(0)
        n_support = xs.size(1)
        n_query = xq.size(1)
        target_inds = torch.arange(0, n_class).view(n_class, 1, 1).expand(n_class, n_query, 1).long()
        x = torch.cat([xs.view(n_class * n_support, *xs.size()[2:]), xq.view(n_class * n_query, *xq.size()[2:])], 0)
        z = self.encoder.forward(x)
        z_dim = z.size(-1)
        z_proto = z[:n_class * n_support].view(n_class, n_support, z_dim).mean(1)
        zq = z[n_class * n_support:]
        dists = euclidean_dist(zq, z_proto)
        log_p_y = F.log_softmax(-dists, dim=1).view(n_class, n_query, -1)
        loss_val = -log_p_y.gather(2, target_inds).squeeze().view(-1).mean()
        _, y_hat = log_p_y.max(2)
        acc_val = torch.eq(y_hat, target_inds.squeeze()).float().mean()
        return loss_val, {"loss": loss_val.item(), "acc": acc_val.item()}


encoder = nn.Sequential(nn.Linear(dim, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 16))
model = Protonet(encoder)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 5, gamma=0.5)
sampler = EpisodicBatchSampler(n_classes, n_way=5, n_episodes=12)
print("episodes", len(sampler))
for episode, classes in enumerate(sampler):
    xs, xq = make_episode(classes, n_support=3, n_query=4)
    optimizer.zero_grad()
    loss, output = model.loss(xs, xq)
    loss.backward()
    optimizer.step()
    scheduler.step()
    if episode % 4 == 0:
        print(f"episode {episode} classes {classes.tolist()} loss {output['loss']:.4f} acc {output['acc']:.4f}")

model.eval()
with torch.no_grad():
    xs, xq = make_episode(torch.arange(5, 10), n_support=5, n_query=6)
    loss, out = model.loss(xs, xq)
    print("eval", round(out["loss"], 4), round(out["acc"], 4))
    z = encoder(torch.cat([xs.flatten(0, 1), xq.flatten(0, 1)]))
    protos = z[:25].view(5, 5, -1).mean(1)
    d1 = euclidean_dist(z[25:], protos)
    d2 = torch.cdist(z[25:], protos).pow(2)
    d3 = (z[25:].pow(2).sum(1, keepdim=True) - 2 * z[25:] @ protos.t() + protos.pow(2).sum(1))
    print("dist forms agree", torch.allclose(d1, d2, rtol=1e-4, atol=1e-3), torch.allclose(d1, d3, rtol=1e-4, atol=1e-3))

    # matching networks: attention over the support set with cosine similarity
    support, query = z[:25], z[25:]
    support_labels = F.one_hot(torch.arange(5).repeat_interleave(5), 5).float()
    sims = F.cosine_similarity(query.unsqueeze(1), support.unsqueeze(0), dim=2)
    attention = F.softmax(sims * 10, dim=1)
    preds = attention @ support_labels
    target = torch.arange(5).repeat_interleave(6)
    print("matching acc", (preds.argmax(1) == target).float().mean().item(), "row sums", preds.sum(1)[:3].tolist())
    normed = F.normalize(query, dim=1) @ F.normalize(support, dim=1).t()
    print("cosine via normalize", torch.allclose(normed, sims, atol=1e-6))


class RelationModule(nn.Module):
    def __init__(self, feat, hidden):
        super().__init__()
        self.layer = nn.Sequential(nn.Linear(2 * feat, hidden), nn.ReLU(), nn.Linear(hidden, 1), nn.Sigmoid())

    def forward(self, pairs):
        return self.layer(pairs)


relation = RelationModule(16, 8)
opt = torch.optim.Adam(list(relation.parameters()) + list(encoder.parameters()), lr=1e-3)
encoder.train()
mse = nn.MSELoss()
for step in range(10):
    classes = torch.randperm(n_classes)[:5]
    xs, xq = make_episode(classes, n_support=1, n_query=3)
    zs = encoder(xs.squeeze(1))
    zq = encoder(xq.flatten(0, 1))
    pairs = torch.cat([zs.unsqueeze(0).expand(zq.size(0), -1, -1), zq.unsqueeze(1).expand(-1, 5, -1)], dim=2)
    scores = relation(pairs.view(-1, 32)).view(-1, 5)
    one_hot = torch.zeros(15, 5).scatter_(1, torch.arange(5).repeat_interleave(3).unsqueeze(1), 1)
    loss = mse(scores, one_hot)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(relation.parameters(), 0.5)
    opt.step()
print("relation loss", round(loss.item(), 4), "scores", tuple(scores.shape), scores[0].round(decimals=3).tolist())
