"""Set and point-cloud networks as fxia22/pointnet.pytorch and the Deep Sets ports write them: STN3d /
STNkd predicting a transform with an identity added through torch.eye(k).flatten().view(1, k*k)
.repeat(batchsize, 1), Conv1d(k=1) shared MLPs with BatchNorm1d, torch.max(x, 2, keepdim=True)[0]
global features, torch.bmm of points with the transform after transpose(2, 1), the segmentation head
concatenating repeated global features, feature_transform_regularizer with torch.norm over dims (1, 2),
permutation invariance checked under torch.randperm, and a Deep Sets (phi summed, rho) counting model
with masks for padded sets trained a few steps."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class STNkd(nn.Module):
    def __init__(self, k=3):
        super().__init__()
        self.conv1 = torch.nn.Conv1d(k, 16, 1)
        self.conv2 = torch.nn.Conv1d(16, 32, 1)
        self.fc1 = nn.Linear(32, 16)
        self.fc2 = nn.Linear(16, k * k)
        self.relu = nn.ReLU()
        self.bn1, self.bn2, self.bn3 = nn.BatchNorm1d(16), nn.BatchNorm1d(32), nn.BatchNorm1d(16)
        self.k = k

    def forward(self, x):
        batchsize = x.size()[0]
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.bn2(self.conv2(x)))
        x = torch.max(x, 2, keepdim=True)[0]
        x = x.view(-1, 32)
        x = F.relu(self.bn3(self.fc1(x)))
        x = self.fc2(x)
        iden = torch.eye(self.k).flatten().view(1, self.k * self.k).repeat(batchsize, 1)
        x = x + iden
        return x.view(-1, self.k, self.k)


class PointNetfeat(nn.Module):
    def __init__(self, global_feat=True, feature_transform=False):
        super().__init__()
        self.stn = STNkd(3)
        self.conv1 = torch.nn.Conv1d(3, 16, 1)
        self.conv2 = torch.nn.Conv1d(16, 32, 1)
        self.conv3 = torch.nn.Conv1d(32, 64, 1)
        self.bn1, self.bn2, self.bn3 = nn.BatchNorm1d(16), nn.BatchNorm1d(32), nn.BatchNorm1d(64)
        self.global_feat = global_feat
        self.feature_transform = feature_transform
        if self.feature_transform:
            self.fstn = STNkd(k=16)

    def forward(self, x):
        n_pts = x.size()[2]
        trans = self.stn(x)
        x = x.transpose(2, 1)
        x = torch.bmm(x, trans)
        x = x.transpose(2, 1)
        x = F.relu(self.bn1(self.conv1(x)))
        if self.feature_transform:
            trans_feat = self.fstn(x)
            x = x.transpose(2, 1)
            x = torch.bmm(x, trans_feat)
            x = x.transpose(2, 1)
        else:
            trans_feat = None
        pointfeat = x
        x = F.relu(self.bn2(self.conv2(x)))
        x = self.bn3(self.conv3(x))
        x = torch.max(x, 2, keepdim=True)[0]
        x = x.view(-1, 64)
        if self.global_feat:
            return x, trans, trans_feat
        x = x.view(-1, 64, 1).repeat(1, 1, n_pts)
        return torch.cat([x, pointfeat], 1), trans, trans_feat


class PointNetCls(nn.Module):
    def __init__(self, k=4, feature_transform=False):
        super().__init__()
        self.feat = PointNetfeat(global_feat=True, feature_transform=feature_transform)
        self.fc1 = nn.Linear(64, 32)
        self.fc2 = nn.Linear(32, k)
        self.dropout = nn.Dropout(p=0.3)
        self.bn1 = nn.BatchNorm1d(32)

    def forward(self, x):
        x, trans, trans_feat = self.feat(x)
        x = F.relu(self.bn1(self.fc1(x)))
        x = self.fc2(self.dropout(x))
        return F.log_softmax(x, dim=1), trans, trans_feat


def feature_transform_regularizer(trans):
    d = trans.size()[1]
    I = torch.eye(d)[None, :, :]
    loss = torch.mean(torch.norm(torch.bmm(trans, trans.transpose(2, 1)) - I, dim=(1, 2)))
    return loss


points = torch.rand(6, 3, 20)
target = torch.tensor([0, 1, 2, 3, 1, 0])
stn = STNkd(3)
out = stn(points)
print("stn", out.size(), out.grad_fn.name())
seg_feat = PointNetfeat(global_feat=False)
pf, _, _ = seg_feat(points)
print("point feat", pf.size())
classifier = PointNetCls(k=4, feature_transform=True)
optimizer = torch.optim.Adam(classifier.parameters(), lr=0.001, betas=(0.9, 0.999))
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
for epoch in range(4):
    classifier.train()
    optimizer.zero_grad()
    pred, trans, trans_feat = classifier(points)
    loss = F.nll_loss(pred, target)
    reg = feature_transform_regularizer(trans_feat)
    loss = loss + reg * 0.001
    loss.backward()
    optimizer.step()
    scheduler.step()
    pred_choice = pred.data.max(1)[1]
    correct = pred_choice.eq(target.data).cpu().sum()
    print(f"[{epoch}] train loss: {loss.item():f} reg {reg.item():.4f} accuracy: {correct.item() / 6:f}",
          trans_feat.shape, scheduler.get_last_lr())
classifier.eval()
with torch.no_grad():
    a, _, _ = classifier(points)
    b, _, _ = classifier(points[:, :, torch.randperm(20)])
print("permutation invariant:", torch.allclose(a, b, atol=1e-5), a.shape)


class DeepSets(nn.Module):
    def __init__(self, d_in=1, hidden=16):
        super().__init__()
        self.phi = nn.Sequential(nn.Linear(d_in, hidden), nn.ELU(), nn.Linear(hidden, hidden))
        self.rho = nn.Sequential(nn.Linear(hidden, hidden), nn.ELU(), nn.Linear(hidden, 1))

    def forward(self, x, mask):
        h = self.phi(x) * mask.unsqueeze(-1)
        return self.rho(h.sum(dim=1)).squeeze(-1)


sets = torch.randn(8, 5, 1)
lengths = torch.tensor([5, 3, 1, 4, 2, 5, 3, 2])
mask = (torch.arange(5)[None, :] < lengths[:, None]).float()
y = (sets.squeeze(-1) * mask).sum(1)
ds = DeepSets()
opt = torch.optim.Adam(ds.parameters(), lr=1e-2)
for step in range(20):
    loss = F.mse_loss(ds(sets, mask), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 4:
        print(f"deepsets step {step} loss {loss.item():.4f}")
perm = torch.tensor([4, 3, 2, 1, 0])
print("deepsets padded ignored:", torch.allclose(ds(sets, mask)[0], ds(sets[:, perm], mask[:, perm])[0], atol=1e-5),
      mask.sum(1).tolist())
