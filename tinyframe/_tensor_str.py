"""``repr`` of a tensor in PyTorch's format, and ``set_printoptions``.

A port of torch/_tensor_str.py for dense cpu / cuda tensors. One ``_Formatter`` looks at the values
that will be shown and picks a style for all of them (integer-valued floats as ``1.``, fixed point
with ``precision`` digits, or scientific) and a common column width; the nested brackets are then
built row by row from the host array, wrapping lines at ``linewidth`` and eliding the middle of
every dimension with ``...`` once the tensor has more than ``threshold`` elements.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from . import dtypes

if TYPE_CHECKING:
    from .tensor import Tensor

__all__ = ["set_printoptions", "tensor_repr"]


class _PrintOptions:
    def __init__(self, precision: int = 4, threshold: float = 1000, edgeitems: int = 3, linewidth: int = 80,
                 sci_mode: bool | None = None) -> None:
        self.precision = precision  # digits after the decimal point
        self.threshold = threshold  # more elements than this are summarized
        self.edgeitems = edgeitems  # items kept at each end of a summarized dimension
        self.linewidth = linewidth  # characters per line before wrapping
        self.sci_mode = sci_mode    # None: chosen per tensor from its values


PRINT_OPTS = _PrintOptions()
_PROFILES = {
    "default": _PrintOptions(),
    "short": _PrintOptions(precision=2, edgeitems=2),
    "full": _PrintOptions(threshold=math.inf),
}


def set_printoptions(precision: int | None = None, threshold: float | None = None, edgeitems: int | None = None,
                     linewidth: int | None = None, profile: str | None = None,
                     sci_mode: bool | None = None) -> None:
    """Sets how tensors print, like ``torch.set_printoptions``.

    Args:
        precision: digits after the decimal point (default 4).
        threshold: tensors with more elements than this print summarized (default 1000).
        edgeitems: items shown at the start and end of each summarized dimension (default 3).
        linewidth: characters per line before wrapping (default 80).
        profile: ``"default"``, ``"short"`` or ``"full"`` (never summarize) resets the four options
            above before the others given here apply; other names are ignored, as in PyTorch.
        sci_mode: True or False forces scientific notation on or off; None (also what every call
            that omits it sets) lets each tensor's values decide.
    """
    if profile in _PROFILES:
        base = _PROFILES[profile]
        PRINT_OPTS.precision, PRINT_OPTS.threshold = base.precision, base.threshold
        PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = base.edgeitems, base.linewidth
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


class _Formatter:
    """Formats the elements of one tensor in one style, right-aligned to a common width.

    Floats print in scientific notation when the nonzero finite magnitudes span more than a factor
    of 1000, exceed 1e8 or fall below 1e-4 (unless ``sci_mode`` forces it); otherwise as ``3.`` when
    they are all integers, else with ``precision`` decimals. Only nonzero finite values set the width.
    """

    def __init__(self, values: np.ndarray) -> None:
        self.floating = values.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.width = 1
        if not self.floating:
            # The longest decimal string of a set of integers (or bools) is its min's or its max's.
            if values.size:
                self.width = max(len(str(values.min().item())), len(str(values.max().item())))
            return
        shown = values[np.isfinite(values) & (values != 0)]
        if shown.size == 0:
            return
        self.int_mode = bool(np.all(shown == np.ceil(shown)))
        magnitudes = np.abs(shown).astype(np.float64)
        smallest, largest = magnitudes.min(), magnitudes.max()
        if PRINT_OPTS.sci_mode is None:
            self.sci_mode = bool(largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4)
        else:
            self.sci_mode = PRINT_OPTS.sci_mode
        self.width = max(len(self._text(value)) for value in set(shown.tolist()))

    def _text(self, value: float | int | bool) -> str:
        """``value`` in this formatter's style, unpadded."""
        if not self.floating:
            return str(value)
        if self.sci_mode:
            return f"{value:.{PRINT_OPTS.precision}e}"
        if self.int_mode:
            # The trailing point tells a float from an int; nan and inf have none.
            return f"{value:.0f}" if math.isinf(value) or math.isnan(value) else f"{value:.0f}."
        return f"{value:.{PRINT_OPTS.precision}f}"

    def format(self, value: float | int | bool) -> str:
        """``value`` in this formatter's style, padded on the left to the common width."""
        return self._text(value).rjust(self.width)


class _ComplexFormatter:
    """Formats complex elements as PyTorch does: the real parts in one ``_Formatter``'s style and the
    imaginary parts in another's, each set by its own values, joined as ``1.0000-2.5000j``."""

    def __init__(self, values: np.ndarray) -> None:
        self.real, self.imag = _Formatter(values.real), _Formatter(values.imag)
        self.width = self.real.width + self.imag.width + 1  # the 'j'; the sign shares the imaginary width

    def format(self, value: complex) -> str:
        imag = (self.imag.format(value.imag) + "j").lstrip()
        return self.real.format(value.real) + (imag if imag[0] in "+-" else "+" + imag)


def _edges(array: np.ndarray, summarize: bool) -> tuple[np.ndarray, np.ndarray] | None:
    """The first and last ``edgeitems`` along dimension 0 when it is elided, else None."""
    edge, length = PRINT_OPTS.edgeitems, len(array)
    if summarize and length > 2 * edge:
        return array[:edge], array[length - edge:]
    return None


