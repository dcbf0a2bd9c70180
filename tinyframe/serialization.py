"""``save`` and ``load``: checkpoints of tensors in plain Python containers, described in JSON; only
other objects (a whole model) are pickled, and only ``weights_only=False`` or allowed globals unpickle them.

A checkpoint is a zip archive written by ``numpy.savez``: one ``.npy`` member per tensor storage
(copied to the host) and the member ``__tinyframe_header__``, a UTF-8 JSON document describing the
saved object. In the header a ``str``, ``int``, ``float``, ``bool`` or ``None`` is itself, and every
other value is an object with a ``"type"``:

- ``{"type": "list" | "tuple", "items": [...]}``
- ``{"type": "dict" | "OrderedDict", "items": [[key, value], ...]}`` (keys keep their types: ``1``
  and ``"1"`` differ)
- ``{"type": "tensor", "id": n, "storage": "a0", "dtype": "float32", "device": "cuda:0",
  "requires_grad": true}``: entries with the same ``id`` were one Tensor object and load as one;
  tensors that shared storage load sharing it, as with ``torch.save``.
- ``{"type": "Size", "items": [...]}``, ``{"type": "dtype", "name": ...}``, ``{"type": "device", "name": ...}``
- ``{"type": "numpy", "storage": "a1", "scalar": false}``: a NumPy array (or, with ``"scalar": true``, a
  NumPy scalar such as ``np.float64``), loaded only with ``weights_only=False`` as ``torch.load`` does.
- ``{"type": "object", "storage": "a2"}``: any other object (a whole ``nn.Module``, a config object), pickled
  as ``torch.save`` pickles it, into a uint8 member; the Tensors it holds are not in the pickle but in
  the archive, as tensor nodes (the pickle's persistent ids). As with ``torch.load``, only
  ``weights_only=False`` unpickles it, or ``weights_only=True`` when every global it names was allowed
  with ``add_safe_globals``.

A file is written to a temporary file in the target's directory, flushed to disk and renamed over
the target, so a crash leaves either the old file or the new one, never a partial one. The
temporary file's name carries the writer's host and process id; a later save to the same path
removes those whose process no longer exists (a save killed mid-write), never a live one's.

Two other formats are read and written through the same two functions: a path ending in
``.safetensors`` saves a flat ``{name: Tensor}`` dict in the safetensors format (``_safetensors``),
and ``load`` recognises safetensors files and PyTorch's ``torch.save`` zip files (``_torch_load``,
read without PyTorch and without running any pickled code) by their contents.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import pickle
import re
import secrets
import socket
import stat
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import IO, Any

import numpy as np

from . import _safetensors, _torch_load, _torch_save, cuda, dtypes
from .device import CPU, array_module_of, as_device, device, move_array, storage_of
from .ops import sparse
from .tensor import Size, Tensor

__all__ = ["save", "load", "add_safe_globals", "get_safe_globals", "clear_safe_globals", "safe_globals"]

FORMAT = "tinyframe.save"
VERSION = 1
HEADER = "__tinyframe_header__"
FileLike = str | os.PathLike | IO[bytes]
MapLocation = str | device | dict | Callable[[Any, str], Any] | None

_SCALARS = (str, int, float, bool, type(None))
_CONTAINERS: dict[type, str] = {list: "list", tuple: "tuple", dict: "dict", OrderedDict: "OrderedDict"}
# Globals a weights_only load may unpickle: the user's (add_safe_globals) and the ones a pickled module needs
_SAFE_GLOBALS: list = []
_ALWAYS_SAFE = {"collections.OrderedDict", "tinyframe.nn.parameter.Parameter"}


def add_safe_globals(safe_globals: list) -> None:
    """Allows the given classes and functions (or ``(object, "module.name")`` pairs) to be unpickled by
    ``load(weights_only=True)``; only add globals from sources you trust."""
    _SAFE_GLOBALS.extend(safe_globals)


def get_safe_globals() -> list:
    """The globals added with :func:`add_safe_globals`."""
    return list(_SAFE_GLOBALS)


def clear_safe_globals() -> None:
    """Forgets every global added with :func:`add_safe_globals`."""
    _SAFE_GLOBALS.clear()


@contextlib.contextmanager
def safe_globals(safe_globals: list) -> Iterator[None]:
    """Allows ``safe_globals`` (as :func:`add_safe_globals`) inside the ``with`` block only."""
    before = list(_SAFE_GLOBALS)
    _SAFE_GLOBALS.extend(safe_globals)
    try:
        yield
    finally:
        _SAFE_GLOBALS[:] = before


def _global_name(entry: Any) -> str:
    if isinstance(entry, tuple):
        return str(entry[1])
    return f"{entry.__module__}.{entry.__qualname__}"


def save(obj: Any, f: FileLike, *, format: str = "tinyframe") -> None:
    """Saves ``obj`` to the file ``f`` (a path, or a binary file object open for writing).

    ``obj`` may nest dicts and OrderedDicts (str, int, float, bool or None keys, or tuples of them),
    lists and tuples of Tensors, Python numbers, bools, strings, None, ``Size``, ``dtype`` and
    ``device`` — a module's ``state_dict()``, an optimizer's, a training checkpoint — and NumPy arrays
    and scalars of numbers and bools (which, as with ``torch.load``, only ``weights_only=False`` loads). Tensors are
    stored with their dtype, device and ``requires_grad`` (not their ``.grad``); CUDA tensors are
    copied to the host. Any other object (a whole model, as ``torch.save(model, PATH)``) is pickled,
    its Tensors stored as the others; an object pickle cannot handle raises pickle's error.

    Saving to a path is atomic: the data goes to a temporary file in the same directory, is flushed
    to disk and then renamed over ``f``. Temporary files that earlier saves to ``f`` left behind
    when their process was killed are removed first. A path ending in ``.safetensors`` is written in
    the safetensors format, which holds a flat ``{name: Tensor}`` dict (a ``state_dict()``).
    ``format="torch"`` writes PyTorch's ``torch.save`` zip format instead, which ``torch.load``
    reads (``weights_only=True`` included); it holds the same values except ``device`` objects.
    """
    if isinstance(f, (str, os.PathLike)) and os.fspath(f).endswith(".safetensors"):
        return _write_atomically(os.fspath(f), lambda fh: _safetensors.write(obj, fh))
    if format == "torch":
        return _write_other_format(f, lambda fh: _torch_save.write(obj, fh))
    if format != "tinyframe":
        raise ValueError(f"save() format must be 'tinyframe' or 'torch', got {format!r}")
    encoder = _Encoder()
    root = encoder.encode(obj, "obj")
    header = json.dumps({"format": FORMAT, "version": VERSION, "root": root}, separators=(",", ":"))
    members = {HEADER: np.frombuffer(header.encode("utf-8"), dtype=np.uint8), **encoder.arrays}
    if isinstance(f, (str, os.PathLike)):
        _write_atomically(os.fspath(f), lambda fh: np.savez(fh, allow_pickle=False, **members))
    elif hasattr(f, "write"):
        np.savez(f, allow_pickle=False, **members)
    else:
        raise TypeError(f"save() expects a path or a writable binary file object, got {type(f).__name__}")


def load(f: FileLike, map_location: MapLocation = None, *, weights_only: bool = True) -> Any:
    """Loads an object saved by :func:`save` from ``f`` (a path, or a readable binary file object).

    ``map_location`` says where tensors go: ``None`` restores the devices they were saved from,
    ``'cpu'`` / ``'cuda:0'`` / a ``device`` sends them all there, and a dict such as
    ``{'cuda:0': 'cpu'}`` maps saved devices to new ones (devices not in it are kept). A function
    ``f(storage, location)`` is called as PyTorch calls it: ``lambda storage, loc: storage`` keeps tensors
    on the CPU and ``lambda storage, loc: storage.cuda(1)`` sends them to ``cuda:1`` (tinyframe has no
    storages: ``storage`` is an empty CPU tensor standing for one, and the device of what ``f`` returns
    is where the tensors go; None restores the saved device).

    Also reads safetensors files and PyTorch's ``torch.save`` files (zip format) without PyTorch, as
    ``torch.load(weights_only=True)`` does: tensors, OrderedDicts and plain Python values are rebuilt
    and any other pickled global (``os.system``, a class) raises ``pickle.UnpicklingError`` before
    anything runs. ``weights_only=True`` (the default, as in PyTorch) refuses a tinyframe checkpoint's
    NumPy values and pickled objects (unless each global they name was allowed with
    :func:`add_safe_globals`) with ``pickle.UnpicklingError``, as ``torch.load`` does; ``False`` returns
    them. Any other
    file (a bare pickle, random bytes), or one that is truncated or damaged, raises RuntimeError
    naming the file and the problem.
    """
    locate = _Locator(map_location)
    if isinstance(f, (str, os.PathLike)):
        name = os.fspath(f)
        with open(name, "rb") as fh:
            return _read(fh, name, locate, weights_only)
    if hasattr(f, "read"):
        return _read(f, str(getattr(f, "name", "<file object>")), locate, weights_only)
    raise TypeError(f"load() expects a path or a readable binary file object, got {type(f).__name__}")


# ----------------------------------------------------------------------------------------- writing
class _Encoder:
    """Turns an object into its JSON header node, collecting tensor storages as host arrays."""

    def __init__(self) -> None:
        self.arrays: dict[str, np.ndarray] = {}
        self._storage_names: dict[int, str] = {}   # id(tensor._data) -> archive member
        self._tensor_ids: dict[int, int] = {}      # id(tensor) -> header id
        self._open: set[int] = set()               # containers being encoded, to catch cycles
        self._parts: list[Tensor] = []             # a sparse tensor's indices and values, kept alive (their ids)

    def encode(self, obj: Any, where: str) -> Any:
        kind = type(obj)
        if kind in _SCALARS:
            return obj
        if isinstance(obj, Tensor):
            return self._tensor(obj)
        if kind in _CONTAINERS:
            return self._container(obj, _CONTAINERS[kind], where)
        if kind is Size:
            return {"type": "Size", "items": [int(n) for n in obj]}
        if kind is dtypes.dtype:
            return {"type": "dtype", "name": obj.name}
        if kind is device:
            return {"type": "device", "name": str(obj)}
        if isinstance(obj, (np.ndarray, np.generic)) and obj.dtype.kind in "biuf":
            storage = f"a{len(self.arrays)}"
            self.arrays[storage] = np.asarray(obj)
            return {"type": "numpy", "storage": storage, "scalar": isinstance(obj, np.generic)}
        return self._pickled(obj)

    def _pickled(self, obj: Any) -> dict:
        """An object the header cannot describe, pickled; its exact Tensors go to the archive."""
        buffer = io.BytesIO()
        _ObjectPickler(buffer, self).dump(obj)
        storage = f"a{len(self.arrays)}"
        self.arrays[storage] = np.frombuffer(buffer.getvalue(), dtype=np.uint8)
        return {"type": "object", "storage": storage}

    def _container(self, obj: Any, name: str, where: str) -> dict:
        if id(obj) in self._open:
            raise ValueError(f"cannot save a structure that contains itself: {where} refers back to an "
                             "enclosing container")
        if name in ("dict", "OrderedDict") and not all(_is_key(key) for key in obj):
            return self._pickled(obj)
        self._open.add(id(obj))
        if name in ("list", "tuple"):
            items = [self.encode(value, f"{where}[{i}]") for i, value in enumerate(obj)]
        else:
            items = [[self._key(key, where), self.encode(value, f"{where}[{key!r}]")]
                     for key, value in obj.items()]
        self._open.discard(id(obj))
        return {"type": name, "items": items}

    def _key(self, key: Any, where: str) -> Any:
        if type(key) is tuple:
            return {"type": "tuple", "items": [self._key(part, where) for part in key]}
        return key

    def _tensor(self, t: Tensor) -> dict:
        if t.is_sparse:
            return self._sparse(t)
        data = t._data
        root, offset = storage_of(data)
        strides = [step // data.itemsize for step in data.strides]
        if root.dtype != data.dtype or not root.flags.c_contiguous or min(strides, default=0) < 0:
            root, offset = data, 0  # not a view into one block of its dtype: saved as its own storage
        storage = self._storage_names.get(id(root))
        if storage is None:
            storage = self._storage_names[id(root)] = f"a{len(self.arrays)}"
            self.arrays[storage] = move_array(root, CPU)
        tensor_id = self._tensor_ids.setdefault(id(t), len(self._tensor_ids))
        node = {"type": "tensor", "id": tensor_id, "storage": storage, "dtype": t.dtype.name,
                "device": str(t.device), "requires_grad": t.requires_grad}
        if data is not root:  # a view: loads as a view of the same storage, as torch.save keeps views
            node["view"] = [offset, list(data.shape), strides]
        return node

    def _sparse(self, t: Tensor) -> dict:
        """A sparse COO tensor: its indices and values as tensor nodes, its size and whether it is coalesced."""
        a = t._data
        parts = [Tensor._make(a.indices), Tensor._make(a.values)]
        self._parts += parts
        return {"type": "sparse_coo", "indices": self._tensor(parts[0]), "values": self._tensor(parts[1]),
                "size": list(a.shape), "coalesced": a.coalesced, "requires_grad": t.requires_grad}


def _is_key(key: Any) -> bool:
    """Whether the header can hold ``key`` as a dict key: a scalar or a tuple of them."""
    return type(key) in _SCALARS or (type(key) is tuple and all(_is_key(part) for part in key))


class _ObjectPickler(pickle.Pickler):
    """Pickles as ``torch.save`` does, except that each exact Tensor is a persistent id holding its
    header node, so that it is stored (and shares storage) as the checkpoint's other tensors."""

    def __init__(self, file: IO[bytes], encoder: _Encoder) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.encoder = encoder

    def persistent_id(self, obj: Any) -> str | None:
        if type(obj) is Tensor:
            return json.dumps(self.encoder._tensor(obj), separators=(",", ":"))
        return None


