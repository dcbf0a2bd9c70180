"""Factory functions: ``tensor``, ``zeros``, ``arange``, ``randn``, ... (PyTorch's signatures)."""
from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _graph, dtypes, random
from .device import array_module, array_module_of, as_device, check_dtype_on, device_of, meta_array, move_array
from .memory_format import channels_last_order, contiguous_format, iteration_order, preserve_format
from .random import Generator, generator_for

if TYPE_CHECKING:
    from .tensor import Tensor

__all__ = [
    "tensor", "as_tensor", "from_numpy", "zeros", "ones", "full", "empty", "arange", "linspace",
    "logspace", "eye", "zeros_like", "ones_like", "full_like", "empty_like", "rand", "randn",
    "randint", "rand_like", "randn_like", "randint_like", "randperm", "hann_window", "hamming_window",
    "blackman_window", "bartlett_window", "kaiser_window",
]


def _finish(array: Any, dtype: Any, device: Any, requires_grad: bool) -> Tensor:
    """Casts and moves ``array``, then wraps it as a leaf."""
    if dtype is not None:
        target = dtypes.as_dtype(dtype).numpy
        if array.dtype != target:
            array = array.astype(target)
    array = move_array(array, as_device(device))
    out = _graph.wrap(array)
    if requires_grad:
        out.requires_grad = True
    return out


def _infer_array(data: Any, dtype: Any = None) -> np.ndarray:
    """Python data as an array with PyTorch's dtype inference (floats become the default dtype).

    With an explicit floating ``dtype``, Python floats are cast once to it, never through float32.
    """
    if isinstance(data, np.ndarray):
        dtypes.from_numpy_dtype(data.dtype)
        return data
    if isinstance(data, np.generic):
        return np.asarray(data)
    try:
        array = np.array(data)
    except ValueError as exc:
        raise _ragged_error(data) or ValueError(f"could not build a tensor from the data: {exc}") from None
    if array.dtype == object:
        raise TypeError("could not infer dtype: the data is ragged or holds values that are not numbers")
    # NumPy items (``np.float64(1.0)``, ``np.int32(2)``) set PyTorch's dtype, which Python numbers alone
    # would not; a bool result holds bools only.
    # (A flat list of Python numbers, the common case, is seen in one pass here.)
    if (dtype is None and isinstance(data, (list, tuple)) and array.dtype.kind in "fiu"
            and not set(map(type, data)) <= _PYTHON_NUMBERS):
        numpy_types: set[np.dtype] = set()
        python_types: set[type] = set()
        _item_dtypes(data, numpy_types, python_types)
        if numpy_types:
            return array.astype(_sequence_dtype(numpy_types, python_types), copy=False)
    if array.dtype.kind == "f":
        target = dtypes.get_default_dtype() if dtype is None else dtypes.as_dtype(dtype)
        return array.astype(target.numpy, copy=False)
    if array.dtype.kind == "c":  # Python complex numbers: the default float dtype's complex dtype
        target = dtypes.get_default_dtype().to_complex() if dtype is None else dtypes.as_dtype(dtype)
        return array.astype(target.numpy, copy=False)
    if array.dtype.kind in "iu":
        if array.dtype == np.uint64 and array.size and array.max() > _INT64_MAX:  # PyTorch cannot hold these
            raise ValueError("Overflow when unpacking long long")
        return array.astype(np.int64, copy=False)
    if array.dtype.kind == "b":
        return array
    if array.dtype.kind == "U":
        raise TypeError(f"new(): invalid data type '{type(data).__name__}' (strings are not numbers)")
    return array.astype(np.float64)


_PYTHON_NUMBERS = frozenset((float, int, bool, complex))
_INT64_MAX = 2**63 - 1


