"""``torch.utils.hooks``: ``RemovableHandle``, what ``register_*_hook`` methods return."""
from ..autograd.hooks import RemovableHandle

__all__ = ["RemovableHandle"]
