"""'Deep Learning with PyTorch: A 60 Minute Blitz' end to end on random CIFAR-sized data: the Net with
conv1/pool/conv2 and fc1-fc3 (torch.flatten(x, 1)), the 'Neural Networks' page's inspection
(list(net.parameters()), params[0].size(), net.zero_grad(), out.backward(torch.randn(1, 10)),
conv1.bias.grad before and after backward, loss.grad_fn.next_functions chains), the manual SGD update
with p.data.sub_, the training loop with running_loss printed every few mini-batches, saving and
loading the state_dict through a file, torch.max(outputs, 1) predictions, per-class accuracy with a
dict of classes, and the 'Tensors' page's numpy bridge (add_ shared with .numpy())."""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

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
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


net = Net()
print(net)
params = list(net.parameters())
print(len(params), params[0].size())
input = torch.randn(1, 3, 32, 32)
out = net(input)
print(out.shape)
net.zero_grad()
out.backward(torch.randn(1, 10))
target = torch.randn(10).view(1, -1)
criterion = nn.MSELoss()
output = net(input)
loss = criterion(output, target)
print(round(loss.item(), 4), loss.grad_fn)
print(loss.grad_fn.next_functions[0][0])
print(loss.grad_fn.next_functions[0][0].next_functions[0][0])
net.zero_grad()
print("conv1.bias.grad before backward", net.conv1.bias.grad)
loss.backward()
print("conv1.bias.grad after backward", net.conv1.bias.grad.shape, net.conv1.bias.grad.abs().sum().item() > 0)
learning_rate = 0.01
for f in net.parameters():
    f.data.sub_(f.grad.data * learning_rate)

classes = ("plane", "car", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck")
images = torch.randn(24, 3, 32, 32)
labels = torch.randint(0, 10, (24,))
trainloader = DataLoader(TensorDataset(images, labels), batch_size=4, shuffle=True)
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
for epoch in range(2):
    running_loss = 0.0
    for i, data in enumerate(trainloader, 0):
        inputs, lbls = data
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, lbls)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if i % 3 == 2:
            print(f"[{epoch + 1}, {i + 1:5d}] loss: {running_loss / 3:.3f}")
            running_loss = 0.0
print("Finished Training")
with tempfile.TemporaryDirectory() as d:
    PATH = os.path.join(d, "cifar_net.pth")
    torch.save(net.state_dict(), PATH)
    net2 = Net()
    print(net2.load_state_dict(torch.load(PATH, weights_only=True)))
outputs = net2(images[:4])
_, predicted = torch.max(outputs, 1)
print("Predicted: ", " ".join(f"{classes[predicted[j]]:5s}" for j in range(4)))
correct = 0
total = 0
correct_pred = {classname: 0 for classname in classes}
total_pred = {classname: 0 for classname in classes}
with torch.no_grad():
    for data in DataLoader(TensorDataset(images, labels), batch_size=12):
        imgs, lbls = data
        outputs = net2(imgs)
        _, predictions = torch.max(outputs.data, 1)
        total += lbls.size(0)
        correct += (predictions == lbls).sum().item()
        for label, prediction in zip(lbls, predictions):
            if label == prediction:
                correct_pred[classes[label]] += 1
            total_pred[classes[label]] += 1
print(f"Accuracy of the network on the 24 test images: {100 * correct // total} %")
for classname, correct_count in correct_pred.items():
    if total_pred[classname]:
        accuracy = 100 * float(correct_count) / total_pred[classname]
        print(f"Accuracy for class: {classname:5s} is {accuracy:.1f} %")
t = torch.ones(5)
n = t.numpy()
t.add_(1)
print(f"t: {t}", f"n: {n}")
n = np.ones(5)
t = torch.from_numpy(n)
np.add(n, 1, out=n)
print(f"t: {t}", f"n: {n}")
