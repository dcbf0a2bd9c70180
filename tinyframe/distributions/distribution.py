"""The base class of the probability distributions (PyTorch's ``torch.distributions.Distribution``)."""
from __future__ import annotations

import warnings
from typing import Any, TypeVar

from .. import functional, grad_mode
from .._dims import Size
from ..tensor import Tensor
from . import constraints
from .utils import as_size, lazy_property

__all__ = ["Distribution"]

D = TypeVar("D", bound="Distribution")


class Distribution:
    """The abstract base class of probability distributions.

    Args:
        batch_shape (Size): the shape over which parameters are batched.
        event_shape (Size): the shape of a single sample (without batching).
        validate_args (bool, optional): whether to check the parameters against ``arg_constraints``
            (and the values given to ``log_prob`` against ``support``). Default: the class default,
            set by :meth:`set_default_validate_args` (on unless Python runs with ``-O``).
    """

    has_rsample = False
    has_enumerate_support = False
    _validate_args = __debug__

    @staticmethod
    def set_default_validate_args(value: bool) -> None:
        """Sets whether validation is on by default for every distribution."""
        if value not in [True, False]:
            raise ValueError
        Distribution._validate_args = value

    def __init__(self, batch_shape: Any = (), event_shape: Any = (),
                 validate_args: bool | None = None) -> None:
        self._batch_shape = as_size(batch_shape)
        self._event_shape = as_size(event_shape)
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            self._check_parameters()
        super().__init__()

    def _check_parameters(self) -> None:
        """Raises ValueError, as PyTorch, where a given parameter breaks its constraint."""
        try:
            arg_constraints = self.arg_constraints
        except NotImplementedError:
            arg_constraints = {}
            warnings.warn(f"{self.__class__} does not define `arg_constraints`. Please set `arg_constraints = {{}}` "
                          "or initialize the distribution with `validate_args=False` to turn off validation.",
                          stacklevel=3)
        for param, constraint in arg_constraints.items():
            if constraints.is_dependent(constraint):
                continue  # cannot be checked
            if param not in self.__dict__ and isinstance(getattr(type(self), param), lazy_property):
                continue  # not given: computed from a parameter that was
            value = getattr(self, param)
            if not bool(constraint.check(value).all()):
                raise ValueError(f"Expected parameter {param} ({type(value).__name__} of shape {tuple(value.shape)}) "
                                 f"of distribution {self!r} to satisfy the constraint {constraint!r}, but found "
                                 f"invalid values:\n{value}")

    def expand(self, batch_shape: Any, _instance: Any = None) -> Distribution:
        """A new distribution whose parameters are expanded (``Tensor.expand``, no copy) to ``batch_shape``;
        the arguments are not checked again."""
        raise NotImplementedError

    def _expand_parameters(self: D, cls: type[D], batch_shape: Any, _instance: D | None = None) -> D:
        """``expand`` for ``cls``: each parameter of ``arg_constraints`` set on this instance, expanded to
        ``batch_shape`` followed by its own event dimensions."""
        new = self._get_checked_instance(cls, _instance)
        batch_shape = as_size(batch_shape)
        for name, constraint in self.arg_constraints.items():
            if name in self.__dict__:
                value = self.__dict__[name]
                event_shape = tuple(value.shape[value.dim() - constraint.event_dim:])
                new.__dict__[name] = value.expand(batch_shape + event_shape)
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def batch_shape(self) -> Size:
        """The shape over which parameters are batched."""
        return self._batch_shape

    @property
    def event_shape(self) -> Size:
        """The shape of a single sample (without batching)."""
        return self._event_shape

    @property
    def arg_constraints(self) -> dict:
        """The constraint (``tinyframe.distributions.constraints``) each tensor argument must satisfy."""
        raise NotImplementedError

    @property
    def support(self) -> Any:
        """The constraint giving the distribution's support."""
        raise NotImplementedError

    @property
    def mean(self) -> Tensor:
        """The mean of the distribution."""
        raise NotImplementedError

    @property
    def mode(self) -> Tensor:
        """The mode of the distribution."""
        raise NotImplementedError(f"{self.__class__} does not implement mode")

    @property
    def variance(self) -> Tensor:
        """The variance of the distribution."""
        raise NotImplementedError

    @property
    def stddev(self) -> Tensor:
        """The standard deviation of the distribution."""
        return self.variance.sqrt()

    def sample(self, sample_shape: Any = ()) -> Tensor:
        """A ``sample_shape`` shaped sample (of batches of samples where the parameters are batched),
        not differentiable."""
        with grad_mode.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        """A ``sample_shape`` shaped reparameterised sample: differentiable in the parameters."""
        raise NotImplementedError

    def sample_n(self, n: int) -> Tensor:
        """``n`` samples (deprecated in PyTorch: use ``sample((n,))``)."""
        warnings.warn("`sample_n(n)` will be deprecated. Use `sample((n,))` instead.", FutureWarning, stacklevel=2)
        return self.sample(Size((n,)))

    def log_prob(self, value: Tensor) -> Tensor:
        """The log of the probability density or mass function at ``value``."""
        raise NotImplementedError

    def cdf(self, value: Tensor) -> Tensor:
        """The cumulative distribution function at ``value``."""
        raise NotImplementedError

    def icdf(self, value: Tensor) -> Tensor:
        """The inverse cumulative distribution function at ``value``."""
        raise NotImplementedError

    def enumerate_support(self, expand: bool = True) -> Tensor:
        """All values of a discrete distribution's support, along dimension 0 (the rest of the shape
        ``batch_shape + event_shape``, or ones there with ``expand=False``)."""
        raise NotImplementedError

    def entropy(self) -> Tensor:
        """The entropy, batched over ``batch_shape``."""
        raise NotImplementedError

    def perplexity(self) -> Tensor:
        """``exp(entropy)``, batched over ``batch_shape``."""
        return functional.exp(self.entropy())

    def _extended_shape(self, sample_shape: Any = ()) -> Size:
        """The shape of a sample: ``sample_shape + batch_shape + event_shape``."""
        return Size(as_size(sample_shape) + self._batch_shape + self._event_shape)

    def _validate_sample(self, value: Tensor) -> None:
        """Raises ValueError, as PyTorch, where ``value`` cannot be scored: not a tensor, its rightmost
        dimensions not ``event_shape`` or not broadcastable with ``batch_shape``, or outside the support."""
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        event_dim_start = value.dim() - len(self._event_shape)
        if value.size()[event_dim_start:] != self._event_shape:
            raise ValueError(f"The right-most size of value must match event_shape: {value.size()} vs "
                             f"{self._event_shape}.")
        actual, expected = value.size(), self._batch_shape + self._event_shape
        for i, j in zip(reversed(actual), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(f"Value is not broadcastable with batch_shape+event_shape: {actual} vs "
                                 f"{Size(expected)}.")
        try:
            support = self.support
        except NotImplementedError:
            warnings.warn(f"{self.__class__} does not define `support` to enable sample validation. Please "
                          "initialize the distribution with `validate_args=False` to turn off validation.",
                          stacklevel=3)
            return
        if not bool(support.check(value).all()):
            raise ValueError(f"Expected value argument ({type(value).__name__} of shape {tuple(value.shape)}) to be "
                             f"within the support ({support!r}) of the distribution {self!r}, but found invalid "
                             f"values:\n{value}")

    def _get_checked_instance(self: D, cls: type[D], _instance: D | None = None) -> D:
        if _instance is None and type(self).__init__ != cls.__init__:
            raise NotImplementedError(f"Subclass {self.__class__.__name__} of {cls.__name__} that defines a custom "
                                      "__init__ method must also define a custom .expand() method.")
        return self.__new__(type(self)) if _instance is None else _instance

    def __repr__(self) -> str:
        values = [(p, self.__dict__[p]) for p in self.arg_constraints if p in self.__dict__]
        shown = [f"{p}: {v if v.numel() == 1 else v.size()}" for p, v in values]
        return f"{self.__class__.__name__}({', '.join(shown)})"
