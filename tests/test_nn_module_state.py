"""Module surgery and state-dict plumbing as PyTorch 2.13 does it (values recorded from it):
get_submodule/set_submodule, the order of unexpected keys, state-dict and load hooks, loading after
errors and ``assign``."""
from __future__ import annotations

from collections import OrderedDict

import pytest

import tinyframe as tf
import tinyframe.nn as nn


def test_get_and_set_submodule() -> None:
    m = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU()))
    with pytest.raises(AttributeError, match="^`weight` is not an nn.Module$"):
        m.get_submodule("0.weight")
    with pytest.raises(AttributeError, match="^Sequential has no attribute `5`$"):
        m.get_submodule("1.5")
    with pytest.raises(ValueError, match="^Cannot set the submodule without a target name!$"):
        m.set_submodule("", nn.ReLU())
    with pytest.raises(ValueError, match="^`module` is not an nn.Module, found <class 'int'>$"):
        m.set_submodule("0", 3)
    with pytest.raises(AttributeError, match="^`weight` is not an nn.Module$"):
        m.set_submodule("0.weight", nn.ReLU())
    with pytest.raises(AttributeError, match="^Sequential has no attribute `7`$"):
        m.set_submodule("1.7", nn.ReLU(), True)
    m.set_submodule("1.7", nn.Tanh())
    m.set_submodule("0", nn.GELU())
    assert isinstance(m.get_submodule("1.7"), nn.Tanh) and isinstance(m[0], nn.GELU) and m.get_submodule("") is m


def test_unexpected_keys_come_module_by_module_as_pytorch() -> None:
    m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
    sd = OrderedDict(m.state_dict())
    sd["junk"], sd["1.extra"], sd["9.w"] = tf.zeros(1), tf.zeros(1), tf.zeros(1)
    del sd["0.bias"]
    result = m.load_state_dict(sd, strict=False)
    assert result.missing_keys == ["0.bias"] and result.unexpected_keys == ["junk", "9.w", "1.extra"]


def test_state_dict_hooks() -> None:
    m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
    calls: list = []
    m[0].register_state_dict_pre_hook(lambda mod, prefix, keep_vars: calls.append(("pre", prefix, keep_vars)))
    m[0].register_state_dict_post_hook(lambda mod, d, prefix, meta: calls.append(("post", prefix, sorted(d), meta)))
    handle = m._register_state_dict_hook(lambda mod, d, prefix, meta: OrderedDict((k.upper(), v) for k, v in d.items()))
    assert list(m.state_dict())[:3] == ["0.WEIGHT", "0.BIAS", "1.WEIGHT"]
    assert calls == [("pre", "0.", False), ("post", "0.", ["0.bias", "0.weight"], {"version": 1})]
    handle.remove()
    m[0].register_state_dict_post_hook(lambda mod, d, prefix, meta: d)
    with pytest.raises(RuntimeError, match="^state_dict post-hook must return None$"):
        m.state_dict()


def test_load_state_dict_hooks() -> None:
    m = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))

    def rename(state_dict, prefix, local_metadata, strict, missing, unexpected, errors):  # noqa: ANN001, ANN202
        if prefix + "w" in state_dict:
            state_dict[prefix + "weight"] = state_dict.pop(prefix + "w")
    m[1]._register_load_state_dict_pre_hook(rename)
    log: list = []
    m[1].register_load_state_dict_pre_hook(lambda mod, sd, prefix, *rest: log.append((type(mod).__name__, prefix,
                                                                                      rest[1])))
    m.register_load_state_dict_post_hook(lambda mod, keys: keys.missing_keys.clear())
    result = m.load_state_dict({"1.w": tf.ones(1, 2), "1.bias": tf.zeros(1)})
    assert repr(result) == "<All keys matched successfully>" and m[1].weight.tolist() == [[1.0, 1.0]]
    assert log == [("Linear", "1.", True)]
    m.register_load_state_dict_post_hook(lambda mod, keys: 1)
    with pytest.raises(AssertionError, match="are not expected to return new values, if incompatible_keys need to "
                                             "be modified, it should be done inplace"):
        m.load_state_dict({})


