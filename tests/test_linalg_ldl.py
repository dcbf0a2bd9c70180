"""``linalg.ldl_factor`` / ``ldl_factor_ex`` / ``ldl_solve``: Bunch-Kaufman pivots and factors recorded from
torch 2.13 (LAPACK's sytrf), solutions, the not-implemented derivatives and errors."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe as torch


def test_one_by_one_and_two_by_two_pivots_match_pytorch() -> None:
    a = torch.tensor([[4.0, 1, 2], [1, -3, 0.5], [2, 0.5, 5]], dtype=torch.float64)
    LD, pivots, info = torch.linalg.ldl_factor_ex(a)
    np.testing.assert_allclose(LD.numpy(), [[4, 0, 0], [0.25, -3.25, 0], [0.5, 0, 4]], atol=1e-15)
    assert pivots.tolist() == [1, 2, 3] and info.tolist() == 0 and pivots.dtype == torch.int32
    LD, pivots = torch.linalg.ldl_factor(torch.tensor([[0.0, 1, 2], [1, 0, 3], [2, 3, 0]], dtype=torch.float64))
    assert LD.tolist() == [[0, 0, 0], [2, 0, 0], [1.5, 0.5, -3]] and pivots.tolist() == [-3, -3, 3]


def test_random_symmetric_matrices_match_pytorch_and_solve() -> None:
    """torch.manual_seed(0); the (3, 6, 6) batch M + M^T after two 3 x 3 cases' right-hand sides."""
    torch.manual_seed(0)
    torch.randn(3, 2, dtype=torch.float64), torch.randn(3, 2, dtype=torch.float64)
    m = torch.randn(3, 6, 6, dtype=torch.float64)
    a = m + m.mT
    LD, pivots, info = torch.linalg.ldl_factor_ex(a)
    np.testing.assert_allclose(LD[0, :2, :2].numpy(), [[0.46182940147298934, 0], [1.8959695106283323,
                                                                                 -1.5460225545916362]], rtol=1e-12)
    b = torch.randn(3, 6, 2, dtype=torch.float64)
    x = torch.linalg.ldl_solve(LD, pivots, b)
    np.testing.assert_allclose((a @ x).numpy(), b.numpy(), atol=1e-10)


def test_derivatives_are_not_implemented_as_in_pytorch() -> None:
    x = torch.eye(3, requires_grad=True)
    LD, pivots = torch.linalg.ldl_factor(x)
    assert LD.grad_fn.name() == "torch::autograd::NotImplemented"
    solution = torch.linalg.ldl_solve(LD, pivots, torch.ones(3, 1))
    with pytest.raises(RuntimeError, match="^derivative for aten::linalg_ldl_solve is not implemented$"):
        solution.sum().backward()


def test_singular_and_bad_inputs() -> None:
    factors = torch.linalg.ldl_factor_ex(torch.zeros(3, 3))
    assert factors.pivots.tolist() == [1, 2, 3] and factors.info.tolist() == 1
    with pytest.raises(RuntimeError, match="^torch.linalg.ldl_factor: The factorization could not be completed"):
        torch.linalg.ldl_factor(torch.zeros(3, 3))
    with pytest.raises(RuntimeError, match="^torch.linalg.ldl_factor_ex: A must be batches of square matrices, but "
                                           "they are 3 by 2 matrices$"):
        torch.linalg.ldl_factor(torch.zeros(3, 2))
    with pytest.raises(IndexError, match=r"^Dimension out of range \(expected to be in range of \[-1, 0\], but got "
                                         r"-2\)$"):
        torch.linalg.ldl_solve(torch.eye(3), torch.ones(3, dtype=torch.int32), torch.ones(3))
