"""The named tuples that ops with several results return, like ``torch.return_types``.

``values, indices = tinyframe.sort(x)`` unpacks one; ``tinyframe.sort(x).values`` reads a field.
"""
from __future__ import annotations

from collections import namedtuple


def _structseq(name: str, fields: list[str]) -> type:
    """A named tuple printed as PyTorch prints its return types, one field a line."""
    base = namedtuple(name, fields)  # type: ignore[misc]  # one class a PyTorch return type, named at run time

    def __repr__(self: tuple) -> str:
        body = ",\n".join(f"{field}={value!r}" for field, value in zip(fields, self))
        return f"tinyframe.return_types.{name}(\n{body})"

    cls = type(name, (base,), {"__slots__": (), "__repr__": __repr__, "__module__": "tinyframe.return_types"})
    return cls


# Each class is made on first use (module __getattr__): 22 classes at import were a tenth of
# ``import tinyframe``'s own time.
_FIELDS = {
    "max": ["values", "indices"],
    "min": ["values", "indices"],
    "sort": ["values", "indices"],
    "topk": ["values", "indices"],
    "kthvalue": ["values", "indices"],
    "median": ["values", "indices"],
    "nanmedian": ["values", "indices"],
    "mode": ["values", "indices"],
    "cummax": ["values", "indices"],
    "cummin": ["values", "indices"],
    "aminmax": ["min", "max"],
    "histogram": ["hist", "bin_edges"],
    "slogdet": ["sign", "logabsdet"],
    "qr": ["Q", "R"],
    "svd": ["U", "S", "V"],
    "linalg_slogdet": ["sign", "logabsdet"],
    "linalg_qr": ["Q", "R"],
    "linalg_svd": ["U", "S", "Vh"],
    "linalg_eigh": ["eigenvalues", "eigenvectors"],
    "linalg_eig": ["eigenvalues", "eigenvectors"],
    "linalg_inv_ex": ["inverse", "info"],
    "linalg_cholesky_ex": ["L", "info"],
    "linalg_solve_ex": ["result", "info"],
    "linalg_lstsq": ["solution", "residuals", "rank", "singular_values"],
    "linalg_lu_factor": ["LU", "pivots"],
    "linalg_lu_factor_ex": ["LU", "pivots", "info"],
    "linalg_lu": ["P", "L", "U"],
    "lu_unpack": ["P", "L", "U"],
    "_lu_with_info": ["LU", "pivots", "info"],
    "geqrf": ["a", "tau"],
    "frexp": ["mantissa", "exponent"],
    "histogramdd": ["hist", "bin_edges"],
    "triangular_solve": ["solution", "cloned_coefficient"],
    "linalg_ldl_factor": ["LD", "pivots"],
    "linalg_ldl_factor_ex": ["LD", "pivots", "info"],
}
__all__ = list(_FIELDS)


def __getattr__(name: str) -> type:
    if name not in _FIELDS:
        raise AttributeError(f"module 'tinyframe.return_types' has no attribute '{name}'")
    cls = globals()[name] = _structseq(name, _FIELDS[name])
    return cls


def __dir__() -> list:
    return sorted(set(globals()) | set(_FIELDS))
