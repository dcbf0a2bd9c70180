"""Gradient hooks on tensors and ``retain_grad``."""
from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from .. import _graph


class RemovableHandle:
    """Returned by ``register_hook``; ``remove()`` unregisters the hook."""

    def __init__(self, hooks: list, hook: Callable) -> None:
        self._hooks, self._hook = hooks, hook

    def remove(self) -> None:
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)


def register_hook(tensor: Any, hook: Callable) -> RemovableHandle:
    """Runs ``hook(grad)`` on the gradient w.r.t. ``tensor``; a returned tensor replaces the gradient."""
    if not tensor.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    _check_single_output(tensor, "register_hook")
    if tensor.grad_fn is None:
        if tensor._hooks is None:
            tensor._hooks = []
        hooks = tensor._hooks
    else:
        tensor.grad_fn.register_prehook(hook)
        hooks = tensor.grad_fn._pre_hooks
    if hook not in hooks:
        hooks.append(hook)
    return RemovableHandle(hooks, hook)


def _check_single_output(tensor: Any, what: str) -> None:
    """Hooks live on the tensor's node, which for a custom Function with several outputs gets
    their gradients together."""
    if tensor.grad_fn is not None and tensor.grad_fn._output_shapes is not None:
        raise RuntimeError(f"{what} is not supported on an output of a custom Function with several outputs "
                           f"in tinyframe; call it on a view of that output instead (out = out.view_as(out))")


def register_post_accumulate_grad_hook(tensor: Any, hook: Callable) -> RemovableHandle:
    """Runs ``hook(tensor)`` each time backward has accumulated a gradient into this leaf's ``.grad``."""
    if not tensor.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    if tensor.grad_fn is not None:
        raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
    if tensor._post_accumulate_hooks is None:
        tensor._post_accumulate_hooks = []
    tensor._post_accumulate_hooks.append(hook)
    return RemovableHandle(tensor._post_accumulate_hooks, hook)


def retain_grad(tensor: Any) -> None:
    """Makes a non-leaf tensor keep its gradient in ``.grad`` (accumulating, as leaves do)."""
    if not tensor.requires_grad:
        raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
    if tensor.grad_fn is None or tensor._retains_grad:
        return
    _check_single_output(tensor, "retain_grad")
    tensor._retains_grad = True
    tensor.grad_fn.retained = weakref.ref(tensor)  # weak: the node must not keep its output alive


def store_retained(node: Any, g: Any) -> None:
    """Called by the engine with the gradient arriving at ``node``, after its hooks."""
    tensor = node.retained()
    if tensor is None:
        return
    wrapped = g if isinstance(g, _graph.Tensor) else _graph.wrap(g.copy())
    tensor._grad = wrapped if tensor._grad is None else tensor._grad + wrapped
