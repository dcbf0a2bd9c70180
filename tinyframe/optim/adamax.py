"""Adamax: Adam with the infinity norm of past gradients in place of the second moment."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..device import array_module_of
from ._docs import (
    _capturable_doc,
    _differentiable_doc,
    _foreach_doc,
    _maximize_doc,
    _params_doc,
    check_not_differentiable,
)
from .adam import check_adam_family_args
from .optimizer import Optimizer, lerp_, real_views, stepped_states

__all__ = ["Adamax"]


class Adamax(Optimizer):
    def __init__(self, params: Iterable[Any], lr: float = 2e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, foreach: bool | None = None, *,
                 maximize: bool = False, differentiable: bool = False, capturable: bool = False) -> None:
        check_adam_family_args(lr, betas, eps, weight_decay)
        check_not_differentiable(differentiable)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    def _step_group(self, group: dict[str, Any]) -> None:
        # Python floats: a NumPy float64 or a tensor in a group must not promote float32 arrays.
        lr, beta1, beta2 = float(group["lr"]), float(group["betas"][0]), float(group["betas"][1])
        eps, weight_decay, maximize = float(group["eps"]), float(group["weight_decay"]), group["maximize"]
        for p, state in stepped_states(self, group, ("exp_avg", "exp_inf")):
            adamax_update(*real_views(p._data, p._grad._data, state["exp_avg"]._data, state["exp_inf"]._data,
                                      state["step"].item()), lr=lr, beta1=beta1, beta2=beta2, eps=eps,
                          weight_decay=weight_decay, maximize=maximize)


Adamax.__doc__ = r"""Implements the Adamax algorithm (Adam based on the infinity norm), like ``torch.optim.Adamax``.

    .. math::
       \begin{aligned}
            &\textbf{input}: \gamma \text{ (lr)}, \beta_1, \beta_2 \text{ (betas)}, \theta_0 \text{ (params)},
                f(\theta) \text{ (objective)}, \: \lambda \text{ (weight decay)}, \epsilon \text{ (epsilon)} \\
            &\textbf{initialize}: m_0 \leftarrow 0 \text{ (first moment)}, u_0 \leftarrow 0 \text{ (infinity norm)} \\
            &\textbf{for} \: t=1 \: \textbf{to} \: \ldots \: \textbf{do}                    \\
            &\hspace{5mm}g_t \leftarrow \nabla_{\theta} f_t (\theta_{t-1}) \: (\text{negated if } \textit{maximize}) \\
            &\hspace{5mm}\textbf{if} \: \lambda \neq 0: \: g_t \leftarrow g_t + \lambda \theta_{t-1} \\
            &\hspace{5mm}m_t \leftarrow \beta_1 m_{t-1} + (1 - \beta_1) g_t                 \\
            &\hspace{5mm}u_t \leftarrow \mathrm{max}(\beta_2 u_{t-1}, |g_{t}|+\epsilon)     \\
            &\hspace{5mm}\theta_t \leftarrow \theta_{t-1} - \frac{\gamma m_t}{(1-\beta^t_1) u_t} \\
            &\textbf{return} \: \theta_t
       \end{aligned}

    See `Adam: A Method for Stochastic Optimization` (Kingma & Ba), section 7.

    Args:
        """ + rf"""{_params_doc}
        lr (float): learning rate (default: 2e-3).
        betas (tuple[float, float]): coefficients of the running average of the gradient and of the
            decay of its infinity norm (default: (0.9, 0.999)).
        eps (float): term added to the denominator for numerical stability (default: 1e-8).
        weight_decay (float): weight decay, an L2 penalty (default: 0).
        {_foreach_doc}
        {_maximize_doc}
        {_differentiable_doc}
        {_capturable_doc}

    State per parameter: ``step`` (a 0-dim cpu tensor), ``exp_avg`` and ``exp_inf``.
    """


def adamax_update(param: Any, grad: Any, exp_avg: Any, exp_inf: Any, step: float, *, lr: float, beta1: float,
                  beta2: float, eps: float, weight_decay: float, maximize: bool) -> None:
    """One Adamax step on arrays, in place; ``step`` is the step number t, from 1."""
    xp = array_module_of(param)
    if maximize:
        grad = -grad
    if weight_decay != 0:
        grad = grad + weight_decay * param
    lerp_(exp_avg, grad, 1 - beta1, xp.empty_like(param))
    exp_inf *= beta2
    xp.maximum(exp_inf, xp.abs(grad) + eps, out=exp_inf)
    clr = lr / (1 - beta1 ** step)
    update = exp_avg / exp_inf
    update *= clr
    param -= update
