"""``torch.nn.attention``: the scaled-dot-product-attention backends and ``sdpa_kernel``, which picks
among them. tinyframe has one attention kernel, so every choice computes the same (PyTorch's math path)."""
from __future__ import annotations

import contextlib
import enum
from collections.abc import Iterator
from typing import Any

__all__ = ["SDPBackend", "sdpa_kernel"]


class SDPBackend(enum.Enum):
    """The kernels ``scaled_dot_product_attention`` may run."""

    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4


@contextlib.contextmanager
def sdpa_kernel(backends: Any, set_priority: bool = False) -> Iterator[None]:
    """Restricts attention to ``backends`` (one or a list) inside the block; accepted as given."""
    chosen = backends if isinstance(backends, (list, tuple)) else [backends]
    if not all(isinstance(b, SDPBackend) for b in chosen):
        raise AssertionError("Backend must be an instance of SDPBackend")
    yield
