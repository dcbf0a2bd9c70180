"""``Module``: the base class of every layer and model, with PyTorch's registration and state rules."""
from __future__ import annotations

import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from ... import creation, dtypes, grad_mode
from ..._toplevel import typename
from ...autograd.hooks import RemovableHandle, add_keyed_hook
from ...device import NO_DATA, array_module_of, as_device, check_dtype_on, device_of, move_array
from ...ops import shape as shape_ops
from ...tensor import Tensor, parse_to_arguments
from ..parameter import Buffer, Parameter
from ._backward_hooks import call_with_backward_hooks

__all__ = ["Module", "register_module_forward_hook", "register_module_forward_pre_hook",
           "register_module_parameter_registration_hook", "register_module_buffer_registration_hook",
           "register_module_module_registration_hook"]

_EXTRA_STATE = "_extra_state"  # the state_dict key suffix of a module's get_extra_state(), as in PyTorch


class _IncompatibleKeys(NamedTuple):
    missing_keys: list
    unexpected_keys: list

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self.missing_keys}, unexpected_keys={self.unexpected_keys})"


class Module:
    """Base class for all neural network modules.

    Assigning a ``Parameter``, a ``Module`` or (through ``register_buffer``) a buffer to an
    attribute registers it; parameters, buffers and sub-modules are kept in insertion order.
    Subclasses define ``forward``; call the module itself, which runs hooks around ``forward``.
    """

    training: bool
    _version: int = 1  # saved in state_dict()._metadata; a layer whose saved state changed bumps it

    def __init__(self) -> None:
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent_buffers", set())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "_forward_hooks", OrderedDict())
        object.__setattr__(self, "_forward_pre_hooks", OrderedDict())
        object.__setattr__(self, "_backward_hooks", OrderedDict())
        object.__setattr__(self, "_backward_pre_hooks", OrderedDict())

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        backward_hooks = self._backward_hooks or self._backward_pre_hooks
        if (not self._forward_pre_hooks and not self._forward_hooks and not backward_hooks
                and not _GLOBAL_FORWARD_HOOKS and not _GLOBAL_FORWARD_PRE_HOOKS):
            return self.forward(*args, **kwargs)  # called here, so that forward's warnings name the caller's line
        if backward_hooks and grad_mode.is_grad_enabled():
            return call_with_backward_hooks(self, args, kwargs)
        return self._forward_with_hooks(args, kwargs)

    def _forward_with_hooks(self, args: tuple, kwargs: dict) -> Any:
        """``forward`` between the forward pre-hooks and hooks (the global ones first, as PyTorch)."""
        pre_hooks = [*_GLOBAL_FORWARD_PRE_HOOKS.values(), *self._forward_pre_hooks.values()]
        hooks = [*_GLOBAL_FORWARD_HOOKS.values(), *self._forward_hooks.values()]
        for hook in pre_hooks:
            if isinstance(hook, _WithKwargs):
                result = hook.hook(self, args, kwargs)
                if result is not None:
                    args, kwargs = result
                continue
            result = hook(self, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
        try:
            output = self.forward(*args, **kwargs)
        except Exception:
            self._run_always_called(args, kwargs)
            raise
        for hook in hooks:
            result = _run_forward_hook(self, hook, args, kwargs, output)
            if result is not None:
                output = result
        return output

    def _run_always_called(self, args: tuple, kwargs: dict) -> None:
        """After ``forward`` raised: the hooks registered with ``always_call``, given None for the output;
        what they raise is silenced (with a warning), the forward's exception goes on."""
        for kind, table in (("global module", _GLOBAL_FORWARD_HOOKS), ("module", self._forward_hooks)):
            for hook in list(table.values()):
                if isinstance(hook, _AlwaysCalled):
                    try:
                        _run_forward_hook(self, hook, args, kwargs, None)
                    except Exception as exc:
                        warnings.warn(f"{kind} forward hook with ``always_call=True`` raised an exception that was "
                                      f"silenced as another error was raised in forward: {exc}", stacklevel=3)

    # ----------------------------------------------------------------- registration
    def __setattr__(self, name: str, value: Any) -> None:
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign to a Module before Module.__init__() call")
        if isinstance(value, Parameter):
            self._drop(name, keep=self._parameters)
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            self._drop(name, keep=self._modules)
            self._modules[name] = _registered(_GLOBAL_MODULE_REGISTRATION_HOOKS, self, name, value)
        elif isinstance(value, Buffer):
            self._drop(name, keep=self._buffers)
            self.register_buffer(name, value, persistent=value.persistent)
        elif name in self._parameters:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                                "(tinyframe.nn.Parameter or None expected)")
            self._parameters[name] = None
        elif name in self._buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' "
                                "(tinyframe.nn.Buffer, tinyframe.Tensor or None expected)")
            self._buffers[name] = _registered(_GLOBAL_BUFFER_REGISTRATION_HOOKS, self, name, value)
        else:
            object.__setattr__(self, name, value)

    def _drop(self, name: str, keep: dict | None = None) -> None:
        """Forgets ``name`` everywhere but in ``keep``, the table it is being assigned to again, where
        it keeps its place (a replaced layer of a Sequential stays where it was), as in PyTorch."""
        self.__dict__.pop(name, None)
        for table in (self._parameters, self._buffers, self._modules):
            if table is not keep:
                table.pop(name, None)
        self._non_persistent_buffers.discard(name)

    def __getattr__(self, name: str) -> Any:
        state = self.__dict__
        for table in ("_parameters", "_buffers", "_modules"):
            if table in state and name in state[table]:
                return state[table][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        if name in self._parameters or name in self._buffers or name in self._modules:
            self._drop(name)
        else:
            object.__delattr__(self, name)

    def __dir__(self) -> list:
        return sorted(set(super().__dir__()) | set(self._parameters) | set(self._buffers) | set(self._modules))

    def _check_name(self, name: str, kind: str, table: dict) -> None:
        """PyTorch's checks of a new parameter, buffer or module name; ``table`` is where it goes, so
        a name already there may be reassigned, while any other attribute of that name may not."""
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
        if kind == "module" and hasattr(self, name) and name not in table:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain "."' + (f", got: {name}" if kind == "module" else ""))
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')
        if kind != "module" and hasattr(self, name) and name not in table:
            raise KeyError(f"attribute '{name}' already exists")

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Adds a parameter (or None) under ``name``."""
        self._check_name(name, "parameter", self._parameters)
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{typename(param)}' object to parameter '{name}' "
                            "(tinyframe.nn.Parameter or None required)")
        if param is not None and param.grad_fn is not None:
            raise ValueError(f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must "
                             "be created explicitly; to express a parameter as a function of another "
                             "Tensor, compute the value in the forward() method.")
        if param is not None:
            param = _registered(_GLOBAL_PARAMETER_REGISTRATION_HOOKS, self, name, param)
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Adds a buffer: state that is not a parameter (running statistics); persistent buffers are
        part of ``state_dict``."""
        self._check_name(name, "buffer", self._buffers)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                            "(tinyframe.Tensor or None required)")
        if isinstance(tensor, Buffer):
            tensor = Tensor._make(tensor._data)
        self._buffers[name] = _registered(_GLOBAL_BUFFER_REGISTRATION_HOOKS, self, name, tensor)
        if persistent:
            self._non_persistent_buffers.discard(name)
        else:
            self._non_persistent_buffers.add(name)

    def register_module(self, name: str, module: Module | None) -> None:
        """Adds a child module (or None) under ``name``."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{typename(module)} is not a Module subclass")
        self._check_name(name, "module", self._modules)
        self._modules[name] = _registered(_GLOBAL_MODULE_REGISTRATION_HOOKS, self, name, module)

    add_module = register_module

    def register_forward_hook(self, hook: Callable, *, prepend: bool = False, with_kwargs: bool = False,
                              always_call: bool = False) -> RemovableHandle:
        """``hook(module, args, output)`` (``hook(module, args, kwargs, output)`` with ``with_kwargs``)
        runs after ``forward``; a returned value replaces the output. ``prepend`` runs it first."""
        return self._add_hook(self._forward_hooks, _forward_hook(hook, with_kwargs, always_call), prepend)

    def register_forward_pre_hook(self, hook: Callable, *, prepend: bool = False,
                                  with_kwargs: bool = False) -> RemovableHandle:
        """``hook(module, args)`` runs before ``forward``; a returned value replaces the args. With
        ``with_kwargs``, ``hook(module, args, kwargs)`` may return a new ``(args, kwargs)``."""
        return self._add_hook(self._forward_pre_hooks, _WithKwargs(hook) if with_kwargs else hook, prepend)

    def register_full_backward_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(module, grad_input, grad_output)`` runs when the gradients with respect to the
        module's positional Tensor inputs are computed; a returned tuple replaces ``grad_input``."""
        return self._add_hook(self._backward_hooks, hook)

    def register_full_backward_pre_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(module, grad_output)`` runs when the gradients with respect to the module's outputs
        are computed; a returned tuple replaces ``grad_output``."""
        return self._add_hook(self._backward_pre_hooks, hook)

    def register_state_dict_pre_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(module, prefix, keep_vars)`` runs before ``state_dict`` collects this module's tensors."""
        return self._add_hook(self._hook_table("_state_dict_pre_hooks"), hook)

    def register_state_dict_post_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(module, state_dict, prefix, local_metadata)`` runs after ``state_dict`` collected this
        module and its children; it may change ``state_dict`` in place and must return None."""
        return self._add_hook(self._hook_table("_state_dict_hooks"), _PublicStateDictHook(hook))

    def _register_state_dict_hook(self, hook: Callable) -> RemovableHandle:
        """As ``register_state_dict_post_hook``, but a returned dict replaces the state dict (PyTorch's
        older private form, which public code uses)."""
        return self._add_hook(self._hook_table("_state_dict_hooks"), hook)

    def register_load_state_dict_pre_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(module, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
        error_msgs)`` runs before ``load_state_dict`` reads this module's entries; it may rename them."""
        return self._add_hook(self._hook_table("_load_state_dict_pre_hooks"), hook)

    def _register_load_state_dict_pre_hook(self, hook: Callable, with_module: bool = False) -> RemovableHandle:
        """As ``register_load_state_dict_pre_hook``; without ``with_module`` the hook gets no module."""
        return self._add_hook(self._hook_table("_load_state_dict_pre_hooks"),
                              hook if with_module else _WithoutModule(hook))

    def register_load_state_dict_post_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(module, incompatible_keys)`` runs after ``load_state_dict`` loaded this module and its
        children; it may edit ``incompatible_keys.missing_keys`` / ``unexpected_keys`` before ``strict``
        is checked, and must return None."""
        return self._add_hook(self._hook_table("_load_state_dict_post_hooks"), hook)

    def _hook_table(self, name: str) -> OrderedDict:
        """The hook table ``name``, made on first use (most modules never get state-dict hooks)."""
        if name not in self.__dict__:
            object.__setattr__(self, name, OrderedDict())
        table: OrderedDict = self.__dict__[name]
        return table

    def _hooks(self, name: str) -> list:
        return list(self.__dict__.get(name, {}).values())

    _add_hook = staticmethod(add_keyed_hook)

    # ----------------------------------------------------------------- traversal
    def named_modules(self, memo: set | None = None, prefix: str = "", remove_duplicate: bool = True) -> Iterator:
        """Yields ``(name, module)`` for this module and every descendant, depth first."""
        memo = set() if memo is None else memo
        if remove_duplicate and self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is not None:
                yield from module.named_modules(memo, f"{prefix}.{name}" if prefix else name, remove_duplicate)

    def modules(self) -> Iterator[Module]:
        for _, module in self.named_modules():
            yield module

    def named_children(self) -> Iterator:
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self) -> Iterator[Module]:
        for _, module in self.named_children():
            yield module

    def _named_members(self, table: str, prefix: str, recurse: bool, remove_duplicate: bool) -> Iterator:
        seen = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            for name, value in getattr(module, table).items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                seen.add(id(value))
                yield (f"{module_prefix}.{name}" if module_prefix else name), value

    def named_parameters(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True) -> Iterator:
        """Yields ``(name, parameter)`` in registration order, each shared parameter once."""
        return self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True) -> Iterator:
        return self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def get_parameter(self, target: str) -> Parameter:
        """The parameter at the dotted path ``target`` (``"0.weight"``)."""
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if name not in module._parameters:
            raise AttributeError(f"`{name}` is not an nn.Parameter" if hasattr(module, name)
                                 else f"{module._get_name()} has no attribute `{name}`")
        return module._parameters[name]

    def get_buffer(self, target: str) -> Tensor:
        """The buffer at the dotted path ``target`` (``"bn.running_mean"``)."""
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if name not in module._buffers:
            raise AttributeError(f"`{name}` is not a buffer" if hasattr(module, name)
                                 else f"{module._get_name()} has no attribute `{name}`")
        return module._buffers[name]

    def get_submodule(self, target: str) -> Module:
        """The submodule at the dotted path ``target`` (``"layer1.0.conv1"``; ``""`` is this module)."""
        module = self
        for part in target.split(".") if target else []:
            if not hasattr(module, part):
                raise AttributeError(f"{module._get_name()} has no attribute `{part}`")
            module = getattr(module, part)
            if not isinstance(module, Module):
                raise AttributeError(f"`{part}` is not an nn.Module")
        return module

    def set_submodule(self, target: str, module: Module, strict: bool = False) -> None:
        """Puts ``module`` at the dotted path ``target``, replacing what is there; the parent must exist,
        and with ``strict`` the name must too."""
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        if not isinstance(module, Module):
            raise ValueError(f"`module` is not an nn.Module, found {type(module)}")
        parent_path, _, name = target.rpartition(".")
        parent = self.get_submodule(parent_path)
        if strict and not hasattr(parent, name):
            raise AttributeError(f"{parent._get_name()} has no attribute `{name}`")
        if hasattr(parent, name) and not isinstance(getattr(parent, name), Module):
            raise AttributeError(f"`{name}` is not an nn.Module")
        setattr(parent, name, module)

    # ----------------------------------------------------------------- modes and state
    def train(self, mode: bool = True) -> Module:
        """Sets training mode (Dropout drops, BatchNorm uses batch statistics) here and below."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        object.__setattr__(self, "training", mode)
        for module in self.children():  # through each child's train(), which subclasses may override
            module.train(mode)
        return self

    def eval(self) -> Module:
        """Sets evaluation mode; the same as ``train(False)``."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Resets the gradients of all parameters: to None by default, else to zeros in place."""
        for param in self.parameters():
            if param.grad is None:
                continue
            if set_to_none:
                param.grad = None
            else:
                param.grad.detach_()
                param.grad.zero_()

    def apply(self, fn: Callable[[Module], None]) -> Module:
        """Calls ``fn`` on every sub-module (children first), then on this module."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # ----------------------------------------------------------------- devices and dtypes
    def to(self, *args: Any, **kwargs: Any) -> Module:
        """Moves and/or casts parameters and buffers in place: ``to(device)``, ``to(dtype)``,
        ``to(device, dtype)``, ``to(memory_format=...)`` (for those of 4 or 5 dimensions). Parameters stay
        the same objects, so optimizers keep working; only floating parameters and buffers change dtype."""
        target_device, target_dtype, _, target_format = parse_to_arguments(args, kwargs)
        if target_dtype is not None and not (target_dtype.is_floating_point or target_dtype.numpy.kind == "c"):
            raise TypeError("nn.Module.to only accepts floating point or complex dtypes, but got desired "
                            f"dtype={target_dtype}")
        return self._convert(target_device, target_dtype, target_format)

    def _convert(self, target_device: Any, target_dtype: dtypes.dtype | None, target_format: Any = None) -> Module:
        def convert(array: Any) -> Any:
            if target_dtype is not None and dtypes.kind(array.dtype) == "f" and array.dtype != target_dtype.numpy:
                check_dtype_on(target_dtype.numpy, device_of(array))
                array = array.astype(target_dtype.numpy)
            if target_format is not None and array.ndim in (4, 5) and not shape_ops.is_contiguous(array, target_format):
                order = creation.format_order(array, target_format)
                array = shape_ops.copy_in_order(array_module_of(array), array, order)
            if target_device is None:
                return array
            if device_of(array).type == "meta" and target_device.type != "meta":
                raise NotImplementedError(f"{NO_DATA} Please use torch.nn.Module.to_empty() instead of "
                                          "torch.nn.Module.to() when moving module from meta to a different device.")
            return move_array(array, target_device)

        for module in self.modules():
            for param in module._parameters.values():
                if param is None:
                    continue
                param._data = convert(param._data)
                param._accumulator = None  # its AccumulateGrad recorded the old dtype
                if param._grad is not None:
                    param._grad._data = convert(param._grad._data)
            for buffer in module._buffers.values():
                if buffer is not None:
                    buffer._data = convert(buffer._data)
        return self

    def to_empty(self, *, device: Any, recurse: bool = True) -> Module:
        """Gives every parameter and buffer (of submodules too, unless ``recurse=False``) new, uninitialised
        storage of its shape and dtype on ``device``: how a module built on the ``meta`` device is
        materialised, before ``reset_parameters()`` or ``load_state_dict`` fills it. Parameters stay the
        same objects."""
        target = as_device(device)
        for module in self.modules() if recurse else (self,):
            for tensor in (*module._parameters.values(), *module._buffers.values()):
                if tensor is not None:
                    tensor._data = creation.empty(tuple(tensor.shape), dtype=tensor.dtype, device=target)._data
                    tensor._accumulator = None
        return self

    def share_memory(self) -> Module:
        """Calls :meth:`Tensor.share_memory_` on every parameter, its gradient and every buffer."""
        for module in self.modules():
            tensors = [*module._parameters.values(), *module._buffers.values()]
            tensors += [param.grad for param in module._parameters.values() if param is not None]
            for tensor in tensors:
                if tensor is not None:
                    tensor.share_memory_()
        return self

    def cpu(self) -> Module:
        return self._convert(as_device("cpu"), None)

    def cuda(self, device: Any = None) -> Module:
        return self._convert(as_device("cuda" if device is None else f"cuda:{getattr(device, 'index', device)}"), None)

    def float(self) -> Module:
        return self._convert(None, dtypes.float32)

    def double(self) -> Module:
        return self._convert(None, dtypes.float64)

    def half(self) -> Module:
        return self._convert(None, dtypes.float16)

    def bfloat16(self) -> Module:
        """Casts the floating parameters and buffers to bfloat16 in place."""
        return self._convert(None, dtypes.bfloat16)

    def type(self, dst_type: Any) -> Module:
        return self._convert(None, dtypes.as_dtype(dst_type))

    # ----------------------------------------------------------------- state_dict
    def state_dict(self, *, destination: OrderedDict | None = None, prefix: str = "",
                   keep_vars: bool = False) -> OrderedDict:
        """An ordered dict of every parameter and persistent buffer, keyed by dotted name.

        The values share storage with the module's tensors (detached unless ``keep_vars``).
        """
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()  # type: ignore[attr-defined]  # PyTorch's attribute
        local_metadata = {"version": self._version}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in self._hooks("_state_dict_pre_hooks"):
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=f"{prefix}{name}.", keep_vars=keep_vars)
        for hook in self._hooks("_state_dict_hooks"):
            result = hook(self, destination, prefix, local_metadata)
            if result is not None:
                if isinstance(hook, _PublicStateDictHook):
                    raise RuntimeError("state_dict post-hook must return None")
                destination = result
        return destination

    def _save_to_state_dict(self, destination: dict, prefix: str, keep_vars: bool) -> None:
        """Puts this module's own parameters, persistent buffers and extra state (not its children's) into
        ``destination`` (layers override it, as in PyTorch)."""
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buffer in self._buffers.items():
            if buffer is not None and name not in self._non_persistent_buffers:
                destination[prefix + name] = buffer if keep_vars else buffer.detach()
        if type(self).get_extra_state is not Module.get_extra_state:
            destination[prefix + _EXTRA_STATE] = self.get_extra_state()

    def get_extra_state(self) -> Any:
        """The extra state (any picklable object) that ``state_dict`` stores under ``_extra_state``, for a
        module that overrides this together with ``set_extra_state``."""
        raise RuntimeError("Reached a code path in Module.get_extra_state() that should never be called. Please "
                           "file an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml "
                           "to report this bug.")

    def set_extra_state(self, state: Any) -> None:
        """Restores the extra state ``get_extra_state`` returned, from ``load_state_dict``."""
        raise RuntimeError("Reached a code path in Module.set_extra_state() that should never be called. Please "
                           "file an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml "
                           "to report this bug.")

    def load_state_dict(self, state_dict: dict, strict: bool = True, assign: bool = False) -> _IncompatibleKeys:
        """Copies parameters and buffers from ``state_dict`` into this module (in place, keeping the
        Parameter objects; with ``assign``, the given tensors take their places). Returns
        ``(missing_keys, unexpected_keys)``; with ``strict`` any of them, or any shape mismatch, raises a
        RuntimeError listing every problem (after the entries that fit were loaded, as in PyTorch).

        As in PyTorch, each module loads its own entries in ``_load_from_state_dict`` (which layers
        override to read older layouts), then its children theirs from the entries under their prefix."""
        if not isinstance(state_dict, dict):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict).__name__}.")
        metadata = getattr(state_dict, "_metadata", {})
        state_dict = self._upgraded(state_dict)
        missing: list = []
        unexpected: list = []
        errors: list = []
        self._load_tree(state_dict, "", metadata, assign, (missing, unexpected, errors))
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: " + ", ".join(f'"{k}"' for k in unexpected) + ". ")
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ". ")
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {self._get_name()}:\n\t" + "\n\t".join(errors))
        return _IncompatibleKeys(missing, unexpected)

    def _load_tree(self, local_state: dict, prefix: str, metadata: dict, assign: bool, found: tuple) -> None:
        """Loads this module, then each child from the entries under its prefix, then runs this module's
        post-hooks (``found``: the missing keys, unexpected keys and errors, filled in as they are met)."""
        local_metadata = dict(metadata.get(prefix[:-1], {}))
        if assign:
            local_metadata["assign_to_params_buffers"] = True
        self._load_from_state_dict(local_state, prefix, local_metadata, True, *found)
        for name, child in self._modules.items():
            if child is not None:
                child_prefix = f"{prefix}{name}."
                child._load_tree({k: v for k, v in local_state.items() if k.startswith(child_prefix)}, child_prefix,
                                 metadata, assign, found)
        incompatible = _IncompatibleKeys(found[0], found[1])
        for hook in self._hooks("_load_state_dict_post_hooks"):
            if hook(self, incompatible) is not None:
                raise AssertionError("Hooks registered with ``register_load_state_dict_post_hook`` are not "
                                     "expected to return new values, if incompatible_keys need to be modified, "
                                     "it should be done inplace.")

    def _load_from_state_dict(self, state_dict: dict, prefix: str, local_metadata: dict, strict: bool,
                              missing_keys: list, unexpected_keys: list, error_msgs: list) -> None:
        """Copies this module's own parameters and persistent buffers (not its children's) from the entries
        ``prefix + name`` of ``state_dict``, after its load-state-dict pre-hooks ran; records what is
        missing, what names nothing here (with ``strict``) and what does not fit in the three lists."""
        for hook in self._hooks("_load_state_dict_pre_hooks"):
            hook(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        assign = local_metadata.get("assign_to_params_buffers", False)
        local = {name: t for name, t in self._parameters.items() if t is not None}
        local.update((name, t) for name, t in self._buffers.items()
                     if t is not None and name not in self._non_persistent_buffers)
        for name, target in local.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            source = state_dict[key]
            if not isinstance(source, Tensor):
                error_msgs.append(f'While copying the parameter named "{key}", expected a Tensor '
                                  f"from checkpoint but received {type(source)}")
            elif source.shape != target.shape:
                error_msgs.append(f"size mismatch for {key}: copying a param with shape {source.shape} from "
                                  f"checkpoint, the shape in current model is {target.shape}.")
            elif assign:
                setattr(self, name, Parameter(source, target.requires_grad) if isinstance(target, Parameter)
                        and not isinstance(source, Parameter) else source)
            elif target.is_meta and not source.is_meta:
                warnings.warn(f"for {key}: copying from a non-meta parameter in the checkpoint to a meta parameter in "
                              "the current model, which is a no-op. (Did you mean to pass `assign=True` to assign "
                              "items in the state dictionary to their corresponding key in the module instead of "
                              "copying them in place?)", stacklevel=4)
            else:
                target._data[...] = move_array(source._data, target.device).astype(target._data.dtype, copy=False)
                target._bump_version()
        extra_key = prefix + _EXTRA_STATE
        if type(self).set_extra_state is not Module.set_extra_state:
            if extra_key in state_dict:
                self.set_extra_state(state_dict[extra_key])
            elif strict:
                missing_keys.append(extra_key)
        elif strict and extra_key in state_dict:
            unexpected_keys.append(extra_key)
        if strict:
            for key in state_dict:
                if key.startswith(prefix) and key != extra_key:
                    first, dot, _ = key[len(prefix):].partition(".")
                    if first not in self._modules if dot else first not in local:  # a dotted name is a child's
                        unexpected_keys.append(key)

    def _upgraded(self, state_dict: dict) -> OrderedDict:
        """A copy of ``state_dict`` where each module has brought what it saved at an older
        ``_version`` (read from ``state_dict._metadata``; none: unknown) up to date."""
        metadata = getattr(state_dict, "_metadata", {})
        state_dict = OrderedDict(state_dict)
        for name, module in self.named_modules(remove_duplicate=False):
            version = metadata.get(name, {}).get("version")
            module._upgrade_state_dict(state_dict, f"{name}." if name else "", version)
        return state_dict

    def _upgrade_state_dict(self, state_dict: OrderedDict, prefix: str, version: int | None) -> None:
        """Brings this module's entries (under ``prefix``) saved at ``version`` up to ``_version``."""

    # ----------------------------------------------------------------- printing
    def _get_name(self) -> str:
        return type(self).__name__

    def extra_repr(self) -> str:
        """The module's own settings, shown inside its ``repr`` (override in layers)."""
        return ""

    def __repr__(self) -> str:
        lines = []
        extra = self.extra_repr()
        if extra:
            lines.extend(extra.split("\n"))
        for name, module in self._modules.items():
            child = repr(module).replace("\n", "\n  ")
            lines.append(f"({name}): {child}")
        if not lines:
            return f"{self._get_name()}()"
        if len(lines) == 1 and not self._modules:
            return f"{self._get_name()}({lines[0]})"
        return f"{self._get_name()}(\n  " + "\n  ".join(lines) + "\n)"


