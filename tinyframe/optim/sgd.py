"""Stochastic gradient descent, with momentum, dampening, Nesterov momentum and weight decay."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ..tensor import Tensor
from ._docs import check_not_differentiable
from .optimizer import Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    r"""Implements stochastic gradient descent (optionally with momentum), like ``torch.optim.SGD``.

    .. math::
       \begin{aligned}
            &\textbf{input}: \gamma \text{ (lr)}, \: \theta_0 \text{ (params)}, \: f(\theta)
                \text{ (objective)}, \: \lambda \text{ (weight decay)},
                \: \mu \text{ (momentum)}, \: \tau \text{ (dampening)},
                \: \textit{nesterov}, \: \textit{maximize}                                 \\
            &\textbf{for} \: t=1 \: \textbf{to} \: \ldots \: \textbf{do}                    \\
            &\hspace{5mm}\textbf{if} \: \textit{maximize}: g_t \leftarrow -\nabla_{\theta} f_t (\theta_{t-1})
                \: \textbf{else} \: g_t \leftarrow \nabla_{\theta} f_t (\theta_{t-1})      \\
            &\hspace{5mm}\textbf{if} \: \lambda \neq 0: \: g_t \leftarrow g_t + \lambda \theta_{t-1} \\
            &\hspace{5mm}\textbf{if} \: \mu \neq 0                                          \\
            &\hspace{10mm}\textbf{if} \: t > 1: \: \textbf{b}_t \leftarrow \mu \textbf{b}_{t-1} + (1-\tau) g_t
                \: \textbf{else} \: \textbf{b}_t \leftarrow g_t                             \\
            &\hspace{10mm}\textbf{if} \: \textit{nesterov}: \: g_t \leftarrow g_t + \mu \textbf{b}_t
                \: \textbf{else} \: g_t \leftarrow \textbf{b}_t                             \\
            &\hspace{5mm}\theta_t \leftarrow \theta_{t-1} - \gamma g_t                     \\
            &\textbf{return} \: \theta_t
       \end{aligned}

    The momentum buffer starts as a copy of the first gradient, so dampening applies from the
    second step on; the update is :math:`\theta - \gamma b`, not :math:`\theta - b` with
    :math:`b` accumulating :math:`\gamma g` as in Sutskever et al.

    Args:
        params (iterable): tensors, ``(name, tensor)`` pairs or dicts defining parameter groups.
        lr (float): learning rate (default: 1e-3).
        momentum (float): momentum factor (default: 0).
        dampening (float): dampening for momentum (default: 0).
        weight_decay (float): weight decay, an L2 penalty (default: 0).
        nesterov (bool): enables Nesterov momentum; needs a momentum and zero dampening (default: False).
        maximize (bool): maximize the objective instead of minimizing it (default: False).
        foreach, fused: accepted for PyTorch compatibility and ignored; the update is vectorized
            per parameter.
        differentiable (bool): must be False (the step is outside the autograd graph).

    State per parameter: ``momentum_buffer`` when momentum is not 0.

    Example::

        >>> optimizer = tinyframe.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        >>> optimizer.zero_grad()
        >>> loss_fn(model(input), target).backward()
        >>> optimizer.step()
    """

    sparse_grads_error = None

    def __init__(self, params: Iterable[Any], lr: float = 1e-3, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0, nesterov: bool = False, *, maximize: bool = False,
                 foreach: bool | None = None, differentiable: bool = False, fused: bool | None = None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        check_not_differentiable(differentiable)
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening, "weight_decay": weight_decay,
                    "nesterov": nesterov, "maximize": maximize, "foreach": foreach,
                    "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)

    def _step_group(self, group: dict[str, Any]) -> None:
        # Python floats: a NumPy float64 or a tensor in a group must not promote float32 arrays.
        lr, momentum, dampening = float(group["lr"]), float(group["momentum"]), float(group["dampening"])
        weight_decay, nesterov, maximize = float(group["weight_decay"]), group["nesterov"], group["maximize"]
        if momentum == 0 and weight_decay == 0 and not maximize:
            _plain_step(group["params"], lr)
            return
        for p in group["params"]:
            if p._grad is None:
                continue
            if weight_decay != 0 and p._grad.is_sparse:  # PyTorch adds the parameter to the sparse gradient
                raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) instead.")
            state = self.state[p] if momentum != 0 else None
            buffer = state.get("momentum_buffer") if state is not None else None
            new_buffer = sgd_update(p._data, p._grad._data, None if buffer is None else buffer._data,
                                    lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                                    nesterov=nesterov, maximize=maximize)
            p._bump_version()
            if state is not None and buffer is None:
                state["momentum_buffer"] = Tensor._make(new_buffer)


def _plain_step(params: list, lr: float) -> None:
    """The fast path of the default SGD (no momentum, weight decay or maximize): ``p -= lr * g`` per
    parameter, as ``sgd_update`` would do it, without its per-parameter call and state lookups
    (measured with callgrind: a small 3-layer MLP's step() 15.4K -> 13.4K instructions; the
    arithmetic is the same).

    On the CPU ``lr`` multiplies as a 0-d array of the gradient's dtype, made once per dtype: NumPy
    takes a Python float in the array's dtype too, so the product is the same, but converts it on
    every call (callgrind, an 8 x 8 float32 gradient: 6.2K -> 3.6K instructions a product)."""
    factors: dict = {}
    for p in params:
        grad = p._grad
        if grad is not None:
            g = grad._data
            factor = factors.get(g.dtype)
            if factor is None:
                factor = factors[g.dtype] = np.asarray(lr, g.dtype) if type(g) is np.ndarray else lr
            p._data -= factor * g
            p._bump_version()


def sgd_update(param: Any, grad: Any, buffer: Any, *, lr: float, momentum: float, dampening: float,
               weight_decay: float, nesterov: bool, maximize: bool) -> Any:
    """One SGD step on arrays: updates ``param`` (and ``buffer``) in place and returns the momentum
    buffer, a new array on the first step (``buffer`` None), or None without momentum."""
    if weight_decay != 0:
        direction = param * weight_decay
        if maximize:
            direction -= grad
        else:
            direction += grad
    else:
        direction = -grad if maximize else grad
    if momentum != 0:
        if buffer is None:
            buffer = grad.copy() if direction is grad else direction
        else:
            buffer *= momentum
            if dampening == 0:
                buffer += direction
            else:
                buffer += direction * (1 - dampening)
        direction = direction + momentum * buffer if nesterov else buffer
    param -= lr * direction
    return buffer
