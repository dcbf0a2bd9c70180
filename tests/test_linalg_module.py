"""tinyframe.linalg as ``torch.linalg``: results, named tuples, grad_fn names and errors recorded from
PyTorch 2.13."""
from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest

import tinyframe as tf

A = [[4.0, 1.0, 2.0], [1.0, 3.0, 0.0], [2.0, 0.0, 5.0]]
B = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]


def _name(t: tf.Tensor) -> str:
    return type(t.grad_fn).__name__


def test_linalg_is_reachable_as_torch_linalg() -> None:
    import tinyframe as torch
    assert torch.linalg.norm(torch.ones(2, 2)).item() == 2.0
    assert issubclass(torch.linalg.LinAlgError, RuntimeError)
    assert torch.linalg.LinAlgError.__name__ == "_LinAlgError"  # PyTorch's class name, printed by scripts
    assert repr(pickle.loads(pickle.dumps(torch.linalg.LinAlgError("x")))) == "_LinAlgError('x')"


def test_solve_inv_det_match_pytorch_and_name_their_nodes(device: str) -> None:
    a = tf.tensor(A, device=device, requires_grad=True)
    b = tf.tensor(B, device=device)
    x = tf.linalg.solve(a, b)
    np.testing.assert_allclose(x.detach().cpu().numpy(), [[-0.6977, -0.6047], [1.2326, 1.5349], [1.2791, 1.4419]],
                               atol=1e-4)
    assert _name(x) == "LinalgSolveExBackward0"
    np.testing.assert_allclose(tf.linalg.solve(a, tf.ones(3, device=device)).detach().cpu().numpy(),
                               [0.0930, 0.3023, 0.1628], atol=1e-4)
    assert tf.linalg.solve(tf.stack([a, a]), tf.ones(2, 3, device=device)).shape == (2, 3)  # batches of vectors
    np.testing.assert_allclose(tf.linalg.inv(a).detach().cpu().numpy()[0], [0.3488, -0.1163, -0.1395], atol=1e-4)
    assert _name(tf.linalg.inv(a)) == "LinalgInvExBackward0" and _name(tf.inverse(a)) == "LinalgInvExBackward0"
    assert _name(tf.linalg.det(a)) == "LinalgDetBackward0" and _name(tf.det(a)) == "LinalgDetBackward0"


def test_slogdet_logdet_and_det_of_a_negative_determinant() -> None:
    m = tf.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert tf.linalg.det(m).item() == pytest.approx(-2.0)
    sign, logabsdet = tf.linalg.slogdet(m)
    assert sign.item() == -1.0 and logabsdet.item() == pytest.approx(np.log(2.0))
    assert type(tf.linalg.slogdet(m)).__name__ == "linalg_slogdet" and type(tf.slogdet(m)).__name__ == "slogdet"
    assert np.isnan(tf.logdet(m).item())


def test_decompositions_return_pytorch_named_tuples() -> None:
    a = tf.tensor(A, requires_grad=True)
    result = tf.linalg.svd(a)
    assert type(result).__name__ == "linalg_svd" and _name(result.U) == "LinalgSvdBackward0"
    assert tf.linalg.svd(tf.ones(2, 3)).Vh.shape == (3, 3)
    assert tf.linalg.svd(tf.ones(2, 3), full_matrices=False).Vh.shape == (2, 3)
    assert type(tf.svd(a)).__name__ == "svd" and tf.svd(tf.ones(2, 3)).V.shape == (3, 2)
    values, vectors = tf.linalg.eigh(a)
    np.testing.assert_allclose(values.detach().numpy(), [1.8549, 3.4760, 6.6691], atol=1e-4)
    assert _name(values) == "LinalgEighBackward0" and type(tf.linalg.eigh(a)).__name__ == "linalg_eigh"
    q, r = tf.linalg.qr(a)
    np.testing.assert_allclose((q @ r).detach().numpy(), A, atol=1e-5)
    assert _name(q) == "LinalgQrBackward0"
    assert tf.linalg.qr(tf.ones(3, 2), mode="complete").Q.shape == (3, 3)
    assert tf.linalg.qr(tf.ones(3, 2), mode="r").Q.shape == (0,)
    with pytest.warns(UserWarning, match="torch.qr is deprecated in favor of torch.linalg.qr"):
        assert type(tf.qr(a)).__name__ == "qr"
    lower = tf.linalg.cholesky(a)
    np.testing.assert_allclose(lower.detach().numpy()[2], [1.0, -0.3015, 1.9771], atol=1e-4)
    assert _name(lower) == "LinalgCholeskyExBackward0"
    np.testing.assert_allclose(tf.linalg.cholesky(a, upper=True).detach().numpy(), lower.detach().numpy().T)


