"""Adagrad: per-element learning rates from the running sum of squared gradients."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..device import array_module_of
from ..ops import sparse as sparse_ops
from ..tensor import Tensor
from ._docs import check_not_differentiable
from .optimizer import Optimizer, _step_tensor, real_views

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    r"""Implements the Adagrad algorithm, like ``torch.optim.Adagrad``.

    .. math::
       \begin{aligned}
            &\textbf{input}: \gamma \text{ (lr)}, \: \theta_0 \text{ (params)}, \: f(\theta) \text{ (objective)},
                \: \lambda \text{ (weight decay)}, \: \tau \text{ (initial accumulator value)},
                \: \eta \text{ (lr decay)}                                                  \\
            &\textbf{initialize}: state\_sum_0 \leftarrow \tau                              \\
            &\textbf{for} \: t=1 \: \textbf{to} \: \ldots \: \textbf{do}                    \\
            &\hspace{5mm}\textbf{if} \: \textit{maximize}: g_t \leftarrow -\nabla_{\theta} f_t (\theta_{t-1})
                \: \textbf{else} \: g_t \leftarrow \nabla_{\theta} f_t (\theta_{t-1})      \\
            &\hspace{5mm}\tilde{\gamma} \leftarrow \gamma / (1 + (t-1) \eta)                \\
            &\hspace{5mm}\textbf{if} \: \lambda \neq 0: \: g_t \leftarrow g_t + \lambda \theta_{t-1} \\
            &\hspace{5mm}state\_sum_t \leftarrow state\_sum_{t-1} + g^2_t                   \\
            &\hspace{5mm}\theta_t \leftarrow \theta_{t-1} - \tilde{\gamma} \frac{g_t}{\sqrt{state\_sum_t} + \epsilon} \\
            &\textbf{return} \: \theta_t
       \end{aligned}

    See `Adaptive Subgradient Methods for Online Learning and Stochastic Optimization` (Duchi et al.).

    Args:
        params (iterable): tensors, ``(name, tensor)`` pairs or dicts defining parameter groups.
        lr (float): learning rate (default: 1e-2).
        lr_decay (float): learning rate decay (default: 0).
        weight_decay (float): weight decay, an L2 penalty (default: 0).
        initial_accumulator_value (float): initial value of the sum of squared gradients (default: 0).
            As in PyTorch, the optimizer-wide value is used for every group.
        eps (float): term added to the denominator for numerical stability (default: 1e-10).
        foreach, fused: accepted for PyTorch compatibility and ignored.
        differentiable (bool): must be False (the step is outside the autograd graph).
        maximize (bool): maximize the objective instead of minimizing it (default: False).

    State per parameter, created with the optimizer: ``step`` (a 0-dim cpu tensor) and ``sum``.
    """

    sparse_grads_error = None

    def __init__(self, params: Iterable[Any], lr: float = 1e-2, lr_decay: float = 0, weight_decay: float = 0,
                 initial_accumulator_value: float = 0, eps: float = 1e-10, foreach: bool | None = None, *,
                 maximize: bool = False, differentiable: bool = False, fused: bool | None = None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        check_not_differentiable(differentiable)
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                self._init_state(p)

    def _init_state(self, p: Tensor) -> dict[str, Any]:
        state = self.state[p]
        state["step"] = _step_tensor(0.0)
        xp = array_module_of(p._data)
        state["sum"] = Tensor._make(xp.full_like(p._data, self.defaults["initial_accumulator_value"]))
        return state

    def _step_group(self, group: dict[str, Any]) -> None:
        # Python floats: a NumPy float64 or a tensor in a group must not promote float32 arrays.
        lr, lr_decay, eps = float(group["lr"]), float(group["lr_decay"]), float(group["eps"])
        weight_decay, maximize = float(group["weight_decay"]), group["maximize"]
        for p in group["params"]:
            if p._grad is None:
                continue
            state = self.state[p] or self._init_state(p)
            step = state["step"]._data
            step += 1
            grad = p._grad._data
            update = sparse_adagrad_update if p._grad.is_sparse else adagrad_update
            update(*real_views(p._data, grad, state["sum"]._data, step.item()), lr=lr, lr_decay=lr_decay, eps=eps,
                   weight_decay=weight_decay, maximize=maximize)
            p._bump_version()


def sparse_adagrad_update(param: Any, grad: Any, state_sum: Any, step: float, *, lr: float, lr_decay: float,
                          eps: float, weight_decay: float, maximize: bool) -> None:
    """PyTorch's Adagrad step for a sparse gradient (``Embedding(sparse=True)``): only the rows present in it
    (coalesced) move, by their own ``sqrt(state_sum)``."""
    if weight_decay != 0:
        raise RuntimeError("weight_decay option is not compatible with sparse gradients")
    grad = sparse_ops.coalesced(-grad if maximize else grad)
    clr = lr / (1 + (step - 1) * lr_decay)
    state_sum += grad.with_values(grad.values * grad.values)
    std = array_module_of(param).sqrt(sparse_ops.values_at(state_sum, grad.indices, state_sum.shape[:grad.sparse_dim]))
    std += eps
    param -= grad.with_values(grad.values / std * clr)


def adagrad_update(param: Any, grad: Any, state_sum: Any, step: float, *, lr: float, lr_decay: float, eps: float,
                   weight_decay: float, maximize: bool) -> None:
    """One Adagrad step on arrays, in place; ``step`` is the step number t, from 1."""
    xp = array_module_of(param)
    if maximize:
        grad = -grad
    if weight_decay != 0:
        grad = grad + weight_decay * param
    clr = lr / (1 + (step - 1) * lr_decay)
    square = grad * grad
    state_sum += square
    std = xp.sqrt(state_sum)  # not into ``square``: for a 0-dim parameter that is a NumPy scalar
    std += eps
    update = grad * clr
    update /= std
    param -= update
