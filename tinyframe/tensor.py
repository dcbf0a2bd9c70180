"""``Tensor``: an n-dimensional array on a device, with autograd.

The class holds the data, the autograd flags and the Python protocol. Every computation is an op
defined once in ``tinyframe.ops``; the methods and operators here only reach those definitions.
"""
from __future__ import annotations

import builtins
import importlib
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any, overload

import numpy as np

from . import _graph, creation, dtypes, grad_mode, memory_format, random
from ._dims import Size, wrap_dim
from ._lazy import lazy_module
from ._numpy_interop import array_ufunc, operand
from ._tensor_str import tensor_repr
from .autograd import engine, hooks
from .device import NO_DATA, MetaArray, UntypedStorage, address_of, as_device, device, device_of, storage_of
from .memory_format import contiguous_format
from .ops import binary, conversion, indexing, inplace, linalg, reduction, unary
from .ops import complex as complex_ops
from .ops import construction as construction_ops
from .ops import contraction as contraction_ops
from .ops import decompositions as decomposition_ops
from .ops import lu as lu_ops
from .ops import numerics as numerics_ops
from .ops import sampling as sampling_ops
from .ops import scattering as scatter_ops
from .ops import shape as shape_ops
from .ops import sorting as sorting_ops
from .ops import sparse as sparse_ops
from .ops import special as special_ops
from .ops import statistics as statistics_ops
from .ops import stft as stft_ops

linalg_functions = lazy_module("tinyframe.linalg")  # (torch.linalg: loaded on first use, as its ops are)

__all__ = ["Tensor", "Size"]


# An arithmetic operator with a number operand inside a built-in backward formula that is being recorded
# (``_graph.native_formula``): PyTorch's C++ operators, whose numbers are Scalars (``t * 2`` is MulBackward1,
# ``2 - t`` a tensor filled with 2 minus ``t``, ``2 / t`` the reciprocal times 2), so that a gradient taken with
# ``create_graph=True`` has PyTorch's nodes.
_NATIVE: dict[str, Any] = {
    "__add__": lambda t, n: binary.AddScalar.apply(t, other=n),
    "__radd__": lambda t, n: binary.AddScalar.apply(t, other=n),
    "__sub__": lambda t, n: binary.SubScalar.apply(t, other=n),
    "__rsub__": lambda t, n: binary.Sub.apply(n, t),
    "__mul__": lambda t, n: binary.MulNumber.apply(t, other=n),
    "__rmul__": lambda t, n: binary.MulNumber.apply(t, other=n),
    "__truediv__": lambda t, n: binary.DivNumber.apply(t, n),
    "__rtruediv__": lambda t, n: binary.MulNumber.apply(unary.reciprocal(t), other=n),
}


def _operator(method: Callable[[Tensor, Any], Tensor]) -> Callable[[Tensor, Any], Tensor]:
    """An operator method that takes the other operand as PyTorch does: a NumPy array becomes a tensor
    (``t + ndarray``), a NumPy scalar a Python number (so a float32 tensor stays float32), and an
    operand that is not numeric data gets NotImplemented, so that Python tries the other operand's
    method and then raises its TypeError naming both types (``unsupported operand type(s) for +:
    'Tensor' and 'NoneType'``)."""
    native = _NATIVE.get(method.__name__)

    def operator(self: Tensor, other: Any) -> Tensor:
        if isinstance(other, Tensor):
            return method(self, other)
        if isinstance(other, (np.ndarray, np.generic)):  # before float: np.float64 is a float
            return method(self, operand(other))
        if isinstance(other, (int, float, complex)):
            if native is not None and _graph.native_formula:
                return native(self, other)
            return method(self, other)
        return NotImplemented
    operator.__name__ = operator.__qualname__ = method.__name__
    operator.__doc__ = method.__doc__
    return operator


def _inplace_of(name: str) -> Any:
    """The in-place method ``name_``: computes ``self.name(...)`` and writes the result into self
    (cast to self's dtype), recorded by autograd as PyTorch records ``name_``."""
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        return inplace.apply(self, getattr(Tensor, name), *args, **kwargs)
    method.__name__ = method.__qualname__ = name + "_"
    method.__doc__ = f"In-place version of :meth:`{name}`; returns self."
    return method


class _FamilyMethod:
    """A method that is the function of its name in a lazily loaded op family (``Tensor.frexp`` is
    ``ops.numerics.frexp``) or module (named: imported then): the family loads, and the function becomes
    the class's attribute, when the method is first read. (A method defined in the class costs
    ``import tinyframe`` its code and its argument-checking wrapper; these cost nothing until used.)"""

    def __init__(self, family: Any) -> None:
        self.family = family
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        family = importlib.import_module(self.family) if isinstance(self.family, str) else self.family
        function = getattr(family, self.name)
        setattr(owner or type(obj), self.name, function)
        return function if obj is None else function.__get__(obj, owner)


