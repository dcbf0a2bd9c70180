"""pytorch.org recipes "What is a state_dict", "Saving and loading a general checkpoint" and
"Warmstarting a model using parameters from a different model": the tutorial Net's state_dict sizes and
the SGD optimizer's state_dict, a checkpoint dict with epoch / model / optimizer / loss saved and loaded
back (model.eval()), and loading netA's weights into netB with strict=False (missing / unexpected keys),
plus renaming keys to fit and the strict=True error message."""
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


net = Net()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
print("Model's state_dict:")
for param_tensor in net.state_dict():
    print(param_tensor, "\t", net.state_dict()[param_tensor].size())
print("Optimizer's state_dict:")
for var_name in optimizer.state_dict():
    print(var_name, "\t", optimizer.state_dict()[var_name])

x = torch.randn(2, 3, 32, 32)
y = torch.tensor([1, 7])
loss = F.cross_entropy(net(x), y)
loss.backward()
optimizer.step()
EPOCH = 5
buf = io.BytesIO()
torch.save({"epoch": EPOCH, "model_state_dict": net.state_dict(),
            "optimizer_state_dict": optimizer.state_dict(), "loss": loss}, buf)
buf.seek(0)
model = Net()
opt2 = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
checkpoint = torch.load(buf, weights_only=True)
print(model.load_state_dict(checkpoint["model_state_dict"]))
opt2.load_state_dict(checkpoint["optimizer_state_dict"])
print(checkpoint["epoch"], checkpoint["loss"])
print(sorted(opt2.state_dict()["state"].keys()))
print(opt2.state_dict()["state"][0]["momentum_buffer"].shape)
model.eval()
print(torch.equal(model(x), net.eval()(x)))


class NetA(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)


class NetB(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc3 = nn.Linear(84, 10)
        self.bn = nn.BatchNorm1d(10)


netA, netB = NetA(), NetB()
result = netB.load_state_dict(netA.state_dict(), strict=False)
print(result)
print(result.missing_keys, result.unexpected_keys)
print(torch.equal(netA.conv1.weight, netB.conv1.weight))
try:
    netB.load_state_dict(netA.state_dict())
except RuntimeError as e:
    print(e)
state = {k.replace("fc2", "fc3"): v for k, v in netA.state_dict().items()}
try:
    netB.load_state_dict(state, strict=False)
except RuntimeError as e:
    print(e)
bad = dict(netB.state_dict())
bad["fc1.bias"] = torch.zeros(3)
try:
    netB.load_state_dict(bad)
except RuntimeError as e:
    print(e)
