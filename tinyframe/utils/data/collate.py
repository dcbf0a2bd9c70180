"""``default_collate`` (a list of samples -> one batch) and ``default_convert`` (arrays -> tensors)."""
from __future__ import annotations

import collections.abc
import copy
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..._dlpack import from_dlpack
from ...creation import tensor
from ...device import array_module_of
from ...dtypes import float64, from_numpy_dtype
from ...ops import shape as shape_ops
from ...tensor import Tensor

__all__ = ["default_collate", "default_convert"]

_ERROR = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"
_NOT_NUMERIC = "SaUO"  # NumPy kinds of bytes, str and object arrays, which cannot become tensors


def default_collate(batch: Sequence) -> Any:
    """Merges a list of samples into a batch, as PyTorch's ``default_collate``.

    Tensors and NumPy arrays are stacked along a new first dimension (``[B, *shape]``, keeping their
    dtype); Python ints become an int64 tensor, floats a float64 tensor, bools a bool tensor, NumPy
    scalars a tensor of their dtype; strings and bytes are left as a sequence. Dicts, namedtuples and
    sequences are collated field by field (tuples come back as lists, as in PyTorch). Beyond
    PyTorch, other libraries' arrays are taken too: objects with ``__dlpack__`` (a ``torch.Tensor``
    from torchvision's ``ToTensor()``, a CuPy or JAX array) without a copy, and objects with
    ``__array__`` (a PIL image) through ``np.asarray``.
    """
    elem = batch[0]
    if isinstance(elem, Tensor):
        return _stack_tensors(batch)
    if isinstance(elem, np.ndarray):
        if elem.dtype.kind in _NOT_NUMERIC:
            raise TypeError(_ERROR.format(elem.dtype))
        from_numpy_dtype(elem.dtype)
        return _stack_tensors([Tensor._make(np.asarray(b)) for b in batch])
    if isinstance(elem, (np.bool_, np.number)):
        array = np.array(batch)
        from_numpy_dtype(array.dtype)
        return Tensor._make(array)
    if isinstance(elem, float):
        return tensor(batch, dtype=float64)
    if isinstance(elem, int):
        return tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if _is_foreign_array(elem):
        return default_collate([_from_foreign_array(sample) for sample in batch])
    if isinstance(elem, collections.abc.Mapping):
        collated = {key: default_collate([sample[key] for sample in batch]) for key in elem}
        if isinstance(elem, collections.abc.MutableMapping):
            clone: Any = copy.copy(elem)  # a list below: the same name for the copy of either container
            clone.update(collated)
            return clone
        return collated
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # namedtuple
        return type(elem)(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        size = len(elem)
        if any(len(sample) != size for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        fields = [default_collate(samples) for samples in zip(*batch)]
        if isinstance(elem, collections.abc.MutableSequence):
            clone = copy.copy(elem)
            clone[:] = fields
            return clone
        return fields
    raise TypeError(_ERROR.format(type(elem)))


def _stack_tensors(batch: Sequence) -> Tensor:
    """``stack(batch)``: one array stack when the tensors agree in shape, dtype and device and need no
    graph; the stack op otherwise (type promotion, autograd, its device errors)."""
    first = batch[0]._data
    for i, sample in enumerate(batch):
        if sample.shape != batch[0].shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(first.shape)} at "
                               f"entry 0 and {list(sample.shape)} at entry {i}")
    arrays = [sample._data for sample in batch]
    if (any(sample._requires_grad for sample in batch) or any(a.dtype != first.dtype for a in arrays)
            or any(type(a) is not type(first) for a in arrays)):
        return shape_ops.stack(batch, 0)
    if isinstance(first, np.ndarray):
        return Tensor._make(np.stack(arrays))
    xp = array_module_of(first)
    with xp.cuda.Device(first.device.id):
        return Tensor._make(xp.stack(arrays))


def default_convert(data: Any) -> Any:
    """Turns NumPy arrays and scalars inside ``data`` into tensors, keeping everything else
    (the collate function of a DataLoader with ``batch_size=None``)."""
    if isinstance(data, np.ndarray):
        return data if data.dtype.kind in _NOT_NUMERIC else Tensor._make(np.asarray(data))
    if isinstance(data, (np.bool_, np.number)):
        return Tensor._make(np.asarray(data))
    if isinstance(data, (Tensor, str, bytes)):
        return data
    if _is_foreign_array(data):
        return default_convert(_from_foreign_array(data))
    if isinstance(data, collections.abc.Mapping):
        converted = {key: default_convert(value) for key, value in data.items()}
        if isinstance(data, collections.abc.MutableMapping):
            clone: Any = copy.copy(data)  # a list below: the same name for the copy of either container
            clone.update(converted)
            return clone
        return converted
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(value) for value in data))
    if isinstance(data, tuple):
        return [default_convert(value) for value in data]
    if isinstance(data, collections.abc.MutableSequence):
        clone = copy.copy(data)
        clone[:] = [default_convert(value) for value in data]
        return clone
    return data


def _is_foreign_array(value: Any) -> bool:
    """Another library's array (not a Tensor or ndarray): it offers DLPack or one of NumPy's protocols
    (a PIL image has ``__array_interface__``)."""
    return any(hasattr(value, name) for name in ("__dlpack__", "__array__", "__array_interface__"))


def _from_foreign_array(value: Any) -> Any:
    """A tensor sharing ``value``'s memory through DLPack, else the array ``np.asarray`` makes."""
    if hasattr(value, "__dlpack__"):
        return from_dlpack(value)
    return np.asarray(value)
