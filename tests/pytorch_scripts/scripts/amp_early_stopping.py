"""Training-loop plumbing from the PyTorch AMP recipe and common public code: GradScaler and autocast
(enabled and disabled, on cpu), unscale_ before clip_grad_norm_, gradient accumulation, a linear
warmup through LambdaLR and SequentialLR(LinearLR, CosineAnnealingLR), Bjarten's EarlyStopping class
saving the best state_dict, best weights kept with copy.deepcopy, and a model+optimizer+scheduler+scaler
checkpoint saved to a BytesIO and resumed so that training continues identically."""
import copy
import io
import math
import os
import tempfile
import numpy as np
import torch
import torch.nn as nn
from torch.optim.lr_scheduler import LambdaLR, LinearLR, CosineAnnealingLR, SequentialLR


def make_model(in_size, out_size, num_layers):
    layers = []
    for _ in range(num_layers - 1):
        layers.append(torch.nn.Linear(in_size, in_size))
        layers.append(torch.nn.ReLU())
    layers.append(torch.nn.Linear(in_size, out_size))
    return torch.nn.Sequential(*tuple(layers))


torch.manual_seed(0)
device = 'cpu'
batch_size, in_size, out_size, num_layers, num_batches, epochs = 8, 16, 4, 3, 4, 3
data = [torch.randn(batch_size, in_size, device=device) for _ in range(num_batches)]
targets = [torch.randn(batch_size, out_size, device=device) for _ in range(num_batches)]
loss_fn = torch.nn.MSELoss().cuda() if torch.cuda.is_available() else torch.nn.MSELoss()
print(torch.amp.is_autocast_available('cpu'), torch.is_autocast_enabled())

for use_amp in (False, True):
    torch.manual_seed(1)
    net = make_model(in_size, out_size, num_layers)
    opt = torch.optim.SGD(net.parameters(), lr=0.05)
    scaler = torch.amp.GradScaler(device, enabled=use_amp, init_scale=2.**10)
    for epoch in range(epochs):
        for input, target in zip(data, targets):
            with torch.autocast(device_type=device, dtype=torch.float16, enabled=False):
                output = net(input)
                assert output.dtype == torch.float32
                loss = loss_fn(output, target)
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            norm = torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm=1.0)
            scaler.step(opt)
            scaler.update()
            opt.zero_grad()
        print(use_amp, epoch, f'{loss.item():.5f}', f'{norm.item():.5f}', scaler.get_scale(), scaler.is_enabled())
    print(scaler.state_dict() if use_amp else scaler.state_dict() == {})

# an overflowing step is skipped and the scale backs off
net = make_model(in_size, out_size, 2)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
scaler = torch.amp.GradScaler('cpu', init_scale=2.**16, growth_interval=2)
before = net[0].weight.detach().clone()
for step, factor in enumerate([1e38, 1.0, 1.0, 1.0]):
    loss = loss_fn(net(data[0]) * factor, targets[0])
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    opt.zero_grad(set_to_none=True)
    print(step, scaler.get_scale(), torch.equal(before, net[0].weight), net[0].weight.grad)

# gradient accumulation with a warmup schedule
torch.manual_seed(2)
model = make_model(in_size, out_size, 2)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.01)
warmup_steps, total_steps = 3, 8


def lr_lambda(current_step):
    if current_step < warmup_steps:
        return float(current_step) / float(max(1, warmup_steps))
    progress = float(current_step - warmup_steps) / float(max(1, total_steps - warmup_steps))
    return max(0.0, 0.5 * (1.0 + math.cos(math.pi * float(0.5) * 2.0 * progress)))


scheduler = LambdaLR(optimizer, lr_lambda)
accumulation_steps = 2
lrs = []
for i in range(total_steps * accumulation_steps):
    input, target = data[i % num_batches], targets[i % num_batches]
    loss = loss_fn(model(input), target) / accumulation_steps
    loss.backward()
    if (i + 1) % accumulation_steps == 0:
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
        lrs.append(round(scheduler.get_last_lr()[0], 6))
print(lrs, f'{loss.item():.5f}')

optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scheduler = SequentialLR(optimizer, schedulers=[LinearLR(optimizer, start_factor=0.1, total_iters=2),
                                                CosineAnnealingLR(optimizer, T_max=4)], milestones=[2])
lrs = []
for _ in range(6):
    optimizer.step()
    scheduler.step()
    lrs.append(round(optimizer.param_groups[0]['lr'], 6))
