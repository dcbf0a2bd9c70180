"""Records PyTorch's results for tests/random_cases.py into tests/data/torch_random.json.

Run with PyTorch installed (2.13, CPU, made the committed file): ``python tests/data/make_random_fixtures.py``.
Small results are stored as values, large ones (over 64 elements) as the SHA-256 of their bytes.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from random_cases import CASES, record  # noqa: E402


def main() -> None:
    import torch
    results = {name: record(function(torch)) for name, function in CASES.items()}
    (HERE / "torch_random.json").write_text(json.dumps({"torch": torch.__version__, "cases": results}) + "\n")


if __name__ == "__main__":
    main()
