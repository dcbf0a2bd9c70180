"""PyTorch's argument-parser TypeErrors for the public functions and Tensor methods, in one place.

PyTorch checks every argument's type before it runs an op: ``torch.cross(t, None)`` is
``TypeError: cross(): argument 'other' (position 2) must be Tensor, not NoneType``. tinyframe's ops check
nothing up front (the hot path stays free of it); a call with a wrong-typed argument fails inside, with
an AttributeError, a ValueError or a RuntimeError of NumPy's. :func:`checked` wraps a function so that
such a failure is examined, on the failure path only: when an argument has a type PyTorch's parser
refuses, the failure is re-raised as PyTorch's TypeError naming that argument.

An argument's expected type comes from the function's annotation (``input: Tensor``, ``dim: int``),
else from its name as PyTorch's signatures use it (``input`` a Tensor, ``other`` a Tensor or a number,
``dim`` an int, ``size`` a sequence of ints, ``keepdim`` a bool).
"""
from __future__ import annotations

import functools
import inspect
import numbers
from collections.abc import Callable
from typing import Any

import numpy as np

from . import _graph

__all__ = ["checked", "check_arguments", "wraps"]

# The failures that may come from a wrong-typed argument (a TypeError already has PyTorch's class).
_FAILURES = (AttributeError, ValueError, RuntimeError, IndexError, OverflowError, KeyError)

# Expected types by parameter name, for parameters annotated ``Any`` or not at all.
_BY_NAME = {
    **dict.fromkeys(("input", "self", "mat1", "mat2", "mat", "vec", "vec1", "vec2", "batch1", "batch2", "tensor1",
                     "tensor2", "index", "mask", "A", "B", "sorted_sequence", "boundaries"),
                    "Tensor"),
    **dict.fromkeys(("other", "exponent", "end", "values", "src", "value", "q", "repeats", "weight"),
                    "Tensor or Number"),
    **dict.fromkeys(("dim", "dim0", "dim1", "diagonal", "offset", "k", "n", "chunks", "start_dim", "end_dim",
                     "correction", "decimals"), "int"),
    **dict.fromkeys(("size", "shape", "dims", "sizes", "kernel_size", "stride", "padding", "dilation"),
                    "tuple of ints"),
    **dict.fromkeys(("alpha", "median", "sigma", "lambd"), "Number"),
    **dict.fromkeys(("keepdim", "descending", "stable", "largest", "sorted", "unbiased", "upper",
                     "non_blocking", "equal_nan"), "bool"),
}
# Annotations (as written, ``from __future__ import annotations``) and the type each asks for.
_BY_ANNOTATION = {"Tensor": "Tensor", "int": "int", "bool": "bool", "float": "Number",
                  **dict.fromkeys(("Sequence[int]", "tuple[int, ...]", "list[int]", "Size"), "tuple of ints")}


def wraps(wrapper: Callable[..., Any], function: Callable[..., Any]) -> Callable[..., Any]:
    """``functools.update_wrapper(wrapper, function)`` for plain functions, without its generic loop over
    attributes: ``import tinyframe`` wraps about 1,500 functions and methods, and this halves that time."""
    wrapper.__module__ = function.__module__
    wrapper.__name__ = function.__name__
    wrapper.__qualname__ = function.__qualname__
    wrapper.__doc__ = function.__doc__
    wrapper.__annotations__ = function.__annotations__
    wrapper.__wrapped__ = function  # type: ignore[attr-defined]
    return wrapper


