"""Probability distributions with PyTorch's ``torch.distributions`` API: parameters, ``sample`` /
``rsample``, ``log_prob``, ``entropy``, ``cdf`` / ``icdf``, argument validation and ``kl_divergence``,
built on tinyframe's differentiable ops (gradients flow through ``log_prob``, ``entropy`` and
``rsample``) and its random functions (``manual_seed`` governs sampling).

Sampling calls the same primitive PyTorch's sampler calls (``normal_`` for ``Normal.rsample``,
``multinomial`` for ``Categorical.sample``, ``bernoulli`` for ``Bernoulli.sample``, ...), so the
values follow tinyframe's random streams wherever those follow PyTorch's.
"""
from . import constraints, transforms
from .bernoulli import Bernoulli
from .beta import Beta
from .binomial import Binomial
from .categorical import Categorical
from .dirichlet import Dirichlet
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .exponential import Exponential
from .gamma import Gamma
from .independent import Independent
from .kl import kl_divergence, register_kl
from .laplace import Laplace
from .log_normal import LogNormal
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from .poisson import Poisson
from .transformed_distribution import TransformedDistribution
from .transforms import *  # noqa: F403  ExpTransform, AffineTransform, ... as torch.distributions exports them
from .transforms import __all__ as _transform_names
from .uniform import Uniform

__all__ = [
    "Bernoulli", "Beta", "Binomial", "Categorical", "Dirichlet", "Distribution", "ExponentialFamily", "Exponential",
    "Gamma", "Independent", "Laplace", "LogNormal", "MultivariateNormal", "Normal", "OneHotCategorical",
    "OneHotCategoricalStraightThrough", "Poisson", "TransformedDistribution", "Uniform", "kl_divergence",
    "register_kl", "constraints", "transforms", *_transform_names,
]
