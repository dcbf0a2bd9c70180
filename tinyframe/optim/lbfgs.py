"""L-BFGS: quasi-Newton steps from a limited history of updates, optionally with a strong-Wolfe line search."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..device import array_module_of
from ..grad_mode import enable_grad
from ..tensor import Tensor
from ._docs import _params_doc
from .optimizer import Optimizer

__all__ = ["LBFGS"]


class LBFGS(Optimizer):
    def __init__(self, params: Any, lr: float = 1, max_iter: int = 20, max_eval: int | None = None,
                 tolerance_grad: float = 1e-7, tolerance_change: float = 1e-9, history_size: int = 100,
                 line_search_fn: str | None = None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = {"lr": lr, "max_iter": max_iter, "max_eval": max_eval, "tolerance_grad": tolerance_grad,
                    "tolerance_change": tolerance_change, "history_size": history_size,
                    "line_search_fn": line_search_fn}
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")

    # ----------------------------------------------------------------- flat views of the parameters
    @property
    def _params(self) -> list[Tensor]:
        return self.param_groups[0]["params"]

    def _gather_flat_grad(self) -> Any:
        """All gradients as one flat array (zeros for a parameter without ``.grad``)."""
        xp = array_module_of(self._params[0]._data)
        return xp.concatenate([xp.zeros(p._data.size, p._data.dtype) if p._grad is None
                               else p._grad._data.reshape(-1) for p in self._params])

    def _add_grad(self, step_size: Any, direction: Any) -> None:
        """Moves the parameters by ``step_size * direction`` (a flat array), in place."""
        offset = 0
        for p in self._params:
            p._data += step_size * direction[offset:offset + p._data.size].reshape(p._data.shape)
            p._bump_version()
            offset += p._data.size

    def _set_params(self, arrays: list[Any]) -> None:
        for p, array in zip(self._params, arrays):
            p._data[...] = array
            p._bump_version()

    def _directional_evaluate(self, closure: Callable[[], Any], x: list[Any], t: Any, d: Any) -> tuple[float, Any]:
        """Loss and flat gradient at ``x + t d``; the parameters are put back to ``x`` after."""
        self._add_grad(t, d)
        loss = float(closure())
        flat_grad = self._gather_flat_grad()
        self._set_params(x)
        return loss, flat_grad

    # ----------------------------------------------------------------- the step
    def step(self, closure: Callable[[], Any]) -> Any:  # type: ignore[override]
        """Performs one optimization step: up to ``max_iter`` L-BFGS iterations.

        Args:
            closure (Callable): re-evaluates the model (zeroing and computing the gradients) and
                returns the loss; it runs with grad mode enabled.

        Returns the loss the closure gave at the first evaluation.
        """
        evaluate = _with_grad(closure)
        group = self.param_groups[0]
        # a Python lr stays as given: with lr=1 the step length PyTorch saves as state['t'] is the int 1
        lr = float(group["lr"]) if isinstance(group["lr"], Tensor) else group["lr"]
        max_iter, max_eval = group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        line_search_fn, history_size = group["line_search_fn"], group["history_size"]
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        orig_loss = evaluate()
        loss = float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._gather_flat_grad()
        xp = array_module_of(flat_grad)
        if xp.abs(flat_grad).max() <= tolerance_grad:
            return orig_loss

        memory = _Memory.from_state(state)
        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                memory.reset(flat_grad)
            else:
                memory.update(flat_grad, history_size)
            memory.prev_flat_grad = flat_grad.copy()
            memory.prev_loss = loss
            # The first step ever is scaled by the gradient's size: there is no curvature yet.
            if state["n_iter"] == 1:
                memory.t = min(1.0, 1.0 / xp.abs(flat_grad).sum()) * lr
            else:
                memory.t = lr
            d = memory.d
            gtd = xp.dot(flat_grad, d)
            if gtd > -tolerance_change:
                break

            ls_func_evals = 0
            if line_search_fn is not None:
                if line_search_fn != "strong_wolfe":
                    raise RuntimeError("only 'strong_wolfe' is supported")
                x_init = [p._data.copy() for p in self._params]

                def obj_func(x: list[Any], t: Any, d: Any) -> tuple[float, Any]:
                    return self._directional_evaluate(evaluate, x, t, d)

                loss, flat_grad, memory.t, ls_func_evals = strong_wolfe(
                    obj_func, x_init, memory.t, d, loss, flat_grad, gtd, max_ls=max_eval - current_evals)
                self._add_grad(memory.t, d)
                opt_cond = xp.abs(flat_grad).max() <= tolerance_grad
            else:
                self._add_grad(memory.t, d)
                opt_cond = False
                if n_iter != max_iter:
                    loss = float(evaluate())
                    flat_grad = self._gather_flat_grad()
                    opt_cond = xp.abs(flat_grad).max() <= tolerance_grad
                    ls_func_evals = 1
            current_evals += ls_func_evals
            state["func_evals"] += ls_func_evals

            if n_iter == max_iter or current_evals >= max_eval or opt_cond:
                break
            if xp.abs(d * memory.t).max() <= tolerance_change:
                break
            if abs(loss - memory.prev_loss) < tolerance_change:
                break
        memory.to_state(state)
        return orig_loss


LBFGS.__doc__ = r"""Implements the L-BFGS algorithm, like ``torch.optim.LBFGS``.

    Heavily inspired by `minFunc <https://www.cs.ubc.ca/~schmidtm/Software/minFunc.html>`_. Each
    ``step(closure)`` runs up to ``max_iter`` iterations: the search direction
    :math:`d = -H g` comes from the two-loop recursion over the last ``history_size`` pairs
    :math:`(s_k, y_k)` of parameter and gradient changes (kept only when :math:`y_k^\top s_k > 10^{-10}`),
    with the initial Hessian :math:`H_0 = \frac{y^\top s}{y^\top y} I`; the step length is ``lr``
    (scaled by :math:`\min(1, 1/\|g\|_1)` on the very first iteration), or found by a strong-Wolfe
    line search (``line_search_fn="strong_wolfe"``).

    It does not support parameter groups (there can be only one), all parameters must be on one
    device, and it keeps ``2 * history_size + 2`` flat copies of the parameters.

    Args:
        """ + rf"""{_params_doc}
        lr (float): learning rate (default: 1).
        max_iter (int): maximal number of iterations per optimization step (default: 20).
        max_eval (int, optional): maximal number of function evaluations per optimization step
            (default: ``max_iter * 5 // 4``).
        tolerance_grad (float): termination tolerance on first order optimality (default: 1e-7).
        tolerance_change (float): termination tolerance on function value/parameter changes
            (default: 1e-9).
        history_size (int): update history size (default: 100).
        line_search_fn (str, optional): either ``"strong_wolfe"`` or None (default: None).

    State, kept under the first parameter: ``func_evals``, ``n_iter``, ``d``, ``t``, ``old_dirs``,
    ``old_stps``, ``ro``, ``H_diag``, ``prev_flat_grad``, ``prev_loss`` (and ``al``).

    Example::

        >>> optimizer = tinyframe.optim.LBFGS(model.parameters(), line_search_fn="strong_wolfe")
        >>> def closure():
        ...     optimizer.zero_grad()
        ...     loss = loss_fn(model(input), target)
        ...     loss.backward()
        ...     return loss
        >>> optimizer.step(closure)
    """


def _with_grad(closure: Callable[[], Any]) -> Callable[[], Any]:
    def evaluate() -> Any:
        with enable_grad():
            return closure()
    return evaluate


class _Memory:
    """The L-BFGS history and last direction, as arrays; saved in the optimizer state as tensors
    under PyTorch's names."""

    def __init__(self) -> None:
        self.d: Any = None
        self.t: Any = None
        self.old_dirs: list[Any] = []
        self.old_stps: list[Any] = []
        self.ro: list[Any] = []
        self.h_diag: Any = 1
        self.prev_flat_grad: Any = None
        self.prev_loss: Any = None
        self.al: list[Any] | None = None

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> _Memory:
        memory = cls()
        if "d" in state:
            memory.d, memory.t = _array(state["d"]), _array(state["t"])
            memory.old_dirs = [_array(v) for v in state["old_dirs"]]
            memory.old_stps = [_array(v) for v in state["old_stps"]]
            memory.ro = [_array(v) for v in state["ro"]]
            memory.h_diag = _array(state["H_diag"])
            memory.prev_flat_grad, memory.prev_loss = _array(state["prev_flat_grad"]), state["prev_loss"]
        if "al" in state:
            memory.al = [_array(v) for v in state["al"]]
        return memory

    def to_state(self, state: dict[str, Any]) -> None:
        if self.al is not None:  # PyTorch adds 'al' when first needed: before 'd' if that is in the first step
            state["al"] = [_tensor(v) for v in self.al]
        state["d"], state["t"] = _tensor(self.d), _tensor(self.t)
        state["old_dirs"] = [_tensor(v) for v in self.old_dirs]
        state["old_stps"] = [_tensor(v) for v in self.old_stps]
        state["ro"] = [_tensor(v) for v in self.ro]
        state["H_diag"] = _tensor(self.h_diag)
        state["prev_flat_grad"], state["prev_loss"] = _tensor(self.prev_flat_grad), self.prev_loss

    def reset(self, flat_grad: Any) -> None:
        """The first iteration: steepest descent, empty history."""
        self.d = -flat_grad
        self.old_dirs, self.old_stps, self.ro, self.h_diag = [], [], [], 1

    def update(self, flat_grad: Any, history_size: int) -> None:
        """Records the last step's curvature pair and sets ``d`` by the two-loop recursion."""
        xp = array_module_of(flat_grad)
        y = flat_grad - self.prev_flat_grad
        s = self.d * self.t
        ys = xp.dot(y, s)
        if ys > 1e-10:
            if len(self.old_dirs) == history_size:
                self.old_dirs.pop(0)
                self.old_stps.pop(0)
                self.ro.pop(0)
            self.old_dirs.append(y)
            self.old_stps.append(s)
            self.ro.append(1.0 / ys)
            self.h_diag = ys / xp.dot(y, y)
        if self.al is None:
            self.al = [None] * history_size
        al = self.al
        q = -flat_grad
        for i in range(len(self.old_dirs) - 1, -1, -1):
            al[i] = xp.dot(self.old_stps[i], q) * self.ro[i]
            q -= al[i] * self.old_dirs[i]
        r = q * self.h_diag
        for i in range(len(self.old_dirs)):
            be_i = xp.dot(self.old_dirs[i], r) * self.ro[i]
            r += (al[i] - be_i) * self.old_stps[i]
        self.d = r


def _tensor(value: Any) -> Any:
    """A state value as PyTorch keeps it: arrays and array scalars as tensors, Python numbers as is."""
    if value is None or type(value) in (int, float):
        return value
    return Tensor._make(np.asarray(value) if isinstance(value, np.generic) else value)


def _array(value: Any) -> Any:
    """A state value back as an array (0-dim tensors as array scalars), or as it is."""
    if isinstance(value, Tensor):
        return value._data if value._data.ndim else value._data[()]
    return value


def cubic_interpolate(x1: Any, f1: Any, g1: Any, x2: Any, f2: Any, g2: Any,
                      bounds: tuple[Any, Any] | None = None) -> Any:
    """The minimizer of the cubic through two points with their values and derivatives, clipped to
    ``bounds`` (by default the interval between the points); the midpoint when there is none."""
    if bounds is not None:
        xmin_bound, xmax_bound = bounds
    else:
        xmin_bound, xmax_bound = (x1, x2) if x1 <= x2 else (x2, x1)
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square >= 0:
        d2 = d2_square ** 0.5
        if x1 <= x2:
            min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(min_pos, xmin_bound), xmax_bound)
    return (xmin_bound + xmax_bound) / 2.0


