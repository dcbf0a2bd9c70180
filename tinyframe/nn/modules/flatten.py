"""``Flatten`` and ``Unflatten``: reshape layers for ``Sequential`` models."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .module import Module

__all__ = ["Flatten", "Unflatten"]


class Flatten(Module):
    """Merges dimensions ``start_dim`` to ``end_dim`` into one: ``(N, C, H, W) -> (N, C * H * W)`` by default."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, input: Any) -> Any:
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Splits dimension ``dim`` into ``unflattened_size``: ``(N, 50)`` with ``(2, 5, 5)`` gives ``(N, 2, 5, 5)``."""

    def __init__(self, dim: int, unflattened_size: Sequence[int]) -> None:
        super().__init__()
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError(f"unflattened_size must be a tuple of ints, but found type "
                            f"{type(unflattened_size).__name__}")
        for position, size in enumerate(unflattened_size):
            if not isinstance(size, int):
                raise TypeError(f"unflattened_size must be tuple of ints, but found element of type "
                                f"{type(size).__name__} at pos {position}")
        self.dim, self.unflattened_size = dim, unflattened_size

    def forward(self, input: Any) -> Any:
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
