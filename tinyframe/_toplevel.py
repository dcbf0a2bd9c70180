"""Top-level helpers that PyTorch scripts call beside the ops: type checks, ``equal``, dtype
promotion, global switches tinyframe accepts (determinism, matmul precision, ``compile``), the
functions PyTorch also offers as Tensor methods (``select``, ``detach``, ``conj``, ...), aliases
(``greater``, ``row_stack``, ...) and the integration rules (``trapezoid``)."""
from __future__ import annotations

import builtins
import inspect
import math
import warnings
from collections.abc import Sequence
from typing import Any

from . import creation, dtypes
from ._arguments import checked
from ._lazy import lazy_module
from .functional import with_out
from .ops import binary, construction, reduction, shape
from .ops.binary import clamp
from .tensor import Tensor

_linalg = lazy_module("tinyframe.linalg")

__all__ = ["clip", "greater", "greater_equal", "less", "less_equal", "not_equal", "row_stack",
           "select", "detach", "resolve_neg", "positive",
           "is_same_size", "is_storage", "set_default_tensor_type", "scalar_tensor", "range", "unravel_index",
           "chain_matmul", "trapezoid", "trapz", "cumulative_trapezoid", "gradient",
           "equal", "is_tensor", "is_floating_point", "is_nonzero", "typename", "numel", "promote_types", "result_type",
           "use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
           "set_float32_matmul_precision", "get_float32_matmul_precision", "compile", "pi", "e", "inf", "nan",
           "newaxis"]

pi, e, inf, nan = math.pi, math.e, math.inf, math.nan
clip = with_out(clamp)  # PyTorch's alias (its messages name clamp)
newaxis = None
# PyTorch's aliases of the comparisons and of vstack
greater, greater_equal, less, less_equal, not_equal, row_stack = (
    with_out(f) for f in (binary.gt, binary.ge, binary.lt, binary.le, binary.ne, shape.vstack))

_DETERMINISTIC = [False, False]  # (mode, warn_only)
_MATMUL_PRECISION = ["highest"]


def equal(input: Tensor, other: Tensor) -> bool:
    """True if the two tensors have the same shape and elements."""
    return input.equal(other)


def is_tensor(obj: Any) -> bool:
    """True if ``obj`` is a tinyframe Tensor."""
    return isinstance(obj, Tensor)


def is_floating_point(input: Tensor) -> bool:
    """True if ``input``'s dtype is a floating type."""
    return input.is_floating_point()


def is_nonzero(input: Tensor) -> bool:
    """The truth of a one-element tensor; RuntimeError for any other size, as PyTorch."""
    return input.is_nonzero()


def typename(obj: Any) -> str:
    """The type name of ``obj``: a tensor's legacy type (``tinyframe.FloatTensor``), else the class's
    qualified name."""
    if isinstance(obj, Tensor):
        return obj.type()
    module = type(obj).__module__
    return type(obj).__qualname__ if module in ("builtins", None) else f"{module}.{type(obj).__qualname__}"


def numel(input: Tensor) -> int:
    """The number of elements of ``input``."""
    return input.numel()


def promote_types(type1: dtypes.dtype, type2: dtypes.dtype) -> dtypes.dtype:
    """The smallest dtype both ``type1`` and ``type2`` cast into, by PyTorch's promotion rules."""
    for position, (argument, value) in enumerate((("type1", type1), ("type2", type2)), 1):
        if not isinstance(value, dtypes.dtype):
            raise TypeError(f"promote_types(): argument '{argument}' (position {position}) must be torch.dtype, "
                            f"not {type(value).__name__}")
    return dtypes.result_type((type1, 1), (type2, 1))


def result_type(tensor1: Any, tensor2: Any) -> dtypes.dtype:
    """The dtype an elementwise op on the two operands (tensors or Python numbers) produces."""
    return dtypes.result_type(*(_operand(t) for t in (tensor1, tensor2)))


def _operand(value: Any) -> Any:
    return (value.dtype, value.dim()) if isinstance(value, Tensor) else value


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    """Accepted and remembered: tinyframe's NumPy/CuPy kernels are already deterministic."""
    _DETERMINISTIC[:] = bool(mode), bool(warn_only)


