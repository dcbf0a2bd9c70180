"""Loss functions: the ones PyTorch computes with a dedicated kernel are ops here, the rest are composed.

``reduction`` is ``'mean'`` (the default), ``'sum'`` or ``'none'`` (the per-element losses). Ops that
reduce divide the incoming gradient by the element count in backward (``_spread``).

``cross_entropy`` with class indices is PyTorch's composition: ``log_softmax`` then ``nll_loss`` (whose
node, like PyTorch's, is ``NllLossBackward0``, or ``NllLoss2DBackward0`` for inputs of more than two
dimensions); the default case (a mean, no weight, no ignored target) has a short path through both.
"""
from __future__ import annotations

import contextlib
import math
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _autocast, _graph, dtypes
from .._graph import Op
from ..device import array_module_of, device_of
from . import binary, indexing, shape, unary
from . import reduction as reductions  # 'reduction' is the losses' argument name
from .promotion import promote

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__: list[str] = []  # reached through tinyframe.nn.functional, not the top level

_REDUCTIONS = ("none", "mean", "sum")
_INT64 = np.dtype(np.int64)
_UINT8 = np.dtype(np.uint8)
_BCE_EPSILON = 9.999999960041972e-13  # PyTorch's 1e-12 in float32, as its binary_cross_entropy backward uses


# --------------------------------------------------------------------------- shared helpers
def legacy_reduction(size_average: bool | None, reduce: bool | None) -> str:
    """The ``reduction`` that PyTorch's deprecated ``size_average`` and ``reduce`` flags stand for."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    result = ("mean" if size_average else "sum") if reduce else "none"
    warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{result}' instead.",
                  UserWarning, stacklevel=3)
    return result


def _check_reduction(reduction: str) -> None:
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _reduce(xp: Any, losses: Any, reduction: str) -> Any:
    """The per-element ``losses`` summed, averaged (NaN for no elements) or returned as they are."""
    if reduction == "sum":
        return losses.sum()
    if reduction == "mean":
        if losses.size == 0:
            return xp.full((), math.nan, dtype=losses.dtype)
        return losses.sum() / losses.size
    return losses


def _spread(ctx: Op, g: Any) -> Any:
    """The gradient reaching each element's loss: ``g / n`` for ``'mean'``, else ``g`` itself."""
    return g / ctx.count if ctx.reduction == "mean" else g


def _quiet(xp: Any) -> Any:
    """Silences NumPy's warnings for log(0) and 0/0, whose results (-inf, NaN) are intended."""
    return np.errstate(divide="ignore", invalid="ignore") if xp is np else contextlib.nullcontext()


def _type_name(array: Any) -> str:
    return dtypes.scalar_type_name(array.dtype)


def _data_on_device_of(value: Tensor | None, reference: Tensor, name: str) -> Any:
    """The array of ``value`` (None stays None), which must be on ``reference``'s device."""
    if value is None:
        return None
    if not isinstance(value, _graph.Tensor):
        raise TypeError(f"{name} must be a Tensor, not {type(value).__name__}")
    data = value._data
    if type(data) is not type(reference._data) or (type(data) is not np.ndarray and value.device != reference.device):
        raise RuntimeError(f"Expected all tensors to be on the same device, but found at least two devices, "
                           f"{reference.device} and {value.device}! Move {name} with .to(device) first.")
    return data


def _require_floating(input: Tensor, kernel: str) -> None:
    dtypes.check_kernel(f"{kernel}_{device_of(input._data).type}", input.dtype, "f")


def _warn_if_broadcast(input: Tensor, target: Tensor) -> None:
    if input.shape != target.shape:
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
                      "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
                      "same size.", UserWarning, stacklevel=3)


def _log_sigmoid(xp: Any, x: Any) -> Any:
    """``log(sigmoid(x)) = min(x, 0) - log(1 + exp(-|x|))`` on arrays, without overflow."""
    return xp.minimum(x, 0.0) - xp.log1p(xp.exp(-xp.abs(x)))


