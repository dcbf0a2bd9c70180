"""pytorch.org recipes "Defining a Neural Network in PyTorch", "Reasoning about Shapes in PyTorch" and
"Changing default device": the MNIST Net with Conv2d / Dropout2d / log_softmax on a random image, the
model repr, the meta device used to find output shapes of conv layers and a whole model without
computing, forward hooks printing each layer's output shape, torch.set_default_device and the device
context manager, and factory functions / modules built under it."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout2d(0.25)
        self.dropout2 = nn.Dropout2d(0.5)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = self.conv2(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.dropout2(x)
        x = self.fc2(x)
        output = F.log_softmax(x, dim=1)
        return output


my_nn = Net()
print(my_nn)
random_data = torch.rand((1, 1, 28, 28))
my_nn.eval()
result = my_nn(random_data)
print(result.shape, result.grad_fn.name(), f"{result.exp().sum().item():.4f}")
print(result.argmax(1).shape, result.dtype)

t = torch.rand(2, 3, 10, 10, device="meta")
conv = torch.nn.Conv2d(3, 5, 2, device="meta")
out = conv(t)
print(out)
print(out.shape, out.device, out.is_meta)
params = sum(p.numel() for p in conv.parameters())
print(params, conv.weight.device)


def fw_hook(module, input, output):
    print(f"Shape of output to {module} is {output.shape}.")


class Net2(nn.Module):
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
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


with torch.device("meta"):
    net = Net2()
    inp = torch.randn((1024, 3, 32, 32))
for name, layer in net.named_modules():
    layer.register_forward_hook(fw_hook)
out = net(inp)
print(out.shape, out.device)
try:
    out.item()
except Exception as e:
    print(type(e).__name__, e)
print(torch.empty(3, device="meta").new_zeros(2).device)

print(torch.get_default_device())
torch.set_default_device("meta")
print(torch.get_default_device(), torch.zeros(2).device, torch.tensor([1.0]).device)
print(nn.Linear(2, 3).weight.device)
torch.set_default_device("cpu")
print(torch.get_default_device(), torch.zeros(2).device)
with torch.device("meta"):
    print(torch.arange(4).device, torch.ones(2, 2).is_meta)
print(torch.arange(4).device)
mod = nn.Linear(4, 4, device="meta")
mod.to_empty(device="cpu")
print(mod.weight.device, mod.weight.shape)