class Tensor:
    """A multi-dimensional array with autograd, like ``torch.Tensor``.

    ``Tensor(data)`` builds a float32 tensor as PyTorch's legacy constructor does; prefer
    ``tinyframe.tensor(data, dtype=..., device=..., requires_grad=...)``.
    """

    __slots__ = ("_data", "grad_fn", "_requires_grad", "_grad", "__dict__", "__weakref__")
    _data: Any                         # the NumPy or CuPy array
    grad_fn: Any                       # the Node that made this tensor, None for a leaf
    _requires_grad: bool
    _grad: Any                         # the accumulated gradient: a Tensor, or None

    # Rarely set state lives in the instance dict, defaulting to these class values.
    _vc: list | None = None            # version counter, shared with views
    _base: Tensor | None = None        # the tensor (itself no view) whose storage this one views
    _creation: str | None = None       # for views on which in-place ops are refused: how they were made (_graph)
    _accumulator: Any = None           # the leaf's AccumulateGrad node, made on first use
    _hooks: list | None = None         # gradient hooks of a leaf
    _post_accumulate_hooks: list | None = None  # hooks run on a leaf after its .grad is updated
    _retains_grad = False
    _output_nr = 0                     # which output of its grad_fn this tensor is (custom Functions)
    _inference = False                 # made in inference_mode (not as a view of a normal tensor)

    def __init__(self, *data: Any, device: Any = None) -> None:
        """``Tensor(sequence)`` copies the data; ``Tensor(2, 3)`` or ``Tensor(size)`` makes a tensor of
        that size (zeros; PyTorch leaves them uninitialized), in the default dtype."""
        if data and all(isinstance(n, int) for n in data) or len(data) == 1 and isinstance(data[0], Size):
            made = creation.zeros(*data, dtype=dtypes.get_default_dtype(), device=device)
        else:
            made = creation.tensor(data[0] if data else (), dtype=dtypes.get_default_dtype(), device=device)
        self._data = made._data
        self.grad_fn = None
        self._requires_grad = False
        self._grad = None

    _make = staticmethod(_graph.wrap)  # wraps an array without copying (the hot path of every op)

    # ----------------------------------------------------------------- data and metadata
    @property
    def data(self) -> Tensor:
        """The same storage, detached from the graph, with a version counter of its own: in-place changes
        through ``.data`` go unseen by autograd's checks (unlike ``detach()``'s), as in PyTorch."""
        return Tensor._make(self._data, None, False)

    @data.setter
    def data(self, value: Tensor) -> None:
        if not isinstance(value, Tensor):
            raise TypeError(f"Tensor.data must be set to a Tensor, got {type(value).__name__}")
        self._data = value._data
        self._accumulator = None

    @property
    def shape(self) -> Size:
        """The size of each dimension, as a ``Size`` (a tuple)."""
        return Size(self._data.shape)

    @overload
    def size(self, dim: None = None) -> Size: ...
    @overload
    def size(self, dim: int) -> int: ...

    def size(self, dim: int | None = None) -> Size | int:
        """The shape, or the length of dimension ``dim``."""
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[wrap_dim(dim, self._data.ndim)]

    @property
    def ndim(self) -> int:
        """The number of dimensions."""
        return self._data.ndim

    def dim(self) -> int:
        """The number of dimensions (``ndim``)."""
        return self._data.ndim

    ndimension = dim

    def numel(self) -> int:
        """The number of elements: the product of the shape."""
        return int(self._data.size)

    nelement = numel

    @property
    def dtype(self) -> dtypes.dtype:
        """The element type, such as ``tinyframe.float32``."""
        return dtypes.from_numpy_dtype(self._data.dtype)

    @property
    def device(self) -> device:
        """Where the data lives: ``device('cpu')`` or ``device('cuda', i)``."""
        return device_of(self._data)

    @property
    def is_cuda(self) -> bool:
        """Whether the data is on a CUDA device."""
        return not isinstance(self._data, np.ndarray) and self.device.type == "cuda"

    def is_floating_point(self) -> bool:
        """Whether the dtype is a floating-point type."""
        return self.dtype.is_floating_point

    def element_size(self) -> int:
        """The size of one element in bytes."""
        return self._data.itemsize

    @property
    def itemsize(self) -> int:
        """The size of one element in bytes."""
        return self._data.itemsize

    @property
    def nbytes(self) -> int:
        """The number of bytes of the elements: ``numel() * itemsize``."""
        return int(self._data.nbytes)

    @property
    def is_cpu(self) -> bool:
        """Whether the data is in host memory."""
        return isinstance(self._data, np.ndarray) and type(self._data) is not MetaArray

    @property
    def is_meta(self) -> bool:
        """Whether the tensor is on the ``meta`` device: a shape and a dtype, no data."""
        return type(self._data) is MetaArray

    def get_device(self) -> int:
        """The CUDA device index, or -1 for a CPU tensor."""
        index = self.device.index
        return -1 if index is None else index

    def stride(self, dim: int | None = None) -> tuple | int:
        """The step in elements between neighbours along each dimension, or along ``dim``."""
        if self._data.size and not (type(self._data) is MetaArray and 0 in self._data.strides):
            strides = tuple(s // self._data.itemsize for s in self._data.strides)
        else:  # NumPy gives empty arrays zero strides; PyTorch the row-major ones, sizes taken as at least 1
            strides = tuple(int(np.prod([max(n, 1) for n in self.shape[d + 1:]])) for d in range(self.ndim))
        return strides if dim is None else strides[wrap_dim(dim, self.ndim)]

    def is_contiguous(self, memory_format: Any = None) -> bool:
        """Whether the elements lie in memory without gaps in row-major (C) order, or in the order of
        ``memory_format`` (``channels_last``: ``(N, H, W, C)``)."""
        if type(self._data) is MetaArray and 0 in self._data.strides:  # (one element: laid out as made, row-major)
            return memory_format in (None, contiguous_format)
        return shape_ops.is_contiguous(self._data, memory_format)

    @property
    def _version(self) -> int:
        if self._inference:
            raise RuntimeError("Inference tensors do not track version counter.")
        return self._vc[0] if self._vc is not None else 0

    def _version_counter(self) -> list:
        if self._vc is None:
            self._vc = [0]
        return self._vc

    def _bump_version(self) -> None:
        counter = self._vc
        if counter is None:
            self._vc = [1]
        else:
            counter[0] += 1

    # ----------------------------------------------------------------- autograd state
    @property
    def requires_grad(self) -> bool:
        """Whether autograd records operations on this tensor."""
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag: bool) -> None:
        # PyTorch words this error differently here (and in factories) than in requires_grad_().
        if flag and dtypes.kind(self._data.dtype) not in "fc":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        self.requires_grad_(flag)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Sets whether autograd records operations on this leaf tensor; returns self."""
        if self.grad_fn is not None and not requires_grad:
            raise RuntimeError("you can only change requires_grad flags of leaf variables. If you want "
                               "to use a computed variable in a subgraph that doesn't require "
                               "differentiation use var_no_grad = var.detach().")
        if requires_grad and dtypes.kind(self._data.dtype) not in "fc":
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if requires_grad and self._inference and not grad_mode.STATE.inference:
            raise RuntimeError("Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.")
        self._requires_grad = bool(requires_grad)
        return self

    @property
    def is_leaf(self) -> bool:
        """Whether the tensor was not made by a recorded op (its ``grad_fn`` is None)."""
        return self.grad_fn is None

    def _is_view(self) -> bool:
        """Whether the tensor is a view of another, its ``_base`` (PyTorch's private test, which torchviz uses)."""
        return self._base is not None

    @property
    def output_nr(self) -> int:
        """Which output of its ``grad_fn`` this tensor is (0 but for custom Functions with several outputs)."""
        return self._output_nr

    @property
    def grad(self) -> Tensor | None:
        """The gradient accumulated by backward (leaves, and non-leaves that called ``retain_grad``)."""
        if self.grad_fn is not None and not self._retains_grad:
            warnings.warn(_NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got "
                                f"{type(value).__name__}")
            if value.shape != self.shape:
                raise RuntimeError(f"assigned grad has data of a different size: {tuple(value.shape)} "
                                   f"vs. the tensor's {tuple(self.shape)}")
            if value.device != self.device:
                raise RuntimeError(f"assigned grad is on {value.device} but the tensor is on {self.device}")
            if value.dtype != self.dtype:
                raise RuntimeError(f"assigned grad has data of a different type: {value.dtype} vs. the "
                                   f"tensor's {self.dtype}")
        self._grad = value

    @property
    def retains_grad(self) -> bool:
        """Whether ``retain_grad()`` was called on this non-leaf tensor."""
        return self._retains_grad

    def retain_grad(self) -> None:
        """Keeps ``.grad`` for this non-leaf tensor after backward."""
        hooks.retain_grad(self)

    def register_hook(self, hook: Any) -> Any:
        """Registers ``hook(grad) -> Tensor or None``, run on the gradient with respect to this tensor."""
        return hooks.register_hook(self, hook)

    def register_post_accumulate_grad_hook(self, hook: Any) -> Any:
        """Registers ``hook(tensor) -> None``, run on this leaf after backward accumulates into its ``.grad``
        (an optimizer step per parameter, for example)."""
        return hooks.register_post_accumulate_grad_hook(self, hook)

    def backward(self, gradient: Tensor | None = None, retain_graph: bool | None = None,
                 create_graph: bool = False, inputs: Sequence[Tensor] | None = None) -> None:
        """Computes the gradient of this tensor with respect to the graph's leaves.

        Gradients accumulate into the leaves' ``.grad``. A non-scalar tensor needs ``gradient``,
        the vector of the vector-Jacobian product.
        """
        engine.backward(self, None if gradient is None else (gradient,), retain_graph, create_graph, inputs)

    def detach(self) -> Tensor:
        """A tensor sharing this one's storage and version counter, outside the graph."""
        out = Tensor._make(self._data, None, False, self._version_counter())
        if self._inference:  # (a view, as PyTorch's detach)
            out._inference = True
        return out

    def detach_(self) -> Tensor:
        """Detaches this tensor from the graph in place, making it a leaf (not a view: its base would keep
        the history)."""
        if self._base is not None:
            raise RuntimeError(_DETACH_VIEW)
        self.grad_fn = None
        self._requires_grad = False
        return self

    # ----------------------------------------------------------------- conversion
    def item(self) -> Any:
        """The value of a one-element tensor as a Python number."""
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        return self._python_scalar()

    def tolist(self) -> Any:
        """The data as nested Python lists of numbers (a number for a 0-d tensor)."""
        return self._host_array().tolist()

    def numpy(self, *, force: bool = False) -> np.ndarray:
        """The data as a NumPy array sharing storage (cpu tensors that do not require grad only; not
        bfloat16, which NumPy lacks)."""
        if self._data.dtype.kind == "V":  # bfloat16: its NumPy dtype is ml_dtypes', not NumPy's
            raise TypeError("Got unsupported ScalarType BFloat16")
        if self.is_sparse:
            raise TypeError("can't convert Sparse layout tensor to numpy. Use Tensor.to_dense() first.")
        if self.is_meta:
            raise TypeError("can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the tensor to "
                            "host memory first.")
        if force:
            return self._host_array().copy()
        self._refuse_numpy_in_graph()
        if not isinstance(self._data, np.ndarray):
            raise TypeError(f"can't convert {self.device} device type tensor to numpy. "
                            "Use Tensor.cpu() to copy the tensor to host memory first.")
        return self._data

    def _refuse_numpy_in_graph(self) -> None:
        """PyTorch's refusal of an array of a tensor that requires grad, while grad mode is on (under no_grad
        and inside a custom Function's forward the array is given)."""
        if self._requires_grad and grad_mode.STATE.enabled:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. "
                               "Use tensor.detach().numpy() instead.")

    def _host_array(self) -> np.ndarray:
        if type(self._data) is MetaArray:
            raise NotImplementedError(NO_DATA)
        return self._data if isinstance(self._data, np.ndarray) else self._data.get()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        """``np.asarray(tensor)``: the data on the host; refused for tensors that require grad, as in
        PyTorch, because the array would silently leave the graph."""
        self._refuse_numpy_in_graph()
        array = self._host_array()
        if dtype is not None:
            return array.astype(dtype, copy=bool(copy))
        return array.copy() if copy else array  # NumPy 2 trusts copy=True to have copied

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        """NumPy ufuncs on tensors: operators (``ndarray + tensor``) run as tinyframe ops and keep the
        graph; other ufuncs (``np.exp(tensor)``) compute in NumPy and return Tensors, as PyTorch's do."""
        return array_ufunc(ufunc, method, inputs, kwargs)

    def __array_wrap__(self, array: Any, context: Any = None, return_scalar: bool = False) -> Any:
        """Wraps the results of NumPy functions that fall back to ``np.asarray(tensor)`` (``np.argmax``,
        ``np.reshape``, ...) as Tensors, as PyTorch does."""
        return array[()] if return_scalar else Tensor._make(array)

    def __dlpack__(self, *, stream: Any = None, max_version: tuple | None = None, dl_device: Any = None,
                   copy: bool | None = None) -> Any:
        """A DLPack capsule sharing this tensor's memory, for ``np.from_dlpack``, ``torch.from_dlpack``,
        ``cupy.from_dlpack`` (the array API's exchange protocol)."""
        if self._requires_grad:
            raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
        options = {"stream": stream, "max_version": max_version, "dl_device": dl_device, "copy": copy}
        return self._data.__dlpack__(**{name: value for name, value in options.items() if value is not None})

    def __dlpack_device__(self) -> tuple:
        """``(device type, device index)`` as DLPack numbers them: ``(1, 0)`` for cpu, ``(2, i)`` for cuda:i."""
        return self._data.__dlpack_device__()

    def to(self, *args: Any, **kwargs: Any) -> Tensor:
        """Returns the tensor on another device and/or dtype: ``to(device)``, ``to(dtype)``,
        ``to(device, dtype)``, ``to(other)``; ``self`` when nothing changes and ``copy`` is False."""
        target_device, target_dtype, copy, target_format = parse_to_arguments(args, kwargs)
        out = self
        if target_dtype is not None and target_dtype.numpy != self._data.dtype:
            out = conversion.to_dtype(out, target_dtype)
        if target_device is not None and target_device != out.device:
            out = conversion.to_device(out, target_device)
        if target_format not in (None, memory_format.preserve_format) and not out.is_contiguous(target_format):
            out = shape_ops.Relayout.apply(out, order=creation.format_order(out._data, target_format))
        if copy and out is self:
            out = self.clone()
        return out

    def type(self, dtype: Any = None) -> Any:
        """The type name (``'tinyframe.FloatTensor'``) without ``dtype``; else the tensor cast to ``dtype``
        (a dtype, a legacy type such as ``tinyframe.LongTensor``, or its name ``'torch.LongTensor'``)."""
        if dtype is None:
            device = "" if self.device.type == "cpu" else f"{self.device.type}."
            return f"tinyframe.{device}{dtypes.legacy_type_name(self.dtype)}"
        return self.to(dtypes.as_dtype(dtype))

    def float(self) -> Tensor:
        """``self.to(tinyframe.float32)``."""
        return self.to(dtypes.float32)

    def double(self) -> Tensor:
        """``self.to(tinyframe.float64)``."""
        return self.to(dtypes.float64)

    def half(self) -> Tensor:
        """``self.to(tinyframe.float16)``."""
        return self.to(dtypes.float16)

    def bfloat16(self) -> Tensor:
        """``self.to(tinyframe.bfloat16)``."""
        return self.to(dtypes.bfloat16)

    def long(self) -> Tensor:
        """``self.to(tinyframe.int64)``."""
        return self.to(dtypes.int64)

    def int(self) -> Tensor:
        """``self.to(tinyframe.int32)``."""
        return self.to(dtypes.int32)

    def bool(self) -> Tensor:
        """``self.to(tinyframe.bool)``."""
        return self.to(dtypes.bool_)

    def cpu(self) -> Tensor:
        """The tensor on the cpu: ``self`` when it is already there, else a copy."""
        return self.to("cpu")

    def cuda(self, device: Any = None, non_blocking: builtins.bool = False) -> Tensor:
        """The tensor on a CUDA device (the current one unless ``device`` is given): ``self`` when it is
        already there, else a copy."""
        index = device.index if hasattr(device, "index") else device
        return self.to("cuda" if index is None else f"cuda:{index}")

    def new_tensor(self, data: Any, dtype: Any = None, device: Any = None,
                   requires_grad: builtins.bool = False) -> Tensor:
        """A new tensor of ``data``, with this tensor's dtype and device unless given."""
        return creation.tensor(data, dtype=dtype or self.dtype, device=device or self.device,
                               requires_grad=requires_grad)

    def new_zeros(self, *size: Any, dtype: Any = None, device: Any = None) -> Tensor:
        """A tensor of zeros of ``size``, with this tensor's dtype and device unless given."""
        return creation.zeros(*size, dtype=dtype or self.dtype, device=device or self.device)

    def new_ones(self, *size: Any, dtype: Any = None, device: Any = None) -> Tensor:
        """A tensor of ones of ``size``, with this tensor's dtype and device unless given."""
        return creation.ones(*size, dtype=dtype or self.dtype, device=device or self.device)

    def new_full(self, size: Any, fill_value: Any, dtype: Any = None, device: Any = None) -> Tensor:
        """A tensor of ``size`` filled with ``fill_value``, with this tensor's dtype and device unless given."""
        return creation.full(size, fill_value, dtype=dtype or self.dtype, device=device or self.device)

    def new_empty(self, *size: Any, dtype: Any = None, device: Any = None) -> Tensor:
        """An uninitialised tensor of ``size``, with this tensor's dtype and device unless given."""
        return self.new_zeros(*size, dtype=dtype, device=device)

    # ----------------------------------------------------------------- operators
    @_operator
    def __add__(self, other: Any) -> Tensor:
        return binary.Add.apply(self, other)

    @_operator
    def __radd__(self, other: Any) -> Tensor:
        return binary.Add.apply(self, other)  # PyTorch's order: the tensor's edge first

    @_operator
    def __iadd__(self, other: Any) -> Tensor:
        return self.add_(other)

    @_operator
    def __sub__(self, other: Any) -> Tensor:
        return binary.Sub.apply(self, other)

    @_operator
    def __rsub__(self, other: Any) -> Tensor:
        if isinstance(other, (int, float, complex)):
            return binary.Rsub.apply(self, other=other)
        return binary.Sub.apply(other, self)

    @_operator
    def __isub__(self, other: Any) -> Tensor:
        return self.sub_(other)

    @_operator
    def __mul__(self, other: Any) -> Tensor:
        return binary.Mul.apply(self, other)

    @_operator
    def __rmul__(self, other: Any) -> Tensor:
        return binary.Mul.apply(self, other)  # PyTorch's order: the tensor's edge first

    @_operator
    def __imul__(self, other: Any) -> Tensor:
        return self.mul_(other)

    @_operator
    def __truediv__(self, other: Any) -> Tensor:
        return binary.Div.apply(self, other)

    @_operator
    def __rtruediv__(self, other: Any) -> Tensor:
        if isinstance(other, (int, float)):  # as PyTorch computes it, to the last bit: reciprocal, then times
            return binary.Mul.apply(unary.reciprocal(self), other)
        return binary.Div.apply(other, self)

    @_operator
    def __itruediv__(self, other: Any) -> Tensor:
        return self.div_(other)

    @_operator
    def __floordiv__(self, other: Any) -> Tensor:
        return binary.floor_divide(self, other)

    @_operator
    def __rfloordiv__(self, other: Any) -> Tensor:
        return binary.floor_divide(other, self)

    @_operator
    def __ifloordiv__(self, other: Any) -> Tensor:
        return self.floor_divide_(other)

    @_operator
    def __mod__(self, other: Any) -> Tensor:
        return binary.remainder(self, other)

    @_operator
    def __rmod__(self, other: Any) -> Tensor:
        return binary.remainder(other, self)

    @_operator
    def __imod__(self, other: Any) -> Tensor:
        return self.remainder_(other)

    @_operator
    def __pow__(self, exponent: Any) -> Tensor:
        return binary.pow(self, exponent)

    @_operator
    def __rpow__(self, base: Any) -> Tensor:
        return binary.pow(base, self)

    @_operator
    def __ipow__(self, exponent: Any) -> Tensor:
        return self.pow_(exponent)

    def __matmul__(self, other: Any) -> Tensor:
        return linalg.matmul(self, other)

    def __rmatmul__(self, other: Any) -> Tensor:
        return linalg.matmul(other, self)

    def __neg__(self) -> Tensor:
        return unary.neg(self)

    def __pos__(self) -> Tensor:
        return self.positive()

    def __abs__(self) -> Tensor:
        return unary.abs(self)

    def __invert__(self) -> Tensor:
        kind = dtypes.kind(self._data.dtype)
        if kind in "fc":  # the operator's own TypeError (torch.bitwise_not raises NotImplementedError)
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return binary.logical_not(self) if kind == "b" else binary.bitwise_not(self)

    @_operator
    def __and__(self, other: Any) -> Tensor:
        return binary.bitwise_and(self, other)

    __rand__ = __and__

    @_operator
    def __iand__(self, other: Any) -> Tensor:
        return self.bitwise_and_(other)

    @_operator
    def __or__(self, other: Any) -> Tensor:
        return binary.bitwise_or(self, other)

    __ror__ = __or__

    @_operator
    def __ior__(self, other: Any) -> Tensor:
        return self.bitwise_or_(other)

    @_operator
    def __xor__(self, other: Any) -> Tensor:
        return binary.bitwise_xor(self, other)

    __rxor__ = __xor__

    @_operator
    def __ixor__(self, other: Any) -> Tensor:
        return self.bitwise_xor_(other)

    @_operator
    def __lshift__(self, other: Any) -> Tensor:
        return binary.bitwise_left_shift(self, other)

    @_operator
    def __rlshift__(self, other: Any) -> Tensor:
        return binary.bitwise_left_shift(other, self)

    @_operator
    def __ilshift__(self, other: Any) -> Tensor:
        return self.bitwise_left_shift_(other)

    @_operator
    def __rshift__(self, other: Any) -> Tensor:
        return binary.bitwise_right_shift(self, other)

    @_operator
    def __rrshift__(self, other: Any) -> Tensor:
        return binary.bitwise_right_shift(other, self)

    @_operator
    def __irshift__(self, other: Any) -> Tensor:
        return self.bitwise_right_shift_(other)

    @_operator
    def __eq__(self, other: Any) -> Tensor:  # type: ignore[override]  # elementwise, as PyTorch's
        return binary.eq(self, other)

    @_operator
    def __ne__(self, other: Any) -> Tensor:  # type: ignore[override]  # elementwise, as PyTorch's
        return binary.ne(self, other)

    @_operator
    def __lt__(self, other: Any) -> Tensor:
        return binary.lt(self, other)

    @_operator
    def __le__(self, other: Any) -> Tensor:
        return binary.le(self, other)

    @_operator
    def __gt__(self, other: Any) -> Tensor:
        return binary.gt(self, other)

    @_operator
    def __ge__(self, other: Any) -> Tensor:
        return binary.ge(self, other)

    def __getitem__(self, index: Any) -> Tensor:
        return indexing.getitem(self, index)

    def __setitem__(self, index: Any, value: Any) -> None:
        inplace.setitem(self, index, value)

    # ----------------------------------------------------------------- elementwise methods
    def add(self, other: Any, *deprecated: Any, alpha: Any = 1) -> Tensor:
        return binary.add(self, other, *deprecated, alpha=alpha)

    def sub(self, other: Any, *deprecated: Any, alpha: Any = 1) -> Tensor:
        return binary.sub(self, other, *deprecated, alpha=alpha)

    subtract = sub

    def mul(self, other: Any) -> Tensor:
        return binary.mul(self, other)

    multiply = mul

    def div(self, other: Any, *, rounding_mode: str | None = None) -> Tensor:
        return binary.div(self, other, rounding_mode=rounding_mode)

    divide = true_divide = div

    def pow(self, exponent: Any) -> Tensor:
        return binary.pow(self, exponent)

    def maximum(self, other: Tensor) -> Tensor:
        return binary.maximum(self, other)

    def minimum(self, other: Tensor) -> Tensor:
        return binary.minimum(self, other)

    def hypot(self, other: Tensor) -> Tensor:
        return binary.hypot(self, other)

    def atan2(self, other: Tensor) -> Tensor:
        return binary.atan2(self, other)

    arctan2 = atan2

    def lgamma(self) -> Tensor:
        return unary.lgamma(self)

    def digamma(self) -> Tensor:
        return unary.digamma(self)

    def erfinv(self) -> Tensor:
        return unary.erfinv(self)

    def sinc(self) -> Tensor:
        return unary.sinc(self)

    def logit(self, eps: builtins.float | None = None) -> Tensor:
        return unary.logit(self, eps)

    def deg2rad(self) -> Tensor:
        return unary.deg2rad(self)

    def rad2deg(self) -> Tensor:
        return unary.rad2deg(self)

    def logaddexp(self, other: Tensor) -> Tensor:
        return binary.logaddexp(self, other)

    def logaddexp2(self, other: Tensor) -> Tensor:
        return binary.logaddexp2(self, other)

    def copysign(self, other: Any) -> Tensor:
        return binary.copysign(self, other)

    def nextafter(self, other: Tensor) -> Tensor:
        return binary.nextafter(self, other)

    def fmod(self, other: Any) -> Tensor:
        return binary.fmod(self, other)

    def xlogy(self, other: Any) -> Tensor:
        return binary.xlogy(self, other)

    def lerp(self, end: Tensor, weight: Any) -> Tensor:
        return binary.lerp(self, end, weight)

    def addcmul(self, tensor1: Tensor, tensor2: Any, *deprecated: Any, value: builtins.float = 1) -> Tensor:
        return binary.addcmul(self, tensor1, tensor2, *deprecated, value=value)

    def addcdiv(self, tensor1: Tensor, tensor2: Any, *deprecated: Any, value: builtins.float = 1) -> Tensor:
        return binary.addcdiv(self, tensor1, tensor2, *deprecated, value=value)

    def where(self, condition: Tensor, other: Any) -> Tensor:
        return binary.where(condition, self, other)

    def clamp(self, min: Any = None, max: Any = None) -> Tensor:
        return binary.clamp(self, min, max)

    clip = clamp

    def eq(self, other: Any) -> Tensor:
        return binary.eq(self, other)

    def ne(self, other: Any) -> Tensor:
        return binary.ne(self, other)

    def lt(self, other: Any) -> Tensor:
        return binary.lt(self, other)

    def le(self, other: Any) -> Tensor:
        return binary.le(self, other)

    def gt(self, other: Any) -> Tensor:
        return binary.gt(self, other)

    def ge(self, other: Any) -> Tensor:
        return binary.ge(self, other)

    greater, greater_equal, less, less_equal, not_equal = gt, ge, lt, le, ne  # PyTorch's aliases

    def equal(self, other: Tensor) -> builtins.bool:
        """Whether ``other`` has the same shape and elements (a Python bool)."""
        binary.require_tensors("equal", self, other)
        return self.shape == other.shape and bool(binary.eq(self, other).all())

    def allclose(self, other: Tensor, rtol: builtins.float = 1e-5, atol: builtins.float = 1e-8,
                 equal_nan: builtins.bool = False) -> builtins.bool:
        return binary.allclose(self, other, rtol=rtol, atol=atol, equal_nan=equal_nan)

    def isclose(self, other: Tensor, rtol: builtins.float = 1e-5, atol: builtins.float = 1e-8,
                equal_nan: builtins.bool = False) -> Tensor:
        return binary.isclose(self, other, rtol=rtol, atol=atol, equal_nan=equal_nan)

    def logical_not(self) -> Tensor:
        return binary.logical_not(self)

    def logical_and(self, other: Tensor) -> Tensor:
        return binary.logical_and(self, other)

    def logical_or(self, other: Tensor) -> Tensor:
        return binary.logical_or(self, other)

    def neg(self) -> Tensor:
        return unary.neg(self)

    negative = neg

    def abs(self) -> Tensor:
        return unary.abs(self)

    # Methods that are the functions of the same name (t.remainder(2) is remainder(t, 2)).
    absolute, arccos, arcsin, arctan, fix = unary.absolute, unary.arccos, unary.arcsin, unary.arctan, unary.fix
    asinh, acosh, arcsinh, arccosh = unary.asinh, unary.acosh, unary.arcsinh, unary.arccosh
    floor_divide, remainder, logical_xor = binary.floor_divide, binary.remainder, binary.logical_xor
    ger, inner, moveaxis = linalg.ger, linalg.inner, shape_ops.moveaxis

    def cholesky_inverse(self, upper: builtins.bool = False) -> Tensor:
        return decomposition_ops.cholesky_inverse(self, upper)

    def cholesky_solve(self, input2: Tensor, upper: builtins.bool = False) -> Tensor:
        return decomposition_ops.cholesky_solve(self, input2, upper)

    def bitwise_and(self, other: Any) -> Tensor:
        """Elementwise AND of integer or bool tensors."""
        return binary.bitwise_and(self, other)

    def bitwise_or(self, other: Any) -> Tensor:
        """Elementwise OR of integer or bool tensors."""
        return binary.bitwise_or(self, other)

    def bitwise_xor(self, other: Any) -> Tensor:
        """Elementwise XOR of integer or bool tensors."""
        return binary.bitwise_xor(self, other)

    def bitwise_not(self) -> Tensor:
        """Elementwise NOT of an integer or bool tensor."""
        return binary.bitwise_not(self)

    def clamp_min(self, min: Any) -> Tensor:
        """``clamp(min=min)``."""
        return binary.clamp_min(self, min)

    def clamp_max(self, max: Any) -> Tensor:
        """``clamp(max=max)``."""
        return binary.clamp_max(self, max)

    def ravel(self) -> Tensor:
        """The elements as a 1-D tensor: ``contiguous().view(-1)``."""
        return shape_ops.ravel(self)

    def select(self, dim: builtins.int, index: builtins.int) -> Tensor:
        """The slice at ``index`` along ``dim``, which is removed: ``self[..., index, ...]``."""
        dim = dim + self.dim() if dim < 0 else dim
        return self[(slice(None),) * dim + (index,)]

    def type_as(self, other: Tensor) -> Tensor:
        """This tensor cast to ``other``'s dtype."""
        return self.to(other.dtype)

    def byte(self) -> Tensor:
        """``self.to(tinyframe.uint8)``."""
        return self.to(dtypes.uint8)

    def char(self) -> Tensor:
        """``self.to(tinyframe.int8)``."""
        return self.to(dtypes.int8)

    def short(self) -> Tensor:
        """``self.to(tinyframe.int16)``."""
        return self.to(dtypes.int16)

    def pin_memory(self) -> Tensor:
        """Self: tinyframe has no page-locked memory, and copies to the GPU work without it."""
        return self

    def is_pinned(self) -> builtins.bool:
        """False: see :meth:`pin_memory`."""
        return False

    def share_memory_(self) -> Tensor:
        """Moves the storage to shared memory (see :meth:`UntypedStorage.share_memory_`); returns self."""
        self.untyped_storage().share_memory_()
        return self

    def is_shared(self) -> builtins.bool:
        """Whether the storage is in shared memory: after :meth:`share_memory_` on it, and always for CUDA tensors."""
        return self.untyped_storage().is_shared()

    def exp(self) -> Tensor:
        return unary.exp(self)

    def exp2(self) -> Tensor:
        return unary.exp2(self)

    def expm1(self) -> Tensor:
        return unary.expm1(self)

    def log(self) -> Tensor:
        return unary.log(self)

    def log2(self) -> Tensor:
        return unary.log2(self)

    def log10(self) -> Tensor:
        return unary.log10(self)

    def log1p(self) -> Tensor:
        return unary.log1p(self)

    def sqrt(self) -> Tensor:
        return unary.sqrt(self)

    def rsqrt(self) -> Tensor:
        return unary.rsqrt(self)

    def square(self) -> Tensor:
        return unary.square(self)

    def reciprocal(self) -> Tensor:
        return unary.reciprocal(self)

    def sin(self) -> Tensor:
        return unary.sin(self)

    def cos(self) -> Tensor:
        return unary.cos(self)

    def tan(self) -> Tensor:
        return unary.tan(self)

    def tanh(self) -> Tensor:
        return unary.tanh(self)

    def sinh(self) -> Tensor:
        return unary.sinh(self)

    def cosh(self) -> Tensor:
        return unary.cosh(self)

    def asin(self) -> Tensor:
        return unary.asin(self)

    def acos(self) -> Tensor:
        return unary.acos(self)

    def atan(self) -> Tensor:
        return unary.atan(self)

    def atanh(self) -> Tensor:
        return unary.atanh(self)

    arctanh = atanh

    def sigmoid(self) -> Tensor:
        return unary.sigmoid(self)

    def relu(self) -> Tensor:
        return unary.relu(self)

    def erf(self) -> Tensor:
        return unary.erf(self)

    def sign(self) -> Tensor:
        return unary.sign(self)

    def floor(self) -> Tensor:
        return unary.floor(self)

    def ceil(self) -> Tensor:
        return unary.ceil(self)

    def round(self, *, decimals: builtins.int | None = None) -> Tensor:
        return unary.round(self, decimals=decimals)

    def frac(self) -> Tensor:
        return unary.frac(self)

    def nan_to_num(self, nan: builtins.float = 0.0, posinf: builtins.float | None = None,
                   neginf: builtins.float | None = None) -> Tensor:
        return unary.nan_to_num(self, nan, posinf, neginf)

    def trunc(self) -> Tensor:
        return unary.trunc(self)

    def isnan(self) -> Tensor:
        return unary.isnan(self)

    def isinf(self) -> Tensor:
        return unary.isinf(self)

    def isfinite(self) -> Tensor:
        return unary.isfinite(self)

    # ----------------------------------------------------------------- reductions
    def sum(self, dim: Any = None, keepdim: builtins.bool = False, *, dtype: Any = None) -> Tensor:
        return reduction.sum(self, dim, keepdim, dtype=dtype)

    def mean(self, dim: Any = None, keepdim: builtins.bool = False, *, dtype: Any = None) -> Tensor:
        return reduction.mean(self, dim, keepdim, dtype=dtype)

    def prod(self, dim: builtins.int | None = None, keepdim: builtins.bool = False, *, dtype: Any = None) -> Tensor:
        return reduction.prod(self, dim, keepdim, dtype=dtype)

    def max(self, dim: builtins.int | Tensor | None = None, keepdim: builtins.bool = False) -> Any:
        return reduction.max(self, dim, keepdim)

    def min(self, dim: builtins.int | Tensor | None = None, keepdim: builtins.bool = False) -> Any:
        return reduction.min(self, dim, keepdim)

    def amax(self, dim: Any = (), keepdim: builtins.bool = False) -> Tensor:
        return reduction.amax(self, dim, keepdim)

    def amin(self, dim: Any = (), keepdim: builtins.bool = False) -> Tensor:
        return reduction.amin(self, dim, keepdim)

    def argmax(self, dim: builtins.int | None = None, keepdim: builtins.bool = False) -> Tensor:
        return reduction.argmax(self, dim, keepdim)

    def argmin(self, dim: builtins.int | None = None, keepdim: builtins.bool = False) -> Tensor:
        return reduction.argmin(self, dim, keepdim)

    def var(self, dim: Any = None, unbiased: Any = None, keepdim: builtins.bool = False, *,
            correction: Any = None) -> Tensor:
        return reduction.var(self, dim, unbiased, keepdim, correction=correction)

    def std(self, dim: Any = None, unbiased: Any = None, keepdim: builtins.bool = False, *,
            correction: Any = None) -> Tensor:
        return reduction.std(self, dim, unbiased, keepdim, correction=correction)

    def norm(self, p: Any = "fro", dim: Any = None, keepdim: builtins.bool = False, dtype: Any = None) -> Tensor:
        return reduction.norm(self, p, dim, keepdim, dtype)

    def logsumexp(self, dim: Any, keepdim: builtins.bool = False) -> Tensor:
        return reduction.logsumexp(self, dim, keepdim)

    def softmax(self, dim: builtins.int, dtype: Any = None) -> Tensor:
        return reduction.softmax(self, dim, dtype=dtype)

    def log_softmax(self, dim: builtins.int, dtype: Any = None) -> Tensor:
        return reduction.log_softmax(self, dim, dtype=dtype)

    def cumsum(self, dim: builtins.int, *, dtype: Any = None) -> Tensor:
        return reduction.cumsum(self, dim, dtype=dtype)

    def all(self, dim: Any = None, keepdim: builtins.bool = False) -> Tensor:
        return reduction.all(self, dim, keepdim)

    def any(self, dim: Any = None, keepdim: builtins.bool = False) -> Tensor:
        return reduction.any(self, dim, keepdim)

    # ----------------------------------------------------------------- linear algebra
    def matmul(self, other: Tensor) -> Tensor:
        return linalg.matmul(self, other)

    def mm(self, other: Tensor) -> Tensor:
        return linalg.mm(self, other)

    def bmm(self, other: Tensor) -> Tensor:
        return linalg.bmm(self, other)

    def mv(self, vec: Tensor) -> Tensor:
        return linalg.mv(self, vec)

    def dot(self, other: Tensor) -> Tensor:
        return linalg.dot(self, other)

    def vdot(self, other: Tensor) -> Tensor:
        return linalg.vdot(self, other)

    def outer(self, other: Tensor) -> Tensor:
        return linalg.outer(self, other)

    # ----------------------------------------------------------------- shape
    def reshape(self, *shape: Any) -> Tensor:
        return shape_ops.reshape(self, *shape)

    def view(self, *shape: Any, dtype: dtypes.dtype | None = None) -> Tensor:
        """The same data seen with another ``shape`` (one size may be -1; the tensor must be contiguous
        enough), or ``view(dtype)``: its memory read as elements of another dtype (see ``view_dtype``)."""
        if len(shape) == 1 and isinstance(shape[0], dtypes.dtype):
            dtype, shape = shape[0], ()
        if dtype is not None and not shape:
            return shape_ops.view_dtype(self, dtype)
        return shape_ops.view(self, *shape)

    def view_as(self, other: Tensor) -> Tensor:
        """``view(other.shape)``."""
        return shape_ops.view(self, other.shape)

    def reshape_as(self, other: Tensor) -> Tensor:
        """``reshape(other.shape)``."""
        return shape_ops.reshape(self, other.shape)

    def flatten(self, start_dim: builtins.int = 0, end_dim: builtins.int = -1) -> Tensor:
        return shape_ops.flatten(self, start_dim, end_dim)

    def unflatten(self, dim: builtins.int, sizes: Sequence[builtins.int]) -> Tensor:
        return shape_ops.unflatten(self, dim, sizes)

    def transpose(self, dim0: builtins.int, dim1: builtins.int) -> Tensor:
        return shape_ops.transpose(self, dim0, dim1)

    swapaxes = swapdims = transpose

    def t(self) -> Tensor:
        return shape_ops.t(self)

    @property
    def T(self) -> Tensor:
        """The dimensions in reverse order (the transpose of a matrix)."""
        return shape_ops.permute(self, tuple(range(self.ndim - 1, -1, -1)))

    @property
    def mT(self) -> Tensor:
        """The last two dimensions swapped (a batch of transposed matrices; a 0-d tensor as it is)."""
        if self._data.ndim < 2:
            if self._data.ndim:
                raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.")
            return shape_ops.transpose(self, 0, 0)
        return shape_ops.transpose(self, -2, -1)

    def permute(self, *dims: Any) -> Tensor:
        return shape_ops.permute(self, *dims)

    def movedim(self, source: Any, destination: Any) -> Tensor:
        return shape_ops.movedim(self, source, destination)

    def squeeze(self, dim: Any = None) -> Tensor:
        return shape_ops.squeeze(self, dim)

    def unsqueeze(self, dim: builtins.int) -> Tensor:
        return shape_ops.unsqueeze(self, dim)

    def expand(self, *sizes: Any) -> Tensor:
        """A view with size-1 dimensions repeated to ``sizes`` without copying (-1 keeps a size)."""
        return shape_ops.expand(self, *sizes)

    def expand_as(self, other: Tensor) -> Tensor:
        """``expand(other.shape)``."""
        return shape_ops.expand(self, other.shape)

    def broadcast_to(self, *size: Any) -> Tensor:
        """This tensor expanded to ``size`` (given as one sequence or as ints), without copying."""
        return shape_ops.expand(self, size[0] if len(size) == 1 and not isinstance(size[0], int) else size)

    def narrow(self, dim: builtins.int, start: builtins.int, length: builtins.int) -> Tensor:
        return shape_ops.narrow(self, dim, start, length)

    def tile(self, *dims: Any) -> Tensor:
        return shape_ops.tile(self, dims)

    def repeat(self, *sizes: Any) -> Tensor:
        """The tensor tiled ``sizes`` times along each dimension (copying)."""
        return shape_ops.repeat(self, *sizes)

    def flip(self, *args: Any, dims: Any = None) -> Tensor:
        """The elements in reverse order along ``dims`` (given as ints, a sequence, or ``dims=``)."""
        return shape_ops.flip(self, *args, dims=dims)

    def tensor_split(self, indices_or_sections: Any, dim: builtins.int = 0) -> tuple:
        """See :func:`tinyframe.tensor_split`."""
        return shape_ops.tensor_split(self, indices_or_sections, dim)

    hsplit, vsplit, dsplit = shape_ops.hsplit, shape_ops.vsplit, shape_ops.dsplit

    def split(self, split_size: Any, dim: builtins.int = 0) -> tuple:
        return shape_ops.split(self, split_size, dim)

    def chunk(self, chunks: builtins.int, dim: builtins.int = 0) -> tuple:
        return shape_ops.chunk(self, chunks, dim)

    def unsafe_split(self, split_size: Any, dim: builtins.int = 0) -> tuple:
        return shape_ops.unsafe_split(self, split_size, dim)

    def unsafe_chunk(self, chunks: builtins.int, dim: builtins.int = 0) -> tuple:
        return shape_ops.unsafe_chunk(self, chunks, dim)

    def unbind(self, dim: builtins.int = 0) -> tuple:
        return shape_ops.unbind(self, dim)

    def clone(self, *, memory_format: Any = None) -> Tensor:
        return shape_ops.clone(self, memory_format=memory_format)

    def contiguous(self, memory_format: Any = None) -> Tensor:
        """The tensor with its elements in row-major order (or in ``memory_format``'s): ``self`` if they
        already are, else a copy."""
        return shape_ops.contiguous(self, memory_format)

    # ----------------------------------------------------------------- indexing
    def gather(self, dim: builtins.int, index: Tensor) -> Tensor:
        return indexing.gather(self, dim, index)

    def index_select(self, dim: builtins.int, index: Tensor) -> Tensor:
        return indexing.index_select(self, dim, index)

    def masked_fill(self, mask: Tensor, value: Any) -> Tensor:
        return indexing.masked_fill(self, mask, value)

    def scatter_add(self, dim: builtins.int, index: Tensor, src: Tensor) -> Tensor:
        return indexing.scatter_add(self, dim, index, src)

    def nonzero(self, *, as_tuple: builtins.bool = False) -> Any:
        return indexing.nonzero(self, as_tuple=as_tuple)

    def masked_select(self, mask: Tensor) -> Tensor:
        return indexing.masked_select(self, mask)

    def take_along_dim(self, indices: Tensor, dim: builtins.int | None = None) -> Tensor:
        return indexing.take_along_dim(self, indices, dim)

    # ----------------------------------------------------------------- sorting and selection
    def sort(self, dim: builtins.int = -1, descending: builtins.bool = False, *, stable: builtins.bool = False) -> Any:
        return sorting_ops.sort(self, dim, descending, stable=stable)

    def argsort(self, dim: builtins.int = -1, descending: builtins.bool = False,
                stable: builtins.bool = False) -> Tensor:
        return sorting_ops.argsort(self, dim, descending, stable)

    def msort(self) -> Tensor:
        return sorting_ops.msort(self)

    def topk(self, k: builtins.int, dim: builtins.int = -1, largest: builtins.bool = True,
             sorted: builtins.bool = True) -> Any:
        return sorting_ops.topk(self, k, dim, largest, sorted)

    def kthvalue(self, k: builtins.int, dim: builtins.int = -1, keepdim: builtins.bool = False) -> Any:
        return sorting_ops.kthvalue(self, k, dim, keepdim)

    def median(self, dim: Any = None, keepdim: builtins.bool = False) -> Any:
        return sorting_ops.median(self, dim, keepdim)

    def nanmedian(self, dim: Any = None, keepdim: builtins.bool = False) -> Any:
        return sorting_ops.nanmedian(self, dim, keepdim)

    def mode(self, dim: builtins.int = -1, keepdim: builtins.bool = False) -> Any:
        return sorting_ops.mode(self, dim, keepdim)

    def quantile(self, q: Any, dim: builtins.int | None = None, keepdim: builtins.bool = False, *,
                 interpolation: str = "linear") -> Tensor:
        return sorting_ops.quantile(self, q, dim, keepdim, interpolation=interpolation)

    def nanquantile(self, q: Any, dim: builtins.int | None = None, keepdim: builtins.bool = False, *,
                    interpolation: str = "linear") -> Tensor:
        return sorting_ops.nanquantile(self, q, dim, keepdim, interpolation=interpolation)

    def unique(self, sorted: builtins.bool = True, return_inverse: builtins.bool = False,
               return_counts: builtins.bool = False,
               dim: builtins.int | None = None) -> Any:
        return sorting_ops.unique(self, sorted, return_inverse, return_counts, dim)

    def unique_consecutive(self, return_inverse: builtins.bool = False, return_counts: builtins.bool = False,
                           dim: builtins.int | None = None) -> Any:
        return sorting_ops.unique_consecutive(self, return_inverse, return_counts, dim)

    def cumprod(self, dim: builtins.int, *, dtype: Any = None) -> Tensor:
        return sorting_ops.cumprod(self, dim, dtype=dtype)

    def cummax(self, dim: builtins.int) -> Any:
        return sorting_ops.cummax(self, dim)

    def cummin(self, dim: builtins.int) -> Any:
        return sorting_ops.cummin(self, dim)

    def aminmax(self, *, dim: builtins.int | None = None, keepdim: builtins.bool = False) -> Any:
        return sorting_ops.aminmax(self, dim=dim, keepdim=keepdim)

    def bincount(self, weights: Tensor | None = None, minlength: builtins.int = 0) -> Tensor:
        return sorting_ops.bincount(self, weights, minlength)

    def histc(self, bins: builtins.int = 100, min: builtins.float = 0, max: builtins.float = 0) -> Tensor:
        return sorting_ops.histc(self, bins, min, max)

    def stft(self, n_fft: builtins.int, hop_length: builtins.int | None = None, win_length: builtins.int | None = None,
             window: Tensor | None = None, center: builtins.bool = True, pad_mode: str = "reflect",
             normalized: builtins.bool = False, onesided: builtins.bool | None = None,
             return_complex: builtins.bool | None = None) -> Tensor:
        return stft_ops.stft(self, n_fft, hop_length, win_length, window, center, pad_mode, normalized, onesided,
                             return_complex)

    def istft(self, n_fft: builtins.int, hop_length: builtins.int | None = None, win_length: builtins.int | None = None,
              window: Tensor | None = None, center: builtins.bool = True, normalized: builtins.bool = False,
              onesided: builtins.bool | None = None, length: builtins.int | None = None,
              return_complex: builtins.bool = False) -> Tensor:
        return stft_ops.istft(self, n_fft, hop_length, win_length, window, center, normalized, onesided, length,
                              return_complex)

    def histogram(self, bins: builtins.int | Tensor, *, range: tuple | None = None, weight: Tensor | None = None,
                  density: builtins.bool = False) -> Any:
        return sorting_ops.histogram(self, bins, range=range, weight=weight, density=density)

    def count_nonzero(self, dim: Any = None) -> Tensor:
        return sorting_ops.count_nonzero(self, dim)

    def argwhere(self) -> Tensor:
        return sorting_ops.argwhere(self)

    # ----------------------------------------------------------------- construction, scatter, products
    def tril(self, diagonal: builtins.int = 0) -> Tensor:
        return construction_ops.tril(self, diagonal)

    def triu(self, diagonal: builtins.int = 0) -> Tensor:
        return construction_ops.triu(self, diagonal)

    def tril_(self, diagonal: builtins.int = 0) -> Tensor:
        return inplace.apply(self, construction_ops.tril, diagonal)

    def triu_(self, diagonal: builtins.int = 0) -> Tensor:
        return inplace.apply(self, construction_ops.triu, diagonal)

    def roll(self, shifts: Any, dims: Any = None) -> Tensor:
        return construction_ops.roll(self, shifts, dims)

    def diag(self, diagonal: builtins.int = 0) -> Tensor:
        return construction_ops.diag(self, diagonal)

    def as_strided(self, size: Sequence[builtins.int], stride: Sequence[builtins.int],
                   storage_offset: builtins.int | None = None) -> Tensor:
        return construction_ops.as_strided(self, size, stride, storage_offset)

    def diagflat(self, offset: builtins.int = 0) -> Tensor:
        return construction_ops.diagflat(self, offset)

    def diag_embed(self, offset: builtins.int = 0, dim1: builtins.int = -2, dim2: builtins.int = -1) -> Tensor:
        return construction_ops.diag_embed(self, offset, dim1, dim2)

    def diagonal(self, offset: builtins.int = 0, dim1: builtins.int = 0, dim2: builtins.int = 1) -> Tensor:
        return construction_ops.diagonal(self, offset, dim1, dim2)

    def diagonal_scatter(self, src: Tensor, offset: builtins.int = 0, dim1: builtins.int = 0,
                         dim2: builtins.int = 1) -> Tensor:
        return construction_ops.diagonal_scatter(self, src, offset, dim1, dim2)

    def trace(self) -> Tensor:
        return construction_ops.trace(self)

    def unfold(self, dimension: builtins.int, size: builtins.int, step: builtins.int) -> Tensor:
        """A view of every window of ``size`` elements, ``step`` apart, along ``dimension``: that
        dimension then counts the windows and a new last dimension holds them."""
        return construction_ops.unfold(self, dimension, size, step)

    def rot90(self, k: builtins.int = 1, dims: Sequence[builtins.int] = (0, 1)) -> Tensor:
        return construction_ops.rot90(self, k, dims)

    def fliplr(self) -> Tensor:
        return construction_ops.fliplr(self)

    def flipud(self) -> Tensor:
        return construction_ops.flipud(self)

    def take(self, index: Tensor) -> Tensor:
        return construction_ops.take(self, index)

    def diff(self, n: builtins.int = 1, dim: builtins.int = -1, prepend: Tensor | None = None,
             append: Tensor | None = None) -> Tensor:
        return construction_ops.diff(self, n, dim, prepend, append)

    def repeat_interleave(self, repeats: Any = None, dim: builtins.int | None = None, *,
                          output_size: builtins.int | None = None) -> Tensor:
        return construction_ops.repeat_interleave(self, repeats, dim, output_size=output_size)

    def scatter(self, dim: builtins.int, index: Tensor, src: Any = None, *, value: Any = None,
                reduce: str | None = None) -> Tensor:
        return scatter_ops.scatter(self, dim, index, src, value=value, reduce=reduce)

    def scatter_(self, dim: builtins.int, index: Tensor, src: Any = None, *, value: Any = None,
                 reduce: str | None = None) -> Tensor:
        return inplace.apply(self, scatter_ops.scatter, dim, index, src, value=value, reduce=reduce)

    def scatter_add_(self, dim: builtins.int, index: Tensor, src: Tensor) -> Tensor:
        return inplace.apply(self, indexing.scatter_add, dim, index, src)

    def scatter_reduce(self, dim: builtins.int, index: Tensor, src: Tensor, reduce: str, *,
                       include_self: builtins.bool = True) -> Tensor:
        return scatter_ops.scatter_reduce(self, dim, index, src, reduce, include_self=include_self)

    def scatter_reduce_(self, dim: builtins.int, index: Tensor, src: Tensor, reduce: str, *,
                        include_self: builtins.bool = True) -> Tensor:
        return inplace.apply(self, scatter_ops.scatter_reduce, dim, index, src, reduce, include_self=include_self)

    def index_add(self, dim: builtins.int, index: Tensor, source: Tensor, *, alpha: Any = 1) -> Tensor:
        return scatter_ops.index_add(self, dim, index, source, alpha=alpha)

    def index_add_(self, dim: builtins.int, index: Tensor, source: Tensor, *, alpha: Any = 1) -> Tensor:
        return inplace.apply(self, scatter_ops.index_add, dim, index, source, alpha=alpha)

    def index_reduce(self, dim: builtins.int, index: Tensor, source: Tensor, reduce: str, *,
                     include_self: builtins.bool = True) -> Tensor:
        return scatter_ops.index_reduce(self, dim, index, source, reduce, include_self=include_self)

    def index_reduce_(self, dim: builtins.int, index: Tensor, source: Tensor, reduce: str, *,
                      include_self: builtins.bool = True) -> Tensor:
        return inplace.apply(self, scatter_ops.index_reduce, dim, index, source, reduce, include_self=include_self)

    def index_copy(self, dim: builtins.int, index: Tensor, source: Tensor) -> Tensor:
        return scatter_ops.index_copy(self, dim, index, source)

    def index_copy_(self, dim: builtins.int, index: Tensor, source: Tensor) -> Tensor:
        return inplace.apply(self, scatter_ops.index_copy, dim, index, source)

    def index_fill(self, dim: builtins.int, index: Tensor, value: Any) -> Tensor:
        return scatter_ops.index_fill(self, dim, index, value)

    def index_fill_(self, dim: builtins.int, index: Tensor, value: Any) -> Tensor:
        return inplace.apply(self, scatter_ops.index_fill, dim, index, value)

    def index_put(self, indices: tuple, values: Tensor, accumulate: builtins.bool = False) -> Tensor:
        return scatter_ops.index_put(self, indices, values, accumulate)

    def index_put_(self, indices: tuple, values: Tensor, accumulate: builtins.bool = False) -> Tensor:
        return inplace.apply(self, scatter_ops.index_put, indices, values, accumulate)

    def cross(self, other: Tensor, dim: builtins.int | None = None) -> Tensor:
        return contraction_ops.cross(self, other, dim)

    def kron(self, other: Tensor) -> Tensor:
        return contraction_ops.kron(self, other)

    def addmm(self, mat1: Tensor, mat2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
        return contraction_ops.addmm(self, mat1, mat2, beta=beta, alpha=alpha)

    def addmv(self, mat: Tensor, vec: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
        return contraction_ops.addmv(self, mat, vec, beta=beta, alpha=alpha)

    def addr(self, vec1: Tensor, vec2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
        return contraction_ops.addr(self, vec1, vec2, beta=beta, alpha=alpha)

    def baddbmm(self, batch1: Tensor, batch2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
        return contraction_ops.baddbmm(self, batch1, batch2, beta=beta, alpha=alpha)

    def addbmm(self, batch1: Tensor, batch2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
        return contraction_ops.addbmm(self, batch1, batch2, beta=beta, alpha=alpha)

    # ----------------------------------------------------------------- matrix functions
    def det(self) -> Tensor:
        return decomposition_ops.det(self)

    def logdet(self) -> Tensor:
        return decomposition_ops.logdet(self)

    def slogdet(self) -> Any:
        return decomposition_ops.slogdet(self)

    def inverse(self) -> Tensor:
        return decomposition_ops.inverse(self)

    def cholesky(self, upper: builtins.bool = False) -> Tensor:
        return decomposition_ops.cholesky(self, upper)

    def pinverse(self, rcond: builtins.float = 1e-15) -> Tensor:
        return decomposition_ops.pinverse(self, rcond)

    def svd(self, some: builtins.bool = True, compute_uv: builtins.bool = True) -> Any:
        return decomposition_ops.svd(self, some, compute_uv)

    def qr(self, some: builtins.bool = True) -> Any:
        return decomposition_ops.qr(self, some)

    def lu(self, pivot: builtins.bool = True, get_infos: builtins.bool = False) -> Any:
        """``tinyframe.lu(self, pivot, get_infos)`` (deprecated in PyTorch for ``linalg.lu_factor``)."""
        return lu_ops.lu(self, pivot, get_infos)

    def lu_solve(self, LU_data: Tensor, LU_pivots: Tensor) -> Tensor:
        """``tinyframe.lu_solve(self, LU_data, LU_pivots)``: the solution of ``A X = self``."""
        return lu_ops.lu_solve(self, LU_data, LU_pivots)

    def orgqr(self, input2: Tensor) -> Tensor:
        """``tinyframe.linalg.householder_product(self, input2)``."""
        return lu_ops.householder_product(self, input2)

    def geqrf(self) -> Any:
        return lu_ops.geqrf(self)

    def ormqr(self, input2: Tensor, input3: Tensor, left: builtins.bool = True,
              transpose: builtins.bool = False) -> Tensor:
        """``tinyframe.ormqr(self, input2, input3, left, transpose)``."""
        return lu_ops.ormqr(self, input2, input3, left, transpose)

    def matrix_exp(self) -> Tensor:
        """``tinyframe.linalg.matrix_exp`` of this tensor: the exponential of each square matrix."""
        return linalg_functions.matrix_exp(self)

    def matrix_power(self, n: builtins.int) -> Tensor:
        """``tinyframe.linalg.matrix_power(self, n)``: this (batch of) square matrix to the power ``n``."""
        return linalg_functions.matrix_power(self, n)

    # ----------------------------------------------------------------- sampling
    def bernoulli(self, p: builtins.float | None = None, *, generator: Any = None) -> Tensor:
        return sampling_ops.bernoulli(self, p, generator=generator)

    def multinomial(self, num_samples: builtins.int, replacement: builtins.bool = False, *,
                    generator: Any = None) -> Tensor:
        return sampling_ops.multinomial(self, num_samples, replacement, generator=generator)

    # ----------------------------------------------------------------- in-place
    def add_(self, other: Any, *deprecated: Any, alpha: Any = 1) -> Tensor:
        return inplace.apply(self, binary.add, other, *deprecated, alpha=alpha)

    def sub_(self, other: Any, *deprecated: Any, alpha: Any = 1) -> Tensor:
        return inplace.apply(self, binary.sub, other, *deprecated, alpha=alpha)

    def mul_(self, other: Any) -> Tensor:
        return inplace.apply(self, binary.mul, other)

    def div_(self, other: Any, *, rounding_mode: str | None = None) -> Tensor:
        return inplace.apply(self, binary.div, other, rounding_mode=rounding_mode)

    def pow_(self, exponent: Any) -> Tensor:
        return inplace.apply(self, binary.pow, exponent)

    def clamp_(self, min: Any = None, max: Any = None) -> Tensor:
        return inplace.apply(self, binary.clamp, min, max)

    clip_ = clamp_

    def neg_(self) -> Tensor:
        return inplace.apply(self, unary.neg)

    def exp_(self) -> Tensor:
        return inplace.apply(self, unary.exp)

    def log_(self) -> Tensor:
        return inplace.apply(self, unary.log)

    def sqrt_(self) -> Tensor:
        return inplace.apply(self, unary.sqrt)

    def abs_(self) -> Tensor:
        return inplace.apply(self, unary.abs)

    def sigmoid_(self) -> Tensor:
        return inplace.apply(self, unary.sigmoid)

    def tanh_(self) -> Tensor:
        return inplace.apply(self, unary.tanh)

    def relu_(self) -> Tensor:
        return inplace.apply(self, unary.relu)

    def masked_fill_(self, mask: Tensor, value: Any) -> Tensor:
        return inplace.apply(self, indexing.masked_fill, mask, value)

    def zero_(self) -> Tensor:
        """Fills the tensor with zeros; returns self."""
        return inplace.zero(self)

    def fill_(self, value: Any) -> Tensor:
        """Fills the tensor with ``value``; returns self."""
        return inplace.fill(self, value)

    def copy_(self, src: Tensor, non_blocking: builtins.bool = False) -> Tensor:
        """Copies ``src`` (broadcast to this tensor's shape, cast to its dtype and device) into it; returns self.
        A number is taken as PyTorch's parser wraps it, a 0-d tensor (``CopyBackwards``)."""
        if type(src) in (builtins.int, builtins.float, builtins.bool, builtins.complex):
            src = _graph.wrap(np.asarray(src))
        return inplace.copy(self, src)

    def uniform_(self, a: builtins.float = 0.0, b: builtins.float = 1.0, *, generator: Any = None) -> Tensor:
        """Fills the tensor with samples from the uniform distribution on ``[a, b)``; returns self."""
        return inplace.random_fill(self, "uniform", a, b, generator=generator)

    def normal_(self, mean: builtins.float = 0.0, std: builtins.float = 1.0, *, generator: Any = None) -> Tensor:
        """Fills the tensor with samples from the normal distribution ``N(mean, std**2)``; returns self."""
        return inplace.random_fill(self, "normal", mean, std, generator=generator)

    # In-place forms of elementwise methods, as PyTorch names them.
    acos_, asin_, atan_, cos_ = (_inplace_of(n) for n in ("acos", "asin", "atan", "cos"))
    cosh_, sin_, sinh_, tan_ = (_inplace_of(n) for n in ("cosh", "sin", "sinh", "tan"))
    asinh_, acosh_, atanh_ = (_inplace_of(n) for n in ("asinh", "acosh", "atanh"))
    arccos_, arcsin_, arctan_, arcsinh_, arccosh_, arctanh_ = acos_, asin_, atan_, asinh_, acosh_, atanh_
    ceil_, floor_, round_, trunc_, sign_ = (_inplace_of(n) for n in ("ceil", "floor", "round", "trunc", "sign"))
    fix_ = trunc_
    erf_, exp2_, expm1_, log10_, log1p_, log2_ = (_inplace_of(n) for n in
                                                  ("erf", "exp2", "expm1", "log10", "log1p", "log2"))
    reciprocal_, rsqrt_, square_ = (_inplace_of(n) for n in ("reciprocal", "rsqrt", "square"))
    negative_ = neg_
    absolute_ = abs_
    eq_, ne_, ge_, gt_, le_, lt_ = (_inplace_of(n) for n in ("eq", "ne", "ge", "gt", "le", "lt"))
    logical_and_, logical_not_, logical_or_ = (_inplace_of(n) for n in ("logical_and", "logical_not", "logical_or"))
    logical_xor_ = _inplace_of("logical_xor")
    greater_, greater_equal_, less_, less_equal_, not_equal_ = gt_, ge_, lt_, le_, ne_
    bitwise_and_, bitwise_or_, bitwise_xor_, bitwise_not_ = (
        _inplace_of(n) for n in ("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not"))
    multiply_, subtract_, divide_, true_divide_ = mul_, sub_, div_, div_
    floor_divide_, remainder_ = _inplace_of("floor_divide"), _inplace_of("remainder")
    cumsum_, cumprod_ = _inplace_of("cumsum"), _inplace_of("cumprod")
    addmm_, addmv_, addr_ = _inplace_of("addmm"), _inplace_of("addmv"), _inplace_of("addr")
    addbmm_, baddbmm_ = _inplace_of("addbmm"), _inplace_of("baddbmm")

    clamp_min_, clamp_max_ = _inplace_of("clamp_min"), _inplace_of("clamp_max")
    lgamma_, digamma_, erfinv_, frac_, sinc_, logit_ = (_inplace_of(n) for n in
                                                        ("lgamma", "digamma", "erfinv", "frac", "sinc", "logit"))
    deg2rad_, rad2deg_, nan_to_num_ = _inplace_of("deg2rad"), _inplace_of("rad2deg"), _inplace_of("nan_to_num")
    hypot_, atan2_, copysign_, fmod_, xlogy_ = (_inplace_of(n) for n in ("hypot", "atan2", "copysign", "fmod", "xlogy"))
    nextafter_ = _inplace_of("nextafter")
    arctan2_ = atan2_
    lerp_, addcmul_, addcdiv_ = _inplace_of("lerp"), _inplace_of("addcmul"), _inplace_of("addcdiv")

    # ----------------------------------------------------------------- rarely used (their ops load on first use)
    # Methods that are the function of their name in the lazily loaded family ops.numerics (``t.frexp()`` is
    # ``numerics.frexp(t)``): the family loads when one is first read.
    frexp, ldexp, isposinf, isneginf, renorm, triangular_solve, solve, lstsq, eig, symeig = (
        _FamilyMethod(numerics_ops) for _ in range(10))
    ldexp_, renorm_ = _inplace_of("ldexp"), _inplace_of("renorm")

    # ----------------------------------------------------------------- special functions, NaN-aware
    # reductions, statistics, integer ops
    def erfc(self) -> Tensor:
        return unary.erfc(self)

    def polygamma(self, n: builtins.int) -> Tensor:
        return unary.polygamma(n, self)

    def i0(self) -> Tensor:
        return special_ops.i0(self)

    def mvlgamma(self, p: builtins.int) -> Tensor:
        return special_ops.mvlgamma(self, p)

    def igamma(self, other: Tensor) -> Tensor:
        return special_ops.igamma(self, other)

    def igammac(self, other: Tensor) -> Tensor:
        return special_ops.igammac(self, other)

    igamma_, igammac_ = _inplace_of("igamma"), _inplace_of("igammac")

    def signbit(self) -> Tensor:
        return unary.signbit(self)

    def angle(self) -> Tensor:
        return unary.angle(self)

    def logcumsumexp(self, dim: builtins.int) -> Tensor:
        return reduction.logcumsumexp(self, dim)

    def nansum(self, dim: Any = None, keepdim: builtins.bool = False, *, dtype: Any = None) -> Tensor:
        return reduction.nansum(self, dim, keepdim, dtype=dtype)

    def nanmean(self, dim: Any = None, keepdim: builtins.bool = False, *, dtype: Any = None) -> Tensor:
        return reduction.nanmean(self, dim, keepdim, dtype=dtype)

    def dist(self, other: Tensor, p: builtins.float = 2) -> Tensor:
        return reduction.dist(self, other, p)

    def cov(self, *, correction: builtins.int = 1, fweights: Tensor | None = None,
            aweights: Tensor | None = None) -> Tensor:
        return statistics_ops.cov(self, correction=correction, fweights=fweights, aweights=aweights)

    def corrcoef(self) -> Tensor:
        return statistics_ops.corrcoef(self)

    def fmax(self, other: Tensor) -> Tensor:
        return binary.fmax(self, other)

    def fmin(self, other: Tensor) -> Tensor:
        return binary.fmin(self, other)

    def heaviside(self, values: Tensor) -> Tensor:
        return binary.heaviside(self, values)

    def gcd(self, other: Tensor) -> Tensor:
        return binary.gcd(self, other)

    def lcm(self, other: Tensor) -> Tensor:
        return binary.lcm(self, other)

    def bitwise_left_shift(self, other: Any) -> Tensor:
        return binary.bitwise_left_shift(self, other)

    def bitwise_right_shift(self, other: Any) -> Tensor:
        return binary.bitwise_right_shift(self, other)

    def float_power(self, exponent: Any) -> Tensor:
        return binary.float_power(self, exponent)

    def float_power_(self, exponent: Any) -> Tensor:
        """In-place ``Tensor.float_power``: this tensor must be float64, the result's dtype."""
        if self.dtype != dtypes.float64:
            raise RuntimeError(f"the base given to float_power_ has dtype {dtypes.scalar_type_name(self.dtype)} "
                               "but the operation's result requires dtype Double")
        return inplace.apply(self, binary.float_power, exponent)

    erfc_, i0_, mvlgamma_, polygamma_ = (_inplace_of(n) for n in ("erfc", "i0", "mvlgamma", "polygamma"))
    heaviside_, gcd_, lcm_ = _inplace_of("heaviside"), _inplace_of("gcd"), _inplace_of("lcm")
    bitwise_left_shift_, bitwise_right_shift_ = _inplace_of("bitwise_left_shift"), _inplace_of("bitwise_right_shift")

    def bernoulli_(self, p: Any = 0.5, *, generator: Any = None) -> Tensor:
        """Fills the tensor with 1s drawn with probability ``p`` (a number or a tensor) and 0s otherwise;
        returns self."""
        return inplace.random_fill(self, "bernoulli", p, generator=generator)

    def random_(self, from_: builtins.int | None = None, to: builtins.int | None = None, *,
                generator: Any = None) -> Tensor:
        """Fills the tensor with integers drawn uniformly from ``[from_, to)``; ``random_(to)`` draws from
        ``[0, to)`` and ``random_()`` from ``[0, 2**mantissa]`` (floats) or ``[0, max]`` (integers)."""
        if from_ is None:
            return inplace.random_fill(self, "random_bits", generator=generator)
        if to is None:
            from_, to = 0, from_
        if from_ >= to:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={from_} >= to={to}")
        return inplace.random_fill(self, "randint", from_, to, generator=generator)

    def exponential_(self, lambd: builtins.float = 1.0, *, generator: Any = None) -> Tensor:
        """Fills the tensor with samples from the exponential distribution of rate ``lambd``; returns self."""
        if not lambd > 0:
            raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd}")
        return inplace.random_fill(self, "exponential", lambd, generator=generator)

    def cauchy_(self, median: builtins.float = 0.0, sigma: builtins.float = 1.0, *, generator: Any = None) -> Tensor:
        """Fills the tensor with samples from the Cauchy distribution; returns self."""
        return inplace.random_fill(self, "cauchy", median, sigma, generator=generator)

    def log_normal_(self, mean: builtins.float = 1.0, std: builtins.float = 2.0, *, generator: Any = None) -> Tensor:
        """Fills the tensor with ``exp`` of ``N(mean, std**2)`` samples; returns self."""
        if not std > 0:
            raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std}")
        return inplace.random_fill(self, "log_normal", mean, std, generator=generator)

    def geometric_(self, p: builtins.float, *, generator: Any = None) -> Tensor:
        """Fills the tensor with the number of Bernoulli(p) trials up to the first success; returns self."""
        if not 0 < p < 1:
            raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p}")
        return inplace.random_fill(self, "geometric", p, generator=generator)

    # ----------------------------------------------------------------- in-place views and resizing
    def t_(self) -> Tensor:
        """In-place ``t()``: this tensor becomes its transpose; returns self."""
        if self._data.ndim > 2:
            raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {self._data.ndim}D")
        return inplace.restride(self, shape_ops.t)

    def transpose_(self, dim0: builtins.int, dim1: builtins.int) -> Tensor:
        """In-place ``transpose(dim0, dim1)``; returns self."""
        return inplace.restride(self, shape_ops.transpose, dim0, dim1)

    swapaxes_ = swapdims_ = transpose_

    def squeeze_(self, dim: Any = None) -> Tensor:
        """In-place ``squeeze(dim)``; returns self."""
        return inplace.restride(self, shape_ops.squeeze, dim)

    def unsqueeze_(self, dim: builtins.int) -> Tensor:
        """In-place ``unsqueeze(dim)``; returns self."""
        return inplace.restride(self, shape_ops.unsqueeze, dim)

    def resize_(self, *sizes: Any, memory_format: Any = None) -> Tensor:
        """Gives this tensor the shape ``sizes``, its elements kept in row-major order: those past
        the new number are dropped, new ones are zeros (PyTorch leaves them uninitialised)."""
        return inplace.resize(self, sizes)

    def resize_as_(self, other: Tensor, memory_format: Any = None) -> Tensor:
        """``resize_(other.shape)``."""
        return inplace.resize(self, tuple(other.shape))

    def fill_diagonal_(self, fill_value: Any, wrap: builtins.bool = False) -> Tensor:
        """Writes ``fill_value`` on the main diagonal (``self[i, i, ...]``; all dimensions equal beyond
        2-D); a tall matrix with ``wrap`` restarts the diagonal every ``columns + 1`` rows. Returns self."""
        shape = self._data.shape
        if len(shape) < 2:
            raise RuntimeError("dimensions must larger than 1")
        if len(shape) > 2 and len(set(shape)) != 1:
            raise RuntimeError("all dimensions of input must be of equal length")
        rows, columns = shape[0], shape[-1]
        count = min(rows, columns)
        if wrap and len(shape) == 2 and rows > columns:  # the diagonal restarts after a row of zeros
            count = len(range(0, rows * columns, columns + 1))
        flat = np.arange(count) * (columns + 1 if len(shape) == 2 else sum(columns ** k for k in range(len(shape))))
        positions = np.unravel_index(flat, shape)
        self[tuple(creation.tensor(p, device=self.device) for p in positions)] = fill_value
        return self

    def select_scatter(self, src: Tensor, dim: builtins.int, index: builtins.int) -> Tensor:
        return scatter_ops.select_scatter(self, src, dim, index)

    def slice_scatter(self, src: Tensor, dim: builtins.int = 0, start: builtins.int | None = None,
                      end: builtins.int | None = None, step: builtins.int = 1) -> Tensor:
        return scatter_ops.slice_scatter(self, src, dim, start, end, step)

    def split_with_sizes(self, split_sizes: Sequence[builtins.int], dim: builtins.int = 0) -> tuple:
        """``split`` into pieces of the given sizes."""
        return shape_ops.split_with_sizes(self, split_sizes, dim)

    def is_same_size(self, other: Tensor) -> builtins.bool:
        """Whether ``other`` has this tensor's shape."""
        binary.require_tensors("is_same_size", self, other)
        return self.shape == other.shape

    def is_conj(self) -> builtins.bool:
        """False: tinyframe's conjugates are computed when made (PyTorch's ``conj()`` of a complex tensor
        sets a lazy flag instead)."""
        return False

    is_neg = is_conj

    def masked_scatter(self, mask: Tensor, source: Tensor) -> Tensor:
        return scatter_ops.masked_scatter(self, mask, source)

    def masked_scatter_(self, mask: Tensor, source: Tensor) -> Tensor:
        return inplace.apply(self, scatter_ops.masked_scatter, mask, source)

    def put(self, index: Tensor, source: Tensor, accumulate: builtins.bool = False) -> Tensor:
        return scatter_ops.put(self, index, source, accumulate)

    def put_(self, index: Tensor, source: Tensor, accumulate: builtins.bool = False) -> Tensor:
        return inplace.apply(self, scatter_ops.put, index, source, accumulate)

    def new(self, *args: Any, device: Any = None) -> Tensor:
        """The legacy constructor with this tensor's dtype and device: ``new()`` is empty,
        ``new(2, 3)`` or ``new(size)`` a tensor of that size (zeros; PyTorch leaves them
        uninitialised), ``new(data)`` a tensor of the data."""
        if not args:
            return self.new_empty(0, device=device)
        if all(isinstance(n, int) for n in args) or isinstance(args[0], Size):
            return self.new_empty(*args, device=device)
        if len(args) == 1 and isinstance(args[0], Tensor):
            return args[0]
        return self.new_tensor(args[0], device=device)

    def sum_to_size(self, *size: Any) -> Tensor:
        """The sum of this tensor down to ``size``, to which it must broadcast (the reverse of ``expand``)."""
        size = tuple(size[0]) if len(size) == 1 and not isinstance(size[0], int) else size
        shape = tuple(self._data.shape)
        lead = len(shape) - len(size)
        if lead < 0 or any(n not in (1, m) for n, m in zip(size, shape[lead:])):
            raise RuntimeError(f"size {{{list(size)}}} is not expandable to size {{{list(shape)}}}.")
        if size == shape:
            return self
        dims = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(size) if n == 1 and shape[lead + i] != 1)
        total = reduction.sum(self, dims, keepdim=True)
        return total.view(size) if lead else total

    def apply_(self, callable: Any) -> Tensor:
        """Replaces each element ``x`` by ``callable(x)`` (a Python function; CPU tensors only); returns self."""
        if not self.is_cpu:
            raise TypeError("apply_ is only implemented on CPU tensors")
        self._data[...] = np.vectorize(callable, otypes=[self._data.dtype])(self._data)
        self._bump_version()
        return self

    # ----------------------------------------------------------------- storage and kinds
    def data_ptr(self) -> builtins.int:
        """The address of the first element (0 on the ``meta`` device, where there is none)."""
        return 0 if self.is_meta else address_of(self._data)

    def untyped_storage(self) -> UntypedStorage:
        """The memory this tensor views (shared by its views, its ``detach()`` and its base), as bytes."""
        return UntypedStorage(self._data)

    def storage(self) -> Any:
        """The memory this tensor views as a ``TypedStorage``: a flat sequence of elements of this dtype,
        shared by this tensor's views (deprecated in PyTorch, which warns once: use ``untyped_storage()``)."""
        from . import storage
        storage.warn_deprecated()
        return storage.storage_of_array(self._data)

    def storage_type(self) -> builtins.type:
        """The legacy storage type of this tensor's dtype (``tinyframe.FloatStorage`` for float32)."""
        from . import storage
        return storage.storage_type(self.dtype)

    def storage_offset(self) -> builtins.int:
        """Where the first element sits in the storage this tensor views, in elements."""
        return storage_of(self._data)[1]

    def is_complex(self) -> builtins.bool:
        """Whether the dtype is complex (``complex64`` or ``complex128``)."""
        return complex_ops.is_complex(self)

    def is_signed(self) -> builtins.bool:
        """Whether the dtype holds negative values (every dtype but uint8 and bool)."""
        return dtypes.kind(self._data.dtype) in "ifc"

    @property
    def layout(self) -> Any:
        """``tinyframe.strided`` for a dense tensor, ``tinyframe.sparse_coo`` for a sparse COO one."""
        return memory_format.sparse_coo if self.is_sparse else memory_format.strided

    @property
    def is_sparse(self) -> builtins.bool:
        """Whether this is a sparse COO tensor (``layout == tinyframe.sparse_coo``)."""
        return getattr(self._data, "layout", None) == "sparse_coo"

    # ----------------------------------------------------------------- sparse COO tensors (ops/sparse.py)
    def to_sparse(self, sparse_dim: builtins.int | None = None, *, layout: Any = None) -> Tensor:
        """The nonzero elements as a coalesced sparse COO tensor (``layout`` must be ``sparse_coo``)."""
        if layout not in (None, memory_format.sparse_coo):
            raise NotImplementedError(f"to_sparse: tinyframe has no {layout} layout")
        return sparse_ops.to_sparse(self, sparse_dim)

    def to_sparse_coo(self) -> Tensor:
        """``to_sparse()``."""
        return sparse_ops.to_sparse(self)

    def to_dense(self, dtype: Any = None, *, masked_grad: Any = None) -> Tensor:
        """The dense tensor of a sparse one (repeated indices summed); a dense tensor itself."""
        out = sparse_ops.to_dense(self)
        return out if dtype is None else out.to(dtype)

    def coalesce(self) -> Tensor:
        """A sparse tensor with sorted unique indices, the values of repeated ones summed."""
        return sparse_ops.coalesce(self)

    def is_coalesced(self) -> builtins.bool:
        """Whether a sparse tensor's indices are known sorted and unique."""
        return sparse_ops._require_sparse(self, "is_coalesced").coalesced

    def _indices(self) -> Tensor:
        """A sparse tensor's ``(sparse_dim, nnz)`` indices as they are stored (coalesced or not)."""
        return _graph.wrap(sparse_ops._require_sparse(self, "_indices").indices)

    def indices(self) -> Tensor:
        """A coalesced sparse tensor's ``(sparse_dim, nnz)`` indices."""
        if not sparse_ops._require_sparse(self, "indices").coalesced:
            raise RuntimeError("Cannot get indices on an uncoalesced tensor, please call .coalesce() first")
        return self._indices()

    def _values(self) -> Tensor:
        """A sparse tensor's ``(nnz, *dense_shape)`` values as they are stored."""
        return _graph.wrap(sparse_ops._require_sparse(self, "_values").values)

    def values(self) -> Tensor:
        """A coalesced sparse tensor's values (differentiable: ``ValuesBackward0``)."""
        return sparse_ops.values(self)

    def _nnz(self) -> builtins.int:
        """The number of stored entries of a sparse tensor."""
        return sparse_ops._require_sparse(self, "_nnz").nnz

    def sparse_dim(self) -> builtins.int:
        """The number of sparse dimensions (0 for a dense tensor)."""
        return self._data.sparse_dim if self.is_sparse else 0

    def dense_dim(self) -> builtins.int:
        """The number of dense dimensions (``ndim`` for a dense tensor)."""
        return self._data.ndim - self.sparse_dim()

    # Methods few programs call, defined in tinyframe._toplevel_more: loaded when one is first read.
    dim_order, as_subclass, module_load, map_, map2_, is_set_to, resize, resize_as, cfloat, cdouble = (
        _FamilyMethod("tinyframe._toplevel_more") for _ in range(10))
    prelu, hardshrink, narrow_copy, is_inference, new_empty_strided, nonzero_static = (
        _FamilyMethod("tinyframe._toplevel_more") for _ in range(6))
    unsafe_split_with_sizes, as_strided_, as_strided_scatter, conj_physical_, set_ = (
        _FamilyMethod("tinyframe._toplevel_more") for _ in range(5))

    # PyTorch's other kinds of tensor, which tinyframe's never are.
    is_sparse_csr = is_quantized = is_nested = is_mkldnn = is_mps = is_xpu = False
    is_xla = is_ipu = is_mtia = is_maia = is_vulkan = volatile = False
    name = None  # (PyTorch's name of a tensor, for the tracer; none here)

    @property
    def grad_dtype(self) -> dtypes.dtype:
        """The dtype this tensor's ``.grad`` takes: its own."""
        return self.dtype

    def const_data_ptr(self) -> builtins.int:
        """``data_ptr()``: the address of the first element."""
        return self.data_ptr()

    def record_stream(self, stream: Any) -> None:
        """Nothing to record: tinyframe's memory is freed when its last tensor goes."""

    def conj(self) -> Tensor:
        """The complex conjugate (a new tensor; see ``tinyframe.conj``); a real tensor itself."""
        return complex_ops.conj(self)

    def conj_physical(self) -> Tensor:
        """The complex conjugate, computed; a real tensor itself."""
        return complex_ops.conj_physical(self)

    def resolve_conj(self) -> Tensor:
        """This tensor: tinyframe's conjugates are computed when made, never lazy."""
        return self

    resolve_neg = resolve_conj

    def sgn(self) -> Tensor:
        return complex_ops.sgn(self)

    sgn_ = _inplace_of("sgn")

    def isreal(self) -> Tensor:
        return complex_ops.isreal(self)

    @property
    def real(self) -> Tensor:
        """The real part, a view sharing this complex tensor's storage (assignable); a real tensor itself."""
        return complex_ops.real(self)

    @real.setter
    def real(self, value: Any) -> None:
        self.real.copy_(value if isinstance(value, Tensor) else creation.tensor(value))

    @property
    def imag(self) -> Tensor:
        """The imaginary part, a view sharing this complex tensor's storage (assignable); real tensors have
        none: RuntimeError, as in PyTorch."""
        return complex_ops.imag(self)

    @imag.setter
    def imag(self, value: Any) -> None:
        self.imag.copy_(value if isinstance(value, Tensor) else creation.tensor(value))

    def positive(self) -> Tensor:
        """``+self``: this tensor itself."""
        if self._data.dtype == np.bool_:
            raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
        return self

    @property
    def H(self) -> Tensor:  # noqa: N802  (PyTorch's name)
        """The conjugate transpose of a matrix (its transpose, for real tensors)."""
        if self._data.ndim not in (0, 2):
            raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {self._data.ndim}-D tensor.")
        return shape_ops.transpose(self.conj(), 0, 1) if self._data.ndim else self.conj()

    @property
    def mH(self) -> Tensor:  # noqa: N802  (PyTorch's name)
        """The conjugate transpose of each matrix (the last two dimensions): their transpose, for real tensors."""
        if self._data.ndim < 2:
            raise RuntimeError(f"tensor.mH is only supported on matrices or batches of matrices. Got "
                               f"{self._data.ndim}-D tensor.")
        return shape_ops.transpose(self.conj(), -2, -1)

    def adjoint(self) -> Tensor:
        """``mH``."""
        return self.mH

    # ----------------------------------------------------------------- Python protocol
    def __repr__(self) -> str:
        return sparse_ops.sparse_repr(self) if self.is_sparse else tensor_repr(self)

    def __contains__(self, element: Any) -> builtins.bool:
        """``element in t``: whether any element equals ``element`` (a number or a broadcastable tensor)."""
        if not isinstance(element, (Tensor, int, float, bool)):
            raise RuntimeError(f"Tensor.__contains__ only supports Tensor or scalar, but you passed in a "
                               f"{type(element)}.")
        return bool((self == element).any())

    def is_nonzero(self) -> builtins.bool:
        """The truth of a one-element tensor; RuntimeError for any other size."""
        if self.numel() != 1:
            amount = "no values" if self.numel() == 0 else "more than one value"
            raise RuntimeError(f"Boolean value of Tensor with {amount} is ambiguous")
        return bool(self.item())

    def __len__(self) -> builtins.int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self) -> Iterator[Tensor]:
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))  # as PyTorch: the rows share one UnbindBackward0 node

    def __bool__(self) -> builtins.bool:
        size = self._data.size
        if size != 1:
            raise RuntimeError(f"Boolean value of Tensor with {'no values' if size == 0 else 'more than one value'} "
                               "is ambiguous")
        return bool(self._python_scalar())

    def __float__(self) -> builtins.float:
        value = self._python_scalar()
        if isinstance(value, complex):
            raise RuntimeError("value cannot be converted to type double without overflow")
        return float(value)

    def __int__(self) -> builtins.int:
        return int(self._python_scalar())

    def __complex__(self) -> complex:
        return complex(self._python_scalar())

    def _python_scalar(self) -> Any:
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        if type(self._data) is MetaArray:
            raise RuntimeError("Tensor.item() cannot be called on meta tensors")
        return self._data.reshape(()).item()

    def __index__(self) -> builtins.int:
        if dtypes.kind(self._data.dtype) not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0:
            return format(self.item(), spec)
        return object.__format__(self, spec)  # str(self) for an empty spec, else TypeError, as PyTorch

    def __hash__(self) -> builtins.int:
        return id(self)

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (_rebuild, (self._host_array().copy(), self._requires_grad), None)

    def __deepcopy__(self, memo: dict) -> Tensor:
        if self.grad_fn is not None:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support "
                               "the deepcopy protocol at the moment.")
        out = Tensor._make(self._data.copy(order="K"), None, self._requires_grad)
        if self._grad is not None:
            out._grad = Tensor._make(self._grad._data.copy(order="K"))
        memo[id(self)] = out
        return out


