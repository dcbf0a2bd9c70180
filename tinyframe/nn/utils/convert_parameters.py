"""One flat vector from many parameters and back, as ``torch.nn.utils.convert_parameters``."""
from __future__ import annotations

from collections.abc import Iterable

from ...device import device
from ...ops import shape
from ...tensor import Tensor

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def _check_same_device(param: Tensor, first: device | None) -> device:
    if first is not None and param.device != first:
        raise TypeError("Found two parameters on different devices, this is currently not supported.")
    return param.device


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """The parameters flattened and concatenated into one 1-D tensor (differentiable, like ``cat``)."""
    first = None
    pieces = []
    for param in parameters:
        first = _check_same_device(param, first)
        pieces.append(shape.reshape(param, (-1,)))
    return shape.cat(pieces)


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Points each parameter's data at its slice of the 1-D ``vec`` (in order), reshaped to its shape;
    the parameters then share ``vec``'s storage."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    first = None
    pointer = 0
    for param in parameters:
        first = _check_same_device(param, first)
        count = param.numel()
        param.data = vec[pointer:pointer + count].view_as(param).data
        pointer += count
