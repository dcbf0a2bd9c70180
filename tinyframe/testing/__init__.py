"""``torch.testing``: ``assert_close`` with PyTorch's default tolerances and messages."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..tensor import Tensor

__all__ = ["assert_close", "assert_allclose"]

# PyTorch's defaults by dtype: (rtol, atol); integers and bool must be equal.
_TOLERANCES = {"bfloat16": (1.6e-2, 1e-5), "float16": (1e-3, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7)}


def assert_close(actual: Any, expected: Any, *, rtol: float | None = None, atol: float | None = None,
                 equal_nan: bool = False, check_device: bool = True, check_dtype: bool = True,
                 check_layout: bool = True, check_stride: bool = False, msg: str | None = None) -> None:
    """Raises AssertionError unless ``|actual - expected| <= atol + rtol * |expected|`` elementwise.

    Tensors must also match in shape, and (by default) dtype and device. Sequences and mappings are
    compared item by item; Python numbers are compared as scalars. Without ``rtol``/``atol`` the
    tolerances are PyTorch's defaults for the dtype (float32: rtol=1.3e-6, atol=1e-5; integers: exact).
    """
    if (rtol is None) != (atol is None):
        raise ValueError(f"Both 'rtol' and 'atol' must be either specified or omitted, but got no "
                         f"{'rtol' if rtol is None else 'atol'}.")
    options: dict[str, Any] = dict(rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=check_device,
                   check_dtype=check_dtype, msg=msg)
    if isinstance(actual, Mapping) and isinstance(expected, Mapping):
        if list(actual.keys()) != list(expected.keys()):
            raise AssertionError(f"The keys of the mappings do not match: {list(actual)} != {list(expected)}.")
        for key in actual:
            assert_close(actual[key], expected[key], **options)
    elif _is_sequence(actual) and _is_sequence(expected):
        if len(actual) != len(expected):
            raise AssertionError(f"The length of the sequences mismatch: {len(actual)} != {len(expected)}")
        for a, e in zip(actual, expected):
            assert_close(a, e, **options)
    elif isinstance(actual, Tensor) or isinstance(expected, Tensor):
        _assert_tensors_close(actual, expected, **options)
    else:
        _assert_scalars_close(actual, expected, rtol, atol, equal_nan, msg)


def assert_allclose(actual: Any, expected: Any, rtol: float | None = None, atol: float | None = None,
                    equal_nan: bool = True, msg: str = "") -> None:
    """The deprecated form of :func:`assert_close` (no dtype check, NaNs equal by default)."""
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_dtype=False, msg=msg or None)


def _is_sequence(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str)


def _assert_scalars_close(actual: Any, expected: Any, rtol: float | None, atol: float | None,
                          equal_nan: bool, msg: str | None) -> None:
    if isinstance(actual, bool) or isinstance(actual, int) and isinstance(expected, int):
        rtol, atol = 0.0, 0.0
    elif rtol is None:
        rtol, atol = _TOLERANCES["float64"]
    difference = abs(actual - expected)
    if difference <= atol + rtol * abs(expected) or equal_nan and actual != actual and expected != expected:
        return
    relative = difference / abs(expected) if expected else float("inf")
    raise AssertionError(msg or f"Scalars are not close!\n\nExpected {expected} but got {actual}.\n"
                         f"Absolute difference: {difference} (up to {atol} allowed)\n"
                         f"Relative difference: {relative} (up to {rtol} allowed)")


def _assert_tensors_close(actual: Any, expected: Any, *, rtol: float | None, atol: float | None,
                          equal_nan: bool, check_device: bool, check_dtype: bool, msg: str | None) -> None:
    if not (isinstance(actual, Tensor) and isinstance(expected, Tensor)):
        raise TypeError(f"No comparison pair was able to handle inputs of type {type(actual)} and {type(expected)}.")
    for attribute, wanted in (("shape", True), ("device", check_device), ("dtype", check_dtype)):
        a, e = getattr(actual, attribute), getattr(expected, attribute)
        if wanted and a != e:
            raise AssertionError(msg or f"The values for attribute '{attribute}' do not match: {a!r} != {e!r}.")
    if rtol is None:
        rtol, atol = max(_TOLERANCES.get(t.dtype.name, (0.0, 0.0)) for t in (actual, expected))
    a, e = (np.asarray(_host(t.detach())) for t in (actual, expected))
    exact = rtol == 0 and atol == 0
    if a.dtype.kind in "biu" and e.dtype.kind in "biu":
        a, e = a.astype(np.int64), e.astype(np.int64)
    else:
        a, e = np.promote_types(a.dtype, e.dtype).type(a), np.promote_types(a.dtype, e.dtype).type(e)
    with np.errstate(all="ignore"):
        difference = np.abs(a - e)
        close = difference <= atol + rtol * np.abs(e)
        if equal_nan:
            close |= np.isnan(a) & np.isnan(e)
        if close.all():
            return
        relative = (difference / np.abs(e)).astype(np.float32 if a.dtype.kind in "biu" else a.dtype)
    if msg is not None:
        raise AssertionError(msg)
    mismatched = int((~close).sum())
    lines = [f"Tensor-likes are not {'equal' if exact else 'close'}!", "",
             f"Mismatched elements: {mismatched} / {close.size} ({100 * mismatched / close.size:.1f}%)"]
    for name, values, allowed in (("absolute", difference, atol), ("relative", relative, rtol)):
        flat = np.where(close, 0, values).ravel()
        at = int(np.argmax(np.isnan(flat))) if np.isnan(flat).any() else int(np.argmax(flat))
        index = tuple(int(i) for i in np.unravel_index(at, close.shape))
        bound = "" if exact else f" (up to {allowed} allowed)"
        lines.append(f"Greatest {name} difference: {flat[at].item()} at index {index}{bound}")
    raise AssertionError("\n".join(lines))


def _host(t: Tensor) -> Any:
    """The values of ``t`` as a NumPy array; bfloat16 (which ``numpy()`` refuses) as float32, exactly."""
    return t.cpu().float().numpy() if t.dtype.name == "bfloat16" else t.cpu().numpy()
