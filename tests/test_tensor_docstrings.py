"""Every public Tensor method and property has a docstring, shared with its function where there is one."""
from __future__ import annotations

import inspect

import tinyframe


def public_members() -> dict:
    members = {}
    for name in dir(tinyframe.Tensor):
        value = inspect.getattr_static(tinyframe.Tensor, name)
        if not name.startswith("_") and (isinstance(value, property) or callable(value)):
            members[name] = value
    return members


def test_every_public_tensor_method_has_a_docstring():
    missing = [name for name, value in public_members().items() if not (value.__doc__ or "").strip()]
    assert len(public_members()) > 150
    assert missing == []


def test_method_docstrings_are_the_functions_docstrings():
    assert inspect.cleandoc(tinyframe.exp.__doc__) in inspect.getdoc(tinyframe.Tensor.exp)
    assert inspect.cleandoc(tinyframe.sum.__doc__) in inspect.getdoc(tinyframe.Tensor.sum)
    assert "In-place ``Tensor.add``" in tinyframe.Tensor.add_.__doc__


def test_package_ships_py_typed():
    from pathlib import Path
    assert (Path(tinyframe.__file__).parent / "py.typed").is_file()
