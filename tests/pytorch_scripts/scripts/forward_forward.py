"""pytorch/examples mnist_forward_forward on random data: labels overlaid on the input by advanced
indexing, negative labels drawn per sample, Layer subclassing nn.Linear with its own Adam and a train()
method that shadows Module.train, goodness per label and log1p(exp(.)) losses."""
import argparse
import torch
import torch.nn as nn
from torch.optim import Adam


def get_y_neg(y):
    y_neg = y.clone()
    for idx, y_samp in enumerate(y):
        allowed_indices = list(range(10))
        allowed_indices.remove(y_samp.item())
        y_neg[idx] = torch.tensor(allowed_indices)[
            torch.randint(len(allowed_indices), size=(1,))
        ].item()
    return y_neg.to(device)


def overlay_y_on_x(x, y, classes=10):
    x_ = x.clone()
    x_[:, :classes] *= 0.0
    x_[range(x.shape[0]), y] = x.max()
    return x_


class Net(torch.nn.Module):
    def __init__(self, dims):
        super().__init__()
        self.layers = []
        for d in range(len(dims) - 1):
            self.layers = self.layers + [Layer(dims[d], dims[d + 1]).to(device)]

    def predict(self, x):
        goodness_per_label = []
        for label in range(10):
            h = overlay_y_on_x(x, label)
            goodness = []
            for layer in self.layers:
                h = layer(h)
                goodness = goodness + [h.pow(2).mean(1)]
            goodness_per_label += [sum(goodness).unsqueeze(1)]
        goodness_per_label = torch.cat(goodness_per_label, 1)
        return goodness_per_label.argmax(1)

    def train(self, x_pos, x_neg):
        h_pos, h_neg = x_pos, x_neg
        for i, layer in enumerate(self.layers):
            print("training layer: ", i)
            h_pos, h_neg = layer.train(h_pos, h_neg)


class Layer(nn.Linear):
    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__(in_features, out_features, bias, device, dtype)
        self.relu = torch.nn.ReLU()
        self.opt = Adam(self.parameters(), lr=args.lr)
        self.threshold = args.threshold
        self.num_epochs = args.epochs

    def forward(self, x):
        x_direction = x / (x.norm(2, 1, keepdim=True) + 1e-4)
        return self.relu(torch.mm(x_direction, self.weight.T) + self.bias.unsqueeze(0))

    def train(self, x_pos, x_neg):
        for i in range(self.num_epochs):
            g_pos = self.forward(x_pos).pow(2).mean(1)
            g_neg = self.forward(x_neg).pow(2).mean(1)
            loss = torch.log1p(
                torch.exp(
                    torch.cat([-g_pos + self.threshold, g_neg - self.threshold])
                )
            ).mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            if i % args.log_interval == 0:
                print("Loss: ", round(loss.item(), 5))
        return self.forward(x_pos).detach(), self.forward(x_neg).detach()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--lr", type=float, default=0.03)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threshold", type=float, default=2)
    parser.add_argument("--log-interval", type=int, default=10)
    args = parser.parse_args([])
    torch.manual_seed(args.seed)
    device = torch.device("cpu")
    x = torch.randn(64, 40)
    y = torch.randint(0, 10, (64,))
    x[torch.arange(64), 10 + y] += 2.0
    net = Net([40, 32, 32])
    x_pos = overlay_y_on_x(x, y)
    y_neg = get_y_neg(y)
    print(y[:8], y_neg[:8], (y == y_neg).any().item())
    x_neg = overlay_y_on_x(x, y_neg)
    print(x_pos[0, :12], x_neg.shape)
    net.train(x_pos, x_neg)
    print("train error:", round(1.0 - net.predict(x).eq(y).float().mean().item(), 4))
    x_te = torch.randn(32, 40)
    y_te = torch.randint(0, 10, (32,))
    x_te[torch.arange(32), 10 + y_te] += 2.0
    print("test error:", round(1.0 - net.predict(x_te).eq(y_te).float().mean().item(), 4))
    print(len(list(net.parameters())), net.training, net.layers[0].training)
