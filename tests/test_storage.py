"""Tensor.storage() and the typed storages (torch.TypedStorage, torch.FloatStorage, ...), against PyTorch
2.13's behaviour (recorded values)."""
from __future__ import annotations

import warnings

import pytest

import tinyframe as torch
from tinyframe import storage as storage_module

DEPRECATION = ("TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the only "
               "storage class. This should only matter to you if you are using storages directly.  To access "
               "UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()")


def test_storage_warns_once_at_the_callers_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(storage_module, "_warned", False)
    x = torch.arange(6.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x.storage()
        x.storage()
        torch.FloatStorage(3)
        x.storage_type()
    assert [(str(w.message), w.category, w.filename) for w in caught] == [(DEPRECATION, UserWarning, __file__)]


@pytest.mark.filterwarnings("ignore:TypedStorage is deprecated")
def test_storage_of_a_view_is_the_whole_shared_memory(device: str) -> None:
    x = torch.arange(6, dtype=torch.float32, device=device)
    v = x[2:5]
    s = v.storage()
    assert s.data_ptr() == x.data_ptr() == v.storage().data_ptr() == x.reshape(2, 3).t().storage().data_ptr()
    assert v.data_ptr() - s.data_ptr() == v.storage_offset() * s.element_size() == 8
    assert (s.size(), len(s), s.element_size(), s.nbytes()) == (6, 6, 4, 24)
    assert s.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0] and list(s) == s.tolist()
    assert s.dtype is torch.float32 and s.device == x.device and s.is_cuda == (device == "cuda")
    assert s._untyped_storage.nbytes() == s.untyped().nbytes() == 24
    assert s.untyped().data_ptr() == x.untyped_storage().data_ptr()
    s[0] = 10.0  # writes through the storage are seen by every view
    assert x.tolist()[0] == 10.0 and s[0] == 10.0 and type(s[1]) is float
    v[0] = 7.0
    assert s[2] == 7.0 and s.fill_(2).tolist() == [2.0] * 6 and x.tolist() == [2.0] * 6
    assert x.clone().storage().data_ptr() != s.data_ptr()


@pytest.mark.filterwarnings("ignore:TypedStorage is deprecated")
def test_storage_types_and_legacy_storages() -> None:
    x = torch.arange(6.0)
    assert x.storage_type() is torch.FloatStorage and x.double().storage_type() is torch.DoubleStorage
    assert torch.arange(3).storage_type() is torch.LongStorage
    assert torch.zeros(2, dtype=torch.bool).storage_type() is torch.BoolStorage
    assert torch.arange(3).storage().dtype is torch.int64 and torch.arange(3).storage().tolist() == [0, 1, 2]
    s = x.storage()
    assert isinstance(s, torch.FloatStorage) and isinstance(s, torch.TypedStorage)
    assert not isinstance(s, torch.DoubleStorage) and s.type() == "torch.FloatStorage" and not s.is_shared()
    assert torch.FloatStorage(3).size() == 3 and torch.FloatStorage(3).dtype is torch.float32
    assert torch.FloatStorage([1, 2, 3]).tolist() == [1.0, 2.0, 3.0]
    assert torch.TypedStorage(3).size() == 3 and torch.TypedStorage(3, dtype=torch.float64).dtype is torch.float64
    assert x.view(torch.int32).storage().size() == 6 and x.view(torch.int32).storage().dtype is torch.int32
    with pytest.raises(IndexError, match="^index 10 out of range for storage of size 6$"):
        s[10]


@pytest.mark.filterwarnings("ignore:TypedStorage is deprecated")
def test_storage_repr_lists_the_elements() -> None:
    # PyTorch 2.13 prints " 0.0\n 1.0\n[torch.storage.TypedStorage(dtype=torch.float32, device=cpu) of size 2]"
    assert repr(torch.arange(2.0).storage()) == (
        " 0.0\n 1.0\n[tinyframe.storage.TypedStorage(dtype=tinyframe.float32, device=cpu) of size 2]")
    assert repr(torch.tensor([]).storage()) == (
        " \n[tinyframe.storage.TypedStorage(dtype=tinyframe.float32, device=cpu) of size 0]")
