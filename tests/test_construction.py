"""tril/roll/diagonals/unfold/meshgrid, scatter-style writes and products: values, views, warnings,
grad_fn names and errors as PyTorch 2.13 gives them (values recorded from it)."""
from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import tinyframe as tf
from tinyframe.ops import scattering

REDUCE_ROWS = [[1, 2, 0, 1], [1, 1, 1, 1]]


def _x(requires_grad: bool = True) -> tf.Tensor:
    return tf.arange(12.0).reshape(3, 4).requires_grad_(requires_grad)


def _name(t: tf.Tensor) -> str:
    return type(t.grad_fn).__name__


@pytest.mark.parametrize("reduce, with_self, without_self", [
    ("sum", [[0, 1, 7, 3], [14, 10, 11, 17], [8, 14, 10, 11]], [[0, 1, 5, 3], [10, 5, 5, 10], [8, 5, 10, 11]]),
    ("prod", [[0, 1, 10, 3], [100, 25, 30, 175], [8, 45, 10, 11]], [[0, 1, 5, 3], [25, 5, 5, 25], [8, 5, 10, 11]]),
    ("mean", [[0, 1, 3.5, 3], [14 / 3, 5, 5.5, 17 / 3], [8, 7, 10, 11]], [[0, 1, 5, 3], [5, 5, 5, 5], [8, 5, 10, 11]]),
    ("amax", [[0, 1, 5, 3], [5, 5, 6, 7], [8, 9, 10, 11]], [[0, 1, 5, 3], [5, 5, 5, 5], [8, 5, 10, 11]]),
    ("amin", [[0, 1, 2, 3], [4, 5, 5, 5], [8, 5, 10, 11]], [[0, 1, 5, 3], [5, 5, 5, 5], [8, 5, 10, 11]]),
])
def test_scatter_reduce_values_match_pytorch(reduce: str, with_self: list, without_self: list, device: str) -> None:
    x, src, index = _x().to(device), tf.full((2, 4), 5.0, device=device), tf.tensor(REDUCE_ROWS, device=device)
    out = x.scatter_reduce(0, index, src, reduce)
    np.testing.assert_allclose(out.detach().cpu().numpy(), with_self, rtol=1e-6)
    assert _name(out) == "ScatterReduceBackward0"
    out = x.scatter_reduce(0, index, src, reduce, include_self=False)
    np.testing.assert_allclose(out.detach().cpu().numpy(), without_self, rtol=1e-6)


def test_scatter_with_reduce_warns_for_tensor_src_and_has_no_gradient() -> None:
    x = _x()
    index = tf.tensor([[1, 2, 0, 1]])
    with pytest.warns(UserWarning, match="reduce argument of torch.scatter with Tensor src is deprecated"):
        out = x.scatter(0, index, tf.full((1, 4), 5.0), reduce="multiply")
    assert out.tolist() == [[0, 1, 10, 3], [20, 5, 6, 35], [8, 45, 10, 11]]
    with pytest.raises(RuntimeError, match="not implemented"):
        out.sum().backward()
    assert x.detach().scatter(0, index, 5.0, reduce="add").tolist() == [[0, 1, 7, 3], [9, 5, 6, 12], [8, 14, 10, 11]]
    with pytest.raises(RuntimeError, match="reduce argument must be either add or multiply."):
        x.scatter(0, index, 1.0, reduce="mean")


