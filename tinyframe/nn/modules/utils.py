"""The argument normalisers that PyTorch's modules (and third-party layers) import:
``_pair(3) == (3, 3)``, ``_triple``, ``_ntuple(n)``, ``_reverse_repeat_tuple``."""
from __future__ import annotations

import collections.abc
from collections.abc import Callable, Sequence
from itertools import repeat
from typing import Any

__all__ = ["_single", "_pair", "_triple", "_quadruple", "_ntuple", "_reverse_repeat_tuple",
           "consume_prefix_in_state_dict_if_present"]


def _ntuple(n: int, name: str = "parse") -> Callable[[Any], tuple]:
    """A function giving an iterable as a tuple and repeating anything else ``n`` times."""
    def parse(x: Any) -> tuple:
        if isinstance(x, collections.abc.Iterable):
            return tuple(x)
        return tuple(repeat(x, n))
    parse.__name__ = name
    return parse


_single = _ntuple(1, "_single")
_pair = _ntuple(2, "_pair")
_triple = _ntuple(3, "_triple")
_quadruple = _ntuple(4, "_quadruple")


def _reverse_repeat_tuple(t: Sequence, n: int) -> tuple:
    """``t`` reversed, each element repeated ``n`` times: ``((1, 2), 2) -> (2, 2, 1, 1)`` (the order
    ``F.pad`` takes padding in)."""
    return tuple(x for x in reversed(t) for _ in range(n))


def consume_prefix_in_state_dict_if_present(state_dict: dict[str, Any], prefix: str) -> None:
    """Strips ``prefix`` from the keys of ``state_dict`` (and of its ``_metadata``) that start with it, in
    place: for loading a state saved from a wrapped model (``"module."`` of DataParallel)."""
    for key in list(state_dict):
        if key.startswith(prefix):
            state_dict[key[len(prefix):]] = state_dict.pop(key)
    metadata = getattr(state_dict, "_metadata", None)
    if metadata is None:
        return
    for key in list(metadata):
        # as in PyTorch: '' is the wrapper's entry (kept), "module" (prefix without its dot) becomes ''
        if key and (key == prefix.replace(".", "") or key.startswith(prefix)):
            metadata[key[len(prefix):]] = metadata.pop(key)
