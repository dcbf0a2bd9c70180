"""`import torch` that is tinyframe: every tinyframe module is also importable as torch.<name>.

Used by tests/test_pytorch_scripts.py to run unchanged PyTorch scripts on tinyframe.
"""
import importlib
import pkgutil
import sys

import tinyframe

# Modules that need optional third-party packages or start processes; never aliased eagerly.
_SKIP = ("tinyframe.examples", "tinyframe.distributed.mpi_backend", "tinyframe.distributed.nccl_backend")

sys.modules["torch"] = tinyframe
for _info in pkgutil.walk_packages(tinyframe.__path__, "tinyframe."):
    if _info.name.startswith(_SKIP):
        continue
    try:
        _module = importlib.import_module(_info.name)
    except ImportError:
        continue
    sys.modules["torch" + _info.name[len("tinyframe"):]] = _module
