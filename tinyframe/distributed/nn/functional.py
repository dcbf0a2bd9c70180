"""Differentiable collectives, as ``torch.distributed.nn.functional``."""
from __future__ import annotations

from typing import Any

from ...autograd.function import Function
from ...tensor import Tensor
from ..process_group import _group
from ..reduce_op import ReduceOp

__all__ = ["all_reduce"]


class _AllReduceSum(Function):
    """``y = sum_r x_r`` on every rank; the gradient of rank ``r``'s input is ``sum_r' dL_r'/dy``, the
    all-reduced sum of the output gradients, since every rank's ``y`` depends on every ``x_r``."""

    @staticmethod
    def forward(ctx: Any, tensor: Tensor) -> Tensor:
        return _summed(tensor)

    @staticmethod
    def backward(ctx: Any, grad_output: Tensor) -> Tensor:
        return _summed(grad_output)


def _summed(tensor: Tensor) -> Tensor:
    """A new tensor holding the sum of ``tensor`` over ranks (no shape check: the caller's shapes agree)."""
    pg = _group()
    out = tensor.detach().clone().contiguous()
    pg.backend.check_array(out._data, "all_reduce")
    pg.backend.wait([pg.backend.all_reduce(out._data, ReduceOp.SUM)])
    return out


def all_reduce(tensor: Tensor, op: ReduceOp = ReduceOp.SUM, group: Any = None) -> Tensor:
    """The sum of ``tensor`` over ranks as a new tensor that backward differentiates through
    (``ReduceOp.SUM`` only)."""
    _group(group)
    if op is not ReduceOp.SUM:
        raise NotImplementedError(f"the differentiable all_reduce supports ReduceOp.SUM only, got {op!r}")
    return _AllReduceSum.apply(tensor)
