"""The stand-in's ``cupy.ndarray``: a NumPy array behind a type that NumPy cannot see through.

Where CuPy refuses (``np.asarray(a)``, a NumPy array in an op, a method CuPy lacks) this refuses with
CuPy's exception and wording; where CuPy copies to the host (``.get()``, ``.item()``, ``float(a)``,
``bool(a)``, printing) this copies too and counts it in ``TRANSFERS``.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ._cuda import Device
from ._names import NDARRAY_ATTRIBUTES

# The stand-in's modules by name ('cupy', 'cupy.linalg', 'cupyx', ...), filled in by _namespace.
MODULES: dict[str, Any] = {}

IMPLICIT_CONVERSION = ("Implicit conversion to a NumPy array is not allowed. "
                       "Please use `.get()` to construct a NumPy array explicitly.")


class TransferCounter:
    """Device-to-host copies since the last ``reset()``, with what made each."""

    def __init__(self) -> None:
        self.reasons: list[str] = []

    @property
    def count(self) -> int:
        return len(self.reasons)

    def reset(self) -> None:
        self.reasons.clear()


TRANSFERS = TransferCounter()


# Functions whose result's size depends on the values: CuPy reads that size back from the GPU.
SIZE_FROM_VALUES = frozenset({"nonzero", "flatnonzero", "argwhere", "unique", "compress", "extract"})


def syncing(name: str, function: Any) -> Any:
    """``function``, each call counted as a transfer (CuPy waits for the GPU to size its result)."""
    def counted(*args: Any, **kwargs: Any) -> Any:
        TRANSFERS.reasons.append(name)
        return function(*args, **kwargs)
    return counted


def to_host(array: ndarray, reason: str) -> np.ndarray:
    """A host copy of ``array``'s data, counted as one device-to-host transfer."""
    TRANSFERS.reasons.append(reason)
    return array._data.copy()


_PLAIN = frozenset({int, float, bool, str, slice, type(None), type(Ellipsis)})


def unwrap(value: Any, host_ok: bool = False) -> Any:
    """The NumPy data behind stand-in arrays in ``value`` (also inside lists and tuples). A NumPy array
    is CuPy's ``TypeError`` unless ``host_ok`` (the few functions that copy host data to the device)."""
    kind = type(value)
    if kind is ndarray:
        return value._data
    if kind is tuple or kind is list:
        return kind([item if type(item) in _PLAIN else unwrap(item, host_ok) for item in value])
    if isinstance(value, np.ndarray):
        if host_ok:
            return value.copy()
        raise TypeError(f"Unsupported type {type(value)}")
    return value


def wrap(value: Any) -> Any:
    """NumPy results as stand-in arrays: CuPy returns 0-d device arrays where NumPy returns scalars."""
    kind = type(value)
    if kind is np.ndarray:
        return ndarray._of(value)
    if isinstance(value, np.generic):
        return ndarray._of(np.asarray(value))
    if kind is tuple or kind is list:
        return kind([wrap(item) for item in value])
    if isinstance(value, tuple):  # NumPy's named results (SVDResult, EighResult, ...): CuPy's are plain tuples
        return tuple(wrap(item) for item in value)
    return value


def run_on_device(function: Any, args: tuple, kwargs: dict, host_ok: bool = False) -> Any:
    """``function`` (a NumPy callable) on the data of stand-in arguments, its results wrapped. GPU
    kernels never warn, so NumPy's floating-point warnings are silenced: CuPy has none."""
    args = unwrap(args, host_ok)
    if kwargs:
        kwargs = {key: unwrap(value, host_ok) for key, value in kwargs.items()}
    with np.errstate(all="ignore"):
        return wrap(function(*args, **kwargs))


def _index_key(key: Any) -> Any:
    """An index with stand-in arrays unwrapped (NumPy arrays and lists are copied to the device, as
    CuPy does), plus an Ellipsis so that an integer index gives a 0-d view, as in CuPy, not a scalar."""
    key = unwrap(key if isinstance(key, tuple) else (key,), host_ok=True)
    if any(part is Ellipsis for part in key):
        return key
    return key + (Ellipsis,)