def _write_other_format(f: FileLike, write: Callable[[IO[bytes]], None]) -> None:
    if isinstance(f, (str, os.PathLike)):
        _write_atomically(os.fspath(f), write)
    elif hasattr(f, "write"):
        write(f)
    else:
        raise TypeError(f"save() expects a path or a writable binary file object, got {type(f).__name__}")


def _write_atomically(path: str, write: Callable[[IO[bytes]], None]) -> None:
    """Lets ``write`` fill a file next to ``path`` under a temporary name, syncs it and renames it over
    ``path``; on any failure the temporary file is removed and ``path`` is untouched."""
    target = os.path.realpath(path)  # through a symlink, as open(path, 'wb') would write
    directory = os.path.dirname(target)
    if not os.path.isdir(directory):
        raise RuntimeError(f"Parent directory {os.path.dirname(path) or directory} does not exist.")
    _remove_stale_temporaries(directory, os.path.basename(target))
    temporary = os.path.join(directory, _temporary_name(os.path.basename(target), os.getpid()))
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as fh:
            with contextlib.suppress(FileNotFoundError):  # an overwritten file keeps its permissions
                os.chmod(temporary, stat.S_IMODE(os.stat(target).st_mode))
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_directory(directory)


# Temporary files are named ".{target}.{pid}.{host}.{random}.tmp". The host tag keeps a save from
# judging, by a process id of its own machine, a file that another machine sharing the directory is writing.
_HOST = hashlib.sha1(socket.gethostname().encode("utf-8")).hexdigest()[:8]


