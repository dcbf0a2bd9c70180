"""The stand-in's modules ``cupy``, ``cupy.linalg``, ``cupy.random``, ``cupyx``, ... built from the names
that CuPy itself has (``cupy_names.txt``). A name CuPy has is NumPy's function run on the stand-in's
arrays, or hand-written below where CuPy differs; a name CuPy lacks is missing, so code that calls a
NumPy-only function fails here as it would on a GPU.
"""
from __future__ import annotations

import importlib
import math
import types
from typing import Any

import numpy as np

from . import _cuda
from ._array import MODULES, SIZE_FROM_VALUES, ndarray, run_on_device, syncing, unwrap, wrap
from ._names import NAMES, RANDOM_STATE_METHODS, UFUNC_ATTRIBUTES

# The NumPy module whose functions stand in for each CuPy module's.
NUMPY_COUNTERPARTS = {"cupy": "numpy", "cupy.linalg": "numpy.linalg", "cupy.fft": "numpy.fft",
                      "cupy.lib.stride_tricks": "numpy.lib.stride_tricks"}


class NotEmulated:
    """A name that CuPy has but the stand-in does not implement: using it fails loudly."""

    not_emulated = True

    def __init__(self, qualified: str) -> None:
        self.qualified = qualified

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{self.qualified} exists in CuPy but the test stand-in does not emulate it; "
                                  "add it to tests/fake_cupy")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        self()


def device_function(function: Any, host_ok: bool = False) -> Any:
    """NumPy's ``function`` on device arrays; NumPy arrays in the arguments are CuPy's ``TypeError``."""
    def on_device(*args: Any, **kwargs: Any) -> Any:
        return run_on_device(function, args, kwargs, host_ok)
    on_device.__name__ = getattr(function, "__name__", "function")
    on_device.__doc__ = getattr(function, "__doc__", None)
    return on_device


class ufunc:  # noqa: N801 -- CuPy's class name
    """``cupy.ufunc``: a NumPy ufunc on device arrays, with the methods CuPy's ufuncs have."""

    def __init__(self, numpy_ufunc: np.ufunc) -> None:
        self._ufunc = numpy_ufunc
        self.__name__ = numpy_ufunc.__name__

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _into_out(self._ufunc, args, kwargs)

    def __getattr__(self, name: str) -> Any:
        if name not in UFUNC_ATTRIBUTES:
            raise AttributeError(f"'cupy.ufunc' object has no attribute '{name}'")
        value = getattr(self._ufunc, name)
        return device_function(value) if callable(value) else value

    def __repr__(self) -> str:
        return f"<ufunc '{self.__name__}'>"


def _into_out(function: Any, args: tuple, kwargs: dict) -> Any:
    """``function(*args, **kwargs)``; with ``out=`` a device array, that same array object is returned."""
    out = kwargs.get("out")
    result = run_on_device(function, args, kwargs)
    if isinstance(out, tuple) and len(out) == 1:
        out = out[0]
    return out if isinstance(out, ndarray) else result


# dtype kinds CuPy has no arrays of: objects, strings, raw bytes, dates and times.
UNSUPPORTED_KINDS = frozenset("OUSVMm")


def _on_device(data: np.ndarray) -> ndarray:
    """``data`` copied to the device, refused as CuPy refuses the dtypes it has no arrays of."""
    if data.dtype.kind in UNSUPPORTED_KINDS or data.dtype == np.longdouble:
        raise ValueError(f"Unsupported dtype {data.dtype}")
    return ndarray._of(data)


def asarray(a: Any, dtype: Any = None, order: Any = None, *, blocking: bool = False) -> Any:
    """``cupy.asarray``: ``a`` itself when already a device array of ``dtype``; host data is copied."""
    if isinstance(a, ndarray) and (dtype is None or np.dtype(dtype) == a.dtype):
        return a
    return _on_device(np.array(unwrap(a, host_ok=True), dtype=dtype, order=order or "K"))


def array(obj: Any, dtype: Any = None, copy: bool = True, order: str = "K", subok: bool = False,
          ndmin: int = 0, *, blocking: bool = False) -> Any:
    """``cupy.array``: host or device data copied to the device."""
    if not copy and isinstance(obj, ndarray):
        return asarray(obj, dtype)
    return _on_device(np.array(unwrap(obj, host_ok=True), dtype=dtype, order=order, ndmin=ndmin))


def asnumpy(a: Any, stream: Any = None, order: str = "C", out: np.ndarray | None = None,
            blocking: bool = True) -> np.ndarray:
    """``cupy.asnumpy``: a host copy of a device array (counted); host data passes through."""
    if isinstance(a, ndarray):
        return a.get(order=order, out=out)
    return np.asarray(a, order=order)