def _flag_targets(target: Any, c: int, ignore_index: int) -> tuple:
    """Which targets are ``ignore_index`` and which are out of range, as device arrays: PyTorch's CUDA
    kernels flag a bad target on the device rather than make every step wait to check; here its loss
    is NaN."""
    ignored = target == ignore_index
    out_of_range = target.view(np.uint64) >= c  # negatives wrap to huge values: one test for both ends
    return ignored, out_of_range & ~ignored


# --------------------------------------------------------------------------- negative log likelihood
class NllLoss(Op):
    """``loss = -w[t] * x[n, t, d...]`` for log-probabilities ``x`` ``(N, C, d...)`` (or ``(C,)``) and class
    indices ``t`` ``(N, d...)``; ignored targets weigh 0 and 'mean' divides by the sum of the weights.

    The loss is linear in ``x``: the gradient is ``g`` times constant coefficients written at the target
    positions, by the adjoint op ``_NllLossGrad`` (so higher orders follow).
    """

    @staticmethod
    def forward(ctx: NllLoss, x: Any, *, target: Any, ignored: Any, weight: Any, reduction: str,
                invalid: Any = None) -> Any:
        xp = ctx.xp
        index = _class_index(xp, target, x.ndim)
        picked = x[index]
        if invalid is not None:  # out-of-range targets (flagged on a GPU): NaN losses
            picked = xp.where(invalid, math.nan, picked)
        ctx.index, ctx.shape = index, x.shape
        if reduction == "mean" and weight is None and ignored is None and picked.size:
            # Fast path, the default loss: the mean of nonzero count needs no np.errstate (entering one:
            # 3.9 us in timeit on the loaded shared machine, against 11 us for nll_loss), and negating the
            # sum rather than each element gives the same bits in one NumPy call less.
            ctx.coefficient = -1.0 / picked.size
            return -picked.sum() / picked.size
        w = weight[target] if weight is not None else None
        if ignored is not None:
            w = xp.where(ignored, 0, w) if w is not None else (~ignored).astype(x.dtype)
        losses = -picked if w is None else -(picked * w)
        if ignored is not None:  # skipped, as in PyTorch: a NaN or inf input there is not summed in
            losses = xp.where(ignored, 0, losses)
        coefficient = -1.0 if w is None else -w
        if reduction == "mean":
            total = losses.size if w is None else w.sum()
            with _quiet(xp):
                out = losses.sum() / total
                coefficient = coefficient / total if w is not None or total else math.nan
            if ignored is not None:  # ignored targets get no gradient, even when 0 / 0 is the loss
                coefficient = xp.where(ignored, 0.0, coefficient)
        elif reduction == "sum":
            out = losses.sum()
        else:
            out = losses
        if isinstance(coefficient, float):
            ctx.coefficient = coefficient
        else:
            ctx.save_for_backward(xp.asarray(coefficient))
            ctx.coefficient = None
        return out

    @staticmethod
    def backward(ctx: NllLoss, g: Any) -> Any:
        coefficient = ctx.coefficient
        if coefficient is None:
            (coefficient,) = ctx.saved_tensors
        return _NllLossGrad.call(g, coefficient=coefficient, index=ctx.index, shape=ctx.shape)


class _NllLossGrad(Op, node_name="NllLossBackwardBackward0"):
    """The backward of ``nll_loss``, linear in ``g``: ``g`` times the coefficients, written at the
    target positions of zeros of the input's shape."""

    @staticmethod
    def forward(ctx: _NllLossGrad, g: Any, *, coefficient: Any, index: tuple, shape: tuple) -> Any:
        ctx.coefficient, ctx.index = coefficient, index
        selected = g * coefficient
        grad = ctx.xp.zeros(shape, dtype=selected.dtype)
        grad[index] = selected  # each target position appears once: an assignment, not an add
        return grad

    @staticmethod
    def backward(ctx: _NllLossGrad, gg: Any) -> Any:
        # <forward(g), gg> = sum(g * coefficient * gg[index]): the engine sums it to g's shape.
        return gg[ctx.index] * ctx.xp.asarray(ctx.coefficient)


class NllLoss2d(NllLoss, node_name="NllLoss2DBackward0"):
    """``nll_loss`` of inputs with more than two dimensions (PyTorch's ``nll_loss2d``)."""