def test_scatter_and_index_ops_grad_fn_names_and_values() -> None:
    x = _x()
    assert _name(x.scatter(0, tf.tensor([[0, 1, 2, 0]]), tf.ones(1, 4))) == "ScatterBackward0"
    assert _name(x.scatter(0, tf.tensor([[0, 1, 2, 0]]), 2.0)) == "ScatterBackward1"
    added = x.index_add(0, tf.tensor([0, 2, 0]), tf.ones(3, 4), alpha=2)
    assert added.tolist() == [[4, 5, 6, 7], [4, 5, 6, 7], [10, 11, 12, 13]] and _name(added) == "IndexAddBackward0"
    copied = x.index_copy(1, tf.tensor([3, 0]), tf.zeros(3, 2))
    assert copied.tolist() == [[0, 1, 2, 0], [0, 5, 6, 0], [0, 9, 10, 0]] and _name(copied) == "IndexCopyBackward0"
    filled = x.index_fill(1, tf.tensor([0, 2]), -1.0)
    assert filled.tolist() == [[-1, 1, -1, 3], [-1, 5, -1, 7], [-1, 9, -1, 11]]
    assert _name(filled) == "IndexFillBackward0"
    assert _name(x.index_fill(1, tf.tensor([0]), tf.tensor(2.0, requires_grad=True))) == "IndexFillBackward1"


def test_in_place_scatter_and_index_variants_write_into_the_tensor() -> None:
    y = tf.zeros(2, 3)
    y.scatter_(1, tf.tensor([[2], [0]]), 1.0)
    y.index_add_(0, tf.tensor([1]), tf.ones(1, 3))
    y.tril_()
    assert y.tolist() == [[0, 0, 0], [2, 1, 0]]


def test_scatter_and_index_errors_match_pytorch() -> None:
    x = _x(False)
    with pytest.raises(RuntimeError, match="index 3 is out of bounds for dimension 0 with size 3"):
        x.scatter(0, tf.tensor([[3]]), 1.0)
    with pytest.raises(RuntimeError, match="source tensor shape must match self tensor shape"):
        x.index_add(0, tf.tensor([0]), tf.ones(1, 3))
    with pytest.raises(IndexError, match=r"index_copy_\(\): index 5 is out of bounds for dimension 0 with size 3"):
        x.index_copy(0, tf.tensor([0, 5]), tf.ones(2, 4))
    with pytest.raises(RuntimeError, match="index 5 is out of bounds for dimension 0 with size 3"):
        x.index_add(0, tf.tensor([0, 5]), tf.ones(2, 4))
    with pytest.raises(RuntimeError, match="Expected self.dtype to be equal to src.dtype"):
        x.scatter(0, tf.tensor([[0]]), tf.ones(1, 1, dtype=tf.float64))
    with pytest.raises(RuntimeError, match="reduce argument must be either sum, prod, mean, amax or amin, got foo"):
        x.scatter_reduce(0, tf.tensor([[1]]), tf.ones(1, 1), "foo")


def test_tril_triu_roll_values_and_names() -> None:
    x = _x()
    assert tf.triu(x, 1).tolist() == [[0, 1, 2, 3], [0, 0, 6, 7], [0, 0, 0, 11]]
    assert _name(x.tril()) == "TrilBackward0" and _name(x.triu()) == "TriuBackward0"
    assert tf.roll(x, 1).tolist()[0] == [11, 0, 1, 2]
    assert tf.roll(x, (1, 2), (0, 1)).tolist()[0] == [10, 11, 8, 9] and _name(tf.roll(x, 1)) == "RollBackward0"
    with pytest.raises(RuntimeError, match="shifts and dimensions must align. shifts: 2, dims:1"):
        tf.roll(x, (1, 2), 0)
    with pytest.raises(RuntimeError, match="tril: input tensor must have at least 2 dimensions"):
        tf.tril(tf.ones(3))


def test_diagonal_is_a_writable_view_and_diag_copies() -> None:
    x = tf.arange(12.0).reshape(3, 4)
    d = x.diagonal(1)
    d[0] = 100.0
    assert x[0, 1].item() == 100.0 and d.tolist() == [100, 6, 11]
    v = tf.tensor([1.0, 2.0, 3.0], requires_grad=True)
    assert tf.diag(v, 1).tolist()[0] == [0, 1, 0, 0] and _name(tf.diag(v)) == "DiagEmbedBackward0"
    m = x.requires_grad_()
    assert tf.diag(m, -2).tolist() == [8.0] and _name(tf.diag(m)) == "DiagonalBackward0_copy"
    assert _name(m.diagonal()) == "DiagonalBackward0" and _name(tf.trace(m)) == "TraceBackward0"
    assert tf.trace(tf.arange(6).reshape(2, 3)).item() == 4
    assert tf.diagonal(tf.arange(24).reshape(2, 3, 4), -1, 2, 0).shape == (3, 2)
    with pytest.raises(RuntimeError, match="diagonal dimensions cannot be identical 1, 1"):
        tf.diagonal(m, 0, 1, 1)
    with pytest.raises(RuntimeError, match=r"diag\(\): Supports 1D or 2D tensors. Got 3D"):
        tf.diag(tf.ones(2, 2, 2))


