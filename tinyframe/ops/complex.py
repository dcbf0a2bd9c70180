"""Complex tensors: their parts, conjugation, and the ops that build them from real tensors.

Gradients follow PyTorch's convention for complex numbers: the gradient of a real loss ``L`` with
respect to ``z = x + iy`` is ``dL/dx + i dL/dy`` (the conjugate Wirtinger derivative, times two). An op
``w = f(z)`` sends ``conj(df/dz) * g + df/dconj(z) * conj(g)`` back for the gradient ``g`` of ``w``; for a
holomorphic ``f`` (``exp``, ``*``, ``matmul``) that is ``conj(f'(z)) * g``, which is why the elementwise
tables conjugate what they saved (``conj_of``). The engine takes the real part of a complex gradient sent
to a real input.
"""
from __future__ import annotations

import builtins
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, dtypes
from .._graph import Op
from ..device import array_module_of

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["real", "imag", "conj", "conj_physical", "resolve_conj", "view_as_real", "view_as_complex", "complex",
           "polar", "sgn", "is_complex", "isreal"]


def is_complex_array(value: Any) -> bool:
    """Whether ``value`` (an array, a Tensor or a number) holds complex numbers."""
    if isinstance(value, _graph.Tensor):
        value = value._data
    return getattr(value, "dtype", None) is not None and value.dtype.kind == "c"


def conj_of(value: Any) -> Any:
    """``conj(value)`` for a complex array or Tensor (recorded when it is a Tensor of a recorded pass);
    real values as they are. Backward formulas of holomorphic ops multiply by the conjugate derivative."""
    if type(value) is np.ndarray:  # a backward pass on CPU arrays, every op's: one test (tiny graph -4%)
        return Conj.call(value) if value.dtype.kind == "c" else value
    if isinstance(value, builtins.complex):  # this module's ``complex`` is the op
        return value.conjugate()
    return Conj.call(value) if is_complex_array(value) else value


def saved_conj(ctx: Any) -> tuple:
    """``ctx.saved_tensors`` conjugated, for the backward of a holomorphic op (it multiplies by the
    conjugate derivative). Such an op's output is complex exactly when an input is, so for a real
    output, every real model's, the saved values come back as they are after one test."""
    saved = ctx.saved_tensors
    if ctx._dtype.kind != "c":
        return saved
    return tuple(map(conj_of, saved))


def reject_complex(name: str, *values: Any, message: str | None = None,
                   error: type[Exception] = NotImplementedError) -> None:
    """PyTorch's error for an op without complex kernels (comparisons, max, relu, floor, ...): by default
    its ``"lt" not implemented for 'ComplexFloat'``, else ``message``. A Python complex number counts (as
    complex64, the dtype it takes against a float32 tensor): ``t < 1j`` raises as ``t < tensor(1j)``."""
    for value in values:
        if isinstance(value, builtins.complex) or is_complex_array(value):
            dtype = getattr(value, "dtype", None) or dtypes.scalar_dtype(value)
            raise error(message or f"\"{name}\" not implemented for '{dtypes.scalar_type_name(dtype)}': "
                        f"{name} is not defined on complex numbers")


def _require_complex(x: Any, name: str) -> None:
    if x.dtype.kind != "c":
        raise RuntimeError(f"{name} is only supported for complex tensors")


class Real(Op, node_name="SelectBackward0"):  # PyTorch's real is a select of view_as_real
    """The real part, a view of the complex storage; a real gradient is a complex one with no imaginary part."""

    is_view = True

    @staticmethod
    def forward(ctx: Real, x: Any) -> Any:
        return x.real

    @staticmethod
    def backward(ctx: Real, g: Any) -> Any:
        return g  # the engine casts it to the input's complex dtype


class Imag(Op, node_name="SelectBackward0"):
    """The imaginary part, a view; its gradient ``g`` sent back is ``i g``."""

    is_view = True

    @staticmethod
    def forward(ctx: Imag, x: Any) -> Any:
        return x.imag

    @staticmethod
    def backward(ctx: Imag, g: Any) -> Any:
        return g * 1j


class Conj(Op):
    @staticmethod
    def forward(ctx: Conj, x: Any) -> Any:
        return ctx.xp.conj(x)

    @staticmethod
    def backward(ctx: Conj, g: Any) -> Any:
        return Conj.call(g)


class ConjPhysical(Conj):
    pass


def real_view(x: Any) -> Any:
    """The complex array ``x`` seen as a real one with a last dimension of 2 (real, imaginary), sharing its
    memory: a new last dimension of one complex element, reinterpreted as two real ones, which NumPy allows
    whatever the strides of the other dimensions."""
    return x[..., None].view(x.real.dtype)


