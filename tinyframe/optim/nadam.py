"""NAdam: Adam with Nesterov momentum, and RAdam: Adam with a rectified adaptive learning rate."""
from __future__ import annotations

import math
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

__all__ = ["NAdam", "RAdam"]


_MOMENTS = ("exp_avg", "exp_avg_sq")  # the two moments' keys in PyTorch's state, in its order


class NAdam(Optimizer):
    def __init__(self, params: Iterable[Any], lr: float = 2e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, momentum_decay: float = 4e-3,
                 decoupled_weight_decay: bool = False, *, foreach: bool | None = None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False) -> None:
        check_adam_family_args(lr, betas, eps, weight_decay)
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        check_not_differentiable(differentiable)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "momentum_decay": momentum_decay, "decoupled_weight_decay": decoupled_weight_decay,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _step_group(self, group: dict[str, Any]) -> None:
        # Python floats: a NumPy float64 or a tensor in a group must not promote float32 arrays.
        lr, beta1, beta2 = float(group["lr"]), float(group["betas"][0]), float(group["betas"][1])
        eps, weight_decay = float(group["eps"]), float(group["weight_decay"])
        for p, state in stepped_states(self, group, _MOMENTS, mu_product=1.0):
            nadam_update(*real_views(p._data, p._grad._data, state["exp_avg"]._data, state["exp_avg_sq"]._data,
                                     state["mu_product"]._data, state["step"].item()),
                         lr=lr, beta1=beta1, beta2=beta2, eps=eps, weight_decay=weight_decay,
                         momentum_decay=float(group["momentum_decay"]),
                         decoupled_weight_decay=group["decoupled_weight_decay"], maximize=group["maximize"])


class RAdam(Optimizer):
    def __init__(self, params: Iterable[Any], lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, decoupled_weight_decay: bool = False, *,
                 foreach: bool | None = None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        check_adam_family_args(lr, betas, eps, weight_decay)
        check_not_differentiable(differentiable)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "foreach": foreach, "capturable": capturable,
                    "decoupled_weight_decay": decoupled_weight_decay, "differentiable": differentiable}
        super().__init__(params, defaults)

    def _step_group(self, group: dict[str, Any]) -> None:
        # Python floats: a NumPy float64 or a tensor in a group must not promote float32 arrays.
        lr, beta1, beta2 = float(group["lr"]), float(group["betas"][0]), float(group["betas"][1])
        eps, weight_decay = float(group["eps"]), float(group["weight_decay"])
        for p, state in stepped_states(self, group, _MOMENTS):
            radam_update(*real_views(p._data, p._grad._data, state["exp_avg"]._data, state["exp_avg_sq"]._data,
                                     state["step"].item()),
                         lr=lr, beta1=beta1, beta2=beta2, eps=eps, weight_decay=weight_decay,
                         decoupled_weight_decay=group["decoupled_weight_decay"], maximize=group["maximize"])