def test_pinv_lstsq_matrix_rank() -> None:
    pinv = tf.linalg.pinv(tf.tensor([[1.0, 2, 3], [4, 5, 6]]))
    np.testing.assert_allclose(pinv.numpy(), [[-0.9444, 0.4444], [-0.1111, 0.1111], [0.7222, -0.2222]], atol=1e-4)
    result = tf.linalg.lstsq(tf.tensor([[1.0, 0], [0, 1], [1, 1]]), tf.tensor([[1.0], [2], [4]]))
    assert type(result).__name__ == "linalg_lstsq" and result.rank.item() == 2
    np.testing.assert_allclose(result.solution.numpy(), [[1.3333], [2.3333]], atol=1e-4)
    assert result.residuals.shape == (0,) and result.singular_values.shape == (0,)
    assert tf.linalg.matrix_rank(tf.tensor(A)).item() == 3 and tf.linalg.matrix_rank(tf.ones(3, 3)).item() == 1


@pytest.mark.parametrize("args, expected", [
    ((), 7.7460), ((2,), 6.6691), (("fro",), 7.7460), (("nuc",), 12.0), ((float("inf"),), 7.0), ((-1,), 4.0)])
def test_norm_orders_match_pytorch(args: tuple, expected: float) -> None:
    assert tf.linalg.norm(tf.tensor(A), *args).item() == pytest.approx(expected, abs=1e-4)


def test_vector_and_matrix_norm_forms() -> None:
    a = tf.tensor(A)
    np.testing.assert_allclose(tf.linalg.norm(a, dim=1).numpy(), [4.5826, 3.1623, 5.3852], atol=1e-4)
    assert tf.linalg.norm(a, 1, dim=0).tolist() == [7.0, 4.0, 7.0]
    assert tf.linalg.vector_norm(a, 0.5).item() == pytest.approx(116.5654, abs=1e-3)
    assert tf.linalg.matrix_norm(a, -2).item() == pytest.approx(1.8549, abs=1e-4)
    m = tf.tensor([[1.0, -2], [3, 4]])
    assert tf.linalg.matrix_norm(m, 1).item() == 6.0 and tf.linalg.matrix_norm(m, float("inf")).item() == 7.0
    assert tf.linalg.matrix_norm(m, -1, keepdim=True).tolist() == [[4.0]]