def _class_index(xp: Any, target: Any, ndim: int) -> tuple:
    """The advanced index reading ``x[n, target[n, d...], d...]`` at every target position."""
    if ndim == 1:
        return (target,)
    k = target.ndim
    if k == 1:  # (N, C) inputs: the common case, without building the broadcast shapes
        return (xp.arange(target.shape[0]), target)
    parts = [xp.arange(size).reshape((1,) * axis + (size,) + (1,) * (k - axis - 1))
             for axis, size in enumerate(target.shape)]
    return (parts[0], target, *parts[1:])


def _nll_loss_nd(input: Tensor, target: Tensor, weight: Tensor | None, reduction: str, ignore_index: int) -> Tensor:
    """PyTorch's ``nll_loss_nd``: checks the shapes, then NllLoss for 1-D / 2-D inputs and NllLoss2d
    for more dimensions (3-D and 5-D and up reshaped to 4-D, as PyTorch does)."""
    if not isinstance(target, _graph.Tensor):
        raise TypeError(f"nll_loss(): argument 'target' must be Tensor, not {type(target).__name__}")
    ndim = input.ndim
    if ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {ndim})")
    x, t = input._data, _data_on_device_of(target, input, "target")
    if ndim != 1 and x.shape[0] != (t.shape[0] if t.ndim else 0):
        raise ValueError(f"Expected input batch_size ({x.shape[0]}) to match target batch_size "
                         f"({t.shape[0] if t.ndim else 0}).")
    w = _data_on_device_of(weight, input, "weight")
    c = x.shape[0] if ndim == 1 else x.shape[1]
    view_as = None
    if ndim <= 2:
        if t.ndim > 1:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        if ndim == 1 and t.ndim != 0:
            raise RuntimeError(f"size mismatch (got input: {list(x.shape)}, target: {list(t.shape)})")
        if w is not None and (w.ndim != 1 or w.size != c):
            raise RuntimeError(f"weight tensor should be defined either for all {c} classes or no classes but got "
                               f"weight tensor of shape: {list(w.shape)}")
        op = NllLoss
    else:
        if ndim == 4:
            if t.ndim != 3:
                raise RuntimeError("only batches of spatial targets supported (3D tensors) but got targets of "
                                   f"dimension: {t.ndim}")
            if x.shape[0] != t.shape[0] or x.shape[2:] != t.shape[1:]:
                raise RuntimeError(f"size mismatch (got input: {list(x.shape)} , target: {list(t.shape)}")
        elif t.shape[1:] != x.shape[2:]:
            raise RuntimeError(f"Expected target size {[x.shape[0], *x.shape[2:]]}, got {list(t.shape)}")
        else:  # PyTorch computes 3-D and 5-D-and-up cases as 4-D (N, C, 1, rest)
            view_as = (x.shape[0], *x.shape[2:])
            input = shape.reshape(input, (x.shape[0], c, 1, math.prod(x.shape[2:])))
            t = t.reshape((x.shape[0], 1, math.prod(x.shape[2:])))
        if w is not None and w.size != c:
            raise RuntimeError("weight tensor should be defined either for all or no classes")
        op = NllLoss2d
    if t.dtype != _INT64 and t.dtype != _UINT8:
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {_type_name(t)}")
    if w is not None:
        dtypes.check_same(x.dtype, w.dtype)
    dtypes.check_kernel("nll_loss2d_forward_out_frame" if op is NllLoss2d else "nll_loss_out_frame", x.dtype, "f")
    t = t.astype(_INT64, copy=False)
    ignored = invalid = None
    if not isinstance(t, np.ndarray):  # on a GPU, checking the targets here would make every step wait
        ignored, invalid = _flag_targets(t, c, ignore_index)
        t = array_module_of(t).where(ignored | invalid, 0, t)
    # The common case in one pass: every target a class (negatives wrap to huge values as uint64), so
    # none can equal an ignore_index outside [0, C).
    elif 0 <= ignore_index < c or not t.size or np.maximum.reduce(t.view(np.uint64), axis=None) >= c:
        ignored = t == ignore_index
        if ignored.any():
            t = array_module_of(t).where(ignored, 0, t)
        else:
            ignored = None
        out_of_range = (t < 0) | (t >= c)
        if out_of_range.any():
            raise IndexError(f"Target {int(t[out_of_range].reshape(-1)[0])} is out of bounds.")
    out = op.apply(input, target=t, ignored=ignored, invalid=invalid, weight=w, reduction=reduction)
    return out if view_as is None or reduction != "none" else shape.reshape(out, view_as)


