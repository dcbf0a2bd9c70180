"""Records PyTorch's results for ``_embedding_bag_cases.py`` into ``_embedding_bag_expected.py``.

Run from the repository root with PyTorch installed: ``python -m tests._embedding_bag_record``.
"""
from __future__ import annotations

import pathlib
import pprint

import torch

from ._embedding_bag_cases import CASES, run


def _indented(text: str) -> str:
    return text.replace("\n", "\n        ")


if __name__ == "__main__":
    expected = {name: run(torch, fn) for name, fn in CASES.items()}
    entries = "".join(f"    {name!r}:\n        {_indented(pprint.pformat(value, width=110, compact=True))},\n"
                      for name, value in expected.items())
    path = pathlib.Path(__file__).with_name("_embedding_bag_expected.py")
    path.write_text(f'"""PyTorch {torch.__version__.split("+")[0]}\'s results for ``_embedding_bag_cases.py`` '
                    '(written by ``_embedding_bag_record.py``)."""\n\n'
                    f"EXPECTED = {{\n{entries}}}\n")
