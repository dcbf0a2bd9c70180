"""Tests for the MNIST data layer of the example, ``tinyframe.examples.mnist.data``.

No test touches the network: downloads go through a fake ``urlopen`` or a patched
``download``. Tests that need the real data read it from ``shared/data/mnist`` beside
the repository and are skipped when it is missing.
"""

import gzip
import io
import struct
import sys
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from tinyframe.examples.mnist import data
from tinyframe.examples.mnist.data import MNISTError

SHARED_MNIST = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "mnist"
# Digit counts 0-9, as documented in shared/data/mnist/README.md.
TRAIN_LABEL_COUNTS = [5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949]
TEST_LABEL_COUNTS = [980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009]

FILE_NAMES = [name for name, _ in data.RESOURCES.values()]
needs_shared_mnist = pytest.mark.skipif(
    not all((SHARED_MNIST / f"{name}.gz").is_file() for name in FILE_NAMES),
    reason=f"real MNIST files not found in {SHARED_MNIST}",
)


def idx_bytes(array: np.ndarray) -> bytes:
    """Encode a uint8 array of 3 dims (images) or 1 dim (labels) as an IDX file."""
    magic = 2051 if array.ndim == 3 else 2049
    return struct.pack(f">{1 + array.ndim}I", magic, *array.shape) + array.tobytes()


def write_file(path: Path, payload: bytes, gz: bool) -> Path:
    """Write ``payload`` to ``path``, gzipped and with a ``.gz`` suffix if ``gz``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if gz:
        path = path.with_name(path.name + ".gz")
        payload = gzip.compress(payload)
    path.write_bytes(payload)
    return path


@pytest.fixture
def tiny_mnist() -> dict[str, np.ndarray]:
    """Return small random stand-ins for the four MNIST arrays, keyed like RESOURCES."""
    rng = np.random.default_rng(0)
    return {
        "train_images": rng.integers(0, 256, (5, 28, 28), dtype=np.uint8),
        "train_labels": rng.integers(0, 10, 5, dtype=np.uint8),
        "test_images": rng.integers(0, 256, (3, 28, 28), dtype=np.uint8),
        "test_labels": rng.integers(0, 10, 3, dtype=np.uint8),
    }


def write_mnist(folder: Path, arrays: dict[str, np.ndarray], gz: bool) -> None:
    """Write the four arrays as IDX files with the standard names into ``folder``."""
    for key, (name, _) in data.RESOURCES.items():
        write_file(folder / name, idx_bytes(arrays[key]), gz)


@pytest.fixture
def no_torchvision(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``import torchvision`` fail, so that ``load_mnist`` takes the NumPy path."""
    monkeypatch.setitem(sys.modules, "torchvision", None)


@pytest.fixture(scope="module")
def shared_arrays() -> dict[str, np.ndarray]:
    """Return the real MNIST arrays from ``shared/data/mnist``, read once."""
    return {
        key: data.read_idx(SHARED_MNIST / f"{name}.gz")
        for key, (name, _) in data.RESOURCES.items()
    }


@pytest.mark.parametrize("gz", [False, True], ids=["raw", "gz"])
def test_read_idx_round_trips_images_and_labels(tmp_path, tiny_mnist, gz):
    for key in ("train_images", "train_labels"):
        path = write_file(tmp_path / key, idx_bytes(tiny_mnist[key]), gz)
        result = data.read_idx(path)
        assert result.dtype == np.uint8
        np.testing.assert_array_equal(result, tiny_mnist[key])


@pytest.mark.parametrize("gz", [False, True], ids=["raw", "gz"])
@pytest.mark.parametrize("layout", ["MNIST/raw", "flat"])
def test_load_mnist_reads_files_in_either_layout(
    tmp_path, tiny_mnist, no_torchvision, layout, gz
):
    folder = tmp_path / "MNIST" / "raw" if layout == "MNIST/raw" else tmp_path
    write_mnist(folder, tiny_mnist, gz)
    files = data.find_raw_files(tmp_path)
    assert files is not None
    assert {path.parent for path in files.values()} == {folder}
    (x_train, y_train), (x_test, y_test) = data.load_mnist(tmp_path, download=False)
    assert (x_train.dtype, y_train.dtype) == (np.uint8, np.int64)
    np.testing.assert_array_equal(x_train, tiny_mnist["train_images"])
    np.testing.assert_array_equal(y_train, tiny_mnist["train_labels"])
    np.testing.assert_array_equal(x_test, tiny_mnist["test_images"])
    np.testing.assert_array_equal(y_test, tiny_mnist["test_labels"])