def test_unfold_windows_are_a_view() -> None:
    x = tf.arange(12.0).reshape(3, 4)
    windows = x.unfold(1, 3, 2)
    assert windows.shape == (3, 1, 3) and windows.tolist()[1] == [[4, 5, 6]]
    assert x.unfold(0, 2, 1).shape == (2, 4, 2)
    x[1, 5 - 5] = -1.0
    assert windows[1, 0, 0].item() == -1.0
    assert _name(x.requires_grad_().unfold(1, 2, 1)) == "UnfoldBackward0"
    with pytest.raises(RuntimeError, match="maximum size for tensor at dimension 1 is 4 but size is 5"):
        x.unfold(1, 5, 1)
    with pytest.raises(RuntimeError, match="step is 0 but must be > 0"):
        x.unfold(1, 2, 0)


def test_repeat_interleave_forms() -> None:
    assert tf.repeat_interleave(tf.tensor([1, 2, 0, 3])).tolist() == [0, 1, 1, 3, 3, 3]
    x = _x()
    assert _name(x.repeat_interleave(2, dim=0)) == "ViewBackward0"
    assert x.repeat_interleave(tf.tensor([1, 2, 0]), dim=0).tolist()[1] == [4, 5, 6, 7]
    with pytest.raises(RuntimeError, match="repeats must have the same size as input along dim"):
        tf.repeat_interleave(x, tf.tensor([1, 2]), dim=0)


def test_meshgrid_indexing_and_warning() -> None:
    a, b = tf.tensor([1, 2]), tf.tensor([3, 4, 5])
    gx, gy = tf.meshgrid(a, b, indexing="xy")
    assert gx.tolist() == [[1, 2], [1, 2], [1, 2]] and gy.tolist() == [[3, 3], [4, 4], [5, 5]]
    gi, gj = tf.meshgrid(a, b, indexing="ij")
    assert gi.shape == (2, 3) and gj.tolist()[0] == [3, 4, 5]
    with pytest.warns(UserWarning, match="it will be required to pass the indexing argument"):
        tf.meshgrid(a, b)
    with pytest.raises(RuntimeError, match='indexing must be one of "xy" or "ij", but received: foo'):
        tf.meshgrid(a, b, indexing="foo")


def test_einsum_forms_and_errors() -> None:
    a, b = tf.arange(6.0).reshape(2, 3), tf.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(tf.einsum("ij,jk", a, b).numpy(), a.numpy() @ b.numpy())
    assert tf.einsum("ii", tf.arange(9.0).reshape(3, 3)).item() == 12.0
    assert tf.einsum("ba", a).shape == (3, 2)  # implicit output: the labels in alphabetical order
    assert tf.einsum("Ab,bc->cA", a, b).shape == (4, 2)
    assert tf.einsum("...ij,...jk->...ik", tf.ones(2, 1, 2, 3), tf.ones(4, 3, 2)).shape == (2, 4, 2, 2)
    assert tf.einsum("i...->...", tf.ones(2, 3, 4)).shape == (3, 4)
    assert tf.einsum("ij,ij->", [a, a]).item() == 55.0
    with pytest.raises(RuntimeError, match="subscript j has size 2 for operand 1 which does not broadcast with "
                                           "previously seen size 3"):
        tf.einsum("ij,jk", a, a)
    with pytest.raises(RuntimeError, match="expected scalar type Float but found Double"):
        tf.einsum("i,i->", tf.ones(3), tf.ones(3, dtype=tf.float64))
    with pytest.raises(RuntimeError, match="more operands were provided than specified in the equation"):
        tf.einsum("ij", a, a)
    with pytest.raises(RuntimeError, match=r"the number of subscripts in the equation \(3\) does not match"):
        tf.einsum("ijk", a)