def deterministic_warn_only() -> bool:
    """The ``warn_only`` last given to :func:`use_deterministic_algorithms`."""
    return _DETERMINISTIC[1]


def are_deterministic_algorithms_enabled() -> bool:
    """The value last given to :func:`use_deterministic_algorithms`."""
    return _DETERMINISTIC[0]


def set_float32_matmul_precision(precision: str) -> None:
    """Accepted and remembered ("highest", "high" or "medium"); tinyframe always multiplies in float32."""
    if precision not in ("highest", "high", "medium"):
        raise RuntimeError(f"Invalid precision: {precision}; expected 'highest', 'high' or 'medium'")
    _MATMUL_PRECISION[0] = precision


def get_float32_matmul_precision() -> str:
    """The value last given to :func:`set_float32_matmul_precision` ("highest" by default)."""
    return _MATMUL_PRECISION[0]


def compile(model: Any = None, **options: Any) -> Any:
    """Returns ``model`` unchanged (as a decorator too): tinyframe runs eagerly, and ``torch.compile``
    never changes results."""
    if model is None:
        return lambda fn: fn
    return model


# --------------------------------------------------------------------------- functions of Tensor methods
def select(input: Tensor, dim: int, index: int) -> Tensor:
    """The slice of ``input`` at ``index`` along ``dim``, which is removed (a view)."""
    return input.select(dim, index)


def detach(input: Tensor) -> Tensor:
    """``input`` detached from the graph (the same storage)."""
    return input.detach()


def resolve_neg(input: Tensor) -> Tensor:
    """``input`` itself: tinyframe has no lazily negated tensors."""
    return input.resolve_neg()


def positive(input: Tensor) -> Tensor:
    """``+input``: ``input`` itself."""
    return input.positive()


def is_same_size(input: Tensor, other: Tensor) -> bool:
    """Whether the two tensors have the same shape."""
    return input.is_same_size(other)


def is_storage(obj: Any) -> bool:
    """False: tinyframe has no storage objects apart from its tensors."""
    return False


def set_default_tensor_type(t: Any) -> None:
    """Makes the floating dtype of a legacy tensor type (``tinyframe.DoubleTensor`` or its name) the
    default dtype (deprecated in PyTorch in favour of ``set_default_dtype``)."""
    name = t if isinstance(t, str) else getattr(t, "__name__", str(t))
    kinds = {"FloatTensor": dtypes.float32, "DoubleTensor": dtypes.float64, "HalfTensor": dtypes.float16}
    kind = kinds.get(name.rsplit(".", 1)[-1])
    if kind is None:
        raise TypeError(f"only floating-point types are supported as the default type, got {name}")
    dtypes.set_default_dtype(kind)