@_autocast.float32
def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average: bool | None = None,
             ignore_index: int = -100, reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """The negative log likelihood loss of log-probabilities ``input`` ``(N, C)`` or ``(N, C, d1, ...)``
    (or ``(C,)``) at the class indices ``target`` ``(N,)`` or ``(N, d1, ...)`` (int64 or uint8).

    ``loss_n = -weight[t_n] * input[n, t_n]``; targets equal to ``ignore_index`` weigh 0. ``'mean'``
    divides the sum by the sum of the weights of the non-ignored targets (NaN when all are ignored).
    """
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    return _nll_loss_nd(input, target, weight, reduction, ignore_index)


@_autocast.float32
def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average: bool | None = None,
                  ignore_index: int = -100, reduce: bool | None = None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    """The cross entropy between the logits ``input`` ``(N, C)``, ``(N, C, d1, ...)`` or ``(C,)`` and
    ``target``: class indices ``(N,)`` / ``(N, d1, ...)`` / ``()``, or class probabilities of ``input``'s shape.

    With class indices, ``loss_n = -weight[t_n] * log_softmax(input)[n, t_n]`` (``nll_loss`` of the
    log-softmax; ``ignore_index`` and the weighted 'mean' as there). ``label_smoothing = eps`` mixes in
    the uniform distribution: ``(1 - eps) * nll + eps / C * sum_c -weight[c] * log_softmax(input)[n, c]``.
    With probabilities ``p``, ``loss_n = -sum_c weight[c] * p[n, c] * log_softmax(input)[n, c]`` and
    'mean' divides by N.
    """
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if not isinstance(target, _graph.Tensor):
        raise TypeError(f"cross_entropy(): argument 'target' must be Tensor, not {type(target).__name__}")
    if label_smoothing > 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_dim = 0 if input._data.ndim == 1 else 1
    if input._data.shape == target._data.shape:
        if not target.is_floating_point():
            raise RuntimeError(f"Expected floating point type for target with class probabilities, got "
                               f"{_type_name(target._data)}")
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        return _cross_entropy_probabilities(input, target, weight, reduction, label_smoothing, class_dim)
    log_probabilities = reductions.log_softmax(input, class_dim)
    loss = _nll_loss_nd(log_probabilities, target, weight, reduction, ignore_index)
    if label_smoothing <= 0.0:
        return loss
    return _smoothed(log_probabilities, loss, target, weight, reduction, ignore_index, label_smoothing, class_dim)


def _weight_along(weight: Tensor, ndim: int, class_dim: int) -> Tensor:
    """``weight`` ``(C,)`` shaped to broadcast along ``class_dim`` of an ``ndim``-dimensional tensor."""
    return shape.reshape(weight, tuple(weight.shape[0] if d == class_dim else 1 for d in range(ndim)))


def _smoothed(log_probabilities: Tensor, nll: Tensor, target: Tensor, weight: Tensor | None, reduction: str,
              ignore_index: int, eps: float, class_dim: int) -> Tensor:
    """PyTorch's label smoothing: ``(1 - eps) * nll + eps / C * smooth`` with ``smooth`` the weighted
    sum of ``-log p`` over the classes, 0 at ignored targets, reduced like ``nll``."""
    n_classes = log_probabilities.shape[class_dim]
    weighted = log_probabilities
    if weight is not None:
        weighted = binary.mul(log_probabilities, _weight_along(weight, log_probabilities.ndim, class_dim))
    smooth = unary.neg(reductions.sum(weighted, class_dim))
    t = target._data
    ignored = array_module_of(t).asarray(t == ignore_index)
    smooth = indexing.masked_fill(smooth, _graph.wrap(ignored), 0.0)
    if reduction == "mean":
        if weight is not None:
            total: Any = _graph.wrap(array_module_of(t).asarray(weight._data[t[~ignored]].sum()))
        else:
            total = int((~ignored).sum())
        with _quiet(array_module_of(t)):
            smooth = reductions.sum(smooth) / total
    elif reduction == "sum":
        smooth = reductions.sum(smooth)
    return binary.MulNumber.apply(nll, other=1.0 - eps) + binary.MulNumber.apply(smooth, other=eps / n_classes)


