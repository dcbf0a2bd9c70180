"""Learning-rate schedulers, like ``torch.optim.lr_scheduler``: each one rewrites its optimizer's
``param_groups[i]["lr"]`` when ``step()`` is called, once per epoch (or per batch for OneCycleLR).

A scheduler's ``state_dict()`` holds every attribute but the optimizer; save it next to the
optimizer's, and create the scheduler before loading the optimizer's state (its constructor sets
the groups' ``lr``).
"""
from __future__ import annotations

import bisect
import math
import types
import warnings
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from .optimizer import Optimizer

__all__ = ["LRScheduler", "LambdaLR", "StepLR", "MultiStepLR", "ExponentialLR", "CosineAnnealingLR",
           "OneCycleLR", "ReduceLROnPlateau", "MultiplicativeLR", "ConstantLR", "LinearLR", "PolynomialLR",
           "CosineAnnealingWarmRestarts", "CyclicLR", "SequentialLR", "ChainedScheduler"]

_EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where possible. "
    "Please use `scheduler.step()` to step the scheduler. During the deprecation, if epoch is different "
    "from None, the closed form is used instead of the new chainable form, where available.")


class LRScheduler:
    """Base class of the learning-rate schedulers, like ``torch.optim.lr_scheduler.LRScheduler``.

    Args:
        optimizer (Optimizer): the optimizer whose learning rates are scheduled.
        last_epoch (int): index of the last epoch; -1 (the default) starts the schedule, setting each
            group's ``initial_lr`` to its ``lr``. Another value resumes and needs ``initial_lr`` set.

    Attributes: ``base_lrs`` (the groups' ``initial_lr``), ``last_epoch`` (steps taken, counting the
    one the constructor takes). Subclasses implement :meth:`get_lr`, the chainable rule from the
    groups' current ``lr``, and may add ``_get_closed_form_lr``, the rule from ``base_lrs``.
    """

    _get_lr_called_within_step = False
    _is_initial = False

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(f"param 'initial_lr' is not specified in param_groups[{i}] when resuming "
                                   "scheduler with last_epoch >= 0.\nThis typically happens when:\n1. You're trying "
                                   "to resume training from a checkpoint but haven't properly loaded the optimizer "
                                   "state\n2. You're using last_epoch >= 0 for a fresh training run (not recommended)")
        self.base_lrs: list[float] = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        self._initial_step()

    def _initial_step(self) -> None:
        """Takes the constructor's step, which sets the lrs of ``last_epoch + 1``."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def state_dict(self) -> dict[str, Any]:
        """The scheduler's state: every attribute except the optimizer."""
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Loads a state returned by :meth:`state_dict`."""
        self.__dict__.update(state_dict)

    def get_last_lr(self) -> list[float]:
        """The learning rates of the groups as last set by this scheduler."""
        return self._last_lr

    def get_lr(self) -> list[float]:
        """The next learning rate of each group (called by :meth:`step`; use :meth:`get_last_lr`
        to read the current ones)."""
        raise NotImplementedError

    def step(self, epoch: int | None = None) -> None:
        """Advances the schedule by one epoch and writes the new learning rates into the optimizer.
        Call it after ``optimizer.step()``. ``epoch`` (deprecated) jumps to that epoch, using the
        closed form where the scheduler has one."""
        if (self._step_count == 1 and type(self.optimizer).step is Optimizer.step
                and self.optimizer._step_count == 0):
            warnings.warn("Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 "
                          "and later, you should call them in the opposite order: `optimizer.step()` before "
                          "`lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first "
                          "value of the learning rate schedule. See more details at "
                          "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
                          UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(_EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch: int | None = None) -> None:
        """Moves to the next epoch, or to ``epoch`` by the closed form where there is one, and
        writes the learning rates into the optimizer."""
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                closed_form = getattr(self, "_get_closed_form_lr", None)
                values = closed_form() if closed_form is not None else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values):
            group["lr"] = lr
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def _current_lrs(self) -> list[float]:
        return [group["lr"] for group in self.optimizer.param_groups]

    def _warn_if_outside_step(self) -> None:
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
                          UserWarning, stacklevel=3)


class _LRScheduler(LRScheduler):
    """The former name of :class:`LRScheduler`, which older code subclasses (as in PyTorch)."""


def _one_per_group(optimizer: Optimizer, lr_lambda: Any) -> list:
    """``lr_lambda`` for every parameter group: one function for all, or a list of one per group."""
    if not isinstance(lr_lambda, (list, tuple)):
        return [lr_lambda] * len(optimizer.param_groups)
    if len(lr_lambda) != len(optimizer.param_groups):
        raise ValueError(f"Expected {len(optimizer.param_groups)} lr_lambdas, but got {len(lr_lambda)}")
    return list(lr_lambda)


class LambdaLR(LRScheduler):
    r"""Sets each group's learning rate to its initial lr times a function of the epoch:
    :math:`\eta_t = \eta_0 \cdot \lambda(t)`.

    Args:
        optimizer (Optimizer): wrapped optimizer.
        lr_lambda (function or list): computes the factor from the integer epoch; or a list of such
            functions, one per group.
        last_epoch (int): the index of the last epoch (default: -1).

    ``state_dict()`` saves the ``__dict__`` of callable objects, not plain functions or lambdas.
    """

    def __init__(self, optimizer: Optimizer, lr_lambda: Callable[[int], float] | list[Callable[[int], float]],
                 last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        self.lr_lambdas = _one_per_group(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def state_dict(self) -> dict[str, Any]:
        state = {key: value for key, value in self.__dict__.items() if key not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
                               for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        lr_lambdas = state_dict["lr_lambdas"]
        self.__dict__.update({key: value for key, value in state_dict.items() if key != "lr_lambdas"})
        for fn, saved in zip(self.lr_lambdas, lr_lambdas):
            if saved is not None:
                fn.__dict__.update(saved)

    def get_lr(self) -> list[float]:
        self._warn_if_outside_step()
        return [base_lr * fn(self.last_epoch) for fn, base_lr in zip(self.lr_lambdas, self.base_lrs)]


class StepLR(LRScheduler):
    r"""Decays each group's learning rate by ``gamma`` every ``step_size`` epochs:
    :math:`\eta_t = \eta_0 \cdot \gamma^{\lfloor t / \text{step\_size} \rfloor}`.

    Args:
        optimizer (Optimizer): wrapped optimizer.
        step_size (int): period of learning rate decay.
        gamma (float): multiplicative factor of learning rate decay (default: 0.1).
        last_epoch (int): the index of the last epoch (default: -1).
    """

    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1) -> None:
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_if_outside_step()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._current_lrs()
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size) for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    r"""Decays each group's learning rate by ``gamma`` at each milestone epoch:
    :math:`\eta_t = \eta_0 \cdot \gamma^{\#\{m \in \text{milestones} : m \le t\}}`.

    Args:
        optimizer (Optimizer): wrapped optimizer.
        milestones (list): epoch indices, increasing.
        gamma (float): multiplicative factor of learning rate decay (default: 0.1).
        last_epoch (int): the index of the last epoch (default: -1).
    """

    def __init__(self, optimizer: Optimizer, milestones: Iterable[int], gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_if_outside_step()
        if self.last_epoch not in self.milestones:
            return self._current_lrs()
        factor = self.gamma ** self.milestones[self.last_epoch]
        return [group["lr"] * factor for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        passed = sum(count for milestone, count in self.milestones.items() if milestone <= self.last_epoch)
        return [base_lr * self.gamma ** passed for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    r"""Decays each group's learning rate by ``gamma`` every epoch: :math:`\eta_t = \eta_0 \cdot \gamma^t`.

    Args:
        optimizer (Optimizer): wrapped optimizer.
        gamma (float): multiplicative factor of learning rate decay.
        last_epoch (int): the index of the last epoch (default: -1).
    """

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_if_outside_step()
        # The constructor's step must not move a resumed schedule one epoch ahead.
        if self._is_initial:
            return self._current_lrs()
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    r"""Anneals each group's learning rate along a cosine, from its initial lr to ``eta_min`` in
    ``T_max`` epochs (then back up, periodically).

    The closed form, from `SGDR: Stochastic Gradient Descent with Warm Restarts` (without restarts):

    .. math::
        \eta_t = \eta_{min} + \frac{1}{2}(\eta_{max} - \eta_{min})
            \left(1 + \cos\left(\frac{T_{cur}}{T_{max}}\pi\right)\right)

    is applied recursively, as in PyTorch, so that other changes to ``lr`` compose with it:

    .. math::
        \eta_{t+1} = \eta_{min} + (\eta_t - \eta_{min})
            \frac{1 + \cos\left(\frac{(T_{cur}+1)\pi}{T_{max}}\right)}{1 + \cos\left(\frac{T_{cur}\pi}{T_{max}}\right)}

    Args:
        optimizer (Optimizer): wrapped optimizer.
        T_max (int): maximum number of iterations.
        eta_min (float): minimum learning rate (default: 0).
        last_epoch (int): the index of the last epoch (default: -1).
    """

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1) -> None:
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_if_outside_step()
        epoch, t_max, eta_min = self.last_epoch, self.T_max, self.eta_min
        if self._is_initial:
            return self._current_lrs()
        if self._step_count == 1 and epoch > 0:
            return [eta_min + (base_lr - eta_min) * (1 + math.cos(epoch * math.pi / t_max)) / 2
                    for base_lr in self.base_lrs]
        if (epoch - 1 - t_max) % (2 * t_max) == 0:
            return [group["lr"] + (base_lr - eta_min) * (1 - math.cos(math.pi / t_max)) / 2
                    for base_lr, group in zip(self.base_lrs, self.optimizer.param_groups)]
        ratio = (1 + math.cos(math.pi * epoch / t_max)) / (1 + math.cos(math.pi * (epoch - 1) / t_max))
        return [ratio * (group["lr"] - eta_min) + eta_min for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base_lr in self.base_lrs]


class OneCycleLR(LRScheduler):
    r"""The 1cycle policy of `Super-Convergence` (Smith & Topin): the learning rate rises from
    ``max_lr / div_factor`` to ``max_lr`` over the first ``pct_start`` of the steps, then anneals to
    ``initial_lr / final_div_factor``; momentum (or Adam's :math:`\beta_1`) moves the opposite way
    between ``max_momentum`` and ``base_momentum``. Call ``step()`` after every batch.

    Each phase anneals from its start value :math:`a` to its end value :math:`b` as
    :math:`p` goes from 0 to 1: ``'cos'``: :math:`b + \frac{a - b}{2}(1 + \cos \pi p)`,
    ``'linear'``: :math:`a + (b - a) p`.

    Args:
        optimizer (Optimizer): wrapped optimizer.
        max_lr (float or list): the peak learning rate, per group if a list.
        total_steps (int): steps in the cycle; or give ``epochs`` and ``steps_per_epoch``.
        epochs (int), steps_per_epoch (int): give ``total_steps = epochs * steps_per_epoch``.
        pct_start (float): fraction of the cycle spent increasing the learning rate (default: 0.3).
        anneal_strategy (str): ``'cos'`` or ``'linear'`` (default: ``'cos'``).
        cycle_momentum (bool): cycle momentum inversely to the learning rate (default: True).
        base_momentum (float or list): the lowest momentum, reached at the peak lr (default: 0.85).
        max_momentum (float or list): the highest momentum, at the start and end (default: 0.95).
        div_factor (float): ``initial_lr = max_lr / div_factor`` (default: 25).
        final_div_factor (float): ``min_lr = initial_lr / final_div_factor`` (default: 1e4).
        three_phase (bool): rise, fall back to ``initial_lr`` symmetrically, then anneal to
            ``min_lr`` in a third phase, as in the paper (default: False, fastai's two phases).
        last_epoch (int): the number of batches already done when resuming (default: -1).
    """

    def __init__(self, optimizer: Optimizer, max_lr: float | list[float], total_steps: int | None = None,
                 epochs: int | None = None, steps_per_epoch: int | None = None, pct_start: float = 0.3,
                 anneal_strategy: str = "cos", cycle_momentum: bool = True,
                 base_momentum: float | list[float] = 0.85, max_momentum: float | list[float] = 0.95,
                 div_factor: float = 25.0, final_div_factor: float = 1e4, three_phase: bool = False,
                 last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if total_steps is not None:
            if not isinstance(total_steps, int) or total_steps <= 0:
                raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
            self.total_steps = total_steps
        elif epochs is not None and steps_per_epoch is not None:
            if not isinstance(epochs, int) or epochs <= 0:
                raise ValueError(f"Expected positive integer epochs, but got {epochs}")
            if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
                raise ValueError(f"Expected positive integer steps_per_epoch, but got {steps_per_epoch}")
            self.total_steps = epochs * steps_per_epoch
        else:
            raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")
        # Each phase ends at a step index and names the group keys it anneals between. As in PyTorch, the
        # phases come before the checks of pct_start and anneal_strategy (and before them in state_dict).
        rise_end = float(pct_start * self.total_steps) - 1
        if three_phase:
            self._schedule_phases = [
                _phase(rise_end, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                _phase(float(2 * pct_start * self.total_steps) - 2, "max_lr", "initial_lr",
                       "base_momentum", "max_momentum"),
                _phase(self.total_steps - 1, "initial_lr", "min_lr", "max_momentum", "max_momentum"),
            ]
        else:
            self._schedule_phases = [
                _phase(rise_end, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                _phase(self.total_steps - 1, "max_lr", "min_lr", "base_momentum", "max_momentum"),
            ]
        if not isinstance(pct_start, float) or not 0 <= pct_start <= 1:
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}")
        self._anneal_func_type = anneal_strategy
        max_lrs = _per_group("max_lr", optimizer, max_lr)
        if last_epoch == -1:
            for group, group_max_lr in zip(optimizer.param_groups, max_lrs):
                group["initial_lr"] = group_max_lr / div_factor
                group["max_lr"] = group_max_lr
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` option enabled")
            self.use_beta1 = "betas" in optimizer.defaults
            max_momentums = _per_group("max_momentum", optimizer, max_momentum)
            base_momentums = _per_group("base_momentum", optimizer, base_momentum)
            if last_epoch == -1:
                for group, high, low in zip(optimizer.param_groups, max_momentums, base_momentums):
                    self._set_momentum(group, high)
                    group["max_momentum"] = high
                    group["base_momentum"] = low
        super().__init__(optimizer, last_epoch)

    def _set_momentum(self, group: dict[str, Any], value: float) -> None:
        if self.use_beta1:
            group["betas"] = (value, *group["betas"][1:])
        else:
            group["momentum"] = value

    def _anneal(self, start: float, end: float, pct: float) -> float:
        if self._anneal_func_type == "cos":
            return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
        return (end - start) * pct + start

    def get_lr(self) -> list[float]:
        self._warn_if_outside_step()
        step_num = self.last_epoch
        if step_num > self.total_steps:
            raise ValueError(f"Tried to step {step_num} times. The specified number of total steps is "
                             f"{self.total_steps}")
        lrs = []
        for group in self.optimizer.param_groups:
            start_step = 0.0
            for i, phase in enumerate(self._schedule_phases):
                end_step = phase["end_step"]
                if step_num <= end_step or i == len(self._schedule_phases) - 1:
                    pct = (step_num - start_step) / (end_step - start_step)
                    lrs.append(self._anneal(group[phase["start_lr"]], group[phase["end_lr"]], pct))
                    if self.cycle_momentum:
                        self._set_momentum(group, self._anneal(group[phase["start_momentum"]],
                                                               group[phase["end_momentum"]], pct))
                    break
                start_step = end_step
        return lrs


class ReduceLROnPlateau(LRScheduler):
    """Reduces the learning rate when a metric has stopped improving: after more than ``patience``
    epochs without improvement, each group's lr becomes ``max(lr * factor, min_lr)``.

    Args:
        optimizer (Optimizer): wrapped optimizer.
        mode (str): ``'min'`` (the metric should decrease) or ``'max'`` (default: ``'min'``).
        factor (float): ``new_lr = lr * factor``, below 1 (default: 0.1).
        patience (int): epochs without improvement tolerated before reducing (default: 10).
        threshold (float): how much better counts as an improvement (default: 1e-4).
        threshold_mode (str): ``'rel'``: better than ``best * (1 -/+ threshold)``; ``'abs'``: better
            than ``best -/+ threshold`` (default: ``'rel'``).
        cooldown (int): epochs to wait after a reduction before counting bad epochs again (default: 0).
        min_lr (float or list): lower bound on the lr, per group if a list (default: 0).
        eps (float): reductions smaller than this are skipped (default: 1e-8).

    Example::

        >>> scheduler = ReduceLROnPlateau(optimizer, "min")
        >>> for epoch in range(10):
        >>>     train(...)
        >>>     scheduler.step(validate(...))
    """

    def __init__(self, optimizer: Optimizer, mode: str = "min", factor: float = 0.1, patience: int = 10,
                 threshold: float = 1e-4, threshold_mode: str = "rel", cooldown: int = 0,
                 min_lr: list[float] | float = 0, eps: float = 1e-8) -> None:
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        self.factor = factor
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != len(optimizer.param_groups):
                raise ValueError(f"expected {len(optimizer.param_groups)} min_lrs, got {len(min_lr)}")
            self.default_min_lr = None
            self.min_lrs = list(min_lr)
        else:
            self.default_min_lr = min_lr
            self.min_lrs = [min_lr] * len(optimizer.param_groups)
        self.patience = patience
        self.cooldown = cooldown
        self.eps = eps
        self.last_epoch = 0
        self._last_lr = self._current_lrs()
        self._init_is_better(mode, threshold, threshold_mode)
        self._reset()

    def _reset(self) -> None:
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    def step(self, metrics: Any, epoch: int | None = None) -> None:  # type: ignore[override]
        """Records one epoch's ``metrics`` (a number or a one-element tensor) and reduces the lr
        if it has not improved for more than ``patience`` epochs."""
        current = float(metrics)
        if epoch is None:
            epoch = self.last_epoch + 1
        else:
            warnings.warn(_EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self.last_epoch = epoch
        if self._is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            self._reduce_lr()
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = self._current_lrs()

    def _reduce_lr(self) -> None:
        groups = self.optimizer.param_groups
        if len(groups) != len(self.min_lrs):
            if self.default_min_lr is None:
                raise RuntimeError(f"The number of param groups in the `optimizer` ({len(groups)}) differs from "
                                   f"when `ReduceLROnPlateau` was initialized ({len(self.min_lrs)}), usually due "
                                   "to a new param group being added to the optimizer. Please modify the "
                                   "`min_lrs` field to match the length of the `optimizer` param groups.")
            self.min_lrs = [self.default_min_lr] * len(groups)
        for group, min_lr in zip(groups, self.min_lrs):
            old_lr = float(group["lr"])
            new_lr = max(old_lr * self.factor, min_lr)
            if old_lr - new_lr > self.eps:
                group["lr"] = new_lr

    @property
    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0

    def _is_better(self, a: float, best: float) -> bool:
        if self.mode == "min" and self.threshold_mode == "rel":
            return a < best * (1.0 - self.threshold)
        if self.mode == "min":
            return a < best - self.threshold
        if self.threshold_mode == "rel":
            return a > best * (self.threshold + 1.0)
        return a > best + self.threshold

    def _init_is_better(self, mode: str, threshold: float, threshold_mode: str) -> None:
        if mode not in ("min", "max"):
            raise ValueError(f"mode {mode} is unknown!")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError(f"threshold mode {threshold_mode} is unknown!")
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        self.__dict__.update(state_dict)
        self._init_is_better(self.mode, self.threshold, self.threshold_mode)


def _phase(end_step: float, start_lr: str, end_lr: str, start_momentum: str, end_momentum: str) -> dict[str, Any]:
    return {"end_step": end_step, "start_lr": start_lr, "end_lr": end_lr,
            "start_momentum": start_momentum, "end_momentum": end_momentum}


def _per_group(name: str, optimizer: Optimizer, value: Any) -> list[Any]:
    """``value`` for each param group: a list of one value per group, or one value for all."""
    if isinstance(value, (list, tuple)):
        if len(value) != len(optimizer.param_groups):
            raise ValueError(f"{name} must have the same length as optimizer.param_groups. {name} has "
                             f"{len(value)} values, param_groups has {len(optimizer.param_groups)}.")
        return list(value)
    return [value] * len(optimizer.param_groups)


class MultiplicativeLR(LRScheduler):
    r"""Multiplies each group's learning rate by a function of the epoch at every step:
    :math:`\eta_t = \eta_{t-1} \cdot \lambda(t)`.

    Args:
        optimizer (Optimizer): wrapped optimizer.
        lr_lambda (function or list): computes the factor from the integer epoch; or a list of such
            functions, one per group.
        last_epoch (int): the index of the last epoch (default: -1).
    """

    def __init__(self, optimizer: Optimizer, lr_lambda: Callable[[int], float] | list[Callable[[int], float]],
                 last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        self.lr_lambdas = _one_per_group(optimizer, lr_lambda)
        for fn in self.lr_lambdas:
            if not callable(fn):
                raise TypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")
        super().__init__(optimizer, last_epoch)

    state_dict = LambdaLR.state_dict
    load_state_dict = LambdaLR.load_state_dict

    def get_lr(self) -> list[float]:
        self._warn_if_outside_step()
        if self._is_initial:
            return self._current_lrs()
        return [group["lr"] * fn(self.last_epoch) for fn, group in zip(self.lr_lambdas, self.optimizer.param_groups)]


class ConstantLR(LRScheduler):
    r"""Multiplies each group's learning rate by ``factor`` until epoch ``total_iters``:
    :math:`\eta_t = \eta_0 \cdot \text{factor}` for :math:`t < \text{total\_iters}`, then :math:`\eta_0`.

    Args:
        optimizer (Optimizer): wrapped optimizer.
        factor (float): the factor, in [0, 1] (default: 1/3).
        total_iters (int): the epoch at which the factor stops applying (default: 5).
        last_epoch (int): the index of the last epoch (default: -1).
    """

    def __init__(self, optimizer: Optimizer, factor: float = 1.0 / 3, total_iters: int = 5,
                 last_epoch: int = -1) -> None:
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_if_outside_step()
        if self.last_epoch == 0:
            return [group["lr"] * self.factor for group in self.optimizer.param_groups]
        if self.last_epoch != self.total_iters:
            return self._current_lrs()
        return [group["lr"] * (1.0 / self.factor) for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [base_lr * (self.factor + (self.last_epoch >= self.total_iters) * (1 - self.factor))
                for base_lr in self.base_lrs]


class LinearLR(LRScheduler):
    r"""Changes each group's learning rate linearly from ``start_factor`` to ``end_factor`` times its
    initial lr over ``total_iters`` epochs, then keeps it:
    :math:`\eta_t = \eta_0 \big(s + (e - s) \min(t, T) / T\big)`.

    As in PyTorch, each step multiplies the current lr by the ratio of consecutive factors, so
    other changes to ``lr`` compose with the schedule.

    Args:
        optimizer (Optimizer): wrapped optimizer.
        start_factor (float): the factor at the first epoch, in (0, 1] (default: 1/3).
        end_factor (float): the factor at ``total_iters`` and after, in [0, 1] (default: 1).
        total_iters (int): the number of epochs of the ramp (default: 5).
        last_epoch (int): the index of the last epoch (default: -1).
    """

    def __init__(self, optimizer: Optimizer, start_factor: float = 1.0 / 3, end_factor: float = 1.0,
                 total_iters: int = 5, last_epoch: int = -1) -> None:
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_if_outside_step()
        if self.last_epoch == 0:
            return [group["lr"] * self.start_factor for group in self.optimizer.param_groups]
        if self._is_initial or self.last_epoch > self.total_iters:
            return self._current_lrs()
        slope = self.end_factor - self.start_factor
        ratio = 1.0 + slope / (self.total_iters * self.start_factor + (self.last_epoch - 1) * slope)
        return [group["lr"] * ratio for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        slope = self.end_factor - self.start_factor
        return [base_lr * (self.start_factor + slope * min(self.total_iters, self.last_epoch) / self.total_iters)
                for base_lr in self.base_lrs]


class PolynomialLR(LRScheduler):
    r"""Decays each group's learning rate polynomially to 0 over ``total_iters`` epochs:
    :math:`\eta_t = \eta_0 \big(1 - \min(t, T)/T\big)^{\text{power}}`, applied recursively as PyTorch does.

    Args:
        optimizer (Optimizer): wrapped optimizer.
        total_iters (int): the number of epochs of the decay (default: 5).
        power (float): the power of the polynomial (default: 1.0).
        last_epoch (int): the index of the last epoch (default: -1).
    """

    def __init__(self, optimizer: Optimizer, total_iters: int = 5, power: float = 1.0, last_epoch: int = -1) -> None:
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_if_outside_step()
        if self._is_initial or self.last_epoch > self.total_iters:
            return self._current_lrs()
        decay_factor = ((1.0 - self.last_epoch / self.total_iters)
                        / (1.0 - (self.last_epoch - 1) / self.total_iters)) ** self.power
        return [group["lr"] * decay_factor for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [base_lr * (1.0 - min(self.total_iters, self.last_epoch) / self.total_iters) ** self.power
                for base_lr in self.base_lrs]


class CosineAnnealingWarmRestarts(LRScheduler):
    r"""Cosine annealing with warm restarts, from `SGDR: Stochastic Gradient Descent with Warm Restarts`:

    .. math::
        \eta_t = \eta_{min} + \frac{1}{2}(\eta_{max} - \eta_{min})
            \left(1 + \cos\left(\frac{T_{cur}}{T_i}\pi\right)\right)

    where :math:`T_{cur}` counts the epochs since the last restart and :math:`T_i` is the length of
    the current period: ``T_0`` at first, multiplied by ``T_mult`` at each restart.

    Args:
        optimizer (Optimizer): wrapped optimizer.
        T_0 (int): the number of epochs until the first restart.
        T_mult (int): the factor by which :math:`T_i` grows after a restart (default: 1).
        eta_min (float): minimum learning rate (default: 0).
        last_epoch (int): the index of the last epoch (default: -1).

    ``step(epoch)`` takes fractional epochs, to step after every batch:
    ``scheduler.step(epoch + i / iters)``.
    """

    def __init__(self, optimizer: Optimizer, T_0: int, T_mult: int = 1, eta_min: float = 0.0,
                 last_epoch: int = -1) -> None:
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, (float, int)):
            raise ValueError(f"Expected float or int eta_min, but got {eta_min} of type {type(eta_min)}")
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur: float = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_if_outside_step()
        return [self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
                for base_lr in self.base_lrs]

    def step(self, epoch: float | None = None) -> None:
        """Advances one epoch, or jumps to ``epoch`` (which may be fractional), restarting the
        cosine when a period ends."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur % self.T_i
                self.T_i = self.T_i * self.T_mult
        elif epoch < 0:
            raise ValueError(f"Expected non-negative epoch, but got {epoch}")
        elif epoch >= self.T_0:
            if self.T_mult == 1:
                self.T_cur = epoch % self.T_0
            else:
                # The number of completed periods n solves T_0 (T_mult^n - 1) / (T_mult - 1) <= epoch.
                n = int(math.log((epoch / self.T_0 * (self.T_mult - 1) + 1), self.T_mult))
                self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                self.T_i = self.T_0 * self.T_mult ** n
        else:
            self.T_i = self.T_0
            self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        self._get_lr_called_within_step = True
        try:
            values = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values):
            group["lr"] = lr
        self._last_lr = self._current_lrs()


class CyclicLR(LRScheduler):
    r"""Cycles each group's learning rate between ``base_lr`` and ``max_lr``, from `Cyclical Learning
    Rates for Training Neural Networks` (Smith); call ``step()`` after every batch.

    Each cycle rises for ``step_size_up`` steps and falls for ``step_size_down``; the amplitude is
    scaled by ``scale_fn``: ``'triangular'`` keeps it, ``'triangular2'`` halves it every cycle,
    ``'exp_range'`` multiplies it by :math:`\gamma^{\text{iterations}}`. With ``cycle_momentum``,
    momentum (or Adam's :math:`\beta_1`) cycles inversely between ``max_momentum`` and ``base_momentum``.

    Args:
        optimizer (Optimizer): wrapped optimizer.
        base_lr (float or list): the lower learning rate of the cycle, per group if a list.
        max_lr (float or list): the upper learning rate of the cycle, per group if a list.
        step_size_up (int): training iterations in the rising half of a cycle (default: 2000).
        step_size_down (int, optional): iterations in the falling half (default: ``step_size_up``).
        mode (str): ``'triangular'``, ``'triangular2'`` or ``'exp_range'``; ignored with a
            ``scale_fn`` (default: ``'triangular'``).
        gamma (float): the constant of ``'exp_range'`` (default: 1.0).
        scale_fn (function, optional): a custom amplitude scaling, with ``0 <= scale_fn(x) <= 1``.
        scale_mode (str): whether ``scale_fn`` takes the cycle number (``'cycle'``) or the
            iteration (``'iterations'``) (default: ``'cycle'``).
        cycle_momentum (bool): cycle momentum inversely to the learning rate (default: True).
        base_momentum (float or list): the lower momentum, reached at ``max_lr`` (default: 0.8).
        max_momentum (float or list): the upper momentum, at ``base_lr`` (default: 0.9).
        last_epoch (int): the index of the last batch, to resume training (default: -1).
    """

    def __init__(self, optimizer: Optimizer, base_lr: float | list[float], max_lr: float | list[float],
                 step_size_up: float = 2000, step_size_down: float | None = None, mode: str = "triangular",
                 gamma: float = 1.0, scale_fn: Callable[[float], float] | None = None, scale_mode: str = "cycle",
                 cycle_momentum: bool = True, base_momentum: float | list[float] = 0.8,
                 max_momentum: float | list[float] = 0.9, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        base_lrs = _per_group("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                group["lr"] = lr
        self.max_lrs = _per_group("max_lr", optimizer, max_lr)
        step_size_up = float(step_size_up)
        step_size_down = float(step_size_down) if step_size_down is not None else step_size_up
        self.total_size = step_size_up + step_size_down
        self.step_ratio = step_size_up / self.total_size
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        self._init_scale_fn()
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` option enabled")
            self.use_beta1 = "betas" in optimizer.defaults
            self.base_momentums = _per_group("base_momentum", optimizer, base_momentum)
            self.max_momentums = _per_group("max_momentum", optimizer, max_momentum)
            if last_epoch == -1:
                for high, low, group in zip(self.max_momentums, self.base_momentums, optimizer.param_groups):
                    _set_momentum(group, high, self.use_beta1)
                    group["max_momentum"] = high
                    group["base_momentum"] = low
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _init_scale_fn(self) -> None:
        """The built-in modes fix their scale function and what it is a function of."""
        if self._scale_fn_custom is None and self.mode in ("triangular", "triangular2"):
            self.scale_mode = "cycle"
        elif self._scale_fn_custom is None and self.mode == "exp_range":
            self.scale_mode = "iterations"

    def scale_fn(self, x: float) -> float:
        """The amplitude's scale at cycle (or iteration) ``x``."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        if self.mode == "triangular":
            return 1.0
        if self.mode == "triangular2":
            return 1 / (2.0 ** (x - 1))
        return self.gamma ** x

    def get_lr(self) -> list[float]:
        self._warn_if_outside_step()
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        if x <= self.step_ratio:
            scale_factor = x / self.step_ratio
        else:
            scale_factor = (x - 1) / (self.step_ratio - 1)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else self.last_epoch)
        lrs = [base_lr + (max_lr - base_lr) * scale_factor * scale
               for base_lr, max_lr in zip(self.base_lrs, self.max_lrs)]
        if self.cycle_momentum:
            for group, low, high in zip(self.optimizer.param_groups, self.base_momentums, self.max_momentums):
                _set_momentum(group, high - (high - low) * scale_factor * scale, self.use_beta1)
        return lrs

    def state_dict(self) -> dict[str, Any]:
        """The state, with a custom ``scale_fn`` saved as its ``__dict__`` when it is a callable
        object (plain functions and lambdas are not saved)."""
        state = super().state_dict()
        fn = state.pop("_scale_fn_custom")
        state["_scale_fn_custom"] = None if fn is None or isinstance(fn, types.FunctionType) else fn.__dict__.copy()
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        state = dict(state_dict)
        fn = state.pop("_scale_fn_custom")
        super().load_state_dict(state)
        if fn is not None:
            self._scale_fn_custom.__dict__.update(fn)
        self._init_scale_fn()


class SequentialLR(LRScheduler):
    """Runs schedulers one after another: ``schedulers[i]`` drives the learning rate from
    ``milestones[i - 1]`` on; at each milestone the next one starts from its own epoch 0.

    Args:
        optimizer (Optimizer): wrapped optimizer.
        schedulers (list): the schedulers, all of ``optimizer``.
        milestones (list): the epochs at which the next scheduler takes over (one fewer than schedulers).
        last_epoch (int): the index of the last epoch (default: -1).

    Example::

        >>> warmup = LinearLR(optimizer, start_factor=0.1, total_iters=2)
        >>> decay = ExponentialLR(optimizer, gamma=0.9)
        >>> scheduler = SequentialLR(optimizer, schedulers=[warmup, decay], milestones=[2])
    """

    def __init__(self, optimizer: Optimizer, schedulers: list[LRScheduler], milestones: list[int],
                 last_epoch: int = -1) -> None:
        if len(schedulers) < 1:
            raise ValueError(f"{type(self).__name__} expects at least one scheduler, but got no scheduler.")
        _check_schedulers(self, schedulers, optimizer)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError("Sequential Schedulers expects number of schedulers provided to be one more than the "
                             f"number of milestone points, but got number of schedulers {len(schedulers)} and the "
                             f"number of milestones to be equal to {len(milestones)}")
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        # Undo the constructors' steps of the schedulers, then start the first one afresh.
        for group in optimizer.param_groups:
            group["lr"] = group["initial_lr"]
        self.recursive_undo()
        idx = bisect.bisect_right(self._milestones, 0)
        self._schedulers[idx]._initial_step()
        self._last_lr = schedulers[idx].get_last_lr()

    def recursive_undo(self, sched: Any = None) -> None:
        """Steps back, by one epoch, every scheduler inside (the one each constructor took)."""
        scheds = self if sched is None else sched
        if hasattr(scheds, "_schedulers"):
            for inner in scheds._schedulers:
                self.recursive_undo(inner)
        elif hasattr(scheds, "last_epoch"):
            scheds.last_epoch -= 1

    def step(self) -> None:  # type: ignore[override]
        """Advances the schedule by one epoch: the current scheduler steps, or, at a milestone,
        the next one starts at its epoch 0."""
        self.last_epoch += 1
        idx = bisect.bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()

    def state_dict(self) -> dict[str, Any]:
        """The state, with the state of each scheduler inside under ``_schedulers``."""
        return _composite_state_dict(self)

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        _load_composite_state_dict(self, state_dict)


class ChainedScheduler(LRScheduler):
    """Steps several schedulers together, each after the other, so that their changes to the
    learning rate compose (for example a warm-up ``LinearLR`` with an ``ExponentialLR`` decay).

    Args:
        schedulers (sequence): the schedulers, all of one optimizer.
        optimizer (Optimizer, optional): that optimizer (default: the first scheduler's).
    """

    def __init__(self, schedulers: list[LRScheduler], optimizer: Optimizer | None = None) -> None:
        if len(schedulers) < 1:
            raise ValueError(f"{type(self).__name__} expects at least one scheduler to be chained, but got no "
                             "scheduler.")
        optimizer = optimizer or schedulers[0].optimizer
        _check_schedulers(self, schedulers, optimizer)
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = [group["lr"] for group in self._schedulers[-1].optimizer.param_groups]

    def step(self) -> None:  # type: ignore[override]
        """Steps every scheduler, in order."""
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = [group["lr"] for group in self._schedulers[-1].optimizer.param_groups]

    def state_dict(self) -> dict[str, Any]:
        """The state, with the state of each scheduler inside under ``_schedulers``."""
        return _composite_state_dict(self)

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        _load_composite_state_dict(self, state_dict)


def _check_schedulers(composite: LRScheduler, schedulers: list[LRScheduler], optimizer: Optimizer) -> None:
    """PyTorch's checks on the schedulers a SequentialLR or ChainedScheduler combines."""
    name = type(composite).__name__
    for i, scheduler in enumerate(schedulers):
        if not hasattr(scheduler, "optimizer"):
            raise TypeError(f"{name} at index {i} should have `optimizer` as its attribute.")
        if isinstance(scheduler, ReduceLROnPlateau):
            raise ValueError(f"{name} does not support `ReduceLROnPlateau` scheduler as it requires additional "
                             "kwargs to be specified when calling `step`, but got one at index "
                             f"{i} in the given schedulers sequence.")
        if optimizer != scheduler.optimizer:
            raise ValueError(f"{name} expects all schedulers to belong to the same optimizer, but got scheduler "
                             f"{type(scheduler).__name__} at index {i} has {scheduler.optimizer}, which is "
                             f"different from {type(optimizer).__name__}.")


def _composite_state_dict(composite: Any) -> dict[str, Any]:
    state = {key: value for key, value in composite.__dict__.items() if key not in ("optimizer", "_schedulers")}
    state["_schedulers"] = [scheduler.state_dict() for scheduler in composite._schedulers]
    return state


def _load_composite_state_dict(composite: Any, state_dict: dict[str, Any]) -> None:
    composite.__dict__.update({key: value for key, value in state_dict.items() if key != "_schedulers"})
    for scheduler, state in zip(composite._schedulers, state_dict["_schedulers"]):
        scheduler.load_state_dict(state)


def _set_momentum(group: dict[str, Any], value: float, use_beta1: bool) -> None:
    """Sets a group's momentum, or Adam's beta1 when the optimizer has betas."""
    if use_beta1:
        group["betas"] = (value, *group["betas"][1:])
    else:
        group["momentum"] = value
