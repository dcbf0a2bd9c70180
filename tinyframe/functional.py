"""The op functions exported at the top level (``tinyframe.exp``, ``tinyframe.cat``, ...).

Each op family's module lists its public functions in ``__all__``; this module gathers them, and
gives those that take ``out=`` in PyTorch that argument, in one place (:func:`with_out`).
"""
import builtins as _builtins
import importlib as _importlib
import inspect as _inspect
import warnings as _warnings
from collections.abc import Callable as _Callable
from typing import Any as _Any

from . import creation as _creation
from . import dtypes as _dtypes
from . import grad_mode as _grad_mode
from ._arguments import checked as _checked
from ._arguments import numpy_renamed as _numpy_renamed
from ._arguments import wraps as _wraps
from .ops import (
    binary,
    construction,
    contraction,
    indexing,
    linalg,
    reduction,
    scattering,
    shape,
    sorting,
    statistics,
    unary,
)
from .ops import complex as _complex_ops
from .ops import inplace as _inplace
from .ops.binary import *  # noqa: F401,F403
from .ops.complex import *  # noqa: F401,F403
from .ops.construction import *  # noqa: F401,F403
from .ops.contraction import *  # noqa: F401,F403
from .ops.indexing import *  # noqa: F401,F403
from .ops.linalg import *  # noqa: F401,F403
from .ops.reduction import *  # noqa: F401,F403
from .ops.scattering import *  # noqa: F401,F403
from .ops.shape import *  # noqa: F401,F403
from .ops.sorting import *  # noqa: F401,F403
from .ops.statistics import *  # noqa: F401,F403
from .ops.unary import *  # noqa: F401,F403
from .tensor import Tensor as _Tensor

__all__ = [*binary.__all__, *unary.__all__, *reduction.__all__, *linalg.__all__, *shape.__all__,
           *indexing.__all__, *sorting.__all__, *construction.__all__, *scattering.__all__, *contraction.__all__,
           *statistics.__all__, *_complex_ops.__all__]

# The top-level functions of the op families loaded on first use (``ops.LAZY_FAMILIES``), by the module
# that defines them: this module's and tinyframe's ``__getattr__`` export each when it is first asked for.
LAZY_FUNCTIONS = {
    **dict.fromkeys(("conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d", "conv_tbc"), "ops.convolution"),
    **dict.fromkeys(("det", "logdet", "slogdet", "inverse", "cholesky", "cholesky_solve", "cholesky_inverse",
                     "pinverse", "svd", "qr"), "ops.decompositions"),
    **dict.fromkeys(("lu", "lu_unpack", "lu_solve", "orgqr", "ormqr", "geqrf"), "ops.lu"),
    **dict.fromkeys(("max_pool1d", "max_pool2d", "avg_pool1d", "adaptive_avg_pool1d"), "ops.pooling"),
    **dict.fromkeys(("fake_quantize_per_tensor_affine", "fake_quantize_per_channel_affine"), "ops.quantization"),
    **dict.fromkeys(("normal", "bernoulli", "multinomial", "poisson", "binomial", "_standard_gamma",
                     "_standard_gamma_grad"), "ops.sampling"),
    **dict.fromkeys(("i0", "mvlgamma", "igamma", "igammac"), "ops.special"),
    **dict.fromkeys(("frexp", "ldexp", "isposinf", "isneginf", "rsub", "renorm", "nuclear_norm",
                     "triangular_solve", "solve", "lstsq", "eig", "symeig", "matrix_rank", "frobenius_norm",
                     "norm_except_dim", "svd_lowrank", "pca_lowrank", "histogramdd"), "ops.numerics"),
    **dict.fromkeys(("stft", "istft"), "ops.stft"),
    **dict.fromkeys(("matrix_power", "matrix_exp"), "linalg"),
}


# PyTorch's top-level functions that take ``out=``; those tinyframe has get it below.
_OUT_FUNCTIONS = frozenset("""
    abs absolute acos acosh add addbmm addcdiv addcmul addmm addmv all amax amin angle any arccos arccosh arcsin
    arcsinh arctan arctanh
    arctan2 argmax argmin asin asinh atan atan2 atanh baddbmm bitwise_and bitwise_left_shift bitwise_not
    bitwise_or bitwise_right_shift bitwise_xor bmm bucketize cat ceil cholesky cholesky_inverse cholesky_solve
    clamp clip column_stack concat concatenate copysign cos cosh cross cummax cummin cumprod cumsum deg2rad diag
    diff digamma div divide dot dstack eq erf erfc erfinv exp exp2 expm1 fix float_power floor floor_divide fmax
    fmin fmod frac frexp gather gcd ge ger greater greater_equal gt heaviside histc hstack hypot i0 igamma igammac
    index_add index_reduce index_select inner inverse isin kron kthvalue lcm ldexp le lerp less less_equal lgamma
    log log10 log1p log2 log_softmax logaddexp logcumsumexp logical_and logical_not logical_or logical_xor logit
    logsumexp lt masked_select matmul matrix_power max maximum mean median min minimum mm mode msort mul multiply mv
    mvlgamma
    nan_to_num nanmean nansum ne neg negative nextafter nonzero norm not_equal outer polar polygamma pow prod
    quantile rad2deg reciprocal remainder renorm round rsqrt scatter scatter_add searchsorted sgn sigmoid sign
    signbit sin sinc sinh softmax sort sqrt square stack std std_mean sub subtract sum take_along_dim tan tanh
    tensordot topk triangular_solve tril triu true_divide trunc var var_mean vdot vstack where xlogy
""".split())


