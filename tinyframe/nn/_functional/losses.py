"""Margin, embedding and likelihood losses (re-exported by ``nn.functional``)."""
from __future__ import annotations

import math
from typing import Any

from ... import _autocast, dtypes, grad_mode
from ...device import array_module_of
from ...ops import binary, indexing, unary
from ...ops import reduction as reductions
from ...ops._composite import composed_op
from ...ops.loss import legacy_reduction
from ...tensor import Tensor
from .distance import pairwise_distance


def _reduced(losses: Tensor, reduction: str, size_average: bool | None = None, reduce: bool | None = None) -> Tensor:
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    if reduction == "mean":
        return reductions.mean(losses)
    if reduction == "sum":
        return reductions.sum(losses)
    if reduction == "none":
        return losses
    raise ValueError(f"{reduction} is not a valid value for reduction")


@_autocast.float32
def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                        size_average: bool | None = None, reduce: bool | None = None,
                        reduction: str = "mean") -> Tensor:
    """``max(0, -target * (input1 - input2) + margin)``, ``target`` in {1, -1}."""
    if input1.ndim != input2.ndim or input1.ndim != target.ndim:
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.shape}, input2: {input2.shape}, target: {target.shape} ")
    gap = binary.add(binary.mul(unary.neg(target), binary.sub(input1, input2)), margin)
    return _reduced(binary.clamp_min(gap, 0.0), reduction, size_average, reduce)


@_autocast.float32
def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0, size_average: bool | None = None,
                         reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """``input`` where ``target == 1``, ``max(0, margin - input)`` where ``target == -1``."""
    margin_part = binary.where(binary.ne(target, 1), binary.clamp_min(binary.sub(margin, input), 0.0), 0.0)
    self_part = binary.where(binary.ne(target, -1), input, 0.0)
    return _reduced(binary.add(margin_part, self_part), reduction, size_average, reduce)


@_autocast.float32
def soft_margin_loss(input: Tensor, target: Tensor, size_average: bool | None = None, reduce: bool | None = None,
                     reduction: str = "mean") -> Tensor:
    """``log(1 + exp(-target * input))``."""
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    return _soft_margin_loss(input, target, reduction)


@composed_op("SoftMarginLossBackward0", ("input", "target"))
def _soft_margin_loss(input: Tensor, target: Tensor, reduction: str) -> Tensor:
    if not input.dtype.is_floating_point:  # the loss is floating: PyTorch cannot write it into input's dtype
        raise RuntimeError(f"result type Float can't be cast to the desired output type "
                           f"{dtypes.scalar_type_name(input.dtype)}")
    loss = unary.softplus(binary.mul(unary.neg(target), input), 1.0, 20.0)
    if loss.dtype != input.dtype:  # PyTorch writes the loss into a tensor of input's dtype
        loss = loss.to(input.dtype)
    return _reduced(loss, reduction)


def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                size_average: bool | None = None, reduce: bool | None = None,
                                reduction: str = "mean") -> Tensor:
    """``-mean_c(y_c log sigmoid(x_c) + (1 - y_c) log sigmoid(-x_c))`` per sample (weighted per class)."""
    losses = unary.neg(binary.add(binary.mul(target, unary.logsigmoid(input)),
                                  binary.mul(binary.sub(1.0, target), unary.logsigmoid(unary.neg(input)))))
    if weight is not None:
        losses = binary.mul(losses, weight)
    per_sample = binary.div(reductions.sum(losses, input.ndim - 1), input.shape[-1])
    return _reduced(per_sample, reduction, size_average, reduce)


@_autocast.float32
def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                          size_average: bool | None = None, reduce: bool | None = None,
                          reduction: str = "mean") -> Tensor:
    """``1 - cos(x1, x2)`` where ``target == 1``, ``max(0, cos(x1, x2) - margin)`` where ``target == -1``."""
    dim = input1.ndim - 1
    eps = 1e-12
    dot = reductions.sum(binary.mul(input1, input2), dim)
    norms = binary.mul(binary.add(reductions.sum(binary.mul(input1, input1), dim), eps),
                       binary.add(reductions.sum(binary.mul(input2, input2), dim), eps))
    cos = binary.div(dot, unary.sqrt(norms))
    positive = binary.where(binary.eq(target, 1), binary.sub(1.0, cos), 0.0)
    negative = binary.where(binary.eq(target, -1), binary.clamp_min(binary.sub(cos, margin), 0.0), 0.0)
    return _reduced(binary.add(positive, negative), reduction, size_average, reduce)


