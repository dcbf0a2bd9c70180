"""Containers: ``Sequential``, ``ModuleList``, ``ModuleDict``, ``ParameterList``, ``ParameterDict``."""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator
from typing import Any

from ..parameter import Parameter
from .module import Module

__all__ = ["Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict"]


class _ModuleSequence(Module):
    """What ``Sequential`` and ``ModuleList`` share: modules kept under the keys "0", "1", ..., which
    are renumbered when one is inserted or deleted, as PyTorch's are."""

    def __setitem__(self, index: int, module: Module) -> None:
        self.register_module(list(self._modules)[_checked_index(index, len(self._modules))], module)

    def __delitem__(self, index: int | slice) -> None:
        keys = list(self._modules)
        for key in keys[index] if isinstance(index, slice) else [keys[index]]:
            del self._modules[key]
        self._renumber(list(self._modules.values()))

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def append(self, module: Module) -> Any:
        """Adds ``module`` at the end; returns ``self``."""
        self.register_module(str(len(self)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> Any:
        """Appends each of ``modules``; returns ``self``."""
        for module in modules:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> None:
        """Puts ``module`` before position ``index``."""
        modules = list(self._modules.values())
        modules.insert(index, module)
        self._renumber(modules)

    def pop(self, index: int | slice) -> Any:
        """Removes and returns the module (or the container of modules) at ``index``."""
        module = self[index]  # type: ignore[index]  # both subclasses index
        del self[index]
        return module

    def _renumber(self, modules: list) -> None:
        self._modules.clear()
        for i, module in enumerate(modules):
            self.register_module(str(i), module)


class Sequential(_ModuleSequence):
    """Runs its modules in order, each on the previous one's output.

    ``Sequential(m1, m2, ...)`` names them "0", "1", ...; ``Sequential(OrderedDict(...))`` by key.
    """

    def __init__(self, *modules: Any) -> None:
        super().__init__()
        if len(modules) == 1 and isinstance(modules[0], OrderedDict):
            for name, module in modules[0].items():
                self.register_module(name, module)
        else:
            for index, module in enumerate(modules):
                self.register_module(str(index), module)

    def forward(self, input: Any) -> Any:
        for module in self._modules.values():
            input = module(input)
        return input

    def insert(self, index: int, module: Module) -> Sequential:  # type: ignore[override]  # returns self
        """Puts ``module`` before position ``index`` (within ``-len(self)`` to ``len(self)``); returns ``self``."""
        if not -len(self) <= index <= len(self):
            raise IndexError(f"Index out of range: {index}")
        super().insert(index, module)
        return self

    def __add__(self, other: Sequential) -> Sequential:
        """A new Sequential of the modules of ``self``, then those of ``other``."""
        return Sequential().extend(list(self) + list(_sequential(other)))

    def __iadd__(self, other: Sequential) -> Sequential:
        return self.extend(_sequential(other))

    def __mul__(self, other: int) -> Sequential:
        """A new Sequential of the modules ``other`` times in a row (the same module objects)."""
        return Sequential().extend(list(self) * self._repeats(other))

    def __rmul__(self, other: int) -> Sequential:
        return self.__mul__(other)

    def __imul__(self, other: int) -> Sequential:
        return self.extend(list(self) * (self._repeats(other) - 1))

    def _repeats(self, other: Any) -> int:
        if not isinstance(other, int):
            raise TypeError(f"unsupported operand type(s) for *: {type(self)} and {type(other)}")
        if other <= 0:
            raise ValueError(f"Non-positive multiplication factor {other} for {type(self)}")
        return other

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return type(self)(OrderedDict(list(self._modules.items())[index]))
        return list(self._modules.values())[_checked_index(index, len(self._modules))]


def _sequential(other: Any) -> Sequential:
    if not isinstance(other, Sequential):
        raise ValueError(f"add operator supports only objects of Sequential class, but {type(other)} is given.")
    return other


class ModuleList(_ModuleSequence):
    """A list of modules, each registered (so its parameters are the list's parameters)."""

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        self.extend(modules or ())

    def __getitem__(self, index: int | slice) -> Any:
        modules = list(self._modules.values())
        return type(self)(modules[index]) if isinstance(index, slice) else modules[_checked_index(index, len(modules))]

    def __add__(self, other: Iterable[Module]) -> ModuleList:
        """A new ModuleList of the modules of ``self``, then those of ``other`` (any iterable)."""
        return ModuleList(list(self) + list(other))

    def __iadd__(self, other: Iterable[Module]) -> ModuleList:
        return self.extend(other)

    def __repr__(self) -> str:
        """As PyTorch prints a ModuleList: a run of children with equal reprs is one entry,
        ``(0-5): 6 x Linear(...)``."""
        runs: list[list] = []  # [first index, last index, repr]
        for index, module in enumerate(self):
            text = repr(module)
            if runs and runs[-1][2] == text:
                runs[-1][1] = index
            else:
                runs.append([index, index, text])
        if not runs:
            return f"{self._get_name()}()"
        lines = [f"({first}): {text}" if first == last else f"({first}-{last}): {last - first + 1} x {text}"
                 for first, last, text in runs]
        return f"{self._get_name()}(\n  " + "\n  ".join(line.replace("\n", "\n  ") for line in lines) + "\n)"


class ModuleDict(Module):
    """A dict of modules, each registered under its key, in insertion order."""

    def __init__(self, modules: dict | None = None) -> None:
        super().__init__()
        for name, module in (modules or {}).items():
            self.register_module(name, module)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.register_module(key, module)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __contains__(self, key: str) -> bool:
        return key in self._modules

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def keys(self) -> Iterable[str]:
        return self._modules.keys()

    def values(self) -> Iterable[Module]:
        return self._modules.values()

    def items(self) -> Iterable[tuple[str, Module]]:
        return self._modules.items()

    def clear(self) -> None:
        """Removes every module."""
        self._modules.clear()

    def pop(self, key: str) -> Module:
        """Removes the module under ``key`` and returns it."""
        module = self[key]
        del self[key]
        return module

    def update(self, modules: Any) -> None:
        """Adds (or replaces) modules from a mapping or an iterable of ``(key, module)`` pairs; a
        plain dict is taken in its own order, as in PyTorch."""
        if isinstance(modules, (dict, ModuleDict)):
            for key, module in modules.items():
                self[key] = module
            return
        if not isinstance(modules, Iterable):
            raise TypeError("ModuleDict.update should be called with an iterable of key/value pairs, but got "
                            f"{type(modules).__name__}")
        for index, pair in enumerate(modules):
            if not isinstance(pair, Iterable):
                raise TypeError(f"ModuleDict update sequence element #{index} should be Iterable; is"
                                f"{type(pair).__name__}")
            pair = list(pair)
            if len(pair) != 2:
                raise ValueError(f"ModuleDict update sequence element #{index} has length {len(pair)}; 2 is "
                                 "required")
            self[pair[0]] = pair[1]


class ParameterList(Module):
    """A list of parameters, each registered."""

    def __init__(self, values: Iterable[Parameter] | None = None) -> None:
        super().__init__()
        for value in values or ():
            self.append(value)

    def append(self, value: Parameter) -> ParameterList:
        self.register_parameter(str(len(self)), value if isinstance(value, Parameter) else Parameter(value))
        return self

    def extend(self, values: Iterable[Parameter]) -> ParameterList:
        for value in values:
            self.append(value)
        return self

    def __iadd__(self, values: Iterable[Parameter]) -> ParameterList:
        return self.extend(values)

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return ParameterList(list(self._parameters.values())[index])
        return list(self._parameters.values())[index]

    def __setitem__(self, index: int, value: Parameter) -> None:
        key = str(_checked_index(index, len(self)) % len(self))
        self.register_parameter(key, value if isinstance(value, Parameter) else Parameter(value))

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self) -> Iterator[Parameter]:
        return iter(self._parameters.values())

    def extra_repr(self) -> str:
        """One line per parameter, as PyTorch prints it (``(0): Parameter containing: [... of size 2x3]``)."""
        return "\n".join(f"  ({k}): {_describe_parameter(p, repr(p.dtype))}" for k, p in enumerate(self))


class ParameterDict(Module):
    """A dict of parameters, each registered under its key."""

    def __init__(self, values: dict | None = None) -> None:
        super().__init__()
        if values is not None:
            self.update(values)

    def update(self, values: Any) -> None:
        """Adds the entries of a mapping or of an iterable of ``(key, value)`` pairs."""
        # As PyTorch: an OrderedDict (or ParameterDict) keeps its order, another mapping is taken in key order.
        if isinstance(values, (OrderedDict, ParameterDict)):
            pairs: Iterable = values.items()
        elif hasattr(values, "items"):
            pairs = sorted(values.items())
        else:
            pairs = values
        for key, value in pairs:
            self[key] = value

    def pop(self, key: str) -> Parameter:
        return self._parameters.pop(key)

    def get(self, key: str, default: Any = None) -> Any:
        return self._parameters.get(key, default)

    def setdefault(self, key: str, default: Any = None) -> Any:
        if key not in self._parameters:
            self[key] = default
        return self._parameters[key]

    def clear(self) -> None:
        self._parameters.clear()

    def values(self) -> Iterable[Parameter]:
        return self._parameters.values()

    def __contains__(self, key: object) -> bool:
        return key in self._parameters

    def __delitem__(self, key: str) -> None:
        del self._parameters[key]

    def extra_repr(self) -> str:
        """One line per parameter, named by the legacy type (``[tinyframe.FloatTensor of size 2x3]``)."""
        return "\n".join(f"  ({k}): {_describe_parameter(p, p.type())}" for k, p in self.items())

    def __setitem__(self, key: str, value: Parameter) -> None:
        self.register_parameter(key, value if isinstance(value, Parameter) else Parameter(value))

    def __getitem__(self, key: str) -> Parameter:
        return self._parameters[key]

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self) -> Iterator[str]:
        return iter(self._parameters)

    def keys(self) -> Iterable[str]:
        return self._parameters.keys()

    def items(self) -> Iterable[tuple[str, Parameter]]:
        return self._parameters.items()


def _describe_parameter(p: Parameter, type_name: str) -> str:
    """How ParameterList and ParameterDict print an entry (PyTorch names the type differently in each)."""
    size = "x".join(str(n) for n in p.shape)
    device = f" ({p.device})" if p.device.type == "cuda" else ""
    return f"Parameter containing: [{type_name} of size {size}{device}]"


def _checked_index(index: int, length: int) -> int:
    """``index`` if it addresses one of ``length`` entries, else PyTorch's IndexError."""
    if not -length <= index < length:
        raise IndexError(f"index {index} is out of range")
    return index
