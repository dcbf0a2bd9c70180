"""``ctc_loss``: the connectionist temporal classification loss, by the forward-backward algorithm.

For a target ``l`` of length ``L`` the extended target ``l'`` puts a blank before, between and
after its labels (length ``S = 2L + 1``). In log space, with ``y_t = log_probs[t]``:

    alpha_0(0) = y_0(blank),  alpha_0(1) = y_0(l'_1)
    alpha_t(s) = logsumexp(alpha_{t-1}(s), alpha_{t-1}(s-1), [alpha_{t-1}(s-2)]) + y_t(l'_s)
    beta_{T-1}(S-1) = y_{T-1}(l'_{S-1}),  beta_{T-1}(S-2) = y_{T-1}(l'_{S-2})
    beta_t(s)  = logsumexp(beta_{t+1}(s), beta_{t+1}(s+1), [beta_{t+1}(s+2)]) + y_t(l'_s)

where the skip ``[...]`` is allowed when ``l'_s`` is a label different from ``l'_{s-2}``. The loss
is ``nll = -logsumexp(alpha_{T-1}(S-1), alpha_{T-1}(S-2))``. The gradient is PyTorch's:

    d nll / d y_t(c) = exp(y_t(c)) - exp(logsumexp_{s: l'_s = c}(alpha_t(s) + beta_t(s)) + nll - y_t(c))

(the exact derivative plus ``exp(y_t(c))``, which sums to zero through the ``log_softmax`` that
produces ``log_probs``, so gradients reaching the logits are the exact ones), and zero for
``t >= input_length``. All samples run together, one vectorised step per time step.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _autocast, _graph
from .._graph import Op
from ..device import array_module_of
from . import binary
from . import reduction as reductions

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["ctc_loss"]


class _Paths:
    """The extended targets of a batch, padded to the longest: labels ``(N, S)``, which positions
    exist and which may skip the preceding blank."""

    def __init__(self, targets: list, blank: int) -> None:
        longest = 2 * max((len(t) for t in targets), default=0) + 1
        n = len(targets)
        self.labels = np.full((n, longest), blank, dtype=np.int64)
        self.lengths = np.array([2 * len(t) + 1 for t in targets], dtype=np.int64)
        self.skip = np.zeros((n, longest), dtype=bool)
        for i, t in enumerate(targets):
            t = np.asarray(t, dtype=np.int64)
            self.labels[i, 1:2 * len(t):2] = t
            if len(t) > 1:
                self.skip[i, 3:2 * len(t):2] = t[1:] != t[:-1]
        self.exists = np.arange(longest) < self.lengths[:, None]


def _shifted(a: np.ndarray, by: int) -> np.ndarray:
    """``a`` moved ``by`` positions along the last axis (right if positive), ``-inf`` filling in."""
    out = np.full_like(a, -np.inf)
    if by > 0:
        out[:, by:] = a[:, :-by]
    else:
        out[:, :by] = a[:, -by:]
    return out


def _forward_backward(lp: np.ndarray, paths: _Paths, input_lengths: np.ndarray) -> tuple:
    """``(nll (N,), gradient (T, N, C))`` for ``lp (T, N, C)`` in float64."""
    steps, n, classes = lp.shape
    rows = np.arange(n)[:, None]
    emit = lp[:, rows, paths.labels]  # (T, N, S): y_t(l'_s)
    skip_from = np.zeros_like(paths.skip)
    skip_from[:, :-2] = paths.skip[:, 2:]  # beta may skip from s + 2 to s when alpha may from s to s + 2
    alpha = np.full((steps, n, paths.labels.shape[1]), -np.inf)
    alpha[0, :, :2] = emit[0, :, :2]
    alpha[0][~paths.exists] = -np.inf
    for t in range(1, steps):
        prev = alpha[t - 1]
        merged = np.logaddexp(prev, _shifted(prev, 1))
        merged = np.where(paths.skip, np.logaddexp(merged, _shifted(prev, 2)), merged)
        alpha[t] = np.where(paths.exists, merged + emit[t], -np.inf)
    beta = np.full_like(alpha, -np.inf)
    last = input_lengths - 1
    ends = np.zeros_like(paths.exists)
    ends[np.arange(n), paths.lengths - 1] = True
    ends[np.arange(n), np.maximum(paths.lengths - 2, 0)] = True
    for t in range(steps - 1, -1, -1):
        start = np.where(ends, emit[t], -np.inf)
        if t + 1 < steps:
            after = beta[t + 1]
            merged = np.logaddexp(after, _shifted(after, -1))
            merged = np.where(skip_from, np.logaddexp(merged, _shifted(after, -2)), merged)
            inner = np.where(paths.exists, merged + emit[t], -np.inf)
        else:
            inner = start
        beta[t] = np.where((last == t)[:, None], start, np.where((t < last)[:, None], inner, -np.inf))
    final = alpha[last, np.arange(n)]
    tail = np.take_along_axis(final, np.stack([paths.lengths - 1, np.maximum(paths.lengths - 2, 0)], 1), 1)
    tail[paths.lengths == 1, 1] = -np.inf  # an empty target has one path end, the blank
    nll = -np.logaddexp(tail[:, 0], tail[:, 1])
    both = alpha + beta
    occupancy = np.full((steps, n, classes), -np.inf)
    for s in range(paths.labels.shape[1]):  # logsumexp over the positions s of each class
        index = (slice(None), np.arange(n), paths.labels[:, s])
        occupancy[index] = np.logaddexp(occupancy[index], both[:, :, s])
    grad = np.exp(lp) - np.exp(occupancy + nll[None, :, None] - lp)
    grad[np.arange(steps)[:, None] >= input_lengths[None, :]] = 0.0
    return nll, grad


class CtcLoss(Op):
    """Per-sample ``nll (N,)``; the gradient for ``log_probs`` is computed with the loss."""

    @staticmethod
    def forward(ctx: CtcLoss, log_probs: Any, *, paths: _Paths, input_lengths: np.ndarray,
                zero_infinity: bool) -> Any:
        xp = ctx.xp
        host = np.asarray(log_probs.get() if xp is not np else log_probs, dtype=np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            nll, grad = _forward_backward(host, paths, input_lengths)
        if zero_infinity:
            infinite = np.isinf(nll)
            nll[infinite] = 0.0
            grad[:, infinite] = 0.0
        ctx.grad = xp.asarray(grad.astype(log_probs.dtype))
        return xp.asarray(nll.astype(log_probs.dtype))

    @staticmethod
    def backward(ctx: CtcLoss, g: Any) -> Any:
        return ctx.xp.asarray(ctx.grad) * g.reshape((1, -1, 1))  # a constant Tensor in a recorded pass


def _lengths(value: Any, name: str, n: int) -> np.ndarray:
    lengths = np.asarray(value.detach().cpu().numpy() if isinstance(value, _graph.Tensor) else value, dtype=np.int64)
    lengths = lengths.reshape(-1)
    if lengths.shape[0] != n:
        raise RuntimeError(f"{name} must be of size batch_size")
    return lengths


def _check_range(lengths: np.ndarray, name: str, most: int | None) -> None:
    """PyTorch's error for the first length below 0 or above ``most``."""
    for value in lengths:
        if value < 0 or (most is not None and value > most):
            bound = "at least 0" if value < 0 else f"at most {most}"
            raise RuntimeError(f"Expected {name} to have value {bound}, but got value {value} "
                               f"(while checking arguments for ctc_loss_allocate_outputs)")


