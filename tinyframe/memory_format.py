"""PyTorch's memory formats (``torch.channels_last``, ...) and layouts (``torch.strided``), accepted where
PyTorch takes them.

Asking for a format changes no values and no results: ``x.to(memory_format=tinyframe.channels_last)``
returns ``x`` as it is. Layouts other than row-major come from views (a transpose) and from what is made
like them: the ``*_like`` factories and ``clone`` keep their input's memory order (``preserve_format``,
their default) unless given ``memory_format=contiguous_format``.
"""
from __future__ import annotations

__all__ = ["memory_format", "contiguous_format", "channels_last", "channels_last_3d", "preserve_format", "layout",
           "strided", "sparse_coo"]


class memory_format:
    """A memory layout name, printed as PyTorch prints it (``torch.channels_last``)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"


contiguous_format = memory_format("contiguous_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")
preserve_format = memory_format("preserve_format")


class layout(memory_format):
    """A tensor layout name (``torch.strided``, every tinyframe tensor's; ``torch.sparse_coo``)."""

    __slots__ = ()


strided = layout("strided")
sparse_coo = layout("sparse_coo")
