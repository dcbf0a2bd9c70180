"""``torch.backends.openmp``: not used by tinyframe."""

__all__ = ["is_available"]


def is_available() -> bool:
    """False: tinyframe computes with NumPy (CPU) or CuPy (CUDA) only."""
    return False
