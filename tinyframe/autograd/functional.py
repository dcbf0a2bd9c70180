"""Higher-level autograd on functions: ``vjp``, ``jvp``, ``jacobian``, ``hessian``, ``vhp``, ``hvp``
(PyTorch's ``torch.autograd.functional``), built on ``autograd.grad``.

Each takes ``func`` and ``inputs`` (a Tensor or a tuple of Tensors) and answers in the same
structure: a Tensor for a Tensor, tuples for tuples. Results are detached unless ``create_graph``.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import _graph, grad_mode
from ..ops.shape import stack
from .engine import grad

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["vjp", "jvp", "jacobian", "hessian", "vhp", "hvp"]


def _as_tuple(value: Any, arg_name: str, fn_name: str) -> tuple[tuple, bool]:
    if isinstance(value, _graph.Tensor):
        return (value,), False
    if not isinstance(value, (tuple, list)) or not all(isinstance(v, _graph.Tensor) for v in value):
        raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors but "
                        f"the given {arg_name} has type {type(value).__name__}.")
    return tuple(value), True


def _structure(values: tuple, is_tuple: bool) -> Any:
    return values if is_tuple else values[0]


def _prepare_inputs(inputs: tuple, create_graph: bool) -> tuple:
    """Fresh leaves to differentiate against; with ``create_graph``, views that keep the caller's graph."""
    return tuple(t.view_as(t) if create_graph and t.requires_grad else t.detach().requires_grad_(True)
                 for t in inputs)


def _finish(values: tuple, like: tuple, create_graph: bool, strict: bool, fn_name: str) -> tuple:
    """Zeros where an input was unused (an error under ``strict``); detached unless ``create_graph``."""
    out = []
    for i, (value, ref) in enumerate(zip(values, like)):
        if value is None:
            if strict:
                raise RuntimeError(f"The output of the user-provided function is independent of input {i}. "
                                   f"This is not allowed in strict mode ({fn_name}).")
            value = ref.detach() * 0
        out.append(value if create_graph else value.detach())
    return tuple(out)


def _check_v(v: Any, outputs: tuple, fn_name: str, what: str) -> tuple:
    if v is None:
        if len(outputs) != 1 or outputs[0].numel() != 1:
            raise RuntimeError(f"The vector v can only be None if the {what} of the user-provided function "
                               f"is a single Tensor with a single element ({fn_name}).")
        return (outputs[0].detach() * 0 + 1,)
    v, _ = _as_tuple(v, "v", fn_name)
    if len(v) != len(outputs) or any(a.shape != b.shape for a, b in zip(v, outputs)):
        raise RuntimeError(f"v has shapes {[tuple(t.shape) for t in v]} but the {what} has shapes "
                           f"{[tuple(t.shape) for t in outputs]} ({fn_name}).")
    return v