def test_multi_dot_matrix_power_vecdot_cross() -> None:
    a = tf.tensor(A)
    assert tf.linalg.multi_dot([tf.ones(3), a, tf.ones(3, 2)]).tolist() == [18.0, 18.0]
    assert tf.linalg.matrix_power(a, 3).tolist()[0] == [127.0, 42.0, 132.0]
    assert tf.linalg.matrix_power(a, 0).tolist() == np.eye(3).tolist()
    np.testing.assert_allclose(tf.linalg.matrix_power(a, -1).numpy(), np.linalg.inv(np.array(A)), atol=1e-6)
    assert tf.linalg.vecdot(a, a).tolist() == [21.0, 10.0, 29.0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # linalg.cross has no deprecation warning: dim defaults to -1
        assert tf.linalg.cross(tf.eye(3), tf.eye(3).roll(1, 0)).shape == (3, 3)


def test_linalg_errors_match_pytorch() -> None:
    with pytest.raises(tf.linalg.LinAlgError, match="linalg.inv: The diagonal element 2 is zero, the inversion could "
                                                    "not be completed because the input matrix is singular."):
        tf.linalg.inv(tf.ones(3, 3))
    with pytest.raises(tf.linalg.LinAlgError, match=r"not positive-definite \(the leading minor of order 1 is not "
                                                    r"positive-definite\)"):
        tf.linalg.cholesky(-tf.eye(3))
    with pytest.raises(RuntimeError, match="linalg.inv: A must be batches of square matrices, but they are 2 by 3"):
        tf.linalg.inv(tf.ones(2, 3))
    with pytest.raises(tf.linalg.LinAlgError, match="The solver failed because the input matrix is singular."):
        tf.linalg.solve(tf.ones(3, 3), tf.ones(3))
    with pytest.raises(RuntimeError, match="linalg.det: The input tensor A must have at least 2 dimensions."):
        tf.linalg.det(tf.ones(3))
    with pytest.raises(RuntimeError, match="linalg.matrix_norm: Order foo not supported."):
        tf.linalg.norm(tf.ones(3, 3), "foo")
    with pytest.raises(RuntimeError, match=r"Incompatible shapes of A and B for the equation AX = B \(3x3 and 2x1\)"):
        tf.linalg.solve(tf.tensor(A), tf.ones(2))


def test_tensor_methods_reach_the_matrix_functions() -> None:
    a = tf.tensor(A)
    assert a.det().item() == pytest.approx(43.0, abs=1e-4)
    np.testing.assert_allclose((a.inverse() @ a).numpy(), np.eye(3), atol=1e-5)
    np.testing.assert_allclose(a.cholesky().numpy(), tf.linalg.cholesky(a).numpy())
    assert a.logdet().item() == pytest.approx(np.log(43.0), abs=1e-5)
    assert a.matrix_power(2).tolist()[0] == [21.0, 7.0, 18.0]


def test_solve_triangular_reads_b_as_a_matrix_when_its_shape_is_the_batch_shape_of_a() -> None:
    # B of shape (2, 2) against A of shape (2, 2, 2): torch.linalg.solve would read a batch of vectors
    a = tf.tensor([[[2.0, 0.0], [1.0, 4.0]], [[1.0, 0.0], [3.0, 2.0]]], dtype=tf.float64)
    x = tf.linalg.solve_triangular(a, tf.eye(2, dtype=tf.float64), upper=False)
    assert x.shape == (2, 2, 2)
    np.testing.assert_allclose(x.numpy(), np.linalg.inv(a.numpy()), rtol=1e-12)
    x = tf.linalg.solve_triangular(a, tf.eye(2, dtype=tf.float64), upper=False, left=False)
    np.testing.assert_allclose(x.numpy(), np.linalg.inv(a.numpy()), rtol=1e-12)


def test_cholesky_ex_of_a_matrix_that_is_not_positive_definite_as_lapack_leaves_it() -> None:
    # PyTorch 2.13: per matrix, info names the first leading minor that is not positive-definite, and L
    # holds the columns computed so far, that pivot's value and A's lower triangle beyond it.
    a = tf.tensor([[[4.0, 2.0, 1.0], [2.0, 3.0, 0.5], [1.0, 0.5, 2.0]],
                   [[1.0, 2.0, 0.3], [2.0, 1.0, 0.1], [0.3, 0.1, 5.0]]], requires_grad=True)
    lower, info = tf.linalg.cholesky_ex(a)
    assert info.tolist() == [0, 2] and info.dtype == tf.int32
    assert lower.grad_fn.name() == "LinalgCholeskyExBackward0"
    np.testing.assert_allclose(lower[0].tolist(), np.linalg.cholesky(a[0].tolist()), rtol=1e-6)
    np.testing.assert_allclose(lower[1].tolist(), [[1.0, 0.0, 0.0], [2.0, -3.0, 0.0], [0.3, 0.1, 5.0]], rtol=1e-6)
    assert tf.linalg.cholesky_ex(a, upper=True).L[1].tolist() == lower[1].T.tolist()
    assert tf.linalg.cholesky_ex(tf.zeros(2, 2)).L.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    with pytest.raises(tf.linalg.LinAlgError, match=r"^linalg.cholesky_ex: \(Batch element 1\): .* leading minor "
                                                    r"of order 2 is not positive-definite\)."):
        tf.linalg.cholesky_ex(a, check_errors=True)
    with pytest.raises(tf.linalg.LinAlgError, match=r"^linalg.cholesky: \(Batch element 1\)"):
        tf.linalg.cholesky(a)


def test_ex_forms_solve_triangular_and_cholesky_helpers() -> None:
    a = tf.tensor(A)
    inverse, info = tf.linalg.inv_ex(a)
    assert type(tf.linalg.inv_ex(a)).__name__ == "linalg_inv_ex" and info.item() == 0 and info.dtype == tf.int32
    assert tf.linalg.inv_ex(tf.ones(3, 3)).info.item() != 0
    with pytest.raises(tf.linalg.LinAlgError):
        tf.linalg.inv_ex(tf.ones(3, 3), check_errors=True)
    lower, info = tf.linalg.cholesky_ex(a)
    assert info.item() == 0 and tf.linalg.cholesky_ex(-tf.eye(2)).info.item() != 0
    np.testing.assert_allclose(tf.linalg.solve_triangular(a, tf.ones(3, 2), upper=True).numpy()[:, 0],
                               [0.0667, 0.3333, 0.2], atol=1e-4)
    right = tf.linalg.solve_triangular(a, tf.ones(2, 3), upper=False, left=False, unitriangular=True)
    assert right.tolist() == [[-2.0, 1.0, 1.0], [-2.0, 1.0, 1.0]]
    with pytest.raises(RuntimeError, match="The input tensor B must have at least 2 dimensions"):
        tf.linalg.solve_triangular(a, tf.ones(3), upper=True)
    np.testing.assert_allclose(tf.cholesky_solve(tf.ones(3, 1), lower).numpy()[:, 0], [0.0930, 0.3023, 0.1628],
                               atol=1e-4)
    np.testing.assert_allclose(tf.cholesky_inverse(lower).numpy(), np.linalg.inv(np.array(A)), atol=1e-5)
    values, vectors = tf.linalg.eig(a)  # a general matrix: complex results, as PyTorch's
    assert values.dtype == tf.complex64 and vectors.dtype == tf.complex64
    np.testing.assert_allclose((a.to(tf.complex64) @ vectors).numpy(), (vectors * values).numpy(), atol=1e-5)


def test_vander_batches_rows_of_increasing_powers_as_pytorch() -> None:
    # values, dtypes, gradient and errors as PyTorch 2.13 gives them
    v = tf.linalg.vander(tf.tensor([1, 2, 3]))
    assert v.dtype == tf.int64 and v.tolist() == [[1, 1, 1], [1, 2, 4], [1, 3, 9]]
    x = tf.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], requires_grad=True)
    v = tf.linalg.vander(x, N=4)
    assert v.shape == (2, 3, 4) and v[1, 0].tolist() == [1.0, 0.5, 0.25, 0.125] and _name(v) == "CatBackward0"
    v.sum().backward()
    assert x.grad.tolist() == [[6.0, 17.0, 34.0], [2.75, 2.0, 17.0]]
    assert tf.linalg.vander(tf.tensor(2.0), N=3).tolist() == [[1.0, 2.0, 4.0]]
    assert tf.linalg.vander(tf.tensor([1, 2], dtype=tf.int8)).dtype == tf.int64
    with pytest.raises(RuntimeError, match="N must be greater than 1."):
        tf.linalg.vander(tf.tensor([2.0]), N=1)
    with pytest.raises(RuntimeError, match="linalg.vander supports floating point, complex, and integer tensors, but "
                                           "got Bool"):
        tf.linalg.vander(tf.tensor([True]))


