"""Argument descriptions shared by the optimizers' docstrings, formatted into each as PyTorch does
(``torch/optim/optimizer.py``'s ``_params_doc``, ``_maximize_doc``, ...)."""
from __future__ import annotations

_params_doc = """params (iterable): tensors, ``(name, tensor)`` pairs or dicts defining parameter groups."""

_maximize_doc = """maximize (bool): maximize the objective instead of minimizing it (default: False)."""

_foreach_doc = """foreach (bool, optional): accepted for PyTorch compatibility and ignored; the update is
            vectorized per parameter (default: None)."""

_capturable_doc = """capturable (bool): accepted for PyTorch compatibility and ignored: there is no CUDA graph
            capture in tinyframe (default: False)."""

_differentiable_doc = """differentiable (bool): must be False: tinyframe's optimizers update parameters
            outside the autograd graph (default: False)."""


def check_not_differentiable(differentiable: bool) -> None:
    """Raises for ``differentiable=True``, which asks for gradients through the step itself."""
    if differentiable:
        raise NotImplementedError("differentiable=True is not supported: tinyframe's optimizers update the "
                                  "parameters outside the autograd graph; compute such an update with "
                                  "tensor operations instead")