def _cross_entropy_probabilities(input: Tensor, target: Tensor, weight: Tensor | None, reduction: str,
                                 eps: float, class_dim: int) -> Tensor:
    n_classes = input.shape[class_dim]
    if weight is not None and (weight.ndim != 1 or weight.numel() != n_classes):
        raise RuntimeError(f"cross_entropy: weight tensor should be defined either for all {n_classes} classes or "
                           f"no classes but got weight tensor of shape: {list(weight.shape)}")
    log_probabilities = reductions.log_softmax(input, class_dim)
    if eps > 0.0:
        target = target * (1.0 - eps) + eps / n_classes
    product = binary.mul(log_probabilities, target)
    if weight is not None:
        product = binary.mul(product, _weight_along(weight, input.ndim, class_dim))
    if reduction == "none":
        return unary.neg(reductions.sum(product, class_dim))
    total = unary.neg(reductions.sum(product))
    if reduction == "sum":
        return total
    if input.numel() == 0:
        return total * math.nan
    return binary.DivNumber.apply(total, input.numel() // n_classes)


# --------------------------------------------------------------------------- regression losses
class MseLoss(Op):
    """``(input - target) ** 2``, reduced; gradient ``2 (input - target) g``."""

    @staticmethod
    def forward(ctx: MseLoss, x: Any, t: Any, *, reduction: str) -> Any:
        ctx.save_for_backward(x, t)
        x, t = promote(x, t)
        d = x - t
        d *= d
        ctx.reduction, ctx.count = reduction, d.size
        return _reduce(ctx.xp, d, reduction)

    @staticmethod
    def backward(ctx: MseLoss, g: Any) -> tuple:
        x, t = ctx.saved_tensors
        grad = (x - t) * (_spread(ctx, g) * 2.0)
        needs_x, needs_t = ctx.needs_input_grad
        return grad if needs_x else None, -grad if needs_t else None


class SmoothL1Loss(Op):
    """``0.5 d ** 2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 beta`` (``d = input - target``);
    gradient ``clamp(d / beta, -1, 1) g``."""

    @staticmethod
    def forward(ctx: SmoothL1Loss, x: Any, t: Any, *, reduction: str, beta: float) -> Any:
        ctx.save_for_backward(x, t)
        x, t = promote(x, t)
        xp = ctx.xp
        d = x - t
        size = xp.abs(d)
        losses = xp.where(size < beta, d * d * (0.5 / beta), size - 0.5 * beta)
        ctx.reduction, ctx.count, ctx.beta = reduction, d.size, beta
        return _reduce(xp, losses, reduction)

    @staticmethod
    def backward(ctx: SmoothL1Loss, g: Any) -> tuple:
        x, t = ctx.saved_tensors
        grad = ctx.xp.clip((x - t) / ctx.beta, -1.0, 1.0) * _spread(ctx, g)
        needs_x, needs_t = ctx.needs_input_grad
        return grad if needs_x else None, -grad if needs_t else None


class HuberLoss(Op):
    """``0.5 d ** 2`` where ``|d| < delta``, else ``delta (|d| - 0.5 delta)`` (``d = input - target``);
    gradient ``clamp(d, -delta, delta) g``."""

    @staticmethod
    def forward(ctx: HuberLoss, x: Any, t: Any, *, reduction: str, delta: float) -> Any:
        ctx.save_for_backward(x, t)
        x, t = promote(x, t)
        xp = ctx.xp
        d = x - t
        size = xp.abs(d)
        losses = xp.where(size < delta, d * d * 0.5, (size - 0.5 * delta) * delta)
        ctx.reduction, ctx.count, ctx.delta = reduction, d.size, delta
        return _reduce(xp, losses, reduction)

    @staticmethod
    def backward(ctx: HuberLoss, g: Any) -> tuple:
        x, t = ctx.saved_tensors
        grad = ctx.xp.clip(x - t, -ctx.delta, ctx.delta) * _spread(ctx, g)
        needs_x, needs_t = ctx.needs_input_grad
        return grad if needs_x else None, -grad if needs_t else None


def _weighted(losses: Tensor, weight: Tensor, input: Tensor, reduction: str, mean_by_weight: bool) -> Tensor:
    """Per-element ``losses * weight``, reduced; 'mean' divides by the sum of the weights when
    ``mean_by_weight`` (mse and l1), by the element count otherwise (huber), as PyTorch does."""
    if weight.shape != input.shape:
        raise ValueError("Weights and input must have the same size.")
    losses = binary.mul(losses, weight)
    if reduction == "none":
        return losses
    if reduction == "sum":
        return reductions.sum(losses)
    return reductions.sum(losses) / reductions.sum(weight) if mean_by_weight else reductions.mean(losses)


def _regression_inputs(input: Tensor, target: Tensor, kernel: str | None) -> tuple:
    """Checks the operands of an elementwise loss and warns, as PyTorch does, when they broadcast."""
    if not isinstance(input, _graph.Tensor) or not isinstance(target, _graph.Tensor):
        raise TypeError(f"{kernel or 'l1'}_loss(): expected Tensor arguments, got {type(input).__name__} and "
                        f"{type(target).__name__}")
    _warn_if_broadcast(input, target)
    if kernel is not None:
        _require_floating(input, kernel)
    return input, target


@_autocast.float32
def mse_loss(input: Tensor, target: Tensor, size_average: bool | None = None, reduce: bool | None = None,
             reduction: str = "mean", weight: Tensor | None = None) -> Tensor:
    """The squared error ``(input - target) ** 2`` (operands broadcast, with a warning), reduced.

    With ``weight`` (input's shape) the errors are multiplied by it and 'mean' divides by its sum.
    """
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    _regression_inputs(input, target, "mse")
    if weight is not None:
        squared = unary.square(binary.sub(input, target))
        return _weighted(squared, weight, input, reduction, True)
    return MseLoss.apply(input, target, reduction=reduction)


@_autocast.float32
def l1_loss(input: Tensor, target: Tensor, size_average: bool | None = None, reduce: bool | None = None,
            reduction: str = "mean", weight: Tensor | None = None) -> Tensor:
    """The absolute error ``|input - target|`` (operands broadcast, with a warning), reduced.

    Composed as in PyTorch (``AbsBackward0``, then ``MeanBackward0`` / ``SumBackward0``). With
    ``weight`` (input's shape) the errors are multiplied by it and 'mean' divides by its sum.
    """
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    _regression_inputs(input, target, None)
    losses = unary.abs(binary.sub(input, target))
    if weight is not None:
        return _weighted(losses, weight, input, reduction, True)
    if reduction == "mean":
        return reductions.mean(losses)
    return reductions.sum(losses) if reduction == "sum" else losses


@_autocast.float32
def smooth_l1_loss(input: Tensor, target: Tensor, size_average: bool | None = None, reduce: bool | None = None,
                   reduction: str = "mean", beta: float = 1.0) -> Tensor:
    """``0.5 d ** 2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 * beta``, with ``d = input - target``;
    ``beta = 0`` is ``l1_loss``."""
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if beta == 0.0:
        return l1_loss(input, target, reduction=reduction)
    _regression_inputs(input, target, "smooth_l1")
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    return SmoothL1Loss.apply(input, target, reduction=reduction, beta=beta)


@_autocast.float32
def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0,
               weight: Tensor | None = None) -> Tensor:
    """``0.5 d ** 2`` where ``|d| < delta``, else ``delta * (|d| - 0.5 * delta)``, with ``d = input - target``.

    With ``weight`` (input's shape) the losses are multiplied by it ('mean' still divides by the count).
    """
    _check_reduction(reduction)
    _regression_inputs(input, target, "huber")
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    if weight is not None:
        losses = HuberLoss.apply(input, target, reduction="none", delta=delta)
        return _weighted(losses, weight, input, reduction, False)
    return HuberLoss.apply(input, target, reduction=reduction, delta=delta)


