"""pytorch.org recipe "Zeroing out gradients in PyTorch": a small CIFAR-style Net trained with SGD on
random data, optimizer.zero_grad() before backward, what happens to .grad when it is not zeroed
(accumulation), set_to_none=True vs False (None vs zeros), model.zero_grad(), and gradient
accumulation over micro-batches that equals one large batch."""
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
        x = self.fc3(x)
        return x


net = Net()
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
data = [(torch.randn(4, 3, 32, 32), torch.randint(0, 10, (4,))) for _ in range(6)]
for epoch in range(2):
    running_loss = 0.0
    for i, (inputs, labels) in enumerate(data):
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if i % 3 == 2:
            print(f"[{epoch + 1}, {i + 1:5d}] loss: {running_loss / 3:.3f}")
            running_loss = 0.0
print("Finished Training")

print(net.fc3.bias.grad)
optimizer.zero_grad()
print(net.fc3.bias.grad)
optimizer.zero_grad(set_to_none=False)
print(net.fc3.bias.grad)
inputs, labels = data[0]
criterion(net(inputs), labels).backward()
g1 = net.fc3.bias.grad.clone()
criterion(net(inputs), labels).backward()
print(torch.allclose(net.fc3.bias.grad, 2 * g1))
net.zero_grad(set_to_none=False)
print(net.fc3.bias.grad.abs().sum())
net.zero_grad()
print(net.fc3.bias.grad, net.conv1.weight.grad)

big_x = torch.cat([d[0] for d in data[:4]])
big_y = torch.cat([d[1] for d in data[:4]])
criterion(net(big_x), big_y).backward()
full = [p.grad.clone() for p in net.parameters()]
net.zero_grad()
for inputs, labels in data[:4]:
    (criterion(net(inputs), labels) / 4).backward()
print(all(torch.allclose(a, p.grad, atol=1e-6) for a, p in zip(full, net.parameters())))
print(net.conv1.weight.grad.shape, f"{net.conv1.weight.grad.norm().item():.4f}")
