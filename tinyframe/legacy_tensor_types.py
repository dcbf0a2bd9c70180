"""PyTorch's legacy typed constructors (``torch.FloatTensor(2, 3)``, ``torch.LongTensor([1, 2])``),
which older scripts still call and test with ``isinstance``."""
from __future__ import annotations

from typing import Any

from . import creation, cuda, dtypes
from .tensor import Tensor

__all__ = ["FloatTensor", "DoubleTensor", "HalfTensor", "ByteTensor", "CharTensor", "ShortTensor",
           "IntTensor", "LongTensor", "BoolTensor"]


class _LegacyTensorType(type):
    """The class of the typed constructors: calling one makes a tensor of its dtype on its device type
    (``torch.FloatTensor`` the CPU, ``torch.cuda.FloatTensor`` the current GPU), and
    ``isinstance(t, FloatTensor)`` checks ``t``'s dtype and device, as in PyTorch."""

    dtype: dtypes.dtype
    device_type: str

    def __call__(cls, *data: Any) -> Tensor:
        if all(isinstance(n, int) for n in data) or len(data) == 1 and isinstance(data[0], tuple):
            # a size: PyTorch leaves the values uninitialized
            return creation.zeros(*data, dtype=cls.dtype, device=cls.device_type)
        return creation.tensor(data[0], dtype=cls.dtype, device=cls.device_type)

    def __instancecheck__(cls, obj: Any) -> bool:
        return (isinstance(obj, Tensor) and obj.dtype is cls.dtype and obj.device.type == cls.device_type
                and not obj.is_sparse)


def _legacy_type(d: dtypes.dtype, device_type: str = "cpu") -> _LegacyTensorType:
    name = dtypes.legacy_type_name(d)
    module = "tinyframe" if device_type == "cpu" else f"tinyframe.{device_type}"
    return _LegacyTensorType(name, (), {"dtype": d, "device_type": device_type, "__module__": module,
                                        "__qualname__": name})


FloatTensor = _legacy_type(dtypes.float32)
DoubleTensor = _legacy_type(dtypes.float64)
HalfTensor = _legacy_type(dtypes.float16)
ByteTensor = _legacy_type(dtypes.uint8)
CharTensor = _legacy_type(dtypes.int8)
ShortTensor = _legacy_type(dtypes.int16)
IntTensor = _legacy_type(dtypes.int32)
LongTensor = _legacy_type(dtypes.int64)
BoolTensor = _legacy_type(dtypes.bool_)

# torch.cuda.FloatTensor and the others, which older scripts pick by hand
# (``Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor``) or test with ``isinstance``.
for _name in __all__:
    setattr(cuda, _name, _legacy_type(globals()[_name].dtype, "cuda"))
