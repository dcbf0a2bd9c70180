"""``torch._foreach_*``: one op applied over lists of tensors (EMA updates, optimizer steps and
gradient clipping in public code call them directly). PyTorch fuses the loop into few kernels; here each
list element goes through the Tensor method of the same name, so values and errors are those of the
per-tensor op. Arguments that are lists pair up element by element; anything else (a number, one Tensor)
applies to every element. The in-place forms (trailing ``_``) return the list they were given.

While autograd records, the results of an out-of-place form share one node of PyTorch's name
(``ForeachAddBackward0List``, ``ForeachMulBackward1Scalar``, ...), whose ``next_functions`` are the
elements of every tensor list in turn, as PyTorch's are.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from . import grad_mode, linalg
from .autograd import function
from .autograd import grad as autograd_grad
from .tensor import Tensor

_UNARY = ("abs", "acos", "asin", "atan", "ceil", "clone", "cos", "cosh", "erf", "erfc", "exp", "expm1", "floor",
          "frac", "lgamma", "log", "log10", "log1p", "log2", "neg", "reciprocal", "round", "rsqrt", "sigmoid", "sign",
          "sin", "sinh", "sqrt", "tan", "tanh", "trunc")
_MULTI = ("add", "addcdiv", "addcmul", "clamp_max", "clamp_min", "div", "lerp", "maximum", "minimum", "mul", "pow",
          "sub")


# PyTorch's node names, ``Foreach<Op>Backward<suffix>``: the suffix by the kind of the op's last
# argument (its ``other``, ``weight`` or ``value``): a tensor list, a number (or none), a list of numbers,
# a Tensor. A Tensor taken as a number (``...Scalar``) is no input of the node.
_SCALAR = {"List": "0List", "Scalar": "1Scalar", "ScalarList": "1ScalarList", "Tensor": "1Scalar"}
_EXTREMUM = {"List": "0List", "Scalar": "0", "ScalarList": "1", "Tensor": "0"}
_CLAMP = {"List": "1List", "Scalar": "0Scalar", "ScalarList": "0ScalarList", "Tensor": "0Scalar"}
_POINTWISE = {"Scalar": "0Scalar", "ScalarList": "0ScalarList"}
_NODE_SUFFIXES: dict[str, dict[str, str]] = {
    "add": _SCALAR, "sub": _SCALAR, "mul": {**_SCALAR, "Tensor": "0Tensor"},
    "div": {**_SCALAR, "List": "0", "Tensor": "0Tensor"},
    "pow": {"List": "0", "Scalar": "0Scalar", "ScalarList": "1", "Tensor": "0Scalar"},
    "maximum": _EXTREMUM, "minimum": _EXTREMUM, "clamp_min": _CLAMP, "clamp_max": _CLAMP,
    "addcmul": _POINTWISE, "addcdiv": _POINTWISE, "lerp": {**_POINTWISE, "List": "1List"},
    **{name: {"": "0"} for name in _UNARY}, "norm": {"": "0"}, "max": {"": "1"},
}
# How many tensor lists follow ``self`` before the argument that names the node.
_LIST_OPERANDS = {"addcmul": 2, "addcdiv": 2, "lerp": 1}


def _element(argument: Any, i: int) -> Any:
    return argument[i] if isinstance(argument, (list, tuple)) else argument


def _check_lengths(tensors: Sequence[Tensor], args: tuple) -> None:
    for argument in args:
        if isinstance(argument, (list, tuple)) and len(argument) != len(tensors):
            raise RuntimeError(f"Tensor lists must have the same number of tensors, got {len(tensors)} and "
                               f"{len(argument)}")


def _each(element: Callable[..., Tensor], self: Sequence[Tensor], args: tuple, kwargs: dict) -> tuple[Tensor, ...]:
    return tuple([element(t, *(_element(a, i) for a in args), **kwargs) for i, t in enumerate(self)])


def _is_tensor_list(argument: Any) -> bool:
    return isinstance(argument, (list, tuple)) and any(isinstance(v, Tensor) for v in argument)


def _kind(name: str, args: tuple) -> str:
    """The kind of the argument that names the op's node (see ``_NODE_SUFFIXES``)."""
    if name in _UNARY or name in ("norm", "max"):
        return ""
    operands = _LIST_OPERANDS.get(name, 0)
    if len(args) <= operands:
        return "Scalar"
    last = args[operands]
    if isinstance(last, Tensor):
        return "Tensor"
    if isinstance(last, (list, tuple)):
        return "List" if _is_tensor_list(last) else "ScalarList"
    return "Scalar"