class ViewAsReal(Op):
    """A complex tensor as a real one with a last dimension of 2 (real, imaginary), sharing its storage."""

    is_view = True

    @staticmethod
    def forward(ctx: ViewAsReal, x: Any) -> Any:
        _require_complex(x, "view_as_real")
        return real_view(x)

    @staticmethod
    def backward(ctx: ViewAsReal, g: Any) -> Any:
        return ViewAsComplex.call(ctx.xp.ascontiguousarray(g))


class ViewAsComplex(Op):
    """A real tensor whose last dimension is (real, imaginary) pairs as a complex tensor, sharing its storage."""

    is_view = True

    @staticmethod
    def forward(ctx: ViewAsComplex, x: Any) -> Any:
        if x.dtype.kind != "f" or x.dtype.itemsize == 2:
            raise RuntimeError(f"view_as_complex is only supported for float and double tensors, but got a tensor "
                               f"of scalar type: {dtypes.scalar_type_name(x.dtype)}")
        if x.ndim == 0 or x.shape[-1] != 2:
            raise RuntimeError("Tensor must have a last dimension of size 2")
        if x.strides[-1] != x.itemsize:
            raise RuntimeError("Tensor must have a last dimension with stride 1")
        if any(stride % (2 * x.itemsize) for stride in x.strides[:-1]):
            raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
        return x.view(dtypes.from_numpy_dtype(x.dtype).to_complex().numpy)[..., 0]

    @staticmethod
    def backward(ctx: ViewAsComplex, g: Any) -> Any:
        return ViewAsReal.call(g)


def _check_parts(name: str, first: Any, second: Any) -> None:
    """PyTorch's checks of ``complex`` / ``polar``: two floating tensors of one dtype."""
    kinds = {first.dtype.kind, second.dtype.kind}
    if kinds != {"f"}:
        raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but got "
                           f"{dtypes.scalar_type_name(first.dtype)} and {dtypes.scalar_type_name(second.dtype)}")
    if first.dtype != second.dtype:
        raise RuntimeError(f"Expected object of scalar type {dtypes.scalar_type_name(first.dtype)} but got scalar "
                           f"type {dtypes.scalar_type_name(second.dtype)} for second argument")
    if first.dtype.itemsize == 2:
        raise TypeError(dtypes.COMPLEX32_MESSAGE)


def _assemble(xp: Any, real: Any, imag: Any) -> Any:
    """The complex array ``real + i imag``, part by part (``real + 1j * imag`` would turn an infinite
    ``imag`` into a NaN real part)."""
    real, imag = xp.broadcast_arrays(real, imag)
    out = xp.empty(real.shape, dtypes.from_numpy_dtype(real.dtype).to_complex().numpy)
    out.real[...] = real
    out.imag[...] = imag
    return out


class Complex(Op):
    @staticmethod
    def forward(ctx: Complex, real: Any, imag: Any) -> Any:
        _check_parts("complex", real, imag)
        return _assemble(ctx.xp, real, imag)

    @staticmethod
    def backward(ctx: Complex, g: Any) -> tuple:
        needs_real, needs_imag = ctx.needs_input_grad
        return Real.call(g) if needs_real else None, Imag.call(g) if needs_imag else None


class Polar(Op):
    """``abs * (cos(angle) + i sin(angle))``. For the gradient ``g = gx + i gy`` of the result, the gradient
    of ``abs`` is ``gx cos + gy sin`` (for ``abs > 0``) and that of ``angle`` is ``abs (gy cos - gx sin)``."""

    saved_inputs = ("abs", "angle")

    @staticmethod
    def forward(ctx: Polar, abs: Any, angle: Any) -> Any:
        _check_parts("polar", abs, angle)
        ctx.save_for_backward(abs, angle)
        xp = ctx.xp
        return _assemble(xp, abs * xp.cos(angle), abs * xp.sin(angle))

    @staticmethod
    def backward(ctx: Polar, g: Any) -> tuple:
        abs, angle = ctx.saved_tensors
        xp = ctx.xp
        gx, gy = Real.call(g), Imag.call(g)
        cos, sin = xp.cos(angle), xp.sin(angle)
        needs_abs, needs_angle = ctx.needs_input_grad
        # PyTorch's gradient of abs is real(conj(g) sgn(result)): the true one times sign(abs) (0 at abs = 0)
        return ((gx * cos + gy * sin) * xp.sign(abs) if needs_abs else None,
                abs * (gy * cos - gx * sin) if needs_angle else None)


