"""tinyframe: tensors, autograd, nn and optim with PyTorch's API, on NumPy (cpu) and CuPy (cuda)."""
from __future__ import annotations

import contextlib as _contextlib
import gc as _gc
import importlib as _importlib
import sys as _sys
import warnings as _warnings
from collections.abc import Iterator as _Iterator
from typing import Any as _Any

__version__ = "0.1.0"


@_contextlib.contextmanager
def _gc_paused() -> _Iterator[None]:
    # The ~30 cyclic-GC passes that loading the package triggers find nothing to free (the op classes,
    # their functions and wrappers all stay alive) and cost ~8M instructions, 6% of `import tinyframe`
    # beyond NumPy's (callgrind, python -c "import tinyframe" against "import numpy"). After it, the
    # objects go to the oldest generation at once (freeze then unfreeze: no traversal), where the next
    # young-generation pass would have traversed them all (~6M), unless the process froze objects itself.
    enabled = _gc.isenabled()
    _gc.disable()
    try:
        yield
    finally:
        if _gc.get_freeze_count() == 0:
            _gc.freeze()
            _gc.unfreeze()
        if enabled:
            _gc.enable()


with _gc_paused():
    from . import dtypes  # noqa: F401,I001  (tinyframe.dtypes)
    from .dtypes import (bfloat16, bool_ as bool, complex64, complex128, dtype, float16, float32, float64,
                         get_default_dtype, int8, int16, int32, int64, set_default_dtype, uint8, uint16, uint32,
                         uint64)
    from .device import device, get_default_device, set_default_device
    from .dtypes import can_cast
    from .tensor import Size, Tensor
    from .grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad,
                            set_grad_enabled)
    from . import autograd, cuda
    from .autograd import is_anomaly_check_nan_enabled, is_anomaly_enabled
    from .creation import (arange, as_tensor, bartlett_window, blackman_window, empty, empty_like, eye,
                           from_numpy, full, full_like, hamming_window, hann_window, kaiser_window, linspace,
                           logspace, ones, ones_like, rand, rand_like, randint, randint_like, randn, randn_like,
                           randperm, tensor, zeros, zeros_like)
    from .random import Generator, get_rng_state, initial_seed, manual_seed, seed, set_rng_state
    from ._tensor_str import set_printoptions
    from .threads import get_num_threads, set_num_threads
    from .functional import *  # noqa: F401,F403  the op functions: tinyframe.exp, tinyframe.matmul, ...
    from . import functional
    from .functional import LAZY_FUNCTIONS as _lazy_functions
    from .functional import __all__ as _functional_names
    from . import linalg, return_types  # noqa: E402  torch.linalg (run on first use), torch.return_types
    from . import amp  # noqa: E402  torch.amp
    from .amp import autocast, get_autocast_dtype, is_autocast_enabled  # noqa: E402
    from .type_info import finfo, iinfo  # noqa: E402
    from .memory_format import (channels_last, channels_last_3d, contiguous_format, layout, memory_format,  # noqa: E402,I001
                                preserve_format, sparse_coo, strided)
    from .legacy_tensor_types import *  # noqa: E402,F401,F403  FloatTensor, LongTensor, ...
    from .legacy_tensor_types import __all__ as _legacy_type_names  # noqa: E402
    from ._toplevel import *  # noqa: E402,F401,F403  equal, is_tensor, promote_types, ...
    from ._toplevel import __all__ as _toplevel_names  # noqa: E402
    from ._foreach import *  # noqa: E402,F401,F403  torch._foreach_add_, torch._foreach_lerp_, ...

float = float32
double = float64
half = float16
long = int64
int = int32
short = int16
cfloat = complex64
cdouble = complex128

# The layers above the core (torch.nn, torch.optim, ...) and serialization (torch.save / torch.load, with
# hashlib, socket, zipfile) load on first use: that is about two thirds of what ``import tinyframe`` took
# beyond importing NumPy. ``tinyframe.nn``, ``from tinyframe import nn`` and ``import tinyframe.nn`` work as before.
_LAZY = {"cpu": None, "distributed": None, "distributions": None, "fft": None, "func": None, "hub": None, "jit": None,
         "multiprocessing": None,
         "nn": None, "optim": None, "profiler": None, "utils": None, "version": None,
         "special": None, "sparse": None, "storage": None,
         "accelerator": None, "backends": None, "testing": None, "xpu": None,
         "save": "serialization", "load": "serialization", "vmap": "func", "from_dlpack": "_dlpack",
         "sparse_coo_tensor": "sparse", "spmm": "sparse"}

