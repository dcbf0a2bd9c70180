"""Records PyTorch's results for ``_inplace_views_cases.py`` into ``_inplace_views_expected.py``.

Run from the repository root with PyTorch installed: ``python -m tests._inplace_views_record``.
"""
from __future__ import annotations

import pathlib
import pprint

import torch

from ._inplace_views_cases import CASES, LAYOUT_CASES, VIEW_DTYPE_CASES, layout_strides, observe, view_dtype

if __name__ == "__main__":
    expected = {name: observe(torch, case, "cpu") for name, case in CASES.items()}
    layouts = {name: layout_strides(torch, make) for name, make in LAYOUT_CASES.items()}
    dtype_views = {name: view_dtype(torch, *case) for name, case in VIEW_DTYPE_CASES.items()}
    path = pathlib.Path(__file__).with_name("_inplace_views_expected.py")
    path.write_text(f'"""PyTorch {torch.__version__.split("+")[0]}\'s results for ``_inplace_views_cases.py`` '
                    '(written by ``_inplace_views_record.py``)."""\n\n'
                    f"EXPECTED = {pprint.pformat(expected, width=118, sort_dicts=False, compact=True)}\n\n"
                    f"LAYOUTS = {pprint.pformat(layouts, width=118, sort_dicts=False, compact=True)}\n\n"
                    f"VIEW_DTYPE = {pprint.pformat(dtype_views, width=118, sort_dicts=False, compact=True)}\n")
