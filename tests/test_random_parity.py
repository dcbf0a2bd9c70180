"""tinyframe's CPU random streams against PyTorch 2.13's: the cases of tests/random_cases.py, run after
``manual_seed``, give PyTorch's recorded results bit for bit (tests/data/torch_random.json, written by
tests/data/make_random_fixtures.py)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import tinyframe
from tests.random_cases import CASES, record

RECORDED = json.loads((Path(__file__).parent / "data" / "torch_random.json").read_text())["cases"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_stream_matches_pytorch(name):
    assert record(CASES[name](tinyframe)) == RECORDED[name]


def test_recorded_file_covers_every_case():
    assert sorted(RECORDED) == sorted(CASES)


def test_seed_keys_the_stream_by_its_low_32_bits_and_keeps_all_64():
    tinyframe.manual_seed(2**40 + 7)
    high = tinyframe.rand(4)
    assert tinyframe.initial_seed() == 2**40 + 7
    tinyframe.manual_seed(7)
    assert np.array_equal(tinyframe.rand(4).numpy(), high.numpy())
    tinyframe.manual_seed(-1)
    assert tinyframe.initial_seed() == 2**64 - 1


def test_rng_state_is_pytorchs_5056_bytes_and_rejects_other_sizes():
    state = tinyframe.get_rng_state()
    assert state.dtype == tinyframe.uint8 and tuple(state.shape) == (5056,)
    with pytest.raises(RuntimeError, match="Expected a CPUGeneratorImplState of size 5056 but found the input RNG "
                       "state size to be 12"):
        tinyframe.set_rng_state(tinyframe.zeros(12, dtype=tinyframe.uint8))
    with pytest.raises(TypeError, match="RNG state must be a torch.ByteTensor"):
        tinyframe.set_rng_state(tinyframe.zeros(5056))
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        tinyframe.manual_seed(2**64)


def test_fork_rng_restores_the_generators_on_exit() -> None:
    # PyTorch 2.13: draws inside fork_rng leave the stream outside as if they had not happened
    tinyframe.manual_seed(0)
    expected = tinyframe.rand(2).tolist()
    tinyframe.manual_seed(0)
    with tinyframe.random.fork_rng():
        tinyframe.manual_seed(5)
        inner = tinyframe.rand(1)
    assert tinyframe.rand(2).tolist() == expected
    tinyframe.manual_seed(5)
    assert tinyframe.equal(inner, tinyframe.rand(1))
    with tinyframe.random.fork_rng(enabled=False):
        tinyframe.rand(1)
    tinyframe.manual_seed(5)
    tinyframe.rand(1)
    assert tinyframe.rand(1).tolist() == pytest.approx([0.1261], abs=1e-4)  # recorded: the second draw after seed 5


def test_rng_state_is_a_uint8_tensor_that_round_trips_through_save(tmp_path) -> None:
    # PyTorch 2.13: torch.random.get_rng_state() and Generator.get_state() give uint8 tensors, copies of the
    # state; torch.save keeps one as a tensor, and set_rng_state takes it back
    tinyframe.manual_seed(3)
    state = tinyframe.random.get_rng_state()
    assert isinstance(state, tinyframe.Tensor) and state.dtype == tinyframe.uint8
    state[100] = int(state[100]) ^ 1  # a copy: writing to it leaves the generator as it is
    assert not tinyframe.equal(state, tinyframe.get_rng_state())
    state = tinyframe.get_rng_state()
    expected = tinyframe.rand(3)
    tinyframe.save({"rng": state}, tmp_path / "checkpoint.pt")
    tinyframe.rand(5)
    loaded = tinyframe.load(tmp_path / "checkpoint.pt")["rng"]
    assert isinstance(loaded, tinyframe.Tensor) and loaded.dtype == tinyframe.uint8
    tinyframe.random.set_rng_state(loaded)
    assert tinyframe.equal(tinyframe.rand(3), expected)
    generator = tinyframe.Generator().manual_seed(4)
    saved = generator.get_state()
    assert isinstance(saved, tinyframe.Tensor)
    drawn = tinyframe.rand(2, generator=generator)
    generator.set_state(saved)
    assert tinyframe.equal(tinyframe.rand(2, generator=generator), drawn)
    with pytest.raises(TypeError, match="expected a torch.ByteTensor, but got numpy.ndarray"):
        generator.set_state(saved.numpy())