def _rebuild(array: Any, requires_grad: builtins.bool) -> Tensor:
    """The tensor a pickle holds: a leaf with the pickled values and ``requires_grad``."""
    return creation.tensor(array, requires_grad=requires_grad)


_NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
    "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf "
    "Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure "
    "you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information.")


def parse_to_arguments(args: tuple, kwargs: dict) -> tuple:
    """``(device, dtype, copy, memory_format)`` from the arguments of ``Tensor.to`` / ``Module.to``."""
    target_device = kwargs.pop("device", None)
    target_dtype = kwargs.pop("dtype", None)
    copy = kwargs.pop("copy", False)
    kwargs.pop("non_blocking", None)
    target_format = kwargs.pop("memory_format", None)
    if kwargs:
        raise TypeError(f"to() got unexpected keyword arguments {sorted(kwargs)}")
    for arg in args:
        if isinstance(arg, Tensor):
            target_device, target_dtype = arg.device, arg.dtype
        elif isinstance(arg, (dtypes.dtype, type)) or (isinstance(arg, np.dtype)):
            target_dtype = arg
        elif isinstance(arg, (str, device, int)):
            target_device = arg
        elif isinstance(arg, bool):
            copy = arg
        else:
            raise TypeError(f"to() received an invalid argument {arg!r}")
    return (None if target_device is None else as_device(target_device),
            None if target_dtype is None else dtypes.as_dtype(target_dtype), copy, target_format)


# Ops, the engine and the factory functions make their results with this class (see _graph).
_graph.register_tensor_class(Tensor)
random.register_tensor_maker(_graph.wrap)

_DETACH_VIEW = (
    "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) for training, "
    "and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and hence detach_() cannot be "
    "called on these gradients. To fix this error, please refer to the Optimizer.zero_grad() function in "
    "torch/optim/optimizer.py as the solution.")
