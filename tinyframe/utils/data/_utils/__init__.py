"""``torch.utils.data._utils``: the private package public code imports the collate functions from."""
from . import collate

__all__ = ["collate"]
