"""Elementwise ops of two operands (with NumPy broadcasting) and comparisons.

Every op reaches here from its function, its Tensor method and its operator. Operands may be
Tensors or Python numbers; they are promoted by PyTorch's rules, and the engine reduces broadcast
gradients to each input's shape.
"""
from __future__ import annotations

import cmath
import math
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _graph, creation, dtypes
from .._graph import Op, shape_error
from ..device import array_module_of
from ..memory_format import iterator_layout
from . import conversion, indexing
from .complex import reject_complex, saved_conj
from .promotion import is_number, promote, promote_to_float

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = [
    "add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "pow", "maximum", "minimum",
    "where", "clamp", "clamp_min", "clamp_max",
    "floor_divide", "remainder", "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or",
    "logical_xor", "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "isclose", "allclose",
    "hypot", "logaddexp", "logaddexp2", "copysign", "fmod",
    "xlogy", "lerp", "addcmul", "addcdiv", "atan2", "arctan2",
    "fmax", "fmin", "heaviside", "gcd", "lcm", "bitwise_left_shift", "bitwise_right_shift", "float_power",
    "nextafter",
]


class Add(Op):
    saved_options = ("alpha",)
    elementwise = True

    @staticmethod
    def forward(ctx: Add, x: Any, y: Any, alpha: Any = 1) -> Any:
        ctx.alpha = alpha
        x, y = promote(x, y)
        return x + y if alpha == 1 else x + _alpha_in(alpha, y) * y

    @staticmethod
    def backward(ctx: Add, g: Any) -> tuple:
        return g, g if ctx.alpha == 1 else g * ctx.alpha


def _alpha_in(alpha: Any, y: Any) -> Any:
    """An int ``alpha`` in an integer operand's dtype, as PyTorch's checked cast gives it."""
    if type(alpha) is not int or is_number(y) or y.dtype.kind not in "iu":
        return alpha
    return dtypes.checked_integer(alpha, y.dtype)


class AddScalar(Op, node_name="AddBackward1"):
    """``input + other`` for a number ``other``, as PyTorch's own kernels add a Scalar (``+ eps`` in
    ``rms_norm``, ``pairwise_distance``): one edge, to ``input``."""

    @staticmethod
    def forward(ctx: AddScalar, x: Any, *, other: float) -> Any:
        x, other = promote(x, other)
        return x + other

    @staticmethod
    def backward(ctx: AddScalar, g: Any) -> Any:
        return g


class SubScalar(Op, node_name="SubBackward1"):
    """``input - other`` for a number ``other``, as PyTorch's own C++ code subtracts a Scalar: one edge."""

    @staticmethod
    def forward(ctx: SubScalar, x: Any, *, other: float) -> Any:
        x, other = promote(x, other)
        return x - other

    @staticmethod
    def backward(ctx: SubScalar, g: Any) -> Any:
        return g


class Sub(Op):
    saved_options = ("alpha",)
    elementwise = True

    @staticmethod
    def forward(ctx: Sub, x: Any, y: Any, alpha: Any = 1) -> Any:
        ctx.alpha = alpha
        x_bool, y_bool = _is_bool(x), _is_bool(y)
        if x_bool or y_bool:
            raise RuntimeError(_bool_subtraction_message(x_bool and y_bool))
        x, y = promote(x, y)
        return x - y if alpha == 1 else x - _alpha_in(alpha, y) * y

    @staticmethod
    def backward(ctx: Sub, g: Any) -> tuple:
        return g, -g if ctx.alpha == 1 else g * -ctx.alpha


class Rsub(Sub, node_name="RsubBackward1"):
    """``other - input`` for a number ``other`` (``2 - x``): PyTorch's rsub, with one edge, to ``input``."""

    @staticmethod
    def forward(ctx: Rsub, x: Any, *, other: Any) -> Any:  # type: ignore[override]  # the number is an option
        return Sub.forward(ctx, other, x)

    @staticmethod
    def backward(ctx: Sub, g: Any) -> Any:
        return -g


def _is_bool(value: Any) -> bool:
    return value.__class__ is bool or (not is_number(value) and value.dtype.kind == "b")


def _bool_subtraction_message(both: bool) -> str:
    if both:
        return ("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                "`logical_xor()` operator instead.")
    return ("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a "
            "mask, use the `~` or `logical_not()` operator instead.")


class Mul(Op):
    saves_operands = True
    elementwise = True
    kept_for = (1, 0)  # each operand for the other's gradient

    @staticmethod
    def forward(ctx: Mul, x: Any, y: Any) -> Any:
        ctx.save_for_backward(x, y)
        x, y = promote(x, y)
        return x * y

    @staticmethod
    def backward(ctx: Mul, g: Any) -> tuple:
        x, y = saved_conj(ctx)
        needs_x, needs_y = ctx.needs_input_grad
        return g * y if needs_x else None, g * x if needs_y else None


class MulNumber(Op, node_name="MulBackward1"):
    """``input * other`` for a number ``other``, as PyTorch's own C++ code multiplies (``mul(Tensor,
    Scalar)``: one edge); Python's ``x * 2`` is MulBackward0, with an edge for the number."""

    @staticmethod
    def forward(ctx: MulNumber, x: Any, *, other: Any) -> Any:
        ctx.other = other
        x, other = promote(x, other)
        return x * other

    @staticmethod
    def backward(ctx: MulNumber, g: Any) -> Any:
        return g * ctx.other.conjugate()


class Div(Op):
    saves_operands = True
    elementwise = True
    kept_for = (1, None)  # the dividend for the divisor's gradient; the divisor serves both

    @staticmethod
    def forward(ctx: Div, x: Any, y: Any) -> Any:
        ctx.save_for_backward(x, y)
        x, y = promote_to_float(x, y)
        return x / y

    @staticmethod
    def backward(ctx: Div, g: Any) -> tuple:
        x, y = saved_conj(ctx)
        needs_x, needs_y = ctx.needs_input_grad
        # (PyTorch's ``-grad * ((self / other) / other)``: its rounding, and its nodes when recorded)
        return g / y if needs_x else None, -g * (x / y / y) if needs_y else None


class DivNumber(Div, node_name="DivBackward1"):
    """``input / other`` for a number ``other`` as PyTorch's own C++ code divides (``div(Tensor, Scalar)``,
    in losses' means and trapezoid); Python's ``x / 2`` is DivBackward0."""


class Pow(Op):
    """``input ** exponent`` for a number exponent."""

    saved_inputs, saved_options = ("self",), ("exponent",)

    @staticmethod
    def forward(ctx: Pow, x: Any, *, exponent: Any) -> Any:
        ctx.save_for_backward(x)
        ctx.exponent = exponent
        if x.dtype.kind in "iub" and type(exponent) is int and exponent < 0:  # (before uint8 wraps it)
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        x, exponent = promote(x, exponent)
        if x.dtype.kind == "b" and type(exponent) is bool:  # PyTorch's bool result (NumPy's is int8)
            return x | (not exponent)
        if x.dtype.kind == "f" and exponent in (-0.5, 3, -2):
            # PyTorch's kernel for these: rsqrt (-inf at -0.0, NaN at -inf), and products where NumPy calls pow
            # (whose float32 cubes differ in the last bit)
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                if exponent == 3:
                    return x * x * x
                return 1.0 / ctx.xp.sqrt(x) if exponent == -0.5 else 1.0 / (x * x)
        return x ** exponent

    @staticmethod
    def backward(ctx: Pow, g: Any) -> tuple:
        (x,) = saved_conj(ctx)
        e = ctx.exponent.conjugate()
        if e == 0:
            return g * 0.0
        return g * (e * Pow.call(x, exponent=e - 1) if e != 1 else 1.0)  # (rsqrt's -inf at -0.0 for 0.5)


class PowTensor(Op, node_name="PowBackward1"):
    """``input ** exponent`` where the exponent is a Tensor (the base may be a number)."""

    saved_inputs = ("self", "exponent")
    elementwise = True

    @staticmethod
    def forward(ctx: PowTensor, x: Any, y: Any) -> Any:
        x, y = promote(x, y)
        out = _power(ctx.xp, x, y)
        ctx.save_for_backward(x, y, out)
        return out

    @staticmethod
    def backward(ctx: PowTensor, g: Any) -> tuple:
        x, y, out = saved_conj(ctx)
        xp = ctx.xp
        needs_x, needs_y = ctx.needs_input_grad
        gx = xp.where(y == 0, 0.0, g * y * x ** (y - 1)) if needs_x else None  # (0, not NaN, at 0 ** 0)
        gy = None
        if needs_y:
            # d(x^y)/dy = x^y log x; PyTorch defines it as 0 where x == 0 and y >= 0 (the limit for y > 0).
            gy = g * xp.where((x == 0) & (y >= 0), 0.0, out * xp.log(x))
        return gx, gy


class PowNumberBase(Op, node_name="PowBackward2"):
    """``base ** exponent`` for a number ``base`` (``2 ** x``): one edge, to the exponent, as PyTorch's
    ``pow(Scalar, Tensor)``; the gradient is ``base^y log(base)``, for a zero base 0 where ``y >= 0``."""

    @staticmethod
    def forward(ctx: PowNumberBase, y: Any, *, base: Any) -> Any:
        base, y = promote(base, y)
        out = _power(ctx.xp, base, y)
        ctx.base = base
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: PowNumberBase, g: Any) -> Any:
        (out,) = saved_conj(ctx)
        base = ctx.base
        if base == 0:  # log(0) = -inf where the exponent is negative or NaN (there x^y is inf or NaN), else 0
            return g * ctx.xp.where(out.real <= 1, 0.0, out * -math.inf)
        return g * out * (cmath.log(base).conjugate() if isinstance(base, complex) else math.log(base))


