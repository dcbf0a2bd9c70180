"""``nn.utils.skip_init``: build a module without paying for its parameter initialisation."""
from __future__ import annotations

from typing import Any

from ... import random
from ..modules.module import Module

__all__ = ["skip_init"]


def skip_init(module_cls: type, *args: Any, **kwargs: Any) -> Module:
    """``module_cls(*args, **kwargs)`` whose parameters are left to be overwritten (tinyframe has no
    meta device, so the module is built normally; the values are unspecified as in PyTorch). PyTorch's
    construction on the meta device draws no random numbers, so the CPU generator is left as it was."""
    if not issubclass(module_cls, Module):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in module_cls.__init__.__code__.co_varnames:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    with random.fork_rng():
        return module_cls(*args, **kwargs)
