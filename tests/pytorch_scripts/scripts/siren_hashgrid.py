# Implicit neural representations: SIREN (vsitzmann/siren: SineLayer with omega_0 = 30 and its uniform
# init, gradient/laplacian of the output via torch.autograd.grad with create_graph), and an
# instant-NGP style multiresolution hash encoding (torch-ngp's pure-PyTorch fallback: integer corner
# coordinates, primes and bitwise XOR, modulo table size, trilinear weights, embedding lookups).
import math

import numpy as np
import torch
from torch import nn

torch.manual_seed(0)


class SineLayer(nn.Module):
    def __init__(self, in_features, out_features, bias=True, is_first=False, omega_0=30):
        super().__init__()
        self.omega_0 = omega_0
        self.is_first = is_first
        self.in_features = in_features
        self.linear = nn.Linear(in_features, out_features, bias=bias)
        self.init_weights()

    def init_weights(self):
        with torch.no_grad():
            if self.is_first:
                self.linear.weight.uniform_(-1 / self.in_features, 1 / self.in_features)
            else:
                self.linear.weight.uniform_(-np.sqrt(6 / self.in_features) / self.omega_0,
                                            np.sqrt(6 / self.in_features) / self.omega_0)

    def forward(self, input):
        return torch.sin(self.omega_0 * self.linear(input))


class Siren(nn.Module):
    def __init__(self, in_features, hidden_features, hidden_layers, out_features, outermost_linear=False,
                 first_omega_0=30, hidden_omega_0=30.):
        super().__init__()
        self.net = [SineLayer(in_features, hidden_features, is_first=True, omega_0=first_omega_0)]
        for i in range(hidden_layers):
            self.net.append(SineLayer(hidden_features, hidden_features, is_first=False, omega_0=hidden_omega_0))
        if outermost_linear:
            final_linear = nn.Linear(hidden_features, out_features)
            with torch.no_grad():
                final_linear.weight.uniform_(-np.sqrt(6 / hidden_features) / hidden_omega_0,
                                             np.sqrt(6 / hidden_features) / hidden_omega_0)
            self.net.append(final_linear)
        else:
            self.net.append(SineLayer(hidden_features, out_features, is_first=False, omega_0=hidden_omega_0))
        self.net = nn.Sequential(*self.net)

    def forward(self, coords):
        coords = coords.clone().detach().requires_grad_(True)
        output = self.net(coords)
        return output, coords


def gradient(y, x, grad_outputs=None):
    if grad_outputs is None:
        grad_outputs = torch.ones_like(y)
    return torch.autograd.grad(y, [x], grad_outputs=grad_outputs, create_graph=True)[0]


def divergence(y, x):
    div = 0.
    for i in range(y.shape[-1]):
        div += torch.autograd.grad(y[..., i], x, torch.ones_like(y[..., i]), create_graph=True)[0][..., i:i + 1]
    return div


def laplace(y, x):
    return divergence(gradient(y, x), x)


def get_mgrid(sidelen, dim=2):
    tensors = tuple(dim * [torch.linspace(-1, 1, steps=sidelen)])
    mgrid = torch.stack(torch.meshgrid(*tensors, indexing='ij'), dim=-1)
    return mgrid.reshape(-1, dim)


coords = get_mgrid(5)
print('mgrid', tuple(coords.shape), coords[:3].tolist())
img = torch.sin(3 * coords[:, :1]) * torch.cos(2 * coords[:, 1:])
siren = Siren(2, 16, 1, 1, outermost_linear=True)
with torch.no_grad():
    for i, p in enumerate(siren.parameters()):
        bound = 0.5 if i == 0 else math.sqrt(6 / 16) / 30
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.7 + i).view_as(p) * bound)
optim = torch.optim.Adam(lr=1e-3, params=siren.parameters())
for step in range(4):
    model_output, c = siren(coords)
    loss = ((model_output - img) ** 2).mean()
    optim.zero_grad()
    loss.backward()
    optim.step()
    print('step %d, total loss %0.6f' % (step, loss))
model_output, c = siren(coords)
g = gradient(model_output, c)
lap = laplace(model_output, c)
print('grad norm', round(g.norm(dim=-1).mean().item(), 5), 'laplacian', [round(v, 4) for v in lap[:4, 0].tolist()])
# a gradient-supervised (Poisson) loss backpropagates through the double derivative
poisson = ((g - torch.stack([torch.ones(25), -torch.ones(25)], -1)) ** 2).mean()
poisson.backward()
print('poisson', round(poisson.item(), 5), 'first layer grad', round(siren.net[0].linear.weight.grad.abs().sum().item(), 5))


