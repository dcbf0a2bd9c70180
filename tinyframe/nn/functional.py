"""``tinyframe.nn.functional``: the functional form of every layer, activation and loss.

Each function here is the one definition its Module calls.
"""
from __future__ import annotations

from ..ops.linear import linear

__all__ = ["linear"]
