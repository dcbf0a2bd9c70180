"""The DataLoader takes other libraries' arrays: a torchvision-style pipeline feeds tinyframe unchanged."""
from __future__ import annotations

import numpy as np
import pytest

import tinyframe
from tinyframe.utils.data import DataLoader, Dataset, default_collate, default_convert


class ImageLike:
    """Exposes its pixels as PIL.Image does: only through ``__array_interface__``."""

    def __init__(self, pixels: np.ndarray) -> None:
        self.__array_interface__ = pixels.__array_interface__
        self._pixels = pixels  # keeps the memory alive


class ArrayLike:
    def __init__(self, values: np.ndarray) -> None:
        self.values = values

    def __array__(self, dtype=None, copy=None):
        return self.values


def test_default_collate_stacks_objects_exposing_numpy_protocols():
    images = [ImageLike(np.full((2, 2, 3), i, dtype=np.uint8)) for i in range(4)]
    batch = default_collate(images)
    assert batch.shape == (4, 2, 2, 3) and batch.dtype == tinyframe.uint8
    assert batch[:, 0, 0, 0].tolist() == [0, 1, 2, 3]
    pairs = default_collate([(ArrayLike(np.ones(3)), 1), (ArrayLike(np.zeros(3)), 0)])
    assert pairs[0].dtype == tinyframe.float64 and pairs[0].shape == (2, 3) and pairs[1].tolist() == [1, 0]


def test_default_collate_takes_dlpack_objects():
    class Exporter:  # an array from another library, visible only through DLPack
        def __init__(self, values):
            self.values = values

        def __dlpack__(self, **kwargs):
            return self.values.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return self.values.__dlpack_device__()

    batch = default_collate([Exporter(np.arange(3.0, dtype=np.float32)) for _ in range(2)])
    assert batch.shape == (2, 3) and batch.dtype == tinyframe.float32


def test_default_convert_takes_other_libraries_arrays():
    converted = default_convert({"image": ArrayLike(np.ones((2, 2), dtype=np.float32))})
    assert isinstance(converted["image"], tinyframe.Tensor) and converted["image"].shape == (2, 2)


class TorchvisionStyle(Dataset):
    """What ``Compose([ToTensor(), Normalize(mean, std)])`` hands a DataLoader: float32 CHW torch
    tensors scaled to [0, 1] and normalised, with int labels (torchvision has no CPU wheel here)."""

    def __init__(self, torch, images: np.ndarray) -> None:
        self.torch, self.images = torch, images

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int):
        torch = self.torch
        x = torch.from_numpy(self.images[i]).permute(2, 0, 1).float().div(255)   # ToTensor()
        x = (x - torch.tensor([0.5, 0.25, 0.125])[:, None, None]) / 0.5          # Normalize(...)
        return x, i % 3


def test_torch_tensor_pipeline_feeds_the_dataloader_unchanged():
    torch = pytest.importorskip("torch")
    images = np.random.default_rng(0).integers(0, 256, size=(6, 4, 5, 3), dtype=np.uint8)
    loader = DataLoader(TorchvisionStyle(torch, images), batch_size=4)
    x, y = next(iter(loader))
    assert isinstance(x, tinyframe.Tensor) and x.shape == (4, 3, 4, 5) and x.dtype == tinyframe.float32
    expected = (images[:4].transpose(0, 3, 1, 2) / np.float32(255) - np.array([0.5, 0.25, 0.125])[:, None, None]) / 0.5
    np.testing.assert_allclose(x.numpy(), expected, rtol=1e-6, atol=1e-6)
    assert y.tolist() == [0, 1, 2, 0] and y.dtype == tinyframe.int64
