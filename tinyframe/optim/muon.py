"""Muon: momentum whose update is orthogonalized by a Newton-Schulz iteration, for the 2-D weights of
hidden layers (Keller Jordan's optimizer, as ``torch.optim.Muon``)."""
from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from ..device import array_module_of
from ..tensor import Tensor
from ._docs import _params_doc
from .optimizer import Optimizer, lerp_

__all__ = ["Muon"]

# The quintic's coefficients, from Keller Jordan's post (https://kellerjordan.github.io/posts/muon/), as in PyTorch.
EPS = 1e-7
DEFAULT_A = 3.4445
DEFAULT_B = -4.7750
DEFAULT_C = 2.0315
DEFAULT_NS_STEPS = 5
_ADJUST_LR_FNS = ("original", "match_rms_adamw")


class Muon(Optimizer):
    def __init__(self, params: Iterable[Any], lr: float = 1e-3, weight_decay: float = 0.1, momentum: float = 0.95,
                 nesterov: bool = True,
                 ns_coefficients: tuple[float, float, float] = (DEFAULT_A, DEFAULT_B, DEFAULT_C),
                 eps: float = EPS, ns_steps: int = DEFAULT_NS_STEPS, adjust_lr_fn: str | None = None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        for ok, message in ((0.0 <= lr, f"Learning rate should be >= 0 but is: {lr}"),
                            (0.0 <= momentum, f"momentum should be >= 0 but is: {momentum}"),
                            (0.0 <= weight_decay, f"weight decay should be >= 0 but is: {weight_decay}"),
                            (adjust_lr_fn is None or adjust_lr_fn in _ADJUST_LR_FNS,
                             f"Adjust learning rate function {adjust_lr_fn} is not supported")):
            if not ok:
                raise ValueError(message)
        defaults = {"lr": lr, "weight_decay": weight_decay, "momentum": momentum, "nesterov": nesterov,
                    "ns_coefficients": ns_coefficients, "eps": eps, "ns_steps": ns_steps,
                    "adjust_lr_fn": adjust_lr_fn}
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                if p.ndim != 2:
                    raise ValueError("Muon only supports 2D parameters whereas we found a parameter with size: "
                                     f"{p.size()}")

    def _step_group(self, group: dict[str, Any]) -> None:
        # Python floats: a NumPy float64 or a tensor in a group must not promote float32 arrays.
        lr, weight_decay, momentum = float(group["lr"]), float(group["weight_decay"]), float(group["momentum"])
        for p in group["params"]:
            if p._grad is None:
                continue
            if p.is_complex():
                raise RuntimeError("Muon does not support complex parameters")
            grad = p._grad._data
            xp = array_module_of(grad)
            state = self.state[p]
            if "momentum_buffer" not in state:
                state["momentum_buffer"] = Tensor._make(xp.zeros_like(grad))
            buffer = state["momentum_buffer"]._data
            lerp_(buffer, grad, 1 - momentum, xp.empty_like(buffer))
            update = buffer
            if group["nesterov"]:
                update = grad.copy()
                lerp_(update, buffer, momentum, xp.empty_like(update))
            update = zeropower_via_newtonschulz(update, group["ns_coefficients"], group["ns_steps"],
                                                float(group["eps"]))
            p._data *= 1 - lr * weight_decay
            p._data -= (_adjust_lr(lr, group["adjust_lr_fn"], p.shape) * update).astype(p._data.dtype)
            p._bump_version()


Muon.__doc__ = rf"""Implements the Muon algorithm, like ``torch.optim.Muon``.

    .. math::
       \begin{{aligned}}
            &\textbf{{input}}: \gamma \text{{ (lr)}}, \lambda \text{{ (weight decay)}}, \mu \text{{ (momentum)}},
                \textit{{nesterov}}, (a, b, c) \text{{ (NS coefficients)}}, \varepsilon, k \text{{ (NS steps)}} \\
            &\textbf{{initialize}}: B_0 \leftarrow 0 \text{{ (momentum buffer)}}                          \\
            &\textbf{{for}} \: t=1 \: \textbf{{to}} \: \ldots \: \textbf{{do}}                          \\
            &\hspace{{5mm}}g_t \leftarrow \nabla_{{\theta}} f_t (\theta_{{t-1}})                           \\
            &\hspace{{5mm}}B_t \leftarrow \mu B_{{t-1}} + (1 - \mu) g_t \quad \text{{(a lerp)}}           \\
            &\hspace{{5mm}}\widetilde{{B}}_t \leftarrow \mu B_t + (1 - \mu) g_t \:
                \textbf{{if}} \: \textit{{nesterov}} \: \textbf{{else}} \: B_t                            \\
            &\hspace{{5mm}}O_t \leftarrow \mathrm{{NS}}^{{(a,b,c)}}_k(\widetilde{{B}}_t; \varepsilon)      \\
            &\hspace{{5mm}}\theta_t \leftarrow (1 - \gamma \lambda) \theta_{{t-1}}
                - \mathrm{{AdjustLR}}(\gamma; \mathrm{{shape}}(\theta)) \, O_t                            \\
            &\textbf{{return}} \: \theta_t
       \end{{aligned}}

    :math:`\mathrm{{NS}}` scales the matrix to a Frobenius norm of at most 1 and runs :math:`k` steps of
    :math:`X \leftarrow aX + (bXX^\top + c(XX^\top)^2)X` (on the transpose of a tall matrix), which push
    its singular values towards 1. As in PyTorch, the iteration runs in bfloat16: tinyframe has no
    bfloat16 arrays, so it runs on float32 arrays rounded to bfloat16 after each PyTorch operation,
    which gives PyTorch's numbers (a product's float32 sum order can still flip a last bfloat16 bit
    on large matrices). ``AdjustLR`` multiplies :math:`\gamma` by :math:`\sqrt{{\max(1, A/B)}}` for an
    :math:`A \times B` parameter (``"original"``, the default) or by :math:`0.2\sqrt{{\max(A, B)}}`
    (``"match_rms_adamw"``).

    Args:
        {_params_doc} Muon takes 2-D parameters only: optimize biases, embeddings and the other
            parameters with another optimizer, such as AdamW.
        lr (float): learning rate (default: 1e-3).
        weight_decay (float): decoupled weight decay (default: 0.1).
        momentum (float): momentum factor (default: 0.95).
        nesterov (bool): enables Nesterov momentum (default: True).
        ns_coefficients (tuple[float, float, float]): the coefficients :math:`(a, b, c)` of the
            Newton-Schulz polynomial (default: ({DEFAULT_A}, {DEFAULT_B}, {DEFAULT_C})).
        eps (float): the smallest norm the update is divided by (default: {EPS}).
        ns_steps (int): the number of Newton-Schulz steps, below 100 (default: {DEFAULT_NS_STEPS}).
        adjust_lr_fn (str, optional): ``"original"`` or ``"match_rms_adamw"``; None means
            ``"original"`` (default: None).

    State per parameter: ``momentum_buffer``.
    """


def _round_bfloat16(array: Any) -> Any:
    """The array's values rounded to the nearest bfloat16 (ties to even), as float32: a bfloat16 is the
    top half of a float32, so rounding clears the low 16 bits after adding half their range."""
    xp = array_module_of(array)
    bits = array.astype(xp.float32).view(xp.uint32)
    rounded = ((bits + (0x7FFF + ((bits >> 16) & 1))) & 0xFFFF0000).view(xp.float32)
    return xp.where(xp.isnan(rounded), array, rounded)


def zeropower_via_newtonschulz(grad: Any, ns_coefficients: tuple[float, float, float], ns_steps: int,
                               eps: float) -> Any:
    """The Newton-Schulz orthogonalization of the 2-D array ``grad``, rounded at each operation to
    bfloat16 as PyTorch's (which runs on a bfloat16 copy): a float32 array with the shape of ``grad``."""
    if ns_steps >= 100:
        raise ValueError("Number of steps must be less than 100 for computational efficiency")
    if grad.ndim != 2:
        raise ValueError("Input tensor gradient must be a 2D matrix")
    if len(ns_coefficients) != 3:
        raise ValueError("Coefficients must be a tuple of exactly 3 values")
    xp = array_module_of(grad)
    a, b, c = (float(k) for k in ns_coefficients)
    tall = grad.shape[0] > grad.shape[1]
    ortho = _round_bfloat16(grad.T if tall else grad)
    norm = _round_bfloat16(xp.sqrt(xp.sum(ortho * ortho, keepdims=True)))
    ortho = _round_bfloat16(ortho / xp.maximum(norm, _round_bfloat16(xp.full_like(norm, eps))))
    for _ in range(ns_steps):
        gram = _round_bfloat16(ortho @ ortho.T)
        # PyTorch's bfloat16 addmm adds the scaled product in float32 and rounds once.
        gram_update = _round_bfloat16(b * gram + c * (gram @ gram))
        ortho = _round_bfloat16(a * ortho + gram_update @ ortho)
    return ortho.T if tall else ortho


def _adjust_lr(lr: float, adjust_lr_fn: str | None, shape: tuple[int, ...]) -> float:
    """The learning rate scaled for an ``A x B`` parameter, so that updates of any aspect ratio have a
    comparable root mean square."""
    rows, cols = shape[:2]
    if adjust_lr_fn is None or adjust_lr_fn == "original":
        return lr * math.sqrt(max(1, rows / cols))
    return lr * 0.2 * math.sqrt(max(rows, cols))
