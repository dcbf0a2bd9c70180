"""Top-level functions that few programs call, loaded on first use (tinyframe's module ``__getattr__``):
PyTorch's in-place functions (``torch.exp_(t)`` is ``t.exp_()``), the ``*_copy`` forms of the view
functions, ``asarray`` and ``frombuffer``, ``empty_strided``, ``fill``, the dtype and flag queries
(``is_signed``, ``is_conj``, ...) and the global switches scripts set (``set_warn_always``,
``set_flush_denormal``, ``set_num_interop_threads``, ...); and the Tensor methods few programs call
(``map_``, ``as_subclass``, ``resize``, ...), which ``Tensor`` reads from here on first use."""
from __future__ import annotations

import math
import os
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from . import _autocast, _graph, _toplevel, amp, autograd, creation, dtypes, grad_mode, random
from .amp import GradScaler
from .creation import empty_strided
from .device import UntypedStorage, array_module_of, get_default_device
from .device import device as torch_device
from .functional import with_out
from .memory_format import contiguous_format
from .ops import activation, binary, construction, indexing, inplace, shape
from .ops import complex as complex_ops
from .ops._composite import composed
from .storage import *  # noqa: F403  TypedStorage, FloatStorage, ...
from .storage import __all__ as _storage_names
from .tensor import Tensor

# The in-place functions: each is the Tensor method of its name.
_INPLACE = """
    abs_ acos_ acosh_ addmv_ arccos_ arccosh_ arcsin_ arcsinh_ arctan_ arctanh_ asin_ asinh_ atan_ atanh_ ceil_
    clamp_ clamp_max_ clamp_min_ clip_ cos_ cosh_ deg2rad_ detach_ erf_ erfc_ exp2_ exp_ expm1_ fill_ fix_ floor_
    frac_ gcd_ i0_ index_put_ lcm_ ldexp_ log10_ log1p_ log2_ log_ logit_ nan_to_num_ neg_ negative_ rad2deg_
    reciprocal_ resize_as_ round_ rsqrt_ sigmoid_ sin_ sinc_ sinh_ sqrt_ square_ tan_ tanh_ trunc_ xlogy_ zero_
    as_strided_ conj_physical_
""".split()

# The ``*_copy`` functions: the view of the method of this name, in memory of its own, recorded as the
# view's node with ``_copy`` appended (``PermuteBackward0_copy``), as PyTorch records them.
_COPIES = {"view_copy": "view", "permute_copy": "permute", "t_copy": "t", "transpose_copy": "transpose",
           "unsqueeze_copy": "unsqueeze", "squeeze_copy": "squeeze", "expand_copy": "expand",
           "diagonal_copy": "diagonal", "select_copy": "select", "as_strided_copy": "as_strided",
           "unfold_copy": "unfold", "split_copy": "split", "split_with_sizes_copy": "split_with_sizes",
           "unbind_copy": "unbind", "view_as_real_copy": "view_as_real", "view_as_complex_copy": "view_as_complex",
           "alias_copy": "view_as", "slice_copy": "slice", "detach_copy": "detach"}

# PyTorch's deprecated per-device autocast functions: each is a current one with the device type given.
_LEGACY_AUTOCAST = {"is_autocast_cpu_enabled": ("is_autocast_enabled", "cpu"),
                    "is_autocast_ipu_enabled": ("is_autocast_enabled", "ipu"),
                    "is_autocast_xla_enabled": ("is_autocast_enabled", "xla"),
                    "get_autocast_cpu_dtype": ("get_autocast_dtype", "cpu"),
                    "get_autocast_gpu_dtype": ("get_autocast_dtype", "cuda"),
                    "get_autocast_ipu_dtype": ("get_autocast_dtype", "ipu"),
                    "get_autocast_xla_dtype": ("get_autocast_dtype", "xla"),
                    "set_autocast_cpu_enabled": ("set_autocast_enabled", "cpu"),
                    "set_autocast_cpu_dtype": ("set_autocast_dtype", "cpu"),
                    "set_autocast_gpu_dtype": ("set_autocast_dtype", "cuda")}