def test_einsum_sublist_form() -> None:
    # PyTorch 2.13: integers 0-25 are 'A'-'Z' and 26-51 'a'-'z' (so 2 sorts before 30 in an implicit output)
    a, b = tf.arange(6.0).reshape(2, 3), tf.arange(12.0).reshape(3, 4)
    assert tf.einsum(a, [0, 1], b, [1, 2]).tolist() == [[20, 23, 26, 29], [56, 68, 80, 92]]
    assert tf.einsum(a, [30, 1], b, [1, 2]).shape == (4, 2)
    assert tf.einsum(a, [Ellipsis, 1], b, [1, 2], [Ellipsis, 2]).shape == (2, 4)
    with pytest.raises(ValueError, match=r"subscript in subscript list is not within the valid range \[0, 52\)"):
        tf.einsum(a, [0, 60])


def test_tensordot_cross_kron_cdist_match_pytorch() -> None:
    a, b = tf.arange(6.0).reshape(2, 3), tf.arange(12.0).reshape(3, 4)
    assert tf.tensordot(a, a, ([0, 1], [0, 1])).item() == 55.0
    assert tf.tensordot(tf.ones(2, 3, 4), tf.ones(3, 4, 5)).shape == (2, 5)
    with pytest.raises(RuntimeError, match="tensordot expects dims < ndim_a or ndim_b, but got dims=3"):
        tf.tensordot(a, b, 3)
    w = tf.tensor([[1.0, 2, 3], [4, 5, 6], [7, 8, 10]], requires_grad=True)
    assert tf.cross(w, w.flip(0), dim=1).tolist()[0] == [-4.0, 11.0, -6.0]
    assert _name(tf.cross(w, w, dim=1)) == "LinalgCrossBackward0"
    with pytest.warns(UserWarning, match="Using torch.cross without specifying the dim arg is deprecated"):
        assert tf.cross(tf.ones(3, 2), tf.ones(3, 2)).shape == (3, 2)  # the first dimension of size 3
    assert tf.kron(tf.tensor([1, 2]), tf.tensor([[1, 10], [100, 1000]])).tolist() == [[1, 10, 2, 20],
                                                                                       [100, 1000, 200, 2000]]
    np.testing.assert_allclose(tf.cdist(a, a * 2, p=3).numpy(), [[2.0801, 10.2313], [3.3019, 6.0]], rtol=1e-4)
    with pytest.raises(RuntimeError, match="X1 and X2 must have the same number of columns. X1: 3 X2: 2"):
        tf.cdist(tf.ones(2, 3), tf.ones(3, 2))


def test_addmm_family_names_beta_zero_and_errors() -> None:
    a, b = tf.arange(6.0).reshape(2, 3), tf.arange(12.0).reshape(3, 4)
    m = tf.ones(2, 4, requires_grad=True)
    out = tf.addmm(m, a, b, beta=0.5, alpha=2)
    np.testing.assert_allclose(out.detach().numpy(), 0.5 + 2 * a.numpy() @ b.numpy())
    assert _name(out) == "AddmmBackward0"
    assert _name(tf.addmv(tf.ones(2, requires_grad=True), a, tf.ones(3))) == "AddmvBackward0"
    assert _name(tf.baddbmm(tf.ones(1, 2, 4, requires_grad=True), a[None], b[None])) == "BaddbmmBackward0"
    assert _name(tf.addbmm(tf.ones(2, 4, requires_grad=True), a[None], b[None])) == "AddbmmBackward0"
    assert _name(tf.addr(tf.ones(2, 3, requires_grad=True), tf.ones(2), tf.ones(3))) == "AddrBackward0"
    assert not np.isnan(tf.addmm(tf.tensor(float("nan")), a, b, beta=0).numpy()).any()
    with pytest.raises(RuntimeError, match=r"The expanded size of the tensor \(4\) must match the existing size "
                                           r"\(3\) at non-singleton dimension 1"):
        tf.addmm(tf.ones(2, 3), a, b)


