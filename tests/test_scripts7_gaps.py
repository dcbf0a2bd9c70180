"""Gaps found by the scripts in tests/pytorch_scripts (round 7), each pinned against PyTorch 2.13's behaviour."""
import pytest

import tinyframe as torch
from tinyframe import nn


def test_share_memory_marks_the_storage_its_views_see_it_and_copies_do_not() -> None:
    t = torch.arange(6.0).view(2, 3)
    view = t[1]
    assert not t.is_shared() and not view.is_shared()
    assert t.share_memory_() is t
    assert t.is_shared() and view.is_shared() and t.detach().is_shared() and t.T.is_shared()
    assert not t.clone().is_shared() and not (t + 1).is_shared()


def test_module_share_memory_shares_parameters_buffers_and_existing_gradients() -> None:
    model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
    model[0].weight.grad = torch.zeros(2, 2)
    assert model.share_memory() is model
    assert all(p.is_shared() for p in model.parameters()) and all(b.is_shared() for b in model.buffers())
    assert model[0].weight.grad.is_shared() and model[0].bias.grad is None


def test_data_has_its_own_version_counter_so_in_place_changes_through_it_escape_autograds_check() -> None:
    a = torch.ones(3, requires_grad=True)
    b = a * 2
    c = b * b  # saves b: an in-place change of b itself would make backward raise
    d = b.data
    d.add_(1)
    d[0:2].mul_(2)
    assert (b._version, d._version) == (0, 2)
    assert d._base is None and d.is_leaf and not d.requires_grad
    assert b.tolist() == [6.0, 6.0, 3.0]  # the same storage
    c.sum().backward()  # PyTorch does not notice, and neither do we: the gradient uses the changed values
    assert a.grad.tolist() == [24.0, 24.0, 12.0]  # 2 * b * 2 with b's changed values
    e = b.detach()
    e.add_(1)
    assert (b._version, e._version) == (1, 1)  # detach() shares the counter


@pytest.mark.filterwarnings("ignore:This overload of")
def test_deprecated_scalar_first_overloads_of_add_sub_addcmul_addcdiv() -> None:
    t = torch.tensor([1.0, 2.0])
    assert t.add(2, t).tolist() == [3.0, 6.0] and torch.add(t, 3, t).tolist() == [4.0, 8.0]
    assert t.sub(0.5, t).tolist() == [0.5, 1.0]
    assert t.addcmul(2, t, t).tolist() == [3.0, 10.0] and torch.addcmul(t, 0.5, t, t).tolist() == [1.5, 4.0]
    assert torch.allclose(t.addcdiv(-1, t, t + 1), torch.tensor([0.5, 4.0 / 3.0]))
    u = t.clone()
    assert u.add_(0.5, t) is u and u.tolist() == [1.5, 3.0]
    u.addcmul_(1.0, t, t).sub_(1, t).addcdiv_(2, t, t)
    assert u.tolist() == [3.5, 7.0]
    with pytest.raises(TypeError, match=r"add\(\) takes 1 positional argument but 2 were given"):
        t.add(t, 2)


def test_an_optimizer_that_skips_optimizer_init_steps_without_hooks_as_in_pytorch() -> None:
    class Wrapper(torch.optim.Optimizer):  # Lookahead as many repos write it
        def __init__(self, inner: torch.optim.Optimizer) -> None:
            self.inner, self.param_groups, self.defaults = inner, inner.param_groups, inner.defaults

        def step(self, closure: object = None) -> None:
            self.inner.step()

    p = nn.Parameter(torch.ones(2))
    p.grad = torch.ones(2)
    Wrapper(torch.optim.SGD([p], lr=0.5)).step()
    assert p.tolist() == [0.5, 0.5]


def test_cuda_legacy_tensor_types_construct_on_the_gpu_and_check_device_and_dtype(device: str) -> None:
    legacy = torch.cuda.FloatTensor if device == "cuda" else torch.FloatTensor  # as PyTorch-GAN picks its Tensor
    assert repr(torch.cuda.LongTensor) == "<class 'tinyframe.cuda.LongTensor'>"
    x = torch.ones(2, device=device)
    assert isinstance(x, legacy) and isinstance(x, torch.cuda.FloatTensor) == (device == "cuda")
    assert not isinstance(x.long(), legacy) and isinstance(x.long(), torch.cuda.LongTensor) == (device == "cuda")
    made = legacy(2, 3).fill_(1.0)
    assert made.device.type == device and made.dtype == torch.float32 and made.shape == (2, 3)
    if device == "cuda":
        assert torch.cuda.LongTensor([1, 2]).device.type == "cuda"
