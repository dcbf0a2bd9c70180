"""Memory formats (``channels_last``, ``channels_last_3d``) against PyTorch 2.13's recorded strides, nodes and
errors: a tensor in another format is an array with those strides; values never depend on the layout."""
from __future__ import annotations

import copy

import numpy as np
import pytest

import tinyframe as torch
from tinyframe import nn


def _nchw(device: str, *shape: int) -> torch.Tensor:
    return torch.arange(float(np.prod(shape)), device=device).reshape(shape)


def test_to_channels_last_gives_pytorchs_strides_and_keeps_values(device: str) -> None:
    x = _nchw(device, 2, 3, 4, 5)
    y = x.to(memory_format=torch.channels_last)
    assert y.stride() == (60, 1, 15, 3) and y.tolist() == x.tolist()
    assert not y.is_contiguous() and y.is_contiguous(memory_format=torch.channels_last)
    assert not x.is_contiguous(memory_format=torch.channels_last)
    assert y.to(memory_format=torch.channels_last) is y and y.contiguous(memory_format=torch.channels_last) is y
    assert x.to(memory_format=torch.contiguous_format) is x and x.to(memory_format=torch.preserve_format) is x
    assert y.contiguous().stride() == (60, 20, 5, 1) and y.to(memory_format=torch.contiguous_format).is_contiguous()
    assert y.permute(0, 2, 3, 1).is_contiguous()  # the NHWC view of its memory
    assert y.to(torch.float64).stride() == (60, 1, 15, 3)  # a cast keeps the layout
    z = torch.randn(2, 3, 4, 5, 6, device=device).to(memory_format=torch.channels_last_3d)
    assert z.stride() == (360, 1, 90, 18, 3) and z.is_contiguous(memory_format=torch.channels_last_3d)


def test_size_one_dimensions_do_not_count_for_contiguity() -> None:
    assert torch.randn(2, 1, 4, 5).is_contiguous(memory_format=torch.channels_last)
    assert torch.randn(2, 3, 1, 1).is_contiguous(memory_format=torch.channels_last)
    assert not torch.randn(2, 3, 4, 5)[:, :, :, :1].is_contiguous(memory_format=torch.channels_last)
    assert not torch.randn(3, 4, 5).is_contiguous(memory_format=torch.channels_last)


def test_factories_and_clone_take_a_memory_format(device: str) -> None:
    x = _nchw(device, 2, 3, 4, 5)
    cl = (60, 1, 15, 3)
    assert torch.empty(2, 3, 4, 5, memory_format=torch.channels_last, device=device).stride() == cl
    assert torch.empty((2, 3, 4, 5), memory_format=torch.contiguous_format).stride() == (60, 20, 5, 1)
    for make in (torch.empty_like, torch.zeros_like, torch.ones_like, torch.rand_like, torch.randn_like):
        assert make(x, memory_format=torch.channels_last).stride() == cl, make
    assert torch.full_like(x, 2, memory_format=torch.channels_last).stride() == cl
    assert torch.randint_like(x, 5, memory_format=torch.channels_last).stride() == cl
    assert torch.empty_like(x.to(memory_format=torch.channels_last)).stride() == cl  # preserve_format
    assert x.clone(memory_format=torch.channels_last).stride() == cl
    assert torch.rand_like(x, requires_grad=True).requires_grad
    generator = torch.Generator(device=device).manual_seed(3)
    first = torch.rand_like(x, generator=generator)
    assert torch.equal(first, torch.rand_like(x, generator=torch.Generator(device=device).manual_seed(3)))


@pytest.mark.parametrize("expression, message", [
    ("x[0].to(memory_format=torch.channels_last)", "required rank 4 tensor to use channels_last format"),
    ("x[0].contiguous(memory_format=torch.channels_last)", "required rank 4 tensor to use channels_last format"),
    ("x[0].clone(memory_format=torch.channels_last)", "required rank 4 tensor to use channels_last format"),
    ("torch.empty(2, 3, memory_format=torch.channels_last_3d)",
     "required rank 5 tensor to use channels_last_3d format"),
    ("x.to(memory_format=torch.channels_last_3d)", "required rank 5 tensor to use channels_last_3d format"),
    ("torch.empty(2, 3, 4, 5, memory_format=torch.preserve_format)", "unsupported memory format Preserve"),
    ("nn.Conv3d(2, 4, 3).to(memory_format=torch.channels_last)", "required rank 4 tensor to use channels_last format"),
])
def test_a_format_of_another_rank_is_pytorchs_error(expression: str, message: str) -> None:
    with pytest.raises(RuntimeError, match=message):
        eval(expression, {"torch": torch, "nn": nn, "x": torch.randn(2, 3, 4, 5)})