def test_scatter_reduce_amax_shares_the_gradient_among_ties_as_pytorch() -> None:
    x = tf.tensor([[3.0, 1.0], [0.0, 0.0]], dtype=tf.float64, requires_grad=True)
    src = tf.tensor([[3.0, 3.0], [1.0, 5.0]], dtype=tf.float64)
    out = x.scatter_reduce(0, tf.tensor([[0, 0], [0, 0]]), src, "amax")
    (out * tf.tensor([[-1.0, -1 / 3], [1 / 3, 1.0]], dtype=tf.float64)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[-0.5, 0.0], [1 / 3, 1.0]])  # recorded from PyTorch 2.13


def test_assembling_functions_match_pytorch() -> None:
    x = tf.arange(6.0).reshape(2, 3).requires_grad_()
    assert tf.rot90(x).tolist() == [[2, 5], [1, 4], [0, 3]] and _name(tf.rot90(x)) == "Rot90Backward0"
    assert tf.rot90(x, -1, (1, 0)).tolist() == [[2, 5], [1, 4], [0, 3]]
    assert tf.take(x, tf.tensor([[0, 5], [2, 2]])).tolist() == [[0, 5], [2, 2]]
    assert _name(tf.take(x, tf.tensor([1]))) == "TakeBackward0"
    with pytest.raises(IndexError, match="out of range: tried to access index 10 on a tensor of 6 elements."):
        tf.take(x, tf.tensor([10]))
    assert tf.tril_indices(3, 3).tolist() == [[0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2]]
    assert tf.triu_indices(3, 4, 1).tolist() == [[0, 0, 0, 1, 1, 2], [1, 2, 3, 2, 3, 3]]
    assert tf.block_diag(tf.ones(1), tf.tensor(2.0)).tolist() == [[1, 0], [0, 2]]
    assert tf.cartesian_prod(tf.tensor([1, 2]), tf.tensor([3, 4, 5])).tolist()[:2] == [[1, 3], [1, 4]]
    assert tf.combinations(tf.tensor([1, 2]), with_replacement=True).tolist() == [[1, 1], [1, 2], [2, 2]]
    assert tf.atleast_3d(tf.ones(2, 3)).shape == (2, 3, 1) and tf.atleast_2d(tf.tensor([1, 2])).shape == (1, 2)
    assert tf.column_stack([tf.tensor([1, 2]), tf.tensor([[3], [4]])]).tolist() == [[1, 3], [2, 4]]
    assert tf.diff(tf.tensor([1.0, 2]), prepend=tf.tensor([0.0]), append=tf.tensor([5.0, 7.0])).tolist() == [1, 1, 3, 2]
    assert tf.diff(tf.tensor([True, False, False])).tolist() == [True, False]
    with pytest.raises(RuntimeError, match="Input must be >= 2-d."):
        tf.fliplr(tf.ones(2))


def test_counting_functions_match_pytorch() -> None:
    assert tf.bincount(tf.tensor([0, 1, 1, 3])).tolist() == [1, 2, 0, 1]
    weighted = tf.bincount(tf.tensor([0, 1, 1, 3]), tf.tensor([0.5, 1.0, 1.0, 2.0]))
    assert weighted.tolist() == [0.5, 2.0, 0.0, 2.0] and weighted.dtype == tf.float32
    assert tf.bincount(tf.tensor([0, 1]), minlength=4).tolist() == [1, 1, 0, 0]
    with pytest.raises(RuntimeError, match="bincount only supports 1-d non-negative integral inputs."):
        tf.bincount(tf.tensor([-1, 1]))
    assert tf.histc(tf.tensor([1.0, 2, 1, 4]), bins=4, min=0, max=3).tolist() == [0, 2, 1, 0]
    assert tf.histc(tf.tensor([1.0, 2, 1]), bins=4).tolist() == [2, 0, 0, 1]
    assert tf.count_nonzero(tf.tensor([[0, 1], [2, 3]]), dim=0).tolist() == [1, 2]
    assert tf.argwhere(tf.tensor([[0, 1], [2, 0]])).tolist() == [[0, 1], [1, 0]]