class _WithKwargs:
    """A forward (pre-)hook registered with ``with_kwargs=True``: it also gets the keyword arguments."""

    def __init__(self, hook: Callable) -> None:
        self.hook = hook


class _AlwaysCalled:
    """A forward hook registered with ``always_call=True``: it also runs when ``forward`` raised."""

    def __init__(self, hook: Callable | _WithKwargs) -> None:
        self.hook = hook


def _forward_hook(hook: Callable, with_kwargs: bool, always_call: bool) -> Callable | _WithKwargs | _AlwaysCalled:
    wrapped = _WithKwargs(hook) if with_kwargs else hook
    return _AlwaysCalled(wrapped) if always_call else wrapped


def _run_forward_hook(module: Module, hook: Any, args: tuple, kwargs: dict, output: Any) -> Any:
    if isinstance(hook, _AlwaysCalled):
        hook = hook.hook
    if isinstance(hook, _WithKwargs):
        return hook.hook(module, args, kwargs, output)
    return hook(module, args, output)


_GLOBAL_FORWARD_HOOKS: OrderedDict = OrderedDict()
_GLOBAL_FORWARD_PRE_HOOKS: OrderedDict = OrderedDict()


def register_module_forward_pre_hook(hook: Callable) -> RemovableHandle:
    """A forward pre-hook ``hook(module, args)`` for every module, run before each module's own."""
    return Module._add_hook(_GLOBAL_FORWARD_PRE_HOOKS, hook)