__all__ = [
    "__version__", "Tensor", "Size", "dtype", "device", "autograd", "cuda", "no_grad", "enable_grad",
    "set_grad_enabled", "is_grad_enabled", "inference_mode", "is_inference_mode_enabled",
    "set_default_device", "get_default_device", "is_anomaly_enabled",
    "is_anomaly_check_nan_enabled", "bool", "bfloat16", "float16", "float32", "float64", "int8", "int16",
    "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float", "double", "half", "long", "int", "short",
    "complex64", "complex128",
    "cfloat", "cdouble", "get_default_dtype",
    "set_default_dtype", "tensor", "as_tensor", "from_numpy", "zeros", "ones", "full", "empty", "arange",
    "linspace", "logspace", "eye", "zeros_like", "ones_like", "full_like", "empty_like", "rand", "randn",
    "randint", "rand_like", "randn_like", "randint_like", "randperm", "Generator", "hann_window", "hamming_window",
    "blackman_window", "bartlett_window", "kaiser_window",
    "manual_seed", "seed", "initial_seed", "get_rng_state", "set_rng_state", "set_printoptions",
    *_LAZY, "can_cast", "linalg", "return_types", "set_num_threads", "get_num_threads",
    *_functional_names, *_lazy_functions,
    "amp", "autocast", "get_autocast_dtype", "is_autocast_enabled",
    "finfo", "iinfo", "memory_format", "channels_last", "channels_last_3d", "contiguous_format", "preserve_format",
    "layout", "strided", "sparse_coo",
    *_toplevel_names, *_legacy_type_names,
]


def __getattr__(name: str) -> _Any:
    """Loads a lazy submodule or function (``_LAZY``, ``functional.LAZY_FUNCTIONS``, ``_toplevel_more``) on
    its first use; the ``nn.functional`` ops that PyTorch also exports at the top level (``torch.pixel_shuffle``,
    ``torch.layer_norm``, ...) come from ``nn._toplevel``, loaded with ``nn`` when one is first asked for."""
    if name in _LAZY:
        module = _importlib.import_module(f".{_LAZY[name] or name}", __name__)
        value = module if _LAZY[name] is None else getattr(module, name)
    elif name in _lazy_functions:
        value = getattr(functional, name)
    elif not name.startswith("_") and name in _importlib.import_module("._toplevel_more", __name__).__all__:
        # (the functions few programs call: in-place functions, ``*_copy``, ``asarray``, ...)
        value = getattr(_sys.modules[f"{__name__}._toplevel_more"], name)
    elif not name.startswith("_") and name in _importlib.import_module(".nn._toplevel", __name__).__all__:
        # (private names are left out: ``from . import _submodule`` asks here first, and must not load nn)
        value = getattr(_sys.modules[f"{__name__}.nn._toplevel"], name)
    elif name in ("complex32", "chalf"):
        raise AttributeError(dtypes.COMPLEX32_MESSAGE)
    else:
        raise AttributeError(f"module 'tinyframe' has no attribute '{name}'")
    globals()[name] = value
    return value


def __dir__() -> list:
    more = _importlib.import_module("._toplevel_more", __name__).__all__
    return sorted(set(globals()) | set(_LAZY) | set(_lazy_functions) | set(more))


# torch.cuda.amp: tinyframe.cuda is a module of the bottom layer, so the submodule is registered under its name.
from .amp import cuda_amp as _cuda_amp  # noqa: E402

cuda.amp = _cuda_amp
_sys.modules["tinyframe.cuda.amp"] = _cuda_amp

# PyTorch computes 1/0, log(0) and sqrt(-1) silently (inf, -inf, nan); NumPy would warn from inside ops.
_warnings.filterwarnings("ignore", message=".*encountered in", category=RuntimeWarning, module=r"tinyframe\.")

# A training step frees and reallocates the same large arrays every step: glibc is told to keep that
# memory mapped instead of returning it and faulting it back in (measured in tinyframe/_malloc.py).
from . import _malloc  # noqa: E402

_malloc.keep_freed_memory()
