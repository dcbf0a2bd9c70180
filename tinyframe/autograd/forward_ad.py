"""``torch.autograd.forward_ad``: forward-mode AD with dual tensors, by the double-vjp trick.

Inside ``dual_level()``, ``make_dual(primal, tangent)`` gives a tensor that carries ``tangent``; every tensor
computed from dual tensors has the tangent ``J t`` (``J`` the Jacobian of the computation), which
``unpack_dual`` returns. tinyframe has no per-op tangent rules: the reverse-mode graph is recorded from the
dual tensors, and ``unpack_dual(y)`` computes ``J t`` as the gradient with respect to ``u`` of
``sum_i <J_i^T u, t_i>``, two backward passes (the first one recorded, which every op's backward supports).

Differences from PyTorch, which follow from that: a dual tensor requires grad (it is a leaf, or a view of a
primal that requires grad), so results computed from it have a ``grad_fn``; and computations under
``no_grad`` record nothing, so their results have no tangent.
"""
from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NamedTuple

from .. import _graph, creation, grad_mode
from . import engine

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual", "dual_level"]


class UnpackedDualTensor(NamedTuple):
    """A dual tensor's ``primal`` and ``tangent`` (None where it has none)."""

    primal: Any
    tangent: Any


class _Level:
    """The dual tensors made at one level, each with its tangent, and whether its primal required grad."""

    def __init__(self) -> None:
        self.duals: list[tuple[Tensor, Tensor, bool]] = []


_STATE = threading.local()


def _current() -> _Level | None:
    return getattr(_STATE, "level", None)


def enter_dual_level() -> int:
    """Starts the forward-AD level (only one at a time, as in PyTorch) and returns its index, 0."""
    if _current() is not None:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _STATE.level = _Level()
    return 0


def exit_dual_level(*, level: int | None = None) -> None:
    """Ends the forward-AD level: its dual tensors no longer carry tangents."""
    _STATE.level = None


@contextmanager
def dual_level() -> Iterator[int]:
    """The context in which dual tensors carry tangents (``enter_dual_level`` / ``exit_dual_level``)."""
    index = enter_dual_level()
    try:
        yield index
    finally:
        exit_dual_level(level=index)


def _check_floating(what: str, t: Tensor) -> None:
    if not t.is_floating_point():
        raise ValueError(f"Expected {what} to be floating point or complex, but got: {t.dtype}")


def make_dual(tensor: Tensor, tangent: Tensor, *, level: int | None = None) -> Tensor:
    """A tensor equal to ``tensor`` whose tangent is ``tangent`` (of the same size), for forward-mode AD
    inside ``dual_level()``."""
    current = _current()
    if current is None:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, make sure to "
                           "enter_dual_level() first.")
    _check_floating("primal", tensor)
    _check_floating("tangent", tangent)
    if tuple(tangent.shape) != tuple(tensor.shape):
        raise RuntimeError(f"Trying to set a forward gradient that has a different size than that of the original "
                           f"Tensor, this is not supported. Tensor is of size {list(tensor.shape)} while the given "
                           f"forward gradient is of size {list(tangent.shape)}.")
    with grad_mode.enable_grad():
        # A view of a primal that requires grad keeps reverse mode through it; else a leaf of its own.
        dual = tensor.view_as(tensor) if tensor.requires_grad else tensor.detach().requires_grad_()
    current.duals.append((dual, tangent, tensor.requires_grad))
    return dual


def unpack_dual(tensor: Any, *, level: int | None = None) -> UnpackedDualTensor:
    """The named tuple ``(primal, tangent)`` of ``tensor``: its tangent is the Jacobian-vector product of
    the computation from the dual tensors of the current level, None when it does not depend on any."""
    current = _current()
    if current is None or not isinstance(tensor, _graph.Tensor) or not tensor.requires_grad:
        return UnpackedDualTensor(tensor, None)
    duals = [(d, t, kept) for d, t, kept in current.duals]
    keeps_graph = any(kept or t.requires_grad for _, t, kept in duals)
    tangent = _tangent(tensor, duals, keeps_graph)
    primal = tensor if any(kept for _, _, kept in duals) else tensor.detach()
    return UnpackedDualTensor(primal, tangent)


def _tangent(y: Tensor, duals: list, keeps_graph: bool) -> Tensor | None:
    """``sum_i J_i t_i`` for ``y``, by differentiating ``sum_i <J_i^T u, t_i>`` with respect to ``u``."""
    with grad_mode.enable_grad():
        u = creation.zeros_like(y).requires_grad_()
        vjps = engine.grad([y], [d for d, _, _ in duals], [u], create_graph=True, allow_unused=True)
        terms = [(g * t).sum() for g, (_, t, _) in zip(vjps, duals) if g is not None]
        if not terms:
            return None
        total = terms[0]
        for term in terms[1:]:
            total = total + term
        if not total.requires_grad:  # the vjps do not depend on u: y does not depend on the duals
            return creation.zeros_like(y)
        (tangent,) = engine.grad([total], [u], create_graph=keeps_graph, allow_unused=True)
    if tangent is None:
        return creation.zeros_like(y)
    return tangent if keeps_graph else tangent.detach()