class HashEmbedder(nn.Module):
    def __init__(self, n_levels=4, n_features_per_level=2, log2_hashmap_size=6, base_resolution=2,
                 finest_resolution=16):
        super().__init__()
        self.n_levels = n_levels
        self.n_features_per_level = n_features_per_level
        self.log2_hashmap_size = log2_hashmap_size
        self.base_resolution = torch.tensor(base_resolution)
        self.finest_resolution = torch.tensor(finest_resolution)
        self.out_dim = self.n_levels * self.n_features_per_level
        self.b = torch.exp((torch.log(self.finest_resolution) - torch.log(self.base_resolution)) / (n_levels - 1))
        self.embeddings = nn.ModuleList([nn.Embedding(2 ** self.log2_hashmap_size, self.n_features_per_level)
                                         for i in range(n_levels)])
        for i in range(n_levels):
            nn.init.uniform_(self.embeddings[i].weight, a=-0.0001, b=0.0001)
        self.register_buffer('box_offsets', torch.tensor([[[i, j, k] for i in [0, 1] for j in [0, 1] for k in [0, 1]]]))

    @staticmethod
    def hash(coords, log2_hashmap_size):
        primes = [1, 2654435761, 805459861, 3674653429, 2097192037, 1434869437, 2165219737]
        xor_result = torch.zeros_like(coords)[..., 0]
        for i in range(coords.shape[-1]):
            xor_result ^= coords[..., i] * primes[i]
        return torch.tensor((1 << log2_hashmap_size) - 1).to(xor_result.device) & xor_result

    def get_voxel_vertices(self, xyz, bounding_box, resolution):
        box_min, box_max = bounding_box
        keep_mask = xyz == torch.max(torch.min(xyz, box_max), box_min)
        if not torch.all(xyz <= box_max) or not torch.all(xyz >= box_min):
            xyz = torch.clamp(xyz, min=box_min, max=box_max)
        grid_size = (box_max - box_min) / resolution
        bottom_left_idx = torch.floor((xyz - box_min) / grid_size).int()
        voxel_min_vertex = bottom_left_idx * grid_size + box_min
        voxel_max_vertex = voxel_min_vertex + torch.tensor([1.0, 1.0, 1.0]) * grid_size
        voxel_indices = bottom_left_idx.unsqueeze(1) + self.box_offsets
        hashed_voxel_indices = self.hash(voxel_indices, self.log2_hashmap_size)
        return voxel_min_vertex, voxel_max_vertex, hashed_voxel_indices, keep_mask

    def trilinear_interp(self, x, voxel_min_vertex, voxel_max_vertex, voxel_embedds):
        weights = (x - voxel_min_vertex) / (voxel_max_vertex - voxel_min_vertex)
        c00 = voxel_embedds[:, 0] * (1 - weights[:, 0][:, None]) + voxel_embedds[:, 4] * weights[:, 0][:, None]
        c01 = voxel_embedds[:, 1] * (1 - weights[:, 0][:, None]) + voxel_embedds[:, 5] * weights[:, 0][:, None]
        c10 = voxel_embedds[:, 2] * (1 - weights[:, 0][:, None]) + voxel_embedds[:, 6] * weights[:, 0][:, None]
        c11 = voxel_embedds[:, 3] * (1 - weights[:, 0][:, None]) + voxel_embedds[:, 7] * weights[:, 0][:, None]
        c0 = c00 * (1 - weights[:, 1][:, None]) + c10 * weights[:, 1][:, None]
        c1 = c01 * (1 - weights[:, 1][:, None]) + c11 * weights[:, 1][:, None]
        return c0 * (1 - weights[:, 2][:, None]) + c1 * weights[:, 2][:, None]

    def forward(self, x, bounding_box):
        x_embedded_all = []
        for i in range(self.n_levels):
            resolution = torch.floor(self.base_resolution * self.b ** i)
            voxel_min_vertex, voxel_max_vertex, hashed_voxel_indices, keep_mask = self.get_voxel_vertices(
                x, bounding_box, resolution)
            voxel_embedds = self.embeddings[i](hashed_voxel_indices)
            x_embedded = self.trilinear_interp(x, voxel_min_vertex, voxel_max_vertex, voxel_embedds)
            x_embedded_all.append(x_embedded)
        keep_mask = keep_mask.sum(dim=-1) == keep_mask.shape[-1]
        return torch.cat(x_embedded_all, dim=-1), keep_mask


print('hash', HashEmbedder.hash(torch.tensor([[3, 5, 7], [100, 2000, 30000]]), 19).tolist())
print('int64 wrap', (torch.tensor([30000000000]) * 3674653429).tolist(), (torch.tensor([7], dtype=torch.int32) * 805459861).dtype)
enc = HashEmbedder()
with torch.no_grad():
    for i, e in enumerate(enc.embeddings):
        e.weight.copy_(torch.sin(torch.arange(e.weight.numel(), dtype=torch.float32) * 0.3 + i).view_as(e.weight) * 0.1)
print('b', round(enc.b.item(), 5), [torch.floor(enc.base_resolution * enc.b ** i).item() for i in range(4)])
bbox = (torch.tensor([-1.0, -1.0, -1.0]), torch.tensor([1.0, 1.0, 1.0]))
pts = torch.stack([torch.linspace(-0.9, 0.9, 6), torch.linspace(0.8, -0.7, 6), torch.tensor([0.1, 0.5, -0.3, 0.95, -1.2, 0.0])], -1)
feat, keep = enc(pts, bbox)
print('hash features', tuple(feat.shape), keep.tolist(), [round(v, 5) for v in feat[0].tolist()])
mlp = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
with torch.no_grad():
    for i, p in enumerate(mlp.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).view_as(p) * 0.3)
opt = torch.optim.Adam([{'params': enc.parameters(), 'lr': 1e-2}, {'params': mlp.parameters(), 'lr': 1e-3, 'weight_decay': 1e-6}],
                       betas=(0.9, 0.99), eps=1e-15)
target = pts.norm(dim=-1, keepdim=True)
for step in range(4):
    feat, _ = enc(pts, bbox)
    loss = ((mlp(feat) - target) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print('hash step', step, round(loss.item(), 6), 'touched rows', int((enc.embeddings[3].weight.grad.abs().sum(1) > 0).sum()))
