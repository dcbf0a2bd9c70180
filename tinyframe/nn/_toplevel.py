"""The ``nn.functional`` ops that PyTorch also exports at the top level (``torch.pixel_shuffle``,
``torch.cosine_similarity``, ``torch.layer_norm``, ...), with the top-level signatures where they
differ (``torch.dropout(input, p, train)``, ``torch.embedding(weight, indices)``,
``torch.batch_norm(input, weight, bias, running_mean, running_var, ...)``)."""
from __future__ import annotations

from typing import Any

from .. import creation, dtypes
from ..ops.embedding import embedding_bag, embedding_renorm_
from ..ops.rnn import gru_cell, lstm_cell, rnn_relu_cell, rnn_tanh_cell
from ..tensor import Tensor
from . import functional as F
from .functional import (
    bilinear,
    celu,
    celu_,
    channel_shuffle,
    conv3d,
    conv_transpose3d,
    cosine_similarity,
    hardshrink,
    max_pool3d,
    pairwise_distance,
    pdist,
    pixel_shuffle,
    pixel_unshuffle,
    prelu,
    relu_,
    rms_norm,
    rrelu,
    rrelu_,
    selu,
    selu_,
    threshold,
    threshold_,
)
from .modules.rnn import RecurrentStack

__all__ = ["bilinear", "celu", "celu_", "channel_shuffle", "conv3d", "conv_transpose3d", "cosine_similarity",
           "hardshrink", "max_pool3d", "pairwise_distance", "pdist", "pixel_shuffle", "pixel_unshuffle", "prelu",
           "relu_", "rms_norm", "rrelu", "selu", "selu_", "threshold", "threshold_", "dropout", "dropout_",
           "alpha_dropout", "feature_alpha_dropout", "feature_dropout", "embedding", "layer_norm", "group_norm",
           "embedding_bag", "batch_norm", "instance_norm", "adaptive_max_pool1d", "max_pool1d_with_indices", "rrelu_",
           "alpha_dropout_", "feature_alpha_dropout_", "feature_dropout_", "lstm_cell", "gru_cell", "rnn_tanh_cell",
           "rnn_relu_cell", "kl_div", "margin_ranking_loss", "hinge_embedding_loss", "cosine_embedding_loss",
           "poisson_nll_loss", "triplet_margin_loss", "binary_cross_entropy_with_logits", "ctc_loss",
           "embedding_renorm_", "native_layer_norm", "native_batch_norm", "native_group_norm", "native_dropout",
           "native_channel_shuffle", "convolution", "grid_sampler", "grid_sampler_2d", "grid_sampler_3d",
           "affine_grid_generator", "lstm", "gru", "rnn_tanh", "rnn_relu"]

# PyTorch's top-level losses take ``reduction`` as its enum's int: 0 none, 1 mean, 2 sum. Left out, it is 0
# there (its argument parser reads the default ``at::Reduction::Mean`` as 0): the losses come unreduced.
_REDUCTIONS = ("none", "mean", "sum")


def dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """``nn.functional.dropout(input, p, training=train)``."""
    return F.dropout(input, p, train)


def dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place ``dropout``."""
    return F.dropout(input, p, train, inplace=True)


def alpha_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """``nn.functional.alpha_dropout(input, p, training=train)``."""
    return F.alpha_dropout(input, p, train)


def feature_alpha_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """``nn.functional.feature_alpha_dropout(input, p, training=train)``."""
    return F.feature_alpha_dropout(input, p, train)


def feature_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """Dropout of whole channels of ``(N, C, *)`` (``dropout2d`` for any number of spatial dimensions)."""
    return F._feature_dropout(input, p, train, False, True)


def embedding(weight: Tensor, indices: Tensor, padding_idx: int = -1, scale_grad_by_freq: bool = False,
              sparse: bool = False) -> Tensor:
    """The rows of ``weight`` at ``indices`` (``padding_idx`` -1: none)."""
    return F.embedding(indices, weight, None if padding_idx == -1 else padding_idx,
                       scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


def _recurrent(mode: str, input: Tensor, h0: Tensor, c0: Tensor | None, params: Any, has_biases: bool,
               num_layers: int, dropout: float, train: bool, bidirectional: bool, batch_first: bool) -> tuple:
    """``(output, h_n, c_n)`` of the stack whose weights ``params`` lists per layer and direction as
    ``w_ih, w_hh[, b_ih, b_hh][, w_hr]`` (an LSTM has projections where its two states differ in size)."""
    projected = c0 is not None and h0.shape[2] != c0.shape[2]
    per_layer = (4 if has_biases else 2) + projected
    if len(params) % per_layer:
        raise RuntimeError("got an incorrect number of RNN parameters")
    weights = []
    for start in range(0, len(params), per_layer):
        w_ih, w_hh, *rest = params[start:start + per_layer]
        b_ih, b_hh = rest[:2] if has_biases else (None, None)
        weights.append((w_ih, w_hh, b_ih, b_hh, rest[-1] if projected else None))
    directions = 2 if bidirectional else 1
    return RecurrentStack(mode, weights, num_layers, directions, dropout, train).run_layers(input, h0, c0, batch_first)


def lstm(input: Tensor, hx: Any, params: Any, has_biases: bool, num_layers: int, dropout: float, train: bool,
         bidirectional: bool, batch_first: bool) -> tuple:
    """A stack of LSTM layers (what ``nn.LSTM`` runs): ``hx`` is ``(h_0, c_0)`` and ``params`` the weights
    per layer and direction in ``nn.LSTM._flat_weights``' order; returns ``(output, h_n, c_n)``."""
    if len(hx) != 2:
        raise RuntimeError("lstm expects two hidden states")
    return _recurrent("LSTM", input, hx[0], hx[1], params, has_biases, num_layers, dropout, train, bidirectional,
                      batch_first)


def gru(input: Tensor, hx: Tensor, params: Any, has_biases: bool, num_layers: int, dropout: float, train: bool,
        bidirectional: bool, batch_first: bool) -> tuple:
    """A stack of GRU layers (what ``nn.GRU`` runs) from ``hx``, with ``params`` in ``nn.GRU._flat_weights``'
    order: ``(output, h_n)``."""
    return _recurrent("GRU", input, hx, None, params, has_biases, num_layers, dropout, train, bidirectional,
                      batch_first)[:2]


def rnn_tanh(input: Tensor, hx: Tensor, params: Any, has_biases: bool, num_layers: int, dropout: float,
             train: bool, bidirectional: bool, batch_first: bool) -> tuple:
    """A stack of Elman RNN layers with tanh (what ``nn.RNN`` runs): ``(output, h_n)``."""
    return _recurrent("RNN_TANH", input, hx, None, params, has_biases, num_layers, dropout, train, bidirectional,
                      batch_first)[:2]


def rnn_relu(input: Tensor, hx: Tensor, params: Any, has_biases: bool, num_layers: int, dropout: float,
             train: bool, bidirectional: bool, batch_first: bool) -> tuple:
    """A stack of Elman RNN layers with ReLU (``nn.RNN(nonlinearity='relu')``): ``(output, h_n)``."""
    return _recurrent("RNN_RELU", input, hx, None, params, has_biases, num_layers, dropout, train, bidirectional,
                      batch_first)[:2]


def layer_norm(input: Tensor, normalized_shape: Any, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-5, cudnn_enable: bool = True) -> Tensor:
    """``nn.functional.layer_norm``."""
    return F.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-5, cudnn_enabled: bool = True) -> Tensor:
    """``nn.functional.group_norm``."""
    return F.group_norm(input, num_groups, weight, bias, eps)


def batch_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None, running_mean: Tensor | None,
               running_var: Tensor | None, training: bool, momentum: float, eps: float,
               cudnn_enabled: bool = True) -> Tensor:
    """``nn.functional.batch_norm`` with the top-level argument order."""
    return F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None, running_mean: Tensor | None,
                  running_var: Tensor | None, use_input_stats: bool, momentum: float, eps: float,
                  cudnn_enabled: bool = True) -> Tensor:
    """``nn.functional.instance_norm`` with the top-level argument order."""
    return F.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)


