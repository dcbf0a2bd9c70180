"""Metric learning as public code writes it: pytorch/examples siamese_network (a shared encoder whose
children() are rebuilt into a Sequential, concatenated embeddings, BCELoss, torch.where predictions,
Adadelta with StepLR), the classic ContrastiveLoss with pairwise_distance, TripletMarginLoss with
hard-negative mining through cdist, and SimCLR's info_nce_loss built with boolean masks."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(4)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(4, 8, 3, padding=1)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(8, 10)


class SiameseNetwork(nn.Module):
    def __init__(self):
        super(SiameseNetwork, self).__init__()
        self.resnet = Encoder()
        self.resnet.conv1 = nn.Conv2d(1, 4, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), bias=False)
        self.fc_in_features = self.resnet.fc.in_features
        self.resnet = torch.nn.Sequential(*(list(self.resnet.children())[:-1]))
        self.fc = nn.Sequential(
            nn.Linear(self.fc_in_features * 2, 16),
            nn.ReLU(inplace=True),
            nn.Linear(16, 1),
        )
        self.sigmoid = nn.Sigmoid()
        self.resnet.apply(self.init_weights)
        self.fc.apply(self.init_weights)

    def init_weights(self, m):
        if isinstance(m, nn.Linear):
            torch.nn.init.xavier_uniform_(m.weight)
            m.bias.data.fill_(0.01)

    def forward_once(self, x):
        output = self.resnet(x)
        output = output.view(output.size()[0], -1)
        return output

    def forward(self, input1, input2):
        output1 = self.forward_once(input1)
        output2 = self.forward_once(input2)
        output = torch.cat((output1, output2), 1)
        output = self.fc(output)
        output = self.sigmoid(output)
        return output


torch.manual_seed(1)
model = SiameseNetwork()
print(model.resnet, model.fc_in_features)
images = torch.rand(40, 1, 8, 8)
classes = torch.randint(0, 3, (40,))
images[torch.arange(40), 0, classes * 2, :] += 1.0


def make_pairs(n):
    idx1 = torch.randint(0, 40, (n,))
    same = torch.rand(n) < 0.5
    idx2 = torch.empty(n, dtype=torch.long)
    for i in range(n):
        candidates = torch.nonzero((classes == classes[idx1[i]]) == same[i]).squeeze(1)
        idx2[i] = candidates[torch.randint(0, len(candidates), (1,))]
    return images[idx1], images[idx2], (classes[idx1] == classes[idx2]).float()


optimizer = optim.Adadelta(model.parameters(), lr=1.0)
scheduler = StepLR(optimizer, step_size=1, gamma=0.7)
criterion = nn.BCELoss()
for epoch in range(1, 4):
    model.train()
    for batch_idx in range(3):
        images_1, images_2, targets = make_pairs(16)
        optimizer.zero_grad()
        outputs = model(images_1, images_2).squeeze()
        loss = criterion(outputs, targets)
        loss.backward()
        optimizer.step()
    model.eval()
    test_loss, correct = 0, 0
    with torch.no_grad():
        images_1, images_2, targets = make_pairs(20)
        outputs = model(images_1, images_2).squeeze()
        test_loss += criterion(outputs, targets).sum().item()
        pred = torch.where(outputs > 0.5, 1, 0)
        correct += pred.eq(targets.view_as(pred)).sum().item()
    print('Epoch {} train loss {:.4f} | test loss {:.4f}, Accuracy: {}/{} ({:.0f}%) lr {:.4f}'.format(
        epoch, loss.item(), test_loss, correct, 20, 100. * correct / 20, scheduler.get_last_lr()[0]))
    scheduler.step()
print(pred.dtype, pred[:6], targets.view_as(pred).dtype)


class ContrastiveLoss(torch.nn.Module):
    def __init__(self, margin=2.0):
        super(ContrastiveLoss, self).__init__()
        self.margin = margin

    def forward(self, output1, output2, label):
        euclidean_distance = F.pairwise_distance(output1, output2, keepdim=True)
        loss_contrastive = torch.mean((1 - label) * torch.pow(euclidean_distance, 2) +
                                      (label) * torch.pow(torch.clamp(self.margin - euclidean_distance, min=0.0), 2))
        return loss_contrastive


torch.manual_seed(2)
net = nn.Sequential(nn.Flatten(), nn.Linear(64, 16), nn.ReLU(), nn.Linear(16, 4))
criterion = ContrastiveLoss()
optimizer = optim.Adam(net.parameters(), lr=0.005)
for step in range(4):
    img0, img1, same = make_pairs(16)
    label = (1 - same).unsqueeze(1)
    optimizer.zero_grad()
    output1, output2 = net(img0), net(img1)
    loss_contrastive = criterion(output1, output2, label)
    loss_contrastive.backward()
    optimizer.step()
    print(step, f'{loss_contrastive.item():.5f}', F.pairwise_distance(output1, output2)[:3])

# triplet loss with batch-hard mining
triplet = nn.TripletMarginLoss(margin=1.0, p=2)
emb = net(images)
dist = torch.cdist(emb, emb)
same = classes.unsqueeze(0) == classes.unsqueeze(1)
hardest_pos = (dist * same.float()).argmax(1)
hardest_neg = dist.masked_fill(same, float('inf')).argmin(1)
loss = triplet(emb, emb[hardest_pos], emb[hardest_neg])
loss.backward()
print(f'{loss.item():.5f}', hardest_pos[:6], hardest_neg[:6], net[1].weight.grad.norm() > 0)
print(F.triplet_margin_loss(emb[:4], emb[4:8], emb[8:12], margin=0.5, swap=True).item() >= 0,
      nn.CosineEmbeddingLoss(margin=0.2)(emb[:6], emb[6:12], torch.tensor([1, -1, 1, -1, 1, -1])).item() >= 0)
print(F.cosine_similarity(emb[:3], emb[3:6]), F.cosine_similarity(emb[:1], emb[1:4], dim=1).shape)


def info_nce_loss(features, batch_size, n_views=2, temperature=0.07):
    labels = torch.cat([torch.arange(batch_size) for i in range(n_views)], dim=0)
    labels = (labels.unsqueeze(0) == labels.unsqueeze(1)).float()
    features = F.normalize(features, dim=1)
    similarity_matrix = torch.matmul(features, features.T)
    assert similarity_matrix.shape == (n_views * batch_size, n_views * batch_size)
    assert similarity_matrix.shape == labels.shape
    mask = torch.eye(labels.shape[0], dtype=torch.bool)
    labels = labels[~mask].view(labels.shape[0], -1)
    similarity_matrix = similarity_matrix[~mask].view(similarity_matrix.shape[0], -1)
    positives = similarity_matrix[labels.bool()].view(labels.shape[0], -1)
    negatives = similarity_matrix[~labels.bool()].view(similarity_matrix.shape[0], -1)
    logits = torch.cat([positives, negatives], dim=1)
    labels = torch.zeros(logits.shape[0], dtype=torch.long)
    logits = logits / temperature
    return logits, labels


torch.manual_seed(3)
x = images[:6]
views = torch.cat([x + 0.05 * torch.randn_like(x), x.flip(-1)], dim=0)
features = net(views)
logits, labels = info_nce_loss(features, 6)
loss = F.cross_entropy(logits, labels)
print(logits.shape, labels[:3], f'{loss.item():.4f}', logits[0, :3])
_, pred = logits.topk(1, 1, True, True)
print((pred.t() == labels).float().mean().mul(100))
