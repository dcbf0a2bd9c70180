"""MNIST for the example: find, download and read the four IDX files with NumPy.

Files already on disk are used first, without touching the network. Otherwise they are
downloaded, by torchvision if it is installed (into the ``MNIST/raw`` layout that other
PyTorch code shares) or else from ``MIRRORS``, through a temporary folder: nothing is
created in the data folder unless the download succeeds. The result is NumPy arrays:
images ``uint8 (N, 28, 28)``, labels ``int64 (N,)``.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import struct
import tempfile
import urllib.request
import zlib
from pathlib import Path
from types import ModuleType

import numpy as np

MIRRORS = (
    "https://ossci-datasets.s3.amazonaws.com/mnist/",
    "http://yann.lecun.com/exdb/mnist/",
)

# Split and kind -> (standard file name without ".gz", md5 of the published .gz).
RESOURCES = {
    "train_images": ("train-images-idx3-ubyte", "f68b3c2dcbeaaa9fbdd348bbdeb94873"),
    "train_labels": ("train-labels-idx1-ubyte", "d53e105ee54ea40749a09fcbcd1e9432"),
    "test_images": ("t10k-images-idx3-ubyte", "9fb629c4189551a2d022fa330f9573f3"),
    "test_labels": ("t10k-labels-idx1-ubyte", "ec29112dd5afa0611ce80d1b7f02629c"),
}

# IDX magic number -> number of big-endian uint32 sizes that follow it in the header.
_IDX_NDIM = {2051: 3, 2049: 1}
_GZIP_MAGIC = b"\x1f\x8b"
_TIMEOUT_S = 15

Split = tuple[np.ndarray, np.ndarray]


class MNISTError(RuntimeError):
    """MNIST could not be found, downloaded or read; the message says where and why."""


def default_data_dir() -> Path:
    """Return ``$TINYFRAME_DATA`` if set, else ``~/.tinyframe/data``."""
    env = os.environ.get("TINYFRAME_DATA")
    return Path(env).expanduser() if env else Path.home() / ".tinyframe" / "data"


def read_idx(path: str | os.PathLike) -> np.ndarray:
    """Read one MNIST IDX file, gzip-compressed or raw, into a ``uint8`` array.

    Image files (magic 2051) give shape ``(count, rows, cols)``, label files (magic
    2049) give ``(count,)``. The header is big-endian: magic, then one uint32 per
    dimension. The payload must hold exactly ``prod(shape)`` bytes, so a truncated file
    or trailing bytes raise ``MNISTError`` instead of returning part of the data set.
    """
    path = Path(path)
    data = _read_bytes(path)
    shape, offset = _parse_idx_header(path, data)
    expected = int(np.prod(shape))
    if len(data) - offset != expected:
        raise MNISTError(
            f"{path}: payload is {len(data) - offset} bytes but the header {shape} "
            f"needs {expected}; the file is truncated or has trailing data, delete it "
            "and fetch it again"
        )
    return np.frombuffer(data, dtype=np.uint8, offset=offset).reshape(shape).copy()


def _read_bytes(path: Path) -> bytes:
    """Return the file's contents, gunzipped when it starts with the gzip magic."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise MNISTError(f"{path}: cannot read the file ({error})") from error
    if not data.startswith(_GZIP_MAGIC):
        return data
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as error:
        raise MNISTError(
            f"{path}: corrupt or truncated gzip data ({error}); delete it and fetch "
            "it again"
        ) from error


def _parse_idx_header(path: Path, data: bytes) -> tuple[tuple[int, ...], int]:
    """Return ``(shape, payload offset)`` from an IDX header, checking the magic."""
    magic = struct.unpack(">I", data[:4])[0] if len(data) >= 4 else None
    if magic not in _IDX_NDIM:
        raise MNISTError(
            f"{path}: not an MNIST IDX file (magic {magic}, expected 2051 for images "
            "or 2049 for labels)"
        )
    offset = 4 * (1 + _IDX_NDIM[magic])
    if len(data) < offset:
        raise MNISTError(
            f"{path}: file is {len(data)} bytes, shorter than its {offset}-byte header"
        )
    return struct.unpack(f">{_IDX_NDIM[magic]}I", data[4:offset]), offset


