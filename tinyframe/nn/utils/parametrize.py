"""``nn.utils.parametrize``: a tensor of a module computed from other parameters on each access.

``register_parametrization(module, "weight", p)`` moves ``module.weight`` to
``module.parametrizations.weight.original`` (or ``original0``, ``original1``, ... when
``p.right_inverse`` returns several tensors) and makes ``module.weight`` a property returning
``p(original)``. As in PyTorch, the module's class becomes ``Parametrized<Class>`` so the
property lives on a class of its own; state_dict keys follow the same names.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ...grad_mode import no_grad
from ...tensor import Tensor
from ..modules.container import ModuleDict, ModuleList
from ..modules.module import Module
from ..parameter import Parameter

__all__ = ["register_parametrization", "remove_parametrizations", "is_parametrized", "ParametrizationList",
           "cached", "type_before_parametrizations"]

_cache_enabled = 0
_cache: dict[tuple[int, str], Tensor] = {}


@contextmanager
def cached() -> Iterator[None]:
    """Inside this context each parametrized tensor is computed once, on first access, and reused."""
    global _cache_enabled
    _cache_enabled += 1
    try:
        yield
    finally:
        _cache_enabled -= 1
        if not _cache_enabled:
            _cache.clear()


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor, applied in order, and the original tensor(s) they map."""

    def __init__(self, modules: Sequence[Module], original: Tensor, unsafe: bool = False) -> None:
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        new: Any = original
        with no_grad():
            for module in reversed(list(self)):
                if hasattr(module, "right_inverse"):
                    try:
                        new = module.right_inverse(new)
                    except NotImplementedError:  # as in PyTorch: the original stays as it is
                        pass
        self.is_tensor = isinstance(new, Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            if new is not original:  # the same Parameter object stays registered, so optimizers keep it
                original.data = new.detach()
            if isinstance(original, Parameter):
                self.original = original
            else:
                self.register_buffer("original", original)
        else:
            for i, tensor in enumerate(new):
                setattr(self, f"original{i}", Parameter(tensor.detach().clone(), original.requires_grad))
        if not unsafe:  # PyTorch's consistency check runs the parametrization once (a power iteration, say)
            _check_unchanged(self(), original, "unparametrized", "parametrized")

    def right_inverse(self, value: Tensor) -> None:
        """Sets the original tensor(s) so that the parametrized tensor becomes ``value``."""
        with no_grad():
            for module in reversed(list(self)):
                if not hasattr(module, "right_inverse"):  # (assigning could not keep the parametrized value)
                    raise RuntimeError(f"parametrization {type(module).__name__} does not implement right_inverse.")
                value = module.right_inverse(value)
            if self.is_tensor:
                self.original.copy_(value)
            else:
                for i, tensor in enumerate(value):
                    getattr(self, f"original{i}").copy_(tensor)

    def forward(self) -> Tensor:
        modules = list(self)
        if self.is_tensor:
            x = modules[0](self.original)
        else:
            x = modules[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        for module in modules[1:]:
            x = module(x)
        return x


def _check_unchanged(value: Any, reference: Tensor, old: str, new: str) -> None:
    """A parametrization may not change the dtype or shape of the tensor (unless ``unsafe``)."""
    if not isinstance(value, Tensor):
        raise ValueError(f"A parametrization must return a tensor. Got {type(value).__name__}.")
    if value.dtype != reference.dtype:
        raise ValueError("Registering a parametrization may not change the dtype of the tensor, unless `unsafe` "
                         f"flag is enabled.\n{old} dtype: {reference.dtype}\n{new} dtype: {value.dtype}")
    if value.shape != reference.shape:
        raise ValueError("Registering a parametrization may not change the shape of the tensor, unless `unsafe` "
                         f"flag is enabled.\n{old} shape: {reference.shape}\n{new} shape: {value.shape}")


def _parametrized_class(module: Module) -> None:
    """Gives ``module`` a class of its own, ``Parametrized<Class>``, to hold the properties."""
    cls = module.__class__
    module.__class__ = type(f"Parametrized{cls.__name__}", (cls,), {})


def _inject_property(module: Module, tensor_name: str) -> None:
    def get_parametrized(self: Module) -> Tensor:
        if not _cache_enabled:
            return self.parametrizations[tensor_name]()
        key = (id(self), tensor_name)
        if key not in _cache:
            _cache[key] = self.parametrizations[tensor_name]()
        return _cache[key]

    def set_parametrized(self: Module, value: Tensor) -> None:
        self.parametrizations[tensor_name].right_inverse(value)

    setattr(module.__class__, tensor_name, property(get_parametrized, set_parametrized))


def register_parametrization(module: Module, tensor_name: str, parametrization: Module, *,
                             unsafe: bool = False) -> Module:
    """Makes ``module.<tensor_name>`` the output of ``parametrization`` applied to the original
    tensor (kept as ``module.parametrizations.<tensor_name>.original``); a second registration on
    the same name applies after the first."""
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            current = getattr(module, tensor_name)
            _check_unchanged(parametrization(current), current, f"module.{tensor_name}",
                             f"parametrization(module.{tensor_name})")
        module.parametrizations[tensor_name].append(parametrization)
        module.parametrizations[tensor_name].unsafe |= unsafe
        return module
    if tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        parametrizations = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _parametrized_class(module)
            module.parametrizations = ModuleDict()
        module.parametrizations[tensor_name] = parametrizations
        _inject_property(module, tensor_name)
        return module
    raise ValueError(f"Module '{module}' does not have a parameter, a buffer, or a parametrized element with name "
                     f"'{tensor_name}'")


def is_parametrized(module: Module, tensor_name: str | None = None) -> bool:
    """Whether ``module`` has any parametrization (on ``tensor_name``, when given)."""
    parametrizations = module._modules.get("parametrizations")
    if not isinstance(parametrizations, ModuleDict):
        return False
    return tensor_name is None or tensor_name in parametrizations


def type_before_parametrizations(module: Module) -> type:
    """The class of ``module`` before ``Parametrized<Class>`` took its place (its own class otherwise)."""
    return type(module).__bases__[0] if is_parametrized(module) else type(module)


def remove_parametrizations(module: Module, tensor_name: str, leave_parametrized: bool = True) -> Module:
    """Removes the parametrizations of ``tensor_name``: it becomes a plain Parameter again, holding
    the parametrized value (``leave_parametrized``) or the original one."""
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    parametrizations = module.parametrizations[tensor_name]
    if parametrizations.is_tensor:
        # As in PyTorch the original object stays (its id, requires_grad and Parameter/buffer kind), so
        # optimizers holding it need no update; it takes the parametrized value.
        original = parametrizations.original
        if leave_parametrized:
            with no_grad():
                original.data = getattr(module, tensor_name).detach()
    elif leave_parametrized:
        value = getattr(module, tensor_name)  # with grad mode on: requires_grad says if an original needed it
        original = Parameter(value.detach(), True) if value.requires_grad else value
    else:
        raise ValueError("Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is parametrized in "
                         "terms of a sequence of tensors.")
    delattr(module.__class__, tensor_name)
    del module.parametrizations._modules[tensor_name]
    if isinstance(original, Parameter):
        module.register_parameter(tensor_name, original)
    else:
        module.register_buffer(tensor_name, original)
    if not module.parametrizations._modules:
        delattr(module, "parametrizations")
        module.__class__ = module.__class__.__bases__[0]
    return module