class Sgn(Op):
    """``z / |z|`` (0 at 0) of a complex ``z``; the sign of a real one. For complex ``z`` the gradient sent
    back is ``(g - sgn(z)^2 conj(g)) / (2 |z|)``, 0 at 0 (PyTorch's ``sgn_backward``); for real ``z`` zero."""

    @staticmethod
    def forward(ctx: Sgn, x: Any) -> Any:
        xp = ctx.xp
        if x.dtype.kind == "b":  # the sign of a bool is itself (NumPy's sign has no bool loop)
            return x.copy()
        if x.dtype.kind != "c":  # PyTorch's real sgn is (0 < x) - (x < 0): 0 at NaN, where sign gives NaN
            out = xp.sign(x)
            return out if x.dtype.kind in "iu" else xp.where(out == out, out, 0).astype(x.dtype)
        magnitude = xp.abs(x)
        zero = magnitude == 0
        out = xp.where(zero, 0, x / xp.where(zero, 1, magnitude))
        ctx.save_for_backward(x, out)  # not |x|: a recorded backward differentiates through it
        return out

    @staticmethod
    def backward(ctx: Sgn, g: Any) -> Any:
        xp = ctx.xp
        saved = ctx.saved_tensors
        if not saved:
            return xp.zeros_like(g)
        x, out = saved
        magnitude = xp.abs(x)
        zero = magnitude == 0
        return xp.where(zero, 0.0, (g - out * out * Conj.call(g)) / (xp.where(zero, 1.0, magnitude) * 2.0))


class Angle(Op):
    """The argument ``atan2(imag, real)`` of a complex ``z``; the gradient sent back is ``i z g / |z|^2``,
    0 at 0."""

    @staticmethod
    def forward(ctx: Angle, x: Any) -> Any:
        ctx.save_for_backward(x)
        return ctx.xp.angle(x)

    @staticmethod
    def backward(ctx: Angle, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        xp = ctx.xp
        squared = Real.call(x * Conj.call(x))
        zero = squared == 0
        return xp.where(zero, 0.0, g * x * 1j / xp.where(zero, 1.0, squared))


# --------------------------------------------------------------------------- public functions
def is_complex(input: Tensor) -> bool:
    """Whether ``input``'s dtype is complex (``complex64`` or ``complex128``)."""
    return dtypes.kind(input._data.dtype) == "c"


def isreal(input: Tensor) -> Tensor:
    """Bool tensor, True where the imaginary part is zero (everywhere for a real tensor)."""
    data = input._data
    xp = array_module_of(data)
    return _graph.wrap(xp.asarray(data.imag == 0) if data.dtype.kind == "c" else xp.ones(data.shape, dtype=bool))


def real(input: Tensor) -> Tensor:
    """The real part of a complex tensor, as a view that shares its storage (writable: writing into it
    changes ``input``); a real tensor itself."""
    return Real.apply(input) if is_complex(input) else input


def imag(input: Tensor) -> Tensor:
    """The imaginary part of a complex tensor, as a view that shares its storage (writable)."""
    if not is_complex(input):
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return Imag.apply(input)


def conj(input: Tensor) -> Tensor:
    """The complex conjugate; a real tensor itself. tinyframe conjugates at once (PyTorch marks a lazy
    view and ``is_conj()`` is True there), so the result never aliases ``input``."""
    return Conj.apply(input) if is_complex(input) else input


def conj_physical(input: Tensor) -> Tensor:
    """The complex conjugate, computed (``ConjPhysicalBackward0``); a real tensor itself."""
    return ConjPhysical.apply(input) if is_complex(input) else input


def resolve_conj(input: Tensor) -> Tensor:
    """``input`` itself: tinyframe's conjugates are already materialized."""
    return input


def view_as_real(input: Tensor) -> Tensor:
    """A complex tensor of shape ``(*)`` as a real one of shape ``(*, 2)`` holding (real, imaginary) pairs,
    sharing its storage."""
    return ViewAsReal.apply(input)


def view_as_complex(input: Tensor) -> Tensor:
    """A float32 / float64 tensor of shape ``(*, 2)`` (last dimension contiguous) as a complex tensor of shape
    ``(*)``, sharing its storage."""
    return ViewAsComplex.apply(input)


def complex(real: Tensor, imag: Tensor) -> Tensor:
    """``real + i imag`` from two floating tensors of one dtype (float32 gives complex64), broadcasting."""
    return Complex.apply(real, imag)


def polar(abs: Tensor, angle: Tensor) -> Tensor:
    """``abs * (cos(angle) + i sin(angle))``: the complex numbers of given magnitude and argument."""
    return Polar.apply(abs, angle)


def sgn(input: Tensor) -> Tensor:
    """``input / |input|`` (0 where ``input`` is 0) for complex tensors; ``sign`` for real ones."""
    return Sgn.apply(input)
