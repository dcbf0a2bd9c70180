"""``torch.sparse``: sparse COO tensors' functions (``sparse.mm``, ``sparse.sum``, ...); the tensors and their
ops are in ``ops.sparse``. Loaded on first use, with ``torch.sparse_coo_tensor`` and ``torch.spmm``."""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from . import _graph, dtypes
from .legacy_tensor_types import _LegacyTensorType
from .ops import linalg
from .ops import sparse as sparse_ops
from .tensor import Tensor

__all__ = ["mm", "sum", "softmax", "log_softmax", "sparse_coo_tensor", "spmm", "FloatTensor", "DoubleTensor",
           "LongTensor", "IntTensor"]

sparse_coo_tensor = sparse_ops.sparse_coo_tensor


def mm(mat1: Tensor, mat2: Tensor) -> Tensor:
    """The matrix product of a sparse COO matrix ``mat1`` and a dense matrix ``mat2`` (dense); gradients flow
    to both, the sparse one's sparse (``SparseAddmmBackward0``). A dense ``mat1`` is multiplied as PyTorch
    does, through the transposes: ``(mat2^T mat1^T)^T`` (``TransposeBackward0``)."""
    if not sparse_ops.is_sparse(mat1):
        product = sparse_ops.sparse_mm if sparse_ops.is_sparse(mat2) else linalg.mm
        return product(mat2.transpose(-2, -1), mat1.transpose(-2, -1)).transpose(-2, -1)
    return sparse_ops.sparse_mm(mat1, mat2)


def spmm(input: Tensor, mat2: Tensor) -> Tensor:
    """``torch.spmm``: ``torch.mm`` of a sparse and a dense matrix (``MmBackward0``), or of two dense ones."""
    if not sparse_ops.is_sparse(input):
        return linalg.mm(input, mat2)
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


class _SparseTensorType(_LegacyTensorType):
    """The legacy sparse constructors (``torch.sparse.FloatTensor(indices, values, size)``, as older GCN scripts
    build their adjacency matrix; ``torch.sparse.FloatTensor(2, 3)``, empty), with PyTorch's deprecation warning."""

    def __call__(cls, *args: Any) -> Tensor:
        if all(isinstance(n, int) for n in args) or len(args) == 1 and isinstance(args[0], tuple):
            size = tuple(args[0] if len(args) == 1 and isinstance(args[0], tuple) else args)
            warnings.warn("torch.sparse.SparseTensor(shape, *, device=) is deprecated.  Please use "
                          "torch.sparse_coo_tensor(shape, dtype=, device=).", UserWarning, stacklevel=2)
            return sparse_coo_tensor(_graph.wrap(np.zeros((len(size), 0), np.int64)), [], size, dtype=cls.dtype)
        warnings.warn("torch.sparse.SparseTensor(indices, values, shape, *, device=) is deprecated.  Please use "
                      "torch.sparse_coo_tensor(indices, values, shape, dtype=, device=).", UserWarning, stacklevel=2)
        indices, values, *shape = args
        # (PyTorch keeps the dtype of a values Tensor: FloatTensor(indices, int64 values) is int64)
        dtype = None if isinstance(values, _graph.Tensor) else cls.dtype
        return sparse_coo_tensor(indices, values, *shape, dtype=dtype)

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, Tensor) and obj.is_sparse and obj.dtype is cls.dtype and obj.device.type == "cpu"


def _sparse_type(d: dtypes.dtype) -> _SparseTensorType:
    name = dtypes.legacy_type_name(d)
    return _SparseTensorType(name, (), {"dtype": d, "__module__": "tinyframe.sparse", "__qualname__": name})


FloatTensor = _sparse_type(dtypes.float32)
DoubleTensor = _sparse_type(dtypes.float64)
LongTensor = _sparse_type(dtypes.int64)
IntTensor = _sparse_type(dtypes.int32)
