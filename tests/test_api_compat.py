"""PyTorch API that everyday scripts call: default device, factory keywords, inference mode, node metadata."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as torch
from tinyframe import nn


@pytest.fixture(autouse=True)
def _restore_default_device():
    yield
    torch.set_default_device(None)


def test_default_device_is_cpu_and_settable(device: str) -> None:
    assert torch.get_default_device() == torch.device("cpu")
    torch.set_default_device(device)
    assert torch.get_default_device().type == device
    for made in (torch.zeros(2), torch.ones(2, 3), torch.randn(4), torch.tensor([1.0]), torch.arange(3),
                 torch.eye(2), torch.full((2,), 1.5), torch.linspace(0, 1, 3)):
        assert made.device.type == device
    torch.set_default_device(None)
    assert torch.zeros(2).device == torch.device("cpu")


def test_explicit_device_wins_over_the_default(device: str) -> None:
    torch.set_default_device(device)
    assert torch.zeros(2, device="cpu").device == torch.device("cpu")
    assert torch.randn(2, device="cpu").device == torch.device("cpu")
    assert torch.arange(3, device="cpu").device == torch.device("cpu")


def test_tensor_from_a_tensor_keeps_its_device(device: str) -> None:
    source = torch.ones(2, device=device)
    torch.set_default_device("cpu")
    assert torch.tensor(source).device == source.device
    assert torch.as_tensor(source).device == source.device


def test_device_as_a_context_manager_sets_the_default_inside(device: str) -> None:
    with torch.device(device) as dev:
        assert dev.type == device
        assert torch.zeros(1).device.type == device
        with torch.device("cpu"):
            assert torch.zeros(1).device == torch.device("cpu")
        assert torch.ones(1).device.type == device
    assert torch.zeros(1).device == torch.device("cpu")


@pytest.mark.parametrize("factory", ["zeros", "ones", "empty", "rand", "randn"])
def test_factories_take_size_as_a_keyword(factory: str) -> None:
    made = getattr(torch, factory)(size=(2, 3), dtype=torch.float64)
    assert made.shape == (2, 3) and made.dtype == torch.float64
    assert getattr(torch, factory)(size=[4]).shape == (4,)
    with pytest.raises(TypeError, match="size"):
        getattr(torch, factory)(2, size=(2,))


def test_random_factories_take_a_generator_by_keyword() -> None:
    first = torch.randn(size=(3,), generator=torch.Generator().manual_seed(5))
    second = torch.randn(3, generator=torch.Generator().manual_seed(5))
    np.testing.assert_array_equal(first.numpy(), second.numpy())


def test_inference_mode_records_nothing_and_restores() -> None:
    x = torch.ones(2, requires_grad=True)
    with torch.inference_mode():
        assert torch.is_inference_mode_enabled() and not torch.is_grad_enabled()
        y = x * 2
    assert y.grad_fn is None and not y.requires_grad
    assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()
    with torch.inference_mode(False):
        assert (x * 2).grad_fn is not None
    with torch.inference_mode(), torch.no_grad(), torch.inference_mode(False):  # PyTorch 2.13: grad mode on
        assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()


_SAVED = ("Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in "
          "computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use "
          "it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.")
_INPLACE = ("Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a "
            "normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.")


def test_inference_tensors_are_pytorchs() -> None:
    """What PyTorch 2.13 says of tensors made in inference_mode (values recorded from it)."""
    w, n = torch.ones(3, requires_grad=True), torch.ones(3)
    with torch.inference_mode():
        a, b, view = torch.ones(3), w * 2, n.view(3)
        made = torch.tensor([1.0, 2.0])
        assert (a.is_inference(), b.is_inference(), b.requires_grad, made.is_inference()) == (True, True, False, True)
        assert not view.is_inference() and not n[0:2].is_inference() and not w.is_inference()
        assert a.add_(1).is_inference() and not n.add_(0).is_inference()  # in place inside: allowed
        assert torch.ones(2, requires_grad=True).requires_grad
        with torch.inference_mode(False):
            assert not torch.ones(1).is_inference() and torch.is_grad_enabled()
        with torch.no_grad():
            assert torch.ones(1).is_inference()
    assert a.is_inference() and torch.is_inference(a) and not n.is_inference()
    assert a.view(3).is_inference() and a.detach().is_inference()  # views of an inference tensor
    assert not (a + 1).is_inference() and not a.clone().is_inference() and not a.sum().is_inference()
    assert (a + w).grad_fn.name() == "AddBackward0"  # (add saves neither operand)
    assert torch.cat([a, w]).grad_fn.name() == "CatBackward0"
    for use in (lambda: a * w, lambda: w * a, lambda: w.exp() * a, lambda: torch.mm(a.reshape(1, 3), w.reshape(3, 1)),
                lambda: nn.functional.linear(a.reshape(1, 3), w.reshape(1, 3))):
        with pytest.raises(RuntimeError) as error:
            use()
        assert str(error.value) == _SAVED
    for write in (lambda: a.add_(1), lambda: a.zero_(), lambda: a.__setitem__(0, 1.0)):
        with pytest.raises(RuntimeError) as error:
            write()
        assert str(error.value) == _INPLACE
    with pytest.raises(RuntimeError, match="^Setting requires_grad=True on inference tensor outside InferenceMode is "
                                           "not allowed.$"):
        a.requires_grad_()
    layer = nn.Linear(3, 1)
    with torch.inference_mode():
        out = layer(torch.ones(2, 3))
    assert out.is_inference() and not out.requires_grad
    with pytest.raises(RuntimeError, match="^Inference tensors cannot be saved for backward"):
        layer(out.expand(2, 3)).sum().backward()


@pytest.mark.parametrize("switch", [torch.no_grad, torch.inference_mode, torch.enable_grad])
def test_grad_mode_switches_decorate_with_or_without_parentheses(switch) -> None:
    x = torch.ones(1, requires_grad=True)

    def double(t):
        return t * 2

    for decorated in (switch(double), switch()(double)):
        with torch.no_grad():
            out = decorated(x)
        assert out.requires_grad == (switch is torch.enable_grad)
    assert torch.is_grad_enabled()


def test_grad_fn_metadata_is_a_dict_kept_with_the_node() -> None:
    x = torch.ones(2, requires_grad=True)
    y = (x * 3).sum()
    assert y.grad_fn.metadata == {}
    y.grad_fn.metadata["tag"] = "loss"
    assert y.grad_fn.metadata == {"tag": "loss"}
    accumulate = y.grad_fn.next_functions[0][0].next_functions[0][0]
    assert accumulate.metadata == {}


def test_post_accumulate_grad_hook_sees_the_accumulated_grad_each_backward() -> None:
    w = torch.ones(3, requires_grad=True)
    seen = []
    handle = w.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.clone()))
    (w * 2).sum().backward()
    (w * 3).sum().backward()
    assert [s.tolist() for s in seen] == [[2.0] * 3, [5.0] * 3]
    torch.autograd.grad((w * 4).sum(), w)  # grad() accumulates nothing, so runs no such hook
    assert len(seen) == 2
    handle.remove()
    (w * 2).sum().backward()
    assert len(seen) == 2


def test_post_accumulate_grad_hook_refuses_non_leaves_and_tensors_without_grad() -> None:
    with pytest.raises(RuntimeError, match="non-leaf"):
        (torch.ones(1, requires_grad=True) * 2).register_post_accumulate_grad_hook(print)
    with pytest.raises(RuntimeError, match="doesn't require gradient"):
        torch.ones(1).register_post_accumulate_grad_hook(print)


def test_detect_anomaly_names_the_node_that_made_nan() -> None:
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    with pytest.warns(UserWarning, match="Anomaly Detection has been enabled"):
        with torch.autograd.detect_anomaly():
            assert torch.is_anomaly_enabled()
            with pytest.raises(RuntimeError, match="Function 'SqrtBackward0' returned nan values in its 0th output."):
                (x.sqrt() * 0).sum().backward()
            with pytest.raises(RuntimeError, match="Function 'MulBackward0' returned nan values in its 0th output."):
                (x * 0).sqrt().sum().backward()
    assert not torch.is_anomaly_enabled()
    (x.sqrt() * 0).sum().backward()  # outside: NaN flows into .grad as in PyTorch
    assert bool(x.grad.isnan().any())


def test_set_detect_anomaly_switches_at_once_and_restores_as_a_context() -> None:
    x = torch.tensor([0.0], requires_grad=True)
    with torch.autograd.set_detect_anomaly(True):
        assert torch.is_anomaly_enabled() and torch.is_anomaly_check_nan_enabled()
        with pytest.raises(RuntimeError, match="SqrtBackward0"):
            (x.sqrt() * 0).sum().backward(create_graph=True)
    assert not torch.is_anomaly_enabled()
    torch.autograd.set_detect_anomaly(True, check_nan=False)
    try:
        (x.sqrt() * 0).sum().backward()
    finally:
        torch.autograd.set_detect_anomaly(False)


def test_special_function_methods_and_in_place_forms_give_pytorchs_values() -> None:
    # Values recorded from torch 2.13 (float32).
    np.testing.assert_allclose(torch.tensor([0.5, -0.3]).erfinv().tolist(), [0.4769362807273865, -0.27246272563934326],
                               rtol=1e-6)
    np.testing.assert_allclose(torch.tensor([2.5]).lgamma_().tolist(), [0.28468286991119385], rtol=1e-6)
    np.testing.assert_allclose(torch.tensor([0.5, 0.2]).lerp_(torch.tensor([1.0, 1.0]), 0.5).tolist(), [0.75, 0.6],
                               rtol=1e-6)
    np.testing.assert_allclose(torch.tensor([0.2, 0.7]).logit(eps=0.3).tolist(),
                               [-0.8472977876663208, 0.8472978472709656], rtol=1e-6)
    np.testing.assert_allclose(torch.tensor([1.0, 2.0]).atan2_(torch.tensor([2.0, -1.0])).tolist(),
                               [0.46364760398864746, 2.0344438552856445], rtol=1e-6)
    np.testing.assert_allclose(torch.tensor([90.0]).deg2rad_().tolist(), [1.5707963705062866], rtol=1e-6)
    np.testing.assert_allclose(torch.tensor([0.25]).sinc().tolist(), [0.9003162980079651], rtol=1e-6)
