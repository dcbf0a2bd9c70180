# PointNet++ utilities (yanx27/Pointnet_Pointnet2_pytorch models/pointnet2_utils.py): square_distance,
# index_points with advanced indexing, farthest_point_sample, query_ball_point (sort, repeat, mask),
# sample_and_group, PointNetSetAbstraction with Conv2d/BatchNorm2d and torch.max over neighbours,
# PointNetFeaturePropagation with inverse-distance interpolation.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def pc_normalize(pc):
    centroid = pc.mean(0)
    pc = pc - centroid
    m = torch.max(torch.sqrt(torch.sum(pc ** 2, dim=1)))
    return pc / m


def square_distance(src, dst):
    B, N, _ = src.shape
    _, M, _ = dst.shape
    dist = -2 * torch.matmul(src, dst.permute(0, 2, 1))
    dist += torch.sum(src ** 2, -1).view(B, N, 1)
    dist += torch.sum(dst ** 2, -1).view(B, 1, M)
    return dist


def index_points(points, idx):
    device = points.device
    B = points.shape[0]
    view_shape = list(idx.shape)
    view_shape[1:] = [1] * (len(view_shape) - 1)
    repeat_shape = list(idx.shape)
    repeat_shape[0] = 1
    batch_indices = torch.arange(B, dtype=torch.long).to(device).view(view_shape).repeat(repeat_shape)
    new_points = points[batch_indices, idx, :]
    return new_points


def farthest_point_sample(xyz, npoint, deterministic=True):
    device = xyz.device
    B, N, C = xyz.shape
    centroids = torch.zeros(B, npoint, dtype=torch.long).to(device)
    distance = torch.ones(B, N).to(device) * 1e10
    if deterministic:
        farthest = torch.zeros(B, dtype=torch.long).to(device)
    else:
        farthest = torch.randint(0, N, (B,), dtype=torch.long).to(device)
    batch_indices = torch.arange(B, dtype=torch.long).to(device)
    for i in range(npoint):
        centroids[:, i] = farthest
        centroid = xyz[batch_indices, farthest, :].view(B, 1, 3)
        dist = torch.sum((xyz - centroid) ** 2, -1)
        mask = dist < distance
        distance[mask] = dist[mask]
        farthest = torch.max(distance, -1)[1]
    return centroids


def query_ball_point(radius, nsample, xyz, new_xyz):
    device = xyz.device
    B, N, C = xyz.shape
    _, S, _ = new_xyz.shape
    group_idx = torch.arange(N, dtype=torch.long).to(device).view(1, 1, N).repeat([B, S, 1])
    sqrdists = square_distance(new_xyz, xyz)
    group_idx[sqrdists > radius ** 2] = N
    group_idx = group_idx.sort(dim=-1)[0][:, :, :nsample]
    group_first = group_idx[:, :, 0].view(B, S, 1).repeat([1, 1, nsample])
    mask = group_idx == N
    group_idx[mask] = group_first[mask]
    return group_idx


def sample_and_group(npoint, radius, nsample, xyz, points):
    B, N, C = xyz.shape
    S = npoint
    fps_idx = farthest_point_sample(xyz, npoint)
    new_xyz = index_points(xyz, fps_idx)
    idx = query_ball_point(radius, nsample, xyz, new_xyz)
    grouped_xyz = index_points(xyz, idx)
    grouped_xyz_norm = grouped_xyz - new_xyz.view(B, S, 1, C)
    if points is not None:
        grouped_points = index_points(points, idx)
        new_points = torch.cat([grouped_xyz_norm, grouped_points], dim=-1)
    else:
        new_points = grouped_xyz_norm
    return new_xyz, new_points


def sample_and_group_all(xyz, points):
    device = xyz.device
    B, N, C = xyz.shape
    new_xyz = torch.zeros(B, 1, C).to(device)
    grouped_xyz = xyz.view(B, 1, N, C)
    if points is not None:
        new_points = torch.cat([grouped_xyz, points.view(B, 1, N, -1)], dim=-1)
    else:
        new_points = grouped_xyz
    return new_xyz, new_points


