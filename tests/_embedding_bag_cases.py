"""Cases shared by ``test_embedding_bag.py`` and the script that recorded PyTorch's results
(``python -m tests._embedding_bag_record`` with PyTorch installed, from the repository root).

Each case: ``name -> fn(lib, weight)``, where ``lib`` is ``tinyframe`` (or ``torch`` when recording)
and ``weight`` a ``(6, 2)`` float32 leaf that requires grad. A case returns ``torch.embedding_bag``'s
four tensors or ``F.embedding_bag``'s output; the gradient of the output's squares' sum is recorded too.
"""
from __future__ import annotations

from typing import Any

_IDS = [1, 2, 4, 5, 4, 3, 2, 0]
_OFFSETS = [0, 2, 2, 5]
_WELL_FORMED = [0, 2, 2, 5, 8]  # include_last_offset: the last offset is the input's length


def _top(mode: int, padding_idx: Any = None, weights: bool = False, include_last_offset: bool = False,
         offsets: list = _OFFSETS, dtype: str = "float32") -> Any:
    def case(lib: Any, w: Any) -> Any:
        psw = lib.linspace(0, 1, 8, dtype=getattr(lib, dtype)).requires_grad_() if weights else None
        return lib.embedding_bag(w.to(getattr(lib, dtype)), lib.tensor(_IDS), lib.tensor(offsets), False, mode,
                                 False, psw, include_last_offset, padding_idx)
    return case


def _functional(**options: Any) -> Any:
    def case(lib: Any, w: Any) -> Any:
        ids = lib.tensor(options.pop("ids", _IDS))
        offsets = options.pop("offsets", _OFFSETS)
        offsets = None if offsets is None else lib.tensor(offsets)
        if options.pop("weights", False):
            options["per_sample_weights"] = lib.linspace(0, 1, ids.numel()).reshape(ids.shape).requires_grad_()
        return lib.nn.functional.embedding_bag(ids, w, offsets, **options)
    return case


