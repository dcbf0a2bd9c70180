"""RMSprop: gradients scaled by a running root mean square, optionally centered and with momentum."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..device import array_module_of
from ..tensor import Tensor
from ._docs import check_not_differentiable
from .optimizer import Optimizer, lerp_, real_views, stepped_states

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    r"""Implements the RMSprop algorithm, like ``torch.optim.RMSprop``.

    .. math::
       \begin{aligned}
            &\textbf{input}: \alpha \text{ (alpha)}, \: \gamma \text{ (lr)}, \: \theta_0 \text{ (params)},
                \: f(\theta) \text{ (objective)}, \: \lambda \text{ (weight decay)}, \: \mu \text{ (momentum)},
                \: centered, \: \epsilon \text{ (epsilon)}                                 \\
            &\textbf{initialize}: v_0 \leftarrow 0 \text{ (square average)}, \:
                \textbf{b}_0 \leftarrow 0 \text{ (buffer)}, \: g^{ave}_0 \leftarrow 0        \\
            &\textbf{for} \: t=1 \: \textbf{to} \: \ldots \: \textbf{do}                    \\
            &\hspace{5mm}\textbf{if} \: \textit{maximize}: g_t \leftarrow -\nabla_{\theta} f_t (\theta_{t-1})
                \: \textbf{else} \: g_t \leftarrow \nabla_{\theta} f_t (\theta_{t-1})      \\
            &\hspace{5mm}\textbf{if} \: \lambda \neq 0: \: g_t \leftarrow g_t + \lambda \theta_{t-1} \\
            &\hspace{5mm}v_t \leftarrow \alpha v_{t-1} + (1 - \alpha) g^2_t                \\
            &\hspace{5mm}\tilde{v_t} \leftarrow v_t                                         \\
            &\hspace{5mm}\textbf{if} \: centered: \: g^{ave}_t \leftarrow g^{ave}_{t-1} \alpha + (1-\alpha) g_t,
                \: \tilde{v_t} \leftarrow \tilde{v_t} - \big(g^{ave}_{t} \big)^2            \\
            &\hspace{5mm}\textbf{if} \: \mu > 0: \: \textbf{b}_t \leftarrow \mu \textbf{b}_{t-1}
                + g_t / \big(\sqrt{\tilde{v_t}} + \epsilon \big), \:
                \theta_t \leftarrow \theta_{t-1} - \gamma \textbf{b}_t                       \\
            &\hspace{5mm}\textbf{else}: \: \theta_t \leftarrow \theta_{t-1}
                - \gamma g_t / \big(\sqrt{\tilde{v_t}} + \epsilon \big)                     \\
            &\textbf{return} \: \theta_t
       \end{aligned}

    The square root is taken before adding epsilon (TensorFlow swaps the two), so the effective
    learning rate is :math:`\gamma/(\sqrt{v} + \epsilon)`. See G. Hinton's lecture notes, and
    `Generating Sequences With Recurrent Neural Networks` for the centered version.

    Args:
        params (iterable): tensors, ``(name, tensor)`` pairs or dicts defining parameter groups.
        lr (float): learning rate (default: 1e-2).
        alpha (float): smoothing constant (default: 0.99).
        eps (float): term added to the denominator for numerical stability (default: 1e-8).
        weight_decay (float): weight decay, an L2 penalty (default: 0).
        momentum (float): momentum factor (default: 0).
        centered (bool): normalize the gradient by an estimate of its variance (default: False).
        capturable, foreach: accepted for PyTorch compatibility and ignored.
        maximize (bool): maximize the objective instead of minimizing it (default: False).
        differentiable (bool): must be False (the step is outside the autograd graph).

    State per parameter: ``step`` (a 0-dim cpu tensor), ``square_avg``, and ``momentum_buffer``
    (momentum > 0) and ``grad_avg`` (centered).
    """

    def __init__(self, params: Iterable[Any], lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0, momentum: float = 0, centered: bool = False,
                 capturable: bool = False, foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        check_not_differentiable(differentiable)
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps, "centered": centered,
                    "weight_decay": weight_decay, "capturable": capturable, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable}
        super().__init__(params, defaults)

    def _step_group(self, group: dict[str, Any]) -> None:
        # Python floats: a NumPy float64 or a tensor in a group must not promote float32 arrays.
        lr, alpha, eps = float(group["lr"]), float(group["alpha"]), float(group["eps"])
        momentum, weight_decay = float(group["momentum"]), float(group["weight_decay"])
        centered, maximize = group["centered"], group["maximize"]
        buffers = ("square_avg", *(("momentum_buffer",) if momentum > 0 else ()), *(("grad_avg",) if centered else ()))
        for p, state in stepped_states(self, group, buffers):
            rmsprop_update(*real_views(p._data, p._grad._data, state["square_avg"]._data,
                                       state["grad_avg"]._data if centered else None,
                                       state["momentum_buffer"]._data if momentum > 0 else None),
                           lr=lr, alpha=alpha, eps=eps, weight_decay=weight_decay, momentum=momentum,
                           maximize=maximize)


def rmsprop_update(param: Any, grad: Any, square_avg: Any, grad_avg: Any, momentum_buffer: Any, *, lr: float,
                   alpha: float, eps: float, weight_decay: float, momentum: float, maximize: bool) -> None:
    """One RMSprop step on arrays, in place; ``grad_avg`` is None unless centered,
    ``momentum_buffer`` None unless momentum > 0."""
    xp = array_module_of(param)
    if maximize:
        grad = -grad
    if weight_decay != 0:
        grad = grad + weight_decay * param
    scratch = xp.empty_like(param)
    square_avg *= alpha
    xp.multiply(grad, 1 - alpha, out=scratch)
    scratch *= grad
    square_avg += scratch
    if grad_avg is not None:
        lerp_(grad_avg, grad, 1 - alpha, scratch)
        xp.multiply(grad_avg, grad_avg, out=scratch)
        xp.subtract(square_avg, scratch, out=scratch)
        avg = xp.sqrt(scratch, out=scratch)
    else:
        avg = xp.sqrt(square_avg, out=scratch)
    avg += eps
    if momentum_buffer is not None:
        momentum_buffer *= momentum
        xp.divide(grad, avg, out=avg)
        momentum_buffer += avg
        update = xp.multiply(momentum_buffer, lr, out=avg)
    else:
        update = grad * lr
        update /= avg
    param -= update
