"""dtypes, PyTorch's names for them, and PyTorch's type-promotion rules."""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "dtype", "bfloat16", "float16", "float32", "float64", "complex64", "complex128", "int8", "int16", "int32",
    "int64", "uint8", "uint16", "uint32", "uint64", "bool_",
    "as_dtype", "from_numpy_dtype", "get_default_dtype", "set_default_dtype", "result_type",
    "scalar_type_name", "cpp_type_name", "legacy_type_name", "wrap_integer", "storable",
]


class dtype:
    """A tensor element type (``tinyframe.float32``, ...), backed by a NumPy dtype."""

    __slots__ = ("name", "numpy", "is_floating_point", "is_complex", "itemsize", "_category")

    def __init__(self, name: str, numpy_dtype: type, category: int) -> None:
        self.name = name
        self.numpy: np.dtype[Any] = np.dtype(numpy_dtype)
        # 0 bool, 1 integer, 2 floating, 3 complex: PyTorch promotes by category first
        self._category = category
        self.is_floating_point = category == 2
        self.is_complex = category == 3
        self.itemsize = self.numpy.itemsize

    @property
    def is_signed(self) -> bool:
        return self.numpy.kind in "ifc"

    def to_complex(self) -> dtype:
        """The complex dtype whose parts have this floating dtype (float32 -> complex64); complex dtypes
        give themselves."""
        found = _COMPLEX_OF.get(self.name)
        if found is None:
            raise TypeError(COMPLEX32_MESSAGE if self is float16 else f"{self} has no complex counterpart")
        return found

    def to_real(self) -> dtype:
        """The floating dtype of a complex dtype's parts (complex64 -> float32); real dtypes give themselves."""
        return _REAL_OF.get(self.name, self)

    def __repr__(self) -> str:
        return f"tinyframe.{self.name}"

    def __reduce__(self) -> str:
        return self.name


float16 = dtype("float16", np.float16, 2)
float32 = dtype("float32", np.float32, 2)
float64 = dtype("float64", np.float64, 2)
uint8 = dtype("uint8", np.uint8, 1)
int8 = dtype("int8", np.int8, 1)
int16 = dtype("int16", np.int16, 1)
int32 = dtype("int32", np.int32, 1)
int64 = dtype("int64", np.int64, 1)
bool_ = dtype("bool", np.bool_, 0)
# PyTorch's "shell" unsigned types: tensors of them are made, converted, compared and indexed, but PyTorch
# promotes them with no other integer type.
uint16 = dtype("uint16", np.uint16, 1)
uint32 = dtype("uint32", np.uint32, 1)
uint64 = dtype("uint64", np.uint64, 1)
complex64 = dtype("complex64", np.complex64, 3)
complex128 = dtype("complex128", np.complex128, 3)


class _BFloat16(dtype):
    """PyTorch's bfloat16 (float32's sign and exponent, 7 bits of mantissa). NumPy has none: its NumPy dtype is
    ``ml_dtypes.bfloat16``, imported when first asked for, so ``import tinyframe`` does not load ml_dtypes."""

    __slots__ = ()

    def __init__(self) -> None:
        self.name, self._category, self.itemsize = "bfloat16", 2, 2
        self.is_floating_point, self.is_complex = True, False

    @property
    def numpy(self) -> np.dtype[Any]:  # type: ignore[override]  # read-only: computed on first use
        return BFLOAT16_NUMPY[0] if BFLOAT16_NUMPY else _load_bfloat16()


bfloat16 = _BFloat16()
# ml_dtypes' bfloat16 NumPy dtype once loaded (empty before): ``_graph`` tests it to widen bfloat16 arrays
BFLOAT16_NUMPY: list[np.dtype[Any]] = []


def _load_bfloat16() -> np.dtype[Any]:
    import ml_dtypes
    np_dtype = np.dtype(ml_dtypes.bfloat16)
    _BY_NUMPY[np_dtype] = bfloat16
    BFLOAT16_NUMPY.append(np_dtype)
    return np_dtype


_ALL = (float16, float32, float64, uint8, int8, int16, int32, int64, bool_, complex64, complex128, uint16, uint32,
        uint64)
_UNPROMOTED = (uint16, uint32, uint64)
_COMPLEX_OF = {"float32": complex64, "float64": complex128, "complex64": complex64, "complex128": complex128}
_REAL_OF = {"complex64": float32, "complex128": float64}
_BY_NUMPY = {d.numpy: d for d in _ALL}
_NAMED = (*_ALL, bfloat16)
_ALIASES = {
    float: float64, int: int64, bool: bool_, complex: complex128,
    "float": float32, "double": float64, "half": float16, "long": int64, "int": int32,
    "short": int16, "bool": bool_, "cfloat": complex64, "cdouble": complex128, "bfloat16": bfloat16,
}
# PyTorch's half-precision complex has no NumPy counterpart.
COMPLEX32_MESSAGE = ("tinyframe has no complex32 (torch.chalf, ComplexHalf): NumPy has no half-precision complex "
                     "type; use complex64 (torch.cfloat) instead")
