"""The ``meta`` device as PyTorch 2.13's (behaviour and messages recorded from it): tensors with a shape and a
dtype but no data, modules built on it and materialised with ``Module.to_empty``."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as torch
from tinyframe import nn

_NO_DATA = "Cannot copy out of meta tensor; no data!"


def test_meta_tensors_have_a_shape_and_no_data() -> None:
    m = torch.empty(2, 3, device="meta")
    assert (m.device, m.is_meta, tuple(m.shape), m.dtype, m.stride(), m.is_contiguous()) == (
        torch.device("meta"), True, (2, 3), torch.float32, (3, 1), True)
    assert repr(m) == "tensor(..., device='meta', size=(2, 3))"
    assert repr(torch.zeros(2, device="meta", dtype=torch.int64)) == (
        "tensor(..., device='meta', size=(2,), dtype=tinyframe.int64)")  # (tinyframe's name for the dtype)
    assert repr(torch.zeros(2, device="meta", requires_grad=True)) == (
        "tensor(..., device='meta', size=(2,), requires_grad=True)")
    assert torch.randn(2, 2, device=torch.device("meta")).is_meta and torch.empty_like(m).is_meta
    assert (str(torch.device("meta")), repr(torch.device("meta")), torch.device("meta").index) == (
        "meta", "device(type='meta')", None)
    assert (m.data_ptr(), m.get_device(), torch.ones(1).is_meta, m.is_cpu) == (0, -1, False, False)
    assert m.new_empty(2).is_meta and torch.ones(2).to("meta").is_meta
    # ops give meta results
    assert (m + m).is_meta and m.sum().device.type == "meta"
    assert tuple((m @ torch.empty(3, 4, device="meta")).shape) == (2, 4)
    assert m.uniform_().is_meta and m.copy_(torch.ones(2, 3)).is_meta  # in-place: nothing to write


@pytest.mark.parametrize(("read", "error", "message"), [
    (lambda m: m.tolist(), NotImplementedError, _NO_DATA),
    (lambda m: m.cpu(), NotImplementedError, _NO_DATA),
    (lambda m: m.to("cpu"), NotImplementedError, _NO_DATA),
    (lambda m: torch.ones(2, 3).copy_(m), NotImplementedError, _NO_DATA),
    (lambda m: m.numpy(), TypeError, "can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the "
                                     "tensor to host memory first."),
    (lambda m: m[0, 0].item(), RuntimeError, "Tensor.item() cannot be called on meta tensors"),
    (lambda m: bool(m[0, 0]), RuntimeError, "Tensor.item() cannot be called on meta tensors"),
    (lambda m: float(m[0, 0]), RuntimeError, "Tensor.item() cannot be called on meta tensors"),
    (lambda m: m + torch.ones(2, 3), RuntimeError, "Tensor on device cpu is not on the expected device meta!"),
])
def test_reading_a_meta_tensor_raises_pytorchs_error(read: object, error: type, message: str) -> None:
    with pytest.raises(error) as raised:
        read(torch.empty(2, 3, device="meta"))
    assert str(raised.value) == message


def test_a_module_built_on_meta_is_materialised_by_to_empty() -> None:
    with torch.device("meta"):
        net = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))
    assert all(p.is_meta and type(p) is nn.Parameter and p.requires_grad for p in net.parameters())
    assert [b.device.type for b in net.buffers()] == ["meta"] * 3
    assert tuple(net(torch.empty(5, 3, device="meta")).shape) == (5, 2)
    with pytest.raises(NotImplementedError) as raised:
        net.to("cpu")
    assert str(raised.value) == (f"{_NO_DATA} Please use torch.nn.Module.to_empty() instead of torch.nn.Module.to() "
                                 "when moving module from meta to a different device.")
    weight = net[0].weight
    assert net.to_empty(device="cpu") is net and net[0].weight is weight  # parameters stay the same objects
    assert [(p.device.type, type(p).__name__, p.requires_grad) for p in net.parameters()] == [
        ("cpu", "Parameter", True)] * 6
    assert [(b.device.type, b.dtype) for b in net.buffers()] == [
        ("cpu", torch.float32), ("cpu", torch.float32), ("cpu", torch.int64)]
    for module in net.modules():
        if hasattr(module, "reset_parameters"):
            module.reset_parameters()
    bn = net[1]
    assert (bn.running_mean.tolist(), bn.running_var.tolist(), bn.num_batches_tracked.item()) == (
        [0.0] * 4, [1.0] * 4, 0)
    assert 0 < np.abs(net[0].weight.detach().numpy()).max() <= 1 / np.sqrt(3)  # kaiming-uniform's bound
    net(torch.ones(5, 3)).sum().backward()
    assert net[0].weight.grad is not None
    shallow = nn.Linear(2, 2, device="meta").to_empty(device="cpu", recurse=False)
    assert shallow.weight.device.type == "cpu"


def test_load_state_dict_into_meta_parameters() -> None:
    layer = nn.Linear(2, 2, device="meta")
    state = {"weight": torch.ones(2, 2), "bias": torch.zeros(2)}
    with pytest.warns(UserWarning) as caught:
        layer.load_state_dict(state)
    assert [str(w.message) for w in caught] == [
        f"for {name}: copying from a non-meta parameter in the checkpoint to a meta parameter in the current model, "
        "which is a no-op. (Did you mean to pass `assign=True` to assign items in the state dictionary to their "
        "corresponding key in the module instead of copying them in place?)" for name in ("weight", "bias")]
    assert layer.weight.is_meta
    layer.load_state_dict(state, assign=True)
    assert (layer.weight.device.type, layer.weight.tolist(), type(layer.weight).__name__,
            layer.weight.requires_grad) == ("cpu", [[1.0, 1.0], [1.0, 1.0]], "Parameter", True)


def test_convolutions_on_meta_tensors_give_shapes_only() -> None:
    # PyTorch 2.13: reasoning about shapes with the meta device (the "Reasoning about Shapes" recipe).
    out = nn.Conv2d(3, 5, 2, device="meta")(torch.rand(2, 3, 10, 10, device="meta"))
    assert repr(out) == "tensor(..., device='meta', size=(2, 5, 9, 9), grad_fn=<ConvolutionBackward0>)"
    up = nn.ConvTranspose2d(3, 4, 2, stride=2, groups=1, device="meta")(torch.rand(2, 3, 10, 10, device="meta"))
    assert (up.is_meta, tuple(up.shape)) == (True, (2, 4, 20, 20))
    grouped = nn.Conv1d(4, 6, 3, groups=2, device="meta")(torch.rand(4, 10, device="meta"))
    assert (grouped.is_meta, tuple(grouped.shape)) == (True, (6, 8))