def _item_dtypes(items: Sequence, numpy_types: set[np.dtype], python_types: set[type]) -> None:
    """Collects the dtypes of the NumPy scalars and arrays among the items of the nested sequence
    ``items`` (which PyTorch's inference takes as they are: ``[np.float64(1.0)]`` is float64) and the
    Python number types there; a 0-d array item raises PyTorch's TypeError."""
    kinds = set(map(type, items))
    if kinds <= _PYTHON_NUMBERS:  # the common case, a list of Python numbers, in one pass
        python_types |= kinds
        return
    for kind in kinds:
        if kind is list or kind is tuple:
            for item in items:
                if type(item) is kind:
                    _item_dtypes(item, numpy_types, python_types)
        elif issubclass(kind, np.generic):
            numpy_types.add(np.dtype(kind))
        elif issubclass(kind, np.ndarray):
            arrays = [item for item in items if type(item) is kind]
            if any(a.ndim == 0 for a in arrays):
                raise TypeError("len() of unsized object")
            numpy_types.update(a.dtype for a in arrays)
        else:
            python_types.add(kind)


def _sequence_dtype(numpy_types: set[np.dtype], python_types: set[type]) -> np.dtype:
    """PyTorch's dtype for a sequence holding NumPy items: the promotion of their dtypes and of the
    Python numbers' (floats: the default dtype, ints: int64, bools: bool), as ``promote_types``."""
    defaults = {float: dtypes.get_default_dtype(), int: dtypes.int64, bool: dtypes.bool_,
                complex: dtypes.get_default_dtype().to_complex()}
    present = {defaults[kind] for kind in python_types if kind in defaults}
    operands = [(d, 1) for d in present | {dtypes.from_numpy_dtype(t) for t in numpy_types}]
    return dtypes.result_type(*operands).numpy


def _ragged_error(data: Any) -> Exception | None:
    """PyTorch's error for nested sequences that do not form an array: the shape is read along the
    first elements, then the first element that breaks it is named."""
    shape = []
    first = data
    while isinstance(first, (list, tuple)):
        shape.append(len(first))
        if not first:
            break
        first = first[0]
    pending = [(data, 0)]
    while pending:
        value, dim = pending.pop()
        is_sequence = isinstance(value, (list, tuple))
        if dim == len(shape):
            if is_sequence:
                return TypeError(f"must be real number, not {type(value).__name__}")
            continue
        if not is_sequence:
            return TypeError("not a sequence")
        if len(value) != shape[dim]:
            return ValueError(f"expected sequence of length {shape[dim]} at dim {dim} (got {len(value)})")
        pending.extend((item, dim + 1) for item in reversed(value))
    return None


