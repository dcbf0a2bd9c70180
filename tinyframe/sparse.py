"""``torch.sparse``: sparse COO tensors' functions (``sparse.mm``, ``sparse.sum``, ...); the tensors and their
ops are in ``ops.sparse``. Loaded on first use, with ``torch.sparse_coo_tensor`` and ``torch.spmm``."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .ops import sparse as sparse_ops

if TYPE_CHECKING:
    from .tensor import Tensor

__all__ = ["mm", "sum", "softmax", "log_softmax", "sparse_coo_tensor", "spmm"]

sparse_coo_tensor = sparse_ops.sparse_coo_tensor


def mm(mat1: Tensor, mat2: Tensor) -> Tensor:
    """The matrix product of a sparse COO matrix ``mat1`` and a dense matrix ``mat2`` (dense); gradients flow
    to both, the sparse one's sparse (``SparseAddmmBackward0``)."""
    return sparse_ops.sparse_mm(mat1, mat2)


def spmm(input: Tensor, mat2: Tensor) -> Tensor:
    """``torch.spmm``: ``torch.mm`` of a sparse and a dense matrix (``MmBackward0``)."""
    return sparse_ops.sparse_mm(input, mat2, sparse_ops.SparseMm)


def sum(input: Tensor, dim: Any = None, dtype: Any = None) -> Tensor:
    """The sum of a sparse tensor's elements (a dense 0-dim tensor), or over its sparse dimensions ``dim``."""
    return sparse_ops.sparse_sum(input, dim, dtype)


def softmax(input: Tensor, dim: int, dtype: Any = None) -> Tensor:
    """Softmax along ``dim`` over each slice's stored entries (absent ones are minus infinity, not zero):
    a sparse tensor with the input's coalesced entries (``SparseSoftmaxBackward0``)."""
    return sparse_ops.sparse_softmax(input, dim, dtype)


def log_softmax(input: Tensor, dim: int, dtype: Any = None) -> Tensor:
    """The logarithm of ``softmax`` (``SparseLogSoftmaxBackward0``)."""
    return sparse_ops.sparse_softmax(input, dim, dtype, log=True)
