"""Adafactor: Adam-like steps with a factored (row times column) second moment for matrices."""
from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from ..device import array_module_of
from ..tensor import Tensor
from ._docs import _foreach_doc, _maximize_doc, _params_doc
from .optimizer import Optimizer, lerp_, stepped_states

__all__ = ["Adafactor"]


class Adafactor(Optimizer):
    def __init__(self, params: Iterable[Any], lr: float | Tensor = 1e-2, beta2_decay: float = -0.8,
                 eps: tuple[float | None, float] = (None, 1e-3), d: float = 1.0, weight_decay: float = 0.0, *,
                 foreach: bool | None = None, maximize: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not 0.0 <= eps[1]:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = {"lr": lr, "beta2_decay": beta2_decay, "eps": eps, "d": d, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize}
        super().__init__(params, defaults)

    def _step_group(self, group: dict[str, Any]) -> None:
        lr, beta2_decay, d = float(group["lr"]), float(group["beta2_decay"]), float(group["d"])
        eps1, eps2 = group["eps"]
        for p, state in stepped_states(self, group):
            if "row_var" not in state and "variance" not in state:
                _add_second_moments(p, state)
            adafactor_update(p._data, p._grad._data, state, state["step"].item(), lr=lr, beta2_decay=beta2_decay,
                             eps1=eps1, eps2=float(eps2), d=d, weight_decay=float(group["weight_decay"]),
                             maximize=group["maximize"])


def _add_second_moments(p: Tensor, state: dict[str, Any]) -> None:
    """A matrix (or batch of them) keeps a row and a column mean of squared gradients, anything else
    an element-wise one."""
    zeros = array_module_of(p._data).zeros
    shape = p._data.shape
    if len(shape) > 1:
        state["row_var"] = Tensor._make(zeros(shape[:-1] + (1,), p._data.dtype))
        state["col_var"] = Tensor._make(zeros(shape[:-2] + (1, shape[-1]), p._data.dtype))
    else:
        state["variance"] = Tensor._make(zeros(shape, p._data.dtype))


Adafactor.__doc__ = r"""Implements the Adafactor algorithm, like ``torch.optim.Adafactor``.

    For a matrix gradient :math:`G_t` (:math:`n \times m`) the second moment is factored into a row
    mean :math:`R_t` and a column mean :math:`C_t` of :math:`G_t^2`, each a running average with weight
    :math:`\hat\beta_{2,t} = t^{\text{beta2\_decay}}`; the estimate is :math:`R_t C_t / \mathrm{mean}(R_t)`.
    A vector gradient keeps the element-wise average. With
    :math:`\rho_t = \min(\gamma, 1/\sqrt{t})` and :math:`\alpha_t = \max(\epsilon_2, \mathrm{RMS}(\theta_{t-1}))
    \rho_t`, the update :math:`U_t = G_t / \sqrt{\max(\hat V_t, \epsilon_1^2)}` is applied as
    :math:`\theta_t = \theta_{t-1} - \alpha_t U_t / \max(1, \mathrm{RMS}(U_t) / d)`, after the weight decay
    :math:`\theta_{t-1} (1 - \gamma \lambda)`.

    See `Adafactor: Adaptive Learning Rates with Sublinear Memory Cost` (Shazeer & Stern, 2018).

    Args:
        """ + rf"""{_params_doc}
        lr (float, Tensor): the largest relative step size :math:`\gamma` (default: 1e-2).
        beta2_decay (float): the decay exponent of the second-moment average (default: -0.8).
        eps (tuple[float, float]): :math:`\epsilon_1` added to the second moment (None: the dtype's
            machine epsilon) and :math:`\epsilon_2`, the smallest parameter RMS (default: (None, 1e-3)).
        d (float): the clipping threshold of the update's RMS (default: 1.0).
        weight_decay (float): decoupled weight decay :math:`\lambda` (default: 0.0).
        {_foreach_doc}
        {_maximize_doc}

    State per parameter: ``step`` (a 0-dim cpu tensor), then ``row_var`` and ``col_var`` for a matrix
    or batch of matrices, ``variance`` for anything else.
    """


def adafactor_update(param: Any, grad: Any, state: dict[str, Any], step: float, *, lr: float, beta2_decay: float,
                     eps1: float | None, eps2: float, d: float, weight_decay: float, maximize: bool) -> None:
    """One Adafactor step on arrays, in place, in the order of PyTorch's single-tensor kernel."""
    xp = array_module_of(param)
    if maximize:
        grad = -grad
    if eps1 is None:
        eps1 = float(np.finfo(param.dtype).eps)
    beta2_weight = step ** beta2_decay
    rho = min(lr, 1 / step ** 0.5)
    alpha = max(eps2, float(xp.linalg.norm(param.reshape(-1))) / param.size ** 0.5) * rho
    if weight_decay != 0:
        param *= param.dtype.type(1 - lr * weight_decay)
    if grad.ndim > 1:
        row_var, col_var = state["row_var"]._data, state["col_var"]._data
        row_mean = xp.sqrt((grad * grad).sum(axis=-1, keepdims=True)) ** 2 / grad.shape[-1]
        lerp_(row_var, row_mean, beta2_weight, xp.empty_like(row_var))
        col_mean = xp.sqrt((grad * grad).sum(axis=-2, keepdims=True)) ** 2 / grad.shape[-2]
        lerp_(col_var, col_mean, beta2_weight, xp.empty_like(col_var))
        estimate = row_var @ col_var
        estimate /= xp.maximum(row_var.mean(axis=-2, keepdims=True), eps1)
    else:
        variance = state["variance"]._data
        lerp_(variance, grad * grad, beta2_weight, xp.empty_like(variance))
        estimate = variance.copy()
    update = 1 / xp.sqrt(xp.maximum(estimate, param.dtype.type(eps1 * eps1)))
    update *= grad
    denom = max(1.0, float(xp.linalg.norm(update.reshape(-1))) / (math.sqrt(update.size) * d))
    param += update * param.dtype.type(-alpha / denom)
