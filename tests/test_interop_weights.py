"""Weights in and out: PyTorch's torch.save files read without PyTorch (and without running pickled
code), and safetensors files both ways.

tests/data/*.pt were written by PyTorch 2.13 (tests/data/make_torch_fixtures.py); the expected
outputs below are PyTorch's, recorded there. Tests that call PyTorch or the safetensors package are
skipped when they are not importable.
"""
from __future__ import annotations

import builtins
import os
import pickle
import zipfile
from collections import OrderedDict
from pathlib import Path

import numpy as np
import pytest

import tinyframe
from tinyframe import nn
from tinyframe.utils import safetensors as st

DATA = Path(__file__).resolve().parent / "data"
# PyTorch's outputs of the model in torch_convnet.pt (eval mode) on the input below.
TORCH_OUTPUT = [[-0.25415870547294617, -0.37779414653778076, 0.14493045210838318],
                [-0.2554657459259033, -0.18226736783981323, 0.22307024896144867]]


def convnet() -> nn.Module:
    return nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU(), nn.Flatten(), nn.Linear(8, 3))


def fixed_input() -> tinyframe.Tensor:
    return tinyframe.tensor(np.linspace(-1, 1, 2 * 16, dtype=np.float32).reshape(2, 1, 4, 4))


def test_pytorch_state_dict_loads_into_the_same_tinyframe_model_with_the_same_outputs():
    state = tinyframe.load(DATA / "torch_convnet.pt")
    assert isinstance(state, OrderedDict) and state["1.num_batches_tracked"].dtype == tinyframe.int64
    model = convnet()
    model.load_state_dict(state)
    model.eval()
    np.testing.assert_allclose(model(fixed_input()).detach().numpy(), TORCH_OUTPUT, rtol=1e-5, atol=1e-6)


def test_pytorch_file_values_are_rebuilt_with_their_dtypes():
    values = tinyframe.load(DATA / "torch_values.pt")
    expected = {"float64": [1.5, -2.0], "float16": [0.5, 65504.0], "int64": [-(2 ** 40), 7], "int32": [3],
                "int16": [-4], "int8": [-5], "uint8": [250], "bool": [True, False]}
    for name, items in expected.items():
        assert values[name].dtype.name == name and values[name].tolist() == items
    assert values["bfloat16"].dtype == tinyframe.bfloat16
    assert values["bfloat16"].tolist() == [1.0, -3.140625, 1.0002555517425873e+30]  # torch's tolist()
    assert values["parameter"].requires_grad and values["parameter"].is_leaf
    assert values["plain"] == {"lr": 0.1, "steps": [1, 2], "name": "adam", "betas": (0.9, 0.999), "none": None}
    assert values["size"] == tinyframe.Size([2, 3]) and values["dtype"] == tinyframe.float16


def test_pytorch_views_of_one_storage_load_sharing_it():
    values = tinyframe.load(DATA / "torch_values.pt")
    assert values["transposed"].tolist() == values["base"].t().tolist() and values["transposed"].stride() == (1, 4)
    values["base"][1, 0] = 100.0
    assert values["row"][0].item() == 100.0 and values["transposed"][0, 1].item() == 100.0


