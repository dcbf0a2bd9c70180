"""Casting the operands of elementwise ops to the dtype PyTorch's promotion rules give."""
from __future__ import annotations

from typing import Any

from .. import dtypes

NUMBER_TYPES = frozenset((int, float, bool, complex))


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float, complex))


def promote(x: Any, y: Any) -> tuple[Any, Any]:
    """``x`` and ``y`` (arrays or Python numbers) cast to their common PyTorch dtype.

    Python numbers stay numbers: NumPy treats them as weak, so a float32 array stays float32.
    """
    x_number, y_number = type(x) in NUMBER_TYPES, type(y) in NUMBER_TYPES
    if not x_number and not y_number:
        if x.dtype is y.dtype or x.dtype == y.dtype:
            return x, y
    elif x_number != y_number:
        array, number = (y, x) if x_number else (x, y)
        kind = array.dtype.kind
        number_type = type(number)
        if kind == "c" or (kind == "f" and number_type is not complex):
            return x, y
        if kind in "iu" and number_type in (int, bool):
            if number_type is int:
                number = dtypes.wrap_integer(number, array.dtype)
            return (number, y) if x_number else (x, number)
    else:
        return x, y
    target = dtypes.result_type(*(v if is_number(v) else (dtypes.from_numpy_dtype(v.dtype), v.ndim)
                                  for v in (x, y))).numpy
    return _cast(x, target), _cast(y, target)


def promote_to_float(x: Any, y: Any) -> tuple[Any, Any]:
    """Like ``promote``, then integers and bools become the default float dtype (true division)."""
    if is_number(x) != is_number(y):  # a number meets the floating result, not the integer tensor's dtype
        array, number = (y, x) if is_number(x) else (x, y)
        if array.dtype.kind == "c" or (array.dtype.kind == "f" and type(number) is not complex):
            return x, y
        if type(number) is not complex:
            target = dtypes.get_default_dtype().numpy
            return _cast(x, target), _cast(y, target)
    px, py = promote(x, y)
    array = py if is_number(px) else px
    if is_number(array) or array.dtype.kind not in "fc":
        # the operands' own values become floats (uint8 4 / int64 -5 is -0.8, not 4 / 251 as a cast to uint8 first)
        target = dtypes.get_default_dtype().numpy
        return _cast(x, target), _cast(y, target)
    return px, py


def _cast(value: Any, target: Any) -> Any:
    if is_number(value):
        return value
    return value if value.dtype == target else value.astype(target)