def test_nodes_and_gradients_through_a_change_of_format() -> None:
    x = torch.arange(24.0).reshape(1, 2, 3, 4).requires_grad_()
    y = x.to(memory_format=torch.channels_last)
    assert type(y.grad_fn).__name__ == "ToCopyBackward0"
    assert type(x.contiguous(memory_format=torch.channels_last).grad_fn).__name__ == "CloneBackward0"
    assert type(x.clone(memory_format=torch.channels_last).grad_fn).__name__ == "CloneBackward0"
    (y * torch.arange(24.0).reshape(1, 2, 3, 4)).sum().backward()
    assert x.grad.tolist() == torch.arange(24.0).reshape(1, 2, 3, 4).tolist()


def test_ops_on_a_channels_last_tensor() -> None:
    x = torch.randn(2, 3, 4, 5).to(memory_format=torch.channels_last)
    assert nn.functional.relu(x).stride() == (60, 1, 15, 3)  # elementwise ops keep the layout
    assert x.sum(1).stride() == (20, 5, 1) and x.flatten(1).stride() == (60, 1)
    assert x.reshape(2, -1).stride() == (60, 1)
    with pytest.raises(RuntimeError, match="view size is not compatible with input tensor's size and stride"):
        x.view(2, -1)
    assert x.numpy().strides == (240, 4, 60, 12)
    conv = nn.Conv2d(3, 4, 3, padding=1)
    expected = conv(x.contiguous())
    assert torch.allclose(conv(x), expected)


def test_module_to_memory_format_changes_four_dimensional_parameters_in_place() -> None:
    conv, linear = nn.Conv2d(2, 4, 3), nn.Linear(2, 2)
    weight, values = conv.weight, conv.weight.tolist()
    assert conv.to(memory_format=torch.channels_last) is conv
    assert conv.weight is weight and weight.is_leaf and weight.stride() == (18, 1, 6, 2)
    assert weight.tolist() == values and conv.bias.stride() == (1,)
    assert linear.to(memory_format=torch.channels_last).weight.stride() == (2, 1)
    assert nn.BatchNorm2d(3).to(memory_format=torch.channels_last).weight.stride() == (1,)
    assert copy.deepcopy(conv).weight.stride() == (18, 1, 6, 2)  # a copy keeps the layout


def test_convert_conv_weight_memory_format_lays_out_convolution_weights() -> None:
    model = nn.Sequential(nn.Conv2d(2, 3, 3), nn.ConvTranspose2d(3, 2, 2), nn.Linear(2, 2))
    weight = model[0].weight
    assert nn.utils.convert_conv2d_weight_memory_format(model, torch.channels_last) is model
    assert model[0].weight is weight and weight.stride() == (18, 1, 6, 2)
    assert model[1].weight.stride() == (8, 1, 4, 2) and model[2].weight.stride() == (2, 1)
    conv3d = nn.Conv3d(2, 3, 3)
    nn.utils.convert_conv3d_weight_memory_format(conv3d, torch.channels_last_3d)
    assert conv3d.weight.stride() == (54, 1, 18, 6, 2)


def test_a_channels_last_model_trains_as_the_contiguous_one() -> None:
    def model() -> nn.Module:
        torch.manual_seed(0)
        return nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
                             nn.Conv2d(4, 2, 1), nn.Flatten(), nn.Linear(8, 2))

    x = torch.randn(2, 3, 4, 4, generator=torch.Generator().manual_seed(1))
    plain, channels_last = model(), model().to(memory_format=torch.channels_last)
    losses = []
    for net, inputs in ((plain, x), (channels_last, x.to(memory_format=torch.channels_last))):
        loss = net(inputs).square().sum()
        loss.backward()
        losses.append(loss.item())
    assert losses[0] == pytest.approx(losses[1], rel=1e-6)
    for a, b in zip(plain.parameters(), channels_last.parameters()):
        assert torch.allclose(a.grad, b.grad, atol=1e-6) and a.grad.shape == b.grad.shape


