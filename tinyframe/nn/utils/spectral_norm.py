"""``nn.utils.spectral_norm`` (PyTorch's older hook form; ``parametrizations.spectral_norm`` is the
newer): parameter ``<name>_orig``, buffers ``<name>_u`` / ``<name>_v``, and a forward pre-hook that
sets ``<name> = <name>_orig / sigma`` after one power-iteration step in training mode."""
from __future__ import annotations

from typing import Any

from ...grad_mode import no_grad
from ...ops import binary, linalg
from ...ops import reduction as reductions
from ...ops import shape as shape_ops
from ...tensor import Tensor
from .. import functional as F
from ..modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from ..modules.module import Module
from ..parameter import Parameter

__all__ = ["spectral_norm", "remove_spectral_norm", "SpectralNorm"]


class SpectralNorm:
    """The forward pre-hook: ``weight = weight_orig / (u . W v)``, ``u``, ``v`` refined in training."""

    def __init__(self, name: str = "weight", n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12) -> None:
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.name, self.dim, self.n_power_iterations, self.eps = name, dim, n_power_iterations, eps

    def reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        if self.dim != 0:
            weight = shape_ops.permute(weight, self.dim, *(d for d in range(weight.ndim) if d != self.dim))
        return weight.reshape(weight.shape[0], -1)

    def compute_weight(self, module: Module, do_power_iteration: bool) -> Tensor:
        weight = getattr(module, self.name + "_orig")
        u, v = getattr(module, self.name + "_u"), getattr(module, self.name + "_v")
        matrix = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with no_grad():
                for _ in range(self.n_power_iterations):
                    F.normalize(linalg.mv(shape_ops.transpose(matrix, 0, 1), u), dim=0, eps=self.eps, out=v)
                    F.normalize(linalg.mv(matrix, v), dim=0, eps=self.eps, out=u)
            u, v = u.clone(), v.clone()
        sigma = reductions.sum(binary.mul(u, linalg.mv(matrix, v)))
        return binary.div(weight, sigma)

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module, do_power_iteration=module.training))


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12,
                  dim: int | None = None) -> Module:
    """Divides ``module.<name>`` by its spectral norm before every forward (see the module docstring)."""
    for hook in module._forward_pre_hooks.values():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            raise RuntimeError(f"Cannot register two spectral_norm hooks on the same parameter {name}")
    if dim is None:
        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)) else 0
    fn = SpectralNorm(name, n_power_iterations, dim, eps)
    weight = module._parameters[name]
    with no_grad():
        rows, cols = fn.reshape_weight_to_matrix(weight).shape
        u = F.normalize(weight.new_empty(rows).normal_(0, 1), dim=0, eps=eps)
        v = F.normalize(weight.new_empty(cols).normal_(0, 1), dim=0, eps=eps)
    del module._parameters[name]
    module.register_parameter(name + "_orig", weight)
    setattr(module, name, weight.detach())
    module.register_buffer(name + "_u", u)
    module.register_buffer(name + "_v", v)
    module.register_forward_pre_hook(fn)
    return module


def remove_spectral_norm(module: Module, name: str = "weight") -> Module:
    """Makes ``<name>`` a plain parameter again (its current normalised value) and drops the hook."""
    for key, hook in list(module._forward_pre_hooks.items()):
        if isinstance(hook, SpectralNorm) and hook.name == name:
            with no_grad():
                weight = hook.compute_weight(module, do_power_iteration=False)
            del module._forward_pre_hooks[key]
            del module._parameters[name + "_orig"]
            del module._buffers[name + "_u"]
            del module._buffers[name + "_v"]
            module.__dict__.pop(name, None)
            module.register_parameter(name, Parameter(weight.detach()))
            return module
    raise ValueError(f"spectral_norm of '{name}' not found in {module}")
