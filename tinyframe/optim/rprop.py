"""Rprop: per-element step sizes grown or shrunk by the sign agreement of successive gradients."""
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
from .optimizer import Optimizer, _step_tensor, real_views

__all__ = ["Rprop"]


class Rprop(Optimizer):
    def __init__(self, params: Iterable[Any], lr: float = 1e-2, etas: tuple[float, float] = (0.5, 1.2),
                 step_sizes: tuple[float, float] = (1e-6, 50), *, capturable: bool = False,
                 foreach: bool | None = None, maximize: bool = False, differentiable: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        check_not_differentiable(differentiable)
        defaults = {"lr": lr, "etas": etas, "step_sizes": step_sizes, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    def _step_group(self, group: dict[str, Any]) -> None:
        # Python floats: a NumPy float64 or a tensor in a group must not promote float32 arrays.
        etaminus, etaplus = float(group["etas"][0]), float(group["etas"][1])
        step_size_min, step_size_max = float(group["step_sizes"][0]), float(group["step_sizes"][1])
        for p in group["params"]:
            if p._grad is None:
                continue
            state = self.state[p]
            if not state:
                xp = array_module_of(p._data)
                state["step"] = _step_tensor(0.0)
                state["prev"] = Tensor._make(xp.zeros_like(p._data))
                step_size = xp.full_like(p._data, float(group["lr"]))
                real_views(step_size)[0][...] = float(group["lr"])  # a complex one's parts step independently
                state["step_size"] = Tensor._make(step_size)
            state["step"]._data += 1
            rprop_update(*real_views(p._data, p._grad._data, state["prev"]._data, state["step_size"]._data),
                         etaminus=etaminus,
                         etaplus=etaplus, step_size_min=step_size_min, step_size_max=step_size_max,
                         maximize=group["maximize"])
            p._bump_version()


Rprop.__doc__ = r"""Implements the resilient backpropagation algorithm, like ``torch.optim.Rprop``.

    .. math::
       \begin{aligned}
            &\textbf{input}: \theta_0 \text{ (params)}, f(\theta) \text{ (objective)},
                \eta_{+/-} \text{ (etaplus, etaminus)}, \Gamma_{max/min} \text{ (step sizes)}  \\
            &\textbf{initialize}: g^0_{prev} \leftarrow 0, \: \eta_0 \leftarrow \text{lr (learning rate)} \\
            &\textbf{for} \: t=1 \: \textbf{to} \: \ldots \: \textbf{do}                    \\
            &\hspace{5mm}g_t \leftarrow \nabla_{\theta} f_t (\theta_{t-1}) \: (\text{negated if } \textit{maximize}) \\
            &\hspace{5mm} \textbf{for} \text{  } i = 0, 1, \ldots, d-1 \: \mathbf{do}        \\
            &\hspace{10mm}  \textbf{if} \:   g^i_{prev} g^i_t  > 0: \:
                \eta^i_t \leftarrow \mathrm{min}(\eta^i_{t-1} \eta_{+}, \Gamma_{max})     \\
            &\hspace{10mm}  \textbf{else if}  \:  g^i_{prev} g^i_t < 0: \:
                \eta^i_t \leftarrow \mathrm{max}(\eta^i_{t-1} \eta_{-}, \Gamma_{min}), \: g^i_t \leftarrow 0 \\
            &\hspace{10mm}  \textbf{else}: \: \eta^i_t \leftarrow \eta^i_{t-1}              \\
            &\hspace{5mm}\theta_t \leftarrow \theta_{t-1}- \eta_t \mathrm{sign}(g_t)         \\
            &\hspace{5mm}g_{prev} \leftarrow  g_t                                           \\
            &\textbf{return} \:  \theta_t
       \end{aligned}

    See `A Direct Adaptive Method for Faster Backpropagation Learning: The RPROP Algorithm`.

    Args:
        """ + rf"""{_params_doc}
        lr (float): the initial step size (default: 1e-2).
        etas (tuple[float, float]): the multiplicative decrease and increase factors
            (default: (0.5, 1.2)).
        step_sizes (tuple[float, float]): the minimal and maximal step sizes (default: (1e-6, 50)).
        {_capturable_doc}
        {_foreach_doc}
        {_maximize_doc}
        {_differentiable_doc}

    State per parameter: ``step`` (a 0-dim cpu tensor), ``prev`` and ``step_size``.
    """


def rprop_update(param: Any, grad: Any, prev: Any, step_size: Any, *, etaminus: float, etaplus: float,
                 step_size_min: float, step_size_max: float, maximize: bool) -> None:
    """One Rprop step on arrays, in place."""
    xp = array_module_of(param)
    if maximize:
        grad = -grad
    agreement = xp.sign(grad * prev)
    factor = xp.where(agreement > 0, etaplus, xp.where(agreement < 0, etaminus, 1.0)).astype(param.dtype)
    step_size *= factor
    xp.clip(step_size, step_size_min, step_size_max, out=step_size)
    grad = xp.where(agreement < 0, 0, grad).astype(param.dtype)
    param -= xp.sign(grad) * step_size
    prev[...] = grad