def get_array_module(*args: Any) -> types.ModuleType:
    return MODULES["cupy"] if any(isinstance(arg, ndarray) for arg in args) else np


class _HostCapsule:
    """The stand-in's DLPack capsule (NumPy's, of the data) shown to ``np.from_dlpack`` as host memory."""

    def __init__(self, capsule: Any) -> None:
        self._capsule = capsule

    def __dlpack__(self, **options: Any) -> Any:
        return self._capsule

    def __dlpack_device__(self) -> tuple:
        return (1, 0)


def from_dlpack(array: Any) -> Any:
    """``cupy.from_dlpack``: a device array sharing the memory of ``array``, which must be CUDA memory."""
    kind, _ = array.__dlpack_device__()
    if kind != 2:
        raise RuntimeError(f"CuPy: unsupported DLPack device type {kind}")
    return ndarray._of(np.from_dlpack(_HostCapsule(array.__dlpack__())))


def as_strided(x: Any, shape: Any = None, strides: Any = None) -> Any:
    """``cupy.lib.stride_tricks.as_strided``: no ``subok`` / ``writeable`` arguments, unlike NumPy's."""
    if not isinstance(x, ndarray):
        raise TypeError(f"Unsupported type {type(x)}")
    return ndarray._of(np.lib.stride_tricks.as_strided(x._data, shape, strides))


# atomicAdd on a GPU exists for these dtypes only (cupy/_core/_routines_indexing.pyx).
SCATTER_ADD_DTYPES = tuple(np.dtype(t) for t in ("int32", "float16", "float32", "float64", "uint32", "uint64"))


def scatter_add(a: ndarray, slices: Any, value: Any) -> None:
    """``cupyx.scatter_add``: ``a[slices] += value`` unbuffered, so repeated indices accumulate."""
    if not isinstance(a, ndarray):
        raise TypeError(f"Unsupported type {type(a)}")
    if a.dtype not in SCATTER_ADD_DTYPES:
        raise TypeError("scatter_add only supports int32, float16, float32, float64, uint32, uint64, as data type")
    np.add.at(a._data, unwrap(slices, host_ok=True), unwrap(value))


def _scatter_extreme(reduction: np.ufunc) -> Any:
    def scatter(a: ndarray, slices: Any, value: Any) -> None:
        reduction.at(a._data, unwrap(slices, host_ok=True), unwrap(value))
    return scatter


def erf(x: Any) -> Any:
    """``cupyx.scipy.special.erf`` (elementwise, in ``x``'s floating dtype)."""
    data = unwrap(x)
    dtype = data.dtype if data.dtype.kind == "f" else np.float64
    return wrap(np.vectorize(math.erf, otypes=[dtype])(data))


def diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    """``cupy.diagonal``: a writable view, as CuPy's is (NumPy's is read-only)."""
    if not isinstance(a, ndarray):
        raise TypeError(f"Unsupported type {type(a)}")
    view = np.diagonal(a._data, offset, axis1, axis2)
    view.flags.writeable = a._data.flags.writeable
    return ndarray._of(view)


def _special_function(reference: str, module: str = "tinyframe.ops.unary") -> Any:
    """A ``cupyx.scipy.special`` function of its array arguments: tinyframe's NumPy ``reference`` on their
    data in float64, in their floating dtype. Without SciPy here, the references are tinyframe's own CPU
    code (tested on its own against PyTorch's numbers): the stand-in checks where data lives, not values."""
    def special(*arrays: Any) -> Any:
        compute = getattr(importlib.import_module(module), reference)
        data = [unwrap(x) if isinstance(x, ndarray) else np.asarray(x) for x in arrays]
        # Python numbers are weak, as in CuPy: a float32 array with a float stays float32.
        dtype = np.result_type(*(unwrap(x).dtype if unwrap(x).dtype.kind == "f" else np.float64
                                 for x in arrays if isinstance(x, ndarray)))
        with np.errstate(all="ignore"):
            return wrap(np.asarray(compute(*(d.astype(np.float64) for d in data))).astype(dtype))
    return special


def polygamma(n: Any, x: Any) -> Any:
    """``cupyx.scipy.special.polygamma`` (``n`` a Python int, as tinyframe passes it)."""
    kernel = importlib.import_module("tinyframe.ops.unary")._polygamma(int(n))
    data = unwrap(x)
    with np.errstate(all="ignore"):
        return wrap(np.asarray(kernel(data.astype(np.float64))).astype(data.dtype))


_SPECIAL = "tinyframe.ops.special"