def adaptive_max_pool1d(input: Tensor, output_size: Any) -> tuple:
    """``(values, indices)`` of ``nn.functional.adaptive_max_pool1d``."""
    return F.adaptive_max_pool1d(input, output_size, return_indices=True)


def max_pool1d_with_indices(input: Tensor, kernel_size: Any, stride: Any = (), padding: Any = 0, dilation: Any = 1,
                            ceil_mode: bool = False) -> tuple:
    """``(values, indices)`` of ``nn.functional.max_pool1d``."""
    return F.max_pool1d(input, kernel_size, stride or None, padding, dilation, ceil_mode, return_indices=True)


def alpha_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place ``alpha_dropout``."""
    return F.alpha_dropout(input, p, train, inplace=True)


def feature_alpha_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place ``feature_alpha_dropout``."""
    return F.feature_alpha_dropout(input, p, train, inplace=True)


def feature_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place ``feature_dropout``."""
    return F._feature_dropout(input, p, train, True, True)


def _reduction(name: str, reduction: int) -> str:
    if isinstance(reduction, bool) or not isinstance(reduction, int):
        raise TypeError(f"{name}(): argument 'reduction' must be int, not {type(reduction).__name__}")
    return _REDUCTIONS[reduction]


def kl_div(input: Tensor, target: Tensor, reduction: int = 0, *, log_target: bool = False) -> Tensor:
    """``nn.functional.kl_div`` with ``reduction`` an int (0 none, 1 mean, 2 sum)."""
    mode = _reduction("kl_div", reduction)  # (reduced here: functional's 'mean' warns, PyTorch's native one not)
    losses = F.kl_div(input, target, reduction="none", log_target=log_target)
    return losses if mode == "none" else getattr(losses, mode)()


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                        reduction: int = 0) -> Tensor:
    """``nn.functional.margin_ranking_loss`` with ``reduction`` an int (0 none, 1 mean, 2 sum)."""
    return F.margin_ranking_loss(input1, input2, target, margin, reduction=_reduction("margin_ranking_loss", reduction))


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0, reduction: int = 0) -> Tensor:
    """``nn.functional.hinge_embedding_loss`` with ``reduction`` an int (0 none, 1 mean, 2 sum)."""
    return F.hinge_embedding_loss(input, target, margin, reduction=_reduction("hinge_embedding_loss", reduction))


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                          reduction: int = 0) -> Tensor:
    """``nn.functional.cosine_embedding_loss`` with ``reduction`` an int (0 none, 1 mean, 2 sum)."""
    return F.cosine_embedding_loss(input1, input2, target, margin,
                                   reduction=_reduction("cosine_embedding_loss", reduction))


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool, full: bool, eps: float,
                     reduction: int) -> Tensor:
    """``nn.functional.poisson_nll_loss`` with every argument positional and ``reduction`` an int."""
    return F.poisson_nll_loss(input, target, log_input, full, eps=eps,
                              reduction=_reduction("poisson_nll_loss", reduction))


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: float = 2,
                        eps: float = 1e-6, swap: bool = False, reduction: int = 0) -> Tensor:
    """``nn.functional.triplet_margin_loss`` with ``reduction`` an int (0 none, 1 mean, 2 sum)."""
    return F.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                 reduction=_reduction("triplet_margin_loss", reduction))


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                     pos_weight: Tensor | None = None, reduction: int = 0) -> Tensor:
    """``nn.functional.binary_cross_entropy_with_logits`` with ``reduction`` an int (0 none, 1 mean, 2 sum)."""
    return F.binary_cross_entropy_with_logits(
        input, target, weight, reduction=_reduction("binary_cross_entropy_with_logits", reduction),
        pos_weight=pos_weight)


def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths: Any, target_lengths: Any, blank: int = 0,
             reduction: int = 0, zero_infinity: bool = False) -> Tensor:
    """``nn.functional.ctc_loss`` with ``reduction`` an int (0 none, 1 mean, 2 sum)."""
    return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, _reduction("ctc_loss", reduction),
                      zero_infinity)



# --------------------------------------------------------------------------- PyTorch's native kernels by name
def _statistics(input: Tensor, dims: tuple, eps: float) -> tuple:
    """The mean and the reciprocal standard deviation (biased variance) over ``dims``, kept, off the graph."""
    data = input.detach()
    mean = data.mean(dims, keepdim=True)
    return mean, (data.var(dims, correction=0, keepdim=True) + eps).rsqrt()


def native_layer_norm(input: Tensor, normalized_shape: Any, weight: Tensor | None, bias: Tensor | None,
                      eps: float) -> tuple:
    """``(layer_norm(...), mean, rstd)``: the statistics over the normalized dimensions, kept (size 1)."""
    dims = tuple(range(input.ndim - len(tuple(normalized_shape)), input.ndim))
    return (F.layer_norm(input, normalized_shape, weight, bias, eps), *_statistics(input, dims, eps))


def native_batch_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None, running_mean: Tensor | None,
                      running_var: Tensor | None, training: bool, momentum: float, eps: float) -> tuple:
    """``(batch_norm(...), save_mean, save_invstd)``: the batch's per-channel statistics in training, empty
    tensors otherwise."""
    out = F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)
    if not training:
        return out, input.new_empty(0), input.new_empty(0)
    mean, rstd = _statistics(input, (0, *range(2, input.ndim)), eps)
    return out, mean.reshape(-1), rstd.reshape(-1)


def native_group_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None, N: int, C: int, HxW: int,
                      group: int, eps: float) -> tuple:
    """``(group_norm(...), mean, rstd)``, the statistics of shape ``(N, group)``."""
    mean, rstd = _statistics(input.reshape(N, group, -1), (2,), eps)
    return F.group_norm(input, group, weight, bias, eps), mean.reshape(N, group), rstd.reshape(N, group)


def native_dropout(input: Tensor, p: float, train: bool | None) -> tuple:
    """``(output, mask)``: dropout's output and the bool mask of the kept elements."""
    if not train:
        return input.clone(), creation.ones_like(input, dtype=dtypes.bool_)
    out = F.dropout(input, p, True)
    return out, out != 0 if p < 1 else creation.zeros_like(input, dtype=dtypes.bool_)


