"""Distributions of the exponential family (PyTorch's ``torch.distributions.ExponentialFamily``)."""
from __future__ import annotations

from typing import Any

from .. import autograd
from ..tensor import Tensor
from .distribution import Distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    """A distribution with density ``exp(<t(x), theta> - F(theta) + k(x))``: natural parameters
    ``theta``, log normaliser ``F`` and carrier measure ``k``. Its default entropy is the Bregman
    divergence of ``F``, by autograd."""

    @property
    def _natural_params(self) -> tuple:
        raise NotImplementedError

    def _log_normalizer(self, *natural_params: Any) -> Tensor:
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self) -> float:
        raise NotImplementedError

    def entropy(self) -> Tensor:
        params = [p.detach().requires_grad_() for p in self._natural_params]
        log_normalizer = self._log_normalizer(*params)
        gradients = autograd.grad(log_normalizer.sum(), params, create_graph=True)
        result = -self._mean_carrier_measure + log_normalizer
        for param, gradient in zip(params, gradients):
            result = result - (param * gradient).reshape(self._batch_shape + (-1,)).sum(-1)
        return result