_DEFAULT = {"float": float32}

# PyTorch's kernels name dtypes in their error messages by ScalarType ("Double") or by C++ type ("double").
_SCALAR_TYPE_NAMES = {"bfloat16": "BFloat16",
                      "float16": "Half", "float32": "Float", "float64": "Double", "uint8": "Byte", "int8": "Char",
                      "int16": "Short", "int32": "Int", "int64": "Long", "bool": "Bool",
                      "complex64": "ComplexFloat", "complex128": "ComplexDouble", "uint16": "UInt16",
                      "uint32": "UInt32", "uint64": "UInt64"}
_CPP_TYPE_NAMES = {"bfloat16": "c10::BFloat16",
                   "float16": "c10::Half", "float32": "float", "float64": "double", "uint8": "unsigned char",
                   "int8": "signed char", "int16": "short int", "int32": "int", "int64": "long int", "bool": "bool",
                   "complex64": "c10::complex<float>", "complex128": "c10::complex<double>", "uint16": "uint16_t",
                   "uint32": "uint32_t", "uint64": "uint64_t"}


def checked_integer(number: int, np_dtype: Any) -> int:
    """A Python int as PyTorch's checked cast of a Scalar puts it into an integer dtype (``alpha``, a fill
    value): wrapped around, or its RuntimeError where it overflows (an unsigned type takes negatives down to
    minus its maximum)."""
    info = np.iinfo(np_dtype)
    if not (-info.max if np_dtype.kind == "u" else info.min) <= number <= info.max:
        name = "int" if np_dtype == np.int32 else f"{np_dtype.name}_t"
        raise RuntimeError(f"value cannot be converted to type {name} without overflow")
    return wrap_integer(number, np_dtype)


def wrap_integer(number: int, np_dtype: Any) -> int:
    """``number`` as PyTorch casts a Python int operand to an integer tensor's dtype: wrapped around modulo
    the type's width (``uint8_tensor + 300`` adds 44, ``uint8_tensor > -1`` compares with 255), where NumPy
    raises OverflowError. Beyond 64 bits PyTorch too raises."""
    bits = np_dtype.itemsize * 8
    low = -(1 << (bits - 1)) if np_dtype.kind == "i" else 0
    if low <= number < low + (1 << bits):
        return number
    if not -(1 << 63) <= number < 1 << 64:
        raise OverflowError("int too big to convert")
    return (number - low) % (1 << bits) + low


_STORED_TYPE_NAMES = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t"}


def storable(value: Any, np_dtype: Any) -> Any:
    """``value`` as written into a tensor of ``np_dtype`` (``fill_``, ``full``, ``t[i] = value``): a Python int
    going into an integer tensor gets PyTorch's overflow check (an unsigned type also takes the negatives down
    to ``-max``) and is then wrapped as ``wrap_integer``; other values pass unchanged."""
    if type(value) is not int or np_dtype.kind not in "iu":
        return value
    info = np.iinfo(np_dtype)
    low = -int(info.max) if info.min == 0 else int(info.min)
    if not low <= value <= info.max:
        raise RuntimeError(f"value cannot be converted to type {_STORED_TYPE_NAMES.get(np_dtype.name, np_dtype.name)} "
                           "without overflow")
    return wrap_integer(value, np_dtype)



def scalar_type_name(d: Any) -> str:
    """PyTorch's ScalarType name (``Double``) of a tinyframe or NumPy dtype, for error messages."""
    return _SCALAR_TYPE_NAMES.get(d.name, d.name)


def cpp_type_name(d: Any) -> str:
    """The C++ type name (``double``) PyTorch's kernels give a tinyframe or NumPy dtype in error messages."""
    return _CPP_TYPE_NAMES.get(d.name, d.name)


def check_kernel(kernel: str, d: Any, kinds: str, *, half: bool = True, bfloat16: bool = True) -> None:
    """PyTorch's NotImplementedError ``"<kernel>" not implemented for '<ScalarType>'`` when the kind of
    ``d`` (a tinyframe or NumPy dtype; NumPy's kind letters: ``b`` bool, ``u``/``i`` integers, ``f``
    floating, ``c`` complex) is not among ``kinds``, the dtypes that PyTorch's kernel is compiled for
    (float16 and bfloat16 too unless ``half`` or ``bfloat16`` is False)."""
    np_dtype = np.dtype(d.numpy if isinstance(d, dtype) else d)
    if (kind(np_dtype) not in kinds or (not half and np_dtype == np.float16)
            or (not bfloat16 and np_dtype.name == "bfloat16")):
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{scalar_type_name(np_dtype)}'")