def tensor(data: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """A new leaf tensor holding a copy of ``data`` (a number, a nested sequence, an array or a Tensor).

    Floats give ``float32`` (the default dtype), integers ``int64``, booleans ``bool``; NumPy arrays
    keep their dtype. Without ``device``, a Tensor or CUDA array stays on its device and other data goes
    to the default device.
    """
    if isinstance(data, _graph.Tensor) or _is_device_array(data):
        array = data._data if isinstance(data, _graph.Tensor) else data
        array, device = array.copy(), device or device_of(array)
    else:
        array = np.array(_infer_array(data, dtype), copy=True)
    return _finish(array, dtype, device, requires_grad)


def as_tensor(data: Any, dtype: Any = None, device: Any = None) -> Tensor:
    """Like ``tensor`` but shares the memory of a Tensor or NumPy array when it can."""
    if isinstance(data, _graph.Tensor):
        return data.to(device=device, dtype=dtype) if (dtype or device) else data
    if _is_device_array(data):
        return _finish(data, dtype, device or device_of(data), False)
    return _finish(_infer_array(data, dtype), dtype, device, False)


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing memory with the NumPy array ``array``."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    dtypes.from_numpy_dtype(array.dtype)
    if not array.flags.writeable and not _WARNED_NOT_WRITABLE:
        _WARNED_NOT_WRITABLE.append(True)
        warnings.warn(_NOT_WRITABLE, UserWarning, stacklevel=2)
    return _graph.wrap(array)


# PyTorch's warning, given once a program, as PyTorch gives it: it then writes into such an array's memory.
_NOT_WRITABLE = ("The given NumPy array is not writable, and PyTorch does not support non-writable tensors. This "
                 "means writing to this tensor will result in undefined behavior. You may want to copy the array "
                 "to protect its data or make it writable before converting it to a tensor. This type of warning "
                 "will be suppressed for the rest of this program.")
_WARNED_NOT_WRITABLE: list = []


def _is_device_array(data: Any) -> bool:
    return type(data).__module__.startswith("cupy")


def _size(size: tuple, keyword: Any = None) -> tuple:
    """The shape from ``f(2, 3)``, ``f((2, 3))`` or ``f(size=(2, 3))``."""
    if keyword is not None:
        if size:
            raise TypeError("size given both positionally and as size=")
        size = (keyword,)
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    # A one-element integer tensor counts as its int, as in PyTorch (zeros(lengths.max())).
    size = tuple(n.__index__() if isinstance(n, _graph.Tensor) else n for n in size)
    for n in size:
        if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
            raise TypeError(f"size must be a sequence of ints, got {type(n).__name__} ({n!r})")
        if n < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {n}: {list(size)}")
    return tuple(int(n) for n in size)


def _module_and_dtype(dtype: Any, device: Any, default: dtypes.dtype | None = None) -> tuple:
    dev = as_device(device)
    chosen = dtypes.as_dtype(dtype) if dtype is not None else (default or dtypes.get_default_dtype())
    check_dtype_on(chosen.numpy, dev)
    return array_module(dev), chosen.numpy, dev


def _filled(size: tuple, value: Any, dtype: Any, device: Any, requires_grad: bool) -> Tensor:
    xp, np_dtype, dev = _module_and_dtype(dtype, device)
    nbytes = math.prod(size) * np_dtype.itemsize
    if nbytes > _MAX_STORAGE_BYTES:
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)}: {nbytes} bytes is more "
                           "than any storage can hold")
    if dev.type == "meta":  # (no memory: the point of the meta device)
        return _finish(meta_array(size, np_dtype), None, dev, requires_grad)
    try:
        array = xp.full(size, dtypes.storable(value, np_dtype), dtype=np_dtype)
    except MemoryError as exc:
        raise RuntimeError(f"{dev}: can't allocate memory: you tried to allocate {nbytes} bytes (sizes={list(size)}, "
                           f"dtype={dtypes.from_numpy_dtype(np_dtype)})") from exc
    return _finish(array, None, dev, requires_grad)


_MAX_STORAGE_BYTES = 2**63 - 1  # PyTorch counts a storage's bytes in int64


