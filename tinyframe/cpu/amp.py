"""``torch.cpu.amp`` (deprecated in PyTorch in favour of ``torch.amp``): ``autocast`` (bfloat16 by default)
and ``GradScaler`` for the cpu device type."""
from __future__ import annotations

import warnings
from typing import Any

from .. import dtypes
from ..amp import GradScaler as _GradScaler
from ..amp import autocast as _autocast

__all__ = ["autocast", "GradScaler"]


class autocast(_autocast):
    """``torch.amp.autocast("cpu", ...)``."""

    def __init__(self, enabled: bool = True, dtype: Any = dtypes.bfloat16, cache_enabled: bool = True) -> None:
        warnings.warn("`torch.cpu.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('cpu', "
                      "args...)` instead.", FutureWarning, stacklevel=2)
        super().__init__("cpu", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)


class GradScaler(_GradScaler):
    """``torch.amp.GradScaler("cpu", ...)``."""

    def __init__(self, init_scale: float = 2.0 ** 16, growth_factor: float = 2.0, backoff_factor: float = 0.5,
                 growth_interval: int = 2000, enabled: bool = True) -> None:
        warnings.warn("`torch.cpu.amp.GradScaler(args...)` is deprecated. Please use `torch.amp.GradScaler('cpu', "
                      "args...)` instead.", FutureWarning, stacklevel=2)
        super().__init__("cpu", init_scale, growth_factor, backoff_factor, growth_interval, enabled)