def torch_archive(path: Path, payload: bytes) -> Path:
    """A zip archive laid out as torch.save lays it out, holding ``payload`` as its pickle."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("archive/data.pkl", payload)
        archive.writestr("archive/byteorder", "little")
        archive.writestr("archive/version", "3\n")
    return path


class Hostile:
    def __init__(self, function, argument) -> None:
        self.function, self.argument = function, argument

    def __reduce__(self):
        return self.function, (self.argument,)


def hostile_payloads(marker: Path) -> dict:
    create = f"open({str(marker)!r}, 'w').close()"
    return {
        "os.system": pickle.dumps(Hostile(os.system, f"touch {marker}"), protocol=2),
        "builtins.eval": pickle.dumps(OrderedDict(w=Hostile(builtins.eval, create)), protocol=2),
        "builtins.exec": pickle.dumps([Hostile(builtins.exec, create)], protocol=2),
        "a class": pickle.dumps(Hostile(Path, str(marker)), protocol=2),
    }


@pytest.mark.parametrize("kind", ["os.system", "builtins.eval", "builtins.exec", "a class"])
def test_hostile_pickles_are_refused_and_never_run(tmp_path, kind):
    marker = tmp_path / "pwned"
    path = torch_archive(tmp_path / "evil.pt", hostile_payloads(marker)[kind])
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed: unsupported global"):
        tinyframe.load(path)
    assert not marker.exists()


def test_bare_pickles_are_never_unpickled(tmp_path):
    marker = tmp_path / "pwned"
    path = tmp_path / "evil.pkl"
    path.write_bytes(hostile_payloads(marker)["os.system"])
    with pytest.raises(RuntimeError, match="is a pickle file"):
        tinyframe.load(path)
    assert not marker.exists()


def test_tensor_layout_outside_its_storage_is_refused(tmp_path):
    path = tmp_path / "bad.pt"
    with zipfile.ZipFile(DATA / "torch_values.pt") as source, zipfile.ZipFile(path, "w") as copy:
        for member in source.namelist():
            data = source.read(member)
            if member.endswith("data.pkl"):
                # "row" is base[1] (offset 4, 4 elements); at offset 9 it would read past the 12-element storage
                tampered = data.replace(b"K\x04K\x04\x85", b"K\x09K\x04\x85", 1)
                assert tampered != data
                data = tampered
            copy.writestr(member, data)
    with pytest.raises(pickle.UnpicklingError, match="runs past its storage of 12 elements"):
        tinyframe.load(path)


def copy_with_pickle(path: Path, edit) -> Path:
    """A copy of tests/data/torch_convnet.pt at ``path`` whose pickle is ``edit(pickle bytes)``."""
    with zipfile.ZipFile(DATA / "torch_convnet.pt") as source, zipfile.ZipFile(path, "w") as copy:
        for member in source.namelist():
            data = source.read(member)
            copy.writestr(member, edit(data) if member.endswith("data.pkl") else data)
    return path


def test_pytorch_file_saved_on_cuda_follows_map_location(tmp_path):
    # the storages' location 'cpu' (BINUNICODE, length 3) becomes 'cuda:0', as torch.save writes on a GPU
    path = copy_with_pickle(tmp_path / "gpu.pt", lambda data: data.replace(b"X\x03\x00\x00\x00cpu",
                                                                           b"X\x06\x00\x00\x00cuda:0"))
    state = tinyframe.load(path, map_location="cpu")
    assert state["0.weight"].device == tinyframe.device("cpu") and state["0.weight"].shape == (2, 1, 3, 3)
    if not tinyframe.cuda.is_available():
        with pytest.raises(RuntimeError, match=r"gpu\.pt: Attempting to deserialize object on a CUDA device"):
            tinyframe.load(path)
    else:
        assert tinyframe.load(path)["0.weight"].is_cuda


def test_damaged_pytorch_archive_is_reported_as_corrupt(tmp_path):
    with pytest.raises(RuntimeError, match=r"bad\.pt is truncated or corrupt"):
        tinyframe.load(torch_archive(tmp_path / "bad.pt", b"\x80\x02}q\x00(X"))


def test_pytorch_saved_state_dict_loads_without_copying_code(tmp_path):
    torch = pytest.importorskip("torch")
    torch.manual_seed(1)
    theirs = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
    torch.save(theirs.state_dict(), tmp_path / "m.pth")
    mine = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
    mine.load_state_dict(tinyframe.load(tmp_path / "m.pth"))
    x = np.random.default_rng(0).standard_normal((5, 3)).astype(np.float32)
    np.testing.assert_allclose(mine(tinyframe.tensor(x)).detach().numpy(),
                               theirs(torch.from_numpy(x)).detach().numpy(), rtol=1e-6, atol=1e-6)


# ----------------------------------------------------------------------------------- safetensors
def every_dtype() -> dict:
    return {name: tinyframe.tensor(values, dtype=getattr(tinyframe, name)) for name, values in [
        ("float16", [0.5, -1.0]), ("float32", [[1.0, 2.0], [3.0, 4.0]]), ("float64", [1e300]),
        ("uint8", [255]), ("int8", [-128]), ("int16", [-300]), ("int32", [2 ** 31 - 1]), ("int64", [-(2 ** 62)]),
        ("bool", [True, False])]}


def test_safetensors_round_trip_keeps_every_dtype(tmp_path):
    tinyframe.save({**every_dtype(), "scalar": tinyframe.tensor(1.5)}, tmp_path / "m.safetensors")
    loaded = tinyframe.load(tmp_path / "m.safetensors")
    for name, tensor in every_dtype().items():
        assert loaded[name].dtype == tensor.dtype and loaded[name].tolist() == tensor.tolist()
    assert loaded["scalar"].shape == () and loaded["scalar"].item() == 1.5
    assert st.load_file(tmp_path / "m.safetensors").keys() == loaded.keys()


def test_safetensors_bytes_follow_the_format():
    data = st.save({"b": tinyframe.tensor([1, 2], dtype=tinyframe.int16), "a": tinyframe.ones(1)}, {"k": "v"})
    length = int.from_bytes(data[:8], "little")
    assert length % 8 == 0
    assert data[8:8 + length].rstrip() == (b'{"__metadata__":{"k":"v"},"b":{"dtype":"I16","shape":[2],'
                                          b'"data_offsets":[0,4]},"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}')
    assert data[8 + length:] == b"\x01\x00\x02\x00" + np.float32(1).tobytes()
    assert st.load(data)["b"].tolist() == [1, 2]


def test_safetensors_reads_and_writes_bfloat16():
    header = b'{"x":{"dtype":"BF16","shape":[2],"data_offsets":[0,4]}}'
    data = len(header).to_bytes(8, "little") + header + b"\x80\x3f\x49\xc0"  # 1.0, -3.140625
    assert st.load(data)["x"].tolist() == [1.0, -3.140625] and st.load(data)["x"].dtype == tinyframe.bfloat16
    assert st.save(st.load(data)).endswith(b"BF16\",\"shape\":[2],\"data_offsets\":[0,4]}} \x80\x3f\x49\xc0")


def test_safetensors_refuses_what_it_cannot_hold(tmp_path):
    (tmp_path / "m.safetensors").write_bytes(b"old")
    with pytest.raises(TypeError, match="dict of str to Tensor"):
        tinyframe.save({"nested": {"w": tinyframe.ones(1)}}, tmp_path / "m.safetensors")
    assert (tmp_path / "m.safetensors").read_bytes() == b"old" and os.listdir(tmp_path) == ["m.safetensors"]


def test_damaged_safetensors_file_is_reported(tmp_path):
    data = st.save({"w": tinyframe.ones(4)})
    (tmp_path / "cut.safetensors").write_bytes(data[:-3])
    with pytest.raises(RuntimeError, match=r"cut\.safetensors is truncated or corrupt"):
        tinyframe.load(tmp_path / "cut.safetensors")


def test_safetensors_files_are_interchangeable_with_pytorch(tmp_path):
    torch = pytest.importorskip("torch")
    torch_safetensors = pytest.importorskip("safetensors.torch")
    torch.manual_seed(2)
    theirs = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4), torch.nn.Linear(4, 2)).eval()
    mine = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2)).eval()
    torch_safetensors.save_file(theirs.state_dict(), tmp_path / "theirs.safetensors")
    mine.load_state_dict(tinyframe.load(tmp_path / "theirs.safetensors"))
    x = np.random.default_rng(0).standard_normal((5, 3)).astype(np.float32)
    np.testing.assert_allclose(mine(tinyframe.tensor(x)).detach().numpy(),
                               theirs(torch.from_numpy(x)).detach().numpy(), rtol=1e-6, atol=1e-6)
    for parameter in mine.parameters():
        parameter.data = parameter.data * 2
    st.save_file(mine.state_dict(), tmp_path / "mine.safetensors")
    theirs.load_state_dict(torch_safetensors.load_file(tmp_path / "mine.safetensors"))
    np.testing.assert_allclose(theirs(torch.from_numpy(x)).detach().numpy(),
                               mine(tinyframe.tensor(x)).detach().numpy(), rtol=1e-6, atol=1e-6)


# ------------------------------------------------------------------- writing PyTorch's format
def checkpoint() -> dict:
    return {"model": OrderedDict(w=tinyframe.arange(6.0).reshape(2, 3), n=tinyframe.tensor(3)),
            "epoch": 3, "lr": 0.5, "big": 2 ** 70, "negative": -70000, "names": ["a", "é"], "pair": (1, None),
            "flags": [True, False], "size": tinyframe.Size([2, 3]), "dtype": tinyframe.float16, "empty": {},
            "view": tinyframe.arange(6).reshape(2, 3).t(), "leaf": tinyframe.ones(2, requires_grad=True)}


def test_torch_format_round_trips_through_tinyframe_load(tmp_path):
    tinyframe.save(checkpoint(), tmp_path / "c.pt", format="torch")
    with zipfile.ZipFile(tmp_path / "c.pt") as archive:
        assert {"archive/data.pkl", "archive/byteorder", "archive/version"} <= set(archive.namelist())
    loaded, expected = tinyframe.load(tmp_path / "c.pt"), checkpoint()
    assert isinstance(loaded["model"], OrderedDict) and loaded["model"]["w"].tolist() == expected["model"]["w"].tolist()
    for key in ("epoch", "lr", "big", "negative", "names", "pair", "flags", "size", "dtype", "empty"):
        assert loaded[key] == expected[key]
    assert loaded["view"].tolist() == [[0, 3], [1, 4], [2, 5]] and loaded["view"].dtype == tinyframe.int64
    assert loaded["leaf"].requires_grad and loaded["model"]["n"].shape == ()


def test_torch_format_refuses_what_it_cannot_hold(tmp_path):
    with pytest.raises(TypeError, match=r"type device at obj\['where'\]"):
        tinyframe.save({"where": tinyframe.device("cpu")}, tmp_path / "c.pt", format="torch")
    with pytest.raises(ValueError, match="format must be 'tinyframe' or 'torch'"):
        tinyframe.save({}, tmp_path / "c.pt", format="onnx")
    assert not (tmp_path / "c.pt").exists()


def test_torch_format_is_read_by_torch_load_with_weights_only(tmp_path):
    torch = pytest.importorskip("torch")
    mine = convnet()
    tinyframe.save(mine.state_dict(), tmp_path / "mine.pt", format="torch")
    theirs = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.BatchNorm2d(2), torch.nn.ReLU(),
                                 torch.nn.Flatten(), torch.nn.Linear(8, 3))
    theirs.load_state_dict(torch.load(tmp_path / "mine.pt", weights_only=True))
    mine.eval(), theirs.eval()
    x = fixed_input()
    np.testing.assert_allclose(theirs(torch.from_numpy(x.numpy())).detach().numpy(), mine(x).detach().numpy(),
                               rtol=1e-6, atol=1e-6)
    tinyframe.save(checkpoint(), tmp_path / "c.pt", format="torch")
    values = torch.load(tmp_path / "c.pt", weights_only=True)
    assert values["size"] == torch.Size([2, 3]) and values["dtype"] == torch.float16 and values["big"] == 2 ** 70
    assert values["view"].tolist() == [[0, 3], [1, 4], [2, 5]] and values["leaf"].requires_grad
