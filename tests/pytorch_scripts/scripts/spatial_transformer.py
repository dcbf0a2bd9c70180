"""The PyTorch spatial transformer tutorial on random digits: a localisation net (Conv2d, MaxPool2d,
ReLU) regressing a 2x3 theta whose fc_loc[2] starts at the identity (weight zeroed, bias copied from a
tensor), F.affine_grid + F.grid_sample in the forward pass, a short SGD run with nll_loss, then the
sampling modes people try by hand: align_corners both ways, nearest/bilinear, zeros/border/reflection
padding, a rotation matrix built with torch.stack."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=5)
        self.conv2 = nn.Conv2d(4, 8, kernel_size=5)
        self.conv2_drop = nn.Dropout2d()
        self.fc1 = nn.Linear(8 * 2 * 2, 16)
        self.fc2 = nn.Linear(16, 3)

        # Spatial transformer localization-network
        self.localization = nn.Sequential(
            nn.Conv2d(1, 4, kernel_size=7),
            nn.MaxPool2d(2, stride=2),
            nn.ReLU(True),
            nn.Conv2d(4, 6, kernel_size=5),
            nn.MaxPool2d(2, stride=2),
            nn.ReLU(True),
        )

        # Regressor for the 3 * 2 affine matrix
        self.fc_loc = nn.Sequential(
            nn.Linear(6 * 1 * 1, 16),
            nn.ReLU(True),
            nn.Linear(16, 3 * 2),
        )

        # Initialize the weights/bias with identity transformation
        self.fc_loc[2].weight.data.zero_()
        self.fc_loc[2].bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))

    # Spatial transformer network forward function
    def stn(self, x):
        xs = self.localization(x)
        xs = xs.view(-1, 6 * 1 * 1)
        theta = self.fc_loc(xs)
        theta = theta.view(-1, 2, 3)

        grid = F.affine_grid(theta, x.size(), align_corners=False)
        x = F.grid_sample(x, grid, align_corners=False)
        return x, theta

    def forward(self, x):
        # transform the input
        x, theta = self.stn(x)

        # Perform the usual forward pass
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 2))
        x = x.view(-1, 8 * 2 * 2)
        x = F.relu(self.fc1(x))
        x = F.dropout(x, training=self.training)
        x = self.fc2(x)
        return F.log_softmax(x, dim=1), theta


model = Net()
optimizer = optim.SGD(model.parameters(), lr=0.05)
data = torch.rand(8, 1, 20, 20)
target = torch.randint(0, 3, (8,))

model.eval()
with torch.no_grad():
    out, theta = model(data)
    same, _ = model.stn(data)
print("identity theta:", theta[0].tolist())
print("identity warp max err:", round((same - data).abs().max().item(), 4))

model.train()
for epoch in range(4):
    optimizer.zero_grad()
    output, theta = model(data)
    loss = F.nll_loss(output, target)
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f} theta00 {theta[0, 0, 0].item():.4f}")

g = model.fc_loc[2].weight.grad
print("fc_loc grad", g.shape, round(g.abs().sum().item(), 4))

# Hand-built transforms
img = torch.arange(16, dtype=torch.float32).view(1, 1, 4, 4)
angle = torch.tensor(math.pi / 2)
rot = torch.stack([
    torch.stack([torch.cos(angle), -torch.sin(angle), torch.tensor(0.0)]),
    torch.stack([torch.sin(angle), torch.cos(angle), torch.tensor(0.0)]),
]).unsqueeze(0)
for ac in (False, True):
    grid = F.affine_grid(rot, img.shape, align_corners=ac)
    print("grid corners", ac, grid[0, 0, 0].tolist(), grid[0, -1, -1].tolist())
    print(F.grid_sample(img, grid, mode="nearest", align_corners=ac).round(decimals=3))

shift = torch.tensor([[[1.0, 0.0, 0.5], [0.0, 1.0, -0.25]]])
grid = F.affine_grid(shift, (1, 1, 4, 4), align_corners=False)
for padding_mode in ("zeros", "border", "reflection"):
    out = F.grid_sample(img, grid, mode="bilinear", padding_mode=padding_mode, align_corners=False)
    print(padding_mode, out.squeeze().round(decimals=3).tolist())

zoom = torch.tensor([[[0.5, 0.0, 0.0], [0.0, 0.5, 0.0]]], requires_grad=True)
grid = F.affine_grid(zoom, (1, 1, 4, 4), align_corners=True)
warped = F.grid_sample(img, grid, align_corners=True)
warped.sum().backward()
print("zoom grad", zoom.grad.round(decimals=3).tolist())
print(warped.grad_fn.name(), grid.grad_fn.name())

try:
    F.affine_grid(torch.zeros(1, 3, 3), (1, 1, 4, 4), align_corners=False)
except (ValueError, RuntimeError) as e:
    print(type(e).__name__, str(e)[:60])
