# pytorch/examples mnist_hogwild without processes: model.share_memory(), each "rank" trains in turn
# with torch.manual_seed(seed + rank) and its own DataLoader (shuffle), then test_epoch with
# nll_loss(reduction='sum') and pred.eq(target.view_as(pred)); synthetic 8x8 digits instead of MNIST.
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser(description='PyTorch MNIST Hogwild Example')
parser.add_argument('--batch-size', type=int, default=16)
parser.add_argument('--test-batch-size', type=int, default=32)
parser.add_argument('--epochs', type=int, default=2)
parser.add_argument('--lr', type=float, default=0.05)
parser.add_argument('--momentum', type=float, default=0.5)
parser.add_argument('--seed', type=int, default=1)
parser.add_argument('--log-interval', type=int, default=2)
parser.add_argument('--num-processes', type=int, default=2)
parser.add_argument('--dry-run', action='store_true', default=False)
args = parser.parse_args([])


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=3)
        self.conv2 = nn.Conv2d(4, 8, kernel_size=3)
        self.conv2_drop = nn.Dropout2d()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 4)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 2))
        x = x.view(-1, 8)
        x = F.relu(self.fc1(x))
        x = F.dropout(x, training=self.training)
        x = self.fc2(x)
        return F.log_softmax(x, dim=1)


def make_data(n, offset):
    idx = torch.arange(n)
    labels = idx % 4
    grid = torch.arange(144, dtype=torch.float32).view(12, 12)
    images = torch.sin(grid[None] * (0.1 + 0.07 * labels[:, None, None].float()) + 0.01 * (idx[:, None, None] + offset))
    return TensorDataset(images.unsqueeze(1), labels)


def train_epoch(epoch, args, model, device, data_loader, optimizer):
    model.train()
    for batch_idx, (data, target) in enumerate(data_loader):
        optimizer.zero_grad()
        output = model(data.to(device))
        loss = F.nll_loss(output, target.to(device))
        loss.backward()
        optimizer.step()
        if batch_idx % args.log_interval == 0:
            print('{}\tTrain Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
                'rank', epoch, batch_idx * len(data), len(data_loader.dataset),
                100. * batch_idx / len(data_loader), loss.item()))


def test_epoch(model, device, data_loader):
    model.eval()
    test_loss = 0
    correct = 0
    with torch.no_grad():
        for data, target in data_loader:
            output = model(data.to(device))
            test_loss += F.nll_loss(output, target.to(device), reduction='sum').item()
            pred = output.max(1)[1]
            correct += pred.eq(target.to(device)).sum().item()
    test_loss /= len(data_loader.dataset)
    print('\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\n'.format(
        test_loss, correct, len(data_loader.dataset), 100. * correct / len(data_loader.dataset)))


def train(rank, args, model, device, dataloader_kwargs):
    torch.manual_seed(args.seed + rank)
    train_loader = DataLoader(make_data(48, 0), batch_size=args.batch_size, shuffle=True, **dataloader_kwargs)
    optimizer = optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum)
    for epoch in range(1, args.epochs + 1):
        train_epoch(epoch, args, model, device, train_loader, optimizer)


device = torch.device("cpu")
dataloader_kwargs = {'pin_memory': False}
torch.manual_seed(args.seed)
model = Net().to(device)
model.share_memory()  # gradients are allocated lazily, so they are not shared here
print('shared', all(p.is_shared() for p in model.parameters()), 'grad', model.conv1.weight.grad)
for rank in range(args.num_processes):
    train(rank, args, model, device, dataloader_kwargs)
torch.manual_seed(args.seed)
test_epoch(model, device, DataLoader(make_data(32, 100), batch_size=args.test_batch_size, **dataloader_kwargs))
print(model)
w = model.fc1.weight
print('after training: grad shared', w.grad.is_shared(), 'view shared', w[0].is_shared(), w.detach().is_shared())
print('fresh', torch.zeros(3).is_shared(), torch.zeros(3).share_memory_().is_shared(), model.share_memory() is model)
print('grad shared now', w.grad.is_shared(), 'copy', w.clone().is_shared())