def _power(xp: Any, base: Any, exponent: Any) -> Any:
    """``base ** exponent``; for integers, a negative exponent gives what PyTorch's integer pow gives (1 for
    a base of 1, +-1 for -1, else 0) where NumPy raises."""
    if exponent.dtype.kind == "b" and (isinstance(base, bool) or getattr(base, "dtype", None) == exponent.dtype):
        raise NotImplementedError("\"pow\" not implemented for 'Bool'")  # (NumPy's bool ** bool is int8)
    if exponent.dtype.kind not in "iu" or not (exponent < 0).any():
        return base ** exponent
    negative = exponent < 0
    out = base ** xp.where(negative, 0, exponent)
    unit = xp.where(exponent % 2 == 0, 1, base)  # base ** exponent for a base of 1 or -1
    return xp.where(negative, xp.where(abs(base) == 1, unit, 0), out).astype(out.dtype)


class Maximum(Op):
    elementwise = True

    @staticmethod
    def forward(ctx: Maximum, x: Any, y: Any) -> Any:
        reject_complex("maximum", x, y, message="maximum not implemented for complex tensors.", error=RuntimeError)
        x, y = promote(x, y)
        ctx.save_for_backward(x, y)
        return ctx.xp.maximum(x, y)

    @staticmethod
    def backward(ctx: Maximum, g: Any) -> tuple:
        x, y = ctx.saved_tensors
        return _split_by_winner(g, x > y, x == y)


class Minimum(Op):
    elementwise = True

    @staticmethod
    def forward(ctx: Minimum, x: Any, y: Any) -> Any:
        reject_complex("minimum", x, y, message="minimum not implemented for complex tensors.", error=RuntimeError)
        x, y = promote(x, y)
        ctx.save_for_backward(x, y)
        return ctx.xp.minimum(x, y)

    @staticmethod
    def backward(ctx: Minimum, g: Any) -> tuple:
        x, y = ctx.saved_tensors
        return _split_by_winner(g, x < y, x == y)


def _split_by_winner(g: Any, first_wins: Any, tie: Any) -> tuple:
    # PyTorch splits the gradient evenly between tied operands of maximum / minimum.
    share = first_wins * 1.0 + tie * 0.5
    return g * share, g * (1.0 - share)


class Where(Op):
    @staticmethod
    def forward(ctx: Where, x: Any, y: Any, *, condition: Any) -> Any:
        ctx.save_for_backward(condition)
        x, y = promote(x, y)
        return iterator_layout(ctx.xp, (condition, x, y), ctx.xp.where(condition, x, y))  # (the condition first)

    @staticmethod
    def backward(ctx: Where, g: Any) -> tuple:
        (condition,) = ctx.saved_tensors
        xp = ctx.xp
        zero = xp.zeros_like(g)
        return xp.where(condition, g, zero), xp.where(condition, zero, g)


NO_COMPLEX_CLAMP = "clamp is not supported for complex types"


class Clamp(Op, node_name="ClampBackward1"):
    saved_options: tuple = ("min", "max")

    @staticmethod
    def forward(ctx: Clamp, x: Any, *, low: Any, high: Any) -> Any:
        reject_complex("clamp", x, low, high, message=NO_COMPLEX_CLAMP)
        ctx.save_for_backward(x)
        ctx.min, ctx.max = low, high
        # An integer tensor clamped to a float bound becomes floating, as in PyTorch.
        if low is not None:
            x, low = promote(x, low)
        if high is not None:
            x, high = promote(x, high)
        if x.dtype.kind == "b":
            kernel = "clamp_max" if low is None else "clamp" if high is not None else "clamp_min"
            raise NotImplementedError(f"\"{kernel}_scalar_cpu\" not implemented for 'Bool'")
        return ctx.xp.clip(x, low, high)

    @staticmethod
    def backward(ctx: Clamp, g: Any) -> tuple:
        (x,) = ctx.saved_tensors
        inside = (x >= ctx.min) if ctx.min is not None else None
        if ctx.max is not None:
            inside = (x <= ctx.max) if inside is None else inside & (x <= ctx.max)
        return ctx.xp.where(inside, g, ctx.xp.zeros_like(g))


class ClampMin(Clamp, node_name="ClampMinBackward0"):
    saved_options = ("min",)


class ClampMax(Clamp, node_name="ClampMaxBackward0"):
    saved_options = ("max",)


