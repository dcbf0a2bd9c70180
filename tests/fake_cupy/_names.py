"""The public names of CuPy (``cupy_names.txt``, written by ``make_names.py`` from CuPy itself)."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

NAMES_FILE = Path(__file__).with_name("cupy_names.txt")


def _read_names() -> dict[str, list[str]]:
    """``{'cupy': [...], 'cupy.linalg': [...], 'cupy.ndarray': [...], ...}``."""
    owners: dict[str, list[str]] = defaultdict(list)
    for line in NAMES_FILE.read_text().splitlines():
        if line and not line.startswith("#"):
            owner, _, name = line.rpartition(".")
            owners[owner].append(name)
    return dict(owners)


NAMES = _read_names()
NDARRAY_ATTRIBUTES = frozenset(NAMES["cupy.ndarray"])
UFUNC_ATTRIBUTES = frozenset(NAMES["cupy.ufunc"])
RANDOM_STATE_METHODS = frozenset(NAMES["cupy.random.RandomState"])
