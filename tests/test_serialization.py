"""Tests for ``tinyframe.serialization``: save/load round trips, atomic writes, damaged files."""
from __future__ import annotations

import io
import json
import math
import os
import pickle
import stat
import zipfile
from collections import OrderedDict
from pathlib import Path

import numpy as np
import pytest

import tinyframe
from tinyframe import serialization
from tinyframe.serialization import load, save

ALL_DTYPES = [tinyframe.float16, tinyframe.float32, tinyframe.float64, tinyframe.uint8, tinyframe.int8,
              tinyframe.int16, tinyframe.int32, tinyframe.int64, tinyframe.bool]


def round_trip(obj: object, tmp_path: Path, **load_args: object) -> object:
    path = tmp_path / "checkpoint.pt"
    save(obj, path)
    return load(path, **load_args)


def write_archive(path: Path, header: object, **arrays: np.ndarray) -> Path:
    """An archive laid out as save writes it, with a hand-made header (to test what load rejects)."""
    raw = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    with open(path, "wb") as fh:
        np.savez(fh, __tinyframe_header__=raw, **arrays)
    return path


def tensor_node(**overrides: object) -> dict:
    node = {"type": "tensor", "id": 0, "storage": "a0", "dtype": "float32", "device": "cpu", "requires_grad": False}
    node.update(overrides)
    return node


def header_with(root: object, version: int = 1) -> dict:
    return {"format": "tinyframe.save", "version": version, "root": root}


class Foo:
    pass


class Holder:
    def __init__(self, base: tinyframe.Tensor, view: tinyframe.Tensor) -> None:
        self.base, self.view = base, view


# ----------------------------------------------------------------------------------------- round trips
def test_nested_structure_round_trips_with_key_types(tmp_path: Path) -> None:
    obj = {
        "state": {0: {"step": tinyframe.tensor(3.0), "momentum_buffer": tinyframe.ones(2, 2)}, 1: {}},
        "param_groups": [{"lr": 0.1, "betas": (0.9, 0.999), "nesterov": False, "foreach": None, "params": [0, 1]}],
        1: "one", "1": "string one", 2.5: "float key", None: "none key", False: "bool key", (1, "a"): "tuple key",
        "numbers": [0, -7, 2**70, 1.5, -0.0, float("inf"), "text", "", "ünïcødé \ud800"],
    }
    loaded = round_trip(obj, tmp_path)
    assert list(loaded) == list(obj)
    assert loaded[1] == "one" and loaded["1"] == "string one" and loaded[(1, "a")] == "tuple key"
    assert loaded[False] == "bool key" and loaded[None] == "none key" and loaded[2.5] == "float key"
    assert list(loaded["state"]) == [0, 1] and loaded["state"][1] == {}
    assert loaded["state"][0]["momentum_buffer"].tolist() == [[1.0, 1.0], [1.0, 1.0]]
    assert loaded["param_groups"] == obj["param_groups"]
    assert isinstance(loaded["param_groups"][0]["betas"], tuple)
    assert loaded["numbers"] == obj["numbers"]
    assert [type(v) for v in loaded["numbers"]] == [type(v) for v in obj["numbers"]]
    assert math.copysign(1.0, loaded["numbers"][4]) == -1.0


def test_nan_round_trips(tmp_path: Path) -> None:
    assert math.isnan(round_trip({"loss": float("nan")}, tmp_path)["loss"])


def test_ordered_dict_stays_ordered_dict(tmp_path: Path) -> None:
    state = OrderedDict([("z.weight", tinyframe.zeros(2)), ("a.bias", tinyframe.ones(1))])
    loaded = round_trip({"model": state, "plain": {"b": 1, "a": 2}}, tmp_path)
    assert type(loaded["model"]) is OrderedDict and list(loaded["model"]) == ["z.weight", "a.bias"]
    assert type(loaded["plain"]) is dict and list(loaded["plain"]) == ["b", "a"]