def _temporary_name(target: str, pid: int) -> str:
    return f".{target}.{pid}.{_HOST}.{secrets.token_hex(8)}.tmp"


def _remove_stale_temporaries(directory: str, target: str) -> None:
    """Removes the temporary files of saves to ``target`` whose writer process has died on this host."""
    pattern = re.compile(re.escape(f".{target}.") + r"(\d+)\." + _HOST + r"\.[0-9a-f]{16}\.tmp")
    with os.scandir(directory) as entries:
        stale = [entry.path for entry in entries
                 if (found := pattern.fullmatch(entry.name)) and not _process_exists(int(found.group(1)))]
    for path in stale:
        with contextlib.suppress(OSError):  # another save may have removed it first
            os.unlink(path)


def _process_exists(pid: int) -> bool:
    if os.name != "posix":  # os.kill(pid, 0) would terminate the process on Windows
        return True
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except OSError:  # it exists but belongs to another user, or the system will not say: keep the file
        pass
    return True


def _sync_directory(directory: str) -> None:
    """Makes the rename durable (POSIX); platforms that cannot open a directory skip it."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# ----------------------------------------------------------------------------------------- reading
class _Locator:
    """The device a tensor saved on ``saved`` (a string such as ``'cuda:0'``) is loaded to."""

    def __init__(self, map_location: MapLocation) -> None:
        if isinstance(map_location, dict):
            for key, value in map_location.items():
                if not isinstance(key, (str, device)) or not isinstance(value, (str, device)):
                    raise TypeError("map_location dict keys and values must be device strings or "
                                    f"devices, got {key!r}: {value!r}")
            self.table = {str(device(key)): value for key, value in map_location.items()}
            self.fixed = None
        elif map_location is None or isinstance(map_location, (str, device)) or callable(map_location):
            self.table = {}
            self.fixed = map_location
        else:
            raise TypeError(f"map_location must be None, a device, a device string, a dict of them or a "
                            f"function, got {type(map_location).__name__}")

    def __call__(self, saved: str) -> device:
        spec = self.fixed if self.fixed is not None else self.table.get(saved, saved)
        if callable(spec):
            placed = spec(Tensor._make(np.empty(0, np.uint8)), saved)
            spec = saved if placed is None else placed.device
        wanted = device(spec)
        if wanted.type == "cuda":
            if not cuda.is_available():
                raise RuntimeError("Attempting to deserialize object on a CUDA device but "
                                   "tinyframe.cuda.is_available() is False. If you are running on a CPU-only "
                                   "machine, please use tinyframe.load with "
                                   "map_location=tinyframe.device('cpu') to map your storages to the CPU.")
            if wanted.index is not None and wanted.index >= cuda.device_count():
                raise RuntimeError(f"Attempting to deserialize object on CUDA device {wanted.index} but "
                                   f"tinyframe.cuda.device_count() is {cuda.device_count()}. Please use "
                                   "tinyframe.load with map_location to map your storages to an existing "
                                   "device.")
        return as_device(wanted)


def _read(fh: IO[bytes], name: str, locate: _Locator, weights_only: bool) -> Any:
    """Decodes the whole archive on the host first, so that anything a damaged file makes NumPy,
    zipfile or the decoder raise is reported as damage; then places the tensors on their devices."""
    if not _seekable(fh):
        fh = io.BytesIO(fh.read())
    start = fh.tell()
    magic = fh.read(9)
    fh.seek(start)
    if _is_safetensors(magic) or (magic.startswith(b"PK\x03\x04") and _torch_load.is_torch_archive(fh)):
        return _read_other_format(fh, name, locate, magic)
    problem = _foreign_format(magic)
    if problem:
        raise _LoadError(f"tinyframe.load: {name} {problem}")
    try:
        with np.load(fh, allow_pickle=False) as archive:
            decoder = _Decoder(archive, weights_only is not False, locate)  # None means PyTorch's default
            root = decoder.decode(_header(archive, name))
            decoder.place()
    except (_LoadError, MemoryError, pickle.UnpicklingError):
        raise
    except _PlaceError as exc:  # a device that is not there: say which file wants it
        raise RuntimeError(f"tinyframe.load: {name}: {exc}") from exc.__cause__
    except Exception as exc:  # zipfile and NumPy raise many types on damaged input (even RuntimeError)
        raise _LoadError(f"tinyframe.load: {name} is truncated or corrupt ({type(exc).__name__}: {exc})") from exc
    return root


def _is_safetensors(magic: bytes) -> bool:
    """A safetensors file starts with its header's length (8 bytes) and the header's ``{``."""
    return len(magic) == 9 and magic[8:9] == b"{"


def _read_other_format(fh: IO[bytes], name: str, locate: _Locator, magic: bytes) -> Any:
    """Reads a safetensors or ``torch.save`` file on the host, then places its tensors where
    ``locate`` says; a refused pickle global propagates as is."""
    try:
        if _is_safetensors(magic):
            root = _safetensors.read(fh, CPU)
            saved_on = [(tensor, "cpu") for tensor in root.values()]
        else:
            root, saved_on = _torch_load.load(fh)
    except (_torch_load.Refused, MemoryError):
        raise
    except Exception as exc:
        raise _LoadError(f"tinyframe.load: {name} is truncated or corrupt ({type(exc).__name__}: {exc})") from exc
    try:
        for tensor, saved in saved_on:
            tensor._data = move_array(tensor._data, locate(saved))
    except RuntimeError as exc:  # a device that is not there: say which file wants it
        raise RuntimeError(f"tinyframe.load: {name}: {exc}") from exc
    return root


class _LoadError(RuntimeError):
    """A file that is not a readable checkpoint (raised as RuntimeError to the caller)."""


class _PlaceError(RuntimeError):
    """A tensor's device is not there (not damage to the file)."""


def _seekable(fh: IO[bytes]) -> bool:
    try:
        return bool(fh.seekable())
    except (AttributeError, OSError):
        return False


def _foreign_format(magic: bytes) -> str | None:
    """Why a file starting with ``magic`` is not a checkpoint, or None for a zip archive."""
    if magic.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return None
    if not magic:
        return "is empty, not a tinyframe checkpoint"
    if magic.startswith(b"\x80"):
        return ("is a pickle file (e.g. PyTorch's legacy torch.save format, before 1.6), not a tinyframe "
                "checkpoint; tinyframe.load never unpickles bare pickles (re-save it with a current PyTorch, "
                "or as safetensors)")
    if magic.startswith(b"\x93NUMPY"):
        return "is a single NumPy .npy array, not a tinyframe checkpoint"
    return "is not a tinyframe checkpoint (unrecognised file format; expected a zip archive)"


def _header(archive: Any, name: str) -> Any:
    if HEADER not in archive.files:
        raise _LoadError(f"tinyframe.load: {name} is a zip archive without a tinyframe header (member "
                           f"{HEADER}.npy), so it was not written by tinyframe.save")
    raw = archive[HEADER]
    if raw.dtype != np.uint8 or raw.ndim != 1:
        raise ValueError(f"the header member has dtype {raw.dtype} and {raw.ndim} dimensions")
    header = json.loads(raw.tobytes().decode("utf-8"))
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise _LoadError(f"tinyframe.load: {name} has a header of an unknown format "
                           f"(expected {FORMAT!r})")
    version = header.get("version")
    if not isinstance(version, int) or version > VERSION:
        raise _LoadError(f"tinyframe.load: {name} was written in format version {version!r} by a newer "
                           f"tinyframe; this one reads versions up to {VERSION}. Upgrade tinyframe.")
    return header["root"]


class _Decoder:
    """Rebuilds the saved object from header nodes and the archive's arrays, on the host."""

    def __init__(self, archive: Any, weights_only: bool, locate: _Locator) -> None:
        self.archive = archive
        self.weights_only = weights_only
        self.locate = locate
        self._placed: dict[tuple, Any] = {}            # (member, device) -> the member's array there
        self._host: dict[str, np.ndarray] = {}         # member -> array as read
        self._tensors: dict[int, Tensor] = {}          # header id -> the tensor built for it
        self._saved_on: list[tuple] = []               # (tensor, member, saved device) to place
        self._sparse: list[tuple] = []                 # (sparse tensor, its indices, its values) to place

    def decode(self, node: Any) -> Any:
        if type(node) in _SCALARS:
            return node
        kind = node["type"]
        if kind == "list":
            return [self.decode(item) for item in node["items"]]
        if kind == "tuple":
            return tuple(self.decode(item) for item in node["items"])
        if kind in ("dict", "OrderedDict"):
            pairs = ((self.decode(key), self.decode(value)) for key, value in node["items"])
            return dict(pairs) if kind == "dict" else OrderedDict(pairs)
        if kind == "tensor":
            return self._tensor(node)
        if kind == "sparse_coo":
            return self._sparse_tensor(node)
        if kind == "Size":
            return Size(int(n) for n in node["items"])
        if kind == "dtype":
            return dtypes.as_dtype(str(node["name"]))
        if kind == "device":
            return _saved_device(node["name"])
        if kind == "numpy":
            return self._numpy(node)
        if kind == "object":
            return _ObjectUnpickler(io.BytesIO(self.archive[node["storage"]].tobytes()), self).load()
        raise ValueError(f"unknown entry type {kind!r} in the header")

    def _numpy(self, node: dict) -> Any:
        scalar = node["scalar"] is True
        if self.weights_only:
            needed = "numpy._core.multiarray." + ("scalar" if scalar else "_reconstruct")
            raise pickle.UnpicklingError(
                f"Weights only load failed: this file holds a NumPy {'scalar' if scalar else 'array'} "
                f"(torch.load would need the global {needed}). Re-running `load` with `weights_only` set "
                "to `False` will succeed.")
        array = self.archive[node["storage"]]
        return array[()] if scalar else array

    def _tensor(self, node: dict) -> Tensor:
        found = self._tensors.get(node["id"])
        if found is not None:
            return found
        storage, dtype = node["storage"], dtypes.as_dtype(str(node["dtype"]))
        if storage not in self._host:
            array = self.archive[storage]
            if dtype is dtypes.bfloat16 and array.dtype == np.dtype("V2"):  # .npy keeps bfloat16 as raw 2 bytes
                array = array.view(dtype.numpy)
            if array.dtype != dtype.numpy:
                raise ValueError(f"member {storage} holds {array.dtype} data but the header says {dtype.name}")
            self._host[storage] = array
        requires_grad = node["requires_grad"]
        if requires_grad not in (True, False) or (requires_grad and not dtype.is_floating_point):
            raise ValueError(f"invalid requires_grad {requires_grad!r} for a {dtype.name} tensor")
        view = node.get("view")
        tensor = Tensor._make(_viewed(self._host[storage], view), None, requires_grad)
        self._tensors[node["id"]] = tensor
        self._saved_on.append((tensor, storage, str(_saved_device(node["device"])), view))
        return tensor

    def _sparse_tensor(self, node: dict) -> Tensor:
        indices, values = self._tensor(node["indices"]), self._tensor(node["values"])
        if indices.dtype is not dtypes.int64 or indices.ndim != 2 or node["coalesced"] not in (True, False):
            raise ValueError("invalid sparse tensor entry in the header")
        out = sparse.sparse_coo_tensor(indices, values, node["size"], is_coalesced=node["coalesced"],
                                       requires_grad=node["requires_grad"] is True)
        self._sparse.append((out, indices, values))
        return out

    def place(self) -> None:
        """Moves each tensor decoded so far to the device ``locate`` picks; tensors that shared a
        storage when saved share one array per device."""
        for tensor, storage, saved, view in self._saved_on:
            try:
                target = self.locate(saved)
            except RuntimeError as exc:
                raise _PlaceError(str(exc)) from exc
            key = (storage, target)
            if key not in self._placed:
                self._placed[key] = move_array(self._host[storage], target)
            tensor._data = _viewed(self._placed[key], view)
        for out, indices, values in self._sparse:  # a sparse tensor holds its parts' arrays where they went
            out._data = sparse.COO(indices._data, values._data, out._data.shape, out._data.coalesced)
        self._saved_on.clear()
        self._sparse.clear()


class _ObjectUnpickler(pickle.Unpickler):
    """Unpickles an object node: its persistent ids are tensor nodes, placed at once (a Parameter
    built from one while unpickling keeps the array it was given). Under ``weights_only`` only the
    safe globals resolve; any other raises before anything it names runs."""

    def __init__(self, file: IO[bytes], decoder: _Decoder) -> None:
        super().__init__(file)
        self.decoder = decoder

    def persistent_load(self, pid: Any) -> Tensor:
        tensor = self.decoder._tensor(json.loads(pid))
        self.decoder.place()
        return tensor

    def find_class(self, module: str, name: str) -> Any:
        full = f"{module}.{name}"
        if not self.decoder.weights_only or full in _ALWAYS_SAFE:
            return super().find_class(module, name)
        for entry in _SAFE_GLOBALS:
            if _global_name(entry) == full:
                return entry[0] if isinstance(entry, tuple) else entry
        raise pickle.UnpicklingError(_unsupported_global(full))


def _unsupported_global(full: str) -> str:
    """PyTorch's message (ANSI bold included) for a global that ``weights_only`` loading refuses."""
    return ("Weights only load failed. This file can still be loaded, to do so you have two options, \x1b[1mdo those "
            "steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In PyTorch 2.6, we changed the "
            "default value of the `weights_only` argument in `tinyframe.load` from `False` to `True`. Re-running "
            "`tinyframe.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary "
            "code execution. Do it only if you got the file from a trusted source.\n\t(2) Alternatively, to load "
            "with `weights_only=True` please check the recommended steps in the following error message.\n\t"
            f"WeightsUnpickler error: Unsupported global: GLOBAL {full} was not an allowed global by default. Please "
            f"use `tinyframe.serialization.add_safe_globals([{full}])` or the "
            f"`tinyframe.serialization.safe_globals([{full}])` context manager to allowlist this global if you "
            "trust this class/function.\n\nCheck the documentation of tinyframe.load to learn more about types "
            "accepted by default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")


def _viewed(storage: Any, view: Any) -> Any:
    """The view ``[offset, shape, strides]`` (in elements) of a storage array, or the array itself
    for ``None``; a view that would reach outside the storage is refused."""
    if view is None:
        return storage
    offset, shape, strides = view
    numbers = [offset, *shape, *strides]
    if (len(shape) != len(strides) or any(type(n) is not int or n < 0 for n in numbers)
            or (all(shape) and offset + sum((n - 1) * step for n, step in zip(shape, strides)) >= storage.size)):
        raise ValueError(f"invalid view {view!r} of a storage of {storage.size} elements")
    flat = storage.reshape(-1)[offset:]
    return array_module_of(flat).lib.stride_tricks.as_strided(flat, shape, [step * flat.itemsize for step in strides])


def _saved_device(text: Any) -> device:
    try:
        return device(str(text))
    except RuntimeError as exc:
        raise ValueError(f"invalid device {text!r} in the header") from exc
