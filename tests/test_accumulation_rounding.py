"""Where PyTorch's CPU kernels round differently from plain NumPy, pinned against PyTorch 2.13's values:
linspace's fused multiply-adds (float32, float64) and integer counts (float16, bfloat16), and the float32
accumulation of float16 cumulative sums, products and log-sum-exps."""
from __future__ import annotations

import tinyframe as torch


def test_linspace_rounds_as_pytorch() -> None:
    # float32 / float64: start + step * i as one fused multiply-add
    assert torch.linspace(-3, 7.5, 1001)[[34, 39, 49]].tolist() == [-2.6429998874664307, -2.5905001163482666,
                                                                    -2.4855000972747803]
    assert torch.linspace(-3, 7.5, 1001, dtype=torch.float64)[[14, 24, 52]].tolist() == [-2.853, -2.7479999999999998,
                                                                                         -2.454]
    # float16 / bfloat16: the count from the nearer end is an integer before it is rounded to the dtype
    assert torch.linspace(0, 1, 3000, dtype=torch.float16)[[1500, 2997]].tolist() == [0.50048828125, 0.99951171875]
    assert torch.linspace(0, 1, 300, dtype=torch.bfloat16)[[150, 297]].tolist() == [0.50390625, 0.9921875]
    # integer dtypes truncate start and end first
    assert torch.linspace(0.5, 10.5, 7, dtype=torch.int64).tolist() == [0, 1, 3, 5, 6, 8, 10]


def test_float16_cumulative_ops_accumulate_in_float32() -> None:
    ones = torch.ones(5000, dtype=torch.float16)
    assert ones.cumsum(0)[[2047, 2048, 2049, 4095, 4999]].tolist() == [2048.0, 2048.0, 2050.0, 4096.0, 5000.0]
    assert torch.cumsum(ones, 0, dtype=torch.float16)[-1].item() == 5000.0
    assert ones.cumsum(0).dtype == torch.float16
    growth = torch.full((2000,), 1.001, dtype=torch.float16).cumprod(0)
    assert growth[[10, 100, 1000, 1999]].tolist() == [1.0107421875, 1.103515625, 2.65625, 7.04296875]
    ramp = torch.linspace(0, 1, 3000, dtype=torch.float16)
    assert torch.logcumsumexp(ramp, 0)[[10, 1000, 2999]].tolist() == [2.400390625, 7.078125, 8.546875]
    assert ramp.cumsum(0)[-1].item() == 1500.0