__all__ = [*_INPLACE, *_COPIES, "asarray", "frombuffer", "empty_strided", "fill", "is_signed", "is_conj", "is_neg",
           "is_inference", "get_device", "default_generator", "set_flush_denormal", "set_warn_always",
           "is_warn_always_enabled", "set_anomaly_enabled", "get_num_interop_threads", "set_num_interop_threads",
           "GradScaler", "OutOfMemoryError", "AcceleratorError", "get_device_module", "compiled_with_cxx11_abi",
           "is_distributed", "is_deterministic_algorithms_warn_only_enabled", "get_deterministic_debug_mode",
           "set_deterministic_debug_mode", "set_autocast_enabled", "set_autocast_dtype", "is_autocast_cache_enabled",
           "set_autocast_cache_enabled", "clear_autocast_cache", "autocast_increment_nesting",
           "autocast_decrement_nesting", *_LEGACY_AUTOCAST, "empty_permuted", "init_num_threads", "sym_int",
           "sym_float", "sym_max", "sym_min", "sym_not", "sym_sqrt", "sym_ite", "sym_sum", "narrow_copy",
           "unsafe_split_with_sizes", "nonzero_static", "as_strided_scatter", "adjoint", "UntypedStorage",
           "is_vulkan_available", *_storage_names]

default_generator = random.default_generator


