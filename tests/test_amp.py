"""torch.amp: GradScaler follows PyTorch's algorithm (values recorded from torch 2.13) and autocast
is accepted as a region flag."""
import pytest

import tinyframe as torch


def _param_and_optimizer():
    w = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    return w, torch.optim.SGD([w], lr=0.1)


def test_grad_scaler_scales_the_loss_and_unscales_gradients_before_the_step():
    scaler = torch.amp.GradScaler("cpu")
    assert scaler.state_dict() == {"scale": 65536.0, "growth_factor": 2.0, "backoff_factor": 0.5,
                                   "growth_interval": 2000, "_growth_tracker": 0}
    w, opt = _param_and_optimizer()
    scaled = scaler.scale((w * w).sum())
    assert scaled.item() == 327680.0
    scaled.backward()
    assert w.grad.tolist() == [131072.0, 262144.0]
    scaler.unscale_(opt)
    assert w.grad.tolist() == [2.0, 4.0]
    assert scaler.step(opt) is None
    scaler.update()
    assert w.tolist() == pytest.approx([0.8, 1.6]) and scaler.get_scale() == 65536.0
    with pytest.raises(RuntimeError, match="unscale_\\(\\) has already been called on this optimizer"):
        scaler.scale((w * w).sum()).backward()
        scaler.unscale_(opt)
        scaler.unscale_(opt)


def test_grad_scaler_skips_a_step_with_inf_gradients_and_backs_off():
    scaler = torch.amp.GradScaler("cpu")
    w, opt = _param_and_optimizer()
    w.grad = torch.tensor([float("inf"), 1.0])
    scaler.step(opt)
    scaler.update()
    assert w.tolist() == [1.0, 2.0] and scaler.get_scale() == 32768.0


def test_grad_scaler_grows_after_growth_interval_clean_steps():
    scaler = torch.amp.GradScaler("cpu", growth_interval=2)
    w, opt = _param_and_optimizer()
    for _ in range(5):
        opt.zero_grad()
        scaler.scale((w * w).sum()).backward()
        scaler.step(opt)
        scaler.update()
    assert scaler.get_scale() == 262144.0
    assert w.tolist() == pytest.approx([0.32768, 0.65536])


def test_disabled_grad_scaler_is_a_pass_through():
    scaler = torch.amp.GradScaler("cpu", enabled=False)
    w, opt = _param_and_optimizer()
    loss = (w * w).sum()
    assert scaler.scale(loss) is loss and scaler.get_scale() == 1.0 and scaler.state_dict() == {}


def test_autocast_is_available_for_cpu_and_cuda():
    # torch.amp.is_autocast_available: True for 'cpu' and 'cuda', False for 'meta'
    assert torch.amp.is_autocast_available("cpu") and torch.amp.is_autocast_available("cuda")
    assert not torch.amp.is_autocast_available("meta")


def test_autocast_marks_its_region_and_nests():
    assert not torch.is_autocast_enabled("cpu")
    with torch.autocast(device_type="cpu"):
        assert torch.is_autocast_enabled("cpu")
        with torch.autocast(device_type="cpu", enabled=False):
            assert not torch.is_autocast_enabled("cpu")
        assert torch.is_autocast_enabled("cpu")
    assert not torch.is_autocast_enabled("cpu")
    region = torch.autocast("cpu", dtype=torch.float16)
    assert (region.fast_dtype, region.device) == (torch.float16, "cpu")

    @torch.autocast("cuda")
    def inside():
        return torch.is_autocast_enabled("cuda")
    assert inside() and not torch.is_autocast_enabled("cuda")


class _MatMul(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        ctx.forward_in_region = torch.is_autocast_enabled("cpu")
        return a.mm(b)

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        ctx.backward_in_region = torch.is_autocast_enabled("cpu")
        return grad.mm(b.t()), a.t().mm(grad)


def test_custom_fwd_casts_inputs_and_runs_outside_the_region():
    # PyTorch 2.13: the Function's result is float32 where a plain mm gives bfloat16
    a = torch.ones(2, 3, dtype=torch.bfloat16, requires_grad=True)
    b = torch.ones(3, 2, requires_grad=True)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        out = _MatMul.apply(a, b)
        assert a.float().mm(b).dtype == torch.bfloat16
    assert out.dtype == torch.float32 and out.grad_fn.forward_in_region is False
    out.sum().backward()
    assert out.grad_fn.backward_in_region is False
    assert a.grad.dtype == torch.bfloat16 and a.grad.tolist() == [[2.0] * 3] * 2
    with pytest.raises(ValueError, match="Expected `device_type` of type `str`"):
        torch.amp.custom_fwd(device_type=None)
    with pytest.warns(FutureWarning, match="torch.cuda.amp.custom_fwd"):
        torch.cuda.amp.custom_fwd(lambda ctx, x: x)