def check_same(expected: Any, found: Any) -> None:
    """PyTorch's RuntimeError ``expected scalar type Float but found Double`` of a kernel that takes its
    operands in one dtype (dtypes of one kind: both tinyframe or both NumPy)."""
    if expected != found:
        raise RuntimeError(f"expected scalar type {scalar_type_name(expected)} but found {scalar_type_name(found)}")


def legacy_type_name(d: dtype) -> str:
    """PyTorch's legacy tensor type name of ``d``: ``FloatTensor`` for float32, ``LongTensor`` for int64."""
    return _SCALAR_TYPE_NAMES[d.name] + "Tensor"


def from_numpy_dtype(np_dtype: np.dtype) -> dtype:
    """The tinyframe dtype of a NumPy dtype; raises TypeError for types tinyframe lacks."""
    found = _BY_NUMPY.get(np_dtype)
    if found is None:
        np_dtype = np.dtype(np_dtype)
        found = _BY_NUMPY.get(np_dtype)
        if found is None and np_dtype.name == "bfloat16" and not BFLOAT16_NUMPY:  # an ml_dtypes array
            found = bfloat16 if bfloat16.numpy == np_dtype else None
        if found is None:
            raise TypeError(f"can't convert NumPy array of type {np_dtype}: tinyframe supports "
                            f"{', '.join(d.name for d in _NAMED)}")
    return found


def as_dtype(value: Any) -> dtype:
    """Accepts a tinyframe dtype, a Python type (``float`` means float64), a NumPy dtype or a name."""
    if isinstance(value, dtype):
        return value
    alias = _ALIASES.get(value) if isinstance(value, (str, type)) else None
    if alias is not None:
        return alias
    legacy = getattr(value, "dtype", None)  # a legacy type: tinyframe.FloatTensor
    if isinstance(legacy, dtype):
        return legacy
    if value in ("complex32", "chalf"):
        raise TypeError(COMPLEX32_MESSAGE)
    if isinstance(value, str):
        # "float32", or a legacy type name as Tensor.type() takes it: "torch.FloatTensor"
        named = next((d for d in _NAMED if value in (d.name, f"torch.{legacy_type_name(d)}",
                                                   f"tinyframe.{legacy_type_name(d)}")), None)
        if named is not None:
            return named
    try:
        return from_numpy_dtype(np.dtype(value))
    except TypeError as exc:
        raise TypeError(f"{value!r} is not a tinyframe dtype") from exc


def get_default_dtype() -> dtype:
    """The dtype of tensors made from Python floats (float32 unless changed)."""
    return _DEFAULT["float"]


def set_default_dtype(d: dtype) -> None:
    """Sets the default floating dtype (float32 or float64)."""
    d = as_dtype(d)
    if not d.is_floating_point:
        raise TypeError(f"only floating-point types are supported as the default type, got {d}")
    _DEFAULT["float"] = d


def _promote(a: dtype | None, b: dtype | None) -> dtype | None:
    if a is None or a is b:
        return b if a is None else a
    if b is None:
        return a
    if a is bfloat16 or b is bfloat16:
        return _promote_bfloat16(b if a is bfloat16 else a)
    if a._category != b._category:
        high, low = (a, b) if a._category > b._category else (b, a)
        # complex meets floating: the wider part wins (float64 + complex64 is complex128, float16 + complex64
        # complex64); integers and bools never widen a complex dtype (int64 + complex64 is complex64)
        return from_numpy_dtype(np.promote_types(high.numpy, low.numpy)) if high.is_complex and \
            low.is_floating_point else high
    if a in _UNPROMOTED or b in _UNPROMOTED:
        raise RuntimeError(f"Promotion for uint16, uint32, uint64 types is not supported, attempted to promote "
                           f"{scalar_type_name(a)} and {scalar_type_name(b)}")
    return from_numpy_dtype(np.promote_types(a.numpy, b.numpy))


def _promote_bfloat16(other: dtype) -> dtype:
    # PyTorch's table: bfloat16 with float16 is float32 (neither holds the other), a wider float or a
    # complex type wins, bools and integers give bfloat16
    if other is float16:
        return float32
    return other if other._category >= 2 else bfloat16


def _complex_with_parts(d: dtype, real: dtype) -> dtype:
    if real is float16:
        raise TypeError(COMPLEX32_MESSAGE)
    return from_numpy_dtype(np.promote_types(d.numpy, real.numpy))


