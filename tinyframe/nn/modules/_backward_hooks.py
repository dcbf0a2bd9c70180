"""Module backward hooks (``register_full_backward_hook``, ``register_full_backward_pre_hook``), as
PyTorch runs them: the module's tensor inputs and outputs pass through an identity autograd
Function (``BackwardHookFunctionBackward`` in the graph) whose backward sees the gradients with
respect to the outputs, then to the inputs, and lets the hooks replace them."""
from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from ...autograd.function import Function
from ...tensor import Tensor


class BackwardHookFunction(Function):
    """Identity on ``tensors``; its backward hands the incoming gradients to ``on_grads``, which
    may return replacements."""

    @staticmethod
    def forward(ctx: Any, on_grads: Callable, *tensors: Tensor) -> tuple:
        ctx.on_grads = on_grads
        return tuple(t.view_as(t) for t in tensors)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> tuple:
        replaced = ctx.on_grads(grads)
        return (None, *(grads if replaced is None else replaced))


def call_with_backward_hooks(module: Any, args: tuple, kwargs: dict) -> Any:
    """Runs ``module.forward`` with the module's backward hooks attached to its inputs and outputs.

    Hooks get ``(module, grad_input, grad_output)``: one ``grad_input`` entry per positional Tensor
    argument (None where it does not require grad) and one ``grad_output`` entry per output Tensor.
    """
    tensor_args = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
    wrapped = [i for i in tensor_args if args[i].requires_grad]
    grad_output: list = [None]

    def on_input_grads(grads: tuple) -> tuple:
        by_position = dict(zip(wrapped, grads))
        grad_input = tuple(by_position.get(i) for i in tensor_args)
        for hook in list(module._backward_hooks.values()):
            result = hook(module, grad_input, grad_output[0])
            if result is not None:
                grad_input = tuple(result)
        return tuple(grad_input[tensor_args.index(i)] for i in wrapped)

    def on_output_grads(grads: tuple) -> tuple | None:
        replaced = None
        for hook in list(module._backward_pre_hooks.values()):
            result = hook(module, grads)
            if result is not None:
                grads = replaced = tuple(result)
        grad_output[0] = grads
        if not wrapped and module._backward_hooks:  # no input gets a gradient: the hooks run now, with None inputs
            warnings.warn("Full backward hook is firing when gradients are computed with respect to module outputs "
                          "since no inputs require gradients. See https://docs.pytorch.org/docs/main/generated/"
                          "torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more details.",
                          UserWarning, stacklevel=2)
            for hook in list(module._backward_hooks.values()):
                hook(module, (None,) * len(tensor_args), grads)
        return replaced

    if wrapped:
        replaced_args = list(args)
        for i, t in zip(wrapped, BackwardHookFunction.apply(on_input_grads, *(args[i] for i in wrapped))):
            replaced_args[i] = t
        args = tuple(replaced_args)
    output = module._forward_with_hooks(args, kwargs)
    single = isinstance(output, Tensor)
    outputs = (output,) if single else output
    if not isinstance(outputs, tuple) or not any(isinstance(o, Tensor) and o.requires_grad for o in outputs):
        return output
    positions = [k for k, o in enumerate(outputs) if isinstance(o, Tensor) and o.requires_grad]
    results = list(outputs)
    for k, t in zip(positions, BackwardHookFunction.apply(on_output_grads, *(outputs[k] for k in positions))):
        results[k] = t
    return results[0] if single else tuple(results)
