"""SparseAdam: Adam for sparse gradients (``nn.Embedding(sparse=True)``), updating only the rows a step
touched; a dense gradient gets PyTorch's error."""
from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from ..device import array_module_of
from ..ops import sparse as sparse_ops
from ..tensor import Tensor
from ._docs import _maximize_doc, _params_doc
from .optimizer import Optimizer, stepped_states

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    sparse_grads_error = None

    def __init__(self, params: Iterable[Any], lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, maximize: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 < lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        for index, beta in enumerate(betas):
            if not 0.0 <= beta < 1.0:
                raise ValueError(f"Invalid beta parameter at index {index}: {beta}")
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "maximize": maximize})

    def _step_group(self, group: dict[str, Any]) -> None:
        if any(p._grad is not None and not p._grad.is_sparse for p in group["params"]):
            raise RuntimeError("SparseAdam does not support dense gradients, please consider Adam instead")
        lr, eps, maximize = float(group["lr"]), float(group["eps"]), group["maximize"]
        beta1, beta2 = (float(b) for b in group["betas"])
        for p, state in stepped_states(self, group, zeros=("exp_avg", "exp_avg_sq")):
            grad = sparse_ops.coalesced(p._grad._data)
            if not grad.nnz:
                continue
            step = state["step"].item()
            sparse_adam_update(p._data, -grad if maximize else grad, state["exp_avg"]._data,
                               state["exp_avg_sq"]._data, step, lr=lr, beta1=beta1, beta2=beta2, eps=eps)


def sparse_adam_update(param: Any, grad: Any, exp_avg: Any, exp_avg_sq: Any, step: float, *, lr: float,
                       beta1: float, beta2: float, eps: float) -> None:
    """PyTorch's lazy Adam step on arrays, in place: the moments and the parameter move at the entries of the
    coalesced sparse ``grad`` only."""
    index = tuple(grad.indices)
    values = grad.values
    old_avg, old_avg_sq = exp_avg[index], exp_avg_sq[index]
    avg_update = (values - old_avg) * (1 - beta1)
    avg_sq_update = (values * values - old_avg_sq) * (1 - beta2)
    exp_avg[index] += avg_update
    exp_avg_sq[index] += avg_sq_update
    numer = avg_update + old_avg
    denom = array_module_of(values).sqrt(avg_sq_update + old_avg_sq) + eps
    step_size = lr * math.sqrt(1 - beta2 ** step) / (1 - beta1 ** step)
    param[index] += -step_size * (numer / denom)


SparseAdam.__doc__ = rf"""Implements the lazy Adam algorithm for sparse gradients, like ``torch.optim.SparseAdam``:
    only the moments and parameters of the rows present in the gradient are updated.

    The gradients must be sparse COO tensors (``nn.Embedding(sparse=True)``); a dense one raises a
    RuntimeError, as PyTorch's does: use ``Adam`` there.

    Args:
        {_params_doc}
        lr (float): learning rate (default: 1e-3).
        betas (tuple[float, float]): coefficients of the running averages of the gradient and its
            square (default: (0.9, 0.999)).
        eps (float): term added to the denominator for numerical stability (default: 1e-8).
        {_maximize_doc}
    """
