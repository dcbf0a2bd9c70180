"""``torch.utils.data._utils.collate``: where PyTorch defines ``default_collate`` and ``default_convert``
(scripts import them from here); tinyframe's live in ``utils.data.collate``."""
from ..collate import default_collate, default_convert

__all__ = ["default_collate", "default_convert"]
