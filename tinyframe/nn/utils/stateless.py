"""``nn.utils.stateless.functional_call``: run a module with other tensors in place of its
parameters and buffers (for meta-learning, per-sample gradients, ensembles)."""
from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from typing import Any

from ...tensor import Tensor
from ..modules.module import Module

__all__ = ["functional_call"]


@contextlib.contextmanager
def _reparametrize_module(module: Module, tensors: dict, strict: bool) -> Iterator[None]:
    """Swaps each named parameter or buffer (``"layer.weight"``) for the given tensor, and back."""
    known = {name for name, _ in module.named_parameters(remove_duplicate=False)}
    known |= {name for name, _ in module.named_buffers(remove_duplicate=False)}
    unexpected = sorted(set(tensors) - known)
    missing = sorted(known - set(tensors))
    if strict and (unexpected or missing):
        details = []
        if unexpected:
            details.append(f"Unexpected key(s): {', '.join(repr(k) for k in unexpected)}.")
        if missing:
            details.append(f"Missing key(s): {', '.join(repr(k) for k in missing)}.")
        raise RuntimeError("Error(s) in reparametrizing for " + type(module).__name__ + ":\n\t" + "\n\t".join(details))
    saved = []
    try:
        for name, tensor in tensors.items():
            owner_name, _, attr = name.rpartition(".")
            owner = module.get_submodule(owner_name) if owner_name else module
            table = owner._parameters if attr in owner._parameters else owner._buffers
            if attr not in table:
                raise AttributeError(f"{type(owner).__name__} has no parameter or buffer named '{attr}'")
            saved.append((table, attr, table[attr]))
            table[attr] = tensor
        yield
    finally:
        for table, attr, value in reversed(saved):
            table[attr] = value


def functional_call(module: Module, parameter_and_buffer_dicts: Any, args: Any = None, kwargs: Any = None, *,
                    tie_weights: bool = True, strict: bool = False) -> Any:
    """``module(*args, **kwargs)`` computed with the tensors of ``parameter_and_buffer_dicts`` (a
    dict, or a tuple of dicts, keyed like ``named_parameters``) in place of the module's own;
    gradients flow to those tensors. The module is unchanged afterwards."""
    warnings.warn("This API is deprecated as of PyTorch 2.0 and will be removed in a future version of PyTorch. "
                  "Please use torch.func.functional_call instead which is a drop-in replacement.", FutureWarning,
                  stacklevel=2)
    return _functional_call(module, parameter_and_buffer_dicts, args, kwargs, strict)


def _functional_call(module: Module, parameter_and_buffer_dicts: Any, args: Any, kwargs: Any, strict: bool) -> Any:
    if isinstance(parameter_and_buffer_dicts, dict):
        tensors = dict(parameter_and_buffer_dicts)
    else:
        tensors = {}
        for mapping in parameter_and_buffer_dicts:
            overlap = set(tensors) & set(mapping)
            if overlap:
                raise ValueError(f"{sorted(overlap)} appeared in multiple dictionaries; behavior of functional call "
                                 "is ambiguous")
            tensors.update(mapping)
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    for name, value in tensors.items():
        if not isinstance(value, Tensor):
            raise TypeError(f"functional_call: expected a Tensor for '{name}', got {type(value).__name__}")
    with _reparametrize_module(module, tensors, strict):
        return module(*args, **(kwargs or {}))
