"""Adadelta: step sizes from running averages of squared gradients and squared updates."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..device import array_module_of
from ..tensor import Tensor
from ._docs import (
    _capturable_doc,
    _differentiable_doc,
    _foreach_doc,
    _maximize_doc,
    _params_doc,
    check_not_differentiable,
)
from .optimizer import Optimizer, real_views, stepped_states

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    def __init__(self, params: Iterable[Any], lr: float = 1.0, rho: float = 0.9, eps: float = 1e-6,
                 weight_decay: float = 0, foreach: bool | None = None, *, capturable: bool = False,
                 maximize: bool = False, differentiable: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        check_not_differentiable(differentiable)
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "capturable": capturable, "foreach": foreach, "differentiable": differentiable}
        super().__init__(params, defaults)

    def _step_group(self, group: dict[str, Any]) -> None:
        # Python floats: a NumPy float64 or a tensor in a group must not promote float32 arrays.
        lr, rho, eps = float(group["lr"]), float(group["rho"]), float(group["eps"])
        weight_decay, maximize = float(group["weight_decay"]), group["maximize"]
        for p, state in stepped_states(self, group, ("square_avg", "acc_delta")):
            adadelta_update(*real_views(p._data, p._grad._data, state["square_avg"]._data, state["acc_delta"]._data),
                            lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize)


Adadelta.__doc__ = r"""Implements the Adadelta algorithm, like ``torch.optim.Adadelta``.

    .. math::
       \begin{aligned}
            &\textbf{input}: \gamma \text{ (lr)}, \: \theta_0 \text{ (params)}, \: f(\theta) \text{ (objective)},
                \: \rho \text{ (decay)}, \: \lambda \text{ (weight decay)}                  \\
            &\textbf{initialize}: v_0 \leftarrow 0 \text{ (square avg)},
                \: u_0 \leftarrow 0 \text{ (accumulate variables)}                          \\
            &\textbf{for} \: t=1 \: \textbf{to} \: \ldots \: \textbf{do}                    \\
            &\hspace{5mm}g_t \leftarrow \nabla_{\theta} f_t (\theta_{t-1})  \: (\text{negated if } \textit{maximize}) \\
            &\hspace{5mm}\textbf{if} \: \lambda \neq 0: \: g_t \leftarrow g_t + \lambda \theta_{t-1} \\
            &\hspace{5mm} v_t \leftarrow v_{t-1} \rho + g^2_t (1 - \rho)                    \\
            &\hspace{5mm}\Delta x_t \leftarrow \frac{\sqrt{u_{t-1} + \epsilon }}{ \sqrt{v_t + \epsilon} } g_t \\
            &\hspace{5mm} u_t \leftarrow u_{t-1} \rho + \Delta x^2_t (1 - \rho)             \\
            &\hspace{5mm}\theta_t \leftarrow \theta_{t-1} - \gamma \Delta x_t              \\
            &\textbf{return} \: \theta_t
       \end{aligned}

    See `ADADELTA: An Adaptive Learning Rate Method` (Zeiler, 2012).

    Args:
        """ + rf"""{_params_doc}
        lr (float): coefficient that scales delta before it is applied to the parameters (default: 1.0).
        rho (float): coefficient of the running averages of the squared gradient and update (default: 0.9).
        eps (float): term added to the denominator for numerical stability (default: 1e-6).
        weight_decay (float): weight decay, an L2 penalty (default: 0).
        {_foreach_doc}
        {_capturable_doc}
        {_maximize_doc}
        {_differentiable_doc}

    State per parameter: ``step`` (a 0-dim cpu tensor), ``square_avg`` and ``acc_delta``.
    """


def adadelta_update(param: Any, grad: Any, square_avg: Any, acc_delta: Any, *, lr: float, rho: float, eps: float,
                    weight_decay: float, maximize: bool) -> None:
    """One Adadelta step on arrays, in place."""
    xp = array_module_of(param)
    if maximize:
        grad = -grad
    if weight_decay != 0:
        grad = grad + weight_decay * param
    square_avg *= rho
    square_avg += (1 - rho) * (grad * grad)
    std = xp.sqrt(square_avg + eps)
    delta = xp.sqrt(acc_delta + eps)
    delta /= std
    delta *= grad
    acc_delta *= rho
    acc_delta += (1 - rho) * (delta * delta)
    delta *= lr
    param -= delta