# PyTorch 2.13's strides of linalg results: LAPACK's column-major matrices (vectors of a batch row-major;
# lu's P, L, U and pinv row-major). R is 3 x 3, B 3 x 2, A symmetric positive definite, bA a batch of 2.
_LINALG_STRIDES = [
    ("L.inv(R)", [(1, 3)]), ("L.inv(bA)", [(9, 1, 3)]), ("L.solve(R, B)", [(1, 3)]), ("L.solve(R, B[:, 0])", [(1,)]),
    ("L.solve(bA, torch.stack([B, B]))", [(6, 1, 3)]), ("L.qr(R)", [(1, 3), (1, 3)]),
    ("L.qr(B)", [(1, 3), (1, 2)]), ("L.svd(R)", [(1, 3), (1,), (1, 3)]), ("L.svd(bA)", [(9, 1, 3), (3, 1), (9, 1, 3)]),
    ("L.svd(B, full_matrices=False)", [(1, 3), (1,), (1, 2)]), ("L.eigh(A)", [(1,), (1, 3)]),
    ("L.eigh(bA)", [(3, 1), (9, 1, 3)]), ("L.cholesky(A)", [(1, 3)]), ("L.cholesky(bA)", [(9, 1, 3)]),
    ("L.cholesky(A, upper=True)", [(1, 3)]), ("torch.inverse(R)", [(1, 3)]), ("torch.svd(R)", [(1, 3), (1,), (3, 1)]),
    ("L.pinv(R)", [(3, 1)]), ("L.lu_factor(R)", [(1, 3), (1,)]), ("L.lu(R)", [(3, 1), (3, 1), (3, 1)]),
    ("L.cholesky_ex(A)", [(1, 3), ()]), ("L.inv_ex(R)", [(1, 3), ()]), ("L.solve_ex(R, B)", [(1, 3), ()]),
    ("L.eig(R)", [(1,), (1, 3)]), ("L.tensorinv(R, 1)", [(1, 3)]),
]


@pytest.mark.parametrize(("expression", "strides"), _LINALG_STRIDES)
def test_linalg_results_are_column_major_as_pytorchs(expression: str, strides: list) -> None:
    a = tf.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
    names = {"torch": tf, "L": tf.linalg, "A": a, "bA": tf.stack([a, a * 2]),
             "B": tf.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
             "R": tf.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]])}
    result = eval(expression, names)
    assert [t.stride() for t in (result if isinstance(result, tuple) else (result,))] == strides
