"""``tinyframe.nn``: modules, parameters, layers, losses, ``functional`` and ``init``."""
from .._lazy import lazy_module
from . import attention, functional, init, parallel, utils
from .modules import *  # noqa: F401,F403
from .modules import __all__ as _module_names
from .parallel import DataParallel
from .parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter

common_types = lazy_module(f"{__name__}.common_types")  # (type aliases for annotations: costly to build)

__all__ = ["attention", "common_types", "functional", "init", "parallel", "utils", "Parameter", "Buffer",
           "UninitializedParameter", "DataParallel",
           "UninitializedBuffer", *_module_names]
