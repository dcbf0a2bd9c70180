"""Adam and AdamW: adaptive moment estimation, with L2 or decoupled weight decay."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..device import array_module_of
from ..tensor import Tensor
from ._docs import check_not_differentiable
from .optimizer import Optimizer, lerp_, real_views, stepped_states

__all__ = ["Adam", "AdamW"]


def check_adam_family_args(lr: Any, betas: tuple[float, float], eps: float, weight_decay: float) -> None:
    """PyTorch's checks, and messages, for the arguments Adam's relatives share."""
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")
    if not 0.0 <= eps:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if not 0.0 <= weight_decay:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


class Adam(Optimizer):
    r"""Implements the Adam algorithm, like ``torch.optim.Adam``.

    .. math::
       \begin{aligned}
            &\textbf{input}: \gamma \text{ (lr)}, \beta_1, \beta_2 \text{ (betas)}, \theta_0 \text{ (params)},
                f(\theta) \text{ (objective)}, \lambda \text{ (weight decay)}, \: \textit{amsgrad},
                \: \textit{maximize}, \: \epsilon \text{ (epsilon)}                          \\
            &\textbf{initialize}: m_0 \leftarrow 0 \text{ (first moment)},
                v_0 \leftarrow 0 \text{ (second moment)}, \: v_0^{max} \leftarrow 0          \\
            &\textbf{for} \: t=1 \: \textbf{to} \: \ldots \: \textbf{do}                    \\
            &\hspace{5mm}\textbf{if} \: \textit{maximize}: g_t \leftarrow -\nabla_{\theta} f_t (\theta_{t-1})
                \: \textbf{else} \: g_t \leftarrow \nabla_{\theta} f_t (\theta_{t-1})      \\
            &\hspace{5mm}\textbf{if} \: \lambda \neq 0: \: g_t \leftarrow g_t + \lambda \theta_{t-1} \\
            &\hspace{5mm}m_t \leftarrow \beta_1 m_{t-1} + (1 - \beta_1) g_t                 \\
            &\hspace{5mm}v_t \leftarrow \beta_2 v_{t-1} + (1-\beta_2) g^2_t                 \\
            &\hspace{5mm}\widehat{m_t} \leftarrow m_t/\big(1-\beta_1^t \big)                \\
            &\hspace{5mm}\textbf{if} \: amsgrad: \: v_t^{max} \leftarrow \mathrm{max}(v_{t-1}^{max}, v_t),
                \: \widehat{v_t} \leftarrow v_t^{max}/\big(1-\beta_2^t \big)               \\
            &\hspace{5mm}\textbf{else}: \: \widehat{v_t} \leftarrow v_t/\big(1-\beta_2^t \big) \\
            &\hspace{5mm}\theta_t \leftarrow \theta_{t-1} - \gamma \widehat{m_t}/
                \big(\sqrt{\widehat{v_t}} + \epsilon \big)                                  \\
            &\textbf{return} \: \theta_t
       \end{aligned}

    As in PyTorch, the bias corrections are folded into scalars:
    :math:`\theta_t \leftarrow \theta_{t-1} - \frac{\gamma}{1-\beta_1^t} \, m_t /
    \big(\sqrt{v_t}/\sqrt{1-\beta_2^t} + \epsilon\big)`.

    Args:
        params (iterable): tensors, ``(name, tensor)`` pairs or dicts defining parameter groups.
        lr (float): learning rate (default: 1e-3).
        betas (tuple[float, float]): coefficients of the running averages of the gradient and its
            square (default: (0.9, 0.999)).
        eps (float): term added to the denominator for numerical stability (default: 1e-8).
        weight_decay (float): weight decay, an L2 penalty (default: 0).
        amsgrad (bool): use the AMSGrad variant from `On the Convergence of Adam and Beyond`
            (default: False).
        maximize (bool): maximize the objective instead of minimizing it (default: False).
        decoupled_weight_decay (bool): decay the parameters directly instead of through the
            gradient, which makes this optimizer AdamW (default: False).
        foreach, fused, capturable: accepted for PyTorch compatibility and ignored; the update is
            vectorized per parameter.
        differentiable (bool): must be False (the step is outside the autograd graph).

    State per parameter: ``step`` (a 0-dim cpu tensor), ``exp_avg``, ``exp_avg_sq`` and, with
    amsgrad, ``max_exp_avg_sq``.
    """

    sparse_grads_error = "Adam does not support sparse gradients, please consider SparseAdam instead"

    def __init__(self, params: Iterable[Any], lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, amsgrad: bool = False, *, foreach: bool | None = None,
                 maximize: bool = False, capturable: bool = False, differentiable: bool = False,
                 fused: bool | None = None, decoupled_weight_decay: bool = False) -> None:
        check_adam_family_args(lr, betas, eps, weight_decay)
        check_not_differentiable(differentiable)
        defaults = {"lr": lr, "betas": (float(betas[0]), float(betas[1])), "eps": eps,
                    "weight_decay": weight_decay, "amsgrad": amsgrad, "maximize": maximize, "foreach": foreach,
                    "capturable": capturable, "differentiable": differentiable, "fused": fused,
                    "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)

    def _step_group(self, group: dict[str, Any]) -> None:
        # Python floats: a NumPy float64 or a tensor in a group must not promote float32 arrays.
        lr, beta1, beta2 = float(group["lr"]), float(group["betas"][0]), float(group["betas"][1])
        eps, weight_decay = float(group["eps"]), float(group["weight_decay"])
        amsgrad, maximize = group["amsgrad"], group["maximize"]
        decoupled = group["decoupled_weight_decay"]
        buffers = ("exp_avg", "exp_avg_sq", *(("max_exp_avg_sq",) if amsgrad else ()))
        for p, state in stepped_states(self, group, buffers):
            adam_update(*real_views(p._data, p._grad._data, state["exp_avg"]._data, state["exp_avg_sq"]._data,
                                    state["max_exp_avg_sq"]._data if amsgrad else None, state["step"].item()),
                        lr=lr, beta1=beta1, beta2=beta2, eps=eps, weight_decay=weight_decay,
                        maximize=maximize, decoupled_weight_decay=decoupled)


class AdamW(Adam):
    r"""Implements AdamW: Adam whose weight decay does not go through the moments, like ``torch.optim.AdamW``.

    .. math::
       \begin{aligned}
            &\textbf{input}: \gamma \text{ (lr)}, \beta_1, \beta_2 \text{ (betas)}, \theta_0 \text{ (params)},
                f(\theta) \text{ (objective)}, \epsilon \text{ (epsilon)}, \lambda \text{ (weight decay)},
                \: \textit{amsgrad}, \: \textit{maximize}                                   \\
            &\textbf{initialize}: m_0 \leftarrow 0 \text{ (first moment)},
                v_0 \leftarrow 0 \text{ (second moment)}, \: v_0^{max} \leftarrow 0          \\
            &\textbf{for} \: t=1 \: \textbf{to} \: \ldots \: \textbf{do}                    \\
            &\hspace{5mm}\textbf{if} \: \textit{maximize}: g_t \leftarrow -\nabla_{\theta} f_t (\theta_{t-1})
                \: \textbf{else} \: g_t \leftarrow \nabla_{\theta} f_t (\theta_{t-1})      \\
            &\hspace{5mm}\theta_t \leftarrow \theta_{t-1} - \gamma \lambda \theta_{t-1}     \\
            &\hspace{5mm}m_t \leftarrow \beta_1 m_{t-1} + (1 - \beta_1) g_t                 \\
            &\hspace{5mm}v_t \leftarrow \beta_2 v_{t-1} + (1-\beta_2) g^2_t                 \\
            &\hspace{5mm}\widehat{m_t} \leftarrow m_t/\big(1-\beta_1^t \big)                \\
            &\hspace{5mm}\textbf{if} \: amsgrad: \: v_t^{max} \leftarrow \mathrm{max}(v_{t-1}^{max}, v_t),
                \: \widehat{v_t} \leftarrow v_t^{max}/\big(1-\beta_2^t \big)               \\
            &\hspace{5mm}\textbf{else}: \: \widehat{v_t} \leftarrow v_t/\big(1-\beta_2^t \big) \\
            &\hspace{5mm}\theta_t \leftarrow \theta_t - \gamma \widehat{m_t}/
                \big(\sqrt{\widehat{v_t}} + \epsilon \big)                                  \\
            &\textbf{return} \: \theta_t
       \end{aligned}

    See `Decoupled Weight Decay Regularization` (Loshchilov & Hutter). The arguments are Adam's,
    with ``weight_decay`` defaulting to 1e-2.
    """

    def __init__(self, params: Iterable[Any], lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 1e-2, amsgrad: bool = False, *, maximize: bool = False,
                 foreach: bool | None = None, capturable: bool = False, differentiable: bool = False,
                 fused: bool | None = None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        super().load_state_dict(state_dict)
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True


def adam_update(param: Any, grad: Any, exp_avg: Any, exp_avg_sq: Any, max_exp_avg_sq: Any, step: float, *,
                lr: float, beta1: float, beta2: float, eps: float, weight_decay: float, maximize: bool,
                decoupled_weight_decay: bool) -> None:
    """One Adam step on arrays, in place: ``param``, the moments and (amsgrad, when not None)
    ``max_exp_avg_sq``; ``step`` is the step number t, from 1."""
    xp = array_module_of(param)
    if maximize:
        grad = -grad
    if weight_decay != 0:
        if decoupled_weight_decay:
            param *= 1 - lr * weight_decay
        else:
            grad = grad + weight_decay * param
    scratch = xp.empty_like(param)
    lerp_(exp_avg, grad, 1 - beta1, scratch)
    exp_avg_sq *= beta2
    xp.multiply(grad, 1 - beta2, out=scratch)
    scratch *= grad
    exp_avg_sq += scratch
    if max_exp_avg_sq is not None:
        xp.maximum(max_exp_avg_sq, exp_avg_sq, out=max_exp_avg_sq)
        exp_avg_sq = max_exp_avg_sq
    step_size = lr / (1 - beta1 ** step)
    denom = xp.sqrt(exp_avg_sq, out=scratch)
    denom /= (1 - beta2 ** step) ** 0.5
    denom += eps
    update = exp_avg * step_size
    update /= denom
    param -= update