class ClampTensor(Op, node_name="ClampBackward0"):
    """``clamp`` with tensor bounds: ``min(max(x, low), high)`` for the bounds given (``has_low``,
    ``has_high``), in their common dtype. As PyTorch's derivatives: ``x`` gets ``g`` where
    ``low <= x <= high``; ``low`` gets it where ``x < low`` (and ``low < high``); ``high`` where ``x > high``
    (or ``high < low``, where ``high`` wins)."""
    elementwise = True

    @staticmethod
    def forward(ctx: ClampTensor, x: Any, *bounds: Any, has_low: bool, has_high: bool) -> Any:
        reject_complex("clamp", x, *bounds, message=NO_COMPLEX_CLAMP)
        ctx.save_for_backward(x, *bounds)
        ctx.has_low, ctx.has_high = has_low, has_high
        low, high = _clamp_bounds(bounds, has_low, has_high)
        out = x
        if has_low:
            out, low = promote(out, low)
            out = ctx.xp.maximum(out, low)
        if has_high:
            out, high = promote(out, high)
            if has_low and out.dtype.kind == "b":  # (one bound is maximum or minimum, which take bools)
                raise NotImplementedError("\"clamp_cpu\" not implemented for 'Bool'")
            out = ctx.xp.minimum(out, high)
        return out

    @staticmethod
    def backward(ctx: ClampTensor, g: Any) -> tuple:
        x, *bounds = ctx.saved_tensors
        low, high = _clamp_bounds(bounds, ctx.has_low, ctx.has_high)
        xp, zero = ctx.xp, ctx.xp.zeros_like(g)
        inside = (x >= low) if ctx.has_low else None
        if ctx.has_high:
            inside = (x <= high) if inside is None else inside & (x <= high)
        grads = [xp.where(inside, g, zero)]
        if ctx.has_low:
            below = x < low
            grads.append(xp.where(below & (low < high) if ctx.has_high else below, g, zero))
        if ctx.has_high:
            grads.append(xp.where((x > high) | (high < low) if ctx.has_low else x > high, g, zero))
        return tuple(grads)


class ClampMinTensor(ClampTensor, node_name="ClampMinBackward1"):
    pass


class ClampMaxTensor(ClampTensor, node_name="ClampMaxBackward1"):
    pass


def _clamp_bounds(bounds: Any, has_low: bool, has_high: bool) -> tuple:
    """``(low, high)`` from the bounds given, None for the missing one."""
    bounds = list(bounds)
    return (bounds.pop(0) if has_low else None), (bounds.pop(0) if has_high else None)


def _operands(name: str, input: Any, other: Any) -> tuple:
    """``(input, other)`` of ``add``, ``sub``, ``mul``, ``div`` and ``floor_divide``, the functions whose
    Tensor arguments PyTorch's argument parser also takes as numbers: given two numbers, ``input``
    becomes a 0-dim tensor (``add(2, 3)`` is ``tensor(5)``, ``add(2.5, 3)`` a float32 ``tensor(5.5)``)."""
    if isinstance(input, _graph.Tensor):  # the common case: one test
        if not isinstance(other, (_graph.Tensor, int, float, complex)):
            raise TypeError(f"{name}(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}")
        return input, other
    for position, (argument, value) in enumerate((("input", input), ("other", other)), 1):
        if not isinstance(value, (_graph.Tensor, int, float, complex)):
            raise TypeError(f"{name}(): argument '{argument}' (position {position}) must be Tensor, not "
                            f"{type(value).__name__}")
    return (input if isinstance(other, _graph.Tensor) else creation.tensor(input)), other


# --------------------------------------------------------------------------- the elementwise table
class _Elementwise2(Op):
    """An op of two operands defined by a line of the table below: ``compute(xp, x, y)`` on arrays
    promoted to a floating dtype (or, for ops that keep integer dtypes as ``maximum`` does, to their
    common dtype), and the gradient of each operand, ``vjp_x`` and ``vjp_y``, from
    ``(g, x, y, out, xp)``, written with ``xp`` so that they also serve recorded passes. The
    operands (as given, so a recorded pass sees them as Tensors) and the output are saved."""
    elementwise = True

    compute: Any
    vjp_x: Any
    vjp_y: Any
    promotes: Any

    @staticmethod
    def forward(ctx: _Elementwise2, x: Any, y: Any) -> Any:
        # None of the table's ops has a complex kernel here (PyTorch has one for logaddexp only).
        reject_complex(type(ctx).__name__.removesuffix("Backward0").removesuffix("Backward1").lower(), x, y)
        out = ctx.compute(ctx.xp, *ctx.promotes(x, y))
        ctx.save_for_backward(x, y, out)
        return out

    @staticmethod
    def backward(ctx: _Elementwise2, g: Any) -> tuple:
        x, y, out = ctx.saved_tensors
        needs_x, needs_y = ctx.needs_input_grad
        xp = ctx.xp
        return (ctx.vjp_x(g, x, y, out, xp) if needs_x else None,
                ctx.vjp_y(g, x, y, out, xp) if needs_y else None)


def _elementwise2(name: str, compute: Any, vjp_x: Any, vjp_y: Any, node_name: str | None = None, *,
                  keeps_integers: bool = False) -> type[_Elementwise2]:
    """The op class of one table line (PyTorch's node name ``<name>Backward0`` unless given);
    ``keeps_integers``: integer and bool operands are computed in their common dtype, not in float."""
    return type(name, (_Elementwise2,), {"compute": staticmethod(compute), "vjp_x": staticmethod(vjp_x),
                                         "vjp_y": staticmethod(vjp_y),
                                         "promotes": staticmethod(promote if keeps_integers else promote_to_float)},
                node_name=node_name)


def _xlogy(xp: Any, x: Any, y: Any) -> Any:
    """``x * log(y)``, 0 where ``x`` is 0 unless ``y`` is NaN (PyTorch's ``xlogy``)."""
    dtype = (y if is_number(x) else x).dtype  # a number operand must not make NumPy compute in float64
    x, y = xp.asarray(x, dtype), xp.asarray(y, dtype)
    return xp.where(xp.isnan(y), y, x * xp.log(xp.where(x == 0, 1.0, y)))


def _xlogy_slope(xp: Any, g: Any, x: Any, y: Any) -> Any:
    """``xlogy``'s gradient in ``x`` as PyTorch's: ``xlogy(g, y)``, 0 where ``x == 0`` and ``y <= 0``."""
    return xp.where((x == 0) & (y <= 0), 0.0, Xlogy.call(g, y))


def _where_nonzero(xp: Any, x: Any, value: Any) -> Any:
    """``value / x`` where ``x != 0``, else 0 (no division by zero on the way)."""
    zero = x == 0
    return xp.where(zero, 0.0, value / xp.where(zero, 1.0, x))


# One line an op: class name, forward on arrays, gradient of x, gradient of y (PyTorch's derivatives.yaml).
Hypot = _elementwise2("Hypot", lambda xp, x, y: xp.hypot(x, y),
                      lambda g, x, y, out, xp: g * x / out, lambda g, x, y, out, xp: g * y / out)
