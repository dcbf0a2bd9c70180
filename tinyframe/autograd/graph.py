"""The graph's node types, as ``torch.autograd.graph`` names them."""
from .._graph import AccumulateGrad, Node

__all__ = ["Node", "AccumulateGrad"]
