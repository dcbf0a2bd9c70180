"""Time-series and spatio-temporal models as the N-BEATS (philipperemy/n-beats, ElementAI) and
ConvLSTM (ndrplz/ConvLSTM_pytorch) repositories write them: N-BEATS generic, trend (polynomial
basis) and seasonality (Fourier basis) blocks with backcast/forecast residual stacking, sliding
windows via Tensor.unfold, sMAPE / MASE metrics, and a ConvLSTM cell and multi-layer module run
over a video-like tensor, predicting the next frame of a moving blob."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
backcast_length, forecast_length = 12, 4


def linear_space(backcast_length, forecast_length, is_forecast=True):
    horizon = forecast_length if is_forecast else backcast_length
    return np.arange(0, horizon) / horizon


def seasonality_model(thetas, t):
    p = thetas.size()[-1]
    assert p <= thetas.shape[1], "thetas_dim is too big."
    p1, p2 = (p // 2, p // 2) if p % 2 == 0 else (p // 2, p // 2 + 1)
    s1 = torch.tensor(np.array([np.cos(2 * np.pi * i * t) for i in range(p1)])).float()
    s2 = torch.tensor(np.array([np.sin(2 * np.pi * i * t) for i in range(p2)])).float()
    S = torch.cat([s1, s2])
    return thetas.mm(S)


def trend_model(thetas, t):
    p = thetas.size()[-1]
    assert p <= 4, "thetas_dim is too big."
    T = torch.tensor(np.array([t ** i for i in range(p)])).float()
    return thetas.mm(T)


class Block(nn.Module):
    def __init__(self, units, thetas_dim, share_thetas=False):
        super(Block, self).__init__()
        self.fc1 = nn.Linear(backcast_length, units)
        self.fc2 = nn.Linear(units, units)
        self.fc3 = nn.Linear(units, units)
        self.fc4 = nn.Linear(units, units)
        self.backcast_linspace = linear_space(backcast_length, forecast_length, is_forecast=False)
        self.forecast_linspace = linear_space(backcast_length, forecast_length, is_forecast=True)
        if share_thetas:
            self.theta_f_fc = self.theta_b_fc = nn.Linear(units, thetas_dim, bias=False)
        else:
            self.theta_b_fc = nn.Linear(units, thetas_dim, bias=False)
            self.theta_f_fc = nn.Linear(units, thetas_dim, bias=False)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = F.relu(self.fc3(x))
        return F.relu(self.fc4(x))


class SeasonalityBlock(Block):
    def __init__(self, units, thetas_dim):
        super().__init__(units, thetas_dim, share_thetas=True)

    def forward(self, x):
        x = super().forward(x)
        backcast = seasonality_model(self.theta_b_fc(x), self.backcast_linspace)
        forecast = seasonality_model(self.theta_f_fc(x), self.forecast_linspace)
        return backcast, forecast


class TrendBlock(Block):
    def __init__(self, units, thetas_dim):
        super().__init__(units, thetas_dim, share_thetas=True)

    def forward(self, x):
        x = super().forward(x)
        return trend_model(self.theta_b_fc(x), self.backcast_linspace), trend_model(self.theta_f_fc(x), self.forecast_linspace)


class GenericBlock(Block):
    def __init__(self, units, thetas_dim):
        super().__init__(units, thetas_dim)
        self.backcast_fc = nn.Linear(thetas_dim, backcast_length)
        self.forecast_fc = nn.Linear(thetas_dim, forecast_length)

    def forward(self, x):
        x = super().forward(x)
        theta_b, theta_f = self.theta_b_fc(x), self.theta_f_fc(x)
        return self.backcast_fc(theta_b), self.forecast_fc(theta_f)


class NBeatsNet(nn.Module):
    def __init__(self, stack_types, units=16):
        super().__init__()
        dims = {TrendBlock: 3, SeasonalityBlock: 6, GenericBlock: 4}
        self.stacks = nn.ModuleList([nn.ModuleList([kind(units, dims[kind]) for _ in range(2)]) for kind in stack_types])

    def forward(self, backcast):
        forecast = torch.zeros(backcast.size(0), forecast_length)
        for stack in self.stacks:
            for block in stack:
                b, f = block(backcast)
                backcast = backcast - b
                forecast = forecast + f
        return backcast, forecast


t = torch.arange(200, dtype=torch.float32)
series = 0.02 * t + torch.sin(2 * np.pi * t / 12) + 0.1 * torch.randn(200)
windows = series.unfold(0, backcast_length + forecast_length, 1)
print("windows", tuple(windows.shape), windows.stride(), windows[1, :3].round(decimals=4).tolist())
x_train, y_train = windows[:150, :backcast_length], windows[:150, backcast_length:]
x_test, y_test = windows[150:, :backcast_length], windows[150:, backcast_length:]
level = x_train.mean(1, keepdim=True)

for stacks in ([TrendBlock, SeasonalityBlock], [GenericBlock, GenericBlock]):
    torch.manual_seed(1)
    net = NBeatsNet(stacks)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for epoch in range(30):
        perm = torch.randperm(150)
        for i in range(0, 150, 50):
            idx = perm[i:i + 50]
            lvl = x_train[idx].mean(1, keepdim=True)
            _, forecast = net(x_train[idx] - lvl)
            loss = F.l1_loss(forecast + lvl, y_train[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        lvl = x_test.mean(1, keepdim=True)
        residual, pred = net(x_test - lvl)
        pred = pred + lvl
    smape = 200 * ((pred - y_test).abs() / (pred.abs() + y_test.abs())).mean()
    naive = (series[12:150] - series[:138]).abs().mean()
    mase = (pred - y_test).abs().mean() / naive
    print([s.__name__ for s in stacks], f"train {loss.item():.4f} sMAPE {smape.item():.3f} MASE {mase.item():.4f}",
          "residual", round(residual.abs().mean().item(), 4))


class ConvLSTMCell(nn.Module):
    def __init__(self, input_dim, hidden_dim, kernel_size, bias):
        super(ConvLSTMCell, self).__init__()
        self.input_dim = input_dim
        self.hidden_dim = hidden_dim
        self.kernel_size = kernel_size
        self.padding = kernel_size[0] // 2, kernel_size[1] // 2
        self.bias = bias
        self.conv = nn.Conv2d(in_channels=self.input_dim + self.hidden_dim, out_channels=4 * self.hidden_dim,
                              kernel_size=self.kernel_size, padding=self.padding, bias=self.bias)

    def forward(self, input_tensor, cur_state):
        h_cur, c_cur = cur_state
        combined = torch.cat([input_tensor, h_cur], dim=1)
        combined_conv = self.conv(combined)
        cc_i, cc_f, cc_o, cc_g = torch.split(combined_conv, self.hidden_dim, dim=1)
        i = torch.sigmoid(cc_i)
        f = torch.sigmoid(cc_f)
        o = torch.sigmoid(cc_o)
        g = torch.tanh(cc_g)
        c_next = f * c_cur + i * g
        h_next = o * torch.tanh(c_next)
        return h_next, c_next

    def init_hidden(self, batch_size, image_size):
        height, width = image_size
        return (torch.zeros(batch_size, self.hidden_dim, height, width, device=self.conv.weight.device),
                torch.zeros(batch_size, self.hidden_dim, height, width, device=self.conv.weight.device))


class ConvLSTM(nn.Module):
    def __init__(self, input_dim, hidden_dims, kernel_size=(3, 3)):
        super().__init__()
        self.cells = nn.ModuleList([ConvLSTMCell(input_dim if i == 0 else hidden_dims[i - 1], h, kernel_size, True)
                                    for i, h in enumerate(hidden_dims)])
        self.head = nn.Conv2d(hidden_dims[-1], 1, 1)

    def forward(self, x):  # x: [B, T, C, H, W]
        b, seq_len, _, h, w = x.size()
        layer_input = x
        last_states = []
        for cell in self.cells:
            hc = cell.init_hidden(b, (h, w))
            outputs = []
            for t in range(seq_len):
                hc = cell(layer_input[:, t], hc)
                outputs.append(hc[0])
            layer_input = torch.stack(outputs, dim=1)
            last_states.append(hc)
        return torch.sigmoid(self.head(layer_input[:, -1])), last_states


def moving_blob(batch, steps, size=10):
    yy, xx = torch.meshgrid(torch.arange(size).float(), torch.arange(size).float(), indexing="ij")
    start = torch.randint(2, 5, (batch, 2)).float()
    frames = []
    for t in range(steps + 1):
        cy, cx = start[:, 0] + t, start[:, 1] + 0.5 * t
        frames.append(torch.exp(-((yy - cy.view(-1, 1, 1)) ** 2 + (xx - cx.view(-1, 1, 1)) ** 2) / 2))
    video = torch.stack(frames, 1).unsqueeze(2)
    return video[:, :steps], video[:, steps]


model = ConvLSTM(1, [4, 4])
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(15):
    clip, target = moving_blob(4, 4)
    pred, states = model(clip)
    loss = F.binary_cross_entropy(pred, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("convlstm loss", round(loss.item(), 4), "states", [tuple(h.shape) for h, c in states], pred.shape)
print("conv weight", tuple(model.cells[0].conv.weight.shape), "padding", model.cells[0].padding)
