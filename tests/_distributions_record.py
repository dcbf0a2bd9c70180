"""Records PyTorch's values for ``_distributions_cases.py`` into ``_distributions_expected.py``.

Run with PyTorch installed, from the repository root:
``/work/torchvenv/bin/python -m tests._distributions_record``.
"""
import pathlib
import pprint

import torch

from tests._distributions_cases import CASES


def _record(value: torch.Tensor) -> object:
    if value.dtype.is_floating_point:
        return value.detach().double().numpy().round(10).tolist()
    return value.tolist()


if __name__ == "__main__":
    expected = {}
    for name, (fn, arrays, _) in CASES.items():
        outs = fn(torch, *[torch.tensor(a, dtype=torch.float64) for a in arrays])
        expected[name] = [_record(out) for out in outs]
    text = pprint.pformat(expected, width=110, compact=True)  # infinities and NaNs as the names defined below
    path = pathlib.Path(__file__).with_name("_distributions_expected.py")
    path.write_text(f'"""PyTorch 2.13\'s outputs for the cases in ``_distributions_cases.py`` (float64, rounded '
                    f'to 1e-10)."""\ninf, nan = float("inf"), float("nan")\nEXPECTED = {text}\n')
