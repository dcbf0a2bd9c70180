"""``torch.autograd.profiler``: the older spelling of ``torch.profiler``'s ``profile`` and ``record_function``."""
from ..profiler import profile, record_function

__all__ = ["profile", "record_function"]