def _combine(higher: dtype | None, lower: dtype | None) -> dtype | None:
    # PyTorch: an operand of a stronger kind (dimensioned tensor > 0-dim tensor > Python scalar)
    # keeps its dtype unless a weaker operand belongs to a higher category; a weaker complex operand
    # makes a floating one complex of the same precision (float32 tensor + complex128 0-dim tensor is
    # complex64), as c10's combine_categories.
    if higher is None:
        return lower
    if lower is None or higher.is_complex:
        return higher
    if lower.is_complex:
        return _complex_with_parts(complex64, higher) if higher.is_floating_point else lower
    if higher.is_floating_point:
        return higher
    if higher is bool_ or lower._category > higher._category:
        return _promote(higher, lower)
    return higher


def scalar_dtype(value: object) -> dtype:
    """The dtype a Python number takes when it meets a tensor."""
    if isinstance(value, (bool, np.bool_)):
        return bool_
    if isinstance(value, (int, np.integer)):
        return int64
    if isinstance(value, (float, np.floating)):
        return _DEFAULT["float"]
    if isinstance(value, (complex, np.complexfloating)):
        return _DEFAULT["float"].to_complex()
    raise TypeError(f"unsupported operand type {type(value).__name__}; expected a Tensor or a number")


def result_type(*operands: object) -> dtype:
    """The dtype of an elementwise op's result, by PyTorch's promotion rules.

    Each operand is a ``(dtype, ndim)`` pair for a tensor, or a Python number.
    """
    dimensioned = zero_dim = scalar = None
    for operand in operands:
        if type(operand) is tuple:
            d, ndim = operand
            if ndim:
                dimensioned = _promote(dimensioned, d)
            else:
                zero_dim = _promote(zero_dim, d)
        else:
            scalar = _promote(scalar, scalar_dtype(operand))
    result = _combine(dimensioned, _combine(zero_dim, scalar))
    assert result is not None, "result_type() needs an operand"
    return result


def can_cast(from_: dtype, to: dtype) -> bool:
    """Whether PyTorch's casting rules allow ``from_`` into ``to`` where an op writes its result into
    a given tensor (``out=``, in-place ops): never to a lower category (floating to integer, or
    anything but bool to bool)."""
    return as_dtype(from_)._category <= as_dtype(to)._category


# PyTorch's CPU kernels compute bfloat16 in float32 and round the result once (sums and matrix products
# accumulate in float32); NumPy's bfloat16 loops from ml_dtypes round at every step of a sum and have no BLAS
# matrix product. So ops compute on float32 copies of bfloat16 operands and round their floating results back
# (``_graph.Op`` does this for every op but views and dtype conversions). An elementwise op rounded once from
# float32 is bit-identical to PyTorch's.
def widen_bfloat16(arrays: list) -> bool | None:
    """Replaces the bfloat16 arrays in ``arrays`` (an op's operands: arrays, Python numbers, None) by float32
    copies; returns None when there were none, else whether float32 results are to be rounded to bfloat16:
    when PyTorch's promotion gives bfloat16 (not with a float16 or a dimensioned float32 operand). Then the
    other operands are rounded to bfloat16 first, as PyTorch casts them (``x + 0.1`` adds 0.10009765625)."""
    bf16 = BFLOAT16_NUMPY[0]  # one NumPy dtype object: ``is`` tells it (a float32 op pays ~0.3 us here)
    for value in arrays:
        if getattr(value, "dtype", None) is bf16:
            break
    else:
        return None
    narrow = result_type(*(a if type(a) in (int, float, complex) else (from_numpy_dtype(a.dtype), a.ndim)
                           for a in arrays if a is not None and type(a) is not bool)) is bfloat16
    for k, value in enumerate(arrays):
        np_dtype = getattr(value, "dtype", None)
        if np_dtype is bf16:
            arrays[k] = value.astype(np.float32)
        elif narrow and (type(value) in (int, float) or (np_dtype is not None and np_dtype.kind == "f")):
            rounded = round_to_bfloat16(np.asarray(value, np.float32))
            arrays[k] = rounded if np_dtype is not None else float(rounded)
    return narrow


def round_to_bfloat16(array: Any) -> Any:
    """A float32 array's values rounded to the nearest bfloat16 (ties to even), kept in float32."""
    return array.astype(BFLOAT16_NUMPY[0]).astype(np.float32)


def narrow_bfloat16(out: Any) -> Any:
    """A result (array, or tuple of arrays) with its float32 arrays rounded to bfloat16."""
    if type(out) is tuple:
        return tuple(narrow_bfloat16(o) for o in out)
    if getattr(out, "dtype", None) == np.float32:
        return out.astype(BFLOAT16_NUMPY[0])
    return out


def kind(np_dtype: Any) -> str:
    """NumPy's kind letter of ``np_dtype`` ('f' floating, 'c' complex, 'i'/'u' integer, 'b' bool), with 'f' for
    bfloat16, whose ml_dtypes NumPy dtype has kind 'V'."""
    found = np_dtype.kind
    return "f" if found == "V" and np_dtype.name == "bfloat16" else found