@_autocast.float32
def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: float = 2,
                        eps: float = 1e-6, swap: bool = False, size_average: bool | None = None,
                        reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """``max(0, margin + d(a, p) - d(a, n))`` with ``d`` the ``p``-norm distance (``swap`` takes the
    smaller of ``d(a, n)`` and ``d(p, n)``)."""
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    to_positive, to_negative = pairwise_distance(anchor, positive, p, eps), pairwise_distance(anchor, negative, p, eps)
    if swap:
        to_negative = binary.minimum(to_negative, pairwise_distance(positive, negative, p, eps))
    # PyTorch's kernel adds the margin as a Scalar (AddBackward1), then subtracts
    losses = binary.clamp_min(binary.sub(binary.AddScalar.apply(to_positive, other=margin), to_negative), 0.0)
    return _reduced(losses, reduction, size_average, reduce)


def triplet_margin_with_distance_loss(anchor: Tensor, positive: Tensor, negative: Tensor, *,
                                      distance_function: Any = None, margin: float = 1.0, swap: bool = False,
                                      reduction: str = "mean") -> Tensor:
    """``max(0, margin + d(a, p) - d(a, n))`` for any distance ``d`` (default ``pairwise_distance``)."""
    if margin <= 0:
        raise ValueError(f"TripletMarginWithDistanceLoss: expected margin to be greater than 0, got {margin} instead")
    distance = pairwise_distance if distance_function is None else distance_function
    to_positive, to_negative = distance(anchor, positive), distance(anchor, negative)
    if swap:
        to_negative = binary.minimum(to_negative, distance(positive, negative))
    losses = binary.clamp_min(binary.sub(binary.add(to_positive, margin), to_negative), 0.0)
    return _reduced(losses, reduction)


@_autocast.float32
def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False,
                     size_average: bool | None = None, eps: float = 1e-8, reduce: bool | None = None,
                     reduction: str = "mean") -> Tensor:
    """``exp(input) - target * input`` (``log_input``) or ``input - target * log(input + eps)``; ``full``
    adds Stirling's ``target * log(target) - target + 0.5 * log(2 * pi * target)`` where ``target > 1``."""
    if log_input:
        losses = binary.sub(unary.exp(input), binary.mul(target, input))
    else:
        losses = binary.sub(input, binary.mul(target, unary.log(binary.add(input, eps))))
    if full:
        counts = binary.clamp_min(target, 1.0)  # the term is used where target > 1 only: no log(0) elsewhere
        stirling = binary.add(binary.sub(binary.mul(counts, unary.log(counts)), counts),
                              binary.mul(unary.log(binary.mul(counts, 2 * math.pi)), 0.5))
        losses = binary.add(losses, binary.where(binary.gt(target, 1), stirling, 0.0))
    return _reduced(losses, reduction, size_average, reduce)


def gaussian_nll_loss(input: Tensor, target: Tensor, var: Tensor | float, full: bool = False, eps: float = 1e-6,
                      reduction: str = "mean") -> Tensor:
    """``0.5 * (log(max(var, eps)) + (input - target)^2 / max(var, eps))`` (+ ``0.5 * log(2 pi)`` with
    ``full``); ``var`` is per element, per sample (one dimension fewer) or a number."""
    if not isinstance(var, Tensor):
        var = Tensor._make(array_module_of(input._data).full((), float(var), input._data.dtype))
    if tuple(var.shape) != tuple(input.shape):
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = var.unsqueeze(-1)
        elif not (tuple(input.shape[:-1]) == tuple(var.shape[:-1]) and var.shape[-1] == 1) and var.ndim != 0:
            raise ValueError("var is of incorrect size")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(reduction + " is not valid")
    if bool((var._data < 0).any()):
        raise ValueError("var has negative entry/entries")
    # clamped outside autograd, as PyTorch does: the gradient reaches var as if unclamped
    shift = (array_module_of(var._data).maximum(var._data, eps) - var._data).astype(var._data.dtype, copy=False)
    clamped = binary.add(var, Tensor._make(shift))
    losses = binary.mul(binary.add(unary.log(clamped), binary.div(unary.square(binary.sub(input, target)), clamped)),
                        0.5)
    if full:
        losses = binary.add(losses, 0.5 * math.log(2 * math.pi))
    return _reduced(losses, reduction)


