"""Regenerates ``cupy_names.txt``, the public names of CuPy that the stand-in may expose.

Run with the real ``cupy`` installed (``pip install cupy-cuda12x`` installs without a GPU):
``python tests/fake_cupy/make_names.py > tests/fake_cupy/cupy_names.txt``.
"""
from __future__ import annotations
import __future__

import importlib
import types

MODULES = ("cupy", "cupy.linalg", "cupy.random", "cupy.fft", "cupy.lib.stride_tricks", "cupyx",
           "cupyx.scipy.special")
CLASSES = ("cupy.ndarray", "cupy.ufunc", "cupy.random.RandomState")


def is_cupys_own(value: object) -> bool:
    """False for what a CuPy module merely imported: ``numpy as np``, ``from __future__ import ...``."""
    if isinstance(value, __future__._Feature):
        return False
    return not isinstance(value, types.ModuleType) or value.__name__.startswith(("cupy", "cupyx"))


def public_names(qualified: str) -> list[str]:
    module_name, _, class_name = qualified.rpartition(".")
    if qualified in MODULES:
        obj = importlib.import_module(qualified)
    else:
        obj = getattr(importlib.import_module(module_name), class_name)
    names = [name for name in dir(obj) if not name.startswith("_") and is_cupys_own(getattr(obj, name))]
    return [f"{qualified}.{name}" for name in sorted(names)]


def main() -> None:
    cupy = importlib.import_module("cupy")
    print(f"# public names of CuPy {cupy.__version__}, written by tests/fake_cupy/make_names.py")
    for qualified in MODULES + CLASSES:
        print("\n".join(public_names(qualified)))


if __name__ == "__main__":
    main()