def vjp(func: Callable, inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple:
    """``(func(*inputs), v^T J)``: the vector-Jacobian product at ``inputs``."""
    inputs, inputs_tuple = _as_tuple(inputs, "inputs", "vjp")
    with grad_mode.enable_grad():
        inputs = _prepare_inputs(inputs, create_graph)
        outputs, outputs_tuple = _as_tuple(func(*inputs), "outputs of the user-provided function", "vjp")
        v = _check_v(v, outputs, "vjp", "output")
        grads = grad(outputs, inputs, v, create_graph=create_graph, allow_unused=True)
    grads = _finish(grads, inputs, create_graph, strict, "vjp")
    outputs = tuple(o if create_graph else o.detach() for o in outputs)
    return _structure(outputs, outputs_tuple), _structure(grads, inputs_tuple)


def jvp(func: Callable, inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple:
    """``(func(*inputs), J v)``: the Jacobian-vector product, by differentiating a vjp once more."""
    inputs, inputs_tuple = _as_tuple(inputs, "inputs", "jvp")
    v = _check_v(v, inputs, "jvp", "input")
    with grad_mode.enable_grad():
        inputs = _prepare_inputs(inputs, create_graph)
        outputs, outputs_tuple = _as_tuple(func(*inputs), "outputs of the user-provided function", "jvp")
        dummies = tuple((o.detach() * 0).requires_grad_(True) for o in outputs)
        vjps = grad(outputs, inputs, dummies, create_graph=True, allow_unused=True)
        used = [(g, vi) for g, vi in zip(vjps, v) if g is not None]
        products = grad(tuple(g for g, _ in used), dummies, tuple(vi for _, vi in used),
                        create_graph=create_graph, allow_unused=True) if used else (None,) * len(outputs)
    products = _finish(products, outputs, create_graph, strict, "jvp")
    outputs = tuple(o if create_graph else o.detach() for o in outputs)
    return _structure(outputs, outputs_tuple), _structure(products, outputs_tuple)


def jacobian(func: Callable, inputs: Any, create_graph: bool = False, strict: bool = False,
             vectorize: bool = False, strategy: str = "reverse-mode") -> Any:
    """The Jacobian of ``func`` at ``inputs``: for output ``i`` and input ``j`` a tensor of shape
    ``outputs[i].shape + inputs[j].shape``, one reverse pass per output element.

    ``strategy="forward-mode"`` (which, as in PyTorch, needs ``vectorize=True`` and allows neither
    ``create_graph`` nor ``strict``) gives the same Jacobian; tinyframe computes it in reverse mode too,
    because its forward-mode AD is itself made of reverse passes (see ``forward_ad``)."""
    _check_strategy(strategy, create_graph, strict, vectorize)
    inputs, inputs_tuple = _as_tuple(inputs, "inputs", "jacobian")
    with grad_mode.enable_grad():
        inputs = _prepare_inputs(inputs, create_graph)
        outputs, outputs_tuple = _as_tuple(func(*inputs), "outputs of the user-provided function", "jacobian")
        blocks = tuple(_jacobian_of(out, inputs, create_graph, strict) for out in outputs)
    rows = tuple(_structure(block, inputs_tuple) for block in blocks)
    return _structure(rows, outputs_tuple)


def _check_strategy(strategy: str, create_graph: bool, strict: bool, vectorize: bool) -> None:
    """PyTorch's refusals of the option combinations it does not support."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
                             'function has more outputs than inputs, "forward-mode" tends to be more performant. '
                             'Otherwise, prefer to use "reverse-mode".')
    if strategy == "forward-mode" and create_graph:
        raise NotImplementedError('torch.autograd.functional.jacobian: `create_graph=True` and '
                                  '`strategy="forward-mode"` are not supported together (yet). Please either set '
                                  '`create_graph=False` or `strategy="reverse-mode"`.')
    if strict and strategy == "forward-mode":
        raise RuntimeError('torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` are not '
                           'supported together (yet). Please either set `strict=False` or `strategy="reverse-mode"`.')
    if strict and vectorize:
        raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not "
                           "supported together. Please either set `strict=False` or `vectorize=False`.")
    if strategy == "forward-mode" and not vectorize:
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                                  "only implemented for `vectorize=True`.")


def _jacobian_of(output: Tensor, inputs: tuple, create_graph: bool, strict: bool) -> tuple:
    """One block row of the Jacobian: d output / d input for each input."""
    flat = output.reshape(-1)
    per_element = []
    for k in range(flat.numel()):
        if flat.requires_grad:
            grads = grad(flat[k], inputs, retain_graph=True, create_graph=create_graph, allow_unused=True)
        else:
            grads = (None,) * len(inputs)
        per_element.append(_finish(grads, inputs, create_graph, strict, "jacobian"))
    return tuple(
        (stack([row[j] for row in per_element]) if per_element else inputs[j].detach().new_zeros(
            (0,) + tuple(inputs[j].shape))).reshape(tuple(output.shape) + tuple(inputs[j].shape))
        for j in range(len(inputs)))


def hessian(func: Callable, inputs: Any, create_graph: bool = False, strict: bool = False,
            vectorize: bool = False, outer_jacobian_strategy: str = "reverse-mode") -> Any:
    """The Hessian of a scalar ``func`` at ``inputs``: the Jacobian of its gradient."""
    inputs_t, inputs_tuple = _as_tuple(inputs, "inputs", "hessian")

    def gradient(*args: Tensor) -> tuple:
        out = func(*args)
        if not isinstance(out, _graph.Tensor) or out.numel() != 1:
            raise RuntimeError("The function given to hessian should return a single Tensor with a single element")
        return jacobian(lambda *a: func(*a).reshape(()), args, create_graph=True, strict=strict)

    rows = jacobian(gradient, inputs_t, create_graph=create_graph, strict=strict, vectorize=vectorize,
                    strategy=outer_jacobian_strategy)
    return rows if inputs_tuple else rows[0][0]


def vhp(func: Callable, inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple:
    """``(func(*inputs), v^T H)`` for a scalar ``func``: the gradient of ``<grad func, v>``."""
    inputs, inputs_tuple = _as_tuple(inputs, "inputs", "vhp")
    v = _check_v(v, inputs, "vhp", "input")
    with grad_mode.enable_grad():
        inputs = _prepare_inputs(inputs, create_graph)
        output = func(*inputs)
        if not isinstance(output, _graph.Tensor) or output.numel() != 1:
            raise RuntimeError("The function given to vhp should return a single Tensor with a single element")
        grads = grad(output, inputs, create_graph=True, allow_unused=True)
        used = [(g, vi, x) for g, vi, x in zip(grads, v, inputs) if g is not None]
        products = grad(tuple(g for g, _, _ in used), inputs, tuple(vi for _, vi, _ in used),
                        create_graph=create_graph, allow_unused=True) if used else (None,) * len(inputs)
    products = _finish(products, inputs, create_graph, strict, "vhp")
    return (output if create_graph else output.detach()), _structure(products, inputs_tuple)


def hvp(func: Callable, inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple:
    """``(func(*inputs), H v)`` for a scalar ``func``. The Hessian of a twice continuously
    differentiable function is symmetric, so this equals ``vhp``, which needs one pass less."""
    return vhp(func, inputs, v, create_graph, strict)