def test_find_raw_files_needs_all_four_files_in_one_folder(tmp_path, tiny_mnist):
    write_mnist(tmp_path, tiny_mnist, gz=True)
    (tmp_path / "t10k-labels-idx1-ubyte.gz").rename(tmp_path / "elsewhere.gz")
    assert data.find_raw_files(tmp_path) is None


def test_read_idx_rejects_wrong_magic_naming_the_file(tmp_path):
    payload = struct.pack(">3I", 2050, 1, 1) + b"\0"
    path = write_file(tmp_path / "bad-magic", payload, gz=False)
    with pytest.raises(MNISTError, match="magic 2050") as info:
        data.read_idx(path)
    assert str(path) in str(info.value)


@pytest.mark.parametrize("gz", [False, True], ids=["raw", "gz"])
@pytest.mark.parametrize(
    "cut", [slice(None, -1), slice(None, 10)], ids=["short-payload", "short-header"]
)
def test_read_idx_rejects_truncated_file_naming_it(tmp_path, tiny_mnist, gz, cut):
    payload = idx_bytes(tiny_mnist["train_images"])[cut]
    path = write_file(tmp_path / "train-images-idx3-ubyte", payload, gz)
    with pytest.raises(MNISTError, match="bytes") as info:
        data.read_idx(path)
    assert str(path) in str(info.value)


def test_read_idx_rejects_trailing_data(tmp_path, tiny_mnist):
    payload = idx_bytes(tiny_mnist["train_labels"]) + b"\0"
    path = write_file(tmp_path / "train-labels-idx1-ubyte", payload, gz=False)
    with pytest.raises(MNISTError, match="trailing data"):
        data.read_idx(path)


def test_read_idx_rejects_truncated_gzip_naming_the_file(tmp_path, tiny_mnist):
    path = tmp_path / "train-images-idx3-ubyte.gz"
    path.write_bytes(gzip.compress(idx_bytes(tiny_mnist["train_images"]))[:-20])
    with pytest.raises(MNISTError, match="gzip") as info:
        data.read_idx(path)
    assert str(path) in str(info.value)


def test_read_idx_rejects_gzip_with_bad_crc(tmp_path, tiny_mnist):
    compressed = bytearray(gzip.compress(idx_bytes(tiny_mnist["train_labels"])))
    compressed[-8] ^= 0xFF  # the CRC32 is in the 8-byte gzip trailer
    path = tmp_path / "train-labels-idx1-ubyte.gz"
    path.write_bytes(bytes(compressed))
    with pytest.raises(MNISTError, match="gzip") as info:
        data.read_idx(path)
    assert str(path) in str(info.value)


def test_read_idx_reports_a_missing_file(tmp_path):
    with pytest.raises(MNISTError, match="cannot read"):
        data.read_idx(tmp_path / "absent")


def test_default_data_dir_honours_tinyframe_data(monkeypatch, tmp_path):
    monkeypatch.setenv("TINYFRAME_DATA", str(tmp_path))
    assert data.default_data_dir() == tmp_path
    monkeypatch.delenv("TINYFRAME_DATA")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert data.default_data_dir() == tmp_path / ".tinyframe" / "data"


def test_load_mnist_offline_without_data_says_where_it_looked(
    tmp_path, monkeypatch, no_torchvision
):
    def offline(root):
        raise MNISTError("network is unreachable")

    monkeypatch.setattr(data, "download", offline)
    with pytest.raises(MNISTError) as info:
        data.load_mnist(tmp_path, download=True)
    message = str(info.value)
    for expected in (
        str(tmp_path / "MNIST" / "raw"),
        str(tmp_path),
        "network is unreachable",
        "--data-dir",
        "TINYFRAME_DATA",
    ):
        assert expected in message


def test_load_mnist_without_download_does_not_download(
    tmp_path, monkeypatch, no_torchvision
):
    def must_not_run(root):
        raise AssertionError("download() called with download=False")

    monkeypatch.setattr(data, "download", must_not_run)
    with pytest.raises(MNISTError, match="downloading is disabled"):
        data.load_mnist(tmp_path, download=False)