def _summarized(array: np.ndarray) -> np.ndarray:
    """The elements a summarized print shows: the first and last ``edgeitems`` along every dimension."""
    edge = PRINT_OPTS.edgeitems
    for axis, length in enumerate(array.shape):
        if length > 2 * edge:
            array = np.take(array, [*range(edge), *range(length - edge, length)], axis=axis)
    return array


def _vector_str(array: np.ndarray, indent: int, summarize: bool, formatter: _Formatter | _ComplexFormatter) -> str:
    """A 1-D array as ``[a, b, c]``, wrapped to ``linewidth`` with continuation lines under the first item."""
    per_line = max(1, (PRINT_OPTS.linewidth - indent) // (formatter.width + 2))
    edges = _edges(array, summarize)
    if edges is None:
        items = [formatter.format(value) for value in array.tolist()]
    else:
        head, tail = edges
        # With edgeitems=0 PyTorch prints just "[...]"; otherwise " ..." lines up with the numbers.
        ellipsis = " ..." if PRINT_OPTS.edgeitems else "..."
        items = [formatter.format(value) for value in head.tolist()] + [ellipsis]
        items += [formatter.format(value) for value in tail.tolist()]
    lines = [", ".join(items[start:start + per_line]) for start in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_str(array: np.ndarray, indent: int, summarize: bool, formatter: _Formatter | _ComplexFormatter) -> str:
    """An n-D array as nested brackets: each row on its own line, one blank line per extra dimension."""
    if array.ndim == 0:
        return formatter.format(array.item())
    if array.ndim == 1:
        return _vector_str(array, indent, summarize, formatter)
    edges = _edges(array, summarize)
    if edges is None:
        rows = [_nested_str(row, indent + 1, summarize, formatter) for row in array]
    else:
        head, tail = edges
        rows = [_nested_str(row, indent + 1, summarize, formatter) for row in head] + ["..."]
        rows += [_nested_str(row, indent + 1, summarize, formatter) for row in tail]
    return "[" + ("," + "\n" * (array.ndim - 1) + " " * (indent + 1)).join(rows) + "]"


def _add_suffixes(text: str, suffixes: list[str], indent: int) -> str:
    """Appends ``, suffix`` items and the closing parenthesis, moving a suffix to a new line when
    the current one would pass ``linewidth``."""
    parts = [text]
    line_length = len(text) - text.rfind("\n") + 1  # PyTorch's count: two more than the last line's length
    for suffix in suffixes:
        if line_length + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            line_length = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            line_length += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def _contents_and_size(array: np.ndarray, dtype: dtypes.dtype, indent: int) -> tuple[str, list[str]]:
    """The bracketed elements, and the ``size=`` / ``dtype=`` suffixes PyTorch prints with them."""
    suffixes = []
    if array.size == 0:
        # Nothing shows the dtype of an empty tensor, so any non-default one is named, int64 too.
        if array.ndim != 1:
            suffixes.append(f"size={array.shape}")
        if dtype is not dtypes.get_default_dtype():
            suffixes.append(f"dtype={dtype}")
        return "[]", suffixes
    if not PRINT_OPTS.edgeitems:
        suffixes.append(f"size={array.shape}")
    default = dtypes.get_default_dtype()
    if dtype not in (default, dtypes.int64, dtypes.bool_) and not (dtype.is_complex and dtype.to_real() is default):
        suffixes.append(f"dtype={dtype}")
    if dtype is dtypes.bfloat16:  # printed as its float32 values are, as PyTorch prints it
        array = array.astype(np.float32)
    summarize = array.size > PRINT_OPTS.threshold
    shown = _summarized(array) if summarize else array
    formatter = _ComplexFormatter(shown) if dtype.is_complex else _Formatter(shown)
    return _nested_str(array, indent, summarize, formatter), suffixes


def tensor_repr(t: Tensor) -> str:
    """``repr(t)`` exactly as PyTorch writes it, e.g. ``tensor([1.5000, 2.0000], requires_grad=True)``.

    Suffixes follow the elements in PyTorch's order: ``device=`` (non-cpu), ``size=`` (empty
    tensors that are not 1-D, and every tensor while ``edgeitems`` is 0), ``dtype=`` (other than
    the default float, int64 and bool; for empty tensors, other than the default float), then
    ``grad_fn=<Name>`` or ``requires_grad=True``.
    """
    prefix = "tensor("
    suffixes = []
    if t.device.type != "cpu":
        suffixes.append(f"device='{t.device}'")
    if t.is_meta:  # no data: ``tensor(..., device='meta', size=(2, 3))``
        contents = "..."
        suffixes.append(f"size={tuple(t.shape)}")
        if t.dtype is not dtypes.get_default_dtype():
            suffixes.append(f"dtype={t.dtype}")
    else:
        contents, size_suffixes = _contents_and_size(t._host_array(), t.dtype, len(prefix))
        suffixes += size_suffixes
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{type(t.grad_fn).__name__}>")  # PyTorch shows the class name
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(prefix + contents, suffixes, len(prefix))
