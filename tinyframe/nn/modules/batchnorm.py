"""Batch normalisation: ``BatchNorm1d``, ``BatchNorm2d``, ``BatchNorm3d`` and ``SyncBatchNorm``."""
from __future__ import annotations

from typing import Any

from ... import creation, grad_mode
from ..._lazy import lazy_module
from ...ops.shape import cat
from ...tensor import Tensor
from .. import functional as F
from .module import Module
from .normalization import NormBase

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm"]

# (loaded on a SyncBatchNorm's first forward, not with nn: few programs run several processes)
_distributed = lazy_module("tinyframe.distributed")


class _BatchNorm(NormBase):
    """``y = (x - E[x]) / sqrt(Var[x] + eps) * weight + bias`` per channel (dim 1).

    In training mode the statistics are those of the batch (over every dim but 1, biased
    variance), and with ``track_running_stats`` the buffers follow them:
    ``running = (1 - momentum) * running + momentum * batch_stat`` (the *unbiased* variance for
    ``running_var``); ``momentum=None`` makes that a cumulative average over ``num_batches_tracked``
    batches. In eval mode the running statistics normalise (the batch's when they are not tracked).
    ``weight`` starts at ones and ``bias`` at zeros.
    """

    _expected_dims: tuple = ()

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device: Any = None, dtype: Any = None, *,
                 bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype, bias)

    def _check_input_dim(self, input: Tensor) -> None:
        if input.ndim not in self._expected_dims:
            expected = " or ".join(f"{d}D" for d in self._expected_dims)
            raise ValueError(f"expected {expected} input (got {input.ndim}D input)")

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:  # a cumulative moving average
                factor = 1.0 / float(self.num_batches_tracked)
        # Batch statistics in training, and in eval when no running statistics are kept.
        use_batch_stats = self.training or (self.running_mean is None and self.running_var is None)
        tracked = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if tracked else None, self.running_var if tracked else None,
                            self.weight, self.bias, use_batch_stats, factor, self.eps)



class BatchNorm1d(_BatchNorm):
    """Batch normalisation of ``(N, C)`` or ``(N, C, L)``, per channel ``C``."""

    _expected_dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of ``(N, C, H, W)``, per channel ``C``."""

    _expected_dims = (4,)


class BatchNorm3d(_BatchNorm):
    """Batch normalisation of ``(N, C, D, H, W)``, per channel ``C``."""

    _expected_dims = (5,)


class SyncBatchNorm(_BatchNorm):
    """Batch normalisation of ``(N, C, *)`` whose training statistics are those of the global batch, the
    union of every rank's batch (``tinyframe.distributed``): per channel,
    ``mean = sum_r sum(x_r) / n`` and ``var = sum_r sum((x_r - mean)^2) / n`` with ``n`` the number of
    values over all ranks, both all-reduced, and their gradients all-reduced in backward. In eval mode,
    or without a process group of more than one rank, it is a ``BatchNorm``.
    """

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, process_group: Any = None, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype)
        self.process_group = process_group

    def _check_input_dim(self, input: Tensor) -> None:
        if input.ndim < 2:
            raise ValueError(f"expected at least 2D input (got {input.ndim}D input)")

    def forward(self, input: Tensor) -> Tensor:
        if not (self.training and _distributed.is_initialized()
                and _distributed.get_world_size(self.process_group) > 1):
            return super().forward(input)
        from ...distributed.nn.functional import all_reduce
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:
                factor = 1.0 / float(self.num_batches_tracked)
        dims = (0, *range(2, input.ndim))
        shape = (1, -1) + (1,) * (input.ndim - 2)
        local_count = creation.full((1,), input.numel() // input.shape[1], dtype=input.dtype, device=input.device)
        sums = all_reduce(cat([input.sum(dims), local_count]))  # one collective for the sums and the count
        count = float(sums[-1].item())
        mean = sums[:-1] / count
        centered = input - mean.reshape(shape)
        var = all_reduce((centered * centered).sum(dims)) / count
        if self.track_running_stats:
            self._update_running_stats(mean, var, count, factor)
        out = centered / (var.reshape(shape) + self.eps).sqrt()
        if self.weight is not None:
            out = out * self.weight.reshape(shape)
        if self.bias is not None:
            out = out + self.bias.reshape(shape)
        return out

    def _update_running_stats(self, mean: Tensor, var: Tensor, count: float, factor: float) -> None:
        """``running = (1 - momentum) * running + momentum * stat``, with the unbiased variance."""
        with grad_mode.no_grad():
            self.running_mean.mul_(1 - factor).add_(mean.detach() * factor)
            self.running_var.mul_(1 - factor).add_(var.detach() * (factor * count / max(count - 1, 1)))

    @classmethod
    def convert_sync_batchnorm(cls, module: Module, process_group: Any = None) -> Module:
        """``module`` with every ``BatchNorm*d`` in it replaced by a ``SyncBatchNorm`` sharing its
        parameters and buffers (a ``BatchNorm*d`` passed alone is returned converted)."""
        converted = module
        if isinstance(module, _BatchNorm) and not isinstance(module, SyncBatchNorm):
            converted = cls(module.num_features, module.eps, module.momentum, module.affine,
                            module.track_running_stats, process_group)
            if module.affine:
                converted.weight, converted.bias = module.weight, module.bias
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                converted.register_buffer(name, getattr(module, name))
            converted.train(module.training)
        for name, child in list(module.named_children()):
            converted.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return converted
