"""Importing tinyframe tells glibc to keep freed array memory for reuse (``tinyframe._malloc``): a loop
that allocates and frees the same large arrays stops faulting their pages back in every round."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tinyframe import _malloc

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux") or os.confstr("CS_GNU_LIBC_VERSION") is None,
                                reason="glibc's malloc only")

ROOT = Path(__file__).resolve().parents[1]

# Eight 8 MiB arrays made and freed each round, the minor page faults of the last rounds printed. With
# glibc's defaults the first round's freed arrays raise the mmap threshold to 8 MiB and the trim
# threshold to 16 MiB, so every later round's 64 MiB comes from the heap and is trimmed back at its end.
CHURN = """
import resource, sys
if sys.argv[1] == "tinyframe":
    import tinyframe
import numpy as np
for round in range(6):
    if round == 3:
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    arrays = [np.ones(2 << 20, np.float32) for _ in range(8)]
    del arrays
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def churn_faults(*args: str, **env: str) -> int:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")} | env
    done = subprocess.run([sys.executable, "-c", CHURN, *args], cwd=ROOT, env=environment, check=True,
                          capture_output=True, text=True)
    return int(done.stdout)


def test_after_import_freed_arrays_are_reused_without_page_faults():
    # glibc's defaults: each round faults its 64 MiB back in (about 4,100 faults on the project's machine)
    assert churn_faults("numpy") > 3 * 2000
    assert churn_faults("tinyframe") < 300


def test_a_process_that_set_glibc_thresholds_keeps_them(monkeypatch):
    # Only the trim threshold, at glibc's default: the mmap threshold is then fixed at 128 KiB, so
    # each 8 MiB array is mapped and unmapped again, unless tinyframe had overridden it.
    assert churn_faults("tinyframe", MALLOC_TRIM_THRESHOLD_="131072") > 3 * 2000
    monkeypatch.setenv("MALLOC_MMAP_THRESHOLD_", "131072")
    assert _malloc.keep_freed_memory() is False