Logaddexp = _elementwise2("Logaddexp", lambda xp, x, y: xp.logaddexp(x, y),
                          lambda g, x, y, out, xp: g / (xp.exp(y - x) + 1.0),
                          lambda g, x, y, out, xp: g / (xp.exp(x - y) + 1.0))
Logaddexp2 = _elementwise2("Logaddexp2", lambda xp, x, y: xp.logaddexp2(x, y),
                           lambda g, x, y, out, xp: g / (2.0 ** (y - x) + 1.0),
                           lambda g, x, y, out, xp: g / (2.0 ** (x - y) + 1.0))
Copysign = _elementwise2("Copysign", lambda xp, x, y: xp.copysign(x, y),
                         lambda g, x, y, out, xp: g * _where_nonzero(xp, x, out),
                         lambda g, x, y, out, xp: g * 0.0)
Nextafter = _elementwise2("Nextafter", lambda xp, x, y: xp.nextafter(x, y),
                          lambda g, x, y, out, xp: g * 1.0, lambda g, x, y, out, xp: g * 0.0)
Fmod = _elementwise2("Fmod", lambda xp, x, y: xp.fmod(x, y),
                     lambda g, x, y, out, xp: g, lambda g, x, y, out, xp: -g * xp.trunc(x / y),
                     "FmodBackward1")
Remainder = _elementwise2("Remainder", lambda xp, x, y: _rounding_division(_remainder)(x, y),
                          lambda g, x, y, out, xp: g, lambda g, x, y, out, xp: -g * xp.floor(x / y),
                          "RemainderBackward1", keeps_integers=True)

Atan2 = _elementwise2("Atan2", lambda xp, x, y: xp.arctan2(x, y), lambda g, x, y, out, xp: g * y / (x * x + y * y),
                      lambda g, x, y, out, xp: -g * x / (x * x + y * y))
Xlogy = _elementwise2("Xlogy", lambda xp, x, y: _xlogy(xp, x, y),
                      lambda g, x, y, out, xp: _xlogy_slope(xp, g, x, y),
                      lambda g, x, y, out, xp: g * x / y)


Fmax = _elementwise2("Fmax", lambda xp, x, y: xp.fmax(x, y), lambda g, x, y, out, xp: g * _first_wins(xp, x >= y, y),
                     lambda g, x, y, out, xp: g * ~_first_wins(xp, x >= y, y), keeps_integers=True)
Fmin = _elementwise2("Fmin", lambda xp, x, y: xp.fmin(x, y), lambda g, x, y, out, xp: g * _first_wins(xp, x <= y, y),
                     lambda g, x, y, out, xp: g * ~_first_wins(xp, x <= y, y), keeps_integers=True)


def _first_wins(xp: Any, first_wins_ties: Any, y: Any) -> Any:
    """Where fmax / fmin take ``x``: it wins (ties included, unlike maximum) or ``y`` is NaN."""
    return first_wins_ties | xp.isnan(y)


# PyTorch names the nodes of a number operand differently.
_CopysignScalar: type[_Elementwise2] = type("_CopysignScalar", (Copysign,), {}, node_name="CopysignBackward1")
_FmodScalar: type[_Elementwise2] = type("_FmodScalar", (Fmod,), {}, node_name="FmodBackward0")
_XlogyScalar: type[_Elementwise2] = type("_XlogyScalar", (Xlogy,), {}, node_name="XlogyBackward2")
_RemainderScalar: type[_Elementwise2] = type("_RemainderScalar", (Remainder,), {}, node_name="RemainderBackward0")


def add(input: Any, other: Any, *deprecated: Any, alpha: Any = 1) -> Tensor:
    """``input + alpha * other``, broadcasting (also PyTorch's deprecated ``add(input, alpha, other)``)."""
    if deprecated:
        other, alpha = scalar_first("add", (other, *deprecated), "alpha", "Tensor other")
    input, other = _operands("add", input, other)
    _check_alpha(input, other, alpha)
    return Add.apply(input, other, alpha=alpha)


def sub(input: Any, other: Any, *deprecated: Any, alpha: Any = 1) -> Tensor:
    """``input - alpha * other``, broadcasting (also PyTorch's deprecated ``sub(input, alpha, other)``)."""
    if deprecated:
        other, alpha = scalar_first("sub", (other, *deprecated), "alpha", "Tensor other")
    input, other = _operands("sub", input, other)
    _check_alpha(input, other, alpha)
    return Sub.apply(input, other, alpha=alpha)


_WARNED_DEPRECATED: list = []  # PyTorch warns of a deprecated overload once per process


def scalar_first(name: str, args: tuple, scalar: str, tensors: str) -> tuple:
    """The arguments of PyTorch's deprecated overloads that take the scalar first (``add_(alpha, other)``,
    ``addcmul_(value, tensor1, tensor2)``, which older optimizers call), in today's order with the scalar
    last; warns as PyTorch does."""
    count = tensors.count("Tensor")
    if len(args) != count + 1 or not is_number(args[0]) or not all(isinstance(a, _graph.Tensor) for a in args[1:]):
        raise TypeError(f"{name}() takes {count} positional argument{'s' * (count > 1)} but {len(args)} were given")
    if not _WARNED_DEPRECATED:
        _WARNED_DEPRECATED.append(name)
        warnings.warn(f"This overload of {name} is deprecated:\n\t{name}(Number {scalar}, {tensors})\nConsider "
                      f"using one of the following signatures instead:\n\t{name}({tensors}, *, Number {scalar} = 1)",
                      UserWarning, stacklevel=3)
    return (*args[1:], args[0])


def _check_alpha(input: Any, other: Any, alpha: Any) -> None:
    if isinstance(alpha, float) and _is_integral(input) and _is_integral(other):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    if isinstance(alpha, bool) and not all(_is_bool(v._data if isinstance(v, _graph.Tensor) else v)
                                           for v in (input, other)):
        raise RuntimeError("Boolean alpha only supported for Boolean results.")


def mul(input: Any, other: Any) -> Tensor:
    """``input * other``, broadcasting."""
    input, other = _operands("mul", input, other)
    return Mul.apply(input, other)


def div(input: Any, other: Any, *, rounding_mode: str | None = None) -> Tensor:
    """``input / other`` (true division; integers give the default float dtype).

    ``rounding_mode='floor'`` or ``'trunc'`` round the quotient (not differentiable).
    """
    input, other = _operands("div", input, other)
    if rounding_mode is None:
        return Div.apply(input, other)
    if rounding_mode in ("floor", "trunc"):
        _check_common_kernel(f"div_{rounding_mode}_cpu", "uif", input, other)
        return RoundingDiv.apply(input, other, compute=_ROUNDINGS[rounding_mode])
    raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                     f"'{rounding_mode}'")


class RoundingDiv(Op, node_name="DivBackward2"):
    """``div`` with a rounding mode: a step function of its operands, so both gradients are zero."""
    elementwise = True

    @staticmethod
    def forward(ctx: RoundingDiv, x: Any, y: Any, *, compute: Any) -> Any:
        return _rounding_division(compute)(*promote(x, y))

    @staticmethod
    def backward(ctx: RoundingDiv, g: Any) -> tuple:
        zero = ctx.xp.zeros_like(g)
        return zero, zero


