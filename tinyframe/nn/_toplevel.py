"""The ``nn.functional`` ops that PyTorch also exports at the top level (``torch.pixel_shuffle``,
``torch.cosine_similarity``, ``torch.layer_norm``, ...), with the top-level signatures where they
differ (``torch.dropout(input, p, train)``, ``torch.embedding(weight, indices)``,
``torch.batch_norm(input, weight, bias, running_mean, running_var, ...)``)."""
from __future__ import annotations

from typing import Any

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
    selu,
    selu_,
    threshold,
    threshold_,
)

__all__ = ["bilinear", "celu", "celu_", "channel_shuffle", "conv3d", "conv_transpose3d", "cosine_similarity",
           "hardshrink", "max_pool3d", "pairwise_distance", "pdist", "pixel_shuffle", "pixel_unshuffle", "prelu",
           "relu_", "rms_norm", "rrelu", "selu", "selu_", "threshold", "threshold_", "dropout", "dropout_",
           "alpha_dropout", "feature_alpha_dropout", "feature_dropout", "embedding", "layer_norm", "group_norm",
           "batch_norm", "instance_norm", "adaptive_max_pool1d", "max_pool1d_with_indices"]


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
