"""Gradient clipping, as ``torch.nn.utils.clip_grad``: by the total norm of all gradients, or by value."""
from __future__ import annotations

import types
import warnings
from collections.abc import Iterable

from ... import grad_mode
from ...creation import tensor
from ...ops import binary, reduction, shape, unary
from ...tensor import Tensor

__all__ = ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_", "clip_grads_with_norm_", "get_total_norm"]

TensorOrTensors = Tensor | Iterable[Tensor]


def _as_list(tensors: TensorOrTensors) -> list:
    return [tensors] if isinstance(tensors, Tensor) else list(tensors)


def _grads(parameters: TensorOrTensors) -> list:
    return [p.grad for p in _as_list(parameters) if p.grad is not None]


def get_total_norm(tensors: TensorOrTensors, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                   foreach: bool | None = None) -> Tensor:
    """The ``norm_type``-norm of the norms of ``tensors``: the norm of all their elements as one vector
    (a 0-dim tensor; ``tensor(0.)`` for no tensors). ``foreach`` is accepted for PyTorch compatibility."""
    tensors = _as_list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return tensor(0.0)
    with grad_mode.no_grad():
        first = tensors[0].device
        norms = [reduction.norm(t, norm_type).to(first) for t in tensors]
        total = reduction.norm(shape.stack(norms), norm_type)
    if error_if_nonfinite and not bool(unary.isfinite(total)):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so "
                           "it cannot be clipped. To disable this error and scale the gradients by the non-finite "
                           "norm anyway, set `error_if_nonfinite=False`")
    return total


def clip_grads_with_norm_(parameters: TensorOrTensors, max_norm: float, total_norm: Tensor,
                          foreach: bool | None = None) -> None:
    """Scales the gradients of ``parameters`` in place by ``min(1, max_norm / (total_norm + 1e-6))``."""
    grads = _grads(parameters)
    if not grads:
        return
    with grad_mode.no_grad():
        coefficient = binary.clamp(float(max_norm) / (total_norm + 1e-6), max=1.0)
        for g in grads:
            g.mul_(coefficient.to(g.device))


def clip_grad_norm_(parameters: TensorOrTensors, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach: bool | None = None) -> Tensor:
    """Rescales the gradients of ``parameters`` in place so that their total norm (all gradients seen
    as one vector) is at most ``max_norm``: each is multiplied by ``min(1, max_norm / (total + 1e-6))``.

    Returns the total norm before clipping. ``norm_type`` may be ``inf`` (the largest absolute value);
    ``error_if_nonfinite=True`` raises when the total is NaN or infinite.
    """
    is_generator = isinstance(parameters, types.GeneratorType)
    parameters = _as_list(parameters)
    if is_generator and not parameters:
        warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.", stacklevel=2)
    total_norm = get_total_norm(_grads(parameters), norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_norm(parameters: TensorOrTensors, max_norm: float, norm_type: float = 2.0,
                   error_if_nonfinite: bool = False, foreach: bool | None = None) -> Tensor:
    """Deprecated alias of ``clip_grad_norm_``."""
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.",
                  FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters: TensorOrTensors, clip_value: float, foreach: bool | None = None) -> None:
    """Clamps every gradient of ``parameters`` to ``[-clip_value, clip_value]`` in place."""
    clip_value = float(clip_value)
    with grad_mode.no_grad():
        for g in _grads(parameters):
            g.clamp_(min=-clip_value, max=clip_value)


