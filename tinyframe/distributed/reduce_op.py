"""``ReduceOp``: how a collective combines the ranks' values."""
from __future__ import annotations

import enum


class ReduceOp(enum.Enum):
    """``SUM``, ``AVG`` (floating point only), ``PRODUCT``, ``MIN`` and ``MAX``, element by element across
    ranks. Booleans reduce as logic: ``SUM`` and ``MAX`` are OR, ``PRODUCT`` and ``MIN`` are AND."""

    SUM = "sum"
    AVG = "avg"
    PRODUCT = "product"
    MIN = "min"
    MAX = "max"

    def __repr__(self) -> str:
        return f"<ReduceOp.{self.name}>"
