"""Records PyTorch's traces of the programs of ``_autograd_programs.py`` into ``_autograd_programs_expected.py``.

Run from the repository root with PyTorch installed: ``python -m tests._autograd_programs_record``.
"""
from __future__ import annotations

import pathlib
import pprint

import torch

from ._autograd_programs import CASES, SEEDS, program, trace

if __name__ == "__main__":
    cases = {name: trace(torch, steps) for name, steps in CASES.items()}
    seeds = {seed: trace(torch, program(seed)) for seed in SEEDS}
    path = pathlib.Path(__file__).with_name("_autograd_programs_expected.py")
    path.write_text(f'"""PyTorch {torch.__version__.split("+")[0]}\'s traces of the programs of '
                    '``_autograd_programs.py``\n(written by ``_autograd_programs_record.py``)."""\n\n'
                    f"CASES = {pprint.pformat(cases, width=118, sort_dicts=False, compact=True)}\n\n"
                    f"SEEDS = {pprint.pformat(seeds, width=118, sort_dicts=False, compact=True)}\n")
