"""Padding layers: ``ZeroPad``, ``ConstantPad``, ``ReflectionPad``, ``ReplicationPad`` and
``CircularPad`` in 1, 2 and 3 dimensions, each ``F.pad`` with a fixed padding and mode."""
from __future__ import annotations

from typing import Any

from ...tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = [f"{kind}Pad{n}d" for kind in ("Zero", "Constant", "Reflection", "Replication", "Circular")
           for n in (1, 2, 3)]


class _PadNd(Module):
    """``padding``: an int (every side) or ``2 * dims`` ints (last dimension's left, right, ...)."""

    _dims = 1
    _mode = "constant"

    def __init__(self, padding: Any) -> None:
        super().__init__()
        self.padding = (padding,) * (2 * self._dims) if isinstance(padding, int) else tuple(padding)

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding: Any, value: float) -> None:
        super().__init__(padding)
        self.value = value

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class _ZeroPadNd(_ConstantPadNd):
    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


def _layer(name: str, base: type, dims: int, mode: str) -> type:
    doc = f"Pads the last {dims} dimension{'s' if dims > 1 else ''} ({mode} mode)."
    return type(name, (base,), {"_dims": dims, "_mode": mode, "__doc__": doc, "__module__": __name__})


ZeroPad1d = _layer("ZeroPad1d", _ZeroPadNd, 1, "constant")
ZeroPad2d = _layer("ZeroPad2d", _ZeroPadNd, 2, "constant")
ZeroPad3d = _layer("ZeroPad3d", _ZeroPadNd, 3, "constant")
ConstantPad1d = _layer("ConstantPad1d", _ConstantPadNd, 1, "constant")
ConstantPad2d = _layer("ConstantPad2d", _ConstantPadNd, 2, "constant")
ConstantPad3d = _layer("ConstantPad3d", _ConstantPadNd, 3, "constant")
ReflectionPad1d = _layer("ReflectionPad1d", _PadNd, 1, "reflect")
ReflectionPad2d = _layer("ReflectionPad2d", _PadNd, 2, "reflect")
ReflectionPad3d = _layer("ReflectionPad3d", _PadNd, 3, "reflect")
ReplicationPad1d = _layer("ReplicationPad1d", _PadNd, 1, "replicate")
ReplicationPad2d = _layer("ReplicationPad2d", _PadNd, 2, "replicate")
ReplicationPad3d = _layer("ReplicationPad3d", _PadNd, 3, "replicate")
CircularPad1d = _layer("CircularPad1d", _PadNd, 1, "circular")
CircularPad2d = _layer("CircularPad2d", _PadNd, 2, "circular")
CircularPad3d = _layer("CircularPad3d", _PadNd, 3, "circular")
