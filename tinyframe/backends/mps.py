"""``torch.backends.mps``: not used by tinyframe."""

__all__ = ["is_available", "is_built"]


def is_available() -> bool:
    """False: tinyframe computes with NumPy (CPU) or CuPy (CUDA) only."""
    return False


def is_built() -> bool:
    """False: tinyframe has no MPS backend."""
    return False
