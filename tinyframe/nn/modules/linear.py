"""``Linear`` and ``Identity``."""
from __future__ import annotations

import math
from typing import Any

from ... import creation
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["Identity", "Linear", "NonDynamicallyQuantizableLinear", "Bilinear"]


class Identity(Module):
    """Returns its input unchanged (arguments are accepted and ignored)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Any) -> Any:
        return input


class Linear(Module):
    """``y = x W^T + b``: input ``(*, in_features)``, output ``(*, out_features)``.

    Weight ``(out_features, in_features)`` and bias ``(out_features,)`` start as
    U(-1/sqrt(in_features), 1/sqrt(in_features)), as in PyTorch.
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.weight = Parameter(creation.empty(out_features, in_features, device=device, dtype=dtype))
        self.bias = Parameter(creation.empty(out_features, device=device, dtype=dtype)) if bias else None
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            bound = 1 / math.sqrt(self.in_features) if self.in_features > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Any) -> Any:
        parameters = self._parameters
        if "weight" in parameters and "bias" in parameters:
            # Fast path: read where ``self.weight`` would find them, without first failing the
            # ordinary attribute lookup (an AttributeError made and caught per name before
            # ``Module.__getattr__`` runs); timeit on the loaded shared machine: reading both 9.4 -> 0.3 us.
            # weight_norm, spectral_norm and parametrize take a name out of ``_parameters``.
            return F.linear(input, parameters["weight"], parameters["bias"])
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class NonDynamicallyQuantizableLinear(Linear):
    """A ``Linear`` under PyTorch's name for ``MultiheadAttention.out_proj`` (the name shows in its repr)."""


class Bilinear(Module):
    """``y = x1^T W x2 + b``: ``y[..., o] = sum_{i, j} x1[..., i] W[o, i, j] x2[..., j] + b[o]``.

    Weight ``(out_features, in1_features, in2_features)`` and bias ``(out_features,)`` start as
    U(-1/sqrt(in1_features), 1/sqrt(in1_features)), as in PyTorch.
    """

    def __init__(self, in1_features: int, in2_features: int, out_features: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.in1_features, self.in2_features, self.out_features = in1_features, in2_features, out_features
        self.weight = Parameter(creation.empty(out_features, in1_features, in2_features, device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(creation.empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.in1_features <= 0:
            raise ValueError(f"in1_features must be > 0, but got (in1_features={self.in1_features})")
        bound = 1 / math.sqrt(self.weight.shape[1])
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1: Any, input2: Any) -> Any:
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")
