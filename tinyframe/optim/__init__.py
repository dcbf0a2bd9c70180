"""Optimizers and learning-rate schedulers, like ``torch.optim``.

Each optimizer updates its parameters' arrays in place from their ``.grad``, outside the autograd
graph; ``lr_scheduler`` adjusts the groups' learning rates between steps.
"""
from __future__ import annotations

from .._lazy import lazy_module
from .adadelta import Adadelta
from .adafactor import Adafactor
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .adamax import Adamax
from .asgd import ASGD
from .lbfgs import LBFGS
from .muon import Muon
from .nadam import NAdam, RAdam
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .rprop import Rprop
from .sgd import SGD
from .sparse_adam import SparseAdam

# (PyTorch's submodules, loaded on first use: the schedulers are ~30% of ``import tinyframe.optim``)
lr_scheduler, swa_utils = lazy_module(f"{__name__}.lr_scheduler"), lazy_module(f"{__name__}.swa_utils")

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam",
           "LBFGS", "Rprop", "ASGD", "Adafactor", "Muon", "SparseAdam", "lr_scheduler", "swa_utils"]
