"""``finfo`` and ``iinfo``: the numerical limits of floating and integer dtypes, as PyTorch reports them."""
from __future__ import annotations

from typing import Any

import numpy as np

from .dtypes import as_dtype, bfloat16, dtype, get_default_dtype

__all__ = ["finfo", "iinfo"]


class finfo:
    """Limits of a floating dtype (default: the default dtype): ``bits``, ``eps``, ``max``, ``min``,
    ``tiny`` (= ``smallest_normal``), ``resolution``, as Python floats."""

    def __init__(self, type: dtype | None = None) -> None:
        d = get_default_dtype() if type is None else as_dtype(type)
        d = d.to_real()  # a complex dtype's limits are those of its parts, as PyTorch reports them
        if not d.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        info = _ml_dtypes_finfo(d) if d is bfloat16 else np.finfo(d.numpy)
        self.bits = info.bits
        self.eps, self.max, self.min = float(info.eps), float(info.max), float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -info.precision  # exact decimal, as PyTorch reports it
        self.dtype = d.name

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")


def _ml_dtypes_finfo(d: dtype) -> Any:
    # NumPy's finfo knows no bfloat16; ml_dtypes' (loaded with bfloat16's NumPy dtype) gives the same fields
    import ml_dtypes
    return ml_dtypes.finfo(d.numpy)


class iinfo:
    """Limits of an integer dtype: ``bits``, ``min``, ``max``, as Python ints."""

    def __init__(self, type: dtype) -> None:
        d = as_dtype(type)
        if d.name == "bool":
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if d.is_floating_point:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle "
                            "'torch.iinfo'")
        info = np.iinfo(d.numpy)
        self.bits, self.min, self.max = info.bits, int(info.min), int(info.max)
        self.dtype = d.name

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"
