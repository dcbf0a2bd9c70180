"""Per-sample normalisation layers: ``LayerNorm``, ``GroupNorm`` and ``RMSNorm``."""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from ... import creation, dtypes
from ...ops import normalization
from ...tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["LayerNorm", "GroupNorm", "RMSNorm", "LocalResponseNorm", "CrossMapLRN2d"]


def _shape(normalized_shape: int | Sequence[int]) -> tuple:
    return (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)


def register_affine(module: Module, shape: tuple, affine: bool, bias: bool, device: Any, dtype: Any) -> None:
    """Registers ``weight`` (ones) and ``bias`` (zeros) of ``shape`` on a normalisation layer, or None
    for each one the layer does not learn."""
    weight = Parameter(creation.empty(shape, device=device, dtype=dtype)) if affine else None
    module.register_parameter("weight", weight)
    module.register_parameter("bias", Parameter(creation.empty(shape, device=device, dtype=dtype))
                              if affine and bias else None)
    reset_affine(module)


def register_running_stats(module: Module, num_features: int, track: bool, device: Any, dtype: Any) -> None:
    """The buffers ``running_mean`` (zeros), ``running_var`` (ones) and ``num_batches_tracked`` (0) of a
    normalisation that tracks running statistics; None under those names when it does not."""
    module.register_buffer("running_mean", creation.zeros(num_features, device=device, dtype=dtype) if track else None)
    module.register_buffer("running_var", creation.ones(num_features, device=device, dtype=dtype) if track else None)
    module.register_buffer("num_batches_tracked",
                           creation.tensor(0, dtype=dtypes.int64, device=device) if track else None)


class NormBase(Module):
    """What batch and instance normalisation share (PyTorch's ``_NormBase``): ``num_features``,
    ``eps``, ``momentum``, the affine ``weight`` / ``bias`` and the running-statistics buffers."""

    _version = 2  # version 2 added the num_batches_tracked buffer

    def __init__(self, num_features: int, eps: float, momentum: float | None, affine: bool,
                 track_running_stats: bool, device: Any, dtype: Any, bias: bool) -> None:
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        register_affine(self, (num_features,), affine, bias, device, dtype)
        register_running_stats(self, num_features, track_running_stats, device, dtype)
        self.reset_parameters()

    def _upgrade_state_dict(self, state_dict: OrderedDict, prefix: str, version: int | None) -> None:
        """A state saved before version 2 (or without metadata) may lack num_batches_tracked: it keeps
        the module's own, as in PyTorch."""
        key = prefix + "num_batches_tracked"
        if (version is None or version < 2) and self.track_running_stats and key not in state_dict:
            state_dict[key] = self.num_batches_tracked

    def reset_running_stats(self) -> None:
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self) -> None:
        self.reset_running_stats()
        reset_affine(self)

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")


def reset_affine(module: Module) -> None:
    """Resets a normalisation layer's affine parameters to the identity: weight ones, bias zeros."""
    if module.weight is not None:
        init.ones_(module.weight)
    if module.bias is not None:
        init.zeros_(module.bias)


class LayerNorm(Module):
    """``y = (x - E[x]) / sqrt(Var[x] + eps) * weight + bias`` over the last
    ``len(normalized_shape)`` dimensions (biased variance); ``weight`` (ones) and ``bias`` (zeros)
    have shape ``normalized_shape``."""

    def __init__(self, normalized_shape: int | Sequence[int], eps: float = 1e-5, elementwise_affine: bool = True,
                 bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.normalized_shape = _shape(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        register_affine(self, self.normalized_shape, elementwise_affine, bias, device, dtype)

    def reset_parameters(self) -> None:
        reset_affine(self)

    def forward(self, input: Tensor) -> Tensor:
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.bias is not None}")


class GroupNorm(Module):
    """Splits the channels of ``(N, C, *)`` into ``num_groups`` groups and normalises each group over
    its channels and ``*``; then ``y = xhat * weight[c] + bias[c]`` (ones and zeros at first)."""

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5, affine: bool = True,
                 device: Any = None, dtype: Any = None, *, bias: bool = True) -> None:
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        register_affine(self, (num_channels,), affine, bias, device, dtype)

    def reset_parameters(self) -> None:
        reset_affine(self)

    def forward(self, input: Tensor) -> Tensor:
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")


class RMSNorm(Module):
    """``y = x / sqrt(mean(x^2) + eps) * weight`` over the last ``len(normalized_shape)`` dimensions;
    ``eps=None`` is the machine epsilon of the input's dtype, and ``weight`` starts at ones."""

    def __init__(self, normalized_shape: int | Sequence[int], eps: float | None = None,
                 elementwise_affine: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.normalized_shape = _shape(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(creation.empty(self.normalized_shape, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x: Tensor) -> Tensor:
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class CrossMapLRN2d(Module):
    """PyTorch's legacy cross-channel normalisation of ``(N, C, H, W)`` inputs,
    ``x * (k + alpha / size * sum of x^2 over neighbouring channels)^-beta``, with PyTorch's windows:
    its forward always counts channel 0 and its backward sums over a window shifted towards lower
    channels, so values and gradients are PyTorch's (``LocalResponseNorm`` is the exact one)."""

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1) -> None:
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input: Tensor) -> Tensor:
        return normalization.cross_map_lrn2d(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


class LocalResponseNorm(Module):
    """``x / (k + alpha * mean of x^2 over ``size`` neighbouring channels)^beta``."""

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> None:
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input: Tensor) -> Tensor:
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