@composed_op("MultiMarginLossBackward0", ('input',))
@_autocast.float32
def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0, weight: Tensor | None = None,
                      size_average: bool | None = None, reduce: bool | None = None,
                      reduction: str = "mean") -> Tensor:
    """``sum_{i != y} max(0, margin - x[y] + x[i])^p / C`` per sample (times ``weight[y]``)."""
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.requires_grad and grad_mode.is_grad_enabled():
        raise RuntimeError("The function 'multi_margin_loss' is not differentiable with respect to argument 'weight'. "
                           "This input cannot have requires_grad True.")
    samples = input.shape[0] if input.ndim == 2 else 1
    if target.ndim > 1 or target.numel() != samples:
        raise RuntimeError(f"multi_margin_loss: target tensor should be 1-D with size equal to the number of input "
                           f"samples (batch size). Expected target size [{samples}], but got {list(target.shape)}. "
                           f"Input has shape {list(input.shape)}.")
    dtypes.check_kernel("multi_margin_loss_cpu_kernel", input.dtype, "f", half=False)
    if input.dtype == dtypes.bfloat16:
        raise NotImplementedError("\"multi_margin_loss_cpu_kernel\" not implemented for 'BFloat16'")
    x = input if input.ndim == 2 else input.reshape(1, -1)
    index = target.reshape(-1, 1)
    chosen = indexing.gather(x, 1, index)
    raw = binary.add(binary.sub(x, chosen), margin)
    gaps = binary.clamp_min(raw, 0.0)
    if p == 2:
        gaps = unary.square(gaps)
    if weight is not None:
        gaps = binary.mul(gaps, indexing.gather(weight, 0, target.reshape(-1)).reshape(-1, 1))
    # PyTorch's kernel adds the terms of the other classes that are > 0: never a NaN one
    counted = Tensor._make((array_module_of(x._data).arange(x.shape[1])[None, :] != index._data) & (raw._data > 0))
    losses = binary.div(reductions.sum(binary.where(counted, gaps, 0.0), 1), x.shape[1])
    if input.ndim != 2:
        losses = losses.reshape(()) if input.ndim <= 1 else losses
    return _reduced(losses, reduction, size_average, reduce)


@_autocast.float32
def multilabel_margin_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
                           reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """``sum_{j, i} max(0, 1 - (x[y_j] - x[i])) / C`` per sample: ``y_j`` the target classes listed in
    ``target`` before its first -1, ``i`` every other class."""
    dtypes.check_same(dtypes.int64, target.dtype)
    if tuple(target.shape) != tuple(input.shape) or input.ndim > 2:
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: {list(input.shape)}")
    dtypes.check_kernel("multilabel_margin_loss_forward_out_frame", input.dtype, "f")
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    return _multilabel_margin_loss(input, target, reduction)


@composed_op("MultilabelMarginLossBackward0", ("input",))
def _multilabel_margin_loss(input: Tensor, target: Tensor, reduction: str) -> Tensor:
    x = input.reshape(-1, input.shape[-1] if input.ndim else 1)
    xp = array_module_of(x._data)
    labels = xp.asarray(target._data).reshape(x.shape)
    listed = xp.cumprod(labels >= 0, axis=1).astype(bool)  # the slots before the first -1
    rows = xp.arange(x.shape[0])[:, None]
    is_target = xp.zeros(x.shape, dtype=bool)
    is_target[xp.broadcast_to(rows, labels.shape)[listed], labels[listed]] = True
    chosen = indexing.gather(x, 1, Tensor._make(xp.where(listed, labels, 0)))  # x[y_j] per slot
    hinge = binary.clamp_min(binary.add(binary.sub(1.0, chosen.unsqueeze(2)), x.unsqueeze(1)), 0.0)
    counted = Tensor._make(listed[:, :, None] & ~is_target[:, None, :])
    losses = binary.div(reductions.sum(binary.where(counted, hinge, 0.0), (1, 2)), x.shape[1])
    return _reduced(losses.reshape(()) if input.ndim <= 1 else losses, reduction)