def _inplace_function(name: str) -> Callable[..., Tensor]:
    def function(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        if not isinstance(input, Tensor):
            raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
        return getattr(input, name)(*args, **kwargs)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"``input.{name}(...)``: the in-place ``{name[:-1]}``, written into ``input``."
    return function


def _slice(input: Tensor, dim: int = 0, start: int | None = None, end: int | None = None, step: int = 1) -> Tensor:
    return input[(slice(None),) * (dim % input.dim()) + (slice(start, end, step),)]


def _copy_function(name: str, view: str) -> Callable[..., Any]:
    node = "AliasBackward0" if view == "view_as" else None  # (alias: the whole tensor, PyTorch's own node)

    def view_of(input: Tensor, *args: Any, **kwargs: Any) -> Any:
        if view == "slice":
            return _slice(input, *args, **kwargs)
        if view == "view_as":
            return input.view_as(input)
        if view in ("view_as_real", "view_as_complex"):  # (functions, not methods)
            return getattr(complex_ops, view)(input)
        return getattr(input, view)(*args, **kwargs)

    def function(input: Tensor, *args: Any, **kwargs: Any) -> Any:
        views = view_of(input, *args, **kwargs)
        if not isinstance(views, tuple):
            return _copied(views, lambda t: view_of(t, *args, **kwargs), input, node)
        return tuple(_copied(v, _piece(view_of, i, args, kwargs), input, node) for i, v in enumerate(views))
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"``{view}``'s view of ``input`` copied into memory of its own."
    return with_out(function)


def _piece(view_of: Callable[..., tuple], i: int, args: tuple, kwargs: dict) -> Callable[[Tensor], Tensor]:
    """The ``i``-th of the views ``view_of`` makes of a tensor."""
    return lambda t: view_of(t, *args, **kwargs)[i]


def _copied(view: Tensor, make: Callable[[Tensor], Tensor], input: Tensor, node: str | None) -> Tensor:
    if view.grad_fn is None:
        return view.clone(memory_format=contiguous_format)
    return composed(f"{node or view.grad_fn.name()}_copy", lambda t: make(t).clone(memory_format=contiguous_format),
                    input, linear=True)


for _name in _INPLACE:
    globals()[_name] = _inplace_function(_name)
for _name, _view in _COPIES.items():
    globals()[_name] = _copy_function(_name, _view)


# --------------------------------------------------------------------------- tensors from other objects
def asarray(obj: Any, *, dtype: Any = None, device: Any = None, copy: bool | None = None,
            requires_grad: bool | None = None) -> Tensor:
    """``obj`` (a tensor, a NumPy array, an object with the buffer protocol, a number or a sequence) as a
    tensor. With ``copy=None`` the result shares ``obj``'s memory where dtype and device allow (a tensor
    comes back itself); ``copy=True`` always copies; ``copy=False`` never does, and raises where it would
    have to. ``requires_grad=True`` makes the result a leaf that requires grad (a tensor: this tensor
    itself); a tensor with ``requires_grad=False`` gives a detached alias, and by default keeps its own."""
    if isinstance(obj, Tensor):
        return _tensor_as(obj, dtype, device, copy, requires_grad)
    if isinstance(obj, (np.ndarray, np.generic)) or hasattr(obj, "__cuda_array_interface__"):
        return _tensor_as(creation.as_tensor(obj if isinstance(obj, np.ndarray) else np.asarray(obj)), dtype,
                          device, copy, requires_grad)
    if _has_buffer(obj) and not isinstance(obj, (list, tuple)):
        return _tensor_as(frombuffer(obj, dtype=dtype or dtypes.get_default_dtype()), None, device, copy,
                          requires_grad)
    if copy is False:
        raise ValueError("can't alias arbitrary sequence into a tensor.")
    if isinstance(obj, str):
        raise TypeError("new(): invalid data type 'str'")
    if obj is None or not isinstance(obj, (list, tuple, int, float, complex, bool)):
        raise RuntimeError(f"Could not infer dtype of {type(obj).__name__}")
    return creation.tensor(obj, dtype=dtype, device=device, requires_grad=bool(requires_grad))


def _has_buffer(obj: Any) -> bool:
    try:
        memoryview(obj)
    except TypeError:
        return False
    return True


def _tensor_as(t: Tensor, dtype: Any, device: Any, copy: bool | None, requires_grad: bool | None) -> Tensor:
    target = t.dtype if dtype is None else dtypes.as_dtype(dtype)
    if copy is False and target != t.dtype:
        raise ValueError(f"can't alias tensor with dtype '{dtypes.scalar_type_name(t.dtype)}' into dtype "
                         f"'{dtypes.scalar_type_name(target)}'.")
    out = t.to(dtype=target, device=device, copy=bool(copy))
    if requires_grad:
        return out.requires_grad_() if out.is_leaf else out
    return out.detach() if requires_grad is False and out.requires_grad else out


def frombuffer(buffer: Any, *, dtype: Any, count: int = -1, offset: int = 0, requires_grad: bool = False) -> Tensor:
    """A 1-D tensor viewing ``count`` elements (all by default) of ``dtype`` in ``buffer`` (an object with
    the buffer protocol) from byte ``offset``: writes to either are seen by the other."""
    if not _has_buffer(buffer):
        raise ValueError("object does not implement Python buffer protocol.")
    itemsize = dtypes.as_dtype(dtype).itemsize
    length = memoryview(buffer).nbytes
    if length == 0 or count == 0:
        raise ValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if not 0 <= offset < length:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than buffer length "
                         f"({length} bytes) minus 1")
    if count < 0 and (length - offset) % itemsize:
        raise ValueError(f"buffer length ({length - offset} bytes) after offset ({offset} bytes) must be a multiple "
                         f"of element size ({itemsize})")
    if count > 0 and count * itemsize > length - offset:
        raise ValueError(f"requested buffer length ({count} * {itemsize} bytes) after offset ({offset} bytes) must "
                         f"not be greater than actual buffer length ({length} bytes)")
    array = np.frombuffer(buffer, dtype=dtypes.as_dtype(dtype).numpy, count=count, offset=offset)
    out = _graph.wrap(array)
    if requires_grad:
        out.requires_grad = True
    return out


