"""Train an MLP or a CNN on MNIST with tinyframe, written as you would with PyTorch: copy and adapt.

    python examples/mnist/train.py --model cnn --data-dir /path/to/mnist

The data, the two models and the default hyperparameters come from the main job,
``python -m tinyframe.examples.mnist``, which adds progress bars, checkpoints and metrics.
"""
import argparse
import time

import tinyframe as torch
from tinyframe import nn
from tinyframe.examples.mnist.data import load_mnist
from tinyframe.examples.mnist.models import MODELS
from tinyframe.examples.mnist.train import DEFAULTS, as_dataset
from tinyframe.utils.data import DataLoader


def train_one_epoch(model, loader, criterion, optimizer, device):
    model.train()
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        out = model(x)
        loss = criterion(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def evaluate(model, loader, criterion, device):
    """Mean loss and accuracy over ``loader``."""
    model.eval()
    total_loss, correct = 0.0, 0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            out = model(x)
            total_loss += criterion(out, y).item() * len(y)
            correct += (out.argmax(1) == y).sum().item()
    return total_loss / len(loader.dataset), correct / len(loader.dataset)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=sorted(MODELS), default="mlp")
    parser.add_argument("--data-dir", default=None, help="folder with the four MNIST files (downloaded if missing)")
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args()
    config = DEFAULTS[args.model]

    torch.manual_seed(0)
    (x_train, y_train), (x_test, y_test) = load_mnist(args.data_dir)
    train_loader = DataLoader(as_dataset(x_train, y_train), batch_size=config["batch_size"], shuffle=True)
    test_loader = DataLoader(as_dataset(x_test, y_test), batch_size=1000)

    model = MODELS[args.model]().to(args.device)
    criterion = nn.CrossEntropyLoss()
    if config["optimizer"] == "sgd":
        optimizer = torch.optim.SGD(model.parameters(), lr=config["lr"], momentum=0.9)
    else:
        optimizer = torch.optim.Adam(model.parameters(), lr=config["lr"])
    scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=config["lr_decay"])

    for epoch in range(1, config["epochs"] + 1):
        started = time.perf_counter()
        train_one_epoch(model, train_loader, criterion, optimizer, args.device)
        scheduler.step()
        test_loss, test_acc = evaluate(model, test_loader, criterion, args.device)
        print(f"epoch {epoch}: test loss {test_loss:.4f}, test accuracy {test_acc:.2%} "
              f"({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
