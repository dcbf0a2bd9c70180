"""SparseAdam: Adam for sparse gradients (``nn.Embedding(sparse=True)``), updating only the rows a step
touched. tinyframe has no sparse tensors, so every gradient is dense, and ``step`` raises PyTorch's error for
a dense gradient; the class exists so that scripts that build one fail there, with PyTorch's message."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..tensor import Tensor
from ._docs import _maximize_doc, _params_doc
from .optimizer import Optimizer

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
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
        if any(p._grad is not None for p in group["params"]):
            raise RuntimeError("SparseAdam does not support dense gradients, please consider Adam instead")


SparseAdam.__doc__ = rf"""Implements the lazy Adam algorithm for sparse gradients, like ``torch.optim.SparseAdam``:
    only the moments and parameters of the rows present in the gradient are updated.

    tinyframe's gradients are all dense (it has no sparse tensors, and ``nn.Embedding(sparse=True)`` is
    refused), so ``step`` raises a RuntimeError, as PyTorch's does for a dense gradient: use ``Adam``.

    Args:
        {_params_doc}
        lr (float): learning rate (default: 1e-3).
        betas (tuple[float, float]): coefficients of the running averages of the gradient and its
            square (default: (0.9, 0.999)).
        eps (float): term added to the denominator for numerical stability (default: 1e-8).
        {_maximize_doc}
    """