class FloorDivide(_graph.NotImplementedOp, node_name="NotImplemented"):
    """``floor_divide``, which PyTorch records without a derivative."""

    @staticmethod
    def forward(ctx: FloorDivide, x: Any, y: Any) -> Any:
        return _rounding_division(_floor_divide)(*promote(x, y))

    @staticmethod
    def backward(ctx: FloorDivide, g: Any) -> Any:
        raise RuntimeError("derivative for aten::floor_divide is not implemented")


def _trunc_divide(a: Any, b: Any) -> Any:
    quotient = a / b
    # (trunc keeps PyTorch's infinities and signed zeros: 3.0 / 0 is inf, 0.0 / -2 is -0.0)
    return quotient.astype(a.dtype) if a.dtype.kind in "iu" else array_module_of(quotient).trunc(quotient)


def pow(input: Any, exponent: Any) -> Tensor:
    """``input ** exponent``: PowBackward0 for a number exponent, PowBackward1 for a tensor one,
    PowBackward2 for a number base."""
    if isinstance(exponent, _graph.Tensor):
        if isinstance(input, (int, float, complex)):
            return PowNumberBase.apply(exponent, base=input)
        return PowTensor.apply(input, exponent)
    if not isinstance(input, _graph.Tensor):
        raise TypeError("pow expects a Tensor base or exponent")
    return Pow.apply(input, exponent=exponent)


def maximum(input: Tensor, other: Tensor) -> Tensor:
    """Elementwise maximum; at ties the gradient is split evenly."""
    require_tensors("maximum", input, other)
    return Maximum.apply(input, other)


def minimum(input: Tensor, other: Tensor) -> Tensor:
    """Elementwise minimum; at ties the gradient is split evenly."""
    require_tensors("minimum", input, other)
    return Minimum.apply(input, other)


def where(condition: Tensor, input: Any = None, other: Any = None) -> Any:
    """``input`` where ``condition`` is True, else ``other``; with only ``condition``, its nonzero
    indices as a tuple of tensors."""
    if input is None and other is None:
        return indexing.nonzero(condition, as_tuple=True)
    if dtypes.kind(condition._data.dtype) != "b":
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with "
                           f"dtype {condition.dtype}")
    if not isinstance(input, _graph.Tensor) and not isinstance(other, _graph.Tensor):
        # Two numbers: the result takes their common dtype (int64, the default float, or bool), as in PyTorch.
        xp, dtype = array_module_of(condition._data), dtypes.result_type(input, other).numpy
        input, other = (_graph.wrap(xp.asarray(v, dtype)) for v in (input, other))
    return Where.apply(input, other, condition=condition._data)


def _check_bounds(name: str, optional: bool, **bounds: Any) -> None:
    """PyTorch's parser takes a clamp bound as a Tensor or a number (or None where it may be left out)."""
    for argument, value in bounds.items():
        if not ((value is None and optional) or isinstance(value, (_graph.Tensor, int, float, complex))):
            raise TypeError(f"{name}(): argument '{argument}' must be Tensor or Number, not {type(value).__name__}")


def clamp(input: Tensor, min: Any = None, max: Any = None) -> Tensor:
    """Clamps every element into ``[min, max]``; the gradient passes where the input is inside."""
    _check_bounds("clamp", True, min=min, max=max)
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, _graph.Tensor) or isinstance(max, _graph.Tensor):
        return _clamp_by_tensors(ClampTensor, input, min, max)
    return Clamp.apply(input, low=min, high=max)


def _clamp_by_tensors(op: type[ClampTensor], input: Tensor, min: Any, max: Any) -> Tensor:
    bounds = [b if isinstance(b, _graph.Tensor) else _graph.wrap(array_module_of(input._data).asarray(b))
              for b in (min, max) if b is not None]
    return op.apply(input, *bounds, has_low=min is not None, has_high=max is not None)


def clamp_min(input: Tensor, min: Any) -> Tensor:
    """``clamp(input, min=min)``, recorded as PyTorch's clamp_min (ClampMinBackward0, which PyTorch's own
    kernels such as hinge losses and ``normalize`` call); ``clamp(min=...)`` records ClampBackward1."""
    _check_bounds("clamp_min", False, min=min)
    if isinstance(min, _graph.Tensor):
        return _clamp_by_tensors(ClampMinTensor, input, min, None)
    return ClampMin.apply(input, low=min, high=None)


def clamp_max(input: Tensor, max: Any) -> Tensor:
    """``clamp(input, max=max)``, recorded as PyTorch's clamp_max (ClampMaxBackward0)."""
    _check_bounds("clamp_max", False, max=max)
    if isinstance(max, _graph.Tensor):
        return _clamp_by_tensors(ClampMaxTensor, input, None, max)
    return ClampMax.apply(input, low=None, high=max)


def _compare(x: Any, y: Any, compute: Any) -> Tensor:
    """A result outside autograd (comparisons, rounding division, logical ops)."""
    xa = x._data if isinstance(x, _graph.Tensor) else x
    ya = y._data if isinstance(y, _graph.Tensor) else y
    xa, ya = promote(xa, ya)
    try:
        out = compute(xa, ya)
    except ValueError as exc:
        raise shape_error("comparison", (x, y), exc) from exc
    xp = array_module_of(xa if not isinstance(xa, (int, float)) else ya)
    return _graph.wrap(iterator_layout(xp, (xa, ya), xp.asarray(out)))


def _rounding_division(compute: Any) -> Any:
    """``compute(a, b)`` with PyTorch's rule for a zero divisor: integers raise (NumPy would warn
    and give 0), floats give inf or nan without a warning."""
    def divide(a: Any, b: Any) -> Any:
        array = b if is_number(a) else a
        if array.dtype.kind in "iu" and array.size and (not b if is_number(b) else not b.all()):
            raise RuntimeError("ZeroDivisionError")
        with np.errstate(divide="ignore", invalid="ignore"):
            return compute(a, b)
    return divide


def _floor_divide(a: Any, b: Any) -> Any:
    return a // b


_ROUNDINGS = {"floor": _floor_divide, "trunc": _trunc_divide}


def _remainder(a: Any, b: Any) -> Any:
    out = a % b
    array = b if is_number(a) else a  # (its dtype, the promoted one: ml_dtypes' 0.5 % bfloat16 is float32)
    return out if out.dtype == array.dtype else out.astype(array.dtype)


# --------------------------------------------------------------------------- ops of three operands
class Lerp(Op):
    """``start + weight * (end - start)`` for a number ``weight``."""

    saved_options = ("weight",)

    @staticmethod
    def forward(ctx: Lerp, start: Any, end: Any, *, weight: float) -> Any:
        ctx.weight = weight
        start, end = promote(start, end)
        return start + weight * (end - start)

    @staticmethod
    def backward(ctx: Lerp, g: Any) -> tuple:
        return g * (1.0 - ctx.weight), g * ctx.weight


