"""Modules loaded on their first use, so that ``import tinyframe`` does not pay for op families few programs
call (the decompositions, signal processing, sampling, ...): each costs its bytecode and its op classes."""
from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

__all__ = ["lazy_module"]


def lazy_module(name: str) -> ModuleType:
    """The module ``name``, run only when one of its attributes is first read (``importlib.util.LazyLoader``).
    A later ``import name`` or ``from package import module`` gives this same module."""
    module = sys.modules.get(name)
    if module is not None:
        return module
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named '{name}'", name=name)
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    setattr(sys.modules[parent], child, module)
    return module