def strong_wolfe(obj_func: Callable[[list[Any], Any, Any], tuple[float, Any]], x: list[Any], t: Any, d: Any,
                 f: float, g: Any, gtd: Any, c1: float = 1e-4, c2: float = 0.9, tolerance_change: float = 1e-9,
                 max_ls: int = 25) -> tuple[float, Any, Any, int]:
    """A step length ``t`` along ``d`` from ``x`` satisfying the strong Wolfe conditions
    (sufficient decrease ``c1``, curvature ``c2``), by bracketing then cubic zooming, as PyTorch's
    ``_strong_wolfe`` (after minFunc). Returns the loss, flat gradient and ``t`` found, and the
    number of evaluations."""
    xp = array_module_of(d)
    d_norm = xp.abs(d).max()
    g = g.copy()
    f_new, g_new = obj_func(x, t, d)
    ls_func_evals = 1
    gtd_new = xp.dot(g_new, d)

    # Bracket an interval containing a point satisfying the conditions.
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done = False
    ls_iter = 0
    while ls_iter < max_ls:
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.copy()], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g = [t], [f_new], [g_new]
            done = True
            break
        if gtd_new >= 0:
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.copy()], [gtd_prev, gtd_new]
            break
        # Extrapolate.
        min_step = t + 0.01 * (t - t_prev)
        max_step = t * 10
        tmp = t
        t = cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds=(min_step, max_step))
        t_prev, f_prev, g_prev, gtd_prev = tmp, f_new, g_new.copy(), gtd_new
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = xp.dot(g_new, d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket, bracket_f, bracket_g = [0, t], [f, f_new], [g, g_new]

    # Zoom: shrink the bracket until a point satisfies the conditions or it is too small.
    insuf_progress = False
    low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = cubic_interpolate(bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1], bracket_gtd[1])
        # A point too close to the bracket's ends makes little progress: move it inside, once
        # the previous point made too little already.
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - t, t - min(bracket)) < eps:
            if insuf_progress or t >= max(bracket) or t <= min(bracket):
                t = max(bracket) - eps if abs(t - max(bracket)) < abs(t - min(bracket)) else min(bracket) + eps
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = xp.dot(g_new, d)
        ls_iter += 1
        if f_new > (f + c1 * t * gtd) or f_new >= bracket_f[low_pos]:
            bracket[high_pos], bracket_f[high_pos] = t, f_new
            bracket_g[high_pos], bracket_gtd[high_pos] = g_new.copy(), gtd_new
            low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high_pos] - bracket[low_pos]) >= 0:
                bracket[high_pos], bracket_f[high_pos] = bracket[low_pos], bracket_f[low_pos]
                bracket_g[high_pos], bracket_gtd[high_pos] = bracket_g[low_pos], bracket_gtd[low_pos]
            bracket[low_pos], bracket_f[low_pos] = t, f_new
            bracket_g[low_pos], bracket_gtd[low_pos] = g_new.copy(), gtd_new
    return bracket_f[low_pos], bracket_g[low_pos], bracket[low_pos], ls_func_evals
