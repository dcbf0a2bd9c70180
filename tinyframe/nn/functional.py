"""``tinyframe.nn.functional``: the functional form of every layer, activation and loss.

Each function here is the one definition its Module calls.
"""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..device import array_module_of, device_of
from ..ops import binary, unary
from ..ops import inplace as inplace_ops
from ..ops import reduction as reductions
from ..ops.bilinear import bilinear
from ..ops.convolution import conv1d, conv2d, conv_transpose1d, conv_transpose2d
from ..ops.embedding import embedding
from ..ops.linear import linear
from ..ops.loss import (
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    cross_entropy,
    huber_loss,
    kl_div,
    l1_loss,
    mse_loss,
    nll_loss,
    smooth_l1_loss,
)
from ..ops.normalization import batch_norm, group_norm, layer_norm, rms_norm
from ..ops.padding import pad
from ..ops.pooling import adaptive_avg_pool1d, adaptive_avg_pool2d, avg_pool1d, avg_pool2d, max_pool1d, max_pool2d
from ..random import generator_for
from ..tensor import Tensor

__all__ = ["linear", "relu", "relu_", "relu6", "leaky_relu", "leaky_relu_", "elu", "elu_", "hardtanh", "hardtanh_",
           "gelu", "silu", "sigmoid", "tanh", "softplus", "logsigmoid", "softmax", "log_softmax", "dropout",
           "one_hot", "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "cross_entropy", "nll_loss",
           "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div"]
__all__ += ["conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d", "max_pool1d", "max_pool2d", "avg_pool1d",
            "avg_pool2d", "adaptive_avg_pool1d", "adaptive_avg_pool2d", "batch_norm", "layer_norm", "group_norm",
            "rms_norm", "embedding", "pad", "bilinear"]


# --------------------------------------------------------------------------- activations
def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """``max(input, 0)``; ``inplace=True`` overwrites ``input`` and returns it."""
    return inplace_ops.apply(input, unary.relu) if inplace else unary.relu(input)


def relu_(input: Tensor) -> Tensor:
    """``relu`` in place."""
    return inplace_ops.apply(input, unary.relu)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """``min(max(input, 0), 6)``: ``hardtanh`` on ``[0, 6]`` (``HardtanhBackward0``, as in PyTorch)."""
    return hardtanh(input, 0.0, 6.0, inplace)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """``input`` where positive, ``negative_slope * input`` elsewhere."""
    if inplace:
        return inplace_ops.apply(input, unary.leaky_relu, negative_slope)
    return unary.leaky_relu(input, negative_slope)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    """``leaky_relu`` in place."""
    return leaky_relu(input, negative_slope, True)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``input`` where positive, ``alpha * (exp(input) - 1)`` elsewhere."""
    return inplace_ops.apply(input, unary.elu, alpha) if inplace else unary.elu(input, alpha)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """``elu`` in place."""
    return elu(input, alpha, True)


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> Tensor:
    """``input`` clamped to ``[min_val, max_val]``; the gradient is zero outside the open interval."""
    if inplace:
        return inplace_ops.apply(input, unary.hardtanh, min_val, max_val)
    return unary.hardtanh(input, min_val, max_val)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    """``hardtanh`` in place."""
    return hardtanh(input, min_val, max_val, True)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """``input * Phi(input)``, ``Phi`` the standard normal CDF; ``approximate='tanh'`` uses
    ``0.5 * input * (1 + tanh(sqrt(2 / pi) * (input + 0.044715 * input ** 3)))``."""
    return unary.gelu(input, approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """``input * sigmoid(input)`` (swish)."""
    return inplace_ops.apply(input, unary.silu) if inplace else unary.silu(input)


def sigmoid(input: Tensor) -> Tensor:
    """``1 / (1 + exp(-input))``."""
    return unary.sigmoid(input)


def tanh(input: Tensor) -> Tensor:
    """Hyperbolic tangent."""
    return unary.tanh(input)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """``log(1 + exp(beta * input)) / beta``; ``input`` itself where ``beta * input > threshold``."""
    return unary.softplus(input, beta, threshold)


def logsigmoid(input: Tensor) -> Tensor:
    """``log(sigmoid(input))``, computed without overflow."""
    return unary.logsigmoid(input)


def _implicit_softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    """PyTorch's legacy choice of dimension when ``dim`` is not given (with its deprecation warning)."""
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X "
                  "as an argument.", UserWarning, stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None) -> Tensor:
    """``exp(x_i) / sum_j exp(x_j)`` along ``dim``; ``dtype`` casts the input first."""
    if dim is None:
        dim = _implicit_softmax_dim("softmax", input.ndim, _stacklevel)
    return reductions.softmax(input, dim, dtype=dtype)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None) -> Tensor:
    """``x_i - log(sum_j exp(x_j))`` along ``dim``, computed without overflow."""
    if dim is None:
        dim = _implicit_softmax_dim("log_softmax", input.ndim, _stacklevel)
    return reductions.log_softmax(input, dim, dtype=dtype)


# --------------------------------------------------------------------------- dropout, one_hot
def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zeroes each element with probability ``p`` and scales the others by ``1 / (1 - p)``, so the
    expectation is unchanged (``input`` itself when not ``training`` or ``p == 0``).

    ``out = input * mask`` (``MulBackward0``, as PyTorch on cpu) with the mask drawn from the device's
    generator (``tinyframe.manual_seed`` makes it reproducible).
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0 or input.numel() == 0:
        return input
    mask = Tensor._make(_dropout_mask(input._data, p))
    return inplace_ops.apply(input, binary.mul, mask) if inplace else binary.mul(input, mask)


def _dropout_mask(data: Any, p: float) -> Any:
    """``bernoulli(1 - p) / (1 - p)`` in ``data``'s shape and dtype (0-d zeros for ``p == 1``)."""
    xp = array_module_of(data)
    if p == 1.0:
        return xp.zeros((), dtype=data.dtype)
    state = generator_for(device_of(data)).state
    if hasattr(state, "random"):  # NumPy's Generator
        uniform = state.random(data.shape, dtype=np.float32)
    else:  # CuPy's RandomState
        uniform = state.random_sample(data.shape, dtype=np.float32)
    mask = (uniform < 1.0 - p).astype(data.dtype)
    mask *= 1.0 / (1.0 - p)
    return mask


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """An int64 tensor of shape ``(*tensor.shape, num_classes)``: 1 at each index of ``tensor``, else 0.

    ``num_classes=-1`` takes ``tensor.max() + 1``.
    """
    t = tensor._data
    if t.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    xp = array_module_of(t)
    if t.size == 0:
        if num_classes <= 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
    else:
        if int(t.min()) < 0:
            raise RuntimeError("Class values must be non-negative.")
        largest = int(t.max())
        if num_classes == -1:
            num_classes = largest + 1
        elif largest >= num_classes:
            raise RuntimeError("Class values must be smaller than num_classes.")
    out = xp.zeros((*t.shape, num_classes), dtype=np.int64)
    out.reshape(-1, num_classes)[xp.arange(t.size), t.reshape(-1)] = 1
    return Tensor._make(out)
