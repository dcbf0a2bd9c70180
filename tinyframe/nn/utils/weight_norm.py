"""``nn.utils.weight_norm`` (deprecated in PyTorch for ``parametrizations.weight_norm``):
``weight = g * v / ||v||`` recomputed by a forward pre-hook from parameters ``weight_g``, ``weight_v``."""
from __future__ import annotations

import warnings
from typing import Any

from ...ops import binary, reduction
from ...tensor import Tensor
from ..modules.module import Module
from ..parameter import Parameter

__all__ = ["weight_norm", "remove_weight_norm", "norm_except_dim"]


def norm_except_dim(v: Tensor, pow: float = 2, dim: int = 0) -> Tensor:
    """The ``pow``-norm of ``v`` over every dimension but ``dim``, kept as size-1 dimensions; over
    all of ``v`` (a 0-d result) when ``dim == -1``."""
    if dim == -1:
        return reduction.norm(v, pow)
    dim = dim % v.ndim
    others = tuple(d for d in range(v.ndim) if d != dim)
    if not others:
        return reduction.norm(v.unsqueeze(1), pow, 1)
    return reduction.norm(v, pow, others, keepdim=True)


class WeightNorm:
    """The forward pre-hook that recomputes ``<name>`` from ``<name>_g`` and ``<name>_v``."""

    def __init__(self, name: str, dim: int) -> None:
        self.name, self.dim = name, dim

    def compute_weight(self, module: Module) -> Tensor:
        g, v = getattr(module, self.name + "_g"), getattr(module, self.name + "_v")
        return binary.mul(v, binary.div(g, norm_except_dim(v, 2, self.dim)))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module: Module, name: str = "weight", dim: int | None = 0) -> Module:
    """Replaces parameter ``<name>`` by ``<name>_g`` (magnitudes) and ``<name>_v`` (directions)."""
    warnings.warn("`torch.nn.utils.weight_norm` is deprecated in favor of "
                  "`torch.nn.utils.parametrizations.weight_norm`.", FutureWarning, stacklevel=2)
    for hook in module._forward_pre_hooks.values():
        if isinstance(hook, WeightNorm) and hook.name == name:
            raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
    fn = WeightNorm(name, -1 if dim is None else dim)
    weight = getattr(module, name)
    del module._parameters[name]
    module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2, fn.dim).detach()))
    module.register_parameter(name + "_v", Parameter(weight.detach()))
    setattr(module, name, fn.compute_weight(module))
    module.register_forward_pre_hook(fn)
    return module


def remove_weight_norm(module: Module, name: str = "weight") -> Module:
    """Makes ``<name>`` a plain parameter again (its current value) and drops the hook."""
    for key, hook in list(module._forward_pre_hooks.items()):
        if isinstance(hook, WeightNorm) and hook.name == name:
            weight = hook.compute_weight(module)
            del module._forward_pre_hooks[key]
            del module._parameters[name + "_g"]
            del module._parameters[name + "_v"]
            module.__dict__.pop(name, None)
            module.register_parameter(name, Parameter(weight.detach()))
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