def zeros(*shape: Any, size: Any = None, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """A tensor of zeros of shape ``size``."""
    return _filled(_size(shape, size), 0, dtype, device, requires_grad)


def ones(*shape: Any, size: Any = None, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """A tensor of ones of shape ``size``."""
    return _filled(_size(shape, size), 1, dtype, device, requires_grad)


def empty(*shape: Any, size: Any = None, dtype: Any = None, device: Any = None, requires_grad: bool = False,
          memory_format: Any = None) -> Tensor:
    """An uninitialised tensor of shape ``size`` (zero-filled here), laid out in ``memory_format``
    (``contiguous_format`` by default, or ``channels_last`` / ``channels_last_3d``)."""
    size = _size(shape, size)
    if memory_format is None or memory_format is contiguous_format:
        return _filled(size, 0, dtype, device, requires_grad)
    if memory_format is preserve_format:
        raise RuntimeError("unsupported memory format Preserve")
    return _in_order(size, channels_last_order(memory_format, len(size)),
                     lambda shape: _filled(shape, 0, dtype, device, requires_grad))


def empty_strided(size: Sequence[int], stride: Sequence[int], *, dtype: Any = None, layout: Any = None,
                  device: Any = None, requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """An uninitialised tensor (zero-filled here) of shape ``size`` laid out with ``stride`` (in elements)
    over a storage just large enough for it."""
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise RuntimeError(f"dimensionality of sizes ({len(size)}) must match dimensionality of strides "
                           f"({len(stride)})")
    extent = 1 + sum((n - 1) * s for n, s in zip(size, stride)) if 0 not in size else 0
    storage = _filled((extent,), 0, dtype, device, False)._data
    array = array_module_of(storage).lib.stride_tricks.as_strided(
        storage, size, tuple(s * storage.itemsize for s in stride))
    return _finish(array, None, device_of(storage), requires_grad)


def full(size: Sequence[int], fill_value: Any, *, dtype: Any = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    """A tensor of shape ``size`` filled with ``fill_value``; the dtype follows the value."""
    fill_value = _number(fill_value)
    if dtype is None:
        dtype = dtypes.result_type(fill_value)
    return _filled(_size((tuple(size),)), fill_value, dtype, device, requires_grad)


def _like(input: Tensor, dtype: Any, device: Any) -> tuple:
    return input.shape, dtype or input.dtype, device or input.device


def _laid_out_like(input: Tensor, make: Callable[[tuple], Tensor], memory_format: Any = None) -> Tensor:
    """``make(shape)``'s tensor of ``input``'s shape, laid out in ``memory_format``: by default
    (``preserve_format``) as ``input`` is (see ``format_order``)."""
    return _in_order(tuple(input.shape), format_order(input._data, memory_format), make)


def _in_order(shape: tuple, order: list | None, make: Callable[[tuple], Tensor]) -> Tensor:
    """``make``'s tensor of ``shape`` with its dimensions laid out from the outermost in memory as ``order``
    says (None: row-major): made in that order, then its dimensions put back."""
    if order is None:
        return make(shape)
    out = make(tuple(shape[d] for d in order))
    out._data = out._data.transpose(tuple(np.argsort(order)))
    return out


def format_order(data: Any, memory_format: Any) -> list | None:
    """The dimension order (outermost first, None for row-major) in which ``memory_format`` lays out a copy
    of ``data``: ``data``'s own for ``preserve_format`` (or None, the default; see ``preserved_order``),
    the channels innermost for ``channels_last`` (rank 4) and ``channels_last_3d`` (rank 5)."""
    if memory_format is None or memory_format is preserve_format:
        return preserved_order(data)
    if memory_format is contiguous_format:
        return None
    return channels_last_order(memory_format, data.ndim)


def preserved_order(data: Any) -> list | None:
    """The dimensions of ``data`` from the outermost in memory to the innermost, the order in which
    PyTorch's ``preserve_format`` lays out a tensor made like it (``empty_like``, ``clone``); None for
    row-major order. As PyTorch's ``infer_dense_strides``: by decreasing stride, the larger size outer
    between equal strides, and a dimension of stride 0 (an expanded one) left where it is."""
    return iteration_order((data,), data.shape)


def zeros_like(input: Tensor, *, dtype: Any = None, device: Any = None, requires_grad: bool = False,
               memory_format: Any = None) -> Tensor:
    """Zeros of ``input``'s shape (and dtype, device), laid out as ``input`` is (see ``preserved_order``)."""
    _, dtype, device = _like(input, dtype, device)
    return _laid_out_like(input, lambda shape: zeros(shape, dtype=dtype, device=device, requires_grad=requires_grad),
                          memory_format)


def ones_like(input: Tensor, *, dtype: Any = None, device: Any = None, requires_grad: bool = False,
              memory_format: Any = None) -> Tensor:
    """Ones of ``input``'s shape (and dtype, device), laid out as ``input`` is (see ``preserved_order``)."""
    _, dtype, device = _like(input, dtype, device)
    return _laid_out_like(input, lambda shape: ones(shape, dtype=dtype, device=device, requires_grad=requires_grad),
                          memory_format)


def empty_like(input: Tensor, *, dtype: Any = None, device: Any = None, requires_grad: bool = False,
               memory_format: Any = None) -> Tensor:
    """A tensor like ``zeros_like``'s (PyTorch leaves its elements uninitialised)."""
    return zeros_like(input, dtype=dtype, device=device, requires_grad=requires_grad, memory_format=memory_format)


def full_like(input: Tensor, fill_value: Any, *, dtype: Any = None, device: Any = None,
              requires_grad: bool = False, memory_format: Any = None) -> Tensor:
    """``fill_value`` in ``input``'s shape (and dtype, device), laid out as ``input`` is."""
    _, dtype, device = _like(input, dtype, device)
    return _laid_out_like(input, lambda shape: full(shape, fill_value, dtype=dtype, device=device,
                                                    requires_grad=requires_grad), memory_format)


def arange(start: Any = 0, end: Any = None, step: Any = 1, *, dtype: Any = None, device: Any = None,
           requires_grad: bool = False) -> Tensor:
    """Values from ``start`` to ``end`` (exclusive) by ``step``; int64 unless a bound is a float.

    As PyTorch, an integer dtype truncates ``start`` and ``step`` to integers before stepping.
    """
    start, end, step = (_number(v) for v in (start, end, step))
    if end is None:
        start, end = 0, start
    if dtype is None:
        dtype = dtypes.result_type(start, end, step)
    xp, np_dtype, dev = _module_and_dtype(dtype, device)
    count = _arange_length(start, end, step, np_dtype)
    if dtypes.kind(np_dtype) == "f":
        values = xp.arange(count, dtype=np.float64) * step + start
    else:
        values = xp.arange(count, dtype=np.int64) * int(step) + int(start)
    return _finish(values.astype(np_dtype), None, dev, requires_grad)


def _number(value: Any) -> Any:
    """A 0-d tensor given where PyTorch takes a Python number, as that number."""
    return value.item() if isinstance(value, _graph.Tensor) else value


def _arange_length(start: Any, end: Any, step: Any, np_dtype: Any) -> int:
    """How many values ``arange`` gives, with PyTorch's checks: int64 counts in integers, the other dtypes
    from the bounds as given."""
    if dtypes.kind(np_dtype) in "bc":
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{dtypes.scalar_type_name(np_dtype)}'")
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if np_dtype == np.int64:
        start, end, step = int(start), int(end), int(step)
        if step == 0:
            raise ValueError("step must be nonzero")
    if (step > 0 and end < start) or (step < 0 and end > start):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if np_dtype == np.int64:
        sign = 1 if step > 0 else -1
        return abs(end - start + step - sign) // abs(step)  # C's truncating division: both have the step's sign
    return math.ceil((end - start) / step)


def linspace(start: float, end: float, steps: int, *, dtype: Any = None, device: Any = None,
             requires_grad: bool = False) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive."""
    start, end, steps = (_number(v) for v in (start, end, steps))
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    xp, np_dtype, dev = _module_and_dtype(dtype, device)
    if dtypes.kind(np_dtype) == "b":
        raise NotImplementedError("\"linspace_cpu\" not implemented for 'Bool'")
    return _finish(_linspace(xp, start, end, steps, np_dtype), None, dev, requires_grad)


def _linspace(xp: Any, start: Any, end: Any, steps: int, np_dtype: Any) -> Any:
    """PyTorch's linspace, rounding as it does (``_spaced``)."""
    return _spaced(xp, start, end, steps, np_dtype).astype(np_dtype)


def _spaced(xp: Any, start: Any, end: Any, steps: int, np_dtype: Any) -> Any:
    """linspace's values in the dtype it computes them in: the first half stepped up from ``start`` and the second
    half down from ``end``, in the dtype (float64 for integer dtypes, whose ``start`` and ``end`` are first cast to
    it: PyTorch's ``linspace(2.5, 0.5, 4, dtype=torch.int8)`` steps from 2 to 0). Floating and complex steps of 32
    and 64 bits are fused multiply-adds, as in PyTorch's vectorized kernel (computed in a wider type: float64, and
    NumPy's long double); float16, bfloat16 and integer steps are not."""
    integral = dtypes.kind(np_dtype) not in "fc"
    work = np.dtype(np.float64) if integral else np_dtype
    if integral:
        start, end = (np.asarray(v).astype(np_dtype) if np.ndim(v) == 0 and not isinstance(v, complex) else v
                      for v in (start, end))
    first, last = work.type(start), work.type(end)
    if steps == 1:
        return xp.full(1, first)
    step = (last - first) / work.type(steps - 1)
    wide: np.dtype = work if integral else _FUSED.get(work, work) if xp is np else _FUSED_ON_DEVICE.get(work, work)
    count = xp.arange(steps)
    # the counts up from start and down from end are integers, rounded to the dtype only then (float16 and
    # bfloat16 hold integers exactly only up to 2048 and 256)
    up = wide.type(first) + wide.type(step) * count.astype(wide)
    down = wide.type(last) - wide.type(step) * (steps - 1 - count).astype(wide)
    return xp.where(count < steps // 2, up, down)


# The dtypes a fused multiply-add of a dtype is computed in: exact for float32, all but exact for float64
_FUSED: dict[np.dtype, np.dtype] = {
    np.dtype(np.float32): np.dtype(np.float64), np.dtype(np.float64): np.dtype(np.longdouble),
    np.dtype(np.complex64): np.dtype(np.complex128), np.dtype(np.complex128): np.dtype(np.clongdouble)}
_FUSED_ON_DEVICE: dict[np.dtype, np.dtype] = {
    np.dtype(np.float32): np.dtype(np.float64), np.dtype(np.complex64): np.dtype(np.complex128)}


def logspace(start: float, end: float, steps: int, base: float = 10.0, *, dtype: Any = None,
             device: Any = None) -> Tensor:
    start, end, steps = (_number(v) for v in (start, end, steps))
    xp, np_dtype, dev = _module_and_dtype(dtype, device)
    if dtypes.kind(np_dtype) == "b":
        raise NotImplementedError("\"logspace_cpu\" not implemented for 'Bool'")
    with np.errstate(over="ignore", invalid="ignore"):
        if dtypes.kind(np_dtype) == "c":
            values = base ** _spaced(xp, start, end, steps, np_dtype)
        else:
            # (float64's powers in long double, rounded once more: NumPy's vectorised float64 power is off by an
            # ulp where the C library's, which PyTorch calls, is right)
            wide = np.dtype(np.longdouble if xp is np and np_dtype == np.float64 else np.float64)
            values = wide.type(base) ** _logspace_exponents(xp, start, end, steps, np_dtype).astype(wide)
        return _finish(values.astype(np_dtype), None, dev, False)


def _logspace_exponents(xp: Any, start: Any, end: Any, steps: int, np_dtype: Any) -> Any:
    """The exponents of PyTorch's CPU logspace of a real dtype, in float64: the ends are cast to the dtype (checked,
    into an integer one) and their difference taken there (in C++'s int for the small integer types), then the
    first half is stepped up from ``start`` and the second half down from ``end`` in double precision, as its
    kernel does (so float32's ``logspace(0, 1, 7)[3]`` is ``10 ** 0.5`` rounded once)."""
    if steps == 1:
        return xp.full(1, float(start))
    first, last = ((_integer_end(v, np_dtype) if np_dtype.kind in "iu" else np.asarray(v).astype(np_dtype)[()])
                   for v in (start, end))
    step = float(last - first) / max(steps - 1, 1)
    count = xp.arange(steps, dtype=np.float64)
    return xp.where(count < steps // 2, float(first) + step * count, float(last) - step * (steps - 1 - count))


def _integer_end(value: Any, np_dtype: Any) -> int:
    """An end of a range put into an integer dtype as PyTorch's checked cast of a Scalar does: a float truncated
    (an error where it is out of the type's range), an int wrapped (``dtypes.checked_integer``)."""
    if isinstance(value, float):
        info = np.iinfo(np_dtype)
        if not info.min <= value <= info.max:
            name = "int" if np_dtype == np.int32 else f"{np_dtype.name}_t"
            raise RuntimeError(f"value cannot be converted to type {name} without overflow")
        value = int(value)
    return dtypes.checked_integer(int(value), np_dtype)


def eye(n: int, m: int | None = None, *, dtype: Any = None, device: Any = None,
        requires_grad: bool = False) -> Tensor:
    """The ``n x m`` identity matrix."""
    for name, size in (("n", n), ("m", m)):
        if size is not None and size < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {size}")
    xp, np_dtype, dev = _module_and_dtype(dtype, device)
    return _finish(xp.eye(n, m, dtype=np_dtype), None, dev, requires_grad)


# --------------------------------------------------------------------------- window functions
def _window(name: str, formula: Any, window_length: int, periodic: bool, dtype: Any, device: Any,
            requires_grad: bool) -> Tensor:
    """``formula(n, N)`` at ``n = 0 .. window_length - 1``, with ``N = window_length`` for a periodic
    window (the first ``window_length`` points of a symmetric one of ``window_length + 1``), else
    ``window_length - 1``; computed in the dtype, in PyTorch's order of operations."""
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window length, got window_length={window_length}")
    xp, np_dtype, dev = _module_and_dtype(dtype, device)
    if dtypes.kind(np_dtype) != "f":
        raise RuntimeError(f"{name} expects floating point dtypes, got: {dtypes.from_numpy_dtype(np_dtype)}")
    if window_length <= 1:
        values = np.ones(window_length)
    else:
        values = formula(np.arange(window_length, dtype=np_dtype), window_length if periodic else window_length - 1)
    return _finish(xp.asarray(values.astype(np_dtype, copy=False)), None, dev, requires_grad)


def hann_window(window_length: int, periodic: bool = True, *, dtype: Any = None, device: Any = None,
                requires_grad: bool = False) -> Tensor:
    """The Hann window ``0.5 - 0.5 cos(2 pi n / N)`` (see ``_window`` for ``N``)."""
    return _window("hann_window", lambda n, m: np.cos(n * (2 * np.pi / m)) * -0.5 + 0.5, window_length, periodic,
                   dtype, device, requires_grad)


def hamming_window(window_length: int, periodic: bool = True, alpha: float = 0.54, beta: float = 0.46, *,
                   dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """The Hamming window ``alpha - beta cos(2 pi n / N)``."""
    return _window("hamming_window", lambda n, m: np.cos(n * (2 * np.pi / m)) * -beta + alpha, window_length,
                   periodic, dtype, device, requires_grad)


def blackman_window(window_length: int, periodic: bool = True, *, dtype: Any = None, device: Any = None,
                    requires_grad: bool = False) -> Tensor:
    """The Blackman window ``0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)``."""
    return _window("blackman_window",
                   lambda n, m: np.cos(n * (np.pi / m) * 4) * 0.08 - np.cos(n * (np.pi / m) * 2) * 0.5 + 0.42,
                   window_length, periodic, dtype, device, requires_grad)


def bartlett_window(window_length: int, periodic: bool = True, *, dtype: Any = None, device: Any = None,
                    requires_grad: bool = False) -> Tensor:
    """The Bartlett (triangular) window ``1 - |2 n / N - 1|``."""
    return _window("bartlett_window", lambda n, m: 1 - np.abs(2 * n / m - 1), window_length, periodic, dtype,
                   device, requires_grad)


def kaiser_window(window_length: int, periodic: bool = True, beta: float = 12.0, *, dtype: Any = None,
                  device: Any = None, requires_grad: bool = False) -> Tensor:
    """The Kaiser window ``I0(beta sqrt(1 - (2 n / N - 1)^2)) / I0(beta)``."""
    return _window("kaiser_window", lambda n, m: np.i0(beta * np.sqrt(np.clip(1 - (2 * n / m - 1) ** 2, 0, None)))
                   / np.i0(beta), window_length, periodic, dtype, device, requires_grad)


def _random(size: tuple, draw: Any, dtype: Any, device: Any, generator: Generator | None,
            requires_grad: bool, default: dtypes.dtype | None = None) -> Tensor:
    """A fresh tensor of ``draw(generator, shape, numpy_dtype)`` samples (``tinyframe.random``'s draws)."""
    xp, np_dtype, dev = _module_and_dtype(dtype, device, default)
    if dev.type == "meta":  # (no samples drawn: none could be read)
        return _finish(meta_array(size, np_dtype), None, dev, requires_grad)
    if dtypes.kind(np_dtype) == "c":
        # As PyTorch: the real and imaginary parts are the pairs of a real draw of shape (*size, 2); a
        # complex normal sample has variance 1, each part 1/2.
        parts = draw(generator_for(dev, generator), (*size, 2), np_dtype.type(0).real.dtype)
        if draw is random.normal:
            parts *= parts.dtype.type(math.sqrt(0.5))
        return _finish(xp.ascontiguousarray(parts).view(np_dtype)[..., 0], None, dev, requires_grad)
    array = draw(generator_for(dev, generator), size, np_dtype)
    return _finish(array.astype(np_dtype, copy=False), None, dev, requires_grad)


def rand(*shape: Any, size: Any = None, generator: Generator | None = None, dtype: Any = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    """Uniform samples on ``[0, 1)``."""
    return _random(_size(shape, size), random.uniform, dtype, device, generator, requires_grad)


def randn(*shape: Any, size: Any = None, generator: Generator | None = None, dtype: Any = None, device: Any = None,
          requires_grad: bool = False) -> Tensor:
    """Standard normal samples."""
    return _random(_size(shape, size), random.normal, dtype, device, generator, requires_grad)


def randint(low: int, high: int | None = None, size: Sequence[int] = (), *, generator: Generator | None = None,
            dtype: Any = None, device: Any = None) -> Tensor:
    """Integers drawn uniformly from ``[low, high)`` (int64 by default); ``randint(high, size)`` draws
    from ``[0, high)``."""
    if isinstance(high, (tuple, list)):
        low, high, size = 0, low, high
    if high is None:
        low, high = 0, low
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    if dtype is not None:  # a complex dtype would draw its real parts, not reach random.randint's check
        random.require_real(dtypes.as_dtype(dtype).numpy)
    return _random(_size(tuple(size)), lambda gen, shape, dt: random.randint(gen, shape, dt, low, high), dtype, device,
                   generator, False, dtypes.int64)


def rand_like(input: Tensor, *, generator: Generator | None = None, dtype: Any = None, device: Any = None,
              requires_grad: bool = False, memory_format: Any = None) -> Tensor:
    """Uniform samples on ``[0, 1)`` shaped like ``input``, laid out like it (see ``_random_like``)."""
    return _random_like(input, random.uniform, generator, dtype, device, requires_grad, memory_format)


def randn_like(input: Tensor, *, generator: Generator | None = None, dtype: Any = None, device: Any = None,
               requires_grad: bool = False, memory_format: Any = None) -> Tensor:
    """Standard normal samples shaped like ``input``, laid out like it (see ``_random_like``)."""
    return _random_like(input, random.normal, generator, dtype, device, requires_grad, memory_format)


def _random_like(input: Tensor, draw: Any, generator: Generator | None, dtype: Any, device: Any,
                 requires_grad: bool, memory_format: Any) -> Tensor:
    """Samples laid out in ``memory_format`` (by default as ``input`` is, see ``format_order``), filled in
    memory order; PyTorch's normal fills a non-contiguous output one pair at a time, not 16 at a time."""
    _, dtype, device = _like(input, dtype, device)
    if draw is random.normal and format_order(input._data, memory_format) is not None:
        draw = functools.partial(random.normal, contiguous=False)
    return _laid_out_like(input, lambda shape: _random(shape, draw, dtype, device, generator, requires_grad),
                          memory_format)


def randint_like(input: Tensor, low: int, high: int | None = None, *, generator: Generator | None = None,
                 dtype: Any = None, device: Any = None, requires_grad: bool = False,
                 memory_format: Any = None) -> Tensor:
    """Integers in ``[low, high)`` shaped and laid out like ``input`` (or as ``memory_format`` says)."""
    out = _laid_out_like(input, lambda shape: randint(low, high, shape, generator=generator,
                                                      dtype=dtype or input.dtype, device=device or input.device),
                         memory_format)
    return out.requires_grad_() if requires_grad else out


def randperm(n: int, *, generator: Generator | None = None, dtype: Any = None, device: Any = None) -> Tensor:
    """A random permutation of ``0 .. n-1``."""
    if isinstance(n, _graph.Tensor):  # PyTorch's parser takes a 0-d integer tensor for an int
        if n.ndim or dtypes.kind(n._data.dtype) not in "iu":
            raise TypeError("randperm(): argument 'n' (position 1) must be int, not Tensor")
        n = int(n)
    return _random((n,), lambda gen, shape, _: random.randperm(gen, n), dtype, device, generator, False,
                   dtypes.int64)
