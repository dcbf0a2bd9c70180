"""Activation checkpointing, like ``torch.utils.checkpoint``: trade compute for memory by running a
part of the model without keeping its intermediate activations, and running it again in backward.

``checkpoint(fn, *args, use_reentrant=False)`` returns what ``fn(*args)`` returns; the graph holds
one node for the whole call, which keeps only ``args``. Its backward re-runs ``fn`` on detached
copies of ``args`` with grad enabled (with the CPU random state the forward saw, so dropout draws
the same masks) and differentiates that recomputation. The gradients equal those without
checkpointing.
"""
from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable
from typing import Any

from .. import grad_mode, random
from ..autograd.engine import backward as autograd_backward
from ..autograd.engine import grad as autograd_grad
from ..autograd.function import Function
from ..autograd.node import AccumulateGrad
from ..tensor import Tensor

__all__ = ["checkpoint", "checkpoint_sequential"]

_USE_REENTRANT_WARNING = (
    "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting in PyTorch 2.9, "
    "calling checkpoint without use_reentrant will raise an exception. use_reentrant=False is recommended, but if "
    "you need to preserve the current default behavior, you can pass use_reentrant=True. Refer to docs for more "
    "details on the differences between the two variants.")


def checkpoint(function: Callable[..., Any], *args: Any, use_reentrant: bool | None = None,
               context_fn: Callable | None = None, determinism_check: str = "default", debug: bool = False,
               preserve_rng_state: bool = True, **kwargs: Any) -> Any:
    """Runs ``function(*args, **kwargs)`` without keeping its activations for backward.

    Args:
        function: the part of the model to run (a Module or any callable).
        *args: its inputs.
        use_reentrant (bool): PyTorch's two variants. ``False`` (recommended) differentiates also
            with respect to tensors ``function`` uses but does not take (a Module's parameters)
            when no input requires grad, and works with ``autograd.grad``; ``True`` gives outputs
            that require grad only when an input does, as PyTorch's reentrant variant, and takes
            no keyword arguments. Omitting it warns and uses ``True``, as PyTorch 2.x does.
        preserve_rng_state (bool): re-run ``function`` with the CPU random state of the forward
            pass (default: True).
        context_fn, determinism_check, debug: accepted for PyTorch compatibility; only the defaults
            are supported.
    """
    if use_reentrant is None:
        warnings.warn(_USE_REENTRANT_WARNING, UserWarning, stacklevel=2)
        use_reentrant = True
    if use_reentrant and kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if context_fn is not None or determinism_check != "default" or debug:
        raise NotImplementedError("checkpoint: context_fn, determinism_check and debug are not supported by "
                                  "tinyframe; call checkpoint without them")
    if not grad_mode.is_grad_enabled():
        return function(*args, **kwargs)
    rng_state = random.get_rng_state() if preserve_rng_state else None
    inputs = [a for a in args if isinstance(a, Tensor)]
    if use_reentrant:
        if not any(t.requires_grad for t in inputs):
            warnings.warn("None of the inputs have requires_grad=True. Gradients will be None", UserWarning,
                          stacklevel=2)
        with grad_mode.no_grad():
            outputs = function(*args, **kwargs)
        captured: list[Tensor] = []
    else:
        # Run once recording, to find the tensors the function reads besides its inputs (parameters),
        # then let that graph go: only the checkpoint node stays.
        outputs = function(*args, **kwargs)
        captured = _leaves_reached(outputs, inputs)
    recompute = _Recompute(function, args, kwargs, rng_state, len(inputs), use_reentrant, _detached(outputs))
    node_class = CheckpointFunction if use_reentrant else Checkpoint
    return node_class.apply(recompute, *inputs, *captured)


