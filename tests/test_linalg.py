"""Matrix products: PyTorch's grad_fn names per rank combination, errors, dtypes, batch broadcasting."""
from __future__ import annotations

import re

import numpy as np
import pytest

import tinyframe as tf


def _randn(*shape: int, dtype: tf.dtype = tf.float32, requires_grad: bool = True, device: str = "cpu",
           seed: int = 0) -> tf.Tensor:
    data = np.random.default_rng(seed).standard_normal(shape)
    return tf.tensor(data, dtype=dtype, device=device, requires_grad=requires_grad)


# PyTorch's names depend on how its matmul folds each rank combination (checked against torch 2.x).
@pytest.mark.parametrize("a_shape, b_shape, a_grad, expected", [
    ((3,), (3,), True, "DotBackward0"),
    ((4, 3), (3,), True, "MvBackward0"),
    ((3,), (3, 2), True, "SqueezeBackward4"),
    ((4, 3), (3, 2), True, "MmBackward0"),
    ((5, 4, 3), (5, 3, 2), True, "UnsafeViewBackward0"),
    ((2, 1, 4, 3), (5, 3, 2), True, "UnsafeViewBackward0"),
    ((5, 4, 3), (3,), True, "UnsafeViewBackward0"),
    ((3,), (5, 3, 2), True, "UnsafeViewBackward0"),
    ((5, 4, 3), (3, 2), True, "UnsafeViewBackward0"),
    ((4, 3), (5, 3, 2), True, "CloneBackward0"),
    ((4, 3), (5, 3, 2), False, "UnsafeViewBackward0"),
    ((1, 4, 3), (5, 3, 2), True, "CloneBackward0"),
    ((1, 4, 3), (1, 3, 2), True, "UnsafeViewBackward0"),
])
def test_matmul_grad_fn_names_match_pytorch(a_shape: tuple, b_shape: tuple, a_grad: bool, expected: str) -> None:
    out = tf.matmul(_randn(*a_shape, requires_grad=a_grad), _randn(*b_shape))
    assert out.grad_fn.name() == expected


@pytest.mark.parametrize("fn, expected", [
    (lambda: tf.mm(_randn(2, 3), _randn(3, 4)), "MmBackward0"),
    (lambda: tf.bmm(_randn(2, 2, 3), _randn(2, 3, 4)), "BmmBackward0"),
    (lambda: tf.mv(_randn(2, 3), _randn(3)), "MvBackward0"),
    (lambda: tf.dot(_randn(3), _randn(3)), "DotBackward0"),
    (lambda: tf.outer(_randn(3), _randn(2)), "MulBackward0"),
    (lambda: _randn(2, 3).matmul(_randn(3)), "MvBackward0"),
])
def test_special_case_grad_fn_names(fn: object, expected: str) -> None:
    assert fn().grad_fn.name() == expected


def test_no_graph_without_grad() -> None:
    assert tf.matmul(_randn(2, 3, requires_grad=False), _randn(3, 4, requires_grad=False)).grad_fn is None
    with tf.no_grad():
        assert tf.matmul(_randn(2, 3), _randn(3, 4)).grad_fn is None


@pytest.mark.parametrize("a_shape, b_shape", [
    ((2, 1, 4, 3), (5, 3, 2)),
    ((1, 4, 3), (5, 3, 2)),
    ((3,), (2, 5, 3, 2)),
    ((2, 5, 4, 3), (3,)),
    ((4, 3), (2, 3, 2)),
    ((2, 4, 3), (1, 3, 2)),
])
def test_batched_gradients_sum_over_broadcast_batch_dims(a_shape: tuple, b_shape: tuple, device: str) -> None:
    a = _randn(*a_shape, dtype=tf.float64, device=device, seed=1)
    b = _randn(*b_shape, dtype=tf.float64, device=device, seed=2)
    out = tf.matmul(a, b)
    g = np.random.default_rng(3).standard_normal(tuple(out.shape))
    out.backward(tf.tensor(g, dtype=tf.float64, device=device))
    # Reference: the product of the explicitly broadcast operands, gradients summed back.
    an, bn = a.detach().cpu().numpy(), b.detach().cpu().numpy()
    a2 = an[None] if an.ndim == 1 else an
    b2 = bn[:, None] if bn.ndim == 1 else bn
    batch = np.broadcast_shapes(a2.shape[:-2], b2.shape[:-2])
    ae, be = np.broadcast_to(a2, batch + a2.shape[-2:]), np.broadcast_to(b2, batch + b2.shape[-2:])
    ge = g.reshape(batch + (ae.shape[-2], be.shape[-1]))
    ga, gb = ge @ np.swapaxes(be, -1, -2), np.swapaxes(ae, -1, -2) @ ge
    ga = ga.reshape((-1,) + a2.shape).sum(0).reshape(an.shape) if an.ndim == 1 else _sum_to(ga, an.shape)
    gb = gb.reshape((-1,) + b2.shape).sum(0).reshape(bn.shape) if bn.ndim == 1 else _sum_to(gb, bn.shape)
    np.testing.assert_allclose(a.grad.cpu().numpy(), ga, rtol=1e-10)
    np.testing.assert_allclose(b.grad.cpu().numpy(), gb, rtol=1e-10)
    assert a.grad.shape == a.shape and b.grad.shape == b.shape


