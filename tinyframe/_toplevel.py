"""Top-level helpers that PyTorch scripts call beside the ops: type checks, ``equal``, dtype
promotion, and global switches tinyframe accepts (determinism, matmul precision, ``compile``)."""
from __future__ import annotations

import math
from typing import Any

from . import _graph, dtypes, random
from .ops.binary import clamp
from .tensor import Tensor

__all__ = ["clip",
           "equal", "is_tensor", "is_floating_point", "is_nonzero", "typename", "numel", "promote_types", "result_type",
           "use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
           "set_float32_matmul_precision", "get_float32_matmul_precision", "compile", "pi", "e", "inf", "nan",
           "newaxis", "get_rng_state", "set_rng_state"]

pi, e, inf, nan = math.pi, math.e, math.inf, math.nan
clip = clamp  # PyTorch's alias
newaxis = None

_DETERMINISTIC = [False]
_MATMUL_PRECISION = ["highest"]


def equal(input: Tensor, other: Tensor) -> bool:
    """True if the two tensors have the same shape and elements."""
    return input.equal(other)


def is_tensor(obj: Any) -> bool:
    """True if ``obj`` is a tinyframe Tensor."""
    return isinstance(obj, Tensor)


def is_floating_point(input: Tensor) -> bool:
    """True if ``input``'s dtype is a floating type."""
    return input.is_floating_point()


def is_nonzero(input: Tensor) -> bool:
    """The truth of a one-element tensor; RuntimeError for any other size, as PyTorch."""
    return input.is_nonzero()


def typename(obj: Any) -> str:
    """The type name of ``obj``: a tensor's legacy type (``tinyframe.FloatTensor``), else the class's
    qualified name."""
    if isinstance(obj, Tensor):
        return obj.type()
    module = type(obj).__module__
    return type(obj).__qualname__ if module in ("builtins", None) else f"{module}.{type(obj).__qualname__}"


def numel(input: Tensor) -> int:
    """The number of elements of ``input``."""
    return input.numel()


def promote_types(type1: dtypes.dtype, type2: dtypes.dtype) -> dtypes.dtype:
    """The smallest dtype both ``type1`` and ``type2`` cast into, by PyTorch's promotion rules."""
    return dtypes.result_type((type1, 1), (type2, 1))


def result_type(tensor1: Any, tensor2: Any) -> dtypes.dtype:
    """The dtype an elementwise op on the two operands (tensors or Python numbers) produces."""
    return dtypes.result_type(*(_operand(t) for t in (tensor1, tensor2)))


def _operand(value: Any) -> Any:
    return (value.dtype, value.dim()) if isinstance(value, Tensor) else value


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    """Accepted and remembered: tinyframe's NumPy/CuPy kernels are already deterministic."""
    _DETERMINISTIC[0] = bool(mode)


def are_deterministic_algorithms_enabled() -> bool:
    """The value last given to :func:`use_deterministic_algorithms`."""
    return _DETERMINISTIC[0]


def set_float32_matmul_precision(precision: str) -> None:
    """Accepted and remembered ("highest", "high" or "medium"); tinyframe always multiplies in float32."""
    if precision not in ("highest", "high", "medium"):
        raise RuntimeError(f"Invalid precision: {precision}; expected 'highest', 'high' or 'medium'")
    _MATMUL_PRECISION[0] = precision


def get_float32_matmul_precision() -> str:
    """The value last given to :func:`set_float32_matmul_precision` ("highest" by default)."""
    return _MATMUL_PRECISION[0]


def compile(model: Any = None, **options: Any) -> Any:
    """Returns ``model`` unchanged (as a decorator too): tinyframe runs eagerly, and ``torch.compile``
    never changes results."""
    if model is None:
        return lambda fn: fn
    return model


def get_rng_state() -> Tensor:
    """The CPU generator's state as PyTorch's uint8 tensor of 5056 bytes (``CPUGeneratorImplState``)."""
    return _graph.wrap(random.default_generator.get_state())


def set_rng_state(new_state: Tensor) -> None:
    """Restores the CPU generator's state from :func:`get_rng_state`."""
    random.default_generator.set_state(new_state)