native_channel_shuffle = F.native_channel_shuffle


def convolution(input: Tensor, weight: Tensor, bias: Tensor | None, stride: Any, padding: Any, dilation: Any,
                transposed: bool, output_padding: Any, groups: int) -> Tensor:
    """The convolution of ``input``'s spatial dimensions (1 to 3) with ``weight``, or with ``transposed`` its
    transpose: ``nn.functional.conv{1,2,3}d`` / ``conv_transpose{1,2,3}d``."""
    spatial = input.ndim - 2
    if transposed:
        function = getattr(F, f"conv_transpose{spatial}d")
        return function(input, weight, bias, stride, padding, output_padding, groups, dilation)
    return getattr(F, f"conv{spatial}d")(input, weight, bias, stride, padding, dilation, groups)


_INTERPOLATIONS = ("bilinear", "nearest", "bicubic")
_PADDINGS = ("zeros", "border", "reflection")


def grid_sampler(input: Tensor, grid: Tensor, interpolation_mode: int, padding_mode: int,
                 align_corners: bool) -> Tensor:
    """``nn.functional.grid_sample`` with its modes as PyTorch's enums number them (interpolation: 0
    bilinear, 1 nearest, 2 bicubic; padding: 0 zeros, 1 border, 2 reflection)."""
    return F.grid_sample(input, grid, _INTERPOLATIONS[interpolation_mode], _PADDINGS[padding_mode], align_corners)


grid_sampler_2d = grid_sampler_3d = grid_sampler


def affine_grid_generator(theta: Tensor, size: Any, align_corners: bool) -> Tensor:
    """``nn.functional.affine_grid(theta, size, align_corners)``."""
    return F.affine_grid(theta, size, align_corners)
