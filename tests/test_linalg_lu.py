"""The LU family (``linalg.lu_factor``/``lu_factor_ex``/``lu``/``lu_solve``, ``torch.lu``, ``lu_unpack``,
``lu_solve``) and Householder products (``householder_product``, ``orgqr``, ``geqrf``): values, gradients,
node names and messages recorded from PyTorch 2.13."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as torch

A_VALUES = [[1.0, 2, 3], [4, 5, 6], [7, 8, 10]]
B_VALUES = [[1.5, -0.25], [-2.0, 0.5], [-1.0, -1.5]]
LU_EXPECTED = [[7.0, 8.0, 10.0], [1 / 7, 6 / 7, 11 / 7], [4 / 7, 0.5, -0.5]]


def _a(requires_grad: bool = True) -> torch.Tensor:
    return torch.tensor(A_VALUES, dtype=torch.float64, requires_grad=requires_grad)


def test_lu_factor_values_pivots_and_node_name() -> None:
    LU, pivots = torch.linalg.lu_factor(_a())
    np.testing.assert_allclose(LU.detach().numpy(), LU_EXPECTED, rtol=1e-12)
    assert pivots.tolist() == [3, 3, 3] and pivots.dtype == torch.int32
    assert type(LU.grad_fn).__name__ == "LinalgLuFactorExBackward0"
    factors = torch.linalg.lu_factor_ex(_a())
    assert factors._fields == ("LU", "pivots", "info") and factors.info.tolist() == 0


def test_lu_factor_float32_wide_and_tall_match_pytorch() -> None:
    w = torch.tensor([[1.0, -2, 3, 0.5], [4, 5, -6, 1], [7, 8, 10, 2]])
    LU, pivots = torch.linalg.lu_factor(w)
    assert LU.dtype == torch.float32 and pivots.tolist() == [3, 3, 3]
    np.testing.assert_allclose(LU.numpy(), [[7.0, 8.0, 10.0, 2.0], [0.1428571492, -3.1428570747, 1.5714285374,
                                                                    0.2142857015],
                                            [0.5714285970, -0.1363635659, -11.5, -0.1136364341]], rtol=1e-6)
    LU, pivots = torch.linalg.lu_factor(w.mT)
    assert pivots.tolist() == [3, 3, 3]
    np.testing.assert_allclose(LU.numpy(), [[3.0, -6.0, 10.0], [0.3333333433, 6.0, 3.6666665077],
                                            [-0.6666666865, 0.1666666716, 14.0555562973],
                                            [0.1666666716, 0.3333333433, -0.0632411093]], rtol=1e-6)


def test_linalg_lu_values_and_gradient() -> None:
    a = _a()
    P, L, U = torch.linalg.lu(a)
    assert P.tolist() == [[0, 1, 0], [0, 0, 1], [1, 0, 0]] and P.grad_fn is None
    assert type(L.grad_fn).__name__ == type(U.grad_fn).__name__ == "LinalgLuBackward0"
    np.testing.assert_allclose((P @ L @ U).detach().numpy(), A_VALUES, atol=1e-12)
    (L.sum() * 2 + (U ** 2).sum()).backward()
    np.testing.assert_allclose(a.grad.numpy(), [[-4.496598639455781, -0.3690476190476195, 3.6428571428571432],
                                                [-3.0476190476190466, 4.166666666666665, -0.9999999999999993],
                                                [16.383867832847425, 13.671768707482993, 20.051020408163264]],
                               rtol=1e-10)


def test_lu_factor_gradient_matches_pytorch() -> None:
    a = _a()
    torch.linalg.lu_factor(a).LU.pow(2).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), [[-5.408163265306121, 0.21428571428571375, 3.6428571428571432],
                                                [-1.836734693877551, 2.999999999999999, -0.9999999999999993],
                                                [15.822157434402332, 14.255102040816327, 20.051020408163264]],
                               rtol=1e-10)


def test_lu_solve_values_gradients_and_node() -> None:
    a, b = _a(), torch.tensor(B_VALUES, dtype=torch.float64, requires_grad=True)
    LU, pivots = torch.linalg.lu_factor(a)
    x = torch.linalg.lu_solve(LU, pivots, b)
    assert type(x.grad_fn).__name__ == "LinalgLuSolveBackward0"
    assert [type(f).__name__ for f, _ in x.grad_fn.next_functions] == ["LinalgLuFactorExBackward0", "AccumulateGrad"]
    np.testing.assert_allclose(x.detach().numpy(), np.linalg.solve(A_VALUES, B_VALUES), rtol=1e-12)
    x.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), [[-4 / 9, -4 / 9, 7 / 12], [4 / 9, 4 / 9, -7 / 12], [0, 0, 0]],
                               atol=1e-12)
    np.testing.assert_allclose(b.grad.numpy(), [[-1 / 3, -1 / 3], [1 / 3, 1 / 3], [0, 0]], atol=1e-12)
    right = torch.linalg.lu_solve(LU, pivots, b.mT, left=False)
    assert type(right.grad_fn).__name__ == "LinalgLuSolveBackward0"
    np.testing.assert_allclose(right.detach().numpy(), np.array(B_VALUES).T @ np.linalg.inv(A_VALUES), rtol=1e-12)


def test_lu_unpack_and_deprecated_spellings() -> None:
    LU, pivots = torch.linalg.lu_factor(_a())
    P, L, U = torch.lu_unpack(LU, pivots)
    assert type(L.grad_fn).__name__ == type(U.grad_fn).__name__ == "LuUnpackBackward0"
    np.testing.assert_allclose((P @ L @ U).detach().numpy(), A_VALUES, atol=1e-12)
    assert torch.lu_unpack(LU, pivots, unpack_data=False).L.shape == (0,)
    assert torch.lu_unpack(LU, pivots, unpack_pivots=False).P.shape == (0,)
    with pytest.warns(UserWarning, match="torch.lu is deprecated"):
        factors = torch.lu(_a())
    assert type(factors) is tuple and len(factors) == 2
    with pytest.warns(UserWarning, match="torch.lu is deprecated"):
        assert torch.lu(_a(), get_infos=True)._fields == ("LU", "pivots", "info")
    with pytest.warns(UserWarning, match="torch.lu_solve is deprecated"):
        x = torch.lu_solve(torch.tensor(B_VALUES, dtype=torch.float64), LU, pivots)
    np.testing.assert_allclose(x.detach().numpy(), np.linalg.solve(A_VALUES, B_VALUES), rtol=1e-12)


def test_singular_inputs_report_info_or_raise() -> None:
    factors = torch.linalg.lu_factor_ex(torch.tensor([[1.0, 2], [2, 4]]))
    assert factors.info.tolist() == 2 and factors.pivots.tolist() == [2, 2]
    np.testing.assert_allclose(factors.LU.numpy(), [[2, 4], [0.5, 0]])
    zeros = torch.linalg.lu_factor_ex(torch.zeros(2, 3, 3))
    assert zeros.pivots.tolist() == [[1, 2, 3]] * 2 and zeros.info.tolist() == [1, 1]
    with pytest.raises(RuntimeError, match=r"^torch.linalg.lu_factor: U\[2,2\] is zero and using it on lu_solve"):
        torch.linalg.lu_factor(torch.tensor([[1.0, 2], [2, 4]]))
    with pytest.raises(RuntimeError, match=r"^torch.linalg.lu_factor_ex: \(Batch element 0\): U\[1,1\] is zero"):
        torch.linalg.lu_factor_ex(torch.zeros(2, 3, 3), check_errors=True)
    P, L, U = torch.linalg.lu(torch.zeros(2, 3))
    assert P.tolist() == L.tolist() == [[1, 0], [0, 1]] and U.tolist() == [[0] * 3] * 2


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: torch.linalg.lu_factor(torch.ones(3)), RuntimeError,
     "torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: [3] instead"),
    (lambda: torch.linalg.lu_factor(torch.ones(3, 3, dtype=torch.long)), NotImplementedError,
     "\"lu_cpu\" not implemented for 'Long'"),
    (lambda: torch.linalg.lu(torch.ones(3, 3), pivot=False), RuntimeError,
     "linalg.lu_factor: LU without pivoting is not implemented on the CPU"),
    (lambda: torch.linalg.lu_solve(torch.ones(3, 3), torch.ones(3, dtype=torch.long), torch.ones(3, 1)),
     RuntimeError, "linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32"),
    (lambda: torch.linalg.lu_solve(torch.ones(3, 3), torch.ones(3, dtype=torch.int32), torch.ones(3)),
     RuntimeError, "linalg.lu_solve: The input tensor B must have at least 2 dimensions."),
    (lambda: torch.linalg.lu_solve(torch.ones(3, 4), torch.ones(3, dtype=torch.int32), torch.ones(3, 1)),
     RuntimeError, "torch.linalg.lu_solve: A must be batches of square matrices, but they are 3 by 4 matrices"),
    (lambda: torch.linalg.lu_solve(torch.eye(3), torch.ones(3, dtype=torch.int32), torch.ones(2, 2)),
     RuntimeError, "linalg.lu_solve: Incompatible shapes of A and B for the equation AX = B (3x3 and 2x2)"),
])
def test_bad_inputs_raise_pytorch_errors(call, error, message) -> None:
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


G_VALUES = [[2.0, -1, 0.5], [1, 3, -2], [0.5, 1, 4], [1, 1, 1]]


def test_geqrf_and_householder_product_give_qr() -> None:
    a, tau = torch.geqrf(torch.tensor(G_VALUES, dtype=torch.float64))
    assert a.grad_fn is None
    np.testing.assert_allclose(a.numpy(), [[-2.5, -1.0, -0.8], [0.2222222222, -3.3166247904, 0.6934760925],
                                           [0.1111111111, 0.1583123952, -4.4865455430],
                                           [0.2222222222, 0.1583123952, 0.1342436319]], rtol=1e-9)
    np.testing.assert_allclose(tau.numpy(), [1.8, 1.9045340337, 1.9645953346], rtol=1e-9)
    q = torch.linalg.householder_product(a.requires_grad_(), tau)
    assert type(q.grad_fn).__name__ == "LinalgHouseholderProductBackward0"
    np.testing.assert_allclose(q.detach().numpy(), [[-0.8, 0.5427204202, 0.1150915847],
                                                    [-0.4, -0.7839294959, 0.3959312614],
                                                    [-0.2, -0.2412090757, -0.8931755376],
                                                    [-0.4, -0.1809068067, -0.1795266620]], rtol=1e-9)
    assert type(torch.orgqr(a, tau).grad_fn).__name__ == "LinalgHouseholderProductBackward0"


def test_geqrf_has_no_derivative_as_in_pytorch() -> None:
    a, tau = torch.geqrf(torch.tensor(G_VALUES, requires_grad=True))
    assert type(a.grad_fn).__name__ == type(tau.grad_fn).__name__ == "GeqrfBackward0"
    with pytest.raises(NotImplementedError, match="^the derivative for 'geqrf' is not implemented.$"):
        tau.sum().backward()
    assert torch.geqrf(torch.randn(2, 4, 3)).tau.shape == (2, 3) and torch.geqrf(torch.randn(3, 5)).tau.shape == (3,)


@pytest.mark.parametrize(("shapes", "message"), [
    (((2, 3), (2,)), "input.shape[-2] must be greater than or equal to input.shape[-1]"),
    (((4, 3), (6,)), "input.shape[-1] must be greater than or equal to tau.shape[-1]"),
    (((3,), (3,)), "input must have at least 2 dimensions."),
])
def test_householder_product_bad_shapes(shapes, message) -> None:
    with pytest.raises(RuntimeError) as info:
        torch.linalg.householder_product(torch.ones(*shapes[0]), torch.ones(*shapes[1]))
    assert str(info.value) == f"torch.linalg.householder_product: {message}"


def test_householder_product_dtype_mismatch() -> None:
    with pytest.raises(RuntimeError, match="tau dtype Float does not match input dtype Double"):
        torch.linalg.householder_product(torch.ones(4, 3, dtype=torch.float64), torch.ones(3))


def test_ormqr_matches_pytorch() -> None:
    torch.manual_seed(0)
    a = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
    tau = torch.rand(3, dtype=torch.float64, requires_grad=True)
    c = torch.randn(4, 2, dtype=torch.float64, requires_grad=True)
    product = torch.ormqr(a, tau, c)
    assert type(product.grad_fn).__name__ == "OrmqrBackward0" and len(product.grad_fn.next_functions) == 3
    assert product.sum().item() == pytest.approx(-0.6453668229493418, rel=1e-12)
    assert torch.ormqr(a, tau, c, transpose=True).sum().item() == pytest.approx(-0.6114462760216579, rel=1e-12)
    assert torch.ormqr(a, tau, c.T, left=False).sum().item() == pytest.approx(-0.6114462760216578, rel=1e-12)
    with pytest.raises(RuntimeError, match=r"^torch.ormqr: other.shape\[-2\] must be equal to input.shape\[-2\]$"):
        torch.ormqr(a, tau, c[:3])
    with pytest.raises(RuntimeError, match=r"^torch.ormqr: tau.shape\[-1\] must be equal to min\(other.shape\[-2\], "
                                           r"input.shape\[-1\]\)$"):
        torch.ormqr(a, torch.rand(5, dtype=torch.float64), c)
