"""``Dropout``: zeroes random elements while training, the identity in eval mode."""
from __future__ import annotations

from typing import Any

from .. import functional as F
from .module import Module

__all__ = ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout"]


class Dropout(Module):
    """In training mode, zeroes each element with probability ``p`` and scales the rest by ``1 / (1 - p)``;
    in eval mode returns the input unchanged."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p, self.inplace = p, inplace

    def forward(self, input: Any) -> Any:
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout1d(Dropout):
    """Zeroes whole channels of ``(N, C, L)`` or ``(C, L)`` in training (``F.dropout1d``)."""

    def forward(self, input: Any) -> Any:
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(Dropout):
    """Zeroes whole channels of ``(N, C, H, W)`` or ``(C, H, W)`` in training (``F.dropout2d``)."""

    def forward(self, input: Any) -> Any:
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(Dropout):
    """Zeroes whole channels of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` in training (``F.dropout3d``)."""

    def forward(self, input: Any) -> Any:
        return F.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(Dropout):
    """Dropout that keeps SELU activations' mean and variance (``F.alpha_dropout``)."""

    def forward(self, input: Any) -> Any:
        return F.alpha_dropout(input, self.p, self.training, self.inplace)


class FeatureAlphaDropout(Dropout):
    """``AlphaDropout`` of whole channels (``F.feature_alpha_dropout``)."""

    def forward(self, input: Any) -> Any:
        return F.feature_alpha_dropout(input, self.p, self.training, self.inplace)