def test_a_convolution_gives_the_layout_its_operands_suggest() -> None:
    # PyTorch 2.13: channels last out where the input or the weight is channels last
    x = torch.randn(2, 3, 5, 5)
    conv, transposed = nn.Conv2d(3, 4, 3, padding=1), nn.ConvTranspose2d(3, 4, 2, stride=2)
    channels_last = x.to(memory_format=torch.channels_last)
    assert conv(x).stride() == (100, 25, 5, 1) and conv(channels_last).stride() == (100, 1, 20, 4)
    assert transposed(channels_last).stride() == (400, 1, 40, 4)
    conv.to(memory_format=torch.channels_last)
    transposed.to(memory_format=torch.channels_last)
    assert conv(x).stride() == (100, 1, 20, 4) and transposed(x).stride() == (400, 1, 40, 4)
    assert conv(x[0]).stride() == (1, 20, 4)
    assert torch.allclose(conv(x), conv(channels_last))


@pytest.mark.parametrize("expression, stride", [
    # PyTorch 2.13 on t = randn(3, 4, 5).transpose(1, 2): reductions, softmax, cumulative ops, cat, stack, roll
    # and masked_fill give row-major results (NumPy keeps the transposed order); elementwise ops keep it
    ("t.sum(0)", (4, 1)), ("t.mean(0)", (4, 1)), ("t.prod(0)", (4, 1)), ("t.nansum(0)", (4, 1)), ("t.amax(0)", (4, 1)),
    ("t.max(0).values", (4, 1)), ("t.var(0)", (4, 1)), ("t.std(0)", (4, 1)), ("t.norm(dim=0)", (4, 1)),
    ("t.logsumexp(0)", (4, 1)), ("t.any(0)", (4, 1)), ("t.all(0)", (4, 1)), ("t.count_nonzero(0)", (4, 1)),
    ("t.softmax(-1)", (20, 4, 1)), ("t.log_softmax(1)", (20, 4, 1)), ("t.cumsum(1)", (20, 4, 1)),
    ("t.cumprod(1)", (20, 4, 1)), ("t.logcumsumexp(1)", (20, 4, 1)), ("t.roll(1, 1)", (20, 4, 1)),
    ("torch.cat([t, t], 2)", (40, 8, 1)), ("torch.stack([t, t])", (60, 20, 4, 1)),
    ("t.masked_fill(t > 0, 0)", (20, 4, 1)), ("t.exp()", (20, 1, 5)), ("t * t", (20, 1, 5)),
    ("t.all()", ()), ("t.any()", ()), ("t.count_nonzero()", ()), ("t.sum()", ()),
])
def test_which_results_are_row_major_whatever_the_input_layout(expression: str, stride: tuple) -> None:
    t = torch.randn(3, 4, 5, requires_grad=True).transpose(1, 2)
    out = eval(expression, {"torch": torch, "t": t})
    assert out.stride() == stride
    if out.requires_grad:  # a saved result copied row-major still serves the backward
        out.sum().backward()


