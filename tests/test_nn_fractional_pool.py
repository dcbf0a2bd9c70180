"""Fractional max pooling: windows, indices and seeded draws recorded from torch 2.13 (torch.manual_seed(0);
x = torch.randn(2, 3, 7, 9); s = torch.rand(2, 3, 2)), modules and PyTorch's errors."""
from __future__ import annotations

import pytest

import tinyframe as torch
import tinyframe.nn as nn
import tinyframe.nn.functional as F


def _input() -> tuple:
    torch.manual_seed(0)
    x = torch.randn(2, 3, 7, 9, requires_grad=True)
    return x, torch.rand(2, 3, 2)


def test_indices_and_node_name_match_pytorch() -> None:
    x, s = _input()
    out, idx = F.fractional_max_pool2d(x, 3, output_size=(4, 5), return_indices=True, _random_samples=s)
    assert type(out.grad_fn).__name__ == "FractionalMaxPool2DBackward0" and idx.dtype == torch.int64
    assert idx[0, 0].tolist() == [[19, 19, 23, 23, 24], [29, 29, 23, 23, 24], [29, 29, 23, 23, 24],
                                  [45, 57, 59, 59, 62]]
    assert idx[1, 2].tolist() == [[9, 1, 22, 22, 8], [29, 29, 22, 22, 35], [29, 29, 22, 22, 35], [38, 57, 57, 60, 62]]
    assert torch.equal(out, x.flatten(2).gather(2, idx.flatten(2)).view_as(out))
    out.sum().backward()
    assert x.grad.sum().item() == out.numel()


def test_without_samples_the_windows_are_drawn_from_the_generator_as_pytorch() -> None:
    x, _ = _input()
    torch.manual_seed(5)
    idx = F.fractional_max_pool2d(x, 2, output_size=3, return_indices=True)[1]
    assert idx[0, 0].tolist() == [[10, 13, 8], [28, 23, 35], [45, 59, 62]]
    assert idx[1, 1].tolist() == [[1, 13, 8], [19, 21, 34], [45, 48, 61]]


def test_output_ratio_unbatched_and_3d() -> None:
    x, s = _input()
    assert F.fractional_max_pool2d(x, (2, 3), output_ratio=(0.5, 0.6), _random_samples=s).shape == (2, 3, 3, 5)
    assert F.fractional_max_pool2d(x[0], 3, output_size=4, _random_samples=s[:1]).shape == (3, 4, 4)
    torch.manual_seed(7)
    x3, s3 = torch.randn(1, 2, 5, 6, 7, requires_grad=True), torch.rand(1, 2, 3)
    out, idx = F.fractional_max_pool3d(x3, 2, output_size=(3, 4, 3), return_indices=True, _random_samples=s3)
    assert type(out.grad_fn).__name__ == "FractionalMaxPool3DBackward0"
    assert idx[0, 1].flatten().tolist() == [50, 52, 12, 50, 52, 12, 63, 60, 69, 35, 31, 76, 85, 130, 138, 140, 102,
                                            138, 140, 102, 111, 155, 115, 160, 176, 130, 138, 140, 186, 138, 140,
                                            186, 187, 155, 200, 160]


def test_modules_keep_their_samples_as_a_buffer() -> None:
    x, s = _input()
    pool = nn.FractionalMaxPool2d(3, output_size=4, return_indices=True, _random_samples=s)
    assert repr(pool) == "FractionalMaxPool2d()" and list(pool.state_dict()) == ["_random_samples"]
    assert torch.equal(pool(x)[1], F.fractional_max_pool2d(x, 3, 4, return_indices=True, _random_samples=s)[1])
    assert nn.FractionalMaxPool2d(3, output_ratio=(0.5, 0.5))(x).shape == (2, 3, 3, 4)
    assert nn.FractionalMaxPool3d(2, output_ratio=0.5)(torch.randn(1, 2, 5, 6, 7)).shape == (1, 2, 2, 3, 3)


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda x, s: F.fractional_max_pool2d(x, 3), ValueError,
     "fractional_max_pool2d requires specifying either an output_size or an output_ratio"),
    (lambda x, s: nn.FractionalMaxPool2d(3), ValueError,
     "FractionalMaxPool2d requires specifying either an output size, or a pooling ratio"),
    (lambda x, s: nn.FractionalMaxPool2d(3, output_size=2, output_ratio=0.5), ValueError,
     "only one of output_size and output_ratio may be specified"),
    (lambda x, s: nn.FractionalMaxPool2d(3, output_ratio=1.5), ValueError, "output_ratio must be between 0 and 1 "
                                                                           "(got 1.5)"),
    (lambda x, s: F.fractional_max_pool2d(x, 5, output_size=5, _random_samples=s), RuntimeError,
     "fractional_max_pool2d(): pool height 5 too large relative to input height 7"),
    (lambda x, s: F.fractional_max_pool2d(x, 3, output_size=4, _random_samples=torch.rand(2, 3, 3)), RuntimeError,
     "Expect _random_samples.size(2) equals to 2; got 3."),
    (lambda x, s: F.fractional_max_pool2d(x, 3, output_size=4, _random_samples=torch.rand(1, 3, 2)), RuntimeError,
     "Expect _random_samples.size(0) no less then input batch size."),
    (lambda x, s: F.fractional_max_pool2d(x, (1, 2, 3), output_size=4), RuntimeError,
     "fractional_max_pool2d: kernel_size must either be a single Int or tuple of Ints"),
    (lambda x, s: F.fractional_max_pool2d(x, 3, output_ratio=(0.5, 0.5, 0.5)), ValueError,
     "fractional_max_pool2d requires output_ratio to either be a single Int or tuple of Ints."),
    (lambda x, s: F.fractional_max_pool3d(torch.randn(1, 2, 5, 6, 7), 4, output_size=3,
                                          _random_samples=torch.rand(1, 2, 3)), RuntimeError,
     "fractional_max_pool3d_out(): pool time 4 too large relative to input time 5"),
])
def test_bad_arguments_raise_pytorch_errors(call, error, message) -> None:
    x, s = _input()
    with pytest.raises(error) as info:
        call(x, s)
    assert str(info.value) == message