def fill(input: Tensor, value: Any) -> Tensor:
    """A tensor of ``input``'s shape and dtype filled with ``value`` (a number or a 0-d tensor); its gradient
    to ``input`` is zero (``FillBackward0``)."""
    if isinstance(value, Tensor) and value.dim():
        raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {value.dim()} "
                           "dimensions.")
    if not grad_mode.is_grad_enabled() or not input.requires_grad:
        return input.detach().clone().fill_(value)
    return composed("FillBackward0", _filled_where, input, value=value)


def _filled_where(input: Tensor, value: Any) -> Tensor:
    # (``where`` and not ``input * 0 + value``: an infinite element must give no NaN)
    return binary.where(creation.ones_like(input, dtype=dtypes.bool_), creation.full_like(input, value), input)


# --------------------------------------------------------------------------- queries
def is_signed(input: Tensor) -> bool:
    """Whether ``input``'s dtype is signed (floating and complex dtypes are)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"is_signed(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return input.dtype.is_signed


def adjoint(input: Tensor) -> Tensor:
    """``input.adjoint()``: the conjugate transpose of its last two dimensions (a view)."""
    return input.adjoint()


def is_vulkan_available() -> bool:
    """False: tinyframe has no Vulkan backend."""
    return False


def is_conj(input: Tensor) -> bool:
    """False: tinyframe computes conjugates when asked (no lazily conjugated tensors)."""
    return False


def is_neg(input: Tensor) -> bool:
    """False: tinyframe has no lazily negated tensors."""
    return False


def is_inference(input: Tensor) -> bool:
    """Whether ``input`` is an inference tensor: made in ``inference_mode`` (not as a view of a normal
    tensor), or a view of one. Also ``Tensor.is_inference``."""
    return input._inference


def get_device(input: Tensor) -> int:
    """``input.get_device()``: the CUDA device index, -1 on the CPU."""
    return input.get_device()


# --------------------------------------------------------------------------- global switches
_WARN_ALWAYS = [False]
_INTEROP_THREADS = [os.cpu_count() or 1]


def set_flush_denormal(mode: bool) -> bool:
    """False: NumPy offers no switch to flush denormal numbers to zero (PyTorch returns whether the CPU
    supports it), so nothing changes."""
    return False


def set_warn_always(b: bool) -> None:
    """Remembered for :func:`is_warn_always_enabled`; tinyframe's one-time warnings follow Python's
    ``warnings`` filters."""
    _WARN_ALWAYS[0] = bool(b)


def is_warn_always_enabled() -> bool:
    """The value last given to :func:`set_warn_always` (False by default)."""
    return _WARN_ALWAYS[0]


def set_anomaly_enabled(enabled: bool, check_nan: bool = True) -> None:
    """Turns autograd's anomaly detection on or off (``autograd.set_detect_anomaly``)."""
    autograd.set_detect_anomaly(enabled, check_nan)


def get_num_interop_threads() -> int:
    """The number last given to :func:`set_num_interop_threads` (the core count by default):
    tinyframe runs no inter-op thread pool."""
    return _INTEROP_THREADS[0]


def set_num_interop_threads(num: int) -> None:
    """Remembered for :func:`get_num_interop_threads`."""
    if num < 1:
        raise RuntimeError("Expected positive number of threads")
    _INTEROP_THREADS[0] = int(num)



# --------------------------------------------------------------------------- errors, devices, determinism
class OutOfMemoryError(RuntimeError):
    """Raised where a device has no memory left for an allocation (``torch.OutOfMemoryError``)."""


class AcceleratorError(RuntimeError):
    """An error an accelerator reports (``torch.AcceleratorError``)."""


def get_device_module(device: Any = None) -> Any:
    """The module of a device type's functions: ``tinyframe.cuda`` for 'cuda', ``tinyframe.cpu`` for 'cpu'
    (the default device's when None)."""
    import importlib
    kind = (torch_device(device) if device is not None else get_default_device()).type
    if kind not in ("cpu", "cuda"):
        raise RuntimeError(f"Device '{kind}' does not have a corresponding module registered as 'torch.{kind}'.")
    return importlib.import_module(f"tinyframe.{kind}")


