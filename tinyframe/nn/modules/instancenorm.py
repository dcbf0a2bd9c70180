"""Instance normalisation: ``InstanceNorm1d``, ``InstanceNorm2d`` and ``InstanceNorm3d``."""
from __future__ import annotations

import warnings
from typing import Any

from ...tensor import Tensor
from .. import functional as F
from .normalization import NormBase

__all__ = ["InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"]


class _InstanceNorm(NormBase):
    """``y = (x - E[x]) / sqrt(Var[x] + eps) * weight + bias`` per sample and channel, over the
    spatial dimensions. ``affine`` learns ``weight`` (ones) and ``bias`` (zeros);
    ``track_running_stats`` keeps running averages (of the batch-averaged statistics) for eval mode.
    An unbatched input ``(C, *)`` is normalised as a batch of one.
    """

    _spatial = 1

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = False,
                 track_running_stats: bool = False, device: Any = None, dtype: Any = None, *,
                 bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype, bias)

    def forward(self, input: Tensor) -> Tensor:
        batched_dims, n = self._spatial + 2, self._spatial
        if input.ndim not in (batched_dims - 1, batched_dims):
            raise ValueError(f"expected {n + 1}D or {n + 2}D input (got {input.ndim}D input)")
        channels = input.shape[-n - 1]
        if channels != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={input.ndim - n - 1} to match num_features "
                                 f"({self.num_features}), but got: {channels}.")
            warnings.warn(f"input's size at dim={input.ndim - n - 1} does not match num_features. You can "
                          "silence this warning by not passing in num_features, which is not used because "
                          "affine=False", stacklevel=2)
        unbatched = input.ndim == batched_dims - 1
        x = input.unsqueeze(0) if unbatched else input
        out = F.instance_norm(x, self.running_mean, self.running_var, self.weight, self.bias,
                              self.training or not self.track_running_stats,
                              self.momentum if self.momentum is not None else 0.0, self.eps)
        return out.squeeze(0) if unbatched else out



class InstanceNorm1d(_InstanceNorm):
    """Instance normalisation of ``(N, C, L)`` or ``(C, L)``."""

    _spatial = 1


class InstanceNorm2d(_InstanceNorm):
    """Instance normalisation of ``(N, C, H, W)`` or ``(C, H, W)``."""

    _spatial = 2


class InstanceNorm3d(_InstanceNorm):
    """Instance normalisation of ``(N, C, D, H, W)`` or ``(C, D, H, W)``."""

    _spatial = 3