def _operators(ufunc_name: str) -> tuple:
    """``a op b``, ``b op a`` and ``a op= b`` for the ufunc ``ufunc_name``, as CuPy defines them."""
    def forward(self: ndarray, other: Any) -> Any:
        return _ufunc(ufunc_name)(self, other)

    def reflected(self: ndarray, other: Any) -> Any:
        return _ufunc(ufunc_name)(other, self)

    def inplace(self: ndarray, other: Any) -> Any:
        return _ufunc(ufunc_name)(self, other, out=self)

    return forward, reflected, inplace


def _binary(ufunc_name: str) -> Any:
    return _operators(ufunc_name)[0]


def _unary(ufunc_name: str) -> Any:
    def operator(self: ndarray) -> Any:
        return _ufunc(ufunc_name)(self)
    return operator


def _ufunc(name: str) -> Any:
    return getattr(MODULES["cupy"], name)


def _lookup(numpy_module: str, name: str) -> Any:
    """The stand-in for NumPy's ``numpy_module.name``, or None where CuPy has none."""
    if not numpy_module.startswith("numpy"):
        return None
    value = getattr(MODULES.get("cupy" + numpy_module[len("numpy"):]), name, None)
    return value if callable(value) and not getattr(value, "not_emulated", False) else None


class ndarray:  # noqa: N801 -- CuPy's class name
    """``cupy.ndarray``: ``ndarray(shape, dtype=float)`` allocates uninitialised device memory."""

    __array_priority__ = 100
    __slots__ = ("_data", "__weakref__")

    def __init__(self, shape: Any, dtype: Any = float) -> None:
        self._data = np.empty(shape, dtype)

    @classmethod
    def _of(cls, data: np.ndarray) -> ndarray:
        array = object.__new__(cls)
        array._data = data
        return array

    # -- refused or counted conversions to the host ---------------------------------------------
    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        raise TypeError(IMPLICIT_CONVERSION)

    def get(self, stream: Any = None, order: str = "C", out: np.ndarray | None = None,
            blocking: bool = True) -> np.ndarray:
        host = to_host(self, "get")
        if out is None:
            return np.asarray(host, order=order)
        out[...] = host
        return out

    def set(self, arr: np.ndarray, stream: Any = None) -> None:
        if not isinstance(arr, np.ndarray):
            raise TypeError(f"Only numpy.ndarray can be set to cupy.ndarray: {type(arr)}")
        if arr.shape != self.shape or arr.dtype != self.dtype:
            raise ValueError("Shape or dtype mismatch")
        self._data[...] = arr

    def item(self) -> Any:
        return to_host(self, "item").item()

    def tolist(self) -> Any:
        return to_host(self, "tolist").tolist()

    def tobytes(self, order: str = "C") -> bytes:
        return to_host(self, "tobytes").tobytes(order)

    def __bool__(self) -> bool:
        return bool(to_host(self, "bool"))

    def __float__(self) -> float:
        return float(to_host(self, "float"))

    def __int__(self) -> int:
        return int(to_host(self, "int"))

    def __complex__(self) -> complex:
        return complex(to_host(self, "complex"))

    def __repr__(self) -> str:
        return repr(to_host(self, "repr"))

    def __str__(self) -> str:
        return str(to_host(self, "str"))

    def __format__(self, spec: str) -> str:
        return format(to_host(self, "format"), spec)

    # -- DLPack: CuPy exports device memory, (2, index) = kDLCUDA --------------------------------
    def __dlpack_device__(self) -> tuple:
        return (2, 0)

    def __dlpack__(self, *, stream: Any = None, max_version: Any = None, dl_device: Any = None,
                   copy: Any = None) -> Any:
        """NumPy's capsule of the data: only the stand-in's ``cupy.from_dlpack`` reads it."""
        return self._data.__dlpack__(max_version=(1, 0))  # the versioned capsule says it is writable

    # -- NumPy protocols: dispatch to the stand-in's CuPy namespace, as CuPy does -----------------
    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        fake = _lookup("numpy", ufunc.__name__)
        if fake is None:
            return NotImplemented
        return getattr(fake, method)(*inputs, **kwargs)

    def __array_function__(self, func: Any, types: tuple, args: tuple, kwargs: dict) -> Any:
        fake = _lookup(func.__module__, func.__name__)
        if fake is None or not all(issubclass(t, (ndarray, np.ndarray)) for t in types):
            return NotImplemented
        return fake(*args, **kwargs)

    # -- attributes that CuPy's ndarray has ------------------------------------------------------
    @property
    def device(self) -> Device:
        return Device(0)

    @property
    def shape(self) -> tuple:
        return self._data.shape

    @property
    def __cuda_array_interface__(self) -> dict:
        """CuPy's description of the device memory; the host array's addresses stand in for it."""
        interface = self._data.__array_interface__
        return {"shape": self.shape, "typestr": interface["typestr"], "data": interface["data"],
                "strides": interface["strides"], "version": 3}

    @shape.setter
    def shape(self, value: tuple) -> None:
        self._data.shape = value

    @property
    def dtype(self) -> np.dtype:
        return self._data.dtype

    @property
    def ndim(self) -> int:
        return self._data.ndim

    @property
    def size(self) -> int:
        return self._data.size

    def __getattr__(self, name: str) -> Any:
        if name not in NDARRAY_ATTRIBUTES:
            raise AttributeError(f"'cupy.ndarray' object has no attribute '{name}'")
        if name.startswith("scatter_"):  # scatter_add / _max / _min: cupyx's functions as methods
            method = getattr(MODULES["cupyx"], name)
            return lambda *args: method(self, *args)
        value = getattr(self._data, name)
        if not callable(value):
            return wrap(value)

        def method(*args: Any, **kwargs: Any) -> Any:
            return run_on_device(value, args, kwargs)
        return syncing(name, method) if name in SIZE_FROM_VALUES else method

    def __len__(self) -> int:
        return len(self._data)

    def __iter__(self) -> Any:
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(len(self)))

    def diagonal(self, offset: int = 0, axis1: int = 0, axis2: int = 1) -> ndarray:
        return MODULES["cupy"].diagonal(self, offset, axis1, axis2)

    def __getitem__(self, key: Any) -> Any:
        key = _index_key(key)
        if any(isinstance(part, np.ndarray) and part.dtype == bool for part in key):
            TRANSFERS.reasons.append("boolean index")  # the result's size: CuPy reads it back from the GPU
        return ndarray._of(self._data[key])

    def __setitem__(self, key: Any, value: Any) -> None:
        self._data[_index_key(key)] = unwrap(value, host_ok=True)

    def __copy__(self) -> ndarray:
        return ndarray._of(self._data.copy())

    def __deepcopy__(self, memo: dict) -> ndarray:
        return ndarray._of(self._data.copy())

    def __reduce__(self) -> tuple:
        return ndarray._of, (self._data.copy(),)

    __add__, __radd__, __iadd__ = _operators("add")
    __sub__, __rsub__, __isub__ = _operators("subtract")
    __mul__, __rmul__, __imul__ = _operators("multiply")
    __truediv__, __rtruediv__, __itruediv__ = _operators("true_divide")
    __floordiv__, __rfloordiv__, __ifloordiv__ = _operators("floor_divide")
    __mod__, __rmod__, __imod__ = _operators("remainder")
    __pow__, __rpow__, __ipow__ = _operators("power")
    __matmul__, __rmatmul__, __imatmul__ = _operators("matmul")
    __and__, __rand__, __iand__ = _operators("bitwise_and")
    __or__, __ror__, __ior__ = _operators("bitwise_or")
    __xor__, __rxor__, __ixor__ = _operators("bitwise_xor")
    __lshift__, __rlshift__, __ilshift__ = _operators("left_shift")
    __rshift__, __rrshift__, __irshift__ = _operators("right_shift")
    __eq__ = _binary("equal")
    __ne__ = _binary("not_equal")
    __lt__ = _binary("less")
    __le__ = _binary("less_equal")
    __gt__ = _binary("greater")
    __ge__ = _binary("greater_equal")
    __neg__ = _unary("negative")
    __pos__ = _unary("positive")
    __abs__ = _unary("absolute")
    __invert__ = _unary("invert")
    __hash__ = None

    def __divmod__(self, other: Any) -> Any:
        return _ufunc("divmod")(self, other)

    def __rdivmod__(self, other: Any) -> Any:
        return _ufunc("divmod")(other, self)


ndarray.__module__ = "cupy"