def with_out(function: _Callable[..., _Any], factory: bool = False) -> _Callable[..., _Any]:
    """Gives ``function`` PyTorch's ``out=`` keyword: the result is written into ``out`` (a tuple of
    tensors for functions returning several), which is returned.

    As in PyTorch: ``out`` of another shape is resized (with a warning unless it was empty); the
    result is cast into ``out``'s dtype when PyTorch's casting rules allow (never to a lower
    category: floating into integer, anything but bool into bool), else RuntimeError; and while
    grad mode is on, no argument (``out`` included) may require grad, since the write is not
    differentiable. A ``factory`` (``zeros``, ``arange``, ...) makes its result in ``out``'s dtype
    and device, and resizes ``out`` silently.
    """
    name = function.__name__

    def wrapper(*args: _Any, out: _Any = None, **kwargs: _Any) -> _Any:
        if out is None:
            return function(*args, **kwargs)
        if factory:
            kwargs.setdefault("dtype", out.dtype)
            kwargs.setdefault("device", out.device)
        result = function(*args, **kwargs)
        # Only functions with a derivative refuse: PyTorch's comparisons, argmax, ... write into ``out``
        # whatever their arguments require.
        if (_grad_mode.is_grad_enabled() and _differentiable(result)
                and _any_requires_grad((args, kwargs, out))):
            raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic "
                               "differentiation, but one of the arguments requires grad.")
        if not isinstance(result, tuple):
            return _write_into(result, out, name, warn_resize=not factory)
        if not isinstance(out, (tuple, list)) or len(out) != len(result):
            raise TypeError(f"{name}(): argument 'out' must be a tuple of {len(result)} Tensors")
        written = [_write_into(r, o, name) for r, o in zip(result, out)]
        return type(result)(*written) if hasattr(result, "_fields") else tuple(written)

    return _wraps(wrapper, function)


def _differentiable(result: _Any) -> bool:
    """Whether a result has a floating tensor, as the results of functions with a derivative do."""
    results = result if isinstance(result, tuple) else (result,)
    return _builtins.any(isinstance(r, _Tensor) and r.is_floating_point() for r in results)