def test_module_state_dict_round_trips(tmp_path: Path) -> None:
    model = tinyframe.nn.Linear(3, 2)
    loaded = round_trip(model.state_dict(), tmp_path)
    assert type(loaded) is OrderedDict and list(loaded) == ["weight", "bias"]
    assert loaded["weight"].tolist() == model.weight.tolist() and not loaded["weight"].requires_grad
    fresh = tinyframe.nn.Linear(3, 2)
    fresh.load_state_dict(loaded)
    assert fresh.bias.tolist() == model.bias.tolist()


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: d.name)
def test_every_dtype_round_trips(dtype: tinyframe.dtype, tmp_path: Path) -> None:
    values = np.array([[0, 1, 2], [3, 0, 5]]).astype(dtype.numpy)
    loaded = round_trip([tinyframe.from_numpy(values)], tmp_path)[0]
    assert loaded.dtype == dtype and loaded.shape == (2, 3)
    np.testing.assert_array_equal(loaded.numpy(), values)


def test_shapes_scalars_empty_and_non_contiguous_tensors(tmp_path: Path) -> None:
    transposed = tinyframe.from_numpy(np.arange(6.0).reshape(2, 3).T)
    obj = [tinyframe.tensor(2.5), tinyframe.zeros(0, 3), transposed, tinyframe.Size([2, 3]), tinyframe.float16,
           tinyframe.device("cpu")]
    scalar, empty, t, size, dtype, dev = round_trip(obj, tmp_path)
    assert scalar.shape == () and scalar.item() == 2.5
    assert empty.shape == (0, 3)
    assert t.tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
    assert isinstance(size, tinyframe.Size) and size == (2, 3)
    assert dtype is tinyframe.float16 and dev == tinyframe.device("cpu")


def test_requires_grad_is_restored_and_grad_is_not_saved(tmp_path: Path) -> None:
    w = tinyframe.ones(3, requires_grad=True)
    (w * 2).sum().backward()
    loaded = round_trip({"w": w, "frozen": tinyframe.ones(3), "out": w * 3}, tmp_path)
    assert loaded["w"].requires_grad and loaded["w"].is_leaf and loaded["w"].grad is None
    assert not loaded["frozen"].requires_grad
    assert loaded["out"].requires_grad and loaded["out"].is_leaf  # a non-leaf loads as a leaf, as in PyTorch


def test_identity_and_shared_storage_are_preserved(tmp_path: Path) -> None:
    t = tinyframe.arange(4.0)
    loaded = round_trip({"a": t, "b": t, "c": t.detach(), "d": tinyframe.arange(4.0)}, tmp_path)
    assert loaded["a"] is loaded["b"]
    assert loaded["c"] is not loaded["a"] and loaded["c"]._data is loaded["a"]._data  # tied weights stay tied
    assert loaded["d"]._data is not loaded["a"]._data
    with zipfile.ZipFile(tmp_path / "checkpoint.pt") as archive:
        assert sorted(archive.namelist()) == ["__tinyframe_header__.npy", "a0.npy", "a1.npy"]


def test_views_load_as_views_of_one_storage(tmp_path: Path) -> None:
    # torch.save keeps views: a slice saved with its base still writes into it after loading
    base = tinyframe.arange(12.0)
    grid = base.view(3, 4)
    views = {"row": base[2:5], "column": grid[:, 1], "strided": base.as_strided((2,), (3,), 4)}
    loaded = round_trip({"base": base, **views}, tmp_path)
    loaded["row"].fill_(-1.0)
    loaded["column"].mul_(10.0)
    assert loaded["base"].tolist() == [0, 10, -1, -1, -1, 50, 6, 7, 8, 90, 10, 11]
    assert [loaded[k].storage_offset() for k in ("row", "column", "strided")] == [2, 1, 4]
    assert loaded["column"].stride() == (4,) and loaded["strided"].tolist() == [-1, 7]
    with zipfile.ZipFile(tmp_path / "checkpoint.pt") as archive:
        assert sorted(archive.namelist()) == ["__tinyframe_header__.npy", "a0.npy"]