print(lrs)


class EarlyStopping:
    """Early stops the training if validation loss doesn't improve after a given patience."""
    def __init__(self, patience=7, verbose=False, delta=0, path='checkpoint.pt', trace_func=print):
        self.patience = patience
        self.verbose = verbose
        self.counter = 0
        self.best_score = None
        self.early_stop = False
        self.val_loss_min = np.inf
        self.delta = delta
        self.path = path
        self.trace_func = trace_func

    def __call__(self, val_loss, model):
        score = -val_loss
        if self.best_score is None:
            self.best_score = score
            self.save_checkpoint(val_loss, model)
        elif score < self.best_score + self.delta:
            self.counter += 1
            self.trace_func(f'EarlyStopping counter: {self.counter} out of {self.patience}')
            if self.counter >= self.patience:
                self.early_stop = True
        else:
            self.best_score = score
            self.save_checkpoint(val_loss, model)
            self.counter = 0

    def save_checkpoint(self, val_loss, model):
        if self.verbose:
            self.trace_func(f'Validation loss decreased ({self.val_loss_min:.6f} --> {val_loss:.6f}).  Saving model ...')
        torch.save(model.state_dict(), self.path)
        self.val_loss_min = val_loss


torch.manual_seed(3)
train_x, train_y = torch.randn(32, in_size), torch.randn(32, out_size)
valid_x, valid_y = torch.randn(16, in_size), torch.randn(16, out_size)
model = make_model(in_size, out_size, 3)
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, 'checkpoint.pt')
    early_stopping = EarlyStopping(patience=2, verbose=True, path=path)
    best_model_wts = copy.deepcopy(model.state_dict())
    best_loss = float('inf')
    for epoch in range(1, 30):
        model.train()
        for xb, yb in zip(train_x.split(8), train_y.split(8)):
            optimizer.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            valid_loss = loss_fn(model(valid_x), valid_y).item()
        if valid_loss < best_loss:
            best_loss = valid_loss
            best_model_wts = copy.deepcopy(model.state_dict())
        print(f'[{epoch}] train_loss: {loss.item():.5f} valid_loss: {valid_loss:.5f}')
        early_stopping(valid_loss, model)
        if early_stopping.early_stop:
            print("Early stopping")
            break
    model.load_state_dict(torch.load(path))
    print(os.path.exists(path), f'{loss_fn(model(valid_x), valid_y).item():.5f}')
model.load_state_dict(best_model_wts)
print(f'{loss_fn(model(valid_x), valid_y).item():.5f}', best_model_wts['0.weight'] is model[0].weight)

# checkpoint to a BytesIO and resume
torch.manual_seed(4)
model = make_model(in_size, out_size, 2)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
scaler = torch.amp.GradScaler('cpu')


def train_steps(model, optimizer, scheduler, scaler, n):
    out = []
    for i in range(n):
        with torch.autocast('cpu', enabled=False):
            loss = loss_fn(model(data[i % num_batches]), targets[i % num_batches])
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        scheduler.step()
        out.append(round(loss.item(), 5))
    return out


print(train_steps(model, optimizer, scheduler, scaler, 3))
buffer = io.BytesIO()
torch.save({'epoch': 3, 'model_state_dict': model.state_dict(), 'optimizer_state_dict': optimizer.state_dict(),
            'scheduler': scheduler.state_dict(), 'scaler': scaler.state_dict(), 'loss': 0.5}, buffer)
print(train_steps(model, optimizer, scheduler, scaler, 3))
buffer.seek(0)
checkpoint = torch.load(buffer, weights_only=True)
model2 = make_model(in_size, out_size, 2)
optimizer2 = torch.optim.Adam(model2.parameters(), lr=0.01)
scheduler2 = torch.optim.lr_scheduler.StepLR(optimizer2, step_size=2, gamma=0.5)
scaler2 = torch.amp.GradScaler('cpu')
model2.load_state_dict(checkpoint['model_state_dict'])
optimizer2.load_state_dict(checkpoint['optimizer_state_dict'])
scheduler2.load_state_dict(checkpoint['scheduler'])
scaler2.load_state_dict(checkpoint['scaler'])
print(checkpoint['epoch'], checkpoint['loss'], sorted(checkpoint['optimizer_state_dict']['param_groups'][0]))
print(train_steps(model2, optimizer2, scheduler2, scaler2, 3), scheduler2.get_last_lr())