def test_index_put_writes_or_accumulates_as_pytorch() -> None:
    x = tf.zeros(3, 4, requires_grad=True)
    summed = x.index_put((tf.tensor([0, 0, 2]), tf.tensor([1, 1, 3])), tf.tensor(2.0), accumulate=True)
    assert summed.tolist()[0] == [0, 4, 0, 0] and summed.tolist()[2] == [0, 0, 0, 2]
    assert _name(summed) == "IndexPutBackward0"
    written = tf.index_put(x, (tf.tensor([0, 2]),), tf.tensor([1.0, 2, 3, 4]))
    assert written.tolist()[2] == [1, 2, 3, 4] and _name(written) == "IndexPutBackward0"
    z = tf.zeros(3)
    z.index_put_((tf.tensor([0, 0]),), tf.tensor([1.0, 2.0]), accumulate=True)
    assert z.tolist() == [3.0, 0.0, 0.0]


def test_reduce_without_self_still_counts_an_equal_old_value_among_ties_as_pytorch() -> None:
    # Recorded from PyTorch 2.13: the old value 2.0 equals the result, so the source's 2.0 gets half.
    x = tf.tensor([[2.0, 2.0]], dtype=tf.float64, requires_grad=True)
    s = tf.tensor([[1.0, 2.0]], dtype=tf.float64, requires_grad=True)
    for out in (x.index_reduce(1, tf.tensor([1, 1]), s, "amax", include_self=False),
                x.scatter_reduce(1, tf.tensor([[1, 1]]), s, "amax", include_self=False)):
        assert out.tolist() == [[2.0, 2.0]]
        assert [g.tolist() for g in tf.autograd.grad(out.sum(), [x, s])] == [[[1.0, 0.0]], [[0.0, 0.5]]]


def test_index_reduce_matches_pytorch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scattering, "_INDEX_REDUCE_WARNED", [False])
    with pytest.warns(UserWarning, match=r"^index_reduce\(\) is in beta"):  # once per process, as PyTorch
        out = tf.tensor([1, 2, 3]).index_reduce(0, tf.tensor([0, 0]), tf.tensor([4, 5]), "mean")
    assert out.tolist() == [3, 2, 3]  # integer mean rounds down, old value included
    assert _name(tf.ones(2, requires_grad=True).index_reduce(0, tf.tensor([1]), tf.ones(1), "prod")) == \
        "IndexReduceBackward0"
    y = tf.zeros(2, 3)
    assert y.index_reduce_(1, tf.tensor([0, 2]), tf.full((2, 2), 3.0), "amax") is y
    assert y.tolist() == [[3, 0, 3], [3, 0, 3]]
    assert tf.index_reduce(tf.zeros(2), 0, tf.tensor([1, 1]), tf.tensor([2.0, 5.0]), "amin",
                           include_self=False).tolist() == [0, 2]
    x = tf.ones(3, 2)
    with pytest.raises(RuntimeError, match=r"^index_reduce\(\): Expected reduce to be one of prod, mean, amax or amin "
                                           r"but got sum\.$"):
        x.index_reduce(0, tf.tensor([0]), tf.ones(1, 2), "sum")
    with pytest.raises(RuntimeError, match=r"^index_reduce_\(\): Expected dtype int32/int64 for index but got: Float$"):
        x.index_reduce(0, tf.tensor([0.0]), tf.ones(1, 2), "prod")
    with pytest.raises(IndexError, match="^index out of range in self$"):
        x.index_reduce(0, tf.tensor([-1]), tf.ones(1, 2), "prod")
    with pytest.raises(RuntimeError, match=r"^index_reduce_\(\): Number of indices \(1\) should be equal to "
                                           r"source.size\(dim\): \(2\), for dim: 0$"):
        x.index_reduce(0, tf.tensor([1]), tf.ones(2, 2), "prod")
    with pytest.raises(RuntimeError, match=r"^index_reduce_\(\): self \(Float\) and source \(Double\) must have the "
                                           r"same scalar type$"):
        x.index_reduce(0, tf.tensor([1]), tf.ones(1, 2, dtype=tf.float64), "prod")


