"""Weight averaging as public training code writes it: the torch.optim.swa_utils recipe (AveragedModel,
SWALR with cosine annealing after swa_start, update_bn over a loader), an EMA model through
get_ema_multi_avg_fn and through a custom avg_fn, timm-style ModelEmaV2 with deepcopy and
foreach lerp_, and n_averaged bookkeeping."""
from copy import deepcopy
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import AveragedModel, SWALR, update_bn, get_ema_multi_avg_fn
from torch.optim.lr_scheduler import CosineAnnealingLR
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 3))
X = torch.randn(64, 6)
Y = (X[:, 0] + X[:, 1] > 0).long() + (X[:, 2] > 1).long()
loader = DataLoader(TensorDataset(X, Y), batch_size=16, shuffle=True)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
swa_model = AveragedModel(model)
scheduler = CosineAnnealingLR(optimizer, T_max=100)
swa_start = 3
swa_scheduler = SWALR(optimizer, swa_lr=0.05, anneal_epochs=2, anneal_strategy="cos")
ema_model = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
print(type(swa_model.module).__name__, swa_model.n_averaged, [n for n, _ in swa_model.named_buffers()][:2])

for epoch in range(6):
    for input, target in loader:
        optimizer.zero_grad()
        loss = loss_fn(model(input), target)
        loss.backward()
        optimizer.step()
        ema_model.update_parameters(model)
    if epoch > swa_start:
        swa_model.update_parameters(model)
        swa_scheduler.step()
    else:
        scheduler.step()
    print(epoch, round(loss.item(), 4), [round(g["lr"], 6) for g in optimizer.param_groups], swa_model.n_averaged.item())

print(swa_model.module[1].running_mean[:3])
update_bn(loader, swa_model)
print(swa_model.module[1].running_mean[:3], swa_model.module[1].num_batches_tracked, swa_model.module[1].momentum)
swa_model.eval()
with torch.no_grad():
    preds = swa_model(X)
print(preds[:2], (preds.argmax(1) == Y).float().mean().item())
print(ema_model.n_averaged.item(), ema_model.module[0].weight[0, :3])
print(sorted(swa_model.state_dict().keys())[:3])

ema_avg = lambda averaged_model_parameter, model_parameter, num_averaged: 0.1 * averaged_model_parameter + 0.9 * model_parameter
ema2 = AveragedModel(model, avg_fn=ema_avg, use_buffers=True)
ema2.update_parameters(model)
print(torch.equal(ema2.module[0].weight, model[0].weight), ema2.module[1].running_var[:2])


class ModelEmaV2(nn.Module):
    def __init__(self, model, decay=0.9999, device=None):
        super(ModelEmaV2, self).__init__()
        self.module = deepcopy(model)
        self.module.eval()
        self.decay = decay
        self.device = device
        if self.device is not None:
            self.module.to(device=device)

    def _update(self, model, update_fn):
        with torch.no_grad():
            for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
                if self.device is not None:
                    model_v = model_v.to(device=self.device)
                ema_v.copy_(update_fn(ema_v, model_v))

    def update(self, model):
        self._update(model, update_fn=lambda e, m: self.decay * e + (1. - self.decay) * m)

    def set(self, model):
        self._update(model, update_fn=lambda e, m: m)


ema = ModelEmaV2(model, decay=0.5)
with torch.no_grad():
    for p in model.parameters():
        p.add_(1.0)
ema.update(model)
print(ema.module[0].bias[:3], ema.module[1].num_batches_tracked, ema.module.training)
ema_params = [p.detach().clone() for p in ema.module.parameters()]
torch._foreach_lerp_(ema_params, list(model.parameters()), 0.5)
print(ema_params[0][0, :3])
swa_scheduler2 = SWALR(torch.optim.SGD(model.parameters(), lr=1.0), swa_lr=0.1, anneal_epochs=3, anneal_strategy="linear")
lrs = []
for _ in range(4):
    lrs.append(round(swa_scheduler2.get_last_lr()[0], 5))
    swa_scheduler2.optimizer.step()
    swa_scheduler2.step()
print(lrs)
