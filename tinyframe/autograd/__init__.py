"""Automatic differentiation: ``backward``, ``grad``, custom ``Function``, grad mode, gradcheck."""
from ..grad_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled  # noqa: I001
from .anomaly_mode import detect_anomaly, is_anomaly_check_nan_enabled, is_anomaly_enabled, set_detect_anomaly
from .engine import backward, grad
from .function import Function, FunctionCtx
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .variable import Variable
from . import function, functional, graph, profiler

__all__ = ["backward", "grad", "Function", "FunctionCtx", "Variable", "gradcheck", "gradgradcheck", "GradcheckError",
           "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "function", "functional", "graph",
           "detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled", "is_anomaly_check_nan_enabled",
           "inference_mode", "profiler"]