def _camel(name: str) -> str:
    """PyTorch's CamelCase of an op name: ``clamp_min`` ClampMin, ``log1p`` Log1P."""
    return re.sub(r"(?:^|_|(?<=\d))([a-z])", lambda m: m.group(1).upper(), name)


def _foreach(name: str, element: Callable[..., Tensor], self: Sequence[Tensor], args: tuple,
             kwargs: dict) -> tuple[Tensor, ...]:
    """``element`` over the lists (a tuple of the results, as PyTorch's), recorded as one node of PyTorch's
    name when autograd records."""
    _check_lengths(self, args)
    kind = _kind(name, args)
    suffix = _NODE_SUFFIXES.get(name, {}).get(kind)
    tensors = [*self, *(t for a in args if _is_tensor_list(a) for t in a)]
    if suffix is None or not grad_mode.is_grad_enabled() or not any(t.requires_grad for t in tensors):
        return _each(element, self, args, kwargs)
    if kind == "Tensor":
        if suffix.endswith("Tensor"):
            tensors += [a for a in args if isinstance(a, Tensor)]
        else:  # taken as a number: no input of the node
            args = tuple(a.item() if isinstance(a, Tensor) else a for a in args)
    return _recorded(f"Foreach{_camel(name)}Backward{suffix}").apply(_Call(element, len(self), args, kwargs),
                                                                     *tensors)


def _recorded(node_name: str) -> type[_Recorded]:
    """The Function whose node is named ``node_name``."""
    recorded = _RECORDED.get(node_name)
    if recorded is None:
        recorded = _RECORDED[node_name] = type(node_name, (_Recorded,), {})
        node = recorded._backward_cls
        node.__name__ = node.__qualname__ = node_name  # PyTorch's name, not a custom Function's <Name>Backward
    return recorded


class _Call:
    """One foreach call on its inputs given flat: ``self``'s tensors, then those of each tensor list, then
    a Tensor argument."""

    def __init__(self, element: Callable[..., Tensor], count: int, args: tuple, kwargs: dict) -> None:
        self.element, self.count, self.args, self.kwargs = element, count, args, kwargs

    def __call__(self, tensors: Sequence[Tensor]) -> tuple[Tensor, ...]:
        flat = iter(tensors[self.count:])
        args = [[next(flat) for _ in a] if _is_tensor_list(a) else a for a in self.args]
        args = [next(flat) if isinstance(a, Tensor) else a for a in args]
        return _each(self.element, tensors[:self.count], tuple(args), self.kwargs)


class _Recorded(function.Function):
    """The node that PyTorch's out-of-place foreach ops record: forward runs the per-tensor op on every
    element; backward runs it again, recorded, and differentiates that (as ``utils.checkpoint`` does),
    so a backward pass that is itself recorded gives higher derivatives."""

    @staticmethod
    def forward(ctx: Any, call: _Call, *tensors: Tensor) -> tuple:
        ctx.call = call
        ctx.save_for_backward(*tensors)
        ctx.set_materialize_grads(False)  # an output no gradient reached sends none to its inputs
        return call(tensors)

    @staticmethod
    def backward(ctx: Any, *grads: Tensor) -> tuple:
        recording = grad_mode.is_grad_enabled()
        # One input per distinct tensor (``lerp(a, b, b)`` passes b twice): its whole gradient goes to the
        # first position it holds, so the engine, which adds the gradients of all positions, counts it once.
        inputs: dict[int, Tensor] = {}
        positions: dict[int, int] = {}
        for position, t in enumerate(ctx.saved_tensors):
            if id(t) not in inputs:
                inputs[id(t)] = t if recording else t.detach().requires_grad_(t.requires_grad)
                positions[id(t)] = position
        with grad_mode.enable_grad():
            outputs = ctx.call([inputs[id(t)] for t in ctx.saved_tensors])
        pairs = [(out, g) for out, g in zip(outputs, grads) if g is not None and out.requires_grad]
        wanted = [key for key, position in positions.items() if ctx.needs_input_grad[1 + position]]
        found = autograd_grad([out for out, _ in pairs], [inputs[key] for key in wanted], [g for _, g in pairs],
                              create_graph=recording, allow_unused=True)
        result: list = [None] * len(ctx.saved_tensors)
        for key, g in zip(wanted, found):
            result[positions[key]] = g
        return (None, *result)


