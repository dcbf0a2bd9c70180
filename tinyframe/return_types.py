"""The named tuples that ops with several results return, like ``torch.return_types``.

``values, indices = tinyframe.sort(x)`` unpacks one; ``tinyframe.sort(x).values`` reads a field.
"""
from __future__ import annotations

from collections import namedtuple

__all__ = ["max", "min",
           "sort", "topk", "kthvalue", "median", "nanmedian", "mode", "cummax", "cummin", "aminmax", "slogdet", "qr",
           "svd", "linalg_slogdet", "linalg_qr", "linalg_svd", "linalg_eigh", "linalg_lstsq",
           "linalg_inv_ex", "linalg_cholesky_ex", "linalg_solve_ex"]


def _structseq(name: str, fields: list[str]) -> type:
    """A named tuple printed as PyTorch prints its return types, one field a line."""
    base = namedtuple(name, fields)  # type: ignore[misc]  # one class a PyTorch return type, named at run time

    def __repr__(self: tuple) -> str:
        body = ",\n".join(f"{field}={value!r}" for field, value in zip(fields, self))
        return f"tinyframe.return_types.{name}(\n{body})"

    cls = type(name, (base,), {"__slots__": (), "__repr__": __repr__, "__module__": "tinyframe.return_types"})
    return cls


max = _structseq("max", ["values", "indices"])
min = _structseq("min", ["values", "indices"])
sort = _structseq("sort", ["values", "indices"])
topk = _structseq("topk", ["values", "indices"])
kthvalue = _structseq("kthvalue", ["values", "indices"])
median = _structseq("median", ["values", "indices"])
nanmedian = _structseq("nanmedian", ["values", "indices"])
mode = _structseq("mode", ["values", "indices"])
cummax = _structseq("cummax", ["values", "indices"])
cummin = _structseq("cummin", ["values", "indices"])
aminmax = _structseq("aminmax", ["min", "max"])
slogdet = _structseq("slogdet", ["sign", "logabsdet"])
qr = _structseq("qr", ["Q", "R"])
svd = _structseq("svd", ["U", "S", "V"])
linalg_slogdet = _structseq("linalg_slogdet", ["sign", "logabsdet"])
linalg_qr = _structseq("linalg_qr", ["Q", "R"])
linalg_svd = _structseq("linalg_svd", ["U", "S", "Vh"])
linalg_eigh = _structseq("linalg_eigh", ["eigenvalues", "eigenvectors"])
linalg_inv_ex = _structseq("linalg_inv_ex", ["inverse", "info"])
linalg_cholesky_ex = _structseq("linalg_cholesky_ex", ["L", "info"])
linalg_solve_ex = _structseq("linalg_solve_ex", ["result", "info"])
linalg_lstsq = _structseq("linalg_lstsq", ["solution", "residuals", "rank", "singular_values"])