# --------------------------------------------------------------------------- binary cross entropy
class BinaryCrossEntropy(Op):
    """``-w (t log(x) + (1 - t) log(1 - x))`` with each log clamped at -100; PyTorch's gradients:
    ``w (x - t) / max(x (1 - x), 1e-12) g`` for ``x`` and ``-w logit(x) g`` for ``t``."""

    @staticmethod
    def forward(ctx: BinaryCrossEntropy, x: Any, t: Any, *, weight: Any, reduction: str) -> Any:
        xp = ctx.xp
        ctx.save_for_backward(x, t, weight)
        with _quiet(xp):
            log_x = xp.maximum(xp.log(x), -100.0)
            log_rest = xp.maximum(xp.log1p(-x), -100.0)
        losses = (t - 1.0) * log_rest - t * log_x
        if weight is not None:
            losses *= weight
        ctx.reduction, ctx.count = reduction, losses.size
        return _reduce(xp, losses, reduction)

    @staticmethod
    def backward(ctx: BinaryCrossEntropy, g: Any) -> tuple:
        x, t, weight = ctx.saved_tensors
        xp = ctx.xp
        g = _spread(ctx, g)
        if weight is not None:
            g = g * ctx.xp.asarray(weight)
        needs_x, needs_t = ctx.needs_input_grad
        gx = g * (x - t) / xp.maximum((1.0 - x) * x, _BCE_EPSILON) if needs_x else None
        gt = None
        if needs_t:
            with _quiet(xp):
                gt = g * (xp.log1p(-x) - xp.log(x))
        return gx, gt