def test_file_objects_and_path_types(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    save({"x": tinyframe.ones(2)}, buffer)
    buffer.seek(0)
    assert load(buffer)["x"].tolist() == [1.0, 1.0]

    class Stream(io.RawIOBase):  # readable but not seekable
        def __init__(self, data: bytes) -> None:
            self.inner = io.BytesIO(data)

        def readable(self) -> bool:
            return True

        def readinto(self, b: bytearray) -> int:
            return self.inner.readinto(b)

    assert load(Stream(buffer.getvalue()))["x"].tolist() == [1.0, 1.0]
    save([1, 2], str(tmp_path / "as_str.pt"))
    assert load(str(tmp_path / "as_str.pt"), weights_only=False) == [1, 2]


def test_save_writes_through_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "real.pt"
    link = tmp_path / "latest.pt"
    save(1, target)
    link.symlink_to(target)
    save(2, link)
    assert link.is_symlink() and load(target) == 2


# ----------------------------------------------------------------------------------------- devices
def test_map_location_cpu_forms(tmp_path: Path) -> None:
    for location in (None, "cpu", tinyframe.device("cpu"), {"cpu": "cpu"}, {"cuda:0": "cpu"}):
        loaded = round_trip({"w": tinyframe.ones(2)}, tmp_path, map_location=location)
        assert loaded["w"].device == tinyframe.device("cpu")


def test_saved_device_is_restored_or_mapped(device: str, tmp_path: Path) -> None:
    t = tinyframe.arange(3.0, device=device)
    restored = round_trip(t, tmp_path)
    assert restored.device == t.device and restored.tolist() == [0.0, 1.0, 2.0]
    assert load(tmp_path / "checkpoint.pt", map_location="cpu").device == tinyframe.device("cpu")
    mapped = load(tmp_path / "checkpoint.pt", map_location={str(t.device): "cpu"})
    assert mapped.device == tinyframe.device("cpu")


def test_cuda_checkpoint_maps_to_cpu(tmp_path: Path) -> None:
    path = write_archive(tmp_path / "gpu.pt", header_with(tensor_node(device="cuda:0")),
                         a0=np.ones(2, np.float32))
    assert load(path, map_location="cpu").device == tinyframe.device("cpu")
    assert load(path, map_location={"cuda:0": "cpu"}).tolist() == [1.0, 1.0]
    if not tinyframe.cuda.is_available():
        with pytest.raises(RuntimeError, match=r"gpu\.pt.*CUDA device.*map_location=tinyframe\.device\('cpu'\)"):
            load(path)


def test_map_location_functions_are_called_as_pytorch_calls_them(tmp_path: Path) -> None:
    save({"w": tinyframe.ones(2)}, tmp_path / "x.pt")
    seen = []

    def keep(storage: object, location: str) -> object:
        seen.append(location)
        return storage

    assert load(tmp_path / "x.pt", map_location=keep)["w"].device == tinyframe.device("cpu")
    assert seen == ["cpu"]
    assert load(tmp_path / "x.pt", map_location=lambda storage, loc: None)["w"].tolist() == [1.0, 1.0]
    with pytest.raises(TypeError, match="map_location must be None, a device, a device string, a dict"):
        load(tmp_path / "x.pt", map_location=3)


# ----------------------------------------------------------------------------------------- what save refuses
def test_other_objects_are_pickled_and_load_only_without_weights_only(tmp_path: Path) -> None:
    # as torch.save pickles them; torch.load(weights_only=True) refuses their globals before running anything
    path = tmp_path / "objects.pt"
    weights = tinyframe.arange(6.0)
    save({"x": [1, 2, Foo()], "keys": {Foo: 1}, "set": {1, 2}, "held": Holder(weights, weights[2:4])}, path)
    with pytest.raises(pickle.UnpicklingError, match=r"Unsupported global: GLOBAL tests\.test_serialization\.Foo"):
        load(path)
    loaded = load(path, weights_only=False)
    assert type(loaded["x"][2]) is Foo and loaded["keys"] == {Foo: 1} and loaded["set"] == {1, 2}
    held = loaded["held"]
    held.view[0] = 100.0  # tensors inside the pickle are stored as the others: the view still views its base
    assert held.base.tolist() == [0.0, 1.0, 100.0, 3.0, 4.0, 5.0]


def test_a_whole_module_round_trips_with_its_parameters(tmp_path: Path) -> None:
    model = tinyframe.nn.Sequential(tinyframe.nn.Linear(3, 2), tinyframe.nn.BatchNorm1d(2))
    save(model, tmp_path / "model.pt")
    loaded = load(tmp_path / "model.pt", weights_only=False, map_location="cpu")
    assert type(loaded[0].weight) is tinyframe.nn.Parameter and loaded[0].weight.requires_grad
    assert loaded[0].weight.tolist() == model[0].weight.tolist()
    assert loaded[1].running_var.tolist() == [1.0, 1.0] and not loaded[1].running_var.requires_grad
    with pytest.raises(pickle.UnpicklingError, match="GLOBAL tinyframe.nn.modules"):
        load(tmp_path / "model.pt")


def test_safe_globals_let_weights_only_load_unpickle_them(tmp_path: Path) -> None:
    save({"config": Foo(), "w": tinyframe.ones(1)}, tmp_path / "c.pt")
    with serialization.safe_globals([Foo]):
        assert type(load(tmp_path / "c.pt")["config"]) is Foo
        assert serialization.get_safe_globals() == [Foo]
    assert serialization.get_safe_globals() == []
    serialization.add_safe_globals([(Foo, "tests.test_serialization.Foo")])
    try:
        assert type(load(tmp_path / "c.pt")["config"]) is Foo
    finally:
        serialization.clear_safe_globals()
    with pytest.raises(pickle.UnpicklingError, match="add_safe_globals"):
        load(tmp_path / "c.pt")


def test_objects_pickle_cannot_handle_raise_pickles_error_and_leave_no_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.pt"
    with pytest.raises((pickle.PicklingError, AttributeError)):
        save({"x": [1, 2, lambda: 0]}, path)
    assert not path.exists() and os.listdir(tmp_path) == []


def test_numpy_values_load_only_without_weights_only(tmp_path: Path) -> None:
    # torch.save pickles NumPy arrays and scalars; torch.load refuses them with UnpicklingError unless
    # weights_only=False, which returns them with their dtype
    path = tmp_path / "np.pt"
    save({"data": np.arange(6.0).reshape(2, 3), "best": np.float64(0.5), "n": np.int32(3)}, path)
    with pytest.raises(pickle.UnpicklingError, match="NumPy array.*weights_only"):
        load(path)
    loaded = load(path, weights_only=False)
    np.testing.assert_array_equal(loaded["data"], np.arange(6.0).reshape(2, 3))
    assert type(loaded["best"]) is np.float64 and loaded["best"] == 0.5
    assert type(loaded["n"]) is np.int32 and loaded["n"] == 3


def test_self_referencing_structures_are_refused(tmp_path: Path) -> None:
    loop: list = [1]
    loop.append({"again": loop})
    with pytest.raises(ValueError, match=r"obj\[1\]\['again'\] refers back"):
        save(loop, tmp_path / "loop.pt")
    shared = [1, 2]
    assert round_trip([shared, shared], tmp_path) == [[1, 2], [1, 2]]  # repeated, not cyclic: fine


def test_missing_parent_directory(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="Parent directory .*missing does not exist"):
        save(1, tmp_path / "missing" / "x.pt")


# ----------------------------------------------------------------------------------------- atomicity
def test_failed_rename_keeps_the_old_file_and_leaves_no_temporary(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "ckpt.pt"
    save({"epoch": 1}, path)

    def crash(src: str, dst: str) -> None:
        raise OSError("disk pulled out")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk pulled out"):
        save({"epoch": 2, "w": tinyframe.ones(1000)}, path)
    monkeypatch.undo()
    assert load(path) == {"epoch": 1}
    assert os.listdir(tmp_path) == ["ckpt.pt"]


@pytest.mark.parametrize("error", [RuntimeError("writer died"), KeyboardInterrupt()])
def test_crash_midway_through_writing_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         error: BaseException) -> None:
    path = tmp_path / "ckpt.pt"
    save({"epoch": 1}, path)

    def half_write(fh: object, **members: np.ndarray) -> None:
        fh.write(b"PK\x03\x04 half an archive")
        raise error

    monkeypatch.setattr(serialization.np, "savez", half_write)
    with pytest.raises(type(error)):
        save({"epoch": 2}, path)
    monkeypatch.undo()
    assert load(path) == {"epoch": 1}
    assert os.listdir(tmp_path) == ["ckpt.pt"]


def test_new_file_is_synced_before_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: events.append("fsync") or real_fsync(fd))
    monkeypatch.setattr(os, "replace", lambda a, b: events.append("replace") or real_replace(a, b))
    save({"a": 1}, tmp_path / "x.pt")
    assert events[:2] == ["fsync", "replace"]


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_overwriting_keeps_the_file_permissions(tmp_path: Path) -> None:
    path = tmp_path / "private.pt"
    save(1, path)
    os.chmod(path, 0o600)
    save(2, path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600 and load(path) == 2


# ----------------------------------------------------------------------------------------- damaged and foreign files
def test_truncated_files_raise_runtime_error_naming_the_path(tmp_path: Path) -> None:
    good = tmp_path / "good.pt"
    save({"w": tinyframe.ones(20), "meta": {"step": 3}}, good)
    data = good.read_bytes()
    bad = tmp_path / "truncated.pt"
    for size in range(0, len(data), 7):
        bad.write_bytes(data[:size])
        with pytest.raises(RuntimeError, match=r"truncated\.pt"):
            load(bad)


def test_corrupted_bytes_raise_runtime_error(tmp_path: Path) -> None:
    good = tmp_path / "good.pt"
    save({"w": tinyframe.ones(20)}, good)
    data = bytearray(good.read_bytes())
    bad = tmp_path / "flipped.pt"
    rng = np.random.default_rng(0)
    for position in rng.integers(0, len(data), size=200):
        damaged = bytearray(data)
        damaged[position] ^= 0xFF
        bad.write_bytes(bytes(damaged))
        try:
            loaded = load(bad)
        except RuntimeError as exc:
            assert "flipped.pt" in str(exc)
        else:  # a flip in bytes nobody checks (zip timestamps...) must not change the data
            assert loaded["w"].tolist() == [1.0] * 20


@pytest.mark.parametrize("content, problem", [
    (b"", "is empty"),
    (b"\x00" + np.random.default_rng(0).bytes(200), "unrecognised file format"),
    (pickle.dumps({"w": [1.0]}), "is a pickle file"),
], ids=["empty", "random", "pickle"])
def test_foreign_files_are_named(tmp_path: Path, content: bytes, problem: str) -> None:
    path = tmp_path / "foreign.bin"
    path.write_bytes(content)
    with pytest.raises(RuntimeError, match=rf"foreign\.bin .*{problem}"):
        load(path)


def test_numpy_files_are_not_checkpoints(tmp_path: Path) -> None:
    np.save(tmp_path / "a.npy", np.ones(2))
    with pytest.raises(RuntimeError, match=r"a\.npy is a single NumPy \.npy array"):
        load(tmp_path / "a.npy")
    np.savez(tmp_path / "b.npz", x=np.ones(2))
    with pytest.raises(RuntimeError, match=r"b\.npz is a zip archive without a tinyframe header"):
        load(tmp_path / "b.npz")


def test_pytorch_checkpoints_are_recognised(tmp_path: Path) -> None:
    path = tmp_path / "model.pt"
    with zipfile.ZipFile(path, "w") as archive:  # the layout torch.save writes
        archive.writestr("model/data.pkl", pickle.dumps({"w": 1}))
        archive.writestr("model/version", "3\n")
    assert load(path) == {"w": 1}  # read as torch.load(weights_only=True) would (tests/test_interop_weights.py)


@pytest.mark.parametrize("header, arrays, problem", [
    ({"format": "something.else", "version": 1, "root": 1}, {}, "unknown format"),
    (header_with(1, version=99), {}, "format version 99 by a newer tinyframe"),
    (header_with(tensor_node()), {}, "truncated or corrupt"),                                   # member missing
    (header_with(tensor_node(dtype="int64")), {"a0": np.ones(2, np.float32)}, "truncated or corrupt"),
    (header_with(tensor_node(dtype="int64", requires_grad=True)), {"a0": np.ones(2, np.int64)}, "requires_grad"),
    (header_with(tensor_node(device="tpu")), {"a0": np.ones(2, np.float32)}, "invalid device"),
    (header_with({"type": "mystery"}), {}, "unknown entry type"),
    (header_with([1, 2]), {}, "truncated or corrupt"),
    (header_with({"type": "dict", "items": [[{"type": "list", "items": []}, 1]]}), {}, "unhashable"),
    (header_with(tensor_node()), {"a0": np.array(["text"])}, "truncated or corrupt"),
    (header_with(tensor_node(view=[2, [3], [1]])), {"a0": np.ones(4, np.float32)}, "truncated or corrupt"),
    (header_with(tensor_node(view=[0, [2], [-1]])), {"a0": np.ones(4, np.float32)}, "truncated or corrupt"),
])
def test_inconsistent_headers_raise_runtime_error(tmp_path: Path, header: dict, arrays: dict, problem: str) -> None:
    path = write_archive(tmp_path / "odd.pt", header, **arrays)
    with pytest.raises(RuntimeError, match=rf"odd\.pt.*{problem}"):
        load(path)


def test_load_of_a_missing_file_is_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load(tmp_path / "nothing.pt")


def test_the_weights_only_refusal_is_pytorchs_message() -> None:
    # PyTorch 2.13's text for torch.load(weights_only=True) of a pickled module (torch.nn.modules.activation.ReLU)
    buf = io.BytesIO()
    save(tinyframe.nn.ReLU(), buf)
    buf.seek(0)
    with pytest.raises(pickle.UnpicklingError) as info:
        load(buf, weights_only=True)
    name = "tinyframe.nn.modules.activation.ReLU"
    assert str(info.value) == (
        "Weights only load failed. This file can still be loaded, to do so you have two options, \x1b[1mdo those "
        "steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In PyTorch 2.6, we changed the default "
        "value of the `weights_only` argument in `tinyframe.load` from `False` to `True`. Re-running `tinyframe.load` "
        "with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it "
        "only if you got the file from a trusted source.\n\t(2) Alternatively, to load with `weights_only=True` please "
        "check the recommended steps in the following error message.\n\tWeightsUnpickler error: Unsupported global: "
        f"GLOBAL {name} was not an allowed global by default. Please use `tinyframe.serialization.add_safe_globals"
        f"([{name}])` or the `tinyframe.serialization.safe_globals([{name}])` context manager to allowlist this global "
        "if you trust this class/function.\n\nCheck the documentation of tinyframe.load to learn more about types "
        "accepted by default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")