def find_raw_files(root: str | os.PathLike) -> dict[str, Path] | None:
    """Find the four MNIST files under ``root``, or return ``None``.

    Looks in torchvision's layout ``root/MNIST/raw`` first, then flat in ``root``; all
    four files must be in the same folder, each either uncompressed or with ``.gz``.
    Returns a dict with keys ``train_images``, ``train_labels``, ``test_images`` and
    ``test_labels`` (the keys of ``RESOURCES``).
    """
    for folder in _search_folders(Path(root)):
        found = {key: _find_one(folder, name) for key, (name, _) in RESOURCES.items()}
        paths = {key: path for key, path in found.items() if path is not None}
        if len(paths) == len(found):
            return paths
    return None


def _search_folders(root: Path) -> tuple[Path, Path]:
    """Return the folders searched for the raw files, in order."""
    return root / "MNIST" / "raw", root


def _find_one(folder: Path, name: str) -> Path | None:
    """Return ``folder/name`` or ``folder/name.gz``, preferring the uncompressed."""
    for candidate in (folder / name, folder / f"{name}.gz"):
        if candidate.is_file():
            return candidate
    return None


def download(root: str | os.PathLike) -> dict[str, Path]:
    """Download the four ``.gz`` files into ``root/MNIST/raw`` and return their paths.

    Each file is tried on every mirror in ``MIRRORS`` in turn and kept only if its md5
    matches the published one. Files already present with the right md5 are not fetched
    again. The others are held in memory until all have arrived; only then is the folder
    created and each file written to a temporary file beside its target and renamed into
    place. So a failed download creates nothing, and an interrupted write never leaves a
    partial file.
    """
    folder = Path(root) / "MNIST" / "raw"
    present, fetched = {}, {}
    for key, (name, md5) in RESOURCES.items():
        target = folder / f"{name}.gz"
        if target.is_file() and _md5(target.read_bytes()) == md5:
            present[key] = target
        else:
            fetched[key] = (target.name, _fetch(target.name, md5))
    return {**present, **_install(folder, fetched)}