class BinaryCrossEntropyWithLogits(Op):
    """``-w (p t log(sigmoid(x)) + (1 - t) log(1 - sigmoid(x)))`` from the logits ``x``, computed as
    ``(1 - t) x - (1 + (p - 1) t) log(sigmoid(x))`` without overflow (``p`` the positive weight)."""

    @staticmethod
    def forward(ctx: BinaryCrossEntropyWithLogits, x: Any, t: Any, *, weight: Any, pos_weight: Any,
                reduction: str) -> Any:
        xp = ctx.xp
        ctx.save_for_backward(x, t, weight, pos_weight)
        x, t = promote(x, t)
        log_sigmoid = _log_sigmoid(xp, x)
        if pos_weight is not None:
            log_sigmoid = log_sigmoid * ((pos_weight - 1.0) * t + 1.0)
        losses = (1.0 - t) * x - log_sigmoid
        if weight is not None:
            losses = losses * weight
        ctx.reduction, ctx.count = reduction, losses.size
        return _reduce(xp, losses, reduction)

    @staticmethod
    def backward(ctx: BinaryCrossEntropyWithLogits, g: Any) -> tuple:
        x, t, weight, pos_weight = ctx.saved_tensors
        g = _spread(ctx, g)
        if weight is not None:
            g = g * ctx.xp.asarray(weight)
        if pos_weight is not None:
            pos_weight = ctx.xp.asarray(pos_weight)
        needs_x, needs_t = ctx.needs_input_grad
        gx = gt = None
        if needs_x:
            if pos_weight is None:
                gx = (unary.Sigmoid.call(x) - t) * g
            else:
                weighted_t = t * pos_weight
                gx = ((weighted_t + 1.0 - t) * unary.Sigmoid.call(x) - weighted_t) * g
        if needs_t:
            if pos_weight is None:
                gt = -x * g
            else:
                gt = (unary.LogSigmoid.call(-x) - unary.LogSigmoid.call(x) * pos_weight) * g
        return gx, gt


def _loss_weight(weight: Tensor | None, input: Tensor, target: Tensor, name: str) -> Any:
    """The array of a weight that broadcasts to ``input``'s shape (PyTorch's in-place product requires it)."""
    w = _data_on_device_of(weight, input, name)
    if w is None:
        return None
    broadcast = shape.broadcast_shapes(target.shape, w.shape)
    if broadcast != input.shape:
        raise RuntimeError(f"output with shape {list(input.shape)} doesn't match the broadcast shape "
                           f"{list(shape.broadcast_shapes(input.shape, broadcast))}")
    return w