class LerpTensor(Op, node_name="LerpBackward1"):
    """``start + weight * (end - start)`` for a tensor ``weight``."""

    @staticmethod
    def forward(ctx: LerpTensor, start: Any, end: Any, weight: Any) -> Any:
        ctx.save_for_backward(start, end, weight)
        start, end = promote(start, end)
        return start + weight.astype(start.dtype, copy=False) * (end - start)  # a 0-dim weight takes start's dtype

    @staticmethod
    def backward(ctx: LerpTensor, g: Any) -> tuple:
        start, end, weight = ctx.saved_tensors
        needs_start, needs_end, needs_weight = ctx.needs_input_grad
        return (g * (1.0 - weight) if needs_start else None, g * weight if needs_end else None,
                g * (end - start) if needs_weight else None)


_INTEGER_ADDCDIV = ("Integer division with addcdiv is no longer supported, and in a future  release addcdiv will "
                    "perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented "
                    "as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
                    "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the "
                    "latter implementation: (input + value * tensor1 / tensor2), for all dtypes.")


def _in_common_dtype(*arrays: Any) -> tuple:
    """The arrays cast to their common PyTorch dtype (addcmul and addcdiv compute in it, all three operands
    together)."""
    target = dtypes.result_type(*((dtypes.from_numpy_dtype(a.dtype), a.ndim) for a in arrays)).numpy
    return tuple(a if a.dtype == target else a.astype(target) for a in arrays)


class Addcmul(Op):
    """``input + value * tensor1 * tensor2``."""

    saved_inputs, saved_options = ("tensor1", "tensor2"), ("value",)

    @staticmethod
    def forward(ctx: Addcmul, x: Any, t1: Any, t2: Any, *, value: float) -> Any:
        ctx.save_for_backward(t1, t2)
        ctx.value = value
        x, t1, t2 = _in_common_dtype(x, t1, t2)
        if x.dtype.kind == "b":
            raise NotImplementedError("\"addcmul_cpu_out\" not implemented for 'Bool'")
        # the value in the result's dtype, as PyTorch's kernel casts it: an integer result truncates 1.5 to 1
        return x + (int(value) if x.dtype.kind in "iu" else value) * t1 * t2

    @staticmethod
    def backward(ctx: Addcmul, g: Any) -> tuple:
        t1, t2 = ctx.saved_tensors
        needs_x, needs_t1, needs_t2 = ctx.needs_input_grad
        scaled = g * ctx.value
        return g if needs_x else None, scaled * t2 if needs_t1 else None, scaled * t1 if needs_t2 else None


class Addcdiv(Op):
    """``input + value * tensor1 / tensor2``."""

    @staticmethod
    def forward(ctx: Addcdiv, x: Any, t1: Any, t2: Any, *, value: float) -> Any:
        ctx.save_for_backward(t1, t2)
        ctx.value = value
        if t1.dtype.kind in "iub" and t2.dtype.kind in "iub":
            raise RuntimeError(_INTEGER_ADDCDIV)
        x, t1, t2 = _in_common_dtype(x, t1, t2)
        return x + value * t1 / t2

    @staticmethod
    def backward(ctx: Addcdiv, g: Any) -> tuple:
        t1, t2 = ctx.saved_tensors
        needs_x, needs_t1, needs_t2 = ctx.needs_input_grad
        scaled = g * ctx.value
        return (g if needs_x else None, scaled / t2 if needs_t1 else None,
                -scaled * t1 / (t2 * t2) if needs_t2 else None)


def lerp(input: Tensor, end: Tensor, weight: Any) -> Tensor:
    """``input + weight * (end - input)``: linear interpolation from ``input`` to ``end`` (``weight`` a
    number or a tensor)."""
    if not isinstance(weight, _graph.Tensor):  # PyTorch's kernel for a number weight is floating only
        dtypes.check_kernel("lerp_kernel_scalar", input.dtype, "fc")
    # PyTorch's dtype checks: end as input, and a weight tensor but a 0-dim one
    for name, other in (("end", end), ("weight", weight)):
        if isinstance(other, _graph.Tensor) and other.dtype != input.dtype and (name == "end" or other.ndim):
            raise RuntimeError(f"expected dtype {dtypes.cpp_type_name(input.dtype)} for `{name}` but got dtype "
                               f"{dtypes.cpp_type_name(other.dtype)}")
    if isinstance(weight, _graph.Tensor):
        return LerpTensor.apply(input, end, weight)
    return Lerp.apply(input, end, weight=weight)


def addcmul(input: Tensor, tensor1: Tensor, tensor2: Any, *deprecated: Any, value: float = 1) -> Tensor:
    """``input + value * tensor1 * tensor2``, elementwise with broadcasting (also PyTorch's deprecated
    ``addcmul(input, value, tensor1, tensor2)``)."""
    if deprecated:
        tensor1, tensor2, value = scalar_first("addcmul", (tensor1, tensor2, *deprecated), "value",
                                               "Tensor tensor1, Tensor tensor2")
    require_tensors("addcmul", input, tensor1, tensor2, names=("input", "tensor1", "tensor2"))
    return Addcmul.apply(input, tensor1, tensor2, value=value)


def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Any, *deprecated: Any, value: float = 1) -> Tensor:
    """``input + value * tensor1 / tensor2``, elementwise with broadcasting (also PyTorch's deprecated
    ``addcdiv(input, value, tensor1, tensor2)``)."""
    if deprecated:
        tensor1, tensor2, value = scalar_first("addcdiv", (tensor1, tensor2, *deprecated), "value",
                                               "Tensor tensor1, Tensor tensor2")
    require_tensors("addcdiv", input, tensor1, tensor2, names=("input", "tensor1", "tensor2"))
    return Addcdiv.apply(input, tensor1, tensor2, value=value)


def xlogy(input: Any, other: Any) -> Tensor:
    """``input * log(other)``, and 0 where ``input`` is 0 (unless ``other`` is NaN)."""
    return (_XlogyScalar if isinstance(other, (int, float)) else Xlogy).apply(input, other)


def atan2(input: Tensor, other: Tensor) -> Tensor:
    """The angle of the point ``(other, input)``, elementwise: ``atan(input / other)`` in the right quadrant."""
    require_tensors("atan2", input, other)
    return Atan2.apply(input, other)


arctan2 = atan2


def hypot(input: Tensor, other: Tensor) -> Tensor:
    """``sqrt(input ** 2 + other ** 2)``, elementwise, without overflow for large operands."""
    require_tensors("hypot", input, other)
    _check_common_kernel("hypot_cpu", "f", input, other)  # no integer kernel: integers are not promoted
    return Hypot.apply(input, other)


def logaddexp(input: Tensor, other: Tensor) -> Tensor:
    """``log(exp(input) + exp(other))``, elementwise, without overflow."""
    require_tensors("logaddexp", input, other)
    _check_common_kernel("logaddexp_cpu", "f", input, other)  # no integer kernel: integers are not promoted
    return Logaddexp.apply(input, other)


