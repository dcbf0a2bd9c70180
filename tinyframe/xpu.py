"""``torch.xpu``: Intel GPUs, which tinyframe does not run on. Device-selection code asks
``torch.xpu.is_available()`` beside ``torch.cuda.is_available()``; the answers say there is none."""
from __future__ import annotations

__all__ = ["is_available", "device_count", "is_initialized", "manual_seed", "manual_seed_all", "empty_cache"]


def is_available() -> bool:
    """False: tinyframe has no XPU backend."""
    return False


def device_count() -> int:
    """0: no XPU device."""
    return 0


def is_initialized() -> bool:
    """False: there is nothing to initialize."""
    return False


def manual_seed(seed: int) -> None:
    """Does nothing: there is no XPU generator to seed (as PyTorch without XPUs)."""


def manual_seed_all(seed: int) -> None:
    """Does nothing: there is no XPU generator to seed."""


def empty_cache() -> None:
    """Does nothing: no XPU memory is cached."""
