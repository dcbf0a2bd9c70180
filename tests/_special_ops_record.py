"""Records PyTorch's results for ``_special_ops_cases.py`` into ``_special_ops_expected.py``.

Run from the repository root with PyTorch installed: ``python -m tests._special_ops_record``.
"""
from __future__ import annotations

import pathlib
import pprint

import torch

from ._special_ops_cases import CASES


def _record(fn: object, arrays: list) -> dict:
    inputs = [torch.tensor(a, requires_grad=a.dtype.kind == "f") for a in arrays]
    out = fn(torch, *inputs)
    grads = [None] * len(inputs)
    if out.requires_grad:
        wanted = [t for t in inputs if t.requires_grad]
        try:
            found = iter(torch.autograd.grad(out.sum(), wanted, allow_unused=True))
            grads = [next(found).tolist() if t.requires_grad else None for t in inputs]
        except RuntimeError as exc:  # PyTorch's own backward fails (vander's): only the forward is compared
            grads = f"{type(exc).__name__}: {str(exc).splitlines()[0][:60]}"
    return {"node": out.grad_fn.name() if out.grad_fn is not None else None, "dtype": str(out.dtype).split(".")[1],
            "value": out.tolist(), "grads": grads}


if __name__ == "__main__":
    expected = {name: _record(fn, arrays) for name, (fn, arrays) in CASES.items()}
    text = pprint.pformat(expected, width=118, sort_dicts=False)
    path = pathlib.Path(__file__).with_name("_special_ops_expected.py")
    path.write_text(f'"""PyTorch {torch.__version__.split("+")[0]}\'s results for ``_special_ops_cases.py`` '
                    '(written by ``_special_ops_record.py``)."""\n'
                    'nan, inf = float("nan"), float("inf")\n\n'
                    f"EXPECTED = {text}\n")
