"""``tinyframe.hub``: PyTorch's ``torch.hub`` where it can work offline.

``load(dir, model, source='local')`` runs an entry point of a local ``hubconf.py``;
``load_state_dict_from_url`` reads a checkpoint already in the cache directory (``get_dir()/checkpoints``).
Whatever needs the network (GitHub repositories, downloads) raises a RuntimeError that says so: tinyframe has
no downloader, and the machines it runs on are often offline.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from typing import Any
from urllib.parse import urlparse

from . import serialization

__all__ = ["load", "list", "help", "load_state_dict_from_url", "download_url_to_file", "get_dir", "set_dir"]

_hub_dir: str | None = None


def get_dir() -> str:
    """The hub's cache directory: the one given to ``set_dir``, else ``$TORCH_HOME/hub``, with ``$TORCH_HOME``
    ``$XDG_CACHE_HOME/torch`` by default and ``$XDG_CACHE_HOME`` ``~/.cache``."""
    if _hub_dir is not None:
        return _hub_dir
    cache = os.getenv("XDG_CACHE_HOME", os.path.join("~", ".cache"))
    return os.path.join(os.path.expanduser(os.getenv("TORCH_HOME", os.path.join(cache, "torch"))), "hub")


def set_dir(d: str | os.PathLike) -> None:
    """Sets the hub's cache directory (``get_dir``)."""
    global _hub_dir
    _hub_dir = os.path.expanduser(d)


def _offline(what: str) -> RuntimeError:
    return RuntimeError(f"tinyframe.hub.{what} is not supported: it needs the network (GitHub or a download), and "
                        "tinyframe has no downloader. Load a local hubconf.py with hub.load(path, model, "
                        "source='local'), or put the checkpoint in hub.get_dir()/checkpoints.")


def load(repo_or_dir: str, model: str, *args: Any, source: str = "github", trust_repo: Any = "check",
         force_reload: bool = False, verbose: bool = True, skip_validation: bool = False, **kwargs: Any) -> Any:
    """The result of the entry point ``model(*args, **kwargs)`` of the ``hubconf.py`` in the directory
    ``repo_or_dir`` (``source='local'``); GitHub repositories (``source='github'``) need the network."""
    if source not in ("github", "local"):
        raise ValueError(f'Unknown source: "{source}". Allowed values: "github" | "local".')
    if source == "github":
        raise _offline("load(source='github')")
    path = os.path.join(repo_or_dir, "hubconf.py")
    spec = importlib.util.spec_from_file_location("hubconf", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, repo_or_dir)  # hubconf.py imports its repository's modules
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(repo_or_dir)
    if not isinstance(model, str):
        raise ValueError("Invalid input: model should be a string of function name")
    entry = getattr(module, model, None)
    if entry is None or not callable(entry):
        raise RuntimeError(f"Cannot find callable {model} in hubconf")
    return entry(*args, **kwargs)


def list(github: str, force_reload: bool = False, skip_validation: bool = False, trust_repo: Any = "check",
         verbose: bool = True) -> Any:
    """The entry points of a GitHub repository's hubconf.py: needs the network (not supported)."""
    raise _offline("list")


def help(github: str, model: str, force_reload: bool = False, skip_validation: bool = False,
         trust_repo: Any = "check") -> Any:
    """The docstring of a GitHub repository's entry point: needs the network (not supported)."""
    raise _offline("help")


def download_url_to_file(url: str, dst: str, hash_prefix: str | None = None, progress: bool = True) -> None:
    """Downloads ``url`` to ``dst``: needs the network (not supported)."""
    raise _offline("download_url_to_file")


def load_state_dict_from_url(url: str, model_dir: str | None = None, map_location: Any = None, progress: bool = True,
                             check_hash: bool = False, file_name: str | None = None,
                             weights_only: bool = False) -> Any:
    """The object saved in the file that ``url`` names, read from ``model_dir`` (``get_dir()/checkpoints`` by
    default) as ``tinyframe.load`` reads it; a file not there yet would need a download (not supported)."""
    directory = model_dir if model_dir is not None else os.path.join(get_dir(), "checkpoints")
    cached = os.path.join(directory, file_name or os.path.basename(urlparse(url).path))
    if not os.path.exists(cached):
        raise _offline(f"load_state_dict_from_url ({cached} is not in the cache)")
    return serialization.load(cached, map_location=map_location, weights_only=weights_only)
