"""ASGD: stochastic gradient descent with a decaying step and a running average of the iterates."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

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

__all__ = ["ASGD"]


class ASGD(Optimizer):
    def __init__(self, params: Iterable[Any], lr: float = 1e-2, lambd: float = 1e-4, alpha: float = 0.75,
                 t0: float = 1e6, weight_decay: float = 0, foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False, capturable: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        check_not_differentiable(differentiable)
        defaults = {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize, "differentiable": differentiable,
                    "capturable": capturable}
        super().__init__(params, defaults)

    def _step_group(self, group: dict[str, Any]) -> None:
        # Python floats: a NumPy float64 or a tensor in a group must not promote float32 arrays.
        lr, lambd, alpha = float(group["lr"]), float(group["lambd"]), float(group["alpha"])
        t0, weight_decay = float(group["t0"]), float(group["weight_decay"])
        for p, state in stepped_states(self, group, ("ax",), eta=lr, mu=1.0):
            step, eta, mu = state["step"]._data, state["eta"]._data, state["mu"]._data
            asgd_update(*real_views(p._data, p._grad._data, state["ax"]._data, eta.item(), mu.item()), lambd=lambd,
                        weight_decay=weight_decay, maximize=group["maximize"])
            # The next step's rate and averaging weight, kept in PyTorch's scalar dtype.
            eta[...] = lr / ((1 + lambd * lr * step.item()) ** alpha)
            mu[...] = 1 / max(1, step.item() - t0)


ASGD.__doc__ = r"""Implements averaged stochastic gradient descent, like ``torch.optim.ASGD``.

    .. math::
       \begin{aligned}
            &\textbf{input}: \gamma \text{ (lr)}, \: \lambda \text{ (lambd)}, \: \alpha \text{ (power)},
                \: t_0 \text{ (start of averaging)}, \: \lambda_{wd} \text{ (weight decay)}    \\
            &\textbf{initialize}: \eta_0 \leftarrow \gamma, \: \mu_0 \leftarrow 1, \: \bar{\theta}_0 \leftarrow 0 \\
            &\textbf{for} \: t=1 \: \textbf{to} \: \ldots \: \textbf{do}                    \\
            &\hspace{5mm}g_t \leftarrow \nabla_{\theta} f_t (\theta_{t-1}) \: (\text{negated if } \textit{maximize})
                \: + \lambda_{wd} \theta_{t-1}                                              \\
            &\hspace{5mm}\theta_t \leftarrow \theta_{t-1} (1 - \lambda \eta_{t-1}) - \eta_{t-1} g_t \\
            &\hspace{5mm}\textbf{if} \: \mu_{t-1} \neq 1: \: \bar{\theta}_t \leftarrow \bar{\theta}_{t-1}
                + \mu_{t-1} (\theta_t - \bar{\theta}_{t-1}) \: \textbf{else}: \: \bar{\theta}_t \leftarrow \theta_t \\
            &\hspace{5mm}\eta_t \leftarrow \gamma / (1 + \lambda \gamma t)^\alpha, \:
                \mu_t \leftarrow 1 / \max(1, t - t_0)                                       \\
            &\textbf{return} \: \theta_t
       \end{aligned}

    See `Acceleration of stochastic approximation by averaging` (Polyak & Juditsky); the average
    is in the state as ``ax``.

    Args:
        """ + rf"""{_params_doc}
        lr (float): learning rate (default: 1e-2).
        lambd (float): decay term (default: 1e-4).
        alpha (float): power for the eta update (default: 0.75).
        t0 (float): the step at which averaging starts (default: 1e6).
        weight_decay (float): weight decay, an L2 penalty (default: 0).
        {_foreach_doc}
        {_maximize_doc}
        {_differentiable_doc}
        {_capturable_doc}

    State per parameter: ``step``, ``eta`` and ``mu`` (0-dim cpu tensors), and ``ax``.
    """


def asgd_update(param: Any, grad: Any, ax: Any, eta: float, mu: float, *, lambd: float, weight_decay: float,
                maximize: bool) -> None:
    """One ASGD step on arrays, in place, with this step's ``eta`` and ``mu``."""
    if maximize:
        grad = -grad
    if weight_decay != 0:
        grad = grad + weight_decay * param
    param *= 1 - lambd * eta
    param -= eta * grad
    if mu != 1:
        ax += (param - ax) * mu
    else:
        ax[...] = param
