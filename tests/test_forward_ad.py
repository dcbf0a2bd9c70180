"""``autograd.forward_ad`` and ``func.jvp``: tangents against finite differences over common ops, and
values, messages and structures recorded from torch 2.13."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as torch
import tinyframe.autograd.forward_ad as fwAD
import tinyframe.nn.functional as F
from tinyframe import func

X = torch.tensor([1.0, 2, 3])
T = torch.tensor([1.0, 0, 0.5])

OPS = {
    "sin_times_self": lambda a: a.sin() * a,
    "exp_log1p": lambda a: a.exp() + (a * a).log1p(),
    "matmul": lambda a: a.reshape(2, 3) @ a.reshape(3, 2),
    "softmax": lambda a: F.softmax(a.reshape(2, 3), dim=1),
    "tanh_sum": lambda a: a.tanh().sum(-1),
    "conv2d": lambda a: F.conv2d(a.reshape(1, 1, 2, 3), a[:4].reshape(1, 1, 2, 2)),
    "indexing_cat": lambda a: torch.cat([a[::2] * 3, a[1:].pow(3)]),
    "linalg_inv": lambda a: torch.linalg.inv(a.reshape(2, 3)[:, :2] + 3 * torch.eye(2, dtype=a.dtype)),
    "layer_norm": lambda a: F.layer_norm(a.reshape(2, 3), (3,)),
}


@pytest.mark.parametrize("name", list(OPS))
def test_tangent_matches_finite_differences(name: str) -> None:
    fn = OPS[name]
    rng = np.random.default_rng(0)
    x = torch.tensor(rng.uniform(0.5, 1.5, 6))
    t = torch.tensor(rng.uniform(-1, 1, 6))
    with fwAD.dual_level():
        tangent = fwAD.unpack_dual(fn(fwAD.make_dual(x, t))).tangent
    eps = 1e-6
    expected = (fn(x + eps * t) - fn(x - eps * t)) / (2 * eps)
    np.testing.assert_allclose(tangent.numpy(), expected.numpy(), rtol=1e-6, atol=1e-8)


def test_dual_level_values_and_errors_match_pytorch() -> None:
    with pytest.raises(RuntimeError, match="^Trying to create a dual Tensor for forward AD but no level exists, make "
                                           r"sure to enter_dual_level\(\) first.$"):
        fwAD.make_dual(X, T)
    assert fwAD.unpack_dual(X).tangent is None
    with fwAD.dual_level() as level:
        assert level == 0
        dual = fwAD.make_dual(X, T)
        unpacked = fwAD.unpack_dual(dual)
        assert type(unpacked).__name__ == "UnpackedDualTensor" and unpacked._fields == ("primal", "tangent")
        assert torch.equal(unpacked.tangent, T)
        primal, tangent = fwAD.unpack_dual((dual.sin() * dual).sum())
        assert primal.item() == pytest.approx(3.0834, abs=1e-4) and tangent.item() == pytest.approx(-0.0327, abs=1e-4)
        assert fwAD.unpack_dual(torch.tensor([5.0])).tangent is None
        with pytest.raises(RuntimeError, match=r"^Trying to set a forward gradient that has a different size than "
                                               r"that of the original Tensor, this is not supported. Tensor is of size "
                                               r"\[3\] while the given forward gradient is of size \[2\].$"):
            fwAD.make_dual(X, torch.ones(2))
        with pytest.raises(RuntimeError, match="^Nested forward mode AD is not supported at the moment$"):
            with fwAD.dual_level():
                pass
        with pytest.raises(ValueError, match="^Expected primal to be floating point or complex, but got: "
                                             "tinyframe.int64$"):
            fwAD.make_dual(torch.tensor([1, 2]), torch.tensor([1, 1]))
    assert fwAD.unpack_dual(dual).tangent is None


def test_tangents_are_differentiable_when_the_primal_requires_grad() -> None:
    w = torch.tensor([1.0, 2, 3], requires_grad=True)
    with fwAD.dual_level():
        primal, tangent = fwAD.unpack_dual((fwAD.make_dual(w, T) ** 2).sum())
    assert primal.item() == 14.0 and tangent.item() == 5.0
    tangent.backward()
    assert w.grad.tolist() == [2.0, 0.0, 1.0]


def test_func_jvp_matches_pytorch() -> None:
    out, tangent = func.jvp(torch.sin, (X,), (T,))
    np.testing.assert_allclose(tangent.numpy(), [0.5403, 0.0, -0.4950], atol=1e-4)
    (prod, total), (d_prod, d_total) = func.jvp(lambda a, b: (a * b, a + b), (X, X), (T, T))
    assert prod.tolist() == [1, 4, 9] and d_prod.tolist() == [2, 0, 3] and d_total.tolist() == [2, 0, 1]
    out, tangent, aux = func.jvp(lambda a: (a.exp(), a.sum()), (X,), (T,), has_aux=True)
    assert aux.item() == 6.0 and aux.grad_fn is None and not out.requires_grad
    np.testing.assert_allclose(tangent.numpy(), [2.7183, 0.0, 10.0428], atol=1e-4)
    with pytest.raises(RuntimeError, match=r"^jvp\(f, primals, tangents\): Expected primals to be a tuple. E.g. it "
                                           r"should be valid to call f\(\*primals\).$"):
        func.jvp(torch.sin, X, (T,))
    with pytest.raises(RuntimeError, match="Expected primals and tangents to have the same python structure"):
        func.jvp(torch.sin, (X,), (T, T))


def test_jacrev_and_jacfwd_take_has_aux_as_pytorch() -> None:
    x = torch.tensor([1.0, 2.0])
    for transform in (func.jacrev, func.jacfwd):
        jacobian, aux = transform(lambda v: (v.sin(), v.sum()), has_aux=True)(x)
        np.testing.assert_allclose(jacobian.numpy(), [[0.5403, 0], [0, -0.4161]], atol=1e-4)
        assert aux.item() == 3.0 and aux.grad_fn is None
    first, second = func.jacfwd(lambda a, b: a * b, argnums=(0, 1))(x, x)
    assert first.tolist() == second.tolist() == [[1, 0], [0, 2]]
