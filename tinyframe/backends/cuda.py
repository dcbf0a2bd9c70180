"""``torch.backends.cuda``: matmul precision flags kept for scripts that set them."""
from types import SimpleNamespace

__all__ = ["matmul", "is_built"]

# PyTorch's torch.backends.cuda.matmul is an object with settable flags.
matmul = SimpleNamespace(allow_tf32=False, allow_fp16_reduced_precision_reduction=True,
                         allow_bf16_reduced_precision_reduction=True)


def is_built() -> bool:
    """False: tinyframe is not built against CUDA (its GPU path is CuPy's)."""
    return False
