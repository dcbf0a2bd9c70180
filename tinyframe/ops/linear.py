"""The affine map of ``nn.Linear``, fused into one op: ``y = x W^T + b``."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._graph import Op
from ..dtypes import cpp_type_name, scalar_type_name

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__: list[str] = []


class Addmm(Op):
    """``input @ weight.T + bias`` for input ``(*, in_features)``, weight ``(out, in)``, bias ``(out,)``.

    One node instead of transpose, matmul and add: the MLP step is bound by per-op overhead.
    """

    @staticmethod
    def forward(ctx: Addmm, x: Any, weight: Any, bias: Any = None) -> Any:
        ctx.save_for_backward(x, weight)
        if x.ndim > 2:  # as one 2-D product: NumPy's batched matmul does not reach BLAS's GEMM directly
            out = (x.reshape(-1, x.shape[-1]) @ weight.T).reshape(x.shape[:-1] + (weight.shape[0],))
        else:
            out = x @ weight.T
        if bias is not None:
            out += bias
        return out

    @staticmethod
    def backward(ctx: Addmm, g: Any) -> tuple:
        x, weight = ctx.saved_tensors
        needs_x, needs_weight = ctx.needs_input_grad[:2]
        gx = None
        if needs_x:
            gx = (g.reshape((-1, g.shape[-1])) @ weight).reshape(x.shape) if g.ndim > 2 else g @ weight
        gw = None
        if needs_weight:
            rows = g.reshape((-1, g.shape[-1])) if g.ndim != 2 else g
            gw = rows.T @ (x.reshape((-1, x.shape[-1])) if x.ndim != 2 else x)
        return gx, gw, g


class Mm(Addmm):
    """``input @ weight.T`` (a Linear layer without bias)."""


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``y = input @ weight.T + bias``: input ``(*, in_features)``, weight ``(out_features, in_features)``."""
    x_shape, w_shape = input._data.shape, weight._data.shape
    if not x_shape or len(w_shape) != 2 or x_shape[-1] != w_shape[1]:
        raise RuntimeError(f"linear: input of shape {tuple(input.shape)} cannot be multiplied by a weight of "
                           f"shape {tuple(weight.shape)} (expected input.shape[-1] == weight.shape[1])")
    _check_dtypes(input._data.dtype, weight._data.dtype, None if bias is None else bias._data.dtype)
    if bias is None:
        return Mm.apply(input, weight)
    if bias._data.shape != w_shape[:1]:
        raise RuntimeError(f"linear: bias of shape {tuple(bias.shape)} does not match weight of shape "
                           f"{tuple(weight.shape)} (expected ({weight.shape[0]},))")
    return Addmm.apply(input, weight, bias)


def _check_dtypes(x: Any, weight: Any, bias: Any) -> None:
    """PyTorch refuses mixed dtypes instead of promoting; its messages come from the kernel it runs
    (addmm with a bias, mm without), which compares the bias to the weight first."""
    if bias is not None and bias != weight:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got {scalar_type_name(bias)} and "
                           f"{scalar_type_name(weight)}")
    if x != weight:
        if bias is None:
            raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {cpp_type_name(x)} != "
                               f"{cpp_type_name(weight)}")
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {scalar_type_name(x)} and "
                           f"{scalar_type_name(weight)}")