def logaddexp2(input: Tensor, other: Tensor) -> Tensor:
    """``log2(2 ** input + 2 ** other)``, elementwise, without overflow."""
    require_tensors("logaddexp2", input, other)
    _check_common_kernel("logaddexp2_cpu", "f", input, other)  # no integer kernel: integers are not promoted
    return Logaddexp2.apply(input, other)


def copysign(input: Any, other: Any) -> Tensor:
    """``|input|`` with the sign of ``other`` (``-0.0`` counts as negative); always floating.

    The gradient is ``copysign(input, other) / input`` for ``input`` (0 where ``input`` is 0) and zero
    for ``other``.
    """
    op = _CopysignScalar if isinstance(other, (int, float)) else Copysign
    return op.apply(input, other)


def nextafter(input: Tensor, other: Tensor) -> Tensor:
    """The next floating-point value after ``input`` towards ``other``, elementwise. As in PyTorch, the
    gradient passes to ``input`` unchanged and none goes to ``other``."""
    require_tensors("nextafter", input, other)
    _check_common_kernel("nextafter_cpu", "f", input, other)  # no integer kernel: integers are not promoted
    return Nextafter.apply(input, other)


def fmod(input: Any, other: Any) -> Tensor:
    """C's ``fmod``: ``input - trunc(input / other) * other``, the remainder with the sign of ``input``
    (``remainder`` takes the sign of ``other``). Integer operands give an integer result."""
    _check_common_kernel("fmod_cpu", "uif", input, other)
    if all(_is_integral(v) for v in (input, other)):
        # CuPy arrays reach CuPy's fmod through __array_ufunc__; an integer zero divisor raises.
        return _compare(input, other, _rounding_division(np.fmod))
    return (_FmodScalar if isinstance(other, (int, float)) else Fmod).apply(input, other)


def fmax(input: Tensor, other: Tensor) -> Tensor:
    """Elementwise maximum that ignores NaN (NaN only where both are NaN); integer dtypes are kept. At
    ties the gradient goes to ``input``."""
    require_tensors("fmax", input, other)
    reject_complex("fmax", input._data, other._data, message="fmax not implemented for complex tensors.",
                   error=RuntimeError)
    return Fmax.apply(input, other)


def fmin(input: Tensor, other: Tensor) -> Tensor:
    """Elementwise minimum that ignores NaN (NaN only where both are NaN); integer dtypes are kept. At
    ties the gradient goes to ``input``."""
    require_tensors("fmin", input, other)
    reject_complex("fmin", input._data, other._data, message="fmin not implemented for complex tensors.",
                   error=RuntimeError)
    return Fmin.apply(input, other)


def require_tensors(name: str, *values: Any, names: tuple[str, ...] = ("input", "other")) -> None:
    """PyTorch's argument parser's TypeError for ops whose signature takes only Tensors (no Scalar
    overload): ``maximum(t, 1)`` raises where ``add(t, 1)`` does not."""
    for position, (argument, value) in enumerate(zip(names, values), 1):
        if not isinstance(value, _graph.Tensor):
            raise TypeError(f"{name}(): argument '{argument}' (position {position}) must be Tensor, not "
                            f"{type(value).__name__}")


class Heaviside(_graph.NotImplementedOp, node_name="NotImplemented"):
    """The step function: 0 below zero, 1 above, ``values`` at zero (NaN gives 0, as PyTorch)."""

    @staticmethod
    def forward(ctx: Heaviside, x: Any, values: Any) -> Any:
        return ctx.xp.where(x == 0, values, x > 0).astype(x.dtype)

    @staticmethod
    def backward(ctx: Heaviside, g: Any) -> Any:
        raise RuntimeError("derivative for aten::heaviside is not implemented")


def heaviside(input: Tensor, values: Tensor) -> Tensor:
    """The Heaviside step function of ``input``, with ``values`` (broadcast) where ``input`` is zero; the
    two tensors must have the same dtype, which the result keeps. Not differentiable."""
    if not isinstance(values, _graph.Tensor):
        raise TypeError(f"heaviside(): argument 'values' (position 2) must be Tensor, not {type(values).__name__}")
    if input.dtype.is_complex or values.dtype.is_complex:
        raise RuntimeError("heaviside is not yet implemented for complex tensors.")
    if input.dtype != values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    return Heaviside.apply(input, values)


def _integer_op(name: str, kernel: str, input: Any, other: Any, compute: Any) -> Tensor:
    """An op of integer tensors outside autograd; a floating, complex or bool common dtype is rejected with
    PyTorch's ``"<kernel>_cpu" not implemented for '<type>'`` (a bool operand meeting an integer one is fine)."""
    common = dtypes.result_type(*((v.dtype, v.dim()) if isinstance(v, _graph.Tensor) else v for v in (input, other)))
    if common.is_floating_point or common.is_complex or common == dtypes.bool_:
        raise NotImplementedError(f"\"{kernel}_cpu\" not implemented for '{dtypes.scalar_type_name(common)}'")
    return _compare(input, other, compute)


def gcd(input: Tensor, other: Tensor) -> Tensor:
    """The greatest common divisor of integer tensors, elementwise (non-negative; ``gcd(0, 0) = 0``)."""
    require_tensors("gcd", input, other)
    return _integer_op("gcd", "gcd", input, other, np.gcd)  # CuPy arrays reach cupy.gcd via __array_ufunc__


def lcm(input: Tensor, other: Tensor) -> Tensor:
    """The least common multiple of integer tensors, elementwise (non-negative; 0 where either is 0)."""
    require_tensors("lcm", input, other)
    return _integer_op("lcm", "lcm", input, other, np.lcm)


def _shift(left: bool) -> Any:
    """``a << b`` or ``a >> b`` as PyTorch computes them: shifting by a negative amount or by the width
    of the type or more gives 0 (and -1 for a right shift of a negative number), where C leaves it undefined."""
    def compute(a: Any, b: Any) -> Any:
        array = b if is_number(a) else a
        xp, dtype = array_module_of(array), array.dtype
        a, b = xp.asarray(a, dtype), xp.asarray(b, dtype)
        bits = dtype.itemsize * 8
        out_of_range = (b < 0) | (b >= bits)
        amount = xp.where(out_of_range, 0, b).astype(b.dtype)
        shifted = a << amount if left else a >> amount
        fill = 0 if left else xp.where(a < 0, -1, 0)
        return xp.where(out_of_range, fill, shifted).astype(shifted.dtype)
    return compute


def bitwise_left_shift(input: Any, other: Any) -> Tensor:
    """``input << other`` on integers, elementwise; bits shifted past the type's width are lost."""
    return _integer_op("bitwise_left_shift", "lshift", input, other, _shift(left=True))


def bitwise_right_shift(input: Any, other: Any) -> Tensor:
    """``input >> other`` on integers, elementwise: an arithmetic shift (the sign is kept)."""
    return _integer_op("bitwise_right_shift", "rshift", input, other, _shift(left=False))


