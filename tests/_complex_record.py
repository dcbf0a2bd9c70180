"""Records PyTorch's results for ``_complex_cases.py`` into ``_complex_expected.py``.

Run from the repository root with PyTorch installed: ``python -m tests._complex_record``.
"""
from __future__ import annotations

import pathlib
import pprint

import torch

from ._complex_cases import CASES


def _record(fn: object, arrays: list) -> dict:
    inputs = [torch.tensor(a, requires_grad=True) for a in arrays]
    out = fn(torch, *inputs)
    node = out.grad_fn.name()  # before resolving a lazy conjugate, which adds a CloneBackward0
    out = out.resolve_conj()
    loss = (0.7 * out.real - 1.3 * out.imag).sum() if out.is_complex() else out.sum()
    grads = torch.autograd.grad(loss, inputs)
    return {"node": node, "dtype": str(out.dtype).split(".")[1], "value": out.tolist(),
            "grads": [g.resolve_conj().tolist() for g in grads]}


if __name__ == "__main__":
    expected = {name: _record(fn, arrays) for name, (fn, arrays) in CASES.items()}
    text = pprint.pformat(expected, width=118, sort_dicts=False, compact=True)
    path = pathlib.Path(__file__).with_name("_complex_expected.py")
    path.write_text(f'"""PyTorch {torch.__version__.split("+")[0]}\'s results for ``_complex_cases.py`` '
                    '(written by ``_complex_record.py``)."""\n\n'
                    f"EXPECTED = {text}\n")
