import io
import os
import tempfile
import torch
import torch.nn as nn
from torch.optim.lr_scheduler import StepLR, ExponentialLR, CosineAnnealingLR, MultiStepLR, LambdaLR, ReduceLROnPlateau, OneCycleLR
from torch.utils.data import random_split, TensorDataset, DataLoader, Subset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.bn = nn.BatchNorm2d(4)
        self.dropout1 = nn.Dropout(0.25)
        self.fc1 = nn.Linear(4 * 3 * 3, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        x = self.conv1(x)
        x = self.bn(x)
        x = nn.functional.relu(x)
        x = nn.functional.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = nn.functional.relu(x)
        x = self.fc2(x)
        return nn.functional.log_softmax(x, dim=1)


model = Net()
print(model)
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))
print([name for name, _ in model.named_modules()])
print([type(m).__name__ for m in model.children()])
print(list(model.state_dict().keys()))
print([name for name, _ in model.named_buffers()])


def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.xavier_uniform_(m.weight)
        m.bias.data.fill_(0.01)
    elif isinstance(m, nn.Conv2d):
        nn.init.kaiming_normal_(m.weight, mode='fan_out', nonlinearity='relu')
        nn.init.zeros_(m.bias)


model.apply(init_weights)
print(model.fc1.bias[:3], model.conv1.bias)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.2, 0.2, p.numel()).reshape(p.shape).roll(i) + (1.0 if i == 2 else 0.0))
model.dropout1.p = 0.0  # keep the training-mode forward deterministic
activations = {}


def get_activation(name):
    def hook(model, input, output):
        activations[name] = output.detach()
    return hook


h1 = model.fc1.register_forward_hook(get_activation('fc1'))
grads = []
h2 = model.fc2.register_full_backward_hook(lambda m, gin, gout: grads.append(gout[0].shape))
h3 = model.conv1.register_forward_pre_hook(lambda m, inp: None)
x = torch.linspace(-1, 1, 6 * 64).reshape(6, 1, 8, 8)
y = torch.tensor([0, 1, 2, 0, 1, 2])
out = model(x)
loss = nn.functional.nll_loss(out, y)
loss.backward()
print(activations['fc1'].shape, grads, round(loss.item(), 5))
h1.remove(); h2.remove(); h3.remove()
total_norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.1)
print(round(total_norm.item(), 5), total_norm.dtype)
nn.utils.clip_grad_value_(model.parameters(), clip_value=0.01)
print(model.fc2.bias.grad)
print(nn.utils.parameters_to_vector(model.parameters()).shape)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
schedulers = [StepLR(torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1), step_size=2, gamma=0.5),
              ExponentialLR(torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1), gamma=0.9),
              CosineAnnealingLR(torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1), T_max=5),
              MultiStepLR(torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1), milestones=[1, 3], gamma=0.1),
              LambdaLR(torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1), lr_lambda=lambda e: 0.95 ** e),
              OneCycleLR(torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1), max_lr=0.1, total_steps=6)]
for s in schedulers:
    lrs = []
    for epoch in range(5):
        s.optimizer.step()
        s.step()
        lrs.append(round(s.get_last_lr()[0], 6))
    print(type(s).__name__, lrs)
plateau_opt = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1)
plateau = ReduceLROnPlateau(plateau_opt, mode='min', factor=0.5, patience=1)
for val in [1.0, 0.9, 0.95, 0.96, 0.97, 0.98]:
    plateau.step(val)
    print(plateau_opt.param_groups[0]['lr'], end=' ')
print()
ds = TensorDataset(torch.arange(10.).unsqueeze(1), torch.arange(10))
train, val = random_split(ds, [8, 2], generator=torch.Generator().manual_seed(42))
print(len(train), len(val), type(train).__name__, isinstance(train, Subset))
parts = random_split(range(10), [0.5, 0.3, 0.2])
print([len(p) for p in parts])
loader = DataLoader(ds, batch_size=4, shuffle=False, drop_last=True)
print(len(loader), [b[1].tolist() for b in loader])
buffer = io.BytesIO()
torch.save({'epoch': 3, 'model_state_dict': model.state_dict(), 'optimizer_state_dict': opt.state_dict(), 'loss': loss}, buffer)
buffer.seek(0)
checkpoint = torch.load(buffer, weights_only=False)
model2 = Net()
print(model2.load_state_dict(checkpoint['model_state_dict']))
opt.load_state_dict(checkpoint['optimizer_state_dict'])
print(checkpoint['epoch'], checkpoint['loss'].item() == loss.item(), torch.equal(model2.fc1.weight, model.fc1.weight))
path = os.path.join(tempfile.mkdtemp(), "whole.pt")
torch.save(torch.arange(4), path)
print(torch.load(path))
result = model2.load_state_dict({k: v for k, v in model.state_dict().items() if not k.startswith('fc2')}, strict=False)
print(result.missing_keys, result.unexpected_keys)
try:
    model2.load_state_dict({'fc9.weight': torch.zeros(1)})
except RuntimeError as e:
    print(str(e).splitlines()[0])
model.eval()
print(model.training, model.bn.training, model.dropout1.training)
model.train()
print(model.training)
model.requires_grad_(False)
print(any(p.requires_grad for p in model.parameters()))
for param in model.fc2.parameters():
    param.requires_grad = True
print([n for n, p in model.named_parameters() if p.requires_grad])
print(model.fc2.weight.dtype, model.half().fc2.weight.dtype, model.float().fc2.weight.dtype, model.double().fc2.weight.dtype)
print(next(model.parameters()).device, model.to(torch.float32).conv1.weight.dtype)
