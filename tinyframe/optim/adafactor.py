"""Adafactor: adaptive learning rates from factored second moments (a row and a column average per
matrix), so that the optimizer's state grows with the sum, not the product, of a matrix's dimensions."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ..device import array_module_of
from ..tensor import Tensor
from ._docs import _foreach_doc, _maximize_doc, _params_doc
from .optimizer import Optimizer, lerp_, stepped_states

__all__ = ["Adafactor"]


class Adafactor(Optimizer):
    def __init__(self, params: Iterable[Any], lr: float = 1e-2, beta2_decay: float = -0.8,
                 eps: tuple[float | None, float] = (None, 1e-3), d: float = 1.0, weight_decay: float = 0.0, *,
                 foreach: bool | None = None, maximize: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        for ok, message in ((0.0 <= lr, f"Learning rate should be >= 0 but is: {lr}"),
                            (0.0 >= beta2_decay, f"beta2_decay should be <= 0 but is: {beta2_decay}"),
                            (eps[0] is None or 0.0 <= eps[0], f"epsilon1 should be >= 0 but is: {eps[0]}"),
                            (0.0 <= eps[1], f"epsilon2 should be >= 0 but is: {eps[1]}"),
                            (1.0 <= d, f"Clipping threshold d should be >= 1 but is: {d}"),
                            (0.0 <= weight_decay, f"weight_decay should be >= 0 but is: {weight_decay}")):
            if not ok:
                raise ValueError(message)
        defaults = {"lr": lr, "beta2_decay": beta2_decay, "eps": eps, "d": d, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize}
        super().__init__(params, defaults)

    def _step_group(self, group: dict[str, Any]) -> None:
        # Python floats: a NumPy float64 or a tensor in a group must not promote float32 arrays.
        lr, beta2_decay, d = float(group["lr"]), float(group["beta2_decay"]), float(group["d"])
        eps1, eps2 = group["eps"]
        for p, state in stepped_states(self, group):
            grad = p._grad._data
            if len(state) == 1:  # a new state: PyTorch's keys, in its order
                xp = array_module_of(grad)
                if grad.ndim > 1:
                    state["row_var"] = Tensor._make(xp.zeros(grad.shape[:-1] + (1,), dtype=grad.dtype))
                    state["col_var"] = Tensor._make(xp.zeros(grad.shape[:-2] + (1,) + grad.shape[-1:], grad.dtype))
                else:
                    state["variance"] = Tensor._make(xp.zeros_like(grad))
            # As in PyTorch, eps1 None becomes the first parameter's machine epsilon for the whole group.
            eps1 = float(np.finfo(p._data.dtype).eps) if eps1 is None else float(eps1)
            factors = [state[k]._data for k in ("row_var", "col_var", "variance") if k in state]
            adafactor_update(p._data, grad, factors, state["step"].item(), lr=lr, beta2_decay=beta2_decay,
                             eps1=eps1, eps2=float(eps2), d=d, weight_decay=float(group["weight_decay"]),
                             maximize=group["maximize"])


Adafactor.__doc__ = r"""Implements the Adafactor algorithm, like ``torch.optim.Adafactor``.

    .. math::
       \begin{aligned}
            &\textbf{input}: \gamma \text{ (lr)}, \tau \text{ (}\beta_2\text{ decay)}, \theta_0 \text{ (params)},
                f(\theta) \text{ (objective)}, \epsilon_1, \epsilon_2 \text{ (epsilons)}, d \text{ (clipping
                threshold)}, \lambda \text{ (weight decay)}                                  \\
            &\textbf{initialize}: R_0 \leftarrow 0 \text{ (row variance)}, C_0 \leftarrow 0 \text{ (column
                variance)}                                                                   \\
            &\textbf{for} \: t=1 \: \textbf{to} \: \ldots \: \textbf{do}                    \\
            &\hspace{5mm}G_t \leftarrow \nabla_{\theta} f_t (\theta_{t-1}) \: (\text{negated if } \textit{maximize}) \\
            &\hspace{5mm}\widehat{\beta}_{2_t} \leftarrow 1 - t^{\tau}, \quad
                \rho_t \leftarrow \min(\gamma, 1/\sqrt{t}), \quad
                \alpha_t \leftarrow \max(\epsilon_2, \text{RMS}(\theta_{t-1})) \rho_t        \\
            &\hspace{5mm}\theta_t \leftarrow \theta_{t-1} - \gamma \lambda \theta_{t-1}     \\
            &\hspace{5mm}\textbf{if} \: \text{dim}(G_t) > 1:                                \\
            &\hspace{10mm}R_t \leftarrow \widehat{\beta}_{2_t} R_{t-1} + (1-\widehat{\beta}_{2_t})
                (G_t \odot G_t) \cdot 1_m / m                                                 \\
            &\hspace{10mm}C_t \leftarrow \widehat{\beta}_{2_t} C_{t-1} + (1-\widehat{\beta}_{2_t})
                1^\top_n \cdot (G_t \odot G_t) / n                                            \\
            &\hspace{10mm}\widehat{V}_t \leftarrow R_t C_t / \max(\text{mean}(R_t), \epsilon_1) \\
            &\hspace{5mm}\textbf{else}: \: \widehat{V}_t \leftarrow \widehat{\beta}_{2_t} \widehat{V}_{t-1} +
                (1-\widehat{\beta}_{2_t}) G_t \odot G_t                                     \\
            &\hspace{5mm}U_t \leftarrow G_t / \sqrt{\max(\widehat{V}_t, \epsilon_1^2)}       \\
            &\hspace{5mm}\theta_t \leftarrow \theta_t - \alpha_t U_t / \max(1, \text{RMS}(U_t) / d) \\
            &\textbf{return} \: \theta_t
       \end{aligned}

    See `Adafactor: Adaptive Learning Rates with Sublinear Memory Cost` (Shazeer & Stern). As in PyTorch,
    there is no first moment and no relative step size; ``lr`` caps :math:`\rho_t`.

    Args:
        """ + rf"""{_params_doc}
        lr (float): the cap on the relative step size (default: 1e-2).
        beta2_decay (float): the exponent :math:`\tau` of the second moment's decay (default: -0.8).
        eps (tuple[float | None, float]): :math:`\epsilon_1`, added to the second moment (None: the
            parameter dtype's machine epsilon), and :math:`\epsilon_2`, the smallest step scale (default:
            (None, 1e-3)).
        d (float): the clipping threshold on the update's root mean square (default: 1.0).
        weight_decay (float): decoupled weight decay (default: 0).
        {_foreach_doc}
        {_maximize_doc}

    State per parameter: ``step`` (a 0-dim cpu tensor), and ``row_var`` and ``col_var`` for a parameter of
    two or more dimensions (the last two factored), else ``variance``.
    """


def adafactor_update(param: Any, grad: Any, factors: list, step: float, *, lr: float, beta2_decay: float,
                     eps1: float, eps2: float, d: float, weight_decay: float, maximize: bool) -> None:
    """One Adafactor step on arrays, in place: ``param`` and its second-moment ``factors`` (``[row_var,
    col_var]`` for a matrix, ``[variance]`` for a vector); ``step`` is the step number t, from 1."""
    xp = array_module_of(param)
    if maximize:
        grad = -grad
    one_minus_beta2 = step ** beta2_decay
    rho = min(lr, 1 / step ** 0.5)
    alpha = max(eps2, float(xp.sqrt(xp.vdot(param, param))) / param.size ** 0.5) * rho
    if weight_decay != 0:
        param *= 1 - lr * weight_decay
    squared = grad * grad
    if grad.ndim > 1:
        row_var, col_var = factors
        lerp_(row_var, squared.sum(-1, keepdims=True) / grad.shape[-1], one_minus_beta2, xp.empty_like(row_var))
        lerp_(col_var, squared.sum(-2, keepdims=True) / grad.shape[-2], one_minus_beta2, xp.empty_like(col_var))
        estimate = row_var @ col_var
        estimate /= xp.maximum(row_var.mean(-2, keepdims=True), eps1)
    else:
        (variance,) = factors
        lerp_(variance, squared, one_minus_beta2, xp.empty_like(variance))
        estimate = variance.copy()
    update = xp.maximum(estimate, eps1 * eps1, out=estimate)
    xp.sqrt(update, out=update)
    xp.divide(grad, update, out=update)
    denom = max(1.0, float(xp.sqrt(xp.vdot(update, update))) / (update.size ** 0.5 * d))
    update *= alpha / denom
    param -= update
