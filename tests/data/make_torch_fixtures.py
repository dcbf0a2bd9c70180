"""Writes the PyTorch files that tests/test_interop_weights.py reads without PyTorch.

Run with PyTorch installed (2.13 made the committed files): ``python tests/data/make_torch_fixtures.py``.
It prints the model's outputs, which the tests hold as literals.
"""
from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

import numpy as np
import torch

HERE = Path(__file__).resolve().parent


def model() -> torch.nn.Module:
    return torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.BatchNorm2d(2), torch.nn.ReLU(),
                               torch.nn.Flatten(), torch.nn.Linear(8, 3))


def main() -> None:
    torch.manual_seed(0)
    net = model()
    net(torch.randn(4, 1, 4, 4))  # training-mode forward: BatchNorm's running statistics move
    net.eval()
    torch.save(net.state_dict(), HERE / "torch_convnet.pt")
    x = torch.from_numpy(np.linspace(-1, 1, 2 * 16, dtype=np.float32).reshape(2, 1, 4, 4))
    print(net(x).detach().numpy().tolist())

    base = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    values = OrderedDict([
        ("float64", torch.tensor([1.5, -2.0], dtype=torch.float64)),
        ("float16", torch.tensor([0.5, 65504.0], dtype=torch.float16)),
        ("bfloat16", torch.tensor([1.0, -3.140625, 1e30], dtype=torch.bfloat16)),
        ("int64", torch.tensor([-(2 ** 40), 7])), ("int32", torch.tensor([3], dtype=torch.int32)),
        ("int16", torch.tensor([-4], dtype=torch.int16)), ("int8", torch.tensor([-5], dtype=torch.int8)),
        ("uint8", torch.tensor([250], dtype=torch.uint8)), ("bool", torch.tensor([True, False])),
        ("base", base), ("transposed", base.t()), ("row", base[1]),  # three views of one storage
        ("parameter", torch.nn.Parameter(torch.ones(2))),
        ("plain", {"lr": 0.1, "steps": [1, 2], "name": "adam", "betas": (0.9, 0.999), "none": None}),
        ("size", torch.Size([2, 3])), ("dtype", torch.float16),
    ])
    torch.save(values, HERE / "torch_values.pt")
    sparse()


def sparse() -> None:
    """Sparse COO tensors: uncoalesced (an index twice), coalesced, and float64 with a dense dimension."""
    s = torch.sparse_coo_tensor(torch.tensor([[0, 1, 1, 2, 1], [2, 0, 2, 1, 0]]), torch.tensor([3., -4., 5., -1., 2.]),
                                (3, 3))
    hybrid = torch.sparse_coo_tensor(torch.tensor([[0, 3]]), torch.tensor([[1., 2.], [3., 4.]], dtype=torch.float64),
                                     (4, 2))
    torch.save({"uncoalesced": s, "coalesced": s.coalesce(), "hybrid": hybrid}, HERE / "torch_sparse.pt")


if __name__ == "__main__":
    main()