def _install(folder: Path, payloads: dict[str, tuple[str, bytes]]) -> dict[str, Path]:
    """Write ``{key: (file name, bytes)}`` into ``folder``, creating it; return the paths."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise MNISTError(f"cannot create {folder} for the download ({error})") from error
    paths = {}
    for key, (filename, payload) in payloads.items():
        paths[key] = folder / filename
        _write_atomically(paths[key], payload)
    return paths


def _fetch(filename: str, md5: str) -> bytes:
    """Fetch ``filename`` from the first mirror that serves it with the right md5."""
    failures = []
    for mirror in MIRRORS:
        url = mirror + filename
        # URLError, HTTPError and socket timeouts are all OSErrors.
        try:
            with urllib.request.urlopen(url, timeout=_TIMEOUT_S) as response:
                payload = response.read()
        except OSError as error:
            failures.append(f"{url}: {error}")
            continue
        if _md5(payload) != md5:
            failures.append(f"{url}: md5 {_md5(payload)}, expected {md5}")
            continue
        return payload
    raise MNISTError(f"could not download {filename}: " + "; ".join(failures))


def _md5(data: bytes) -> str:
    """Return the hex md5 of ``data``, as published for the MNIST files."""
    return hashlib.md5(data, usedforsecurity=False).hexdigest()


def _write_atomically(target: Path, payload: bytes) -> None:
    """Write ``payload`` to ``target`` via a temporary file beside it and a rename."""
    handle, temp_name = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".part"
    )
    try:
        with os.fdopen(handle, "wb") as temp:
            temp.write(payload)
        os.replace(temp_name, target)
    except OSError as error:
        Path(temp_name).unlink(missing_ok=True)
        raise MNISTError(f"cannot write {target} ({error})") from error


def load_mnist(
    root: str | os.PathLike | None = None, download: bool = True
) -> tuple[Split, Split]:
    """Return ``((x_train, y_train), (x_test, y_test))`` as NumPy arrays.

    ``x`` is ``uint8 (N, 28, 28)`` and ``y`` is ``int64 (N,)``, with N = 60000 for train
    and 10000 for test. ``root`` defaults to ``default_data_dir()``. The four files are
    looked for in ``root/MNIST/raw``, then flat in ``root`` (each ``.gz`` or not), and read
    from there without any network access. Only when they are missing and ``download=True``
    are they fetched into ``root/MNIST/raw``; a failed download creates nothing. Raises
    ``MNISTError``, naming every folder searched, when the data cannot be had.
    """
    root = Path(root) if root is not None else default_data_dir()
    files = find_raw_files(root)
    if files is None:
        files = _download_or_explain(root, download)
    train = _read_split(files["train_images"], files["train_labels"])
    test = _read_split(files["test_images"], files["test_labels"])
    return train, test


def _fetch_into(root: Path) -> dict[str, Path]:
    """Download the files into ``root/MNIST/raw``: by torchvision when it is installed and
    succeeds, else from ``MIRRORS``."""
    datasets = _torchvision_datasets()
    if datasets is not None:
        try:
            return _download_with_torchvision(datasets, root)
        except (RuntimeError, OSError):
            # Then the mirrors here, from inside this block so that torchvision's error
            # stays attached as the __context__ of any MNISTError they raise.
            return download(root)
    return download(root)


def _torchvision_datasets() -> ModuleType | None:
    """Return ``torchvision.datasets``, or ``None`` if it is missing or broken."""
    try:
        from torchvision import datasets
    except (ImportError, RuntimeError):
        # A torchvision built for another torch fails at import with RuntimeError
        # ("operator torchvision::nms does not exist"); treat it as absent.
        return None
    return datasets


def _download_with_torchvision(datasets: ModuleType, root: Path) -> dict[str, Path]:
    """Let ``torchvision.datasets.MNIST`` download into a temporary folder (it creates its
    folders before it knows whether the download works), then move the four uncompressed
    files into ``root/MNIST/raw``, where torchvision finds them too."""
    with tempfile.TemporaryDirectory(prefix="tinyframe-mnist-") as staging:
        for train in (True, False):
            datasets.MNIST(staging, train=train, download=True)
        raw = Path(staging) / "MNIST" / "raw"
        payloads = {key: (name, (raw / name).read_bytes()) for key, (name, _) in RESOURCES.items()}
    return _install(root / "MNIST" / "raw", payloads)


def _download_or_explain(root: Path, allow_download: bool) -> dict[str, Path]:
    """Download into ``root``, or raise an ``MNISTError`` saying what to do."""
    names = ", ".join(f"{name}[.gz]" for name, _ in RESOURCES.values())
    looked = " and ".join(str(folder) for folder in _search_folders(root))
    reason, failure = "downloading is disabled", None
    if allow_download:
        try:
            return _fetch_into(root)
        except MNISTError as error:
            reason, failure = f"the download failed: {error}", error
    raise MNISTError(
        f"MNIST not found: looked for {names} in {looked}, and {reason}. "
        "Pass --data-dir pointing to a folder that holds the four files (flat or in "
        "MNIST/raw), set TINYFRAME_DATA to such a folder, or go online so they can be "
        "downloaded."
    ) from failure


def _read_split(images_path: Path, labels_path: Path) -> Split:
    """Read one split's images and labels and check that they pair up."""
    images, labels = read_idx(images_path), read_idx(labels_path)
    if images.ndim != 3 or labels.ndim != 1 or len(images) != len(labels):
        raise MNISTError(
            f"{images_path} {images.shape} and {labels_path} {labels.shape} do not "
            "pair up: expected images (N, rows, cols) and labels (N,)"
        )
    return images, labels.astype(np.int64)
