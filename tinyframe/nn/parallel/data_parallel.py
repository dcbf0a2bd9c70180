"""``nn.DataParallel``: single-process data parallelism over the visible GPUs. tinyframe runs the
wrapped module once on the whole batch, which gives the same results (PyTorch's replicas each see a
slice of the batch and their outputs are gathered back in order)."""
from __future__ import annotations

from typing import Any

from ..modules.module import Module


class DataParallel(Module):
    """Wraps ``module`` (kept as ``self.module``, so state-dict keys gain the ``module.`` prefix as in
    PyTorch); ``forward`` runs it on the inputs as given."""

    def __init__(self, module: Module, device_ids: Any = None, output_device: Any = None, dim: int = 0) -> None:
        super().__init__()
        self.module = module
        self.device_ids = [] if device_ids is None else [getattr(d, "index", d) for d in device_ids]
        self.output_device = output_device if output_device is not None or not self.device_ids else self.device_ids[0]
        self.dim = dim

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        return self.module(*inputs, **kwargs)
