"""Checks analytical gradients against central finite differences (use float64 inputs)."""
from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, creation, grad_mode
from ..ops import complex as complex_ops
from .engine import grad

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    """Raised when an analytical gradient disagrees with the numerical one."""


def _outputs(fn: Callable, inputs: tuple) -> tuple:
    out = fn(*inputs)
    return out if isinstance(out, tuple) else (out,)


def _host(t: Tensor) -> np.ndarray:
    return np.array(t._host_array(), dtype=np.float64)


def _differentiable(inputs: tuple) -> list:
    return [i for i, t in enumerate(inputs) if isinstance(t, _graph.Tensor) and t.requires_grad]


def _check_inputs(inputs: tuple) -> None:
    """PyTorch's checks: one input at least requires grad, and one in single precision gets a warning
    (finite differences in float32 are rarely within the tolerances)."""
    wrt = _differentiable(inputs)
    if not wrt:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of them have "
                         "requires_grad=True.")
    for i in wrt:
        if inputs[i].dtype.name not in ("float64", "complex128"):
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating point or complex. "
                          "This check will likely fail if all the inputs are not of double precision floating point "
                          "or complex. ", stacklevel=3)


def _numerical_jacobian(fn: Callable, inputs: tuple, wrt: int, out_index: int, eps: float) -> np.ndarray:
    data = inputs[wrt]._data  # perturbed in place, element by element in row-major order, whatever its layout
    columns = []
    with grad_mode.no_grad():
        for index in np.ndindex(data.shape):
            original = data[index].item()
            data[index] = original + eps
            plus = _host(_outputs(fn, inputs)[out_index])
            data[index] = original - eps
            minus = _host(_outputs(fn, inputs)[out_index])
            data[index] = original
            columns.append(((plus - minus) / (2 * eps)).reshape(-1))
    rows = columns[0].size if columns else 0
    return np.stack(columns, axis=1) if columns else np.zeros((rows, 0))


def _analytical_jacobian(fn: Callable, inputs: tuple, wrt: int, out_index: int) -> np.ndarray:
    output = _outputs(fn, inputs)[out_index]
    x = inputs[wrt]
    rows = []
    for j in range(output.numel()):
        basis = output._data.reshape(-1) * 0
        basis[j] = 1
        (g,) = grad(output, x, _graph.wrap(basis.reshape(output._data.shape)), retain_graph=True,
                    allow_unused=True)
        rows.append(np.zeros(x._data.size) if g is None else _host(g).reshape(-1))
    return np.stack(rows) if rows else np.zeros((0, x._data.size))


def gradcheck(func: Callable, inputs: Sequence[Any] | Tensor, *, eps: float = 1e-6, atol: float = 1e-5,
              rtol: float = 1e-3, raise_exception: bool = True, **_: Any) -> bool:
    """True when ``func``'s autograd Jacobian matches central finite differences for every
    differentiable input (those with ``requires_grad=True``) and every floating output."""
    inputs = (inputs,) if isinstance(inputs, _graph.Tensor) else tuple(inputs)
    _check_inputs(inputs)
    outputs = _outputs(func, inputs)
    for out_index, out in enumerate(outputs):
        if not isinstance(out, _graph.Tensor) or not out.is_floating_point() or not out.requires_grad:
            continue
        for wrt in _differentiable(inputs):
            numerical = _numerical_jacobian(func, inputs, wrt, out_index, eps)
            analytical = _analytical_jacobian(func, inputs, wrt, out_index)
            if not np.allclose(analytical, numerical, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                raise GradcheckError(f"Jacobian mismatch for output {out_index} with respect to input "
                                     f"{wrt},\nnumerical:{numerical}\nanalytical:{analytical}\n")
    return True


def gradgradcheck(func: Callable, inputs: Sequence[Any] | Tensor, grad_outputs: Sequence[Tensor] | None = None,
                  *, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
                  raise_exception: bool = True, **_: Any) -> bool:
    """Checks second derivatives: gradcheck of ``(inputs, v) -> vJp`` built with ``create_graph=True``. The
    vectors ``v`` not given are drawn as PyTorch draws them, uniform in [-1, 1) from the default generator
    (so a script's later random numbers are PyTorch's)."""
    inputs = (inputs,) if isinstance(inputs, _graph.Tensor) else tuple(inputs)
    outputs = [o for o in _outputs(func, inputs) if isinstance(o, _graph.Tensor) and o.requires_grad]
    if grad_outputs is None:
        grad_outputs = [_random_like(o).requires_grad_(True) for o in outputs]
    n = len(inputs)
    wrt = _differentiable(inputs)

    def vjp(*args: Any) -> tuple:
        xs, vs = args[:n], args[n:]
        with grad_mode.enable_grad():  # the numerical pass calls this under no_grad
            outs = [o for o in _outputs(func, xs) if isinstance(o, _graph.Tensor) and o.requires_grad]
            grads = grad(outs, [xs[i] for i in wrt], list(vs), create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(vjp, inputs + tuple(grad_outputs), eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)


def _random_like(output: Tensor) -> Tensor:
    """``torch.testing.make_tensor``'s tensor of ``output``'s shape, dtype and device, uniform in [-1, 1)."""
    v = creation.empty(output.shape, dtype=output.dtype, device=output.device)
    (complex_ops.view_as_real(v) if v.is_complex() else v).uniform_(-1, 1)
    return v