_RECORDED: dict[str, type[_Recorded]] = {}


def _pointwise(method: str) -> Callable[..., Tensor]:
    """``t.<method>(tensor1, tensor2, value=value)``, whose foreach form takes ``value`` positionally (PyTorch's
    optimizers pass ``1 - beta2`` so) where the Tensor method takes it by keyword only."""
    def element(t: Tensor, tensor1: Tensor, tensor2: Tensor, value: Any = 1) -> Tensor:
        return getattr(t, method)(tensor1, tensor2, value=value)
    return element


def _extremum(method: str) -> Callable[..., Tensor]:
    """``t.<method>(other)``, whose foreach form also takes a number for ``other`` (a 0-dim tensor of
    ``t``'s dtype here) where the Tensor method takes Tensors only."""
    def element(t: Tensor, other: Any) -> Tensor:
        return getattr(t, method)(other if isinstance(other, Tensor) else t.new_tensor(other))
    return element


_ELEMENTS = {**{name: _pointwise(name) for name in ("addcmul", "addcdiv", "addcmul_", "addcdiv_")},
             **{name: _extremum(name) for name in ("maximum", "minimum")}}


def _out_of_place(name: str) -> Callable[..., tuple[Tensor, ...]]:
    def foreach(self: Sequence[Tensor], *args: Any, **kwargs: Any) -> tuple[Tensor, ...]:
        return _foreach(name, _ELEMENTS.get(name) or getattr(Tensor, name), self, args, kwargs)

    foreach.__name__ = foreach.__qualname__ = f"_foreach_{name}"
    foreach.__doc__ = f"``[t.{name}(...) for t in self]``, list arguments taken element by element."
    return foreach


def _in_place(name: str) -> Callable[..., Sequence[Tensor]]:
    def foreach(self: Sequence[Tensor], *args: Any, **kwargs: Any) -> Sequence[Tensor]:
        _check_lengths(self, args)
        in_place = _ELEMENTS.get(name + "_") or getattr(Tensor, name + "_", None)
        for i, t in enumerate(self):
            if in_place is None:  # maximum/minimum have no in-place Tensor method
                t.copy_((_ELEMENTS.get(name) or getattr(Tensor, name))(t, *(_element(a, i) for a in args), **kwargs))
            else:
                in_place(t, *(_element(a, i) for a in args), **kwargs)
        return self

    foreach.__name__ = foreach.__qualname__ = f"_foreach_{name}_"
    foreach.__doc__ = f"``t.{name}_(...)`` for each ``t`` in ``self`` (returned), list arguments element by element."
    return foreach


def _foreach_norm(self: Sequence[Tensor], ord: float = 2, dtype: Any = None) -> tuple[Tensor, ...]:
    """The vector norm of each tensor, as ``torch.linalg.vector_norm``."""
    return _foreach("norm", linalg.vector_norm, self, (ord,), {"dtype": dtype})


def _foreach_max(self: Sequence[Tensor]) -> tuple[Tensor, ...]:
    """The largest element of each tensor."""
    return _foreach("max", Tensor.max, self, (), {})


def _foreach_zero_(self: Sequence[Tensor]) -> Sequence[Tensor]:
    """Fills each tensor with zeros."""
    for t in self:
        t.zero_()
    return self


def _foreach_copy_(self: Sequence[Tensor], src: Sequence[Tensor], non_blocking: bool = False) -> Sequence[Tensor]:
    """Copies ``src[i]`` into ``self[i]``."""
    _check_lengths(self, (src,))
    for t, s in zip(self, src):
        t.copy_(s, non_blocking)
    return self


_generated: dict[str, Callable[..., Any]] = {}
for _name in _UNARY + _MULTI:
    _generated[f"_foreach_{_name}"] = _out_of_place(_name)
    if _name != "clone":
        _generated[f"_foreach_{_name}_"] = _in_place(_name)
globals().update(_generated)

__all__ = ["_foreach_norm", "_foreach_max", "_foreach_zero_", "_foreach_copy_", *_generated]
