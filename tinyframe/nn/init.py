"""Parameter initialisation (``tinyframe.nn.init``), in place and outside the graph, as in PyTorch."""
from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from ..creation import empty_like, randperm
from ..grad_mode import no_grad
from ..ops.binary import where
from ..tensor import Tensor

__all__ = ["calculate_gain", "uniform_", "normal_", "constant_", "zeros_", "ones_", "eye_", "xavier_uniform_",
           "xavier_normal_", "kaiming_uniform_", "kaiming_normal_", "trunc_normal_", "orthogonal_", "dirac_", "sparse_",
           "uniform", "normal", "constant", "eye", "dirac", "xavier_uniform", "xavier_normal", "kaiming_uniform",
           "kaiming_normal", "orthogonal", "sparse"]

# the linear family and sigmoid give the int 1, as PyTorch's do
_GAINS: dict[str, float] = {"linear": 1, "conv1d": 1, "conv2d": 1, "conv3d": 1, "conv_transpose1d": 1,
                            "conv_transpose2d": 1, "conv_transpose3d": 1, "sigmoid": 1, "tanh": 5.0 / 3,
                            "relu": math.sqrt(2.0), "selu": 3.0 / 4}


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The recommended gain for a nonlinearity (``relu`` -> sqrt(2), ``leaky_relu`` -> sqrt(2 / (1 + a^2)))."""
    if nonlinearity == "leaky_relu":
        if param is not None and (isinstance(param, bool) or not isinstance(param, (int, float))):
            raise ValueError(f"negative_slope {param} not a valid number")
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity not in _GAINS:
        raise ValueError(f"Unsupported nonlinearity {nonlinearity}")
    return _GAINS[nonlinearity]


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    """(fan_in, fan_out) of a weight: its sizes 1 and 0 times the product of the sizes after them."""
    if tensor.ndim < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive = math.prod(tensor.shape[2:])
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator: Any = None) -> Tensor:
    """Fills ``tensor`` with samples from U(a, b)."""
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator: Any = None) -> Tensor:
    """Fills ``tensor`` with samples from N(mean, std^2)."""
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def trunc_normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0,
                  generator: Any = None) -> Tensor:
    """Samples of N(mean, std^2) truncated to [a, b], drawn as PyTorch draws them: when [a, b] holds more
    than 30% of the mass, normal samples with the ones outside redrawn (whole-tensor draws); else
    uniform proposals on [a, b] accepted with probability pdf / peak."""
    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of values may "
                      "be incorrect.", stacklevel=2)
    mass = _normal_cdf((b - mean) / std) - _normal_cdf((a - mean) / std)
    with no_grad():
        if mass > 0.3:
            return _redrawn_normal(tensor, mean, std, a, b, generator)
        return _accepted_uniform(tensor, mean, std, a, b, generator)


def _normal_cdf(x: float) -> float:
    return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0


def _redrawn_normal(tensor: Tensor, mean: float, std: float, a: float, b: float, generator: Any) -> Tensor:
    low, high = tensor.new_tensor(a).item(), tensor.new_tensor(b).item()  # the bounds in tensor's dtype
    result = tensor.normal_(mean, std, generator=generator)
    outside = (result < low) | (result > high)
    while bool(outside.any()):
        result = where(outside, empty_like(result).normal_(mean, std, generator=generator), result)
        outside = (result < low) | (result > high)
    return tensor if result is tensor else tensor.copy_(result)


def _accepted_uniform(tensor: Tensor, mean: float, std: float, a: float, b: float, generator: Any) -> Tensor:
    mode = max(a, min(mean, b))
    log_peak = -0.5 * ((mode - mean) / std) ** 2

    def rejected(candidates: Tensor) -> Tensor:  # log u > log pdf(candidate) - log peak
        log_pdf = ((candidates - mean) / std).pow(2) * -0.5 - log_peak
        return empty_like(candidates).uniform_(generator=generator).log().gt(log_pdf)
    tensor.uniform_(a, b, generator=generator)
    pending = rejected(tensor)
    result = tensor
    while bool(pending.any()):
        candidates = empty_like(tensor).uniform_(a, b, generator=generator)
        result = where(pending, candidates, result)
        pending = pending & rejected(candidates)
    return tensor if result is tensor else tensor.copy_(result)


def constant_(tensor: Tensor, val: float) -> Tensor:
    with no_grad():
        return tensor.fill_(val)


def zeros_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 0.0)


def ones_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 1.0)


def eye_(tensor: Tensor) -> Tensor:
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with no_grad():
        tensor.zero_()
        n = min(tensor.shape)
        tensor._data[range(n), range(n)] = 1
        return tensor


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    """U(-a, a) with ``a = gain * sqrt(6 / (fan_in + fan_out))`` (Glorot)."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = gain * math.sqrt(6.0 / (fan_in + fan_out))
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    """N(0, std^2) with ``std = gain * sqrt(2 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / (fan_in + fan_out)), generator)


def _kaiming_std(tensor: Tensor, a: float, mode: str, nonlinearity: str) -> float:
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of {['fan_in', 'fan_out']}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan_in if mode == "fan_in" else fan_out)


def kaiming_uniform_(tensor: Tensor, a: float = 0.0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                     generator: Any = None) -> Tensor:
    """U(-b, b) with ``b = gain * sqrt(3 / fan_mode)`` (He)."""
    bound = math.sqrt(3.0) * _kaiming_std(tensor, a, mode, nonlinearity)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor: Tensor, a: float = 0.0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                    generator: Any = None) -> Tensor:
    """N(0, std^2) with ``std = gain / sqrt(fan_mode)`` (He)."""
    return normal_(tensor, 0.0, _kaiming_std(tensor, a, mode, nonlinearity), generator)


def orthogonal_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    """A (semi-)orthogonal matrix from the QR decomposition of a normal sample."""
    if tensor.ndim < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows, cols = tensor.shape[0], tensor.numel() // tensor.shape[0]
    with no_grad():
        # PyTorch draws the (rows, cols) normal sample in tensor's dtype, then orthogonalises its
        # transpose when it is wide
        flat = tensor.new_empty((rows, cols)).normal_(0, 1, generator=generator)._data
        flat = flat.T if rows < cols else flat
        q, r = np.linalg.qr(flat)
        q = q * np.sign(np.diag(r))
        q = q.T if rows < cols else q
        tensor._data[...] = (gain * q).reshape(tensor.shape).astype(tensor._data.dtype)
        return tensor


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """Fills a 3-, 4- or 5-d convolution weight with the Dirac delta: in each of ``groups`` groups,
    output channel ``i`` copies input channel ``i`` (the identity convolution)."""
    if tensor.ndim not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    out_per_group = tensor.shape[0] // groups
    if tensor.shape[0] % groups:
        raise ValueError("dim 0 must be divisible by groups")
    centre = tuple(k // 2 for k in tensor.shape[2:])
    with no_grad():
        tensor.zero_()
        for g in range(groups):
            for i in range(min(out_per_group, tensor.shape[1])):
                tensor._data[(g * out_per_group + i, i) + centre] = 1
        return tensor


def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01, generator: Any = None) -> Tensor:
    """Fills a 2-d tensor with N(0, std) and zeroes ``ceil(sparsity * rows)`` random rows of each column."""
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    zeros = math.ceil(sparsity * rows)
    with no_grad():
        tensor.normal_(0, std, generator=generator)
        for col in range(cols):
            # PyTorch draws the rows from the global generator, not from ``generator``
            picked = randperm(rows, device=tensor.device)[:zeros]
            tensor._data[picked._data, col] = 0
        return tensor


def _deprecated(method: Any) -> Any:
    """PyTorch's old name without the trailing underscore: warns, then runs the in-place function."""
    old_name = method.__name__[:-1]

    def deprecated_init(*args: Any, **kwargs: Any) -> Any:
        warnings.warn(f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{method.__name__}`.",
                      FutureWarning, stacklevel=2)
        return method(*args, **kwargs)
    deprecated_init.__name__ = old_name
    deprecated_init.__doc__ = f"Deprecated: ``{method.__name__}``."
    return deprecated_init


uniform = _deprecated(uniform_)
normal = _deprecated(normal_)
constant = _deprecated(constant_)
eye = _deprecated(eye_)
dirac = _deprecated(dirac_)
xavier_uniform = _deprecated(xavier_uniform_)
xavier_normal = _deprecated(xavier_normal_)
kaiming_uniform = _deprecated(kaiming_uniform_)
kaiming_normal = _deprecated(kaiming_normal_)
orthogonal = _deprecated(orthogonal_)
sparse = _deprecated(sparse_)
