"""Calls where differential fuzzing against PyTorch 2.13 found tinyframe answering otherwise give PyTorch's
answer: the same exception class and message, or the same dtype, shape and values (floats to a relative
1e-6, float16 and bfloat16 to their precision). PyTorch's answers are recorded in ``_fuzz_parity_expected.py``
(``python -m tests._fuzz_parity_record``)."""
from __future__ import annotations

import math
from typing import Any

import pytest

import tinyframe as tf

from ._fuzz_parity_cases import CASES, outcome
from ._fuzz_parity_expected import EXPECTED


def _close(expected: Any, got: Any, rel: float) -> bool:
    if isinstance(expected, (list, tuple)):
        return (isinstance(got, (list, tuple)) and len(expected) == len(got)
                and all(_close(e, g, rel) for e, g in zip(expected, got)))
    if isinstance(expected, float) and isinstance(got, float):
        return expected == got or math.isclose(expected, got, rel_tol=rel, abs_tol=rel * 1e-3)
    return type(expected) is type(got) and expected == got


def _same(expected: tuple, got: tuple) -> bool:
    if expected[0] != got[0] or len(expected) != len(got):
        return False
    if expected[0] == "tuple":
        return all(_same(e, g) for e, g in zip(expected[1:], got[1:]))
    if expected[0] == "value":
        return _close(expected[1], got[1], 1e-6)
    rel = 1e-2 if expected[1] in ("float16", "bfloat16") else 1e-6
    return expected[1:3] == got[1:3] and _close(expected[3], got[3], rel)


def test_every_case_is_recorded() -> None:
    assert set(EXPECTED) == set(CASES)


@pytest.mark.parametrize("name", list(CASES))
def test_answers_as_pytorch(name: str) -> None:
    expected, got = EXPECTED[name], outcome(tf, CASES[name])
    if expected[0] != "ok":
        assert got == expected
        return
    assert got[0] == "ok", got
    assert _same(expected[1], got[1]), (expected[1], got[1])
