"""Sparse COO tensors (``torch.sparse_coo_tensor``, ``torch.sparse.mm``, ``Embedding(sparse=True)``) against
PyTorch 2.13's values, grads, ``grad_fn`` names and errors, recorded with /work/torchvenv (scripts like the
tests' own lines, run with ``import torch``)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import tinyframe as torch

INDICES = [[0, 1, 1, 2], [2, 0, 2, 1]]
VALUES = [3., 4., 5., 6.]
W = [[1., 2.], [3., 4.], [5., 6.]]


def _s(device: str = "cpu", **kwargs: object) -> torch.Tensor:
    return torch.sparse_coo_tensor(torch.tensor(INDICES), torch.tensor(VALUES), (3, 3), device=device, **kwargs)


def _x(device: str = "cpu") -> torch.Tensor:
    return torch.arange(6.).reshape(3, 2).to(device)


def _check(t: torch.Tensor, indices: list, values: list, shape: tuple) -> None:
    assert t.is_sparse and t.layout == torch.sparse_coo
    np.testing.assert_array_equal(t._indices().cpu().numpy(), indices)
    np.testing.assert_allclose(t._values().detach().cpu().numpy(), values, rtol=1e-6)
    assert tuple(t.shape) == shape


def test_repr_and_metadata():
    s = _s()
    assert repr(s) == ("tensor(indices=tensor([[0, 1, 1, 2],\n"
                       "                       [2, 0, 2, 1]]),\n"
                       "       values=tensor([3., 4., 5., 6.]),\n"
                       "       size=(3, 3), nnz=4, layout=torch.sparse_coo)")
    assert (s.is_coalesced(), s.sparse_dim(), s.dense_dim(), s._nnz(), s.dim(), s.numel(), len(s)) == (
        False, 2, 0, 4, 2, 9, 3)
    assert s.shape == (3, 3) and s.dtype == torch.float32 and s.device == torch.device("cpu")
    assert not s.requires_grad and not torch.ones(2).is_sparse and torch.ones(2).layout == torch.strided
    assert repr(s.to(torch.float64)).endswith("size=(3, 3), nnz=4, dtype=tinyframe.float64, layout=torch.sparse_coo)")
    v = torch.tensor(VALUES, requires_grad=True)
    assert repr(torch.sparse_coo_tensor(torch.tensor(INDICES), v, (3, 3))).endswith(
        "size=(3, 3), nnz=4, layout=torch.sparse_coo,\n       grad_fn=<SparseCooTensorWithDimsAndTensorsBackward0>)")
    ints = torch.sparse_coo_tensor([[0, 1], [1, 0]], [1, 2])
    assert repr(ints) == ("tensor(indices=tensor([[0, 1],\n                       [1, 0]]),\n"
                          "       values=tensor([1, 2]),\n       size=(2, 2), nnz=2, layout=torch.sparse_coo)")


def test_coalesce_and_conversions():
    u = torch.sparse_coo_tensor(torch.tensor([[1, 0, 1], [0, 2, 0]]), torch.tensor([1., 2., 3.]), (2, 3))
    c = u.coalesce()
    _check(c, [[0, 1], [2, 0]], [2., 4.], (2, 3))
    assert c.is_coalesced() and not u.is_coalesced()
    np.testing.assert_array_equal(c.indices().numpy(), [[0, 1], [2, 0]])
    np.testing.assert_array_equal(u.to_dense().numpy(), [[0., 0., 2.], [4., 0., 0.]])
    d = torch.tensor([[0., 1.], [2., 0.]])
    _check(d.to_sparse(), [[0, 1], [1, 0]], [1., 2.], (2, 2))
    assert d.to_sparse().is_coalesced() and d.to_dense() is d
    _check(d.to_sparse_coo(), [[0, 1], [1, 0]], [1., 2.], (2, 2))
    _check(torch.sparse_coo_tensor(torch.tensor(INDICES), torch.tensor(VALUES)), INDICES, VALUES, (3, 3))


def test_elementwise_and_transpose():
    s = _s()
    _check(s.t(), [[2, 0, 2, 1], [0, 1, 1, 2]], VALUES, (3, 3))
    _check(s.transpose(0, 1), [[2, 0, 2, 1], [0, 1, 1, 2]], VALUES, (3, 3))
    for scaled in (s * 2, 2 * s, s.mul(2)):
        _check(scaled, INDICES, [6., 8., 10., 12.], (3, 3))
    _check(s + s, INDICES, [6., 8., 10., 12.], (3, 3))
    _check(s.add(s, alpha=2), INDICES, [9., 12., 15., 18.], (3, 3))
    _check(-s, INDICES, [-3., -4., -5., -6.], (3, 3))
    _check(s / 2, INDICES, [1.5, 2., 2.5, 3.], (3, 3))
    assert [t.is_coalesced() for t in (s + s, s * 2, s.t(), s.coalesce())] == [False, False, False, True]
    np.testing.assert_array_equal((torch.ones(3, 3) + s).numpy(), [[1., 1., 4.], [5., 1., 6.], [1., 7., 1.]])


def test_products_and_sums(device):
    s, x = _s(device), _x(device)
    expected = [[12., 15.], [20., 29.], [12., 18.]]
    for out in (torch.sparse.mm(s, x), torch.spmm(s, x), torch.mm(s, x), s @ x, torch.matmul(s, x), s.mm(x)):
        assert out.device == s.device and not out.is_sparse
        np.testing.assert_array_equal(out.cpu().numpy(), expected)
    assert torch.sparse.sum(s).item() == 18. and s.sum().item() == 18.
    _check(torch.sparse.sum(s, dim=0), [[0, 1, 2]], [4., 6., 8.], (3,))
    _check(torch.sparse.sum(s, dim=1), [[0, 1, 2]], [3., 9., 6.], (3,))


def test_dense_operand_grad(device):
    s, x = _s(device), _x(device).requires_grad_()
    out = torch.sparse.mm(s, x)
    assert out.grad_fn.name() == "SparseAddmmBackward0"
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.cpu().numpy(), [[4., 4.], [6., 6.], [8., 8.]])
    assert (s @ x).grad_fn.name() == "MmBackward0" and torch.mm(s, x).grad_fn.name() == "MmBackward0"
    assert torch.spmm(s, x).grad_fn.name() == "MmBackward0"


@pytest.mark.parametrize("product", ["sparse.mm", "@"])
def test_values_grad(product, device):
    v = torch.tensor(VALUES, device=device, requires_grad=True)
    s = torch.sparse_coo_tensor(torch.tensor(INDICES, device=device), v, (3, 3))
    assert s.grad_fn.name() == "SparseCooTensorWithDimsAndTensorsBackward0"
    out = torch.sparse.mm(s, _x(device)) if product == "sparse.mm" else s @ _x(device)
    (out * torch.tensor(W, device=device)).sum().backward()
    np.testing.assert_array_equal(v.grad.cpu().numpy(), [14., 4., 32., 28.])
    v.grad = None
    dense = torch.sparse_coo_tensor(torch.tensor(INDICES, device=device), v, (3, 3)).to_dense()
    assert dense.grad_fn.name() == "ToDenseBackward0"
    (dense * torch.arange(9., device=device).reshape(3, 3)).sum().backward()
    np.testing.assert_array_equal(v.grad.cpu().numpy(), [2., 3., 5., 7.])


def test_sparse_leaf_grads():
    leaf = _s(requires_grad=True)
    assert leaf.is_leaf and leaf.grad_fn is None and leaf.requires_grad
    assert repr(leaf).endswith("layout=torch.sparse_coo, requires_grad=True)")
    (torch.sparse.mm(leaf, _x()) * torch.tensor(W)).sum().backward()
    _check(leaf.grad, INDICES, [14., 4., 32., 28.], (3, 3))
    assert not leaf.grad.is_coalesced()
    leaf.grad = None
    (leaf @ _x() * torch.tensor(W)).sum().backward()  # mm gives the sparse operand a dense gradient
    assert leaf.grad.layout == torch.strided
    np.testing.assert_array_equal(leaf.grad.numpy(), [[2., 8., 14.], [4., 18., 32.], [6., 28., 50.]])
    leaf.grad = None
    leaf.to_dense().sum().backward()
    leaf.to_dense().sum().backward()  # accumulated: the same entries, summed
    _check(leaf.grad, INDICES, [2., 2., 2., 2.], (3, 3))
    names = [(leaf * 2).grad_fn.name(), (2 * leaf).grad_fn.name(), (leaf + leaf).grad_fn.name(),
             leaf.t().grad_fn.name(), leaf.transpose(0, 1).grad_fn.name(), torch.sparse.sum(leaf).grad_fn.name(),
             torch.sparse.sum(leaf, 0).grad_fn.name()]
    assert names == ["MulBackward0", "MulBackward0", "AddBackward0", "TBackward0", "TransposeBackward0",
                     "SumBackward0", "SparseSumBackward0"]
    cases = [(lambda: torch.sparse.sum(leaf), INDICES, [1., 1., 1., 1.]),
             (lambda: torch.sparse.sum(leaf, 1).to_dense().sum(), INDICES, [1., 1., 1., 1.]),
             (lambda: (leaf * 2).to_dense().sum(), INDICES, [2., 2., 2., 2.]),
             (lambda: (leaf + leaf).to_dense().sum(), INDICES, [2., 2., 2., 2.]),
             (lambda: leaf.t().to_dense()[0].sum(), [[1, 2, 0, 1], [0, 1, 2, 2]], [1., 0., 0., 0.])]
    for loss, indices, values in cases:
        leaf.grad = None
        loss().backward()
        _check(leaf.grad, indices, values, (3, 3))
    leaf.grad = None
    (leaf.t() @ _x() * torch.tensor(W)).sum().backward()
    np.testing.assert_array_equal(leaf.grad.numpy(), [[2., 4., 6.], [8., 18., 28.], [14., 32., 50.]])


def test_to_sparse_grad():
    d = torch.tensor([[0., 1.], [2., 0.]], requires_grad=True)
    sd = d.to_sparse()
    assert sd.grad_fn.name() == "ToSparseBackward1"
    (sd.to_dense() * torch.tensor([[1., 2.], [3., 4.]])).sum().backward()
    np.testing.assert_array_equal(d.grad.numpy(), [[0., 2.], [3., 0.]])
    d.grad = None
    (torch.sparse.mm(d.to_sparse(), torch.ones(2, 2)) * torch.tensor([[1., 2.], [3., 4.]])).sum().backward()
    np.testing.assert_array_equal(d.grad.numpy(), [[0., 3.], [7., 0.]])


def test_errors():
    s = _s()
    cases = [
        (lambda: torch.sparse.mm(s, torch.ones(2, 2)), RuntimeError,
         "addmm: Argument #3 (dense): Expected dim 0 size 3, got 2"),
        (lambda: torch.exp(s), NotImplementedError,
         "Could not run 'aten::exp' with arguments from the 'SparseCPU' backend"),
        (lambda: s.mean(), NotImplementedError, "with arguments from the 'SparseCPU' backend"),
        (lambda: s + torch.ones(3, 3), RuntimeError,
         "add(sparse, dense) is not supported. Use add(dense, sparse) instead."),
        (lambda: torch.sparse_coo_tensor(torch.tensor(INDICES), torch.tensor(VALUES[:3]), (3, 3)), RuntimeError,
         "indices and values must have same nnz, but got nnz from indices: 4, nnz from values: 3"),
        (lambda: torch.sparse_coo_tensor(torch.tensor(INDICES), torch.tensor(VALUES), (3, 3, 3)), RuntimeError,
         "'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = 3, sparse_dim = 2, dense_dim = 0"),
        (lambda: s.numpy(), TypeError, "can't convert Sparse layout tensor to numpy. Use Tensor.to_dense() first."),
        (lambda: s.indices(), RuntimeError,
         "Cannot get indices on an uncoalesced tensor, please call .coalesce() first"),
        (lambda: s + torch.sparse_coo_tensor(torch.tensor(INDICES), torch.tensor(VALUES), (3, 4)), RuntimeError,
         "add: expected sizes of 'self' and 'other' to match, but [3, 3] != [3, 4]"),
        (lambda: torch.ones(2).is_coalesced(), RuntimeError,
         "is_coalesced expected sparse coordinate tensor layout but got Strided"),
    ]
    for call, kind, message in cases:
        with pytest.raises(kind) as info:
            call()
        assert message in str(info.value)


W0 = [[0.1, 0.2], [0.3, -0.4], [0.5, 0.6], [-0.7, 0.8], [0.9, 1.0]]


def _embedding_run(optimizer, steps: int = 3, padding_idx: int | None = None, **options: float) -> tuple:
    emb = torch.nn.Embedding(5, 2, sparse=True, padding_idx=padding_idx)
    with torch.no_grad():
        emb.weight.copy_(torch.tensor(W0))
    opt = optimizer(emb.parameters(), **options)
    for _ in range(steps):
        opt.zero_grad()
        loss = (emb(torch.tensor([[0, 2], [2, 4]])) ** 2 * torch.tensor([1., 2.])).sum()
        loss.backward()
        opt.step()
    return emb, loss


def test_embedding_sparse_grad():
    emb, _ = _embedding_run(torch.optim.SGD, steps=1, lr=0.1)
    _check(emb.weight.grad, [[0, 2, 2, 4]], [[0.2, 0.8], [1., 2.4], [1., 2.4], [1.8, 4.]], (5, 2))
    assert emb(torch.tensor([0])).grad_fn.name() == "EmbeddingBackward0"
    emb, _ = _embedding_run(torch.optim.SGD, steps=1, padding_idx=2, lr=0.1)
    _check(emb.weight.grad, [[0, 4]], [[0.2, 0.8], [1.8, 4.]], (5, 2))
    x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    torch.nn.functional.embedding(torch.tensor([1, 1, 0]), x, sparse=True).sum().backward()
    _check(x.grad, [[1, 1, 0]], [[1., 1.]] * 3, (2, 2))


@pytest.mark.parametrize("optimizer, options, loss, weight", [
    ("SGD", {"lr": 0.1}, 0.672544002532959,
     [[0.0512, 0.0432], [0.3, -0.4], [0.108, 0.0048], [-0.7, 0.8], [0.4608, 0.216]]),
    ("SGD", {"lr": 0.1, "momentum": 0.9}, 0.8393680453300476,
     [[0.0062, -0.108], [0.3, -0.4], [-0.27, -0.5568], [-0.7, 0.8], [0.0558, -0.54]]),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True}, 0.42897629737854004,
     [[-0.010835, -0.086659], [0.3, -0.4], [-0.216648, -0.029933], [-0.7, 0.8], [-0.097517, -0.433296]]),
    ("SparseAdam", {"lr": 0.1}, 2.600827693939209,
     [[-0.074438, -0.067181], [0.3, -0.4], [0.204871, 0.303542], [-0.7, 0.8], [0.601854, 0.701586]]),
    ("Adagrad", {"lr": 0.1}, 2.920523166656494,
     [[0.0, 0.03128], [0.3, -0.4], [0.290899, 0.38724], [-0.7, 0.8], [0.681538, 0.780456]]),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.01}, 2.9268434047698975,
     [[0.0, 0.032016], [0.3, -0.4], [0.292366, 0.388776], [-0.7, 0.8], [0.683183, 0.782121]]),
])
def test_optimizers_with_sparse_grads(optimizer, options, loss, weight):
    emb, last = _embedding_run(getattr(torch.optim, optimizer), **options)
    assert last.item() == pytest.approx(loss, rel=1e-6)
    np.testing.assert_allclose(emb.weight.detach().numpy(), weight, atol=2e-6)


@pytest.mark.parametrize("optimizer, options, message", [
    ("Adam", {}, "Adam does not support sparse gradients, please consider SparseAdam instead"),
    ("AdamW", {}, "Adam does not support sparse gradients, please consider SparseAdam instead"),
    ("RMSprop", {}, "RMSprop does not support sparse gradients"),
    ("Adadelta", {}, "Adadelta does not support sparse gradients"),
    ("NAdam", {}, "NAdam does not support sparse gradients"),
    ("Adagrad", {"weight_decay": 0.1}, "weight_decay option is not compatible with sparse gradients"),
    ("SGD", {"lr": 0.1, "weight_decay": 0.1}, "add(sparse, dense) is not supported. Use add(dense, sparse) instead."),
])
def test_optimizers_refusing_sparse_grads(optimizer, options, message):
    with pytest.raises(RuntimeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        _embedding_run(getattr(torch.optim, optimizer), **options)


def test_sparse_adam_refuses_dense_grads():
    p = torch.nn.Parameter(torch.ones(2))
    p.grad = torch.ones(2)
    with pytest.raises(RuntimeError, match="SparseAdam does not support dense gradients, please consider Adam instead"):
        torch.optim.SparseAdam([p]).step()


def test_gcn_training_matches_pytorch(device):
    """Two GCN layers on a normalized sparse adjacency with self-loops, five SGD steps, fixed weights."""
    edges = torch.tensor([[0, 1, 1, 2, 2, 3, 3, 4, 0, 1, 2, 3, 4], [1, 0, 2, 1, 3, 2, 4, 3, 0, 1, 2, 3, 4]])
    deg = torch.zeros(5).index_add_(0, edges[0], torch.ones(13))
    adj = torch.sparse_coo_tensor(edges, deg[edges[0]].rsqrt() * deg[edges[1]].rsqrt(), (5, 5)).to(device)
    x = (torch.arange(15.).reshape(5, 3) / 10).to(device)
    w1 = torch.tensor([[0.2, -0.1, 0.3, 0.05], [-0.3, 0.4, 0.1, -0.2], [0.1, 0.2, -0.4, 0.3]], device=device,
                      requires_grad=True)
    w2 = torch.tensor([[0.5, -0.5], [0.3, 0.2], [-0.2, 0.4], [0.1, -0.3]], device=device, requires_grad=True)
    y = torch.tensor([0, 1, 1, 0, 1], device=device)
    opt = torch.optim.SGD([w1, w2], lr=0.5)
    losses = []
    for _ in range(5):
        opt.zero_grad()
        h = torch.relu(torch.sparse.mm(adj, x @ w1))
        loss = torch.nn.functional.cross_entropy(torch.spmm(adj, h @ w2), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    np.testing.assert_allclose(losses, [0.7051457166671753, 0.6993162035942078, 0.6948850750923157,
                                        0.6912450194358826, 0.6890220642089844], rtol=1e-6)
    np.testing.assert_allclose(w2.detach().cpu().numpy(), [[0.5, -0.5], [0.18191221356391907, 0.3180878162384033],
                                                           [-0.2, 0.4], [0.08174514770507812, -0.28174516558647156]],
                               rtol=1e-6)


def test_sparse_loads_lazily():
    import subprocess
    import sys
    code = ("import sys, tinyframe; from tinyframe import _graph; "
            "print(bool(_graph.SPARSE_KERNELS), 'tinyframe.sparse' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_softmax(device):
    v = torch.tensor([1., 2., 3., 4.], device=device, requires_grad=True)
    indices = torch.tensor([[0, 0, 1, 2], [0, 2, 1, 0]], device=device)
    weights = torch.arange(9., device=device).reshape(3, 3)
    y = torch.sparse.softmax(torch.sparse_coo_tensor(indices, v, (3, 3)), 1)
    assert y.grad_fn.name() == "SparseSoftmaxBackward0" and y.is_coalesced()
    _check(y, [[0, 0, 1, 2], [0, 2, 1, 0]], [0.26894142, 0.73105858, 1., 1.], (3, 3))
    (y.to_dense() * weights).sum().backward()
    np.testing.assert_allclose(v.grad.cpu().numpy(), [-0.3932, 0.3932, 0., 0.], atol=1e-4)
    v.grad = None
    z = torch.sparse.log_softmax(torch.sparse_coo_tensor(indices, v, (3, 3)), 0)
    assert z.grad_fn.name() == "SparseLogSoftmaxBackward0"
    _check(z, [[0, 0, 1, 2], [0, 2, 1, 0]], [-3.0485873, 0., 0., -0.0485873], (3, 3))
    (z.to_dense() * weights).sum().backward()
    np.testing.assert_allclose(v.grad.cpu().numpy(), [-0.2846, 0., 0., 0.2846], atol=1e-4)
    uncoalesced = torch.sparse_coo_tensor([[0, 0, 0], [2, 0, 2]], [1., 2., 3.], (1, 3))
    _check(torch.sparse.softmax(uncoalesced, 1), [[0, 0], [0, 2]], [0.11920292, 0.88079708], (1, 3))


def test_legacy_sparse_constructors():
    """pygcn's ``torch.sparse.FloatTensor(indices, values, shape)``: PyTorch's deprecation warning, the values'
    own dtype kept; ``FloatTensor(2, 3)`` is empty; ``isinstance`` tells sparse from dense types."""
    indices = torch.tensor([[0, 1], [1, 0]])
    with pytest.warns(UserWarning, match=r"torch.sparse.SparseTensor\(indices, values, shape, \*, device=\) is "
                                         r"deprecated.  Please use torch.sparse_coo_tensor\(indices, values, shape"):
        s = torch.sparse.FloatTensor(indices, torch.tensor([1., 2.]), torch.Size([2, 2]))
    _check(s, [[0, 1], [1, 0]], [1., 2.], (2, 2))
    with pytest.warns(UserWarning):
        assert torch.sparse.FloatTensor(indices, torch.tensor([1, 2]), torch.Size([2, 2])).dtype == torch.int64
    with pytest.warns(UserWarning, match=r"torch.sparse.SparseTensor\(shape, \*, device=\) is deprecated"):
        empty = torch.sparse.FloatTensor(2, 3)
    _check(empty, np.zeros((2, 0)), [], (2, 3))
    assert empty.is_coalesced() and empty.dtype == torch.float32
    assert isinstance(empty, torch.sparse.FloatTensor) and not isinstance(empty, torch.FloatTensor)
    assert not isinstance(torch.ones(2), torch.sparse.FloatTensor)


def test_zero_grad_keeps_an_empty_sparse_grad():
    emb = torch.nn.Embedding(3, 2, sparse=True)
    opt = torch.optim.SGD(emb.parameters(), lr=0.1)
    emb(torch.tensor([0, 2])).sum().backward()
    opt.zero_grad(set_to_none=False)
    assert repr(emb.weight.grad) == ("tensor(indices=tensor([], size=(1, 0)),\n       values=tensor([], size=(0, 2)),\n"
                                     "       size=(3, 2), nnz=0, layout=torch.sparse_coo)")
    assert emb.weight.grad.is_coalesced()
    emb(torch.tensor([1])).sum().backward()
    _check(emb.weight.grad, [[1]], [[1., 1.]], (3, 2))


def test_matrix_vector_product():
    s = torch.sparse_coo_tensor([[0, 1], [1, 0]], [1., 2.], (2, 2), requires_grad=True)
    x = torch.tensor([3., 4.], requires_grad=True)
    y = s @ x
    assert y.grad_fn.name() == "MvBackward0"
    np.testing.assert_array_equal(y.detach().numpy(), [4., 6.])
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2., 1.])
    np.testing.assert_array_equal(s.grad.numpy(), [[3., 4.], [3., 4.]])  # dense, as PyTorch's mv gives it
    np.testing.assert_array_equal(torch.mv(s.detach(), torch.ones(2)).numpy(), [1., 2.])


def test_dense_times_sparse(device):
    s = torch.sparse_coo_tensor([[0, 1, 1], [1, 0, 1]], [1., 2., 3.], (2, 2), device=device, requires_grad=True)
    x = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], device=device, requires_grad=True)
    y = x @ s
    assert y.grad_fn.name() == "MmBackward0" and torch.mm(x, s).grad_fn.name() == "MmBackward0"
    np.testing.assert_array_equal(y.detach().cpu().numpy(), [[4., 7.], [8., 15.], [12., 23.]])
    (y * torch.arange(6., device=device).reshape(3, 2)).sum().backward()
    np.testing.assert_array_equal(x.grad.cpu().numpy(), [[1., 3.], [3., 13.], [5., 23.]])
    np.testing.assert_array_equal(s.grad.cpu().numpy(), [[26., 35.], [32., 44.]])


# PyTorch 2.13: (node name, coalesced) of each elementwise op computed on a sparse tensor's stored values
# (from the uncoalesced _s() with values [3, -4, 5, -1]); neg and multiplication by a number keep the indices.
VALUE_OPS = {"abs": ("AbsBackward0", True), "relu": ("ReluBackward0", True), "sqrt": ("SqrtBackward0", True),
             "sin": ("SinBackward0", True), "tanh": ("TanhBackward0", True), "sign": ("SignBackward0", True),
             "sgn": ("SgnBackward0", True), "floor": ("FloorBackward0", True), "ceil": ("CeilBackward0", True),
             "round": ("RoundBackward0", True), "trunc": ("TruncBackward0", True), "frac": ("FracBackward0", True),
             "log1p": ("Log1PBackward0", True), "expm1": ("Expm1Backward0", True), "sinh": ("SinhBackward0", True),
             "asin": ("AsinBackward0", True), "asinh": ("AsinhBackward0", True), "atan": ("AtanBackward0", True),
             "atanh": ("AtanhBackward0", True), "tan": ("TanBackward0", True), "erf": ("ErfBackward0", True),
             "erfinv": ("ErfinvBackward0", True), "nan_to_num": ("NanToNumBackward0", True),
             "square": ("PowBackward0", True), "neg": ("NegBackward0", False)}


def _signed(**kwargs: object) -> torch.Tensor:
    values = torch.tensor([3., -4., 5., -1.], dtype=torch.float64)
    return torch.sparse_coo_tensor(torch.tensor(INDICES), values, (3, 3), **kwargs)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # (NumPy's, for sqrt(-4) and the like, on a few of them)
@pytest.mark.parametrize("name", list(VALUE_OPS))
def test_elementwise_ops_on_the_stored_values(name: str) -> None:
    s = _signed(requires_grad=True)
    out = getattr(s, name)()
    dense = _signed().to_dense()
    expected = getattr(dense, name)()
    assert out.is_sparse and (type(out.grad_fn).__name__, out.is_coalesced()) == VALUE_OPS[name]
    np.testing.assert_allclose(out.to_dense().detach().numpy(), expected.numpy(), rtol=1e-12)


def test_gradients_of_elementwise_ops_and_products_are_sparse() -> None:
    # PyTorch 2.13: s.grad.to_dense() after torch.sparse.sum(f(s)).backward()
    d = torch.arange(9., dtype=torch.float64).reshape(3, 3)
    cases = {"abs": (lambda s: torch.abs(s), [[0, 0, 1], [-1, 0, 1], [0, -1, 0]]),
             "relu": (lambda s: torch.relu(s), [[0, 0, 1], [0, 0, 1], [0, 0, 0]]),
             "neg": (lambda s: s.neg(), [[0, 0, -1], [-1, 0, -1], [0, -1, 0]]),
             "pow": (lambda s: s.pow(2), [[0, 0, 6], [-8, 0, 10], [0, -2, 0]]),
             "mul_sparse": (lambda s: s.mul(s), [[0, 0, 6], [-8, 0, 10], [0, -2, 0]]),
             "mul_dense": (lambda s: s * d, [[0, 0, 2], [3, 0, 5], [0, 7, 0]]),
             "clone": (lambda s: s.clone(), [[0, 0, 1], [1, 0, 1], [0, 1, 0]])}
    for name, (f, expected) in cases.items():
        s = _signed(requires_grad=True)
        torch.sparse.sum(f(s)).backward()
        assert s.grad.is_sparse, name
        np.testing.assert_array_equal(s.grad.to_dense().numpy(), expected, err_msg=name)


def test_products_with_sparse_tensors() -> None:
    s, d = _signed(requires_grad=True), torch.arange(9., dtype=torch.float64).reshape(3, 3)
    expected = [[0, 0, 6], [-12, 0, 25], [0, -7, 0]]
    for out in (s * d, d * s):  # PyTorch 2.13: sparse, not coalesced (as s), MulBackward0
        assert out.is_sparse and not out.is_coalesced() and type(out.grad_fn).__name__ == "MulBackward0"
        np.testing.assert_array_equal(out.to_dense().detach().numpy(), expected)
    row = torch.ones(3, dtype=torch.float64)
    np.testing.assert_array_equal((s * row).to_dense().detach().numpy(), _signed().to_dense().numpy())
    c = _signed().coalesce()
    assert (c * d).is_coalesced() and (c * c).is_coalesced() and not s.mul(s).is_coalesced()
    other = torch.sparse_coo_tensor(torch.tensor([[0, 2], [2, 2]]), torch.tensor([2., 7.], dtype=torch.float64),
                                    (3, 3))
    product = c * other  # PyTorch 2.13: at the entries of the operand with fewer (nnz 2), not coalesced
    assert product._nnz() == 2 and not product.is_coalesced()
    np.testing.assert_array_equal(product.to_dense().numpy(), [[0, 0, 6], [0, 0, 0], [0, 0, 0]])
    with pytest.raises(RuntimeError, match="^pow: cannot raise to zeroth power on sparse tensor; it would make the "
                                           "result tensor dense$"):
        c.pow(0)
    np.testing.assert_allclose(c.pow(-1).to_dense().numpy(), [[0, 0, 1 / 3], [-0.25, 0, 0.2], [0, -1, 0]])


def test_sum_over_a_dimension_clone_and_detach_of_sparse_tensors() -> None:
    s = _signed(requires_grad=True)
    for dim, expected in ((0, [-4., -1., 8.]), (1, [3., 1., -1.])):  # PyTorch 2.13: sparse, SumBackward1
        out = s.sum(dim)
        assert out.is_sparse and out.is_coalesced() and type(out.grad_fn).__name__ == "SumBackward1"
        assert out.to_dense().tolist() == expected
    clone = s.clone()
    assert clone.is_sparse and not clone.is_coalesced() and type(clone.grad_fn).__name__ == "CloneBackward0"
    assert clone._values().data_ptr() != s._values().data_ptr()
    detached = s.detach()
    assert detached.is_sparse and not detached.requires_grad and detached.grad_fn is None
    assert not _signed().clone().requires_grad and _signed().requires_grad_().requires_grad


DATA = Path(__file__).resolve().parent / "data"


def _same_sparse(a: torch.Tensor, b: torch.Tensor) -> None:
    assert b.is_sparse and a.is_coalesced() == b.is_coalesced() and a.shape == b.shape and a.dtype == b.dtype
    assert a._indices().tolist() == b._indices().tolist() and a._values().tolist() == b._values().tolist()


def test_sparse_tensors_from_a_pytorch_file() -> None:
    # tests/data/make_torch_fixtures.py (PyTorch 2.13's torch.save)
    loaded = torch.load(DATA / "torch_sparse.pt")
    s, c, hybrid = loaded["uncoalesced"], loaded["coalesced"], loaded["hybrid"]
    assert s.is_sparse and not s.is_coalesced() and s.shape == (3, 3) and s.dtype == torch.float32
    assert s._indices().tolist() == [[0, 1, 1, 2, 1], [2, 0, 2, 1, 0]] and s._values().tolist() == [3, -4, 5, -1, 2]
    assert c.is_coalesced() and c._indices().tolist() == [[0, 1, 1, 2], [2, 0, 2, 1]]
    assert c._values().tolist() == [3, -2, 5, -1] and torch.equal(s.to_dense(), c.to_dense())
    assert hybrid.dtype == torch.float64 and hybrid.shape == (4, 2) and hybrid.dense_dim() == 1
    assert hybrid.to_dense().tolist() == [[1, 2], [0, 0], [0, 0], [3, 4]]


@pytest.mark.parametrize("file_format", ["tinyframe", "torch"])
def test_sparse_tensors_save_and_load(tmp_path: Path, file_format: str, device: str) -> None:
    loaded = torch.load(DATA / "torch_sparse.pt")
    saved = {name: t.to(device) for name, t in loaded.items()}
    path = tmp_path / "sparse.pt"
    torch.save(saved, path, format=file_format)
    back = torch.load(path)
    for name, t in saved.items():
        _same_sparse(t.cpu(), back[name].cpu())
        assert back[name].device == t.device
    on_cpu = torch.load(path, map_location="cpu")
    assert all(t.device.type == "cpu" and t.is_sparse for t in on_cpu.values())
    if file_format == "tinyframe":  # tinyframe's own format keeps requires_grad, as it does for dense tensors
        torch.save(_signed(requires_grad=True), path)
        assert torch.load(path).requires_grad


def test_sparse_mm_and_spmm_take_a_dense_first_matrix_as_pytorch() -> None:
    # PyTorch 2.13: torch.spmm of dense matrices is torch.mm; torch.sparse.mm multiplies the transposes
    # (mat2^T mat1^T)^T, so its result's node is TransposeBackward0, also for a sparse mat2
    a = torch.tensor([[1.0, 2.0], [0.0, 1.0]], requires_grad=True)
    b = torch.ones(2, 3, requires_grad=True)
    product = torch.sparse.mm(a, b)
    assert product.grad_fn.name() == "TransposeBackward0" and product.tolist() == [[3.0] * 3, [1.0] * 3]
    product.sum().backward()
    assert a.grad.tolist() == [[3.0, 3.0], [3.0, 3.0]] and b.grad.tolist() == [[1.0] * 3, [3.0] * 3]
    assert torch.spmm(a, b).grad_fn.name() == "MmBackward0"
    s = torch.eye(3).to_sparse().requires_grad_()
    right = torch.sparse.mm(b, s)
    assert right.layout == torch.strided and right.grad_fn.name() == "TransposeBackward0"
    assert right.grad_fn.next_functions[0][0].name() == "SparseAddmmBackward0"
    right.sum().backward()
    assert s.grad.is_sparse and s.grad.to_dense().tolist() == [[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 2.0]]
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(3x3 and 2x2\)"):
        torch.sparse.mm(a, torch.ones(3, 3))
