"""``torch.cuda.amp`` (deprecated in PyTorch in favour of ``torch.amp``): ``autocast`` and ``GradScaler``
for the cuda device type, as older training scripts import them (``from torch.cuda.amp import autocast``)."""
from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from . import GradScaler as _GradScaler
from . import autocast as _autocast
from . import custom_bwd as _custom_bwd
from . import custom_fwd as _custom_fwd

__all__ = ["autocast", "GradScaler", "custom_fwd", "custom_bwd"]


class DeviceAutocast(_autocast):
    """``torch.<device>.amp.autocast``: ``torch.amp.autocast(device, ...)`` with PyTorch's deprecation warning;
    a subclass names the ``device`` and its ``default_dtype``."""

    device = "cuda"
    default_dtype: Any = None

    def __init__(self, enabled: bool = True, dtype: Any = None, cache_enabled: bool = True) -> None:
        warnings.warn(f"`torch.{self.device}.amp.autocast(args...)` is deprecated. Please use "
                      f"`torch.amp.autocast('{self.device}', args...)` instead.", FutureWarning, stacklevel=2)
        super().__init__(self.device, dtype=self.default_dtype if dtype is None else dtype, enabled=enabled,
                         cache_enabled=cache_enabled)


class DeviceGradScaler(_GradScaler):
    """``torch.<device>.amp.GradScaler``: ``torch.amp.GradScaler(device, ...)`` with PyTorch's deprecation
    warning; a subclass names the ``device``."""

    device = "cuda"

    def __init__(self, init_scale: float = 2.0 ** 16, growth_factor: float = 2.0, backoff_factor: float = 0.5,
                 growth_interval: int = 2000, enabled: bool = True) -> None:
        warnings.warn(f"`torch.{self.device}.amp.GradScaler(args...)` is deprecated. Please use "
                      f"`torch.amp.GradScaler('{self.device}', args...)` instead.", FutureWarning, stacklevel=2)
        super().__init__(self.device, init_scale, growth_factor, backoff_factor, growth_interval, enabled)


class autocast(DeviceAutocast):
    """``torch.amp.autocast("cuda", ...)``."""


class GradScaler(DeviceGradScaler):
    """``torch.amp.GradScaler("cuda", ...)``."""


def custom_fwd(fwd: Callable | None = None, *, cast_inputs: Any = None) -> Callable:
    """``torch.amp.custom_fwd(fwd, device_type="cuda", cast_inputs=...)``."""
    warnings.warn("`torch.cuda.amp.custom_fwd(args...)` is deprecated. Please use `torch.amp.custom_fwd(args..., "
                  "device_type='cuda')` instead.", FutureWarning, stacklevel=2)
    return _custom_fwd(fwd, device_type="cuda", cast_inputs=cast_inputs)


def custom_bwd(bwd: Callable) -> Callable:
    """``torch.amp.custom_bwd(bwd, device_type="cuda")``."""
    warnings.warn("`torch.cuda.amp.custom_bwd(args...)` is deprecated. Please use `torch.amp.custom_bwd(args..., "
                  "device_type='cuda')` instead.", FutureWarning, stacklevel=2)
    return _custom_bwd(bwd, device_type="cuda")
