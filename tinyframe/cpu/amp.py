"""``torch.cpu.amp`` (deprecated in PyTorch in favour of ``torch.amp``): ``autocast`` (bfloat16 by default)
and ``GradScaler`` for the cpu device type."""
from __future__ import annotations

from .. import dtypes
from ..amp.cuda_amp import DeviceAutocast, DeviceGradScaler

__all__ = ["autocast", "GradScaler"]


class autocast(DeviceAutocast):
    """``torch.amp.autocast("cpu", ...)``, bfloat16 by default."""

    device, default_dtype = "cpu", dtypes.bfloat16


class GradScaler(DeviceGradScaler):
    """``torch.amp.GradScaler("cpu", ...)``."""

    device = "cpu"
