"""Lazy layers: ``LazyLinear``, ``LazyConv*``, ``LazyConvTranspose*``, ``LazyBatchNorm*`` and
``LazyInstanceNorm*`` take their input size from the first input they see.

Until then their parameters are ``UninitializedParameter``s; the first call materialises them,
initialises them as the ordinary layer would, and turns the module into that layer (its class
becomes ``Linear``, ``Conv2d``, ...), as in PyTorch.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...tensor import Tensor
from ..parameter import UninitializedBuffer, UninitializedParameter
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from .linear import Linear
from .module import Module

if TYPE_CHECKING:  # the mixins come first in the bases of lazy layers, before the layer they turn into
    from .batchnorm import _BatchNorm
    from .conv import _ConvNd
    from .instancenorm import _InstanceNorm
    from .normalization import NormBase
    _ModuleBase = Module
    _ConvBase = _ConvNd
    _NormBase = NormBase
else:
    _ModuleBase = _ConvBase = _NormBase = object

__all__ = ["LazyModuleMixin", "LazyLinear", "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d",
           "LazyConvTranspose2d", "LazyConvTranspose3d", "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d",
           "LazyInstanceNorm1d", "LazyInstanceNorm2d", "LazyInstanceNorm3d"]


class LazyModuleMixin(_ModuleBase):
    """Materialises the uninitialised parameters and buffers on the first forward, then becomes
    ``cls_to_become``."""

    cls_to_become: type | None = None

    def _register_lazy_hook(self) -> None:
        self._lazy_hook = self.register_forward_pre_hook(_infer_parameters)

    def has_uninitialized_params(self) -> bool:
        tensors = list(self._parameters.values()) + list(self._buffers.values())
        return any(isinstance(t, (UninitializedParameter, UninitializedBuffer)) for t in tensors)

    def _materialize(self, shapes: dict) -> None:
        for name, shape in shapes.items():
            tensor = getattr(self, name)
            if isinstance(tensor, (UninitializedParameter, UninitializedBuffer)):
                tensor.materialize(shape)


def _infer_parameters(module: Any, args: tuple) -> None:
    module.initialize_parameters(*args)
    if not module.has_uninitialized_params():
        module._lazy_hook.remove()
        del module._lazy_hook
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become


def _uninitialize(module: Module, names: tuple, buffers: tuple = ()) -> None:
    """Replaces the given parameters (those present) and buffers by uninitialised ones."""
    for name in names:
        current = module._parameters.get(name)
        if current is not None:
            module._parameters[name] = UninitializedParameter(device=current.device, dtype=current.dtype)
    for name in buffers:
        current = module._buffers.get(name)
        if current is not None:
            module._buffers[name] = UninitializedBuffer(device=current.device, dtype=current.dtype)


class LazyLinear(LazyModuleMixin, Linear):
    """``Linear`` whose ``in_features`` is the last size of its first input."""

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__(0, out_features, bias, device=device, dtype=dtype)
        _uninitialize(self, ("weight", "bias"))
        self._register_lazy_hook()

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor, *args: Any) -> None:
        if self.has_uninitialized_params():
            self.in_features = input.shape[-1]
            self._materialize({"weight": (self.out_features, self.in_features), "bias": (self.out_features,)})
            self.reset_parameters()


class _LazyConvMixin(LazyModuleMixin, _ConvBase):
    """``in_channels`` is the channel size of the first input (dimension 1, or 0 when unbatched)."""

    def _lazy_setup(self) -> None:
        self.in_channels = 0
        _uninitialize(self, ("weight", "bias"))
        self._register_lazy_hook()

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor, *args: Any) -> None:
        if not self.has_uninitialized_params():
            return
        self.in_channels = input.shape[1] if input.ndim == self._dims + 2 else input.shape[0]
        if self.in_channels % self.groups:
            raise ValueError("in_channels must be divisible by groups")
        if self.transposed:
            shape = (self.in_channels, self.out_channels // self.groups) + tuple(self.kernel_size)
        else:
            shape = (self.out_channels, self.in_channels // self.groups) + tuple(self.kernel_size)
        self._materialize({"weight": shape, "bias": (self.out_channels,)})
        self.reset_parameters()


def _lazy_conv(name: str, base: type[_ConvNd]) -> type:
    def __init__(self: Any, out_channels: int, kernel_size: Any, *args: Any, **kwargs: Any) -> None:
        # built with no channels, so that its reset_parameters draws nothing (as in PyTorch, the first
        # draws come at the first call), then uninitialised
        base.__init__(self, 0, 0, kernel_size, *args, **kwargs)
        self.out_channels = out_channels
        self._lazy_setup()
    doc = f"``{base.__name__}`` whose ``in_channels`` is inferred from the first input."
    return type(name, (_LazyConvMixin, base), {"__init__": __init__, "cls_to_become": base, "__doc__": doc,
                                               "__module__": __name__})


LazyConv1d = _lazy_conv("LazyConv1d", Conv1d)
LazyConv2d = _lazy_conv("LazyConv2d", Conv2d)
LazyConv3d = _lazy_conv("LazyConv3d", Conv3d)
LazyConvTranspose1d = _lazy_conv("LazyConvTranspose1d", ConvTranspose1d)
LazyConvTranspose2d = _lazy_conv("LazyConvTranspose2d", ConvTranspose2d)
LazyConvTranspose3d = _lazy_conv("LazyConvTranspose3d", ConvTranspose3d)


class _LazyNormMixin(LazyModuleMixin, _NormBase):
    """``num_features`` is the channel size of the first input."""

    _channel_from_end: int = 0
    _channels: Callable[[Tensor], int]  # the input's channel count, given per class by _lazy_norm

    def _lazy_setup(self) -> None:
        _uninitialize(self, ("weight", "bias"), ("running_mean", "running_var"))
        self._register_lazy_hook()

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor, *args: Any) -> None:
        if not self.has_uninitialized_params():
            return
        self.num_features = self._channels(input)
        self._materialize({name: (self.num_features,) for name in ("weight", "bias", "running_mean", "running_var")})
        self.reset_parameters()


def _lazy_norm(name: str, base: type[_BatchNorm] | type[_InstanceNorm], channels: Any) -> type:
    def __init__(self: Any, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device: Any = None, dtype: Any = None) -> None:
        base.__init__(self, 0, eps, momentum, affine, track_running_stats, device, dtype)
        self._lazy_setup()
    doc = f"``{base.__name__}`` whose ``num_features`` is inferred from the first input."
    return type(name, (_LazyNormMixin, base), {"__init__": __init__, "cls_to_become": base, "__doc__": doc,
                                               "_channels": staticmethod(channels), "__module__": __name__})


def _dim1(input: Tensor) -> int:
    return input.shape[1]


def _instance_channels(spatial: int) -> Any:
    def channels(input: Tensor) -> int:
        return input.shape[-spatial - 1]
    return channels


LazyBatchNorm1d = _lazy_norm("LazyBatchNorm1d", BatchNorm1d, _dim1)
LazyBatchNorm2d = _lazy_norm("LazyBatchNorm2d", BatchNorm2d, _dim1)
LazyBatchNorm3d = _lazy_norm("LazyBatchNorm3d", BatchNorm3d, _dim1)
LazyInstanceNorm1d = _lazy_norm("LazyInstanceNorm1d", InstanceNorm1d, _instance_channels(1))
LazyInstanceNorm2d = _lazy_norm("LazyInstanceNorm2d", InstanceNorm2d, _instance_channels(2))
LazyInstanceNorm3d = _lazy_norm("LazyInstanceNorm3d", InstanceNorm3d, _instance_channels(3))
