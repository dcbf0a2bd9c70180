"""``torch.backends.cudnn``: flags kept for scripts that set them; tinyframe has no cuDNN."""

enabled = True
benchmark = False
deterministic = False
allow_tf32 = True

__all__ = ["enabled", "benchmark", "deterministic", "allow_tf32", "is_available", "version"]


def is_available() -> bool:
    """False: tinyframe does not use cuDNN."""
    return False


def version() -> None:
    """None, as PyTorch returns when cuDNN is not available."""
    return None