@pytest.mark.parametrize(("call", "error", "message"), [
    # PyTorch 2.13's errors, checked in its order (dtype, minlength, shape and sign, weights)
    (lambda: tf.bincount(tf.tensor([1.0, 2.0])), NotImplementedError, "\"bincount_cpu\" not implemented for 'Float'"),
    (lambda: tf.bincount(tf.tensor([True])), NotImplementedError, "\"bincount_cpu\" not implemented for 'Bool'"),
    (lambda: tf.bincount(tf.tensor([[1]])), RuntimeError, "bincount only supports 1-d non-negative integral inputs."),
    (lambda: tf.bincount(tf.tensor([-1, 2]), minlength=-1), RuntimeError, "minlength should be >= 0"),
    (lambda: tf.bincount(tf.tensor([-1, 2]), tf.ones(3)), RuntimeError, "bincount only supports 1-d non-negative"),
    (lambda: tf.bincount(tf.tensor([1, 2]), tf.ones(3)), RuntimeError,
     "weights should be 1-d and have the same length as input"),
])
def test_bincount_errors_match_pytorch(call: Any, error: type, message: str) -> None:
    with pytest.raises(error, match=re.escape(message)):
        call()


@pytest.mark.parametrize(("equation", "shapes", "node"), [
    # PyTorch 2.13's einsum is composed of other ops: its result's node is the last one's
    ("ij->ji", [(2, 3)], "PermuteBackward0"), ("ii->i", [(3, 3)], "PermuteBackward0"),
    ("ij->j", [(2, 3)], "SumBackward1"), ("ii", [(3, 3)], "SumBackward1"),
    ("ij,jk->ik", [(2, 3), (3, 4)], "ViewBackward0"), ("ij,j,k->ik", [(2, 3), (3,), (4,)], "ViewBackward0"),
    ("ij,ij->ji", [(2, 3), (2, 3)], "MulBackward0"), ("ii,i->i", [(3, 3), (3,)], "MulBackward0"),
])
def test_einsum_node_is_named_as_pytorchs_composition(equation: str, shapes: list, node: str) -> None:
    operands = [tf.randn(*s, requires_grad=True) for s in shapes]
    out = tf.einsum(equation, *operands)
    assert out.grad_fn.name() == node
    out.sum().backward()
    assert all(op.grad.shape == op.shape for op in operands)


def test_atleast_3d_and_ravel_take_pytorchs_nodes() -> None:
    # PyTorch 2.13: atleast_3d unsqueezes, ravel is contiguous().view(-1)
    x = tf.randn(2, 3, requires_grad=True)
    assert tf.atleast_3d(x).grad_fn.name() == "UnsqueezeBackward0"
    assert tf.atleast_3d(x[0]).grad_fn.name() == "UnsqueezeBackward0" and tf.atleast_3d(x[0]).shape == (1, 3, 1)
    assert tf.atleast_3d(x[0, 0]).grad_fn.name() == "ViewBackward0"
    flat = tf.ravel(x.T)
    assert flat.grad_fn.name() == "ViewBackward0" and flat.grad_fn.next_functions[0][0].name() == "CloneBackward0"
    assert flat.tolist() == x.T.reshape(-1).tolist() and x.ravel()._base is x
