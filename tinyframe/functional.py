"""The op functions exported at the top level (``tinyframe.exp``, ``tinyframe.cat``, ...).

Each op family's module lists its public functions in ``__all__``; this module gathers them.
"""
from .ops import (
    binary,
    construction,
    contraction,
    convolution,
    decompositions,
    indexing,
    linalg,
    reduction,
    sampling,
    scattering,
    shape,
    sorting,
    unary,
)
from .ops.binary import *  # noqa: F401,F403
from .ops.construction import *  # noqa: F401,F403
from .ops.contraction import *  # noqa: F401,F403
from .ops.convolution import *  # noqa: F401,F403
from .ops.decompositions import *  # noqa: F401,F403
from .ops.indexing import *  # noqa: F401,F403
from .ops.linalg import *  # noqa: F401,F403
from .ops.pooling import adaptive_avg_pool1d, avg_pool1d, max_pool1d, max_pool2d  # noqa: F401
from .ops.reduction import *  # noqa: F401,F403
from .ops.sampling import *  # noqa: F401,F403
from .ops.scattering import *  # noqa: F401,F403
from .ops.shape import *  # noqa: F401,F403
from .ops.sorting import *  # noqa: F401,F403
from .ops.unary import *  # noqa: F401,F403

__all__ = [*binary.__all__, *unary.__all__, *reduction.__all__, *linalg.__all__, *shape.__all__,
           *indexing.__all__, *convolution.__all__, "max_pool1d", "max_pool2d", "avg_pool1d", "adaptive_avg_pool1d",
           *sorting.__all__, *construction.__all__, *scattering.__all__, *contraction.__all__,
           *decompositions.__all__, *sampling.__all__]