CASES: dict = {
    **{f"top_{m}_pad{p}_ilo{i}": _top(m, p, include_last_offset=i, offsets=_WELL_FORMED if i else _OFFSETS)
       for m in range(3) for p in (None, 2, -1) for i in (False, True)},
    **{f"top_{m}_pad{p}_short_last_offset": _top(m, p, include_last_offset=True) for m in range(3) for p in (None, 2)},
    "top_sum_weights": _top(0, weights=True),
    "top_sum_weights_pad": _top(0, 2, weights=True),
    "top_sum_float64": _top(0, dtype="float64"),
    "top_max_float64": _top(2, dtype="float64"),
    "top_mean_float64_short_last_offset": _top(1, include_last_offset=True, dtype="float64"),
    "top_int32": lambda lib, w: lib.embedding_bag(w, lib.tensor(_IDS).int(), lib.tensor(_OFFSETS).int(), False, 2),
    "top_int32_int64": lambda lib, w: lib.embedding_bag(w, lib.tensor(_IDS).int(), lib.tensor(_OFFSETS), False, 1),
    "top_int16_indices": lambda lib, w: lib.embedding_bag(w, lib.tensor(_IDS).short(), lib.tensor(_OFFSETS), False, 1),
    "top_ties_first": lambda lib, w: lib.embedding_bag(w[:3] * 0 + lib.tensor([[1., 2.], [1., 2.], [3., 0.]]),
                                                      lib.tensor([0, 1, 1, 0, 2]), lib.tensor([0, 3]), False, 2),
    "top_empty_input": lambda lib, w: lib.embedding_bag(w, lib.tensor([], dtype=lib.long), lib.tensor([0, 0]),
                                                        False, 2),
    "top_bad_mode": _top(3),
    "top_weights_mean": _top(1, weights=True),
    "top_weights_float64": lambda lib, w: lib.embedding_bag(w, lib.tensor(_IDS), lib.tensor(_OFFSETS), False, 0,
                                                            False, lib.ones(8, dtype=lib.float64)),
    "top_weights_numel": lambda lib, w: lib.embedding_bag(w, lib.tensor(_IDS), lib.tensor(_OFFSETS), False, 0,
                                                          False, lib.ones(7)),
    "top_long_weight": lambda lib, w: lib.embedding_bag(w.long(), lib.tensor(_IDS), lib.tensor(_OFFSETS)),
    "top_float_offsets": lambda lib, w: lib.embedding_bag(w, lib.tensor(_IDS), lib.tensor([0.0, 2.0])),
    "top_2d_offsets": lambda lib, w: lib.embedding_bag(w, lib.tensor(_IDS), lib.tensor([[0, 2]])),
    "top_1d_weight": lambda lib, w: lib.embedding_bag(w.reshape(-1), lib.tensor(_IDS), lib.tensor([0])),
    "top_2d_indices": lambda lib, w: lib.embedding_bag(w, lib.tensor([[1, 2, 3]]), lib.tensor([0])),
    "top_padding_too_large": _top(0, 6),
    "top_padding_too_small": _top(0, -7),
    "top_first_offset": lambda lib, w: lib.embedding_bag(w, lib.tensor(_IDS), lib.tensor([1, 3])),
    "top_last_offset": lambda lib, w: lib.embedding_bag(w, lib.tensor(_IDS), lib.tensor([0, 9])),
    "top_decreasing_offsets": lambda lib, w: lib.embedding_bag(w, lib.tensor(_IDS), lib.tensor([0, 3, 2, 8]), False, 1),
    **{f"top_out_of_range_{m}_pad{p}_{name}": (
        lambda lib, w, m=m, p=p, ids=ids, offsets=offsets: lib.embedding_bag(
            w, lib.tensor(ids), lib.tensor(offsets), False, m, False, None, False, p))
       for m in range(3) for p in (None, 0)
       for name, ids, offsets in (("first_bag", [1, 9, 2, 3], [0, 2]), ("last_bag", [1, 2, 3, 9], [0, 3]),
                                  ("one_bag", [1, 2, 3, -1], [0]))},
    "top_out_of_range_float64": lambda lib, w: lib.embedding_bag(w.double(), lib.tensor([1, 9]), lib.tensor([0])),
    **{f"F_{mode}": _functional(mode=mode) for mode in ("sum", "mean", "max")},
    **{f"F_{mode}_pad": _functional(mode=mode, padding_idx=2) for mode in ("sum", "mean", "max")},
    **{f"F_{mode}_2d": _functional(mode=mode, ids=[[1, 2, 4, 5], [4, 3, 2, 0]], offsets=None)
       for mode in ("sum", "mean", "max")},
    "F_mean_pad_negative": _functional(padding_idx=-2, offsets=[0, 4]),
    "F_mean_ilo": _functional(include_last_offset=True, offsets=_WELL_FORMED),
    "F_mean_short_last_offset": _functional(include_last_offset=True),
    "F_weights": _functional(mode="sum", weights=True),
    "F_weights_pad": _functional(mode="sum", weights=True, padding_idx=4),
    "F_weights_2d": _functional(mode="sum", weights=True, ids=[[1, 2, 4, 5], [4, 3, 2, 0]], offsets=None),
    # (each index as frequent: PyTorch's CPU kernel divides the gradient of the k-th distinct index by the
    # frequency of the k-th smallest index, the frequency of another where they differ)
    "F_scale_grad_by_freq": _functional(mode="mean", scale_grad_by_freq=True, ids=[0, 1, 2, 2, 1, 0, 0, 2, 1],
                                        offsets=[0, 1, 5]),
    "F_empty_offsets": _functional(offsets=[]),
    "F_weights_mean": _functional(mode="mean", weights=True),
    "F_weights_shape": lambda lib, w: lib.nn.functional.embedding_bag(lib.tensor(_IDS), w, lib.tensor(_OFFSETS),
                                                                      mode="sum", per_sample_weights=lib.ones(7)),
    "F_bad_mode": _functional(mode="median"),
    "F_max_scale_grad_by_freq": _functional(mode="max", scale_grad_by_freq=True),
    "F_max_sparse": _functional(mode="max", sparse=True),
    "F_float_indices": lambda lib, w: lib.nn.functional.embedding_bag(lib.tensor(_IDS).float(), w,
                                                                      lib.tensor(_OFFSETS)),
    "F_1d_weight": lambda lib, w: lib.nn.functional.embedding_bag(lib.tensor(_IDS), w.reshape(-1),
                                                                  lib.tensor(_OFFSETS)),
    "F_2d_offsets": _functional(offsets=[[0, 2]]),
    "F_no_offsets": _functional(offsets=None),
    "F_3d_input": _functional(ids=[[[1, 2], [4, 5]], [[4, 3], [2, 0]]], offsets=None),
    "F_out_of_range": _functional(ids=[1, 9], offsets=[0]),
}


def run(lib: Any, fn: Any) -> Any:
    """What a case gives with ``lib``: its outputs (dtype name, shape, values, node) and the weight's
    gradient, or the exception's type and first line."""
    weight = lib.arange(12.0).reshape(6, 2).requires_grad_()
    try:
        result = fn(lib, weight)
    except Exception as exc:  # noqa: BLE001  (the error is what is compared)
        return f"{type(exc).__name__}: {str(exc).splitlines()[0]}"
    outputs = result if isinstance(result, tuple) else (result,)
    return {"outputs": [(str(t.dtype).split(".")[1], list(t.shape), t.tolist(),
                         t.grad_fn.name() if t.grad_fn is not None else None) for t in outputs],
            "grad": _grad(lib, outputs[0], weight)}


def _grad(lib: Any, output: Any, weight: Any) -> Any:
    if output.grad_fn is None or not output.numel():
        return None
    try:
        return lib.autograd.grad(output.pow(2).sum(), weight, allow_unused=True)[0].tolist()
    except Exception as exc:  # noqa: BLE001  (PyTorch's backward of a 2-d input to torch.embedding_bag fails)
        return f"{type(exc).__name__}: {str(exc).splitlines()[0]}"