def _sum_to(array: np.ndarray, shape: tuple) -> np.ndarray:
    lead = array.ndim - len(shape)
    array = array.sum(axis=tuple(range(lead)))
    return array.sum(axis=tuple(i for i, n in enumerate(shape) if n == 1), keepdims=True)


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64, tf.int64, tf.int32])
def test_matmul_keeps_the_operands_dtype(dtype: tf.dtype) -> None:
    a = tf.ones(2, 3, dtype=dtype)
    assert tf.matmul(a, tf.ones(3, 4, dtype=dtype)).dtype == dtype
    assert tf.matmul(tf.ones(5, 2, 3, dtype=dtype), tf.ones(3, dtype=dtype)).dtype == dtype


def test_float32_matrix_product_is_numpy_product() -> None:
    a, b = _randn(8, 5), _randn(5, 3, seed=1)
    np.testing.assert_array_equal((a @ b).detach().numpy(), a.detach().numpy() @ b.detach().numpy())


def test_outer_promotes_dtypes() -> None:
    assert tf.outer(tf.ones(3, dtype=tf.int64), tf.ones(2)).dtype == tf.float32
    assert tf.outer(tf.ones(3), tf.ones(2, dtype=tf.float64)).dtype == tf.float64


def test_inner_shapes() -> None:
    assert tuple(tf.inner(tf.ones(2, 3, 4), tf.ones(5, 4)).shape) == (2, 3, 5)
    assert tuple(tf.inner(tf.ones(4), tf.ones(4)).shape) == ()
    assert tuple(tf.inner(tf.tensor(2.0), tf.ones(3, 2)).shape) == (3, 2)


F64 = tf.float64


@pytest.mark.parametrize("fn, error, message", [
    (lambda: tf.mm(tf.ones(3), tf.ones(3, 3)), RuntimeError, "self must be a matrix"),
    (lambda: tf.mm(tf.ones(3, 3), tf.ones(3)), RuntimeError, "mat2 must be a matrix"),
    (lambda: tf.mm(tf.ones(2, 3), tf.ones(4, 5)), RuntimeError,
     "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"),
    (lambda: tf.matmul(tf.ones(2, 3), tf.ones(4, 5)), RuntimeError,
     "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"),
    (lambda: tf.matmul(tf.ones(3), tf.ones(4, 5)), RuntimeError,
     "mat1 and mat2 shapes cannot be multiplied (1x3 and 4x5)"),
    (lambda: tf.matmul(tf.ones(2, 3, 3), tf.ones(4, 3)), RuntimeError,
     "mat1 and mat2 shapes cannot be multiplied (6x3 and 4x3)"),
    (lambda: tf.matmul(tf.ones(2, 3), tf.ones(4)), RuntimeError, "size mismatch, got input (2), mat (2x3), vec (4)"),
    (lambda: tf.matmul(tf.ones(5, 2, 3), tf.ones(4)), RuntimeError,
     "size mismatch, got input (10), mat (10x3), vec (4)"),
    (lambda: tf.matmul(tf.ones(5, 2, 3), tf.ones(5, 4, 2)), RuntimeError,
     "Expected size for first two dimensions of batch2 tensor to be: [5, 3] but got: [5, 4]."),
    (lambda: tf.matmul(tf.ones(5, 2, 3), tf.ones(4, 3, 5)), RuntimeError,
     "The size of tensor a (5) must match the size of tensor b (4) at non-singleton dimension 0"),
    (lambda: tf.matmul(tf.tensor(1.0), tf.ones(3)), RuntimeError,
     "both arguments to matmul need to be at least 1D, but they are 0D and 1D"),
    (lambda: tf.matmul(tf.ones(3), tf.ones(4)), RuntimeError,
     "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, but got 3 "
     "and 4 elements respectively"),
    (lambda: tf.matmul(tf.ones(2, 3), tf.ones(3, 5, dtype=F64)), RuntimeError,
     "expected m1 and m2 to have the same dtype, but got: float != double"),
    (lambda: tf.matmul(tf.ones(2, 3), tf.ones(3, 5, dtype=tf.int64)), RuntimeError,
     "expected m1 and m2 to have the same dtype, but got: float != long int"),
    (lambda: tf.matmul(tf.ones(2, 3, dtype=F64), tf.ones(3)), RuntimeError,
     "addmv input tensors must have the same dtype, but got Float, Double, and Float"),
    (lambda: tf.matmul(tf.ones(5, 2, 3), tf.ones(5, 3, 2, dtype=F64)), RuntimeError,
     "expected scalar type Float but found Double"),
    (lambda: tf.dot(tf.ones(3), tf.ones(3, dtype=F64)), RuntimeError,
     "dot : expected both vectors to have same dtype, but found Float and Double"),
    (lambda: tf.dot(tf.ones(3, 1), tf.ones(3)), RuntimeError, "1D tensors expected, but got 2D and 1D tensors"),
    (lambda: tf.bmm(tf.ones(2, 3), tf.ones(4, 5)), RuntimeError, "batch1 must be a 3D tensor"),
    (lambda: tf.bmm(tf.ones(2, 2, 3), tf.ones(3, 3, 5)), RuntimeError,
     "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [3, 3]."),
    (lambda: tf.mv(tf.ones(3), tf.ones(4)), RuntimeError, "vector + matrix @ vector expected, got 1, 1, 1"),
    (lambda: tf.outer(tf.ones(2, 3), tf.ones(4)), RuntimeError, "outer: Expected 1-D argument self, but got 2-D"),
    (lambda: tf.matmul(tf.ones(2, 3), 2.0), TypeError, "must be Tensor, not float"),
])
def test_errors_match_pytorch(fn: object, error: type, message: str) -> None:
    with pytest.raises(error) as info:
        fn()
    assert message in str(info.value)