def _check_size(targets: np.ndarray, dim: int, size: int, relation: str) -> None:
    """PyTorch's error for targets whose size along ``dim`` is not ``size`` (with ``relation``
    ``'at least '``: smaller than it)."""
    actual = targets.shape[dim]
    if actual < size or (actual != size and not relation):
        raise RuntimeError(f"Expected tensor to have size {relation}{size} at dimension {dim}, but got size {actual} "
                           f"for argument #2 'targets' (while checking arguments for ctc_loss_allocate_outputs)")


@_autocast.float32
def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths: Any, target_lengths: Any, blank: int = 0,
             reduction: str = "mean", zero_infinity: bool = False) -> Tensor:
    """The CTC loss of ``log_probs (T, N, C)`` (or unbatched ``(T, C)``, log-softmax outputs) for
    ``targets`` ``(N, S)`` padded or 1-D concatenated (``sum(target_lengths)``), each sample using
    its first ``input_lengths[n]`` steps and ``target_lengths[n]`` labels.

    ``loss_n = -log sum over alignments of prod_t p_t(path_t)``; ``reduction='mean'`` divides each
    loss by its target length and averages over the batch, ``'sum'`` adds them, ``'none'`` gives
    ``(N,)``. ``zero_infinity`` turns impossible alignments' infinite losses (and their gradients)
    into zeros.
    """
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    batched = log_probs.ndim == 3
    if log_probs.ndim not in (2, 3):
        raise RuntimeError(f"ctc_loss: expected log_probs to be 2-D or 3-D, but got {log_probs.ndim}-D")
    lp = log_probs if batched else log_probs.unsqueeze(1)
    steps, n, classes = lp.shape
    if not 0 <= blank < classes:
        raise RuntimeError("blank must be in label range")
    inputs = _lengths(input_lengths, "input_lengths", n)
    lengths = _lengths(target_lengths, "target_lengths", n)
    flat = np.asarray(targets.detach().cpu().numpy(), dtype=np.int64)
    # PyTorch's checks in its order: target lengths, the targets' size, then input lengths
    _check_range(lengths, "target_lengths", None)
    if flat.ndim == 1:  # concatenated targets (also for unbatched log_probs)
        _check_size(flat, 0, int(lengths.sum()), "")
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        samples = [flat[s:s + length] for s, length in zip(starts, lengths)]
    else:
        _check_size(flat, 0, n, "")
        _check_size(flat, 1, int(lengths.max(initial=0)), "at least ")
        samples = [row[:length] for row, length in zip(flat.reshape(n, -1), lengths)]
    _check_range(inputs, "input_lengths", steps)
    losses = CtcLoss.apply(lp, paths=_Paths(samples, blank), input_lengths=inputs, zero_infinity=zero_infinity)
    if reduction == "none":
        return losses if batched else losses.squeeze(0)
    if reduction == "sum":
        return reductions.sum(losses)
    divisors = array_module_of(lp._data).asarray(np.maximum(lengths, 1).astype(lp._data.dtype))
    return reductions.mean(binary.div(losses, _graph.wrap(divisors)))