def compiled_with_cxx11_abi() -> bool:
    """True, as PyTorch's wheels are built."""
    return True


def is_distributed(input: Tensor) -> bool:
    """False: no tensor is distributed."""
    return False


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    """The ``warn_only`` last given to ``use_deterministic_algorithms``."""
    return _toplevel.deterministic_warn_only()


_DEBUG_MODES = ("default", "warn", "error")


def get_deterministic_debug_mode() -> int:
    """0 when deterministic algorithms are off, 1 when on with ``warn_only``, 2 when on."""
    if not _toplevel.are_deterministic_algorithms_enabled():
        return 0
    return 1 if _toplevel.deterministic_warn_only() else 2


def set_deterministic_debug_mode(debug_mode: str | int) -> None:
    """``use_deterministic_algorithms`` by mode: 'default' (0) off, 'warn' (1) on with ``warn_only``,
    'error' (2) on."""
    if isinstance(debug_mode, str):
        if debug_mode not in _DEBUG_MODES:
            raise RuntimeError(f"invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got "
                               f"{debug_mode}")
        debug_mode = _DEBUG_MODES.index(debug_mode)
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    _toplevel.use_deterministic_algorithms(debug_mode > 0, warn_only=debug_mode == 1)


# --------------------------------------------------------------------------- autocast's global switches
_AUTOCAST_CACHE = [True]
_AUTOCAST_NESTING = [0]


def set_autocast_enabled(device_type: Any, enabled: Any = None) -> None:
    """Turns autocast on or off for ``device_type`` (``set_autocast_enabled(enabled)``: for 'cuda') outside
    any ``with autocast`` block."""
    if enabled is None:
        device_type, enabled = "cuda", device_type
    _autocast.enter(device_type, bool(enabled), amp.get_autocast_dtype(device_type))


def set_autocast_dtype(device_type: str, dtype: Any) -> None:
    """The dtype autocast computes in for ``device_type``."""
    _autocast.enter(device_type, _autocast.is_enabled(device_type), dtypes.as_dtype(dtype))


def is_autocast_cache_enabled() -> bool:
    """The value last given to :func:`set_autocast_cache_enabled` (True by default); tinyframe keeps no
    cache of casts."""
    return _AUTOCAST_CACHE[0]


def set_autocast_cache_enabled(enabled: bool) -> None:
    """Remembered for :func:`is_autocast_cache_enabled`."""
    _AUTOCAST_CACHE[0] = bool(enabled)


def clear_autocast_cache() -> None:
    """Nothing to clear: tinyframe keeps no cache of casts."""


def autocast_increment_nesting() -> int:
    """Counts one more autocast nesting level; returns the count."""
    _AUTOCAST_NESTING[0] += 1
    return _AUTOCAST_NESTING[0]


def autocast_decrement_nesting() -> int:
    """Counts one autocast nesting level less; returns the count."""
    _AUTOCAST_NESTING[0] -= 1
    return _AUTOCAST_NESTING[0]


def _legacy_autocast(name: str, current: str, device_type: str) -> Callable[..., Any]:
    arguments = "enabled" if current == "set_autocast_enabled" else "dtype" if current.startswith("set") else ""

    def function(*args: Any) -> Any:
        warnings.warn(f"torch.{name}({arguments}) is deprecated. Please use torch.{current}('{device_type}'"
                      f"{', ' + arguments if arguments else ''}) instead.", DeprecationWarning, stacklevel=2)
        target = globals().get(current) or getattr(amp, current)
        return target(device_type, *args)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"Deprecated: ``{current}('{device_type}', ...)``."
    return function


for _name, (_current, _device_type) in _LEGACY_AUTOCAST.items():
    globals()[_name] = _legacy_autocast(_name, _current, _device_type)


