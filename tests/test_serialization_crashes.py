"""Saves killed mid-write: the checkpoint survives, and a later save removes what the dead save left
behind, but never the temporary file of a save still running in another process. The kills are
benchmarks/soak.py's (whose long run reports the figures)."""
from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import tinyframe
from benchmarks import soak
from tinyframe import serialization
from tinyframe.serialization import load, save

pytestmark = pytest.mark.skipif(os.name != "posix", reason="kills and forks processes (POSIX only)")


def temporaries(directory: Path) -> list[str]:
    return [p.name for p in soak.temporaries(directory)]


def test_saves_killed_at_random_points_leave_nothing_after_one_good_save(tmp_path: Path) -> None:
    path = tmp_path / "ckpt.pt"
    state = {"w": tinyframe.arange(2**20, dtype=tinyframe.float32), "epoch": 1}  # a 4 MiB save
    save(state, path)
    rng = random.Random(0)
    kills_that_left_a_file = 0
    for kill in range(30):
        soak.kill_a_save(path, state, rng, within_s=0.03)
        assert load(path)["epoch"] == 1  # a killed save never damages the checkpoint
        assert len(temporaries(tmp_path)) <= 1  # each save cleared what the killed one before it left
        kills_that_left_a_file += bool(temporaries(tmp_path))
        if kill >= 14 and temporaries(tmp_path):  # at least 15 kills, the last one mid-write
            break
    assert temporaries(tmp_path), "no kill landed mid-write: the test exercised nothing"
    save({**state, "epoch": 2}, path)
    loaded = load(path)
    assert loaded["epoch"] == 2
    np.testing.assert_array_equal(loaded["w"].numpy(), state["w"].numpy())
    assert os.listdir(tmp_path) == ["ckpt.pt"]


def test_temporary_file_of_a_live_writer_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "ckpt.pt"
    writer = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        in_progress = tmp_path / serialization._temporary_name("ckpt.pt", writer.pid)
        in_progress.write_bytes(b"PK\x03\x04 being written")
        save({"epoch": 1}, path)
        assert temporaries(tmp_path) == [in_progress.name]
        assert load(path) == {"epoch": 1}
    finally:
        writer.kill()
        writer.wait()
    save({"epoch": 2}, path)  # now its writer is gone
    assert temporaries(tmp_path) == []


def test_only_dead_writers_temporaries_of_the_same_target_are_removed(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = serialization._temporary_name("ckpt.pt", dead.pid)
    other_target = serialization._temporary_name("other.pt", dead.pid)
    other_host = f".ckpt.pt.{dead.pid}.00000000.{'0' * 16}.tmp"
    mine = serialization._temporary_name("ckpt.pt", os.getpid())  # a save in another thread of this process
    unrelated = ".ckpt.pt.notes.tmp"
    for name in (stale, other_target, other_host, mine, unrelated):
        (tmp_path / name).write_bytes(b"x")
    save({"epoch": 1}, tmp_path / "ckpt.pt")
    left = set(os.listdir(tmp_path))
    assert stale not in left
    assert {other_target, mine, unrelated, "ckpt.pt"} <= left
    if serialization._HOST != "00000000":
        assert other_host in left
