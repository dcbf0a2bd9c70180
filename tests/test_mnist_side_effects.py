"""The MNIST example touches the data folder only to store a successful download: a missing
folder stays missing, a failed download leaves nothing, and files on disk are used before any
download is tried (by torchvision or by the mirrors)."""
from __future__ import annotations

import gzip
import io
import subprocess
import sys
import types
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from tinyframe.examples.mnist import data
from tinyframe.examples.mnist.data import MNISTError

from .test_mnist_data import idx_bytes, tiny_mnist, write_mnist  # noqa: F401 (tiny_mnist is a fixture)
from .test_mnist_example import OFFLINE_RUN, REPO


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every URL fails, as with no network; returns the URLs asked for."""
    asked = []

    def unreachable(url: str, timeout: float | None = None) -> None:
        asked.append(url)
        raise urllib.error.URLError("network disabled by the test")

    monkeypatch.setattr(urllib.request, "urlopen", unreachable)
    return asked


def fake_torchvision(monkeypatch: pytest.MonkeyPatch, download: object) -> list[str]:
    """Install a ``torchvision.datasets.MNIST`` that runs ``download(root)``; returns the roots it was given."""
    roots = []

    class MNIST:
        def __init__(self, root: str, **kwargs: object) -> None:
            roots.append(root)
            download(Path(root))

    datasets = types.ModuleType("torchvision.datasets")
    datasets.MNIST = MNIST
    torchvision = types.ModuleType("torchvision")
    torchvision.datasets = datasets
    monkeypatch.setitem(sys.modules, "torchvision", torchvision)
    monkeypatch.setitem(sys.modules, "torchvision.datasets", datasets)
    return roots


def failing_torchvision_download(root: Path) -> None:
    (root / "MNIST" / "raw").mkdir(parents=True, exist_ok=True)  # as torchvision does before downloading
    raise RuntimeError("Error downloading train-images-idx3-ubyte.gz")


@pytest.fixture
def no_torchvision(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torchvision", None)


def test_missing_data_dir_is_not_created_when_the_download_fails(tmp_path: Path, offline: list,
                                                                   no_torchvision: None) -> None:
    missing = tmp_path / "nonexistent"
    with pytest.raises(MNISTError, match="the download failed"):
        data.load_mnist(missing)
    assert offline, "the download was not even tried"
    assert not missing.exists()


def test_failed_torchvision_and_mirror_downloads_leave_the_data_dir_empty(tmp_path: Path, offline: list,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    roots = fake_torchvision(monkeypatch, failing_torchvision_download)
    with pytest.raises(MNISTError) as raised:
        data.load_mnist(tmp_path)
    assert "Error downloading" in str(raised.value.__cause__.__context__)  # torchvision's, kept for the traceback
    assert roots and offline  # both downloaders were tried
    assert list(tmp_path.iterdir()) == []
    assert not Path(roots[0]).exists()  # torchvision's temporary folder is gone too


def test_default_data_dir_is_not_created_when_the_download_fails(tmp_path: Path, offline: list, no_torchvision: None,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TINYFRAME_DATA", str(tmp_path / "default"))
    with pytest.raises(MNISTError):
        data.load_mnist()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("gz", [True, False])
def test_flat_files_are_used_before_any_download(tmp_path: Path, tiny_mnist: dict,  # noqa: F811
                                                 monkeypatch: pytest.MonkeyPatch, offline: list, gz: bool) -> None:
    write_mnist(tmp_path, tiny_mnist, gz=gz)
    before = sorted(tmp_path.iterdir())

    def must_not_download(root: Path) -> None:
        raise AssertionError("torchvision was asked to download although the files are on disk")

    roots = fake_torchvision(monkeypatch, must_not_download)
    (x_train, y_train), (x_test, _) = data.load_mnist(tmp_path, download=True)
    np.testing.assert_array_equal(x_train, tiny_mnist["train_images"])
    np.testing.assert_array_equal(y_train, tiny_mnist["train_labels"])
    assert len(x_test) == 3
    assert roots == [] and offline == []
    assert sorted(tmp_path.iterdir()) == before  # no MNIST/raw made beside them


def test_a_successful_torchvision_download_lands_in_mnist_raw(tmp_path: Path, tiny_mnist: dict,  # noqa: F811
                                                               monkeypatch: pytest.MonkeyPatch, offline: list) -> None:
    def download(root: Path) -> None:
        write_mnist(root / "MNIST" / "raw", tiny_mnist, gz=False)

    fake_torchvision(monkeypatch, download)
    target = tmp_path / "new"
    (x_train, _), _ = data.load_mnist(target)
    np.testing.assert_array_equal(x_train, tiny_mnist["train_images"])
    assert sorted(p.name for p in (target / "MNIST" / "raw").iterdir()) == sorted(
        name for name, _ in data.RESOURCES.values())
    assert offline == []


def test_a_successful_mirror_download_creates_the_folder(tmp_path: Path, tiny_mnist: dict,  # noqa: F811
                                                         monkeypatch: pytest.MonkeyPatch, no_torchvision: None) -> None:
    served = {f"{name}.gz": gzip.compress(idx_bytes(tiny_mnist[key])) for key, (name, _) in data.RESOURCES.items()}
    monkeypatch.setattr(data, "RESOURCES", {key: (name, data._md5(served[f"{name}.gz"]))
                                            for key, (name, _) in data.RESOURCES.items()})
    monkeypatch.setattr(urllib.request, "urlopen",
                        lambda url, timeout=None: io.BytesIO(served[url.rsplit("/", 1)[1]]))
    target = tmp_path / "a" / "b"
    (x_train, _), _ = data.load_mnist(target)
    np.testing.assert_array_equal(x_train, tiny_mnist["train_images"])
    assert sorted(p.name for p in (target / "MNIST" / "raw").iterdir()) == sorted(served)


def test_command_line_with_a_missing_data_dir_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "nonexistent"
    result = subprocess.run([sys.executable, "-c", OFFLINE_RUN, "--data-dir", str(missing), "--no-progress"],
                            cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    assert str(missing) in result.stderr
    assert not missing.exists()