# --------------------------------------------------------------------------- more factories and symbolic helpers
def empty_permuted(size: Sequence[int], physical_layout: Sequence[int], *, dtype: Any = None, layout: Any = None,
                   device: Any = None, requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """An uninitialised tensor of shape ``size`` whose dimensions lie in memory in the order
    ``physical_layout`` (outermost first): ``empty(size[physical_layout]).permute(inverse)``'s strides."""
    size, physical_layout = tuple(size), tuple(physical_layout)
    if len(size) != len(physical_layout):
        raise RuntimeError(f"Number of dimensions in size does not match the length of the physical_layout; i.e. "
                           f"len(size) = {len(size)} is not equal to len(physical_layout) = {len(physical_layout)}")
    if len(set(physical_layout)) != len(physical_layout):
        raise RuntimeError("Duplicate dim not allowed")
    stride = [0] * len(size)
    step = 1
    for d in reversed(physical_layout):
        stride[d] = step
        step *= size[d]
    return empty_strided(size, stride, dtype=dtype, device=device, requires_grad=requires_grad)


def init_num_threads() -> None:
    """Nothing to initialise: NumPy's thread pools start on their own."""


# PyTorch's symbolic-shape helpers, on plain Python numbers (tinyframe traces no shapes).
def sym_int(a: Any) -> int:
    """``int(a)`` (toward zero)."""
    return int(a)


def sym_float(a: Any) -> float:
    """``float(a)``."""
    return float(a)


def sym_max(a: Any, b: Any) -> Any:
    """``max(a, b)``, a float where either is."""
    return float(max(a, b)) if isinstance(a, float) or isinstance(b, float) else max(a, b)


def sym_min(a: Any, b: Any) -> Any:
    """``min(a, b)``, a float where either is."""
    return float(min(a, b)) if isinstance(a, float) or isinstance(b, float) else min(a, b)


def sym_not(a: Any) -> bool:
    """``not a``."""
    return not a


def sym_sqrt(a: Any) -> float:
    """``math.sqrt(a)``."""
    return math.sqrt(a)


def sym_ite(b: Any, t: Any, f: Any) -> Any:
    """``t if b else f``."""
    return t if b else f


def sym_sum(args: Iterable[Any]) -> Any:
    """``sum(args)``."""
    return sum(args)


# --------------------------------------------------------------------------- Tensor methods few programs call
# (read as methods through tensor._FamilyMethod; not top-level functions, so not in __all__)
def dim_order(self: Tensor) -> tuple:
    """The dimensions from the outermost in memory (largest stride) to the innermost."""
    strides = self.stride()
    assert isinstance(strides, tuple)
    return tuple(sorted(range(self.ndim), key=lambda d: -strides[d]))  # (stable: ties keep their order)


def as_subclass(self: Tensor, cls: type) -> Tensor:
    """This tensor's data (the same memory, still in the graph) as an instance of ``cls``, a Tensor subclass."""
    if not (isinstance(cls, type) and issubclass(cls, Tensor)):
        raise TypeError("Creating a Tensor subclass from a class that does not inherit from Tensor is not possible. "
                        "Make sure your class inherits from Tensor.")
    out = self.view_as(self)
    out.__class__ = cls
    return out


def module_load(self: Tensor, other: Tensor, assign: bool = False) -> Tensor:
    """What ``nn.Module.load_state_dict`` loads into this tensor from ``other``: ``other`` itself."""
    return other


def map_(self: Tensor, tensor: Tensor, callable: Callable[..., Any]) -> Tensor:
    """Sets each element to ``callable(self_element, tensor_element)`` (``tensor`` broadcast to this tensor's
    shape), in Python; returns self."""
    return _mapped(self, "map_", callable, tensor)


def map2_(self: Tensor, x: Tensor, y: Tensor, callable: Callable[..., Any]) -> Tensor:
    """Sets each element to ``callable(self_element, x_element, y_element)``, in Python; returns self."""
    return _mapped(self, "map2_", callable, x, y)


def _mapped(self: Tensor, name: str, function: Callable[..., Any], *others: Tensor) -> Tensor:
    if self.requires_grad:
        raise RuntimeError(f"Can't call {name}() on Variable that requires grad. Use var.detach().{name}() instead.")
    arrays = [np.broadcast_to(np.asarray(o.cpu()._data), self.shape) for o in others]
    values = [function(*items) for items in zip(self.cpu()._data.reshape(-1).tolist(),
                                                *(a.reshape(-1).tolist() for a in arrays))]
    inplace.store(self, np.asarray(values, dtype=self._data.dtype).reshape(self.shape))
    return self


def is_set_to(self: Tensor, tensor: Tensor) -> bool:
    """Whether ``tensor`` views exactly this tensor's memory: the same storage, offset, shape and strides."""
    return (self.device == tensor.device and self.dtype == tensor.dtype and self.shape == tensor.shape
            and self.data_ptr() == tensor.data_ptr() and self.stride() == tensor.stride())


def resize(self: Tensor, *sizes: Any) -> Tensor:
    """Deprecated: this tensor's elements in the shape ``sizes``, of the same number of elements
    (``ResizeBackward``)."""
    warnings.warn("non-inplace resize is deprecated", UserWarning, stacklevel=2)
    return _resized(self, tuple(sizes[0]) if len(sizes) == 1 and not isinstance(sizes[0], int) else sizes)


def resize_as(self: Tensor, tensor: Tensor) -> Tensor:
    """Deprecated: ``resize(tensor.shape)``."""
    warnings.warn("non-inplace resize_as is deprecated", UserWarning, stacklevel=2)
    return _resized(self, tuple(tensor.shape))


def _resized(input: Tensor, sizes: tuple) -> Tensor:
    count = math.prod(sizes)
    if count != input.numel():
        raise RuntimeError(f"requested resize to {'x'.join(map(str, sizes))} ({count} elements in total), but the "
                           f"given tensor has a size of {'x'.join(map(str, input.shape))} ({input.numel()} elements). "
                           "autograd's resize can only change the shape of a given tensor, while preserving the "
                           "number of elements. ")
    if not (grad_mode.is_grad_enabled() and input.requires_grad):
        return input.reshape(sizes)
    return composed("ResizeBackward", _reshaped, input, linear=True, sizes=sizes)


def _reshaped(input: Tensor, sizes: tuple) -> Tensor:
    return input.reshape(sizes)


def cfloat(self: Tensor) -> Tensor:
    """This tensor as complex64."""
    return self.to(dtypes.complex64)


def cdouble(self: Tensor) -> Tensor:
    """This tensor as complex128."""
    return self.to(dtypes.complex128)


def prelu(self: Tensor, weight: Tensor) -> Tensor:
    """``nn.functional.prelu(self, weight)``: this tensor where non-negative, ``weight * self`` elsewhere."""
    return activation.prelu(self, weight)


def hardshrink(self: Tensor, lambd: float = 0.5) -> Tensor:
    """``nn.functional.hardshrink(self, lambd)``: this tensor where ``|self| > lambd``, 0 elsewhere."""
    return activation.hardshrink(self, lambd)


def new_empty_strided(self: Tensor, size: Sequence[int], stride: Sequence[int], dtype: Any = None,
                      device: Any = None, requires_grad: bool = False) -> Tensor:
    """``tinyframe.empty_strided(size, stride)``, with this tensor's dtype and device unless given."""
    return empty_strided(size, stride, dtype=dtype or self.dtype, device=device or self.device,
                         requires_grad=requires_grad)


class _AsStridedInplace(construction.AsStrided, node_name="AsStridedBackward1"):
    """``as_strided_``'s node: the view op under PyTorch's name for the in-place form."""


shape.INPLACE_FORMS[construction.AsStrided] = _AsStridedInplace


def set_(self: Tensor, source: Tensor | None = None) -> Tensor:
    """This tensor made to view ``source``'s memory (its shape and strides; empty without ``source``): writes
    to either are seen by the other. Returns self."""
    inplace._check_not_leaf(self)
    if source is None:
        self._data = array_module_of(self._data).empty(0, dtype=self._data.dtype)
    elif source.dtype != self.dtype:
        raise RuntimeError(f"Could not set tensor of type {dtypes.cpp_type_name(source.dtype)} to a tensor of type "
                           f"{dtypes.cpp_type_name(self.dtype)}")
    else:
        self._data = source._data
    self._bump_version()
    return self


def conj_physical_(self: Tensor) -> Tensor:
    """In-place ``conj_physical``: the complex conjugate written into this tensor; returns self."""
    return inplace.apply(self, complex_ops.conj_physical)


def as_strided_(self: Tensor, size: Sequence[int], stride: Sequence[int], storage_offset: int | None = None) -> Tensor:
    """In-place ``as_strided``: this tensor becomes that view of its storage; returns self."""
    return inplace.restride(self, construction.as_strided, size, stride, storage_offset)


# --------------------------------------------------------------------------- views copied, scatters, nonzero
def narrow_copy(input: Tensor, dim: int, start: int, length: int) -> Tensor:
    """``narrow``'s slice in memory of its own (``NarrowCopyBackward0``)."""
    if not (grad_mode.is_grad_enabled() and input.requires_grad):
        return _narrowed_copy(input, dim, start, length)
    return composed("NarrowCopyBackward0", _narrowed_copy, input, linear=True, dim=dim, start=start, length=length)


def _narrowed_copy(input: Tensor, dim: int, start: int, length: int) -> Tensor:
    return input.narrow(dim, start, length).clone(memory_format=contiguous_format)


def unsafe_split_with_sizes(input: Tensor, split_sizes: Sequence[int], dim: int = 0) -> tuple:
    """``split_with_sizes`` whose pieces autograd does not treat as views (see ``unsafe_split``)."""
    return shape._split(input, list(split_sizes), dim, shape.UnsafeSplit, shape.UnsafeSplitWithSizes, "split")


def nonzero_static(input: Tensor, *, size: int, fill_value: int = -1) -> Tensor:
    """``nonzero(input)`` with exactly ``size`` rows: cut, or padded with rows of ``fill_value``."""
    if size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
    found = input.nonzero()._data[:size]
    xp = array_module_of(found)
    padding = xp.full((size - found.shape[0], found.shape[1]), fill_value, dtype=found.dtype)
    return _graph.wrap(xp.concatenate([found, padding]))


def as_strided_scatter(input: Tensor, src: Tensor, size: Sequence[int], stride: Sequence[int],
                       storage_offset: int | None = None) -> Tensor:
    """A copy of ``input`` (laid out as ``input``, as ``clone`` lays it out) with ``src`` written where
    ``as_strided(size, stride, storage_offset)`` of that copy reads."""
    if tuple(src.shape) != tuple(size):
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = {list(src.shape)}, "
                           f"slice size = {list(size)}")
    xp = array_module_of(input._data)
    positions = indexing.storage_positions(xp, tuple(size), tuple(stride), storage_offset or 0).reshape(-1)
    order = creation.preserved_order(input._data)
    if order is not None:  # the copy keeps input's layout, as PyTorch's clone: storage position -> element
        dense = [0] * input.ndim
        step = 1
        for d in reversed(order):
            dense[d], step = step, step * input.shape[d]
        own = indexing.storage_positions(xp, tuple(input.shape), tuple(dense), 0)
        positions = xp.argsort(own.reshape(-1))[positions]
    return composed("AsStridedScatterBackward0", _flat_written, input, src, index=(_graph.wrap(positions),))


def _flat_written(input: Tensor, src: Tensor, index: tuple) -> Tensor:
    out = input.reshape(-1).clone()
    out[index] = src.reshape(-1)
    return out.reshape(input.shape)