class PointNetSetAbstraction(nn.Module):
    def __init__(self, npoint, radius, nsample, in_channel, mlp, group_all):
        super(PointNetSetAbstraction, self).__init__()
        self.npoint = npoint
        self.radius = radius
        self.nsample = nsample
        self.mlp_convs = nn.ModuleList()
        self.mlp_bns = nn.ModuleList()
        last_channel = in_channel
        for out_channel in mlp:
            self.mlp_convs.append(nn.Conv2d(last_channel, out_channel, 1))
            self.mlp_bns.append(nn.BatchNorm2d(out_channel))
            last_channel = out_channel
        self.group_all = group_all

    def forward(self, xyz, points):
        xyz = xyz.permute(0, 2, 1)
        if points is not None:
            points = points.permute(0, 2, 1)
        if self.group_all:
            new_xyz, new_points = sample_and_group_all(xyz, points)
        else:
            new_xyz, new_points = sample_and_group(self.npoint, self.radius, self.nsample, xyz, points)
        new_points = new_points.permute(0, 3, 2, 1)
        for i, conv in enumerate(self.mlp_convs):
            bn = self.mlp_bns[i]
            new_points = F.relu(bn(conv(new_points)))
        new_points = torch.max(new_points, 2)[0]
        new_xyz = new_xyz.permute(0, 2, 1)
        return new_xyz, new_points


class PointNetFeaturePropagation(nn.Module):
    def __init__(self, in_channel, mlp):
        super(PointNetFeaturePropagation, self).__init__()
        self.mlp_convs = nn.ModuleList()
        self.mlp_bns = nn.ModuleList()
        last_channel = in_channel
        for out_channel in mlp:
            self.mlp_convs.append(nn.Conv1d(last_channel, out_channel, 1))
            self.mlp_bns.append(nn.BatchNorm1d(out_channel))
            last_channel = out_channel

    def forward(self, xyz1, xyz2, points1, points2):
        xyz1 = xyz1.permute(0, 2, 1)
        xyz2 = xyz2.permute(0, 2, 1)
        points2 = points2.permute(0, 2, 1)
        B, N, C = xyz1.shape
        _, S, _ = xyz2.shape
        if S == 1:
            interpolated_points = points2.repeat(1, N, 1)
        else:
            dists = square_distance(xyz1, xyz2)
            dists, idx = dists.sort(dim=-1)
            dists, idx = dists[:, :, :3], idx[:, :, :3]
            dist_recip = 1.0 / (dists + 1e-8)
            norm = torch.sum(dist_recip, dim=2, keepdim=True)
            weight = dist_recip / norm
            interpolated_points = torch.sum(index_points(points2, idx) * weight.view(B, N, 3, 1), dim=2)
        if points1 is not None:
            points1 = points1.permute(0, 2, 1)
            new_points = torch.cat([points1, interpolated_points], dim=-1)
        else:
            new_points = interpolated_points
        new_points = new_points.permute(0, 2, 1)
        for i, conv in enumerate(self.mlp_convs):
            bn = self.mlp_bns[i]
            new_points = F.relu(bn(conv(new_points)))
        return new_points


class PointNet2Seg(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.sa1 = PointNetSetAbstraction(8, 0.6, 4, 3 + 3, [8, 8], False)
        self.sa2 = PointNetSetAbstraction(None, None, None, 8 + 3, [16], True)
        self.fp2 = PointNetFeaturePropagation(16 + 8, [8])
        self.fp1 = PointNetFeaturePropagation(8 + 3, [8])
        self.head = nn.Conv1d(8, num_classes, 1)

    def forward(self, xyz):
        l0_points = xyz
        l1_xyz, l1_points = self.sa1(xyz, l0_points)
        l2_xyz, l2_points = self.sa2(l1_xyz, l1_points)
        l1_points = self.fp2(l1_xyz, l2_xyz, l1_points, l2_points)
        l0_points = self.fp1(xyz, l1_xyz, l0_points, l1_points)
        return F.log_softmax(self.head(l0_points), dim=1), l2_points


N = 24
t = torch.arange(N, dtype=torch.float32)
cloud = torch.stack([torch.cos(t * 0.7), torch.sin(t * 0.7), (t / N) * 2 - 1], dim=1)
cloud = pc_normalize(cloud)
xyz = torch.stack([cloud, cloud * torch.tensor([1.0, -1.0, 0.5])])
print('normalized max radius', round(cloud.norm(dim=1).max().item(), 5))
fps = farthest_point_sample(xyz, 6)
print('fps', fps.tolist())
new_xyz = index_points(xyz, fps)
grp = query_ball_point(0.6, 4, xyz, new_xyz)
print('ball query', grp[0].tolist())
d = square_distance(xyz[:, :3], xyz[:, :3])
print('square_distance diag', [round(v, 5) for v in d[0].diagonal().tolist()])

model = PointNet2Seg()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        if p.dim() > 1:
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).view_as(p) * 0.5)
labels = (xyz[..., 2] > 0).long() + (xyz[..., 0] > 0.5).long()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(4):
    pred, feat = model(xyz.permute(0, 2, 1))
    loss = F.nll_loss(pred, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    acc = (pred.argmax(1) == labels).float().mean().item()
    print('step', step, tuple(pred.shape), tuple(feat.shape), round(loss.item(), 5), round(acc, 4))