class RandomState:
    """``cupy.random.RandomState``: NumPy's Mersenne Twister behind CuPy's methods, which take
    ``dtype=`` and return device arrays. Its numbers are not CuPy's (nor are they on a GPU)."""

    def __init__(self, seed: int | None = None) -> None:
        self._state = np.random.RandomState(np.random.MT19937(np.random.SeedSequence(seed)))

    def __getattr__(self, name: str) -> Any:
        if name not in RANDOM_STATE_METHODS:
            raise AttributeError(f"'RandomState' object has no attribute '{name}'")
        method = getattr(self._state, name)

        def sample(*args: Any, dtype: Any = None, **kwargs: Any) -> Any:
            if name == "randint" and dtype is not None:
                kwargs["dtype"] = dtype
            result = run_on_device(method, args, kwargs)
            return result if dtype is None or name == "randint" else result.astype(dtype, copy=False)
        return sample


_GLOBAL_STATE: list[RandomState] = []


def get_random_state() -> RandomState:
    if not _GLOBAL_STATE:
        _GLOBAL_STATE.append(RandomState())
    return _GLOBAL_STATE[0]


def _random_function(name: str) -> Any:
    """A ``cupy.random`` module function: the method of the global ``RandomState``."""
    def sample(*args: Any, **kwargs: Any) -> Any:
        return getattr(get_random_state(), name)(*args, **kwargs)
    return sample


HAND_WRITTEN = {
    "cupy": {"ndarray": ndarray, "ufunc": ufunc, "asarray": asarray, "array": array, "asanyarray": asarray,
             "asnumpy": asnumpy, "get_array_module": get_array_module, "cuda": _cuda.MODULE,
             "is_available": lambda: True, "diagonal": diagonal,
             "from_dlpack": from_dlpack},
    "cupy.lib.stride_tricks": {"as_strided": as_strided},
    "cupy.random": {"RandomState": RandomState, "get_random_state": get_random_state},
    "cupyx": {"scatter_add": scatter_add, "scatter_max": _scatter_extreme(np.maximum),
              "scatter_min": _scatter_extreme(np.minimum)},
    "cupyx.scipy.special": {"erf": erf, "gammaln": _special_function("_lgamma"),
                            "digamma": _special_function("_digamma"), "erfinv": _special_function("_erfinv"),
                            "polygamma": polygamma, "erfc": _special_function("_erfc"),
                            "zeta": _special_function("_zeta"), "i0": _special_function("_i0", _SPECIAL),
                            "i0e": _special_function("_i0e", _SPECIAL), "i1": _special_function("_i1", _SPECIAL),
                            "i1e": _special_function("_i1e", _SPECIAL), "ndtri": _special_function("_ndtri", _SPECIAL),
                            "log_ndtr": _special_function("_log_ndtr", _SPECIAL),
                            "erfcx": _special_function("_erfcx", _SPECIAL),
                            "gammainc": _special_function("_gammainc", _SPECIAL),
                            "gammaincc": _special_function("_gammaincc", _SPECIAL)},
}


def _stand_in(owner: str, name: str, numpy_module: types.ModuleType | None) -> Any:
    """What the stand-in's ``owner.name`` is."""
    if name in HAND_WRITTEN.get(owner, {}):
        return HAND_WRITTEN[owner][name]
    if f"{owner}.{name}" in NAMES:
        return None  # a submodule, linked once all modules exist
    if owner == "cupy.random" and name in RANDOM_STATE_METHODS:
        return _random_function(name)
    value = getattr(numpy_module, name, None) if numpy_module is not None else None
    if isinstance(value, np.ufunc):
        return ufunc(value)
    if owner == "cupy" and value is not None and (isinstance(value, type) or not callable(value)):
        return value  # dtypes, scalar types and constants are NumPy's own objects in CuPy too
    if callable(value) and not isinstance(value, type):
        function = device_function(value)
        return syncing(name, function) if name in SIZE_FROM_VALUES else function
    return NotEmulated(f"{owner}.{name}")


def _build() -> dict[str, types.ModuleType]:
    modules = {}
    for owner in NAMES:
        if owner in ("cupy.ndarray", "cupy.ufunc", "cupy.random.RandomState"):
            continue
        counterpart = NUMPY_COUNTERPARTS.get(owner)
        numpy_module = importlib.import_module(counterpart) if counterpart else None
        module = types.ModuleType(owner, f"The test stand-in for {owner} (tests/fake_cupy).")
        for name in NAMES[owner]:
            setattr(module, name, _stand_in(owner, name, numpy_module))
        modules[owner] = module
    for qualified in ("cupy.lib", "cupyx.scipy"):  # parents that list no names of their own
        modules[qualified] = types.ModuleType(qualified)
    modules["cupy.cuda"] = _cuda.MODULE
    for qualified, module in modules.items():  # each submodule an attribute of its parent
        parent, _, name = qualified.rpartition(".")
        if parent in modules:
            setattr(modules[parent], name, module)
    modules["cupy.cuda.runtime"] = _cuda.MODULE.runtime
    return modules


MODULES.update(_build())