@_autocast.float32
def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                         size_average: bool | None = None, reduce: bool | None = None,
                         reduction: str = "mean") -> Tensor:
    """``-weight * (target * log(input) + (1 - target) * log(1 - input))`` for probabilities ``input``
    (each log clamped at -100, so the loss stays finite at 0 and 1), reduced. ``target`` has ``input``'s
    shape and dtype; ``weight`` broadcasts to it."""
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if input.shape != target.shape:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}) "
                         "is deprecated. Please ensure they have the same size.")
    x, t = input._data, _data_on_device_of(target, input, "target")
    if t.dtype != x.dtype:
        raise RuntimeError(f"Found dtype {_type_name(t)} but expected {_type_name(x)}")
    _require_floating(input, "binary_cross_entropy")
    w = _loss_weight(weight, input, target, "weight")
    if w is not None and w.dtype != x.dtype:
        w = w.astype(x.dtype)
    if not ((x >= 0) & (x <= 1)).all():
        raise RuntimeError("all elements of input should be between 0 and 1")
    if not ((t >= 0) & (t <= 1)).all():
        raise RuntimeError("all elements of target should be between 0 and 1")
    return BinaryCrossEntropy.apply(input, target, weight=w, reduction=reduction)


@_autocast.float32
def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                     size_average: bool | None = None, reduce: bool | None = None,
                                     reduction: str = "mean", pos_weight: Tensor | None = None) -> Tensor:
    """Binary cross entropy of ``sigmoid(input)``, computed stably from the logits:
    ``loss = weight * ((1 - target) * input - (1 + (pos_weight - 1) * target) * log(sigmoid(input)))``.

    ``pos_weight`` (broadcast along the last dimension, e.g. ``(C,)``) weighs the positive term.
    """
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if input.shape != target.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    _data_on_device_of(target, input, "target")
    if dtypes.kind(input._data.dtype) != "f" or dtypes.kind(target._data.dtype) != "f":
        integral = input if dtypes.kind(input._data.dtype) != "f" else target
        raise RuntimeError(f"result type Float can't be cast to the desired output type {_type_name(integral._data)}")
    w = _loss_weight(weight, input, target, "weight")
    p = _loss_weight(pos_weight, input, target, "pos_weight")
    return BinaryCrossEntropyWithLogits.apply(input, target, weight=w, pos_weight=p, reduction=reduction)


# --------------------------------------------------------------------------- Kullback-Leibler divergence
@_autocast.float32
def kl_div(input: Tensor, target: Tensor, size_average: bool | None = None, reduce: bool | None = None,
           reduction: str = "mean", log_target: bool = False) -> Tensor:
    """The pointwise KL divergence ``target * (log(target) - input)`` for log-probabilities ``input``
    (``exp(target) * (target - input)`` with ``log_target=True``), reduced.

    ``'batchmean'`` divides the sum by the batch size ``input.size(0)`` (the mathematical KL divergence);
    ``'mean'`` divides by the number of elements, and warns as PyTorch does.
    """
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    elif reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                      "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                      "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                      UserWarning, stacklevel=2)
    if reduction != "batchmean":
        _check_reduction(reduction)
    if dtypes.kind(input._data.dtype) != "f" or dtypes.kind(target._data.dtype) != "f":
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        losses = binary.mul(unary.exp(target), binary.sub(target, input))
    else:
        losses = binary.sub(_xlogx(target), binary.mul(target, input))
    if reduction == "mean":
        return reductions.mean(losses)
    if reduction == "none":
        return losses
    total = reductions.sum(losses)
    return total / input.shape[0] if reduction == "batchmean" and input.ndim != 0 else total


def _xlogx(target: Tensor) -> Tensor:
    """``target * log(target)``, 0 where ``target`` is 0 (PyTorch's ``xlogy(target, target)``)."""
    t = target._data
    xp = array_module_of(t)
    zero = xp.asarray(t == 0)
    if not target.requires_grad:
        with _quiet(xp):
            return _graph.wrap(xp.where(zero, 0, t * xp.log(t)))
    return binary.mul(target, unary.log(binary.where(_graph.wrap(zero), 1.0, target)))
