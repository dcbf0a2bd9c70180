"""The op registry: one ``OpCase`` per op (and per notable variant), grouped by family.

``tests/test_op_registry.py`` runs every case: forward against its NumPy reference, first- and
second-order gradients against finite differences in float64, and broadcasting with hypothesis.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class OpCase:
    """One op under test.

    ``fn`` takes tinyframe Tensors (one per entry of ``shapes``) and returns a Tensor;
    ``reference`` takes the same inputs as float64 NumPy arrays and returns the expected array.
    Inputs are drawn uniformly from ``domain``; ``positive`` / ``away_from_zero`` style domains
    keep finite differences away from kinks.
    """

    name: str
    fn: Callable[..., Any]
    reference: Callable[..., Any]
    shapes: list[tuple]
    domain: tuple[float, float] = (-2.0, 2.0)
    grad: bool = True
    second_order: bool = True
    broadcasts: bool = False  # True for elementwise ops of several inputs: hypothesis draws broadcastable shapes
    float64_result: bool = False  # True for ops whose result is float64 whatever the input (float_power)
    atol: float = 1e-5
    rtol: float = 1e-4
    extra: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        return self.name


def all_cases() -> list[OpCase]:
    from . import (
        binary,
        construction,
        fft,
        indexing,
        linalg,
        linalg_decompositions,
        lu,
        nn_ops,
        reduction,
        shape,
        sorting,
        sparse,
        unary,
    )
    cases = []
    for family in (binary, unary, reduction, linalg, shape, indexing, nn_ops, sorting, construction,
                   linalg_decompositions, lu, fft, sparse):
        cases.extend(family.CASES)
    return cases