# PyTorch 2.13's result strides of elementwise ops of tensors in different layouts (its TensorIterator:
# the first operand's layout wins, broadcast dimensions tell nothing), and of the ops that give their
# input's suggested memory format (channels last where the input is, else row-major). ``cl`` is (2, 3, 4, 5)
# channels-last, ``c`` row-major, ``t`` (2, 3, 5, 4) transposed to (2, 3, 4, 5).
_LAYOUT_CASES = [
    ("cl + c", (60, 1, 15, 3)), ("c + cl", (60, 20, 5, 1)), ("cl + cl", (60, 1, 15, 3)), ("t + c", (60, 20, 1, 4)),
    ("c + t", (60, 20, 5, 1)), ("cl + t", (60, 1, 15, 3)), ("t + cl", (60, 20, 1, 4)),
    ("cl + r(3, 1, 1)", (60, 1, 15, 3)), ("r(3, 1, 1) + cl", (60, 1, 15, 3)), ("r(5) + cl", (60, 1, 15, 3)),
    ("c + r(1, 3, 4, 5).contiguous(memory_format=CL)", (60, 20, 5, 1)),
    ("r(1, 3, 4, 5).contiguous(memory_format=CL) + c", (60, 1, 15, 3)),
    ("r(2, 3, 1, 1).contiguous(memory_format=CL) + c", (60, 20, 5, 1)), ("r(2, 1, 4, 5) + cl", (60, 1, 15, 3)),
    ("cl * c", (60, 1, 15, 3)), ("cl - c", (60, 1, 15, 3)), ("cl / c", (60, 1, 15, 3)),
    ("torch.maximum(c, cl)", (60, 20, 5, 1)), ("torch.atan2(cl, c)", (60, 1, 15, 3)),
    ("torch.where(c > 0, cl, c)", (60, 20, 5, 1)), ("torch.where(cl > 0, c, c)", (60, 1, 15, 3)),
    ("cl > c", (60, 1, 15, 3)), ("cl * 2", (60, 1, 15, 3)), ("torch.tensor(2.0) * cl", (60, 1, 15, 3)),
    ("r(4, 3).t() + r(3, 4)", (1, 3)), ("r(3, 4) + r(4, 3).t()", (4, 1)), ("r(3, 1) + r(4, 3).t()", (1, 3)),
    ("r(4, 5, 3).permute(2, 0, 1) + r(3, 4, 5)", (1, 15, 3)),
    ("r(4, 5, 3).permute(2, 0, 1) + r(5, 3, 4).permute(1, 2, 0)", (1, 15, 3)),
    ("F.interpolate(cl, scale_factor=2)", (240, 1, 30, 3)),
    ("F.interpolate(cl, scale_factor=2, mode='bilinear')", (240, 1, 30, 3)),
    ("F.interpolate(cl, size=(3, 7), mode='bicubic')", (63, 1, 21, 3)),
    ("F.interpolate(cl, size=(2, 2), mode='area')", (12, 1, 6, 3)),
    ("F.interpolate(t, scale_factor=2)", (240, 80, 10, 1)),
    ("F.pad(cl, (1, 1, 2, 0))", (126, 1, 21, 3)), ("F.pad(cl, (1, 1, 2, 0), mode='reflect')", (126, 1, 21, 3)),
    ("F.pad(cl, (1, 1, 2, 0), mode='replicate')", (126, 1, 21, 3)),
    ("F.pad(cl, (1, 1, 2, 0), mode='circular')", (126, 42, 7, 1)), ("F.pad(t, (1, 1))", (84, 28, 7, 1)),
    ("F.pad(t, (1, 1, 1, 1), mode='reflect')", (126, 42, 7, 1)),
    ("F.group_norm(cl, 3)", (60, 1, 15, 3)), ("F.group_norm(t, 3)", (60, 20, 5, 1)),
    ("F.batch_norm(cl, None, None, training=True)", (60, 1, 15, 3)),
    ("F.batch_norm(t, None, None, training=True)", (60, 20, 5, 1)),
    ("F.batch_norm(cl, torch.zeros(3), torch.ones(3))", (60, 1, 15, 3)),
    ("F.layer_norm(cl, (5,))", (60, 20, 5, 1)), ("F.instance_norm(cl)", (60, 20, 5, 1)),
    ("F.instance_norm(t)", (60, 20, 5, 1)), ("F.avg_pool2d(cl, 2)", (12, 1, 6, 3)),
    ("F.max_pool2d(t, 2)", (12, 4, 2, 1)),
    ("F.adaptive_avg_pool2d(cl, 2)", (12, 1, 6, 3)), ("F.adaptive_max_pool2d(cl, 2)", (12, 1, 6, 3)),
    ("F.adaptive_avg_pool2d(t, 2)", (12, 4, 2, 1)),
]


@pytest.mark.parametrize(("expression", "stride"), _LAYOUT_CASES)
def test_result_layouts_are_pytorchs(expression: str, stride: tuple) -> None:
    def r(*shape: int) -> torch.Tensor:
        return torch.randn(*shape)

    c = r(2, 3, 4, 5)
    cl = c.contiguous(memory_format=torch.channels_last)
    t = r(2, 3, 5, 4).transpose(2, 3)
    names = {"torch": torch, "F": nn.functional, "CL": torch.channels_last, "r": r, "c": c, "cl": cl, "t": t}
    assert eval(expression, names).stride() == stride