def test_second_derivative_of_a_linear_layer_loss(device: str) -> None:
    x = _randn(4, 3, dtype=tf.float64, device=device, seed=1)
    w = _randn(3, 2, dtype=tf.float64, device=device, seed=2)
    loss = ((x @ w) ** 2).sum()
    (gw,) = tf.autograd.grad(loss, w, create_graph=True)
    (hx,) = tf.autograd.grad(gw.sum(), x)
    # d/dx sum_jk 2 (x^T x w)_jk = 2 * (x w 1 1^T + ...): compare with NumPy's closed form.
    xn, wn = x.detach().cpu().numpy(), w.detach().cpu().numpy()
    ones = np.ones((3, 2))
    expected = 2 * (xn @ wn @ ones.T + xn @ ones @ wn.T)
    np.testing.assert_allclose(hx.cpu().numpy(), expected, rtol=1e-10)


@pytest.mark.parametrize("shape", [(2, 2), (3, 4), (4, 3), (2, 3, 5)])
def test_svd_of_non_finite_matrices_answers_as_pytorch(shape):
    # an infinite entry: NaN factors for that matrix (LAPACK's call on a wide one never returned); a NaN: the error
    first = (0,) * (len(shape) - 2)
    a = tf.ones(shape)
    a[first + (0, 1)] = float("inf")
    assert bool(tf.isnan(tf.linalg.svdvals(a)[first]).all()) and bool(tf.isnan(tf.linalg.svd(a).U[first]).all())
    assert tf.linalg.matrix_rank(a).flatten()[0].item() == 0
    if len(shape) == 3:  # the other matrices of a batch keep their factors
        assert tf.linalg.svdvals(a)[1].tolist() == pytest.approx([15 ** 0.5, 0.0, 0.0], abs=1e-5)
    a[first + (0, 1)] = float("nan")
    message = "linalg.svd: The algorithm failed to converge because the input matrix contained non-finite values."
    for call in (tf.linalg.svd, tf.linalg.svdvals, tf.linalg.pinv, tf.linalg.matrix_rank,
                 lambda m: tf.linalg.matrix_norm(m, 2)):
        with pytest.raises(tf.linalg.LinAlgError, match=re.escape(message)):
            call(a)


def test_float16_norms_accumulate_in_float32() -> None:
    # PyTorch 2.13: 300^2 + 400^2 overflows float16, but the norm is 500 (recorded values)
    h = tf.tensor([300.0, 400.0], dtype=tf.float16)
    assert [tf.linalg.norm(h).item(), tf.linalg.vector_norm(h, 1).item(), h.norm(3).item()] == [500.0, 700.0, 449.75]
    assert tf.linalg.norm(h).dtype == tf.float16
