"""Cases shared by ``test_inplace_views.py`` and the script that recorded PyTorch's results
(``python -m tests._inplace_views_record`` with PyTorch installed, from the repository root).

Each case is ``fn(lib, device) -> (base, view, inputs)``: it makes a base from inputs that require grad,
writes in place through a view of it (``lib`` is ``tinyframe``, or ``torch`` when recording) and returns what
``observe`` then reads: the nodes of the view and of the base (names and ``next_functions``), their versions,
``is_leaf`` and ``requires_grad``, the base's values and the gradients of a weighted sum of the base with
respect to the inputs. A case that PyTorch refuses records the exception's type and message instead.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

_A = np.arange(1.0, 13.0).reshape(3, 4) / 4
_W = np.linspace(-1.0, 2.0, 12).reshape(3, 4)
_Z = np.array([1 + 2j, 3 - 1j, 0.5 + 0.5j])


def _leaf(lib: Any, device: str, array: np.ndarray = _A) -> Any:
    return lib.tensor(array, device=device, requires_grad=True)


def _doubled(lib: Any, device: str) -> tuple:
    """``(x, a)``: ``x = a * 2``, a base with a history, and the leaf ``a``."""
    a = _leaf(lib, device)
    return a * 2, a


def _through(make: Callable[[Any], Any], write: Callable[[Any, Any, str], Any] | None = None) -> Callable:
    """The case: the view ``make(x)`` of ``x = a * 2`` written by ``write(view, lib, device)`` (``mul_(3)``)."""
    def case(lib: Any, device: str) -> tuple:
        x, a = _doubled(lib, device)
        view = make(x)
        inputs = [a]
        if write is None:
            view.mul_(3)
        else:
            inputs += write(view, lib, device) or []
        return x, view, inputs
    return case


def _copy_leaf(view: Any, lib: Any, device: str) -> list:
    w = lib.tensor(np.resize(_W, view.shape), device=device, requires_grad=True)
    view.copy_(w)
    return [w]


def _add_leaf(view: Any, lib: Any, device: str) -> list:
    w = lib.tensor(_W[0, : view.shape[0]], device=device, requires_grad=True)
    view.add_(w, alpha=-2)
    return [w]


def _propagates(lib: Any, device: str) -> tuple:
    x = lib.zeros(4, 3, dtype=lib.float64, device=device)
    view = x.t()
    w = _leaf(lib, device, _W)
    view.copy_(w)
    return x, view, [w]


def _detached(lib: Any, device: str) -> tuple:
    x, _ = _doubled(lib, device)
    d = x.detach()
    view = d.view(12)[::2]
    w = lib.tensor(_W.reshape(-1)[:6], device=device, requires_grad=True)
    view.mul_(w)
    return d, view, [w]


def _sibling(lib: Any, device: str) -> tuple:
    x, a = _doubled(lib, device)
    first, second = x[:2], x[1:]
    second.mul_(10)
    return x, first, [a]


def _base_written(lib: Any, device: str) -> tuple:
    x, a = _doubled(lib, device)
    view = x.view(12)
    x.mul_(10)
    return x, view, [a]


def _twice(lib: Any, device: str) -> tuple:
    x, a = _doubled(lib, device)
    view = x.view(2, 6)
    view.mul_(2)
    view[1].add_(1)
    return x, view, [a]


def _middle_of_a_chain(lib: Any, device: str) -> tuple:
    x, a = _doubled(lib, device)
    middle = x.view(3, 4)
    middle[1].mul_(5)
    return x, middle, [a]


def _setitem_on_a_view(lib: Any, device: str) -> tuple:
    x, a = _doubled(lib, device)
    view = x.t()
    w = _leaf(lib, device, _W[0])
    view[:, 0] = w[:4]
    view[1] = 7.0
    return x, view, [a, w]


def _custom_function(lib: Any, device: str) -> tuple:
    class Double(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, t: Any) -> Any:
            t.mul_(2)
            ctx.mark_dirty(t)
            return t

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * 2

    x, a = _doubled(lib, device)
    view = x.view(3, 4)[1]
    Double.apply(view)
    return x, view, [a]


def _complex(make: Callable[[Any, Any], Any]) -> Callable:
    def case(lib: Any, device: str) -> tuple:
        a = _leaf(lib, device, _Z)
        x = a * 2
        view = make(lib, x)
        view.mul_(3)
        return x, view, [a]
    return case


def _view_as_complex(lib: Any, device: str) -> tuple:
    x, a = _doubled(lib, device)
    view = lib.view_as_complex(x.view(6, 2))
    view.mul_(1j)
    return x, view, [a]


def _no_grad_view(lib: Any, device: str) -> tuple:
    x, a = _doubled(lib, device)
    with lib.no_grad():
        view = x.view(12)
    view.mul_(3)
    return x, view, [a]


def _no_grad_view_of_plain(lib: Any, device: str) -> tuple:
    x = lib.zeros(4, dtype=lib.float64, device=device)
    with lib.no_grad():
        view = x[1:]
    w = _leaf(lib, device, _W[0, :3])
    view.copy_(w)
    return x, view, [w]


def _no_grad_split(lib: Any, device: str) -> tuple:
    x, a = _doubled(lib, device)
    with lib.no_grad():
        view = x.split(2)[0]
    view.mul_(2)
    return x, view, [a]


def _split_of_plain(lib: Any, device: str) -> tuple:
    x = lib.zeros(4, dtype=lib.float64, device=device)
    view = x.split(2)[1]
    w = _leaf(lib, device, _W[0, :2])
    view.copy_(w)
    return x, view, [w]


def _saved_then_written(lib: Any, device: str) -> tuple:
    x, a = _doubled(lib, device)
    s = x.sin()  # saves x
    view = x.view(12)
    view.mul_(2)
    s.sum().backward()
    return x, view, [a]


CASES: dict[str, Callable] = {
    "view": _through(lambda x: x.view(12)),
    "reshape": _through(lambda x: x.reshape(2, 6)),
    "flatten": _through(lambda x: x.flatten()),
    "transpose": _through(lambda x: x.transpose(0, 1)),
    "t": _through(lambda x: x.t()),
    "permute": _through(lambda x: x.permute(1, 0)),
    "movedim": _through(lambda x: x.movedim(0, 1)),
    "unsqueeze": _through(lambda x: x.unsqueeze(1)),
    "squeeze": _through(lambda x: x[0:1].squeeze(0)),
    "narrow": _through(lambda x: x.narrow(1, 1, 2)),
    "select": _through(lambda x: x.select(1, 2)),
    "slice": _through(lambda x: x[1:, ::2]),
    "int_index": _through(lambda x: x[1]),
    "none_index": _through(lambda x: x[None]),
    "ellipsis": _through(lambda x: x[...]),
    "diagonal": _through(lambda x: x.diagonal()),
    "diagonal_offset": _through(lambda x: x.diagonal(1)),
    "unfold": _through(lambda x: x.unfold(1, 2, 2)),
    "as_strided": _through(lambda x: x.as_strided((2, 2), (4, 1), 1)),
    "chain": _through(lambda x: x.view(12)[2:8].view(2, 3).t()),
    "chain_of_transposes": _through(lambda x: x.t()[1:].t()[:, 1]),
    "copy_into_t": _through(lambda x: x.t(), _copy_leaf),
    "fill_select": _through(lambda x: x[1], lambda v, lib, device: v.fill_(5)),
    "zero_column": _through(lambda x: x[:, 1], lambda v, lib, device: v.zero_()),
    "add_leaf_column": _through(lambda x: x[:, 1], _add_leaf),
    "clamp_row": _through(lambda x: x[2], lambda v, lib, device: v.clamp_(max=5.5)),
    "propagates_requires_grad": _propagates,
    "view_of_detached": _detached,
    "sibling_view": _sibling,
    "base_written": _base_written,
    "twice": _twice,
    "middle_of_a_chain": _middle_of_a_chain,
    "setitem_on_a_view": _setitem_on_a_view,
    "custom_function_marks_a_view_dirty": _custom_function,
    "real": _complex(lambda lib, x: x.real),
    "imag": _complex(lambda lib, x: x.imag),
    "view_as_real": _complex(lambda lib, x: lib.view_as_real(x)[1:]),
    "view_as_complex": _view_as_complex,
    # refused
    "expand": _through(lambda x: x[0:1].expand(3, 4)),
    "view_of_a_leaf": lambda lib, device: (None, _leaf(lib, device).view(12).mul_(3), []),
    "setitem_on_a_leaf_view": lambda lib, device: (None, _leaf(lib, device).t().copy_(lib.ones(4, 3)), []),
    "split": _through(lambda x: x.split(2)[0]),
    "chunk": _through(lambda x: x.chunk(2)[1]),
    "unbind": _through(lambda x: x.unbind()[1]),
    "view_of_a_split": _through(lambda x: x.split(2)[0].view(-1)),
    "slice_of_an_unbind": _through(lambda x: x.unbind(1)[2][0:1]),
    "no_grad_view": _no_grad_view,
    "no_grad_view_of_a_plain_base": _no_grad_view_of_plain,
    "no_grad_split": _no_grad_split,
    "split_of_a_plain_base": _split_of_plain,
    "saved_then_written": _saved_then_written,
}


def _node(fn: Any) -> str | None:
    return None if fn is None else fn.name().replace("torch::autograd::", "")


def _edges(fn: Any) -> list | None:
    return None if fn is None else [[_node(node), k] for node, k in fn.next_functions]


def observe(lib: Any, case: Callable, device: str) -> dict:
    """What ``case`` leaves behind, or the exception it raised (names without PyTorch's C++ namespace)."""
    try:
        base, view, inputs = case(lib, device)
    except Exception as exc:  # (recorded, whatever PyTorch raised)
        return {"error": type(exc).__name__, "message": str(exc)}
    weights = lib.arange(1.0, base.numel() + 1.0, dtype=lib.float64, device=device).reshape(base.shape)
    loss = lib.view_as_real(base)[..., 0].mul(weights).sum() + lib.view_as_real(base)[..., 1].sum() \
        if base.is_complex() else (base * weights).sum()
    grads = lib.autograd.grad(loss, inputs) if inputs else ()
    return {"view_node": _node(view.grad_fn), "view_next": _edges(view.grad_fn),
            "base_node": _node(base.grad_fn), "base_next": _edges(base.grad_fn),
            "versions": [base._version, view._version], "is_leaf": [base.is_leaf, view.is_leaf],
            "requires_grad": [base.requires_grad, view.requires_grad], "view_is_of_base": view._base is base,
            "value": lib.view_as_real(base).tolist() if base.is_complex() else base.tolist(),
            "grads": [(lib.view_as_real(g) if g.is_complex() else g).tolist() for g in grads]}


def _grid(lib: Any) -> Any:
    return lib.arange(24.0).reshape(2, 3, 4)


# Inputs whose layout the ``*_like`` factories and ``clone`` keep (PyTorch's ``preserve_format``).
LAYOUT_CASES: dict[str, Callable] = {
    "contiguous": _grid,
    "permuted": lambda lib: _grid(lib).permute(2, 0, 1),
    "transposed": lambda lib: _grid(lib)[0].t(),
    "sliced": lambda lib: _grid(lib)[:, :, ::2],
    "sliced_permuted": lambda lib: _grid(lib).permute(2, 0, 1)[:, :, 1:],
    "expanded": lambda lib: _grid(lib)[:1].expand(3, 3, 4),
    "size_one_transposed": lambda lib: _grid(lib)[:, :1].transpose(1, 2),
    "equal_strides": lambda lib: _grid(lib)[:, :1, :1].permute(2, 1, 0),
}


def layout_strides(lib: Any, make: Callable) -> dict:
    """The strides of what each factory makes like ``make(lib)``'s tensor."""
    x = make(lib)
    made = {"zeros_like": lib.zeros_like(x), "ones_like": lib.ones_like(x), "empty_like": lib.empty_like(x),
            "full_like": lib.full_like(x, 2), "rand_like": lib.rand_like(x), "randn_like": lib.randn_like(x),
            "randint_like": lib.randint_like(x, 5), "clone": x.clone(),
            "clone_contiguous": x.clone(memory_format=lib.contiguous_format),
            "zeros_like_contiguous": lib.zeros_like(x, memory_format=lib.contiguous_format),
            "zeros_like_float64": lib.zeros_like(x, dtype=lib.float64)}
    return {"input": list(x.stride()), **{name: list(t.stride()) for name, t in made.items()},
            "clone_values": x.clone().tolist()}


# ``Tensor.view(dtype)``: (the tensor, the dtype's name).
VIEW_DTYPE_CASES: dict[str, tuple] = {
    "float32_as_int32": (lambda lib: lib.arange(1.0, 5.0) * 2, "int32"),
    "same_dtype": (lambda lib: lib.arange(1.0, 5.0), "float32"),
    "float32_as_float16": (lambda lib: lib.arange(6.0).reshape(2, 3), "float16"),
    "float32_as_uint8": (lambda lib: lib.arange(6.0).reshape(2, 3), "uint8"),
    "float32_as_float64": (lambda lib: lib.arange(8.0).reshape(2, 4), "float64"),
    "float32_as_bfloat16": (lambda lib: lib.arange(4.0), "bfloat16"),
    "float32_as_complex64": (lambda lib: lib.arange(4.0), "complex64"),
    "complex64_as_float32": (lambda lib: lib.tensor([1 + 2j, 3 - 4j]), "float32"),
    "uint8_as_bool": (lambda lib: lib.tensor([1, 0, 1], dtype=lib.uint8), "bool"),
    "zero_dim_same_size": (lambda lib: lib.tensor(1.0), "int32"),
    "leaf_requiring_grad": (lambda lib: lib.arange(3.0).requires_grad_(), "float32"),
    # refused
    "odd_last_size": (lambda lib: lib.arange(6.0).reshape(2, 3), "float64"),
    "transposed_to_smaller": (lambda lib: lib.arange(6.0).reshape(2, 3).t(), "float16"),
    "offset_not_divisible": (lambda lib: lib.arange(10.0)[1:9], "float64"),
    "stride_not_divisible": (lambda lib: lib.arange(12.0).reshape(4, 3)[:, :2], "float64"),
    "zero_dim_larger": (lambda lib: lib.tensor(1.0), "float64"),
    "zero_dim_smaller": (lambda lib: lib.tensor(1.0), "float16"),
}


def view_dtype(lib: Any, make: Callable, dtype: str) -> dict:
    """``make(lib).view(dtype)``: its shape, strides, values, autograd state, and its write through to the source."""
    x = make(lib)
    try:
        v = x.view(getattr(lib, dtype))
    except Exception as exc:  # (recorded, whatever PyTorch raised)
        return {"error": type(exc).__name__, "message": str(exc)}
    seen = {"shape": list(v.shape), "stride": list(v.stride()), "values": v.float().tolist() if dtype == "bfloat16"
            else v.tolist(), "requires_grad": v.requires_grad, "is_leaf": v.is_leaf, "is_view": v._is_view()}
    if not x.requires_grad:
        v.zero_()
        seen["source_after_zero_"] = x.tolist() if not x.is_complex() else lib.view_as_real(x).tolist()
        seen["source_version"] = x._version
    return seen
