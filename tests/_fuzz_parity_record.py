"""Records PyTorch's answers to ``_fuzz_parity_cases.py`` into ``_fuzz_parity_expected.py``.

Run from the repository root with PyTorch installed: ``python -m tests._fuzz_parity_record``.
"""
from __future__ import annotations

import pathlib
import pprint

import torch

from ._fuzz_parity_cases import CASES, outcome

if __name__ == "__main__":
    expected = {name: outcome(torch, fn) for name, fn in CASES.items()}
    text = pprint.pformat(expected, width=118, sort_dicts=False)
    path = pathlib.Path(__file__).with_name("_fuzz_parity_expected.py")
    path.write_text(f'"""PyTorch {torch.__version__.split("+")[0]}\'s answers to ``_fuzz_parity_cases.py`` '
                    f'(written by ``_fuzz_parity_record.py``)."""\nEXPECTED = {text}\n')
