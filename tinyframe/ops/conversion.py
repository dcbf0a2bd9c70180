"""Copies to another dtype or device; the gradient flows back to the source's dtype and device."""
from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from .. import _graph, dtypes
from .._graph import Op
from ..device import check_dtype_on, device, device_of, move_array

if TYPE_CHECKING:
    from ..tensor import Tensor


class ToDtype(Op, node_name="ToCopyBackward0"):
    widens_bfloat16 = False
    @staticmethod
    def forward(ctx: ToDtype, x: Any, *, target: Any) -> Any:
        if x.dtype.kind == "c" and target.kind != "c":
            warnings.warn("Casting complex values to real discards the imaginary part", UserWarning, stacklevel=2)
            x = x.real
        return x.astype(target)

    @staticmethod
    def backward(ctx: ToDtype, g: Any) -> Any:
        return g  # the engine casts the gradient back to the input's dtype


class ToDevice(Op, node_name="ToCopyBackward0"):
    widens_bfloat16 = False
    @staticmethod
    def forward(ctx: ToDevice, x: Any, *, target: device) -> Any:
        ctx.source = device_of(x)
        return move_array(x, target)

    @staticmethod
    def backward(ctx: ToDevice, g: Any) -> Any:
        if isinstance(g, _graph.Tensor):
            return g.to(ctx.source)
        return move_array(g, ctx.source)


def to_dtype(input: Tensor, dtype: dtypes.dtype) -> Tensor:
    """A copy of ``input`` in ``dtype`` (differentiable between floating and complex types; a complex
    gradient sent back to a real input keeps its real part)."""
    check_dtype_on(dtype.numpy, device_of(input._data))
    out = ToDtype.apply(input, target=dtype.numpy)
    if not (dtype.is_floating_point or dtype.is_complex):
        out.grad_fn, out._requires_grad = None, False
    return out


def to_device(input: Tensor, target: device) -> Tensor:
    """A copy of ``input`` on ``target``."""
    return ToDevice.apply(input, target=target)
