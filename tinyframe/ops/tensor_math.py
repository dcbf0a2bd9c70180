"""A NumPy-like namespace over Tensors: ``ctx.xp`` in backward while the backward pass is recorded.

Backward formulas are written once against NumPy's names (``xp.where``, ``xp.sum(g, axis=...)``);
during ``create_graph=True`` they receive this module instead of NumPy/CuPy, so the same formula
builds a differentiable graph and higher-order derivatives follow. Only the names that backward
formulas use live here; each maps onto a tinyframe op.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import _graph, dtypes
from ..device import array_module_of
from . import binary, linalg, reduction, shape, unary

if TYPE_CHECKING:
    from ..tensor import Tensor


def as_tensor(value: Any) -> Any:
    """Numbers stay numbers; arrays (constants such as masks) become Tensors outside the graph."""
    if isinstance(value, (_graph.Tensor, int, float)):
        return value
    return _graph.wrap(value)


asarray = as_tensor  # a constant array in a backward formula: np.asarray(a) is a itself


def where(condition: Any, x: Any, y: Any) -> Tensor:
    condition = as_tensor(condition)
    if not isinstance(condition, _graph.Tensor):
        return x if condition else y
    return binary.where(condition, as_tensor(x), as_tensor(y))


def zeros_like(x: Tensor) -> Tensor:
    data = x._data  # an array also for 0-d tensors, where ``data * 0`` would be a NumPy scalar
    dtype = data.dtype if dtypes.kind(data.dtype) in "fc" else "float32"
    return _graph.wrap(array_module_of(data).zeros_like(data, dtype=dtype))


def ascontiguousarray(x: Tensor) -> Tensor:
    return x.contiguous()


def ones_like(x: Tensor) -> Tensor:
    return _graph.wrap(array_module_of(x._data).ones_like(x._data))  # arrays, also for 0-d tensors


def sum_to(g: Tensor, target_shape: tuple) -> Tensor:
    """Sums ``g`` over the dimensions broadcasting added or stretched to reach ``g.shape``."""
    lead = g.ndim - len(target_shape)
    dims = tuple(range(lead)) + tuple(i + lead for i, n in enumerate(target_shape)
                                      if n == 1 and g.shape[i + lead] != 1)
    if dims:
        g = reduction.sum(g, dims, True)
    return shape.reshape(g, target_shape) if lead else g


def astype(x: Tensor, np_dtype: Any) -> Tensor:
    return x.to(dtypes.from_numpy_dtype(np_dtype))


def sum(x: Tensor, axis: Any = None, keepdims: bool = False, dtype: Any = None) -> Tensor:
    return reduction.sum(x, axis, keepdims, dtype=dtype)


def mean(x: Tensor, axis: Any = None, keepdims: bool = False) -> Tensor:
    return reduction.mean(x, axis, keepdims)


def prod(x: Tensor, axis: int | None = None, keepdims: bool = False) -> Tensor:
    return reduction.prod(x, axis, keepdims)


def cumsum(x: Tensor, axis: int) -> Tensor:
    return reduction.cumsum(x, axis)


def full(new_shape: tuple, fill_value: Tensor) -> Tensor:
    """``fill_value`` (a tensor) broadcast to ``new_shape``: an expanded view, not a copy."""
    return shape.expand(fill_value, tuple(new_shape))


def reshape(x: Tensor, new_shape: tuple) -> Tensor:
    return shape.reshape(x, tuple(new_shape))


def broadcast_to(x: Tensor, new_shape: tuple) -> Tensor:
    return shape.expand(x, tuple(new_shape))


def expand_dims(x: Tensor, axis: Any) -> Tensor:
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    ndim = x.ndim + len(axes)
    for a in sorted(a % ndim for a in axes):
        x = shape.unsqueeze(x, a)
    return x


def swapaxes(x: Tensor, a: int, b: int) -> Tensor:
    return shape.transpose(x, a, b)


def transpose(x: Tensor, axes: Any = None) -> Tensor:
    return shape.permute(x, tuple(reversed(range(x.ndim))) if axes is None else tuple(axes))


def matmul(x: Tensor, y: Tensor) -> Tensor:
    return linalg.matmul(as_tensor(x), as_tensor(y))


def flip(x: Tensor, axis: Any) -> Tensor:
    return shape.flip(x, (axis,) if isinstance(axis, int) else tuple(axis))


def pad(x: Tensor, pad_width: Any) -> Tensor:
    """Zero padding; ``pad_width[i] = (before, after)`` for dimension i."""
    return shape.pad_widths(x, pad_width)


def split(x: Tensor, indices_or_sections: Any, axis: int = 0) -> list:
    """``sections`` equal pieces, or the pieces between the given indices, along ``axis``."""
    if isinstance(indices_or_sections, int):
        return list(shape.chunk(x, indices_or_sections, axis))
    bounds = [0, *indices_or_sections, x.shape[axis]]
    return list(shape.split(x, [stop - start for start, stop in zip(bounds, bounds[1:])], axis))


def concatenate(xs: Any, axis: int = 0) -> Tensor:
    return shape.cat(list(xs), axis)


def stack(xs: Any, axis: int = 0) -> Tensor:
    return shape.stack(list(xs), axis)


# The ops themselves: NumPy's maximum takes numbers, where torch.maximum wants two Tensors.
def maximum(x: Any, y: Any) -> Tensor:
    return binary.Maximum.apply(as_tensor(x), as_tensor(y))


def minimum(x: Any, y: Any) -> Tensor:
    return binary.Minimum.apply(as_tensor(x), as_tensor(y))


def clip(x: Tensor, low: Any, high: Any) -> Tensor:
    return binary.clamp(x, low, high)


def _unary(name: str) -> Any:
    def apply(x: Any) -> Any:
        return getattr(unary, name)(as_tensor(x))
    apply.__name__ = name
    return apply


exp = _unary("exp")
log = _unary("log")
log1p = _unary("log1p")
sqrt = _unary("sqrt")
sin = _unary("sin")
cos = _unary("cos")
tanh = _unary("tanh")
sinh = _unary("sinh")
cosh = _unary("cosh")
sign = _unary("sign")
abs = _unary("abs")
square = _unary("square")
reciprocal = _unary("reciprocal")
sigmoid = _unary("sigmoid")
erf = _unary("erf")
trunc = _unary("trunc")
floor = _unary("floor")
isnan = _unary("isnan")
