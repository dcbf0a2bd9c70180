"""The embedding lookup: rows of a weight matrix picked by integer indices.

Two linear maps make it up: the lookup ``weight[indices]`` and its adjoint, the scatter-add of the
output gradient into the rows of a zero matrix, where the row ``padding_idx`` gets nothing. Each is
an op whose backward is the other, so higher-order gradients close over them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, dtypes
from .._graph import Op
from ..device import add_at, array_module_of
from . import binary, indexing, scattering
from . import sparse as sparse_ops
from ._composite import composed_op

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["embedding", "embedding_bag"]


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


# --------------------------------------------------------------------------- bags of embeddings
BAG_MODES = ("sum", "mean", "max")
_IMPROVABLE = ("  (Could this error message be improved?  If so, please report an enhancement request to "
               "PyTorch.)")


def embedding_bag(weight: Tensor, indices: Tensor, offsets: Tensor, scale_grad_by_freq: bool = False, mode: int = 0,
                  sparse: bool = False, per_sample_weights: Tensor | None = None, include_last_offset: bool = False,
                  padding_idx: int | None = None) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """PyTorch's ``torch.embedding_bag``: the kernel under ``nn.functional.embedding_bag``, with ``mode``
    0 (sum), 1 (mean) or 2 (max). Returns ``(output, offset2bag, bag_size, max_indices)``: ``output (B, D)``;
    the bag of each index (left empty where PyTorch's CPU kernel skips it: mode sum on float32 weights
    without ``padding_idx``); the number of indices in each bag but ``padding_idx`` (zeros in mode sum); and for
    mode max the row that gave each maximum, else ``bag_size`` (mean) or zeros (sum).

    Bag ``b`` holds ``indices[offsets[b]:offsets[b+1]]``, the last one running to the end unless
    ``include_last_offset`` (then ``offsets`` has ``B + 1`` entries).
    """
    padding_idx = _check_bag_arguments(weight, indices, offsets, mode, sparse, per_sample_weights, padding_idx)
    index_dtype = dtypes.result_type((indices.dtype, 1), (offsets.dtype, 1))
    flat = np.asarray(indices.detach().cpu().numpy(), dtype=np.int64).reshape(-1)  # bags are laid out on the host
    fast = weight.element_size() < 8 and mode < 2 and padding_idx is None  # (float32, float16, bfloat16)
    length = indices.shape[0] if indices.ndim else 1
    bag, kept, bag_size = _bag_layout(flat, offsets, length, include_last_offset, padding_idx, fast)
    _check_bag_indices(flat, bag, bag_size.size, weight.shape[0], fast)
    xp = array_module_of(weight._data)
    kept_at = np.flatnonzero(kept)
    ids, bags, kept_, sizes_ = (_graph.wrap(xp.asarray(a)) for a in (flat, bag[kept_at], kept_at, bag_size))
    max_indices = None
    if mode == 2:
        max_indices = _graph.wrap(_bag_argmax(xp, weight._data, flat, bag, kept, bag_size.size))
    output = _bag_reduce(weight, per_sample_weights, ids=ids, bag=bags, kept=kept_, bag_size=sizes_,
                         max_indices=max_indices, mode=mode, scale_grad_by_freq=scale_grad_by_freq)
    offset2bag = bag[:0] if mode == 0 and fast else bag
    sizes = bag_size if mode else np.zeros_like(bag_size)
    extra = (offset2bag, sizes, sizes if max_indices is None else max_indices._data)
    as_index = (_graph.wrap(xp.asarray(a).astype(index_dtype.numpy)) for a in extra)
    return (output, *as_index)


def _check_bag_arguments(weight: Tensor, indices: Tensor, offsets: Tensor, mode: int, sparse: bool,
                         per_sample_weights: Tensor | None, padding_idx: int | None) -> int | None:
    """PyTorch's checks of ``torch.embedding_bag``'s arguments; ``padding_idx`` made non-negative."""
    if mode not in (0, 1, 2):
        raise RuntimeError("`mode` must be sum, mean, or max.")
    if sparse:
        raise NotImplementedError("embedding_bag: sparse gradients are not supported by tinyframe; use sparse=False")
    if not weight.is_floating_point():
        raise RuntimeError("Expected tensor for argument #1 'weight' to have one of the following scalar types: "
                           f"Half, BFloat16, Float, Double; but got {weight.type()} instead (while checking "
                           "arguments for embedding_bag)")
    if weight.ndim != 2:
        raise RuntimeError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.ndim}")
    if offsets.ndim != 1:
        raise RuntimeError(f"offsets has to be a 1D Tensor, but got Tensor of dimension {offsets.ndim}")
    index_dtype = dtypes.result_type((indices.dtype, 1), (offsets.dtype, 1))
    if index_dtype not in (dtypes.int64, dtypes.int32):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got {indices.to(index_dtype).type()} instead (while checking arguments "
                           "for embedding_bag)")
    if per_sample_weights is not None:
        if per_sample_weights.dtype != weight.dtype:
            raise RuntimeError("Expected tensor for argument #1 'weight' to have the same type as tensor for "
                               f"argument #1 'per_sample_weights'; but type {weight.type()} does not equal "
                               f"{per_sample_weights.type()} (while checking arguments for embedding_bag)")
        if mode != 0:
            raise RuntimeError("embedding_bag: per_sample_weights only supported with mode='sum'")
        if per_sample_weights.numel() != indices.numel():
            raise RuntimeError("Expected per_sample_weights.value().numel() == indices.numel() to be true, but got "
                               "false." + _IMPROVABLE)
    rows = weight.shape[0]
    if padding_idx is None:
        return None
    if not -rows <= padding_idx < rows:
        raise RuntimeError(f"padding_idx must be within the number of embeddings, -{rows} through {rows - 1}, but "
                           f"got {padding_idx}")
    return padding_idx % rows


def _bag_layout(flat: Any, offsets: Tensor, length: int, include_last_offset: bool, padding_idx: int | None,
                fast: bool) -> tuple:
    """``(bag, kept, bag_size)`` on the host: the bag of each index (PyTorch's ``offset2bag``), whether it is
    added into its bag, and each bag's count of indices but ``padding_idx``.

    As PyTorch's CPU kernel, indices past ``offsets[-1]`` with ``include_last_offset`` belong to the last
    bag: counted in its size, and added in but by the ``fast`` kernel.
    """
    starts = np.asarray(offsets.detach().cpu().numpy(), dtype=np.int64)
    if starts.size and starts[0] != 0:
        raise RuntimeError(f"offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
                           f"position 0. However, got {starts[0]}")
    if starts.size and starts[-1] > length:
        raise RuntimeError(f"offsets[-1] can not be greater than input's length {length} but got offsets[-1] of "
                           f"{starts[-1]}")
    if np.any(np.diff(starts) < 0):
        raise RuntimeError("Expected i < index_size to be true, but got false." + _IMPROVABLE)
    positions = np.arange(flat.shape[0])
    counted = np.ones(flat.shape, dtype=bool) if padding_idx is None else flat != padding_idx
    kept = counted & (positions < starts[-1]) if include_last_offset and fast and starts.size else counted
    starts = starts[:-1] if include_last_offset else starts
    bag = np.searchsorted(starts, positions, side="right") - 1
    in_bag = bag >= 0  # (none is, without bags)
    bag_size = np.bincount(bag[counted & in_bag], minlength=starts.size)
    return bag, kept & in_bag, bag_size


def _check_bag_indices(flat: Any, bag: Any, bags: int, rows: int, fast: bool) -> None:
    """PyTorch's message for an index out of ``[0, rows)``. Its fast kernel's (float32 weights, sum or mean,
    no ``padding_idx``) names the index's position, but for an index in the last of several bags, whose
    search for the culprit fails first."""
    bad = np.flatnonzero((flat < 0) | (flat >= rows))
    if not bad.size:
        return
    position, value = int(bad[0]), int(flat[bad[0]])
    if fast and bags > 1 and bag[position] == bags - 1:
        raise RuntimeError("Expected i < index_size to be true, but got false." + _IMPROVABLE)
    if fast:
        raise RuntimeError(f"Index {position} of input takes value {value} which is not in the valid range "
                           f"[0, {rows})")
    raise RuntimeError(f"embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be {value}")


def _bag_argmax(xp: Any, weight: Any, flat: Any, bag: Any, kept: Any, bags: int) -> Any:
    """``(B, D)``: for each bag and column, the row of ``weight`` that holds the bag's largest value (the
    first such index, as PyTorch's kernel keeps the first of equal values); 0 for an empty bag."""
    starts = np.searchsorted(bag, np.arange(bags))  # (bags are contiguous: offsets never decrease)
    slot = np.arange(bag.size) - starts[bag] if bag.size else bag
    layout = np.full((bags, int(slot[kept].max()) + 1 if kept.any() else 1), -1)
    layout[bag[kept], slot[kept]] = flat[kept]
    layout = xp.asarray(layout)
    values = xp.where((layout >= 0)[..., None], weight[xp.maximum(layout, 0)], -xp.inf)
    rows = xp.take_along_axis(layout[..., None], values.argmax(axis=1)[:, None, :], axis=1)[:, 0, :]
    return xp.maximum(rows, 0)


@composed_op("EmbeddingBagBackward0", ('weight', 'per_sample_weights'))
def _bag_reduce(weight: Tensor, per_sample_weights: Tensor | None, *, ids: Tensor, bag: Tensor, kept: Tensor,
                bag_size: Tensor, max_indices: Tensor | None, mode: int, scale_grad_by_freq: bool) -> Tensor:
    """The bags' sums, means or maxima of the rows of ``weight`` (the ``output`` of ``embedding_bag``): the
    rows of all ``ids`` looked up (``scale_grad_by_freq`` counts them all), those at the positions ``kept``
    added into their ``bag``."""
    nonempty = (bag_size > 0).unsqueeze(1)
    if max_indices is not None:
        return binary.where(nonempty, indexing.gather(weight, 0, max_indices), 0.0)
    rows = embedding(ids, weight, scale_grad_by_freq=scale_grad_by_freq)
    if per_sample_weights is not None:
        rows = binary.mul(rows, per_sample_weights.reshape(-1, 1))
    rows = indexing.index_select(rows, 0, kept)
    total = scattering.index_add(weight.new_zeros((bag_size.shape[0], weight.shape[1])), 0, bag, rows)
    if mode == 0:
        return total
    return binary.div(total, bag_size.clamp(min=1).unsqueeze(1).to(weight.dtype))
