"""Gradient hooks on tensors and ``retain_grad``."""
from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from .. import _graph
from .._graph import RemovableHandle


class KeyedHandle(RemovableHandle):
    """Removes a hook registered in a keyed table (PyTorch keeps module and optimizer hooks in
    ``OrderedDict`` tables keyed by handle id, which code outside the library reads and sets)."""

    def __init__(self, table: OrderedDict, key: int) -> None:
        self._table, self._key = table, key

    def remove(self) -> None:
        self._table.pop(self._key, None)


def add_keyed_hook(table: OrderedDict, hook: Any, prepend: bool = False) -> RemovableHandle:
    """Adds ``hook`` to ``table`` under a fresh key (first, with ``prepend``) and returns its handle."""
    key = max(table, default=-1) + 1
    table[key] = hook
    if prepend:
        table.move_to_end(key, last=False)
    return KeyedHandle(table, key)


def register_hook(tensor: Any, hook: Callable) -> RemovableHandle:
    """Runs ``hook(grad)`` on the gradient w.r.t. ``tensor``; a returned tensor replaces the gradient."""
    if not tensor.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    node = tensor.grad_fn
    if node is None:
        if tensor._hooks is None:
            tensor._hooks = []
        hooks = tensor._hooks
    elif node._output_shapes is not None:  # a node of several outputs: the hook sees this output's gradient
        hooks = _output_hooks(node, tensor._output_nr)
    else:
        node._add_prehook(hook)
        hooks = node._pre_hooks
    if hook not in hooks:
        hooks.append(hook)
    return RemovableHandle(hooks, hook)


def _output_hooks(node: Any, output_nr: int) -> list:
    """The hooks on output ``output_nr`` of a node with several outputs (which gets their gradients
    together, ``OutputGrads``): the engine runs them on that output's gradient alone."""
    if node._output_hooks is None:
        node._output_hooks = {}
    return node._output_hooks.setdefault(output_nr, [])


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
    tensor._retains_grad = True
    if tensor.grad_fn._output_shapes is not None:  # one of several outputs: kept by a hook on its gradient
        _output_hooks(tensor.grad_fn, tensor._output_nr).append(_Retainer(tensor))
        return
    tensor.grad_fn.retained = weakref.ref(tensor)  # weak: the node must not keep its output alive
    tensor.grad_fn._direct = False


class _Retainer:
    """The hook that keeps an output's gradient in its ``.grad`` (a weak reference: the node must not
    keep its output alive)."""

    def __init__(self, tensor: Any) -> None:
        self.tensor = weakref.ref(tensor)

    def __call__(self, g: Any) -> None:
        tensor = self.tensor()
        if tensor is not None:
            g = g if g._requires_grad else _graph.wrap(g._data.copy())
            tensor._grad = g if tensor._grad is None else tensor._grad + g


def store_retained(node: Any, g: Any) -> None:
    """Called by the engine with the gradient arriving at ``node``, after its hooks."""
    tensor = node.retained()
    if tensor is None:
        return
    wrapped = g if isinstance(g, _graph.Tensor) else _graph.wrap(g.copy())
    tensor._grad = wrapped if tensor._grad is None else tensor._grad + wrapped