NAdam.__doc__ = r"""Implements the NAdam algorithm (Adam with Nesterov momentum), like ``torch.optim.NAdam``.

    .. math::
       \begin{aligned}
            &\textbf{input}: \gamma_t \text{ (lr)}, \: \beta_1,\beta_2 \text{ (betas)}, \: \theta_0 \text{ (params)},
                \: f(\theta) \text{ (objective)}, \: \lambda \text{ (weight decay)},
                \: \psi \text{ (momentum decay)}, \: \textit{decoupled\_weight\_decay}  \\
            &\textbf{initialize}: m_0 \leftarrow 0 \text{ (first moment)}, v_0 \leftarrow 0 \text{ (second moment)} \\
            &\textbf{for} \: t=1 \: \textbf{to} \: \ldots \: \textbf{do}                    \\
            &\hspace{5mm}g_t \leftarrow \nabla_{\theta} f_t (\theta_{t-1}) \: (\text{negated if } \textit{maximize}) \\
            &\hspace{5mm}\textbf{if} \: \lambda \neq 0: \: \textbf{if} \: \textit{decoupled\_weight\_decay}:
                \: \theta_{t-1} \leftarrow \theta_{t-1} - \gamma \lambda \theta_{t-1}
                \: \textbf{else}: \: g_t \leftarrow g_t + \lambda \theta_{t-1}                \\
            &\hspace{5mm} \mu_t \leftarrow \beta_1 \big(1 - \frac{1}{2}  0.96^{t \psi} \big),
                \: \mu_{t+1} \leftarrow \beta_1 \big(1 - \frac{1}{2} 0.96^{(t+1)\psi}\big) \\
            &\hspace{5mm}m_t \leftarrow \beta_1 m_{t-1} + (1 - \beta_1) g_t                 \\
            &\hspace{5mm}v_t \leftarrow \beta_2 v_{t-1} + (1-\beta_2) g^2_t                 \\
            &\hspace{5mm}\widehat{m_t} \leftarrow \mu_{t+1} m_t/(1-\prod_{i=1}^{t+1}\mu_i)
                + (1-\mu_t) g_t /(1-\prod_{i=1}^{t} \mu_{i})                               \\
            &\hspace{5mm}\widehat{v_t} \leftarrow v_t/\big(1-\beta_2^t \big)              \\
            &\hspace{5mm}\theta_t \leftarrow \theta_{t-1} - \gamma \widehat{m_t}/
                \big(\sqrt{\widehat{v_t}} + \epsilon \big)                                  \\
            &\textbf{return} \: \theta_t
       \end{aligned}

    See `Incorporating Nesterov Momentum into Adam` (Dozat, 2016); with decoupled weight decay this
    is NAdamW, as in `Decoupled Weight Decay Regularization`.

    Args:
        """ + rf"""{_params_doc}
        lr (float): learning rate (default: 2e-3).
        betas (tuple[float, float]): coefficients of the running averages of the gradient and its
            square (default: (0.9, 0.999)).
        eps (float): term added to the denominator for numerical stability (default: 1e-8).
        weight_decay (float): weight decay (default: 0).
        momentum_decay (float): momentum decay :math:`\psi` (default: 4e-3).
        decoupled_weight_decay (bool): decay the parameters directly, as AdamW does, instead of
            through the gradient (default: False).
        {_foreach_doc}
        {_maximize_doc}
        {_capturable_doc}
        {_differentiable_doc}

    State per parameter: ``step`` and ``mu_product`` (0-dim cpu tensors), ``exp_avg`` and ``exp_avg_sq``.
    """


RAdam.__doc__ = r"""Implements the RAdam algorithm (rectified Adam), like ``torch.optim.RAdam``.

    .. math::
       \begin{aligned}
            &\textbf{input}: \gamma \text{ (lr)}, \: \beta_1, \beta_2 \text{ (betas)}, \: \theta_0 \text{ (params)},
                \: f(\theta) \text{ (objective)}, \: \lambda \text{ (weight decay)},
                \: \textit{decoupled\_weight\_decay}                                       \\
            &\textbf{initialize}: m_0 \leftarrow 0, \: v_0 \leftarrow 0,
                \: \rho_{\infty} \leftarrow 2/(1-\beta_2) -1                               \\
            &\textbf{for} \: t=1 \: \textbf{to} \: \ldots \: \textbf{do}                    \\
            &\hspace{5mm}g_t \leftarrow \nabla_{\theta} f_t (\theta_{t-1}) \: (\text{negated if } \textit{maximize}) \\
            &\hspace{5mm}\textbf{if} \: \lambda \neq 0: \: \textbf{if} \: \textit{decoupled\_weight\_decay}:
                \: \theta_{t-1} \leftarrow \theta_{t-1} - \gamma \lambda \theta_{t-1}
                \: \textbf{else}: \: g_t \leftarrow g_t + \lambda \theta_{t-1}                \\
            &\hspace{5mm}m_t \leftarrow \beta_1 m_{t-1} + (1 - \beta_1) g_t                 \\
            &\hspace{5mm}v_t \leftarrow \beta_2 v_{t-1} + (1-\beta_2) g^2_t                 \\
            &\hspace{5mm}\widehat{m_t} \leftarrow m_t/\big(1-\beta_1^t \big)              \\
            &\hspace{5mm}\rho_t \leftarrow \rho_{\infty} - 2 t \beta^t_2 /\big(1-\beta_2^t \big) \\
            &\hspace{5mm}\textbf{if} \: \rho_t > 5:
                \: l_t \leftarrow \sqrt{1-\beta^t_2} / \big(\sqrt{v_t} + \epsilon \big),
                \: r_t \leftarrow \sqrt{\frac{(\rho_t-4)(\rho_t-2)\rho_{\infty}}
                    {(\rho_{\infty}-4)(\rho_{\infty}-2) \rho_t}},
                \: \theta_t \leftarrow \theta_{t-1} - \gamma \widehat{m_t} r_t l_t         \\
            &\hspace{5mm}\textbf{else}: \: \theta_t \leftarrow \theta_{t-1} - \gamma \widehat{m_t} \\
            &\textbf{return} \: \theta_t
       \end{aligned}

    See `On the Variance of the Adaptive Learning Rate and Beyond` (Liu et al.).

    Args:
        """ + rf"""{_params_doc}
        lr (float): learning rate (default: 1e-3).
        betas (tuple[float, float]): coefficients of the running averages of the gradient and its
            square (default: (0.9, 0.999)).
        eps (float): term added to the denominator for numerical stability (default: 1e-8).
        weight_decay (float): weight decay (default: 0).
        decoupled_weight_decay (bool): decay the parameters directly, as AdamW does, instead of
            through the gradient (default: False).
        {_foreach_doc}
        {_maximize_doc}
        {_capturable_doc}
        {_differentiable_doc}

    State per parameter: ``step`` (a 0-dim cpu tensor), ``exp_avg`` and ``exp_avg_sq``.
    """


