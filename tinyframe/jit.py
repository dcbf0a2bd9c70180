"""``torch.jit``: TorchScript's decorators and entry points, accepted so that scripted code runs
eagerly. ``script`` and ``trace`` return what they are given (a TorchScript program computes what
its Python source computes); ``is_scripting()`` is False, so code guarded by it takes the eager path."""
from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any, Final  # noqa: F401  (torch.jit.Final)

from .nn.modules.module import Module

__all__ = ["script", "trace", "trace_module", "ignore", "unused", "export", "interface", "script_method",
           "is_scripting", "is_tracing", "annotate", "Attribute", "Final", "ScriptModule", "ScriptFunction",
           "fork", "wait", "isinstance"]

ScriptModule = Module  # a scripted module is the module itself
ScriptFunction = type(lambda: None)


def script(obj: Any, optimize: Any = None, _frames_up: int = 0, _rcb: Any = None, example_inputs: Any = None) -> Any:
    """``obj`` itself (a function, module or class)."""
    return obj


def trace(func: Any, example_inputs: Any = None, *args: Any, **kwargs: Any) -> Any:
    """``func`` itself: tracing records what running it computes."""
    return func


def trace_module(mod: Any, inputs: Any = None, *args: Any, **kwargs: Any) -> Any:
    """``mod`` itself."""
    return mod


def ignore(drop: Any = False, **kwargs: Any) -> Any:
    """Marks a function that TorchScript leaves to Python: ``@ignore`` or ``@ignore(drop=True)``."""
    if callable(drop):
        return drop
    return lambda fn: fn


def unused(fn: Callable) -> Callable:
    """``fn`` itself."""
    return fn


export = interface = script_method = unused


def is_scripting() -> bool:
    """False: tinyframe always runs eagerly."""
    return False


def is_tracing() -> bool:
    """False: tinyframe always runs eagerly."""
    return False


def annotate(the_type: Any, the_value: Any) -> Any:
    """``the_value``: the type annotation is for the TorchScript compiler."""
    return the_value


def Attribute(value: Any, type: Any = None) -> Any:  # noqa: N802  (PyTorch's name)
    """``value``: the type is for the TorchScript compiler."""
    return value


class _Completed:
    """The future ``fork`` returns: the call has already run."""

    def __init__(self, value: Any) -> None:
        self._value = value

    def wait(self) -> Any:
        return self._value


def fork(func: Callable, *args: Any, **kwargs: Any) -> _Completed:
    """Runs ``func(*args, **kwargs)`` now; ``wait`` on the result gives its value."""
    return _Completed(func(*args, **kwargs))


def wait(future: _Completed) -> Any:
    """The value of a ``fork``."""
    return future.wait()


def isinstance(obj: Any, target_type: Any) -> bool:
    """Python's ``isinstance`` (TorchScript's refines container element types, which Python cannot check)."""
    origin = getattr(target_type, "__origin__", target_type)
    return builtins.isinstance(obj, origin)
