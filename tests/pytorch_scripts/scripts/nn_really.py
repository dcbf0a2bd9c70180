import math
import torch
import torch.nn.functional as F
from torch import nn, optim
from torch.utils.data import TensorDataset, DataLoader

n, c = 64, 10
x_train = (torch.arange(n * 784, dtype=torch.float32).reshape(n, 784) % 97) / 97.0
y_train = torch.arange(n) % c
x_valid = x_train[:32] * 0.5
y_valid = y_train[:32]
print(x_train.shape, y_train.min(), y_train.max(), y_train.dtype)
weights = (torch.linspace(-1, 1, 7840).reshape(784, 10) / math.sqrt(784))
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


bs = 64
xb = x_train[0:bs]
preds = model(xb)
print(preds[0], preds.shape)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


loss_func = nll
yb = y_train[0:bs]
print(loss_func(preds, yb))


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


print(accuracy(preds, yb))
lr = 0.5
for epoch in range(2):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
print(loss_func(model(xb), yb), accuracy(model(xb), yb))
loss_func = F.cross_entropy


def model(xb):
    return xb @ weights + bias


print(loss_func(model(xb), yb), accuracy(model(xb), yb))


class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(784, 10)

    def forward(self, xb):
        return self.lin(xb)


def init(m):
    if isinstance(m, nn.Linear):
        with torch.no_grad():
            m.weight.copy_(torch.linspace(-0.03, 0.03, m.weight.numel()).reshape(m.weight.shape))
            m.bias.zero_()
    if isinstance(m, nn.Conv2d):
        with torch.no_grad():
            m.weight.copy_(torch.linspace(-0.2, 0.2, m.weight.numel()).reshape(m.weight.shape).flip(0))
            m.bias.fill_(0.01)


model = Mnist_Logistic()
model.apply(init)
print(model)
print(loss_func(model(xb), yb))
train_ds = TensorDataset(x_train, y_train)
print(len(train_ds), train_ds[3][1])
train_dl = DataLoader(train_ds, batch_size=16)
valid_dl = DataLoader(TensorDataset(x_valid, y_valid), batch_size=32)
opt = optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    model.train()
    for xb, yb in train_dl:
        loss = loss_func(model(xb), yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
    model.eval()
    with torch.no_grad():
        valid_loss = sum(loss_func(model(xb), yb) for xb, yb in valid_dl)
    print(epoch, valid_loss / len(valid_dl))


class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func

    def forward(self, x):
        return self.func(x)


def preprocess(x):
    return x.view(-1, 1, 28, 28)


model = nn.Sequential(
    Lambda(preprocess),
    nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(16, 16, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(16, 10, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    Lambda(lambda x: x.view(x.size(0), -1)),
)
model.apply(init)
print(model)
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for epoch in range(2):
    for xb, yb in train_dl:
        loss = loss_func(model(xb), yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
    with torch.no_grad():
        print(epoch, round(loss.item(), 4), model(x_valid).shape)
print(loss.grad_fn, loss.grad_fn.next_functions[0][0])
