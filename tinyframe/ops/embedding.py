"""The embedding lookup: rows of a weight matrix picked by integer indices.

Two linear maps make it up: the lookup ``weight[indices]`` and its adjoint, the scatter-add of the
output gradient into the rows of a zero matrix, where the row ``padding_idx`` gets nothing. Each is
an op whose backward is the other, so higher-order gradients close over them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import _graph
from .._graph import Op
from ..device import add_at, array_module_of
from . import sparse as sparse_ops

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["embedding"]


def _lookup(xp: Any, weight: Any, indices: Any, padding_idx: int | None, mask_padding: bool) -> Any:
    out = xp.take(weight, indices, axis=0)
    if mask_padding and padding_idx is not None:
        out[indices == padding_idx] = 0
    return out


def _scatter(xp: Any, g: Any, indices: Any, num_weights: int, padding_idx: int | None, counts: Any) -> Any:
    """``sum`` of the rows of ``g`` landing on each index; the ``padding_idx`` row stays zero."""
    rows = g.reshape(-1, g.shape[-1])
    flat = indices.reshape(-1)
    if counts is not None:  # scale_grad_by_freq: each row's gradient divided by its index's frequency
        rows = rows / counts[flat].reshape(-1, 1).astype(rows.dtype)
    out = xp.zeros((num_weights, rows.shape[1]), dtype=g.dtype)
    add_at(out, flat, rows)
    if padding_idx is not None:
        out[padding_idx] = 0
    return out


class Embedding(Op):
    """``out[..., :] = weight[indices[...], :]``."""

    @staticmethod
    def forward(ctx: Embedding, weight: Any, *, indices: Any, padding_idx: int | None, counts: Any) -> Any:
        ctx.padding_idx, ctx.counts = padding_idx, counts
        ctx.save_for_backward(indices)  # saved as PyTorch's: a second pass after the graph was freed raises
        ctx.num_weights = weight.shape[0]
        return _lookup(ctx.xp, weight, indices, padding_idx, False)

    @staticmethod
    def backward(ctx: Embedding, g: Any) -> Any:
        (indices,) = ctx.saved_tensors
        return _EmbeddingScatter.call(g, indices=indices, padding_idx=ctx.padding_idx, counts=ctx.counts,
                                      num_weights=ctx.num_weights)


class _EmbeddingScatter(Op, node_name="EmbeddingDenseBackwardBackward0"):
    """The adjoint of the lookup: the gradient rows summed into ``(num_weights, D)``."""

    @staticmethod
    def forward(ctx: _EmbeddingScatter, g: Any, *, indices: Any, padding_idx: int | None, counts: Any,
                num_weights: int) -> Any:
        ctx.indices, ctx.padding_idx, ctx.counts = indices, padding_idx, counts
        return _scatter(ctx.xp, g, indices, num_weights, padding_idx, counts)

    @staticmethod
    def backward(ctx: _EmbeddingScatter, gg: Any) -> Any:
        return _EmbeddingLookup.call(gg, indices=ctx.indices, padding_idx=ctx.padding_idx, counts=ctx.counts)


class SparseEmbedding(Embedding, node_name="EmbeddingBackward0"):
    """The lookup of ``embedding(sparse=True)``: the weight's gradient is sparse, one entry per index looked
    up but ``padding_idx``."""

    @staticmethod
    def backward(ctx: Embedding, g: Any) -> Any:
        (indices,) = ctx.saved_tensors
        flat = indices.reshape(-1)
        rows = g.reshape(-1, g.shape[-1])
        if ctx.counts is not None:
            rows = rows / ctx.counts[flat].reshape(-1, 1).astype(g.dtype)
        if ctx.padding_idx is not None:
            kept = flat != ctx.padding_idx
            flat, rows = flat[kept], rows[kept]
        return sparse_ops.SparseCooTensorWithDimsAndTensors.call(
            rows, indices=flat.reshape(1, -1).astype("int64"), shape=(ctx.num_weights, g.shape[-1]))


def _lookup_scaled(xp: Any, v: Any, indices: Any, padding_idx: int | None, counts: Any) -> Any:
    out = _lookup(xp, v, indices, padding_idx, True)
    if counts is not None:
        out = out / counts[indices][..., None].astype(out.dtype)
    return out


class _EmbeddingLookup(Embedding, node_name="EmbeddingBackwardBackward0"):
    """The adjoint of the scatter: the lookup with padding rows masked and rows scaled by frequency.

    Its backward is the scatter, as ``Embedding``'s is.
    """

    @staticmethod
    def forward(ctx: Embedding, v: Any, *, indices: Any, padding_idx: int | None, counts: Any) -> Any:
        ctx.padding_idx, ctx.counts = padding_idx, counts
        ctx.save_for_backward(indices)
        ctx.num_weights = v.shape[0]
        return _lookup_scaled(ctx.xp, v, indices, padding_idx, counts)


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None, max_norm: float | None = None,
              norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """Looks up rows of ``weight (num_embeddings, embedding_dim)``: ``out[...] = weight[input[...]]``,
    output shape ``input.shape + (embedding_dim,)``.

    The row ``padding_idx`` receives no gradient. With ``scale_grad_by_freq`` each row's gradient
    is divided by how often its index occurs in ``input``. With ``max_norm``, the rows looked up whose
    ``norm_type``-norm exceeds it are first rescaled in place to norm ``max_norm``. With ``sparse``
    the weight's gradient is a sparse COO tensor: one entry per index looked up (uncoalesced), as PyTorch's.
    """
    if not isinstance(input, _graph.Tensor) or not isinstance(weight, _graph.Tensor):
        raise TypeError(f"embedding(): argument 'input' and 'weight' must be Tensors, got {type(input).__name__} "
                        f"and {type(weight).__name__}")
    if weight.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    indices = input._data
    if type(indices) is not type(weight._data):
        raise RuntimeError(f"Expected all tensors to be on the same device, but found at least two devices, "
                           f"{weight.device} and {input.device}! (when checking argument for argument index in "
                           "method embedding)")
    if indices.dtype.kind not in "iu" or indices.dtype.itemsize < 4:
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got {input.type()} instead (while checking arguments for embedding)")
    num_weights = weight.shape[0]
    if indices.size and (int(indices.min()) < 0 or int(indices.max()) >= num_weights):
        raise IndexError("index out of range in self")
    if padding_idx is not None:
        if not -num_weights <= padding_idx < num_weights:
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx %= num_weights
    if max_norm is not None:
        _renorm_rows(weight, indices, max_norm, norm_type)
    counts = None
    if scale_grad_by_freq and weight.requires_grad:
        counts = _counts(input, num_weights)
    op = SparseEmbedding if sparse else Embedding
    return op.apply(weight, indices=indices, padding_idx=padding_idx, counts=counts)


def embedding_renorm_(input: Tensor, indices: Tensor, max_norm: float, norm_type: float) -> Tensor:
    """Each distinct row of ``input`` (an embedding's weight) that ``indices`` picks whose ``norm_type``-norm
    is over ``max_norm`` scaled in place by ``max_norm / (norm + 1e-7)``; returns ``input``."""
    _renorm_rows(input, indices._data, max_norm, norm_type)
    return input


def _renorm_rows(weight: Tensor, indices: Any, max_norm: float, norm_type: float) -> None:
    """PyTorch's ``embedding_renorm_``: each distinct row of ``weight`` that ``indices`` picks whose norm
    is over ``max_norm`` is scaled in place by ``max_norm / (norm + 1e-7)``, outside the graph."""
    xp = array_module_of(weight._data)
    rows = xp.unique(indices.reshape(-1))
    norms = xp.linalg.norm(weight._data[rows], ord=norm_type, axis=1).astype(xp.float64)
    over = norms > max_norm
    scale = (max_norm / (norms[over] + 1e-7)).astype(weight._data.dtype)
    weight._data[rows[over]] *= scale[:, None]
    weight._bump_version()


def _counts(input: Tensor, num_weights: int) -> Any:
    xp = array_module_of(input._data)
    return xp.bincount(input._data.reshape(-1), minlength=num_weights)