def _any_requires_grad(value: _Any) -> bool:
    # builtins.any: this module's ``any`` is tinyframe.any
    if isinstance(value, _Tensor):
        return value.requires_grad
    if isinstance(value, dict):
        return _builtins.any(_any_requires_grad(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return _builtins.any(_any_requires_grad(v) for v in value)
    return False


def _write_into(result: _Any, out: _Any, name: str, warn_resize: bool = True) -> _Any:
    """Copies ``result`` into ``out`` (resized if needed) and returns ``out``."""
    if not isinstance(out, _Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if result.device != out.device:
        raise RuntimeError(f"Expected out tensor to have device {result.device}, but got {out.device} instead")
    if not _dtypes.can_cast(result.dtype, out.dtype):
        raise RuntimeError(f"result type {_dtypes.scalar_type_name(result.dtype)} can't be cast to the desired output "
                           f"type {_dtypes.scalar_type_name(out.dtype)}")
    if out.shape == result.shape:  # (with PyTorch's error for an ``out`` whose elements share memory)
        _inplace.store(out, result._data)
        return out
    if out.numel() != 0 and warn_resize:
        _warnings.warn(f"An output with one or more elements was resized since it had shape {list(out.shape)}, "
                       f"which does not match the required output shape {list(result.shape)}. This behavior "
                       "is deprecated, and in a future PyTorch release outputs will not be resized unless "
                       "they have zero elements. You can explicitly reuse an out tensor t by resizing it, "
                       "inplace, to zero elements with t.resize_(0).", UserWarning, stacklevel=3)
    out._data = result._data.astype(out._data.dtype, copy=True)
    out._bump_version()
    return out


# The ops of every model's hot path (elementwise arithmetic, the unary table, an optimizer's in-place updates):
# no wrapper adds its ~0.1 us to their calls; their own type tests raise PyTorch's TypeErrors. The other
# functions and methods get ``_arguments.checked``, which costs a call frame and turns a failure caused by a
# wrong-typed argument into PyTorch's TypeError.
_UNCHECKED = frozenset({"add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "pow",
                        "clamp", "clamp_min", "clamp_max", "maximum", "minimum", "addcmul", "addcdiv", "lerp",
                        *unary.__all__, "backward"})
_UNCHECKED |= {name + "_" for name in _UNCHECKED}


def with_numpy_names(function: _Callable[..., _Any], accepted: frozenset) -> _Callable[..., _Any]:
    """``function`` (whose keyword arguments are ``accepted``) also taking ``axis=`` for ``dim=`` and
    ``keepdims=`` for ``keepdim=`` (``_arguments.numpy_renamed``)."""
    def wrapper(*args: _Any, **kwargs: _Any) -> _Any:
        try:
            return function(*args, **kwargs)
        except TypeError:
            renamed = _numpy_renamed(function, kwargs, accepted)
            if renamed is None:
                raise
        return function(*args, **renamed)
    return _wraps(wrapper, function)


def _exported(name: str, function: _Any, out: bool = False) -> _Any:
    """``function`` as tinyframe exports it (a top-level function or a Tensor method): with PyTorch's
    argument TypeErrors (but for the hot ops in ``_UNCHECKED``), ``out=`` where PyTorch has it, and NumPy's
    ``axis``/``keepdims`` where it takes ``dim``/``keepdim`` (and no ``**kwargs``)."""
    if not _inspect.isfunction(function) or name.startswith("_"):
        return with_out(function) if out else function
    code = _unwrapped(function).__code__
    names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    numpy_names = None  # the keyword names it takes, where it also takes NumPy's
    if (("dim" in names or "keepdim" in names) and "axis" not in names and "keepdims" not in names
            and not code.co_flags & _inspect.CO_VARKEYWORDS):
        numpy_names = frozenset(names).union(("out",) if out else ())
    if name not in _UNCHECKED:  # (one wrapper does both where it can: a frame less per call)
        function = _checked(function, name, None if out else numpy_names)
        numpy_names = numpy_names if out else None
    if out:
        function = with_out(function)
    if numpy_names is not None:
        function = with_numpy_names(function, numpy_names)
    return function


def _unwrapped(function: _Any) -> _Any:
    # inspect.unwrap's cycle check costs ~1 ms over the ~1,000 calls at import; these chains are short
    while hasattr(function, "__wrapped__"):
        function = function.__wrapped__
    return function


for _name in __all__:
    globals()[_name] = _exported(_name, globals()[_name], out=_name in _OUT_FUNCTIONS)

# The factories that take ``out=`` in PyTorch, re-exported here with it (tinyframe's __init__ imports
# this module after ``creation``).
_OUT_FACTORIES = ("zeros", "ones", "empty", "full", "arange", "linspace", "logspace", "eye", "rand", "randn",
                  "randint", "randperm")
for _name in _OUT_FACTORIES:
    if hasattr(_creation, _name):
        globals()[_name] = with_out(getattr(_creation, _name), factory=True)
        __all__.append(_name)
for _name in ("zeros_like", "ones_like", "full_like", "empty_like", "rand_like", "randn_like", "randint_like"):
    globals()[_name] = _checked(getattr(_creation, _name), _name)
    __all__.append(_name)
for _name, _method in list(vars(_Tensor).items()):
    if _inspect.isfunction(_method) and not _name.startswith("_"):
        setattr(_Tensor, _name, _exported(_name, _method))


def __getattr__(name: str) -> _Any:
    """A function of ``LAZY_FUNCTIONS``, its module loaded, as :func:`_exported` makes it (once)."""
    if name not in LAZY_FUNCTIONS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = _importlib.import_module(f"{__package__}.{LAZY_FUNCTIONS[name]}")
    globals()[name] = _exported(name, getattr(module, name), out=name in _OUT_FUNCTIONS)
    return globals()[name]


def _share_docstrings(cls: type) -> None:
    """Gives each public method without a docstring the text of what it is the method form of, so each
    text is written once: ``Tensor.exp`` takes ``tinyframe.exp``'s, ``Tensor.add_`` says it is the
    in-place ``Tensor.add``."""
    methods = {name: value for name, value in vars(cls).items() if not name.startswith("_") and callable(value)}
    for name, method in methods.items():
        function = globals().get(name)
        if not method.__doc__ and function is not None and function.__doc__:
            # (indented as the function's continuation lines are, for inspect.getdoc: cleandoc here costs 1 ms)
            method.__doc__ = f"``tinyframe.{name}`` with this tensor as ``input``:\n\n    {function.__doc__}"
        elif not method.__doc__ and name in LAZY_FUNCTIONS:  # (its text would load its family)
            method.__doc__ = f"``tinyframe.{name}`` with this tensor as ``input``."
    # An alias (``greater = gt``) has its own argument-checking wrapper: it shares the text of its original
    documented = {_unwrapped(method): method.__doc__ for method in methods.values() if method.__doc__}
    for method in methods.values():
        if not method.__doc__:
            method.__doc__ = documented.get(_unwrapped(method))
    for name, method in methods.items():
        if not method.__doc__ and name.endswith("_") and name[:-1] in methods:
            method.__doc__ = f"In-place ``Tensor.{name[:-1]}``: writes the result into this tensor and returns it."


_share_docstrings(_Tensor)
