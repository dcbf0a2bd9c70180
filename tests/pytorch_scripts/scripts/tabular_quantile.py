"""Tabular deep learning as in fastai-style notebooks and Kaggle kernels written in plain PyTorch:
entity embeddings for several categorical columns (ModuleList of nn.Embedding with the min(50, (n+1)//2)
rule, padding for unknown categories), continuous features through BatchNorm1d, a multi-quantile
regression head trained with the pinball loss, quantile crossing fixed by cumsum of softplus increments,
coverage and interval width, target standardisation, feature importance by permutation, and
torch.quantile for the empirical baseline."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(37)
n = 512
cardinalities = [5, 12, 3]
cats = torch.stack([torch.randint(0, c, (n,)) for c in cardinalities], 1)
conts = torch.randn(n, 4)
effects = [torch.randn(c) for c in cardinalities]
signal = sum(e[cats[:, i]] for i, e in enumerate(effects)) + conts[:, 0] * 2 - conts[:, 1]
noise_scale = 0.3 + 0.5 * (conts[:, 2] > 0).float()
target = (signal + noise_scale * torch.randn(n)) * 10 + 50
quantiles = torch.tensor([0.1, 0.5, 0.9])


class TabularModel(nn.Module):
    def __init__(self, cardinalities, n_cont, n_quantiles, emb_drop=0.05, hidden=(64, 32)):
        super().__init__()
        self.emb_sizes = [(c + 1, min(50, (c + 1) // 2)) for c in cardinalities]
        self.embeds = nn.ModuleList([nn.Embedding(ni, nf, padding_idx=0) for ni, nf in self.emb_sizes])
        self.emb_drop = nn.Dropout(emb_drop)
        self.bn_cont = nn.BatchNorm1d(n_cont)
        n_emb = sum(nf for _, nf in self.emb_sizes)
        layers, d = [], n_emb + n_cont
        for h in hidden:
            layers += [nn.Linear(d, h), nn.ReLU(inplace=True), nn.BatchNorm1d(h)]
            d = h
        self.layers = nn.Sequential(*layers)
        self.base = nn.Linear(d, 1)
        self.deltas = nn.Linear(d, n_quantiles - 1)

    def forward(self, x_cat, x_cont):
        x = torch.cat([e(x_cat[:, i] + 1) for i, e in enumerate(self.embeds)], 1)
        x = self.emb_drop(x)
        x = torch.cat([x, self.bn_cont(x_cont)], 1)
        h = self.layers(x)
        base = self.base(h)
        return torch.cat([base, base + torch.cumsum(F.softplus(self.deltas(h)), dim=1)], 1)


def pinball_loss(preds, target, quantiles):
    errors = target.unsqueeze(1) - preds
    return torch.max((quantiles - 1) * errors, quantiles * errors).mean()


def pinball_loss_where(preds, target, quantiles):
    errors = target.unsqueeze(1) - preds
    return torch.where(errors >= 0, quantiles * errors, (quantiles - 1) * errors).mean()


mean, std = target[:384].mean(), target[:384].std()
y = (target - mean) / std
model = TabularModel(cardinalities, 4, len(quantiles))
print(model.emb_sizes, sum(p.numel() for p in model.parameters()))
print(model.embeds[1])
opt = torch.optim.AdamW(model.parameters(), lr=5e-3, weight_decay=1e-3)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-2, total_steps=60, pct_start=0.3)
train_idx = torch.arange(384)
for epoch in range(60):
    idx = train_idx[torch.randperm(384)[:128]]
    preds = model(cats[idx], conts[idx])
    loss = pinball_loss(preds, y[idx], quantiles)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if epoch % 15 == 14:
        print(f"epoch {epoch + 1} pinball {loss.item():.4f} check {pinball_loss_where(preds, y[idx], quantiles).item():.4f} lr {sched.get_last_lr()[0]:.5f}")

model.eval()
with torch.no_grad():
    test_preds = model(cats[384:], conts[384:]) * std + mean
    y_test = target[384:]
    coverage = ((y_test >= test_preds[:, 0]) & (y_test <= test_preds[:, 2])).float().mean()
    width = (test_preds[:, 2] - test_preds[:, 0])
    print("coverage", round(coverage.item(), 4), "width", round(width.mean().item(), 3),
          "monotone", bool((test_preds[:, 1:] >= test_preds[:, :-1]).all()))
    print("wide when noisy", width[conts[384:, 2] > 0].mean().item() > width[conts[384:, 2] <= 0].mean().item())
    print("empirical quantiles", torch.quantile(target[:384], quantiles), "predicted median", test_preds[:5, 1])
    base_loss = pinball_loss((test_preds - mean) / std, (y_test - mean) / std, quantiles)
    importances = []
    for j in range(4):
        shuffled = conts[384:].clone()
        shuffled[:, j] = shuffled[torch.randperm(128), j]
        perm_loss = pinball_loss(model(cats[384:], shuffled), (y_test - mean) / std, quantiles)
        importances.append(round((perm_loss - base_loss).item(), 4))
    print("permutation importance", importances)
    unknown = torch.tensor([[-1, -1, -1]])
    print("unknown category row", model(unknown, torch.zeros(1, 4)) * std + mean, model.embeds[0].weight[0])
