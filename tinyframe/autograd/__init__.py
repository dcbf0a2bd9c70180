"""Automatic differentiation: ``backward``, ``grad``, custom ``Function``, grad mode, gradcheck."""
import importlib  # noqa: I001  (the package imports below keep their order)
from typing import Any

from ..grad_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .anomaly_mode import detect_anomaly, is_anomaly_check_nan_enabled, is_anomaly_enabled, set_detect_anomaly
from .engine import backward, grad
from .function import Function, FunctionCtx
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .variable import Variable
from . import function, graph

__all__ = ["backward", "grad", "Function", "FunctionCtx", "Variable", "gradcheck", "gradgradcheck", "GradcheckError",
           "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "function", "functional", "graph",
           "detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled", "is_anomaly_check_nan_enabled",
           "inference_mode", "profiler", "forward_ad"]


# torch.autograd.functional, forward_ad and the profiler load on first use, to keep ``import tinyframe`` short.
_LAZY = ("functional", "profiler", "forward_ad")


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'tinyframe.autograd' has no attribute '{name}'")
    module = importlib.import_module(f".{name}", __name__)
    globals()[name] = module
    return module


def __dir__() -> list:
    return sorted(set(globals()) | set(_LAZY))
