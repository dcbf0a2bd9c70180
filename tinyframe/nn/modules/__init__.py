"""The layers of ``tinyframe.nn``, one concept a file."""
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .linear import Identity, Linear
from .module import Module

__all__ = ["Module", "Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict", "Identity",
           "Linear"]