def serve(monkeypatch, responses: dict[str, bytes]) -> list[str]:
    """Make ``urlopen`` serve ``responses`` by URL; return the list of URLs asked."""
    asked = []

    def fake_urlopen(url, timeout=None):
        assert timeout is not None, "downloads must not wait forever"
        asked.append(url)
        if url not in responses:
            raise urllib.error.URLError("unreachable")
        return io.BytesIO(responses[url])

    monkeypatch.setattr(urllib.request, "urlopen", fake_urlopen)
    return asked


@needs_shared_mnist
def test_download_falls_back_to_second_mirror_and_verifies_md5(tmp_path, monkeypatch):
    second = data.MIRRORS[1]
    responses = {
        second + f"{name}.gz": (SHARED_MNIST / f"{name}.gz").read_bytes()
        for name in FILE_NAMES
    }
    asked = serve(monkeypatch, responses)
    files = data.download(tmp_path)
    raw = tmp_path / "MNIST" / "raw"
    assert sorted(raw.iterdir()) == sorted(files.values())  # no temporary files left
    for path in files.values():
        assert path.read_bytes() == responses[second + path.name]
    assert asked[0].startswith(data.MIRRORS[0])
    assert data.find_raw_files(tmp_path) == files
    serve(monkeypatch, {})
    assert data.download(tmp_path) == files  # verified files are not fetched again


def test_download_rejects_wrong_md5_and_keeps_nothing(tmp_path, monkeypatch):
    responses = {
        mirror + f"{name}.gz": b"not mnist"
        for mirror in data.MIRRORS
        for name in FILE_NAMES
    }
    serve(monkeypatch, responses)
    with pytest.raises(MNISTError, match="md5"):
        data.download(tmp_path)
    assert list(tmp_path.iterdir()) == []  # not even an empty MNIST/raw


@needs_shared_mnist
def test_real_mnist_has_documented_shapes_and_label_counts(shared_arrays):
    assert shared_arrays["train_images"].shape == (60000, 28, 28)
    assert shared_arrays["train_labels"].shape == (60000,)
    assert shared_arrays["test_images"].shape == (10000, 28, 28)
    assert shared_arrays["test_labels"].shape == (10000,)
    assert np.bincount(shared_arrays["train_labels"]).tolist() == TRAIN_LABEL_COUNTS
    assert np.bincount(shared_arrays["test_labels"]).tolist() == TEST_LABEL_COUNTS


@needs_shared_mnist
def test_load_mnist_reads_the_flat_shared_folder(shared_arrays):
    # Without the no_torchvision fixture: where torchvision is installed, it cannot read
    # the flat layout and load_mnist must fall back to the NumPy reader.
    train, test = data.load_mnist(SHARED_MNIST, download=False)
    (x_train, y_train), (x_test, y_test) = train, test
    assert (x_train.dtype, y_train.dtype) == (np.uint8, np.int64)
    np.testing.assert_array_equal(x_train, shared_arrays["train_images"])
    np.testing.assert_array_equal(y_train, shared_arrays["train_labels"])
    np.testing.assert_array_equal(x_test, shared_arrays["test_images"])
    np.testing.assert_array_equal(y_test, shared_arrays["test_labels"])


@needs_shared_mnist
def test_torchvision_mnist_matches_read_idx(tmp_path, shared_arrays):
    datasets = pytest.importorskip("torchvision.datasets")
    raw = tmp_path / "MNIST" / "raw"
    raw.mkdir(parents=True)
    # torchvision with download=False reads only uncompressed files, so unpack them.
    for name in FILE_NAMES:
        packed = (SHARED_MNIST / f"{name}.gz").read_bytes()
        (raw / name).write_bytes(gzip.decompress(packed))
    for train, split in ((True, "train"), (False, "test")):
        dataset = datasets.MNIST(tmp_path, train=train, download=False)
        images, labels = dataset.data.numpy(), dataset.targets.numpy()
        np.testing.assert_array_equal(images, shared_arrays[f"{split}_images"])
        np.testing.assert_array_equal(labels, shared_arrays[f"{split}_labels"])
    (x_train, y_train), _ = data.load_mnist(tmp_path, download=False)
    assert (x_train.dtype, y_train.dtype) == (np.uint8, np.int64)
    np.testing.assert_array_equal(y_train, shared_arrays["train_labels"])