def register_module_forward_hook(hook: Callable, *, with_kwargs: bool = False,
                                 always_call: bool = False) -> RemovableHandle:
    """A forward hook ``hook(module, args, output)`` for every module, run before each module's own."""
    return Module._add_hook(_GLOBAL_FORWARD_HOOKS, _forward_hook(hook, with_kwargs, always_call))


_GLOBAL_PARAMETER_REGISTRATION_HOOKS: OrderedDict = OrderedDict()
_GLOBAL_BUFFER_REGISTRATION_HOOKS: OrderedDict = OrderedDict()
_GLOBAL_MODULE_REGISTRATION_HOOKS: OrderedDict = OrderedDict()


def _registered(hooks: OrderedDict, module: Module, name: str, value: Any) -> Any:
    """``value`` as the global registration ``hooks`` leave it: each may return a replacement."""
    for hook in list(hooks.values()):
        output = hook(module, name, value)
        if output is not None:
            value = output
    return value


def register_module_parameter_registration_hook(hook: Callable) -> RemovableHandle:
    """``hook(module, name, param)`` runs whenever any module registers a parameter (not None); a
    returned value replaces the parameter."""
    return Module._add_hook(_GLOBAL_PARAMETER_REGISTRATION_HOOKS, hook)


def register_module_buffer_registration_hook(hook: Callable) -> RemovableHandle:
    """``hook(module, name, buffer)`` runs whenever any module registers or assigns a buffer (None
    too); a returned value replaces the buffer."""
    return Module._add_hook(_GLOBAL_BUFFER_REGISTRATION_HOOKS, hook)


def register_module_module_registration_hook(hook: Callable) -> RemovableHandle:
    """``hook(module, name, submodule)`` runs whenever any module registers a submodule (None too); a
    returned value replaces the submodule."""
    return Module._add_hook(_GLOBAL_MODULE_REGISTRATION_HOOKS, hook)


class _PublicStateDictHook:
    """A hook from ``register_state_dict_post_hook``, which may not return a new state dict."""

    def __init__(self, hook: Callable) -> None:
        self.hook = hook

    def __call__(self, *args: Any) -> Any:
        return self.hook(*args)


class _WithoutModule:
    """A load_state_dict pre-hook registered without ``with_module``: called without the module."""

    def __init__(self, hook: Callable) -> None:
        self.hook = hook

    def __call__(self, module: Module, *args: Any) -> Any:
        return self.hook(*args)
