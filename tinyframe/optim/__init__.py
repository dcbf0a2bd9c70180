"""Optimizers and learning-rate schedulers, like ``torch.optim``.

Each optimizer updates its parameters' arrays in place from their ``.grad``, outside the autograd
graph; ``lr_scheduler`` adjusts the groups' learning rates between steps.
"""
from __future__ import annotations

from . import lr_scheduler, swa_utils
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

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam",
           "LBFGS", "Rprop", "ASGD", "Adafactor", "Muon", "SparseAdam", "lr_scheduler", "swa_utils"]