def float_power(input: Any, exponent: Any) -> Tensor:
    """``input ** exponent`` computed in float64 whatever the operands' dtypes (a float64 result; complex128
    where either is complex)."""
    if not isinstance(input, _graph.Tensor) and not isinstance(exponent, _graph.Tensor):
        raise TypeError("float_power() expects a Tensor input or exponent")
    complex_operand = any(v.dtype.is_complex if isinstance(v, _graph.Tensor) else isinstance(v, complex)
                          for v in (input, exponent))
    target = dtypes.complex128 if complex_operand else dtypes.float64
    return pow(*(_in_float64(v, target) for v in (input, exponent)))


def _in_float64(value: Any, target: Any) -> Any:
    if not isinstance(value, _graph.Tensor):
        return complex(value) if target.is_complex else float(value)
    return value if value.dtype == target else conversion.to_dtype(value, target)


def _is_integral(value: Any) -> bool:
    data = value._data if isinstance(value, _graph.Tensor) else value
    return isinstance(data, int) or (hasattr(data, "dtype") and data.dtype.kind in "iub")


def floor_divide(input: Any, other: Any) -> Tensor:
    """``input // other``: the quotient rounded towards minus infinity; an integer zero divisor raises."""
    input, other = _operands("floor_divide", input, other)
    _check_common_kernel("div_floor_cpu", "uif", input, other)
    return FloorDivide.apply(input, other)


def remainder(input: Any, other: Any) -> Tensor:
    """``input % other``, with the sign of ``other`` (Python's modulus); an integer zero divisor raises.
    The gradient is ``g`` for ``input`` and ``-g * floor(input / other)`` for ``other``."""
    _check_common_kernel("remainder_cpu", "uif", input, other)
    if not isinstance(input, _graph.Tensor) or all(_is_integral(v) for v in (input, other)):
        return _compare(input, other, _rounding_division(_remainder))  # no derivative (PyTorch's NotImplemented)
    return (_RemainderScalar if isinstance(other, (int, float)) else Remainder).apply(input, other)


def _comparison(name: str, input: Any, other: Any, compute: Any) -> Tensor:
    """A comparison of ``input``, which must be a Tensor (PyTorch's comparisons have no overload with a
    number first: ``eq(2, t)`` is its TypeError), with a Tensor or a number."""
    if not isinstance(input, _graph.Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return _compare(input, other, compute)


def eq(input: Any, other: Any) -> Tensor:
    """``input == other`` elementwise, broadcasting: a bool tensor (no gradient)."""
    return _comparison("eq", input, other, lambda a, b: a == b)


def ne(input: Any, other: Any) -> Tensor:
    """``input != other`` elementwise, broadcasting: a bool tensor (no gradient)."""
    return _comparison("ne", input, other, lambda a, b: a != b)


def lt(input: Any, other: Any) -> Tensor:
    """``input < other`` elementwise, broadcasting: a bool tensor (no gradient)."""
    reject_complex("lt", input, other)
    return _comparison("lt", input, other, lambda a, b: a < b)


def le(input: Any, other: Any) -> Tensor:
    """``input <= other`` elementwise, broadcasting: a bool tensor (no gradient)."""
    reject_complex("le", input, other)
    return _comparison("le", input, other, lambda a, b: a <= b)


def gt(input: Any, other: Any) -> Tensor:
    """``input > other`` elementwise, broadcasting: a bool tensor (no gradient)."""
    reject_complex("gt", input, other)
    return _comparison("gt", input, other, lambda a, b: a > b)


def ge(input: Any, other: Any) -> Tensor:
    """``input >= other`` elementwise, broadcasting: a bool tensor (no gradient)."""
    reject_complex("ge", input, other)
    return _comparison("ge", input, other, lambda a, b: a >= b)


def logical_and(input: Any, other: Any) -> Tensor:
    """Whether both ``input`` and ``other`` are nonzero, elementwise, broadcasting: a bool tensor."""
    require_tensors("logical_and", input, other)
    return _compare(input, other, lambda a, b: (a != 0) & (b != 0))


def logical_or(input: Any, other: Any) -> Tensor:
    """Whether ``input`` or ``other`` is nonzero, elementwise, broadcasting: a bool tensor."""
    require_tensors("logical_or", input, other)
    return _compare(input, other, lambda a, b: (a != 0) | (b != 0))


def logical_xor(input: Any, other: Any) -> Tensor:
    """Whether exactly one of ``input`` and ``other`` is nonzero, elementwise, broadcasting: a bool tensor."""
    require_tensors("logical_xor", input, other)
    return _compare(input, other, lambda a, b: (a != 0) ^ (b != 0))


def logical_not(input: Tensor) -> Tensor:
    """Whether ``input`` is zero, elementwise: a bool tensor."""
    return _graph.wrap(input._data == 0)


def _check_common_kernel(kernel: str, kinds: str, *values: Any) -> None:
    """PyTorch's ``"<kernel>" not implemented for '<type>'`` where the operands' common dtype (Python
    numbers included) is not of ``kinds`` (NumPy's kind letters); shapes that do not broadcast are
    reported first, as PyTorch reports them."""
    common = dtypes.result_type(*((v.dtype, v.ndim) if isinstance(v, _graph.Tensor) else v for v in values))
    try:
        dtypes.check_kernel(kernel, common, kinds)
    except NotImplementedError:
        try:
            np.broadcast_shapes(*(v.shape for v in values if isinstance(v, _graph.Tensor)))
        except ValueError as exc:
            raise shape_error(kernel, values, exc) from exc
        raise


def bitwise_and(input: Any, other: Any) -> Tensor:
    _check_common_kernel("bitwise_and_cpu", "bui", input, other)
    return _compare(input, other, lambda a, b: a & b)


def bitwise_or(input: Any, other: Any) -> Tensor:
    _check_common_kernel("bitwise_or_cpu", "bui", input, other)
    return _compare(input, other, lambda a, b: a | b)


def bitwise_xor(input: Any, other: Any) -> Tensor:
    _check_common_kernel("bitwise_xor_cpu", "bui", input, other)
    return _compare(input, other, lambda a, b: a ^ b)


def bitwise_not(input: Tensor) -> Tensor:
    _check_common_kernel("bitwise_not_cpu", "bui", input)
    return _graph.wrap(~input._data)


def isclose(input: Tensor, other: Tensor, rtol: float = 1e-5, atol: float = 1e-8,
            equal_nan: bool = False) -> Tensor:
    """Elementwise ``|input - other| <= atol + rtol * |other|``."""
    require_tensors("isclose", input, other)
    if input.dtype != other.dtype:
        raise RuntimeError(f"{dtypes.scalar_type_name(input.dtype)} did not match "
                           f"{dtypes.scalar_type_name(other.dtype)}")
    xp = array_module_of(input._data)
    return _compare(input, other, lambda a, b: xp.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def allclose(input: Tensor, other: Tensor, rtol: float = 1e-5, atol: float = 1e-8,
             equal_nan: bool = False) -> bool:
    """True when every element is close (see ``isclose``)."""
    return bool(isclose(input, other, rtol, atol, equal_nan)._data.all())


subtract = sub
multiply = mul
divide = true_divide = div
