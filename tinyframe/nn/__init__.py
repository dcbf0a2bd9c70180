"""``tinyframe.nn``: modules, parameters, layers, losses, ``functional`` and ``init``."""
from . import attention, common_types, functional, init, parallel, utils
from .modules import *  # noqa: F401,F403
from .modules import __all__ as _module_names
from .parallel import DataParallel
from .parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter

__all__ = ["attention", "common_types", "functional", "init", "parallel", "utils", "Parameter", "Buffer",
           "UninitializedParameter", "DataParallel",
           "UninitializedBuffer", *_module_names]
