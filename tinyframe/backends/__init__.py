"""``torch.backends``: the backend switches that scripts set (``cudnn.benchmark``,
``cuda.matmul.allow_tf32``, ...) and query (``mps.is_available()``).

tinyframe runs on NumPy (and CuPy) only: the flags are accepted and remembered, and change nothing.
"""
from . import cpu, cuda, cudnn, mkl, mkldnn, mps, openmp

__all__ = ["cpu", "cuda", "cudnn", "mkl", "mkldnn", "mps", "openmp"]
