"""A strict CuPy stand-in, for running tinyframe's ``cuda`` paths without a GPU (test code only).

Backed by NumPy, it is as strict as CuPy where mistakes hide:

- its ``cupy.ndarray`` is its own type: ``np.asarray(a)`` and a NumPy array in an op raise CuPy's
  ``TypeError``; ``.get()``, ``cupy.asnumpy``, ``.item()``, ``float(a)``, ``bool(a)`` copy to the host
  and each copy is counted in ``TRANSFERS``;
- its modules have only the names that CuPy has (``cupy_names.txt``, from CuPy's own namespace),
  so a NumPy-only function fails as it would on a GPU;
- reductions and integer indexing give 0-d device arrays, as CuPy's do, never NumPy scalars.

``install()`` puts it in ``sys.modules`` as ``cupy`` / ``cupyx``, where tinyframe's device seam
imports CuPy from; ``pytest --fake-cuda`` (or ``TINYFRAME_FAKE_CUDA=1``) does that for the suite.
"""
from __future__ import annotations

import importlib
import sys

from ._array import IMPLICIT_CONVERSION, TRANSFERS, ndarray
from ._namespace import MODULES

__all__ = ["IMPLICIT_CONVERSION", "TRANSFERS", "MODULES", "ndarray", "install"]


def install() -> None:
    """Makes ``import cupy`` / ``import cupyx`` (and their submodules) give the stand-in, and has
    tinyframe look CUDA up again."""
    sys.modules.update(MODULES)
    importlib.import_module("tinyframe.device").cupy_module.cache_clear()
    importlib.import_module("tinyframe.device").cuda_status.cache_clear()
