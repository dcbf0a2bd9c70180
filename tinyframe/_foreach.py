"""``torch._foreach_*``: one op applied over lists of tensors (EMA updates, optimizer steps and
gradient clipping in public code call them directly). PyTorch fuses the loop into few kernels; here each
list element goes through the Tensor method of the same name, so values, autograd and errors are
those of the per-tensor op. Arguments that are lists pair up element by element; anything else
(a number, one Tensor) applies to every element. The in-place forms (trailing ``_``) return the list they
were given. (PyTorch's out-of-place results have grad_fn names of their own, ``ForeachAddBackward0List``
and the like; here they are the per-tensor op's.)"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from . import linalg
from .tensor import Tensor

_UNARY = ("abs", "acos", "asin", "atan", "ceil", "clone", "cos", "cosh", "erf", "erfc", "exp", "expm1", "floor",
          "frac", "lgamma", "log", "log10", "log1p", "log2", "neg", "reciprocal", "round", "rsqrt", "sigmoid", "sign",
          "sin", "sinh", "sqrt", "tan", "tanh", "trunc")
_MULTI = ("add", "addcdiv", "addcmul", "clamp_max", "clamp_min", "div", "lerp", "maximum", "minimum", "mul", "pow",
          "sub")


def _element(argument: Any, i: int) -> Any:
    return argument[i] if isinstance(argument, (list, tuple)) else argument


def _check_lengths(tensors: Sequence[Tensor], args: tuple) -> None:
    for argument in args:
        if isinstance(argument, (list, tuple)) and len(argument) != len(tensors):
            raise RuntimeError(f"Tensor lists must have the same number of tensors, got {len(tensors)} and "
                               f"{len(argument)}")


def _out_of_place(name: str) -> Callable[..., list[Tensor]]:
    def foreach(self: Sequence[Tensor], *args: Any, **kwargs: Any) -> list[Tensor]:
        _check_lengths(self, args)
        return [getattr(t, name)(*(_element(a, i) for a in args), **kwargs) for i, t in enumerate(self)]

    foreach.__name__ = foreach.__qualname__ = f"_foreach_{name}"
    foreach.__doc__ = f"``[t.{name}(...) for t in self]``, list arguments taken element by element."
    return foreach


def _in_place(name: str) -> Callable[..., Sequence[Tensor]]:
    def foreach(self: Sequence[Tensor], *args: Any, **kwargs: Any) -> Sequence[Tensor]:
        _check_lengths(self, args)
        for i, t in enumerate(self):
            method = getattr(t, name + "_", None)
            if method is None:  # maximum/minimum have no in-place Tensor method
                t.copy_(getattr(t, name)(*(_element(a, i) for a in args), **kwargs))
            else:
                method(*(_element(a, i) for a in args), **kwargs)
        return self

    foreach.__name__ = foreach.__qualname__ = f"_foreach_{name}_"
    foreach.__doc__ = f"``t.{name}_(...)`` for each ``t`` in ``self`` (returned), list arguments element by element."
    return foreach


def _foreach_norm(self: Sequence[Tensor], ord: float = 2, dtype: Any = None) -> list[Tensor]:
    """The vector norm of each tensor, as ``torch.linalg.vector_norm``."""
    return [linalg.vector_norm(t, ord, dtype=dtype) for t in self]


def _foreach_max(self: Sequence[Tensor]) -> list[Tensor]:
    """The largest element of each tensor."""
    return [t.max() for t in self]


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