def checkpoint_sequential(functions: Any, segments: int, input: Tensor, use_reentrant: bool | None = None,
                          **kwargs: Any) -> Any:
    """Runs a sequence of modules (an ``nn.Sequential`` or a list) in ``segments`` checkpointed
    chunks; the last chunk runs normally, as in PyTorch.

    Args:
        functions: the modules (or callables) to run one after the other.
        segments (int): the number of chunks.
        input (Tensor): the input of the first module.
        use_reentrant (bool): as in :func:`checkpoint`.
        preserve_rng_state (bool, keyword): as in :func:`checkpoint` (default: True).
    """
    if use_reentrant is None:
        warnings.warn(_USE_REENTRANT_WARNING, UserWarning, stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if hasattr(functions, "children"):
        functions = list(functions.children())
    functions = list(functions)
    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(_run_chunk(functions[start:end + 1]), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return _run_chunk(functions[end + 1:])(input)


def _run_chunk(functions: list) -> Callable[[Any], Any]:
    def forward(input: Any) -> Any:
        for function in functions:
            input = function(input)
        return input
    return forward


class _Recompute:
    """What backward needs to run the function again: it, its arguments and the random state.
    ``reentrant``: backpropagate through the re-run into every leaf it reaches (parameters get
    their ``.grad`` there, as in PyTorch's reentrant variant) instead of only into the node's inputs."""

    def __init__(self, function: Callable, args: tuple, kwargs: dict, rng_state: Any, num_inputs: int,
                 reentrant: bool, outputs: Any) -> None:
        self.function, self.args, self.kwargs = function, args, kwargs
        self.rng_state, self.num_inputs, self.reentrant = rng_state, num_inputs, reentrant
        self.outputs = outputs  # the first run's outputs, until the node takes them

    def gradients(self, tensors: tuple, grad_outputs: tuple) -> tuple:
        """The gradients with respect to ``tensors`` (the inputs, then captured leaves) of a
        re-run of the function, given the gradients of its outputs."""
        inputs = [t.detach().requires_grad_(t.requires_grad) for t in tensors[:self.num_inputs]]
        position = iter(inputs)
        args = [next(position) if isinstance(a, Tensor) else a for a in self.args]
        saved_state = random.get_rng_state() if self.rng_state is not None else None
        if self.rng_state is not None:
            random.set_rng_state(self.rng_state)
        try:
            with grad_mode.enable_grad():
                outputs = self.function(*args, **self.kwargs)
        finally:
            if saved_state is not None:
                random.set_rng_state(saved_state)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        pairs = [(out, g) for out, g in zip(outputs, grad_outputs)
                 if isinstance(out, Tensor) and out.requires_grad and g is not None]
        if self.reentrant:
            if pairs:
                autograd_backward([out for out, _ in pairs], [g for _, g in pairs])
            return tuple(t.grad for t in inputs)
        targets = [t for t in (*inputs, *tensors[self.num_inputs:]) if t.requires_grad]
        if not pairs or not targets:
            return (None,) * len(tensors)
        found = iter(autograd_grad([out for out, _ in pairs], targets, [g for _, g in pairs],
                                   create_graph=grad_mode.is_grad_enabled(), allow_unused=True))
        return tuple(next(found) if t.requires_grad else None for t in (*inputs, *tensors[self.num_inputs:]))


class Checkpoint(Function):
    """The node of one checkpointed call (``use_reentrant=False``): its inputs are the call's
    tensor arguments and the leaves it read; backward recomputes."""

    @staticmethod
    def forward(ctx: Any, recompute: _Recompute, *tensors: Tensor) -> Any:
        ctx.recompute = recompute
        ctx.save_for_backward(*tensors)
        outputs, recompute.outputs = recompute.outputs, None
        return outputs

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> tuple:
        return (None, *ctx.recompute.gradients(ctx.saved_tensors, grad_outputs))


class CheckpointFunction(Checkpoint):
    """The node of one checkpointed call with ``use_reentrant=True`` (PyTorch's
    ``CheckpointFunctionBackward``)."""


def _detached(outputs: Any) -> Any:
    """The outputs as new tensors sharing storage, outside any graph."""
    if isinstance(outputs, Tensor):
        return Tensor._make(outputs._data)
    if isinstance(outputs, tuple):
        return tuple(_detached(out) for out in outputs)
    return outputs


def _leaves_reached(outputs: Any, inputs: Iterable[Tensor]) -> list[Tensor]:
    """The leaves requiring grad that the outputs' graph reaches without passing through an input,
    in the order first met."""
    roots = [out.grad_fn for out in (outputs if isinstance(outputs, tuple) else (outputs,))
             if isinstance(out, Tensor) and out.grad_fn is not None]
    stops = {id(t.grad_fn) for t in inputs if t.grad_fn is not None} | {id(t) for t in inputs}
    seen, leaves, stack = set(), [], list(reversed(roots))
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen or id(node) in stops:
            continue
        seen.add(id(node))
        if type(node) is AccumulateGrad:
            leaf = node.variable
            if leaf is not None and id(leaf) not in stops:
                leaves.append(leaf)
            continue
        stack.extend(child for child, _ in reversed(node.next_functions))
    return leaves
