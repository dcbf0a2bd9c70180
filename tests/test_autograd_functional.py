"""tinyframe.autograd.functional against values recorded from PyTorch 2.13 (same functions and inputs)."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as torch
from tinyframe.autograd import functional as F


def f(x, y):
    return (x ** 2 * y).sum() + (x * y.exp()).prod()


def g(x):
    return torch.stack([x[0] * x[1], x[1] ** 3, x.sum()])


@pytest.fixture
def xy(device: str):
    return (torch.tensor([1.0, 2.0], dtype=torch.float64, device=device),
            torch.tensor([0.5, -1.0], dtype=torch.float64, device=device))


def close(actual, expected) -> None:
    np.testing.assert_allclose(actual.detach().cpu().numpy(), np.asarray(expected), rtol=1e-10, atol=1e-12)


def test_vjp_and_jvp_match_pytorch(xy) -> None:
    x, _ = xy
    out, vjp = F.vjp(g, x, torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64, device=x.device))
    close(out, [2, 8, 3])
    close(vjp, [2.5, -22.5])
    out, jvp = F.jvp(g, x, torch.tensor([0.3, 0.7], dtype=torch.float64, device=x.device))
    close(jvp, [1.3, 8.4, 1.0])
    assert not out.requires_grad and not jvp.requires_grad


def test_jacobian_keeps_pytorchs_structure(xy) -> None:
    x, y = xy
    close(F.jacobian(g, x), [[2, 1], [0, 12], [1, 1]])
    dx, dy = F.jacobian(f, (x, y))
    close(dx, [2.213061319425, -3.393469340287])
    close(dy, [2.213061319425, 5.213061319425])
    doubled, summed = F.jacobian(lambda a: (a * 2, a.sum()), x)
    close(doubled, [[2, 0], [0, 2]])
    close(summed, [1, 1])


def test_hessian_and_hessian_vector_products_match_pytorch(xy) -> None:
    x, y = xy
    (hxx, hxy), (hyx, hyy) = F.hessian(f, (x, y))
    close(hxx, [[1.0, 0.606530659713], [0.606530659713, -2.0]])
    close(hxy, [[3.213061319425, 1.213061319425], [0.606530659713, 4.606530659713]])
    close(hyx, [[3.213061319425, 0.606530659713], [1.213061319425, 4.606530659713]])
    close(hyy, [[1.213061319425] * 2] * 2)
    close(F.hessian(lambda a: (a ** 3).sum(), x), [[6, 0], [0, 12]])
    for product in (F.vhp, F.hvp):
        value, (vx, vy) = product(f, (x, y), (x, y))
        close(value, -2.286938680575)
        close(vx, [2.606530659713, -7.696734670144])
        close(vy, [3.819591979138, 9.819591979138])


def test_create_graph_lets_the_result_be_differentiated_again() -> None:
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    _, vjp = F.vjp(lambda a: (a ** 3).sum(), x, create_graph=True)
    assert vjp.requires_grad
    vjp.sum().backward()
    close(x.grad, [6, 12])


def test_unused_inputs_give_zeros_or_raise_in_strict_mode() -> None:
    x, y = torch.ones(2, dtype=torch.float64), torch.ones(3, dtype=torch.float64)
    dx, dy = F.jacobian(lambda a, b: a * 2, (x, y))
    close(dy, np.zeros((2, 3)))
    with pytest.raises(RuntimeError, match="independent of input 1"):
        F.vjp(lambda a, b: (a * 2).sum(), (x, y), strict=True)


def test_bad_arguments_say_what_is_wrong() -> None:
    with pytest.raises(TypeError, match="must be either a Tensor or a tuple of Tensors"):
        F.jacobian(lambda a: a, [1.0, 2.0])
    with pytest.raises(RuntimeError, match="v can only be None"):
        F.vjp(lambda a: a * 2, torch.ones(2))
    with pytest.raises(RuntimeError, match="single element"):
        F.hessian(lambda a: a * 2, torch.ones(2))


def test_forward_mode_strategy_gives_the_same_jacobian_and_pytorchs_refusals(xy) -> None:
    x, _ = xy
    close(F.jacobian(g, x, vectorize=True, strategy="forward-mode"), [[2, 1], [0, 12], [1, 1]])
    close(F.hessian(lambda a: (a ** 3).sum(), x, vectorize=True, outer_jacobian_strategy="forward-mode"),
          [[6, 0], [0, 12]])
    with pytest.raises(NotImplementedError, match="only implemented for `vectorize=True`"):
        F.jacobian(g, x, strategy="forward-mode")
    with pytest.raises(NotImplementedError, match='`create_graph=True` and `strategy="forward-mode"`'):
        F.hessian(lambda a: (a ** 3).sum(), x, create_graph=True, vectorize=True,
                  outer_jacobian_strategy="forward-mode")
    with pytest.raises(RuntimeError, match='`strict=True` and `strategy="forward-mode"`'):
        F.jacobian(g, x, vectorize=True, strict=True, strategy="forward-mode")
    with pytest.raises(RuntimeError, match="`strict=True` and `vectorized=True` are not supported together"):
        F.jacobian(g, x, vectorize=True, strict=True)
    with pytest.raises(AssertionError, match='Expected strategy to be either "forward-mode" or "reverse-mode"'):
        F.jacobian(g, x, strategy="fwd")