def scalar_tensor(s: Any, *, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """A 0-dim tensor of the number ``s``, in the default floating dtype unless ``dtype`` is given."""
    return creation.tensor(s, dtype=dtype or dtypes.get_default_dtype(), device=device, requires_grad=requires_grad)


def range(start: Any = 0, end: Any = None, step: Any = 1, *, dtype: Any = None, device: Any = None,
          requires_grad: bool = False) -> Tensor:
    """Values from ``start`` to ``end`` *inclusive* by ``step``, in the default floating dtype unless
    ``dtype`` is given (deprecated in PyTorch in favour of ``arange``, whose end is exclusive)."""
    warnings.warn("torch.range is deprecated and will be removed in a future release because its behavior is "
                  "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values in "
                  "[start, end).", UserWarning, stacklevel=2)
    if end is None:
        start, end = 0, start
    if step == 0 or (end - start) * step < 0:
        raise RuntimeError("step must be nonzero" if step == 0 else
                           "upper bound and lower bound inconsistent with step sign")
    count = int(math.floor((end - start) / step)) + 1
    values = creation.arange(count, dtype=dtypes.float64) * step + start
    return values.to(dtype or dtypes.get_default_dtype(), device=device).requires_grad_(requires_grad)


def unravel_index(indices: Tensor, shape: Sequence[int] | int) -> tuple:
    """The coordinates, in a tensor of ``shape``, of the flat positions ``indices``: one int64 tensor
    of ``indices``' shape per dimension."""
    if not isinstance(indices, Tensor) or indices.is_floating_point() or indices.dtype == dtypes.bool_:
        kind = indices.dtype if isinstance(indices, Tensor) else type(indices).__name__
        raise TypeError(f"expected 'indices' to be integer dtype, but got {kind}")
    sizes = (shape,) if isinstance(shape, int) else tuple(shape)
    coordinates, rest = [], indices.long()
    for size in reversed(sizes):
        coordinates.append(binary.remainder(rest, size))
        rest = binary.floor_divide(rest, size)
    return tuple(reversed(coordinates))


def chain_matmul(*matrices: Tensor, out: Tensor | None = None) -> Tensor:
    """The product of the matrices (deprecated in PyTorch in favour of ``linalg.multi_dot``)."""
    warnings.warn("torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
                  "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than "
                  "multiple parameters.", UserWarning, stacklevel=2)
    if any(m.ndim != 2 for m in matrices):  # (multi_dot takes vectors at the ends; chain_matmul only matrices)
        raise RuntimeError(f"Tensor dimension is {next(m.ndim for m in matrices if m.ndim != 2)}, expected 2 instead.")
    return matrices[0] if len(matrices) == 1 else _linalg.multi_dot(list(matrices))


# --------------------------------------------------------------------------- the trapezoidal rule
def _spacing(y: Tensor, x: Tensor, dim: int) -> Tensor:
    """The widths of the intervals between the points ``x`` along ``dim`` (broadcast against ``y``)."""
    if x.ndim == 1:
        return construction.diff(x).reshape([-1 if d == dim % y.ndim else 1 for d in builtins.range(y.ndim)])
    return construction.diff(x, dim=dim)


def _constant_spacing(name: str, dx: Any) -> Any:
    """``dx`` as the number PyTorch's parser takes: 1 by default; a 0-d tensor that does not require grad
    stands for its value, any other tensor is refused."""
    if isinstance(dx, Tensor):
        if dx.ndim or dx.requires_grad:
            raise TypeError(f"{name}() received an invalid combination of arguments - got (Tensor, dx=Tensor), but "
                            "expected one of:\n * (Tensor y, Tensor x, *, int dim = -1)\n"
                            " * (Tensor y, *, Number dx = 1, int dim = -1)\n")
        return dx.item()
    return 1.0 if dx is None else dx


def _pair_sums(y: Tensor, dim: int) -> Tensor:
    """``y[i] + y[i+1]`` along ``dim``."""
    n = y.shape[dim]
    return y.narrow(dim, 1, n - 1) + y.narrow(dim, 0, n - 1)


def trapezoid(y: Tensor, x: Tensor | None = None, *, dx: Any = None, dim: int = -1) -> Tensor:
    """The integral of ``y`` along ``dim`` by the trapezoidal rule, at the points ``x`` or spaced ``dx``
    (1 by default)."""
    if not y.is_floating_point():
        y = y.to(dtypes.get_default_dtype())
    n = y.shape[dim]
    if n == 0:  # zeros, outside the graph as in PyTorch
        return creation.zeros(*(s for d, s in enumerate(y.shape) if d != dim % y.ndim), dtype=y.dtype,
                              device=y.device)
    # PyTorch's formulas (and so its nodes): sum - (first + last) / 2 times a constant spacing, else
    # the sum of spacing * (y[i] + y[i+1]) halved
    if x is None:
        ends = binary.MulNumber.apply(y.select(dim, 0) + y.select(dim, -1), other=0.5)
        return binary.MulNumber.apply(reduction.sum(y, dim) - ends, other=_constant_spacing("trapezoid", dx))
    return binary.DivNumber.apply(reduction.sum(_spacing(y, x, dim) * _pair_sums(y, dim), dim), 2.0)


def trapz(y: Tensor, x: Tensor | None = None, *, dx: Any = None, dim: int = -1) -> Tensor:
    """``trapezoid`` (its older name)."""
    return trapezoid(y, x, dx=dx, dim=dim)


def cumulative_trapezoid(y: Tensor, x: Tensor | None = None, *, dx: Any = None, dim: int = -1) -> Tensor:
    """The running integral of ``y`` along ``dim`` by the trapezoidal rule (one element fewer than ``y``)."""
    if not y.is_floating_point():
        y = y.to(dtypes.get_default_dtype())
    if x is None:  # PyTorch's formulas, and so its nodes
        spacing = _constant_spacing("cumulative_trapezoid", dx)
        return reduction.cumsum(binary.MulNumber.apply(_pair_sums(y, dim), other=spacing / 2), dim)
    return binary.DivNumber.apply(reduction.cumsum(_spacing(y, x, dim) * _pair_sums(y, dim), dim), 2.0)


# ------------------------------------------------------------------------- numerical derivatives
def gradient(input: Tensor, *, spacing: Any = 1, dim: Any = None, edge_order: int = 1) -> tuple:
    """Estimates of the derivatives of ``input`` along each of ``dim`` (every dimension by default) by
    central differences inside and one-sided ones of order ``edge_order`` at the ends; ``spacing`` is
    the step (a number, one per dimension) or the sample coordinates (1-D tensors, one per dimension)."""
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    dims = list(builtins.range(input.ndim)) if dim is None else [dim] if isinstance(dim, builtins.int) else list(dim)
    steps = list(spacing) if isinstance(spacing, (list, tuple)) else [spacing] * len(dims)
    if len(steps) != len(dims) and dim is None:
        raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar, or a list of length equal "
                           f"to 'self.dim() = {input.ndim}', since dim argument was not given, but got a list of "
                           f"length {len(steps)}")
    if len(steps) != len(dims):
        raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
                           f"arguments to have the same length, but got a spacing argument of length {len(steps)} "
                           f"and a dim argument of length {len(dims)}.")
    if any(input.shape[d] < edge_order + 1 for d in dims):
        raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1")
    return tuple(_derivative(input, d % input.ndim, step, edge_order) for d, step in zip(dims, steps))


