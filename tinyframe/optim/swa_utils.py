"""Stochastic weight averaging and exponential moving averages of a model, like ``torch.optim.swa_utils``:
``AveragedModel`` keeps the average of a model's parameters, ``SWALR`` anneals the learning rate to a
constant SWA rate, ``update_bn`` recomputes BatchNorm statistics for the averaged weights."""
from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from copy import deepcopy
from typing import Any

from .. import creation, dtypes, grad_mode
from ..nn import Module
from ..nn.modules.batchnorm import _BatchNorm
from ..tensor import Tensor
from .lr_scheduler import LRScheduler, _per_group
from .optimizer import Optimizer

__all__ = ["AveragedModel", "update_bn", "SWALR", "get_ema_multi_avg_fn", "get_swa_multi_avg_fn", "get_ema_avg_fn",
           "get_swa_avg_fn"]


def get_ema_avg_fn(decay: float = 0.999) -> Callable[[Tensor, Tensor, Any], Tensor]:
    """The exponential moving average, ``decay * averaged + (1 - decay) * current``."""
    _check_decay(decay)

    def ema_update(ema_param: Tensor, current_param: Tensor, num_averaged: Any) -> Tensor:
        with grad_mode.no_grad():
            return decay * ema_param + (1 - decay) * current_param
    return ema_update


def get_swa_avg_fn() -> Callable[[Tensor, Tensor, Any], Tensor]:
    """The running mean, ``averaged + (current - averaged) / (num_averaged + 1)``."""
    def swa_update(averaged_param: Tensor, current_param: Tensor, num_averaged: Any) -> Tensor:
        with grad_mode.no_grad():
            return averaged_param + (current_param - averaged_param) / (num_averaged + 1)
    return swa_update


def get_ema_multi_avg_fn(decay: float = 0.999) -> Callable[[list, list, Any], None]:
    """The exponential moving average of lists of tensors, updated in place."""
    _check_decay(decay)
    return _in_place(get_ema_avg_fn(decay))


def get_swa_multi_avg_fn() -> Callable[[list, list, Any], None]:
    """The running mean of lists of tensors, updated in place."""
    return _in_place(get_swa_avg_fn())


def _in_place(avg_fn: Callable[[Tensor, Tensor, Any], Tensor]) -> Callable[[list, list, Any], None]:
    def update(averaged: list, current: list, num_averaged: Any) -> None:
        with grad_mode.no_grad():
            for p_averaged, p_model in zip(averaged, current):
                p_averaged.copy_(avg_fn(p_averaged, p_model, num_averaged))
    return update


def _check_decay(decay: float) -> None:
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in [0,1] range.")


class AveragedModel(Module):
    r"""A copy of ``model`` whose parameters are the average of the ones it is given with
    :meth:`update_parameters`: the running mean by default (SWA, `Averaging Weights Leads to
    Wider Optima and Better Generalization`), or ``avg_fn`` / ``multi_avg_fn`` such as
    :func:`get_ema_multi_avg_fn` for an exponential moving average.

    Args:
        model (Module): the model to average.
        device (device, optional): where to keep the averaged copy.
        avg_fn: ``avg_fn(averaged, current, num_averaged) -> Tensor`` for each parameter.
        multi_avg_fn: ``multi_avg_fn(averaged_list, current_list, num_averaged)``, in place.
        use_buffers (bool): average the buffers too (default: False: they are copied).
    """

    def __init__(self, model: Module, device: Any = None, avg_fn: Callable | None = None,
                 multi_avg_fn: Callable | None = None, use_buffers: bool = False) -> None:
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", creation.tensor(0, dtype=dtypes.int64, device=device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self.module(*args, **kwargs)

    def update_parameters(self, model: Module) -> None:
        """Folds ``model``'s current parameters (and buffers, with ``use_buffers``) into the average."""
        if self.use_buffers:
            averaged = list(itertools.chain(self.module.parameters(), self.module.buffers()))
            current = list(itertools.chain(model.parameters(), model.buffers()))
        else:
            averaged, current = list(self.parameters()), list(model.parameters())
        averaged = [p.detach() for p in averaged]
        current = [p.detach().to(a.device) for a, p in zip(averaged, current)]
        with grad_mode.no_grad():
            if self.n_averaged.item() == 0:
                for p_averaged, p_model in zip(averaged, current):
                    p_averaged.copy_(p_model)
            elif self.multi_avg_fn is not None:
                self.multi_avg_fn(averaged, current, self.n_averaged)
            else:
                avg_fn = self.avg_fn or get_swa_avg_fn()
                for p_averaged, p_model in zip(averaged, current):
                    p_averaged.copy_(avg_fn(p_averaged, p_model, self.n_averaged))
            if not self.use_buffers:
                for b_swa, b_model in zip(self.module.buffers(), model.buffers()):
                    b_swa.copy_(b_model.detach().to(b_swa.device))
            self.n_averaged.add_(1)


def update_bn(loader: Iterable[Any], model: Module, device: Any = None) -> None:
    """Recomputes the BatchNorm running statistics of ``model`` with one pass over ``loader``
    (a cumulative average over its batches; the first element of list/tuple batches is the input)."""
    momenta = {}
    for module in model.modules():
        if isinstance(module, _BatchNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    with grad_mode.no_grad():
        for input in loader:
            if isinstance(input, (list, tuple)):
                input = input[0]
            if device is not None:
                input = input.to(device)
            model(input)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(LRScheduler):
    r"""Anneals each group's learning rate to ``swa_lr`` over ``anneal_epochs`` epochs, then keeps it,
    as PyTorch's ``SWALR``: :math:`\eta_t = \alpha_t \eta_{swa} + (1 - \alpha_t) \eta_0` with
    :math:`\alpha_t` rising from 0 to 1 along a cosine (``'cos'``) or a line (``'linear'``).

    Args:
        optimizer (Optimizer): wrapped optimizer.
        swa_lr (float or list): the SWA learning rate, per group if a list.
        anneal_epochs (int): epochs of the annealing (default: 10).
        anneal_strategy (str): ``'cos'`` or ``'linear'`` (default: ``'cos'``).
        last_epoch (int): the index of the last epoch (default: -1).
    """

    def __init__(self, optimizer: Optimizer, swa_lr: float | list[float], anneal_epochs: int = 10,
                 anneal_strategy: str = "cos", last_epoch: int = -1) -> None:
        for lr, group in zip(_per_group("swa_lr", optimizer, swa_lr), optimizer.param_groups):
            group["swa_lr"] = lr
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}")
        self._anneal_strategy = anneal_strategy
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    def anneal_func(self, t: float) -> float:
        return (1 - math.cos(math.pi * t)) / 2 if self._anneal_strategy == "cos" else t

    @staticmethod
    def _get_initial_lr(lr: float, swa_lr: float, alpha: float) -> float:
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self) -> list[float]:
        self._warn_if_outside_step()
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_alpha = self.anneal_func(max(0, min(1, (step - 1) / max(1, self.anneal_epochs))))
        prev_lrs = [self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha)
                    for group in self.optimizer.param_groups]
        alpha = self.anneal_func(max(0, min(1, step / max(1, self.anneal_epochs))))
        return [group["swa_lr"] * alpha + lr * (1 - alpha) for group, lr in zip(self.optimizer.param_groups, prev_lrs)]
