"""Debugging helpers from forum answers and test suites: torch.autograd.set_detect_anomaly catching a NaN
in backward (the error names the backward function), detect_anomaly as a context manager, gradcheck and
gradgradcheck on a custom Function (including a wrong backward caught by gradcheck with raise_exception
False), torch.testing.assert_close failures and their messages, clip_grad_norm_ with
error_if_nonfinite, hooks that report non-finite gradients, torch.isfinite / isnan / isinf summaries,
and shape-mismatch errors from common layers printed by type and message."""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(101)


class MySquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


class WrongSquare(MySquare):
    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 3 * x * grad


x = torch.randn(4, dtype=torch.float64, requires_grad=True)
print("gradcheck", torch.autograd.gradcheck(MySquare.apply, (x,)), torch.autograd.gradgradcheck(MySquare.apply, (x,)))
print("wrong backward", torch.autograd.gradcheck(WrongSquare.apply, (x,), raise_exception=False))
try:
    torch.autograd.gradcheck(WrongSquare.apply, (x,))
except RuntimeError as e:
    print("gradcheck error:", str(e).splitlines()[0])
try:
    torch.autograd.gradcheck(MySquare.apply, (torch.randn(3, requires_grad=True),))
except Exception as e:
    print(type(e).__name__)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print("float32 gradcheck", torch.autograd.gradcheck(MySquare.apply, (torch.randn(3, requires_grad=True),), raise_exception=False))
    print("warned", len(caught) > 0)

y = torch.tensor([1.0, 0.0, 2.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    try:
        z = torch.sqrt(y) * 0 + (y / y.detach().clamp(min=1e-12)).sum()
        out = (y.sqrt() / y).sum()
        out.backward()
    except RuntimeError as e:
        print("anomaly:", str(e))
torch.autograd.set_detect_anomaly(True)
print("anomaly enabled", torch.is_anomaly_enabled())
w = torch.tensor([0.0, 1.0], requires_grad=True)
try:
    torch.log(w).sum().mul(0).backward()
    print("no nan", w.grad)
except RuntimeError as e:
    print("anomaly 2:", str(e))
torch.autograd.set_detect_anomaly(False)

bad = []
p = torch.tensor([0.0, 4.0], requires_grad=True)
p.register_hook(lambda g: bad.append(bool((~torch.isfinite(g)).any())))
(p.sqrt()).sum().backward()
print("non-finite grad seen", bad, p.grad, torch.isnan(p.grad).sum().item(), torch.isinf(p.grad).sum().item())
lin = nn.Linear(2, 1)
lin.weight.grad = torch.tensor([[float("inf"), 1.0]])
lin.bias.grad = torch.tensor([0.5])
try:
    nn.utils.clip_grad_norm_(lin.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("clip error:", str(e)[:90])
print("clip without error", nn.utils.clip_grad_norm_(lin.parameters(), 1.0), lin.bias.grad)

for actual, expected, kwargs in [
    (torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.0, 3.1]), {}),
    (torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0], dtype=torch.float64), {}),
    (torch.tensor([1, 2]), torch.tensor([1, 3]), {}),
    (torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.001]), {"rtol": 1e-2, "atol": 0.0}),
    (torch.tensor([[1.0, float("nan")]]), torch.tensor([[1.0, float("nan")]]), {"equal_nan": True}),
    (torch.zeros(2, 3), torch.zeros(3, 2), {}),
]:
    try:
        torch.testing.assert_close(actual, expected, **kwargs)
        print("assert_close ok")
    except AssertionError as e:
        print("assert_close:", " | ".join(line for line in str(e).splitlines() if line))

conv = nn.Conv2d(3, 4, 3)
for fn in (lambda: conv(torch.randn(1, 4, 8, 8)), lambda: nn.Linear(5, 2)(torch.randn(3, 4)),
           lambda: F.cross_entropy(torch.randn(3, 4), torch.tensor([0, 1])),
           lambda: torch.cat([torch.zeros(2, 3), torch.zeros(3, 2)]), lambda: torch.zeros(2, 3) @ torch.zeros(2, 3),
           lambda: nn.BatchNorm1d(4)(torch.randn(1, 4)), lambda: torch.zeros(4).view(3, -1),
           lambda: F.mse_loss(torch.zeros(3), torch.zeros(3, dtype=torch.long)),
           lambda: nn.Embedding(5, 2)(torch.tensor([5]))):
    try:
        fn()
    except Exception as e:
        print(type(e).__name__ + ":", str(e).splitlines()[0][:150])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    F.mse_loss(torch.zeros(3, 1), torch.zeros(3))
    print("broadcast warning:", str(caught[0].message).split("(")[0], caught[0].category.__name__)