def _derivative(y: Tensor, dim: int, step: Any, edge_order: int) -> Tensor:
    """PyTorch's formulas along ``dim`` (and so its nodes): the ends and the centre concatenated."""
    def part(start: int, stop: int | None = None) -> Tensor:  # y[start:stop] along dim
        begin, end, _ = slice(start, stop).indices(y.shape[dim])
        return y.narrow(dim, begin, end - begin)

    if isinstance(step, Tensor):  # sample coordinates: the non-uniform formulas
        dx = construction.diff(step)
        dx1, dx2 = dx[:-1], dx[1:]
        shape_ = [-1 if d == dim else 1 for d in builtins.range(y.ndim)]
        center = ((-dx2 / (dx1 * (dx1 + dx2))).reshape(shape_) * part(0, -2)
                  + ((dx2 - dx1) / (dx1 * dx2)).reshape(shape_) * part(1, -1)
                  + (dx1 / (dx2 * (dx1 + dx2))).reshape(shape_) * part(2))
        if edge_order == 1:
            return shape.cat([(part(1, 2) - part(0, 1)) / dx[0], center, (part(-1) - part(-2, -1)) / dx[-1]], dim)
        h0, h1, hn, hm = dx[0], dx[1], dx[-1], dx[-2]
        prepend = (-(2.0 * h0 + h1) / (h0 * (h0 + h1)) * part(0, 1) + (h0 + h1) / (h0 * h1) * part(1, 2)
                   + (-h0) / (h1 * (h0 + h1)) * part(2, 3))
        append = (hn / (hm * (hn + hm)) * part(-3, -2) + -(hn + hm) / (hn * hm) * part(-2, -1)
                  + (2 * hn + hm) / (hn * (hn + hm)) * part(-1))
        return shape.cat([prepend, center, append], dim)
    if edge_order == 1:
        prepend, append = (part(1, 2) - part(0, 1)) / step, (part(-1) - part(-2, -1)) / step
    else:
        prepend = (-1.5 * part(0, 1) + 2 * part(1, 2) - 0.5 * part(2, 3)) / step
        append = (0.5 * part(-3, -2) - 2 * part(-2, -1) + 1.5 * part(-1)) / step
    return shape.cat([prepend, (part(2) - part(0, -2)) / step / 2, append], dim)


# PyTorch's TypeErrors for arguments of a wrong type (see ``_arguments``).
for _name in __all__:
    if inspect.isfunction(globals()[_name]):
        globals()[_name] = checked(globals()[_name], _name)
