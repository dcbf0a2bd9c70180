"""``torch.backends.cpu``."""

__all__ = ["get_cpu_capability"]


def get_cpu_capability() -> str:
    """The CPU's vector capability as PyTorch names it; NumPy picks its own kernels, so "DEFAULT"."""
    return "DEFAULT"
