"""Deformable registration as voxelmorph's PyTorch port writes it (voxelmorph/torch/layers.py and
losses.py), on tiny random volumes: a SpatialTransformer module with a registered identity grid built
from torch.meshgrid over torch.arange, locations normalised to [-1, 1], permuted and flipped to
(x, y, z) order for F.grid_sample(align_corners=True); VecInt scaling-and-squaring integration of a
velocity field; an NCC loss with conv3d box filters over local windows; the Grad smoothness
penalty on flow differences; a small Conv3d flow network trained a few steps; and a 3-d affine
augmentation by F.affine_grid with N x 3 x 4 matrices, trilinear and nearest (for label maps)."""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SpatialTransformer(nn.Module):
    def __init__(self, size, mode="bilinear"):
        super().__init__()
        self.mode = mode
        vectors = [torch.arange(0, s) for s in size]
        grids = torch.meshgrid(vectors, indexing="ij")
        grid = torch.stack(grids)
        grid = torch.unsqueeze(grid, 0)
        grid = grid.type(torch.FloatTensor)
        self.register_buffer("grid", grid, persistent=False)

    def forward(self, src, flow):
        new_locs = self.grid + flow
        shape = flow.shape[2:]
        for i in range(len(shape)):
            new_locs[:, i, ...] = 2 * (new_locs[:, i, ...] / (shape[i] - 1) - 0.5)
        if len(shape) == 2:
            new_locs = new_locs.permute(0, 2, 3, 1)
            new_locs = new_locs[..., [1, 0]]
        elif len(shape) == 3:
            new_locs = new_locs.permute(0, 2, 3, 4, 1)
            new_locs = new_locs[..., [2, 1, 0]]
        return F.grid_sample(src, new_locs, align_corners=True, mode=self.mode)


class VecInt(nn.Module):
    def __init__(self, inshape, nsteps):
        super().__init__()
        assert nsteps >= 0, "nsteps should be >= 0, found: %d" % nsteps
        self.nsteps = nsteps
        self.scale = 1.0 / (2 ** self.nsteps)
        self.transformer = SpatialTransformer(inshape)

    def forward(self, vec):
        vec = vec * self.scale
        for _ in range(self.nsteps):
            vec = vec + self.transformer(vec, vec)
        return vec


class NCC:
    def __init__(self, win=None):
        self.win = win

    def loss(self, y_true, y_pred):
        Ii, Ji = y_true, y_pred
        ndims = len(list(Ii.size())) - 2
        win = [3] * ndims if self.win is None else self.win
        sum_filt = torch.ones([1, 1, *win]).to(Ii.device)
        pad_no = math.floor(win[0] / 2)
        stride, padding = (1,) * ndims, (pad_no,) * ndims
        conv_fn = getattr(F, "conv%dd" % ndims)
        I2, J2, IJ = Ii * Ii, Ji * Ji, Ii * Ji
        I_sum = conv_fn(Ii, sum_filt, stride=stride, padding=padding)
        J_sum = conv_fn(Ji, sum_filt, stride=stride, padding=padding)
        I2_sum = conv_fn(I2, sum_filt, stride=stride, padding=padding)
        J2_sum = conv_fn(J2, sum_filt, stride=stride, padding=padding)
        IJ_sum = conv_fn(IJ, sum_filt, stride=stride, padding=padding)
        win_size = np.prod(win)
        u_I, u_J = I_sum / win_size, J_sum / win_size
        cross = IJ_sum - u_J * I_sum - u_I * J_sum + u_I * u_J * win_size
        I_var = I2_sum - 2 * u_I * I_sum + u_I * u_I * win_size
        J_var = J2_sum - 2 * u_J * J_sum + u_J * u_J * win_size
        cc = cross * cross / (I_var * J_var + 1e-5)
        return -torch.mean(cc)


class Grad:
    def __init__(self, penalty="l1", loss_mult=None):
        self.penalty, self.loss_mult = penalty, loss_mult

    def loss(self, _, y_pred):
        dy = torch.abs(y_pred[:, :, 1:, :, :] - y_pred[:, :, :-1, :, :])
        dx = torch.abs(y_pred[:, :, :, 1:, :] - y_pred[:, :, :, :-1, :])
        dz = torch.abs(y_pred[:, :, :, :, 1:] - y_pred[:, :, :, :, :-1])
        if self.penalty == "l2":
            dy, dx, dz = dy * dy, dx * dx, dz * dz
        d = torch.mean(dx) + torch.mean(dy) + torch.mean(dz)
        grad = d / 3.0
        if self.loss_mult is not None:
            grad *= self.loss_mult
        return grad


inshape = (6, 6, 6)
st = SpatialTransformer(inshape)
print(st.grid.shape, st.grid.dtype, list(st.state_dict().keys()), st.grid[0, :, 0, 0, 0].tolist(), st.grid[0, 2, 0, 0, :4].tolist())
moving = torch.rand(1, 1, *inshape)
zero_flow = torch.zeros(1, 3, *inshape)
print("identity warp err", round((st(moving, zero_flow) - moving).abs().max().item(), 6))
shift = torch.zeros(1, 3, *inshape)
shift[:, 2] = 1.0
shifted = st(moving, shift)
print("shift by one voxel", torch.allclose(shifted[..., :-1], moving[..., 1:], atol=1e-6), shifted[0, 0, 0, 0, -1].item())

integrate = VecInt(inshape, 3)
vel = 0.5 * torch.randn(1, 3, *inshape)
disp = integrate(vel)
print("vecint", disp.shape, round(disp.abs().mean().item(), 5), round(vel.abs().mean().item(), 5))

fixed = torch.roll(moving, shifts=1, dims=4) + 0.05 * torch.randn_like(moving)
net = nn.Sequential(nn.Conv3d(2, 8, 3, padding=1), nn.LeakyReLU(0.2), nn.Conv3d(8, 3, 3, padding=1))
nn.init.normal_(net[2].weight, 0, 1e-3)
nn.init.zeros_(net[2].bias)
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
sim, smooth = NCC(), Grad("l2", loss_mult=2)
for step in range(4):
    flow = net(torch.cat([moving, fixed], dim=1))
    moved = st(moving, flow)
    loss = sim.loss(fixed, moved) + 0.01 * smooth.loss(None, flow)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.5f} flow {flow.abs().mean().item():.5f}")
print(moved.grad_fn.name(), net[0].weight.grad.shape)

# 3-d affine augmentation of an image and its label map
angle = math.pi / 8
theta = torch.tensor([[[math.cos(angle), -math.sin(angle), 0.0, 0.1],
                       [math.sin(angle), math.cos(angle), 0.0, 0.0],
                       [0.0, 0.0, 1.0, -0.05]]])
grid = F.affine_grid(theta, (1, 1, *inshape), align_corners=False)
labels = (moving > 0.5).float()
img_aug = F.grid_sample(moving, grid, mode="bilinear", padding_mode="border", align_corners=False)
lab_aug = F.grid_sample(labels, grid, mode="nearest", padding_mode="zeros", align_corners=False)
print(grid.shape, round(img_aug.mean().item(), 5), lab_aug.unique().tolist(), int(lab_aug.sum().item()))
