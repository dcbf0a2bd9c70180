"""Random autograd programs (``_autograd_programs.py``) traced under tinyframe as PyTorch 2.13 traced them
(``_autograd_programs_expected.py``): each step's exception, the hook calls with their arguments, and every
tensor's ``grad_fn`` (with ``next_functions``), ``is_leaf``, ``requires_grad``, ``_version``, ``retains_grad``,
values and ``.grad``; and written programs for each behaviour that the random ones found differing."""
from __future__ import annotations

import math
from typing import Any

import pytest

import tinyframe as tf

from ._autograd_programs import CASES, DESCRIBED, SEEDS, program, trace
from ._autograd_programs_expected import CASES as EXPECTED_CASES
from ._autograd_programs_expected import SEEDS as EXPECTED_SEEDS


def _close(got: Any, expected: Any) -> bool:
    """Equal, floats to within rounding (float32 results may differ from PyTorch's in the last bits)."""
    if isinstance(expected, float) and isinstance(got, (int, float)):
        return math.isclose(got, expected, rel_tol=1e-5, abs_tol=1e-6)
    if isinstance(expected, (list, tuple)) and isinstance(got, (list, tuple)):
        return len(got) == len(expected) and all(_close(g, e) for g, e in zip(got, expected))
    return bool(got == expected)


def _check(got: dict, expected: dict, steps: list[str]) -> None:
    for step, error, expected_error in zip(steps, got["errors"], expected["errors"]):
        assert error == expected_error, step
    assert _close(got["log"], expected["log"]), (got["log"], expected["log"])
    assert list(got["tensors"]) == list(expected["tensors"])
    for name, described in expected["tensors"].items():
        for key, value, expected_value in zip(DESCRIBED, got["tensors"][name], described):
            assert _close(value, expected_value), (name, key, value, expected_value)


@pytest.mark.parametrize("name", list(CASES))
def test_written_program_traces_as_pytorchs(name: str) -> None:
    _check(trace(tf, CASES[name]), EXPECTED_CASES[name], CASES[name])


@pytest.mark.parametrize("seed", SEEDS)
def test_random_program_traces_as_pytorchs(seed: int) -> None:
    steps = program(seed)
    _check(trace(tf, steps), EXPECTED_SEEDS[seed], steps)


def test_the_programs_are_the_recorded_ones() -> None:
    # (the generator draws from Python's ``random`` only: a change to it would silently change the programs)
    assert program(3)[:3] == [
        "t0 = torch.tensor([[0.4, -1.5, 1.7], [-0.1, 0.3, 0.4]], dtype=torch.float64, requires_grad=True)",
        "t1 = torch.tensor([[-1.2, 0.9, 0.2], [0.2, -0.4, 1.4]], dtype=torch.float64, requires_grad=True)",
        "t0.sum().backward(create_graph=True)"]
