"""Long-horizon forecasting code as the Autoformer / DLinear / PatchTST / RevIN repositories write it:
moving_avg padding the series by repeating its first and last steps (repeat(1, k, 1)) before
nn.AvgPool1d over permuted (B, C, L), series_decomp into seasonal and trend, DLinear with per-channel
Linear layers in an nn.ModuleList or a shared one, RevIN (instance statistics with detach, affine
weight/bias, denormalisation with + eps*eps), PatchTST patching with nn.ReplicationPad1d and
unfold(dimension=-1, size, step), sliding windows for a dataset via unfold, MSE / MAE / MAPE / sMAPE
metrics, a naive seasonal baseline via torch.roll, and a short training run."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class moving_avg(nn.Module):
    def __init__(self, kernel_size, stride):
        super(moving_avg, self).__init__()
        self.kernel_size = kernel_size
        self.avg = nn.AvgPool1d(kernel_size=kernel_size, stride=stride, padding=0)

    def forward(self, x):
        front = x[:, 0:1, :].repeat(1, (self.kernel_size - 1) // 2, 1)
        end = x[:, -1:, :].repeat(1, (self.kernel_size - 1) // 2, 1)
        x = torch.cat([front, x, end], dim=1)
        x = self.avg(x.permute(0, 2, 1))
        x = x.permute(0, 2, 1)
        return x


class series_decomp(nn.Module):
    def __init__(self, kernel_size):
        super(series_decomp, self).__init__()
        self.moving_avg = moving_avg(kernel_size, stride=1)

    def forward(self, x):
        moving_mean = self.moving_avg(x)
        res = x - moving_mean
        return res, moving_mean


class DLinear(nn.Module):
    def __init__(self, seq_len, pred_len, enc_in, individual=False, kernel_size=5):
        super().__init__()
        self.decompsition = series_decomp(kernel_size)
        self.individual = individual
        self.channels = enc_in
        if self.individual:
            self.Linear_Seasonal = nn.ModuleList([nn.Linear(seq_len, pred_len) for _ in range(enc_in)])
            self.Linear_Trend = nn.ModuleList([nn.Linear(seq_len, pred_len) for _ in range(enc_in)])
        else:
            self.Linear_Seasonal = nn.Linear(seq_len, pred_len)
            self.Linear_Trend = nn.Linear(seq_len, pred_len)
            self.Linear_Seasonal.weight = nn.Parameter((1 / seq_len) * torch.ones([pred_len, seq_len]))
            self.Linear_Trend.weight = nn.Parameter((1 / seq_len) * torch.ones([pred_len, seq_len]))
        self.pred_len = pred_len

    def forward(self, x):
        seasonal_init, trend_init = self.decompsition(x)
        seasonal_init, trend_init = seasonal_init.permute(0, 2, 1), trend_init.permute(0, 2, 1)
        if self.individual:
            seasonal_output = torch.zeros([seasonal_init.size(0), seasonal_init.size(1), self.pred_len],
                                          dtype=seasonal_init.dtype).to(seasonal_init.device)
            trend_output = torch.zeros_like(seasonal_output)
            for i in range(self.channels):
                seasonal_output[:, i, :] = self.Linear_Seasonal[i](seasonal_init[:, i, :])
                trend_output[:, i, :] = self.Linear_Trend[i](trend_init[:, i, :])
        else:
            seasonal_output = self.Linear_Seasonal(seasonal_init)
            trend_output = self.Linear_Trend(trend_init)
        x = seasonal_output + trend_output
        return x.permute(0, 2, 1)


class RevIN(nn.Module):
    def __init__(self, num_features: int, eps=1e-5, affine=True):
        super(RevIN, self).__init__()
        self.num_features = num_features
        self.eps = eps
        self.affine = affine
        if self.affine:
            self.affine_weight = nn.Parameter(torch.ones(self.num_features))
            self.affine_bias = nn.Parameter(torch.zeros(self.num_features))

    def forward(self, x, mode: str):
        if mode == "norm":
            dim2reduce = tuple(range(1, x.ndim - 1))
            self.mean = torch.mean(x, dim=dim2reduce, keepdim=True).detach()
            self.stdev = torch.sqrt(torch.var(x, dim=dim2reduce, keepdim=True, unbiased=False) + self.eps).detach()
            x = (x - self.mean) / self.stdev
            if self.affine:
                x = x * self.affine_weight + self.affine_bias
        elif mode == "denorm":
            if self.affine:
                x = (x - self.affine_bias) / (self.affine_weight + self.eps * self.eps)
            x = x * self.stdev + self.mean
        else:
            raise NotImplementedError
        return x


t = torch.arange(120, dtype=torch.float32)
series = torch.stack([torch.sin(2 * torch.pi * t / 12) + 0.02 * t, torch.cos(2 * torch.pi * t / 24) * 2 + 5], dim=-1)
series = series + 0.05 * torch.randn_like(series)
seq_len, pred_len = 24, 6
windows = series.unfold(0, seq_len + pred_len, 1).permute(0, 2, 1)
print("windows", windows.shape, windows.is_contiguous(), torch.equal(windows[3], series[3:33]))
X, Y = windows[:, :seq_len], windows[:, seq_len:]
dec = series_decomp(5)
seasonal, trend = dec(X[:2])
print("decomp", seasonal.shape, trend.shape, torch.allclose(seasonal + trend, X[:2]),
      [round(v, 4) for v in trend[0, :3, 0].tolist()])
rev = RevIN(2)
xn = rev(X[:4], "norm")
print("revin", xn.shape, torch.allclose(xn.mean(1), torch.zeros(4, 2), atol=1e-5), rev.mean.shape, rev.stdev.requires_grad,
      torch.allclose(rev(xn, "denorm"), X[:4], atol=1e-4))
patch_len, stride = 8, 4
padding_patch_layer = nn.ReplicationPad1d((0, stride))
z = padding_patch_layer(X[:2].permute(0, 2, 1))
patches = z.unfold(dimension=-1, size=patch_len, step=stride)
print("patchtst", z.shape, patches.shape, torch.equal(patches[0, 0, 1], z[0, 0, 4:12]), z[0, 0, -4:].eq(z[0, 0, -5]).all().item())
for individual in (False, True):
    torch.manual_seed(1)
    model = DLinear(seq_len, pred_len, 2, individual=individual)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(15):
        idx = torch.arange(epoch % 3, X.shape[0], 3)
        pred = model(X[idx])
        loss = F.mse_loss(pred, Y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = model(X)
    mse = F.mse_loss(pred, Y).item()
    mae = F.l1_loss(pred, Y).item()
    mape = ((pred - Y).abs() / Y.abs().clamp(min=1e-2)).mean().item()
    smape = (2 * (pred - Y).abs() / (pred.abs() + Y.abs())).mean().item()
    print(f"dlinear individual={individual} mse {mse:.4f} mae {mae:.4f} mape {mape:.3f} smape {smape:.4f}",
          sum(p.numel() for p in model.parameters()), pred.grad_fn)
naive = torch.roll(series, shifts=12, dims=0)[12:]
print("seasonal naive mae", round(F.l1_loss(naive, series[12:]).item(), 4), torch.roll(torch.arange(5), -2).tolist())
velocity, = torch.gradient(series[:, 1], spacing=(t,))
accel = torch.gradient(series[:24], dim=0, edge_order=2)[0]
print("gradient", velocity.shape, [round(v, 4) for v in velocity[:3].tolist()], accel.shape,
      round(accel[:, 1].abs().max().item(), 4))
