"""Records PyTorch's answers to ``_torch_errors_cases.py`` into ``_torch_errors_expected.py``.

Run from the repository root with PyTorch installed: ``python -m tests._torch_errors_record``.
"""
from __future__ import annotations

import pathlib
import pprint

import torch

from ._torch_errors_cases import CASES, outcome

if __name__ == "__main__":
    expected = {name: outcome(torch, fn) for name, fn in CASES.items()}
    text = pprint.pformat(expected, width=118, sort_dicts=False)
    path = pathlib.Path(__file__).with_name("_torch_errors_expected.py")
    path.write_text(f'"""PyTorch {torch.__version__.split("+")[0]}\'s answers to ``_torch_errors_cases.py`` '
                    f'(written by ``_torch_errors_record.py``)."""\nEXPECTED = {text}\n')