def _decayed_grad(param: Any, grad: Any, lr: float, weight_decay: float, decoupled: bool, maximize: bool) -> Any:
    """The gradient with maximize and L2 weight decay applied; decoupled decay shrinks ``param`` in place."""
    if maximize:
        grad = -grad
    if weight_decay != 0:
        if decoupled:
            param *= 1 - lr * weight_decay
        else:
            grad = grad + weight_decay * param
    return grad


def _update_moments(grad: Any, exp_avg: Any, exp_avg_sq: Any, beta1: float, beta2: float) -> None:
    xp = array_module_of(grad)
    lerp_(exp_avg, grad, 1 - beta1, xp.empty_like(grad))
    exp_avg_sq *= beta2
    exp_avg_sq += (1 - beta2) * (grad * grad)


def nadam_update(param: Any, grad: Any, exp_avg: Any, exp_avg_sq: Any, mu_product: Any, step: float, *, lr: float,
                 beta1: float, beta2: float, eps: float, weight_decay: float, momentum_decay: float,
                 decoupled_weight_decay: bool, maximize: bool) -> None:
    """One NAdam step on arrays, in place; ``mu_product`` is the 0-dim running product of the
    momentum coefficients, kept in its own (PyTorch's scalar) dtype."""
    xp = array_module_of(param)
    grad = _decayed_grad(param, grad, lr, weight_decay, decoupled_weight_decay, maximize)
    bias_correction2 = 1 - beta2 ** step
    mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
    mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
    mu_product *= mu
    product = mu_product.item()
    _update_moments(grad, exp_avg, exp_avg_sq, beta1, beta2)
    denom = xp.sqrt(exp_avg_sq / bias_correction2)
    denom += eps
    param -= (grad / denom) * (lr * (1.0 - mu) / (1.0 - product))
    param -= (exp_avg / denom) * (lr * mu_next / (1.0 - product * mu_next))


def radam_update(param: Any, grad: Any, exp_avg: Any, exp_avg_sq: Any, step: float, *, lr: float, beta1: float,
                 beta2: float, eps: float, weight_decay: float, decoupled_weight_decay: bool,
                 maximize: bool) -> None:
    """One RAdam step on arrays, in place; ``step`` is the step number t, from 1."""
    xp = array_module_of(param)
    grad = _decayed_grad(param, grad, lr, weight_decay, decoupled_weight_decay, maximize)
    _update_moments(grad, exp_avg, exp_avg_sq, beta1, beta2)
    bias_correction1 = 1 - beta1 ** step
    bias_correction2 = 1 - beta2 ** step
    update = exp_avg / bias_correction1
    rho_inf = 2 / (1 - beta2) - 1
    rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
    update *= lr
    if rho_t > 5.0:
        rect = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
        adaptive_lr = math.sqrt(bias_correction2) / (xp.sqrt(exp_avg_sq) + eps)
        update *= adaptive_lr
        update *= rect
    param -= update
