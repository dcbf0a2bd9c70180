"""Compare two script outputs line by line: text exactly, numbers with a small tolerance."""
import math
import re

_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|inf")
RTOL, ATOL = 2e-3, 2e-4
# Object addresses differ between runs; tinyframe names its types tinyframe.float32, tinyframe.Size.
_NORMALIZE = ((re.compile(r"0x[0-9a-fA-F]+"), "0x?"), (re.compile(r"\btinyframe\."), "torch."))


def _numbers_close(a: str, b: str) -> bool:
    x, y = float(a), float(b)
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return x == y or abs(x - y) <= ATOL + RTOL * abs(y)


def lines_match(got: str, want: str) -> bool:
    """True when the lines have the same text around numbers and the numbers are close."""
    if got == want:
        return True
    for pattern, replacement in _NORMALIZE:
        got, want = pattern.sub(replacement, got), pattern.sub(replacement, want)
    if _NUMBER.sub("#", got) != _NUMBER.sub("#", want):
        return False
    return all(_numbers_close(a, b) for a, b in zip(_NUMBER.findall(got), _NUMBER.findall(want)))


def first_difference(got: str, want: str) -> str | None:
    """A message naming the first line that differs, or None when the outputs match."""
    got_lines, want_lines = got.splitlines(), want.splitlines()
    for number, (g, w) in enumerate(zip(got_lines, want_lines), 1):
        if not lines_match(g, w):
            return f"line {number}:\n  tinyframe: {g}\n  torch:     {w}"
    if len(got_lines) != len(want_lines):
        return f"tinyframe printed {len(got_lines)} lines, torch {len(want_lines)}"
    return None
