"""The graph's nodes and the ``Op`` base now live in ``tinyframe._graph``, the layer below the ops;
this module keeps the old import path working for code outside tinyframe."""
from .._graph import AccumulateGrad, Node, Op, accumulator_of, edge_of, edges_of, shape_error  # noqa: F401