def test_load_state_dict_loads_what_fits_before_raising_and_assign_replaces() -> None:
    lin = nn.Linear(2, 1)
    weight = lin.weight
    with pytest.raises(RuntimeError, match=r"size mismatch for bias: copying a param with shape "
                                           r"tinyframe.Size\(\[3\]\)"):
        lin.load_state_dict({"weight": tf.full((1, 2), 5.0), "bias": tf.zeros(3)})
    assert lin.weight is weight and lin.weight.tolist() == [[5.0, 5.0]]
    lin.weight.requires_grad_(False)
    lin.load_state_dict({"weight": tf.full((1, 2), 7.0), "bias": tf.zeros(1)}, assign=True)
    assert lin.weight is not weight and type(lin.weight) is nn.Parameter and not lin.weight.requires_grad
    assert lin.weight.tolist() == [[7.0, 7.0]]


class _Renamed(nn.Module):
    """A layer whose version 1 saved its parameter as ``bias``; it migrates in ``_load_from_state_dict``."""

    _version = 2

    def __init__(self) -> None:
        super().__init__()
        self.offset = nn.Parameter(tf.zeros(2))
        self.seen: list = []

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing, unexpected,  # noqa: ANN001
                              errors) -> None:  # noqa: ANN001
        self.seen.append((prefix, dict(local_metadata), sorted(state_dict)))
        if local_metadata.get("version", 1) < 2 and prefix + "bias" in state_dict:
            state_dict[prefix + "offset"] = state_dict.pop(prefix + "bias")
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing, unexpected, errors)


def test_load_state_dict_goes_through_each_modules_load_from_state_dict_as_pytorch() -> None:
    # recorded from PyTorch 2.13: each module sees only the entries under its prefix and its own metadata,
    # and a module's post-hooks run once its subtree is loaded (siblings after it not yet)
    m = nn.Sequential(_Renamed(), nn.Linear(2, 2))
    log: list = []
    m[0].register_load_state_dict_post_hook(lambda mod, keys: log.append(("0", list(keys.missing_keys))))
    m[1].register_load_state_dict_post_hook(lambda mod, keys: log.append(("1", list(keys.missing_keys))))
    m.register_load_state_dict_post_hook(lambda mod, keys: log.append(("root", list(keys.missing_keys))))
    sd = OrderedDict({"0.bias": tf.tensor([1.0, 2.0]), "1.bias": tf.zeros(2), "1.weight.junk": tf.zeros(1)})
    sd._metadata = OrderedDict({"": {"version": 1}, "0": {"version": 1}})  # type: ignore[attr-defined]
    result = m.load_state_dict(sd, strict=False)
    assert m[0].seen == [("0.", {"version": 1}, ["0.bias"])] and m[0].offset.tolist() == [1.0, 2.0]
    assert log == [("0", []), ("1", ["1.weight"]), ("root", ["1.weight"])]
    assert result.missing_keys == ["1.weight"] and result.unexpected_keys == ["1.weight.junk"]
    m[0].seen.clear()
    result = m.load_state_dict(OrderedDict({"0.bias": tf.tensor([3.0, 4.0])}), strict=False, assign=True)
    assert m[0].seen == [("0.", {"assign_to_params_buffers": True}, ["0.bias"])]
    assert m[0].offset.tolist() == [3.0, 4.0] and result.missing_keys == ["1.weight", "1.bias"]


class _Counter(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(2, 2)
        self.calls = 0

    def get_extra_state(self) -> dict:
        return {"calls": self.calls}

    def set_extra_state(self, state: dict) -> None:
        self.calls = state["calls"]


def test_extra_state_is_saved_and_loaded_under_its_key_as_pytorch() -> None:
    m = nn.Sequential(_Counter(), nn.ReLU())
    m[0].calls = 5
    sd = m.state_dict()
    assert list(sd) == ["0._extra_state", "0.lin.weight", "0.lin.bias"] and sd["0._extra_state"] == {"calls": 5}
    fresh = nn.Sequential(_Counter(), nn.ReLU())
    assert repr(fresh.load_state_dict(sd)) == "<All keys matched successfully>" and fresh[0].calls == 5
    del sd["0._extra_state"]
    assert fresh.load_state_dict(sd, strict=False).missing_keys == ["0._extra_state"]
    plain = {"weight": tf.zeros(2, 2), "bias": tf.zeros(2), "_extra_state": 1}
    assert nn.Linear(2, 2).load_state_dict(plain, strict=False).unexpected_keys == ["_extra_state"]
    with pytest.raises(RuntimeError, match=r"Module.get_extra_state\(\) that should never be called"):
        nn.Linear(1, 1).get_extra_state()