def checked(function: Callable[..., Any], name: str | None = None,
            numpy_names: frozenset | None = None) -> Callable[..., Any]:
    """``function``, whose failures caused by a wrong-typed argument become PyTorch's TypeError; given
    ``numpy_names`` (the keyword names ``function`` takes), it also takes NumPy's (``numpy_renamed``)."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except _FAILURES as exc:
            check_arguments(function, args, kwargs, exc, name)
            raise
        except TypeError as exc:  # NumPy's (UFuncTypeError, ...) are subclasses, which PyTorch never raises
            renamed = None if numpy_names is None else numpy_renamed(function, kwargs, numpy_names)
            if renamed is None:
                if type(exc) is not TypeError:
                    check_arguments(function, args, kwargs, exc, name)
                raise
        return wrapper(*args, **renamed)
    return wraps(wrapper, function)


# PyTorch's argument parser also takes NumPy's names for two arguments of its native functions and
# Tensor methods: ``axis`` for ``dim`` and ``keepdims`` for ``keepdim`` (``torch.cumprod(a, axis=0)``,
# ``P.sum(1, keepdims=True)``). (Its Python-level functions, torch.nn.functional's, do not.)
_NUMPY_NAMES = {"axis": "dim", "keepdims": "keepdim"}


def numpy_renamed(function: Callable[..., Any], kwargs: dict, accepted: frozenset) -> dict | None:
    """``kwargs`` with NumPy's ``axis``/``keepdims`` named ``dim``/``keepdim``, for a call of ``function`` (whose
    keyword names are ``accepted``) that failed on them; None where the failure had another cause. A call that
    fits no signature then is reported, as by PyTorch, as an unexpected NumPy name (``np.sum(tensor)`` passes
    ``axis=None, dtype=None, out=None`` to ``Tensor.sum``). (Renaming only after a failure keeps the wrapper
    one frame on the hot path: ``x.sum()`` is then no slower for it.)"""
    if accepted.issuperset(kwargs) or _NUMPY_NAMES.keys().isdisjoint(kwargs):
        return None
    renamed = {_NUMPY_NAMES.get(key, key): key for key in kwargs}
    if len(renamed) < len(kwargs) or not accepted.issuperset(renamed):
        unexpected = next(key for key in kwargs if key in _NUMPY_NAMES or key not in accepted)
        raise TypeError(f"{function.__name__}() got an unexpected keyword argument '{unexpected}'") from None
    return {name: kwargs[key] for name, key in renamed.items()}


def check_arguments(function: Callable[..., Any], args: tuple, kwargs: dict, cause: BaseException,
                    name: str | None = None) -> None:
    """Raises PyTorch's TypeError (from ``cause``) for the first argument of ``function(*args, **kwargs)``
    whose type PyTorch's parser refuses; returns when every argument's type is one it takes."""
    signature = _signature(inspect.unwrap(function))
    if signature is None:
        return
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        return
    is_method = next(iter(signature.parameters), None) == "self"
    given = len(args) - is_method  # the positional arguments, a method's self left out (PyTorch counts so)
    for position, (argument, value) in enumerate(bound.arguments.items(), 0 if is_method else 1):
        parameter = signature.parameters[argument]
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD) or position == 0:
            continue
        expected = _expected(parameter, position == 1)
        if expected is None or _fits(value, expected, parameter.default):
            continue
        where = f" (position {position})" if position <= given and argument not in kwargs else ""
        raise TypeError(f"{name or function.__name__}(): argument '{argument}'{where} must be {expected}, not "
                        f"{type(value).__name__}") from cause


@functools.cache
def _signature(function: Callable[..., Any]) -> inspect.Signature | None:
    try:
        return inspect.signature(function)
    except (TypeError, ValueError):
        return None


def _expected(parameter: inspect.Parameter, first: bool) -> str | None:
    """The type an argument is to have, None where unknown; an unannotated ``input`` is a Tensor only as the
    first argument (``searchsorted(sorted_sequence, input)`` also takes a number)."""
    annotation = parameter.annotation
    if isinstance(annotation, str):
        annotation = annotation.replace("builtins.", "")
        kinds = {_BY_ANNOTATION.get(part.strip()) for part in annotation.split("|") if part.strip() != "None"}
        if kinds == {"int", "tuple of ints"}:
            return "tuple of ints"
        if len(kinds) == 1 and None not in kinds:
            return kinds.pop()
        if annotation != "Any":
            return None
    return _BY_NAME.get(parameter.name) if first or parameter.name != "input" else None


def _fits(value: Any, expected: str, default: Any) -> bool:
    """Whether PyTorch's parser takes ``value`` for an argument of the ``expected`` type."""
    if value is None:
        return default is None
    if isinstance(value, _graph.Tensor):  # a 0-d one stands for a number, an integer one for an int
        if expected.startswith("Tensor"):
            return True
        return value.ndim == 0 and (expected != "int" or value._data.dtype.kind in "iub")
    if expected == "Tensor":
        return False
    if expected in ("int", "tuple of ints"):  # (a reduction's dim may be a tuple too)
        return _is_int(value) or (isinstance(value, (tuple, list)) and all(_is_int(v) for v in value))
    if expected == "bool":
        return isinstance(value, (bool, np.bool_))
    return isinstance(value, (numbers.Number, np.bool_))


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer))
