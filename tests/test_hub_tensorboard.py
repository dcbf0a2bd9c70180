"""``tinyframe.hub`` offline (local hubconf.py, cached checkpoints) and ``tinyframe.utils.tensorboard``
(importable; its writers raise a clear RuntimeError, never an AttributeError)."""
from __future__ import annotations

from pathlib import Path

import pytest

import tinyframe as torch


@pytest.fixture
def hub_repo(tmp_path: Path) -> Path:
    (tmp_path / "hubconf.py").write_text("dependencies = []\n\ndef mlp(n=3):\n    return n * 2\n")
    return tmp_path


def test_hub_load_runs_a_local_entry_point(hub_repo: Path) -> None:
    assert torch.hub.load(str(hub_repo), "mlp", source="local", n=5) == 10
    with pytest.raises(RuntimeError, match="^Cannot find callable nope in hubconf$"):
        torch.hub.load(str(hub_repo), "nope", source="local")
    with pytest.raises(ValueError, match='^Unknown source: "foo". Allowed values: "github" | "local".$'):
        torch.hub.load(str(hub_repo), "mlp", source="foo")


@pytest.mark.parametrize("call", [
    lambda: torch.hub.load("pytorch/vision", "resnet18"),
    lambda: torch.hub.list("pytorch/vision"),
    lambda: torch.hub.help("pytorch/vision", "resnet18"),
    lambda: torch.hub.download_url_to_file("https://example.com/w.pt", "/tmp/w.pt"),
    lambda: torch.hub.load_state_dict_from_url("https://example.com/missing-weights.pt", model_dir="/nonexistent"),
])
def test_hub_network_calls_say_they_need_the_network(call) -> None:
    with pytest.raises(RuntimeError, match="needs the network"):
        call()


def test_hub_dir_and_cached_checkpoint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TORCH_HOME", str(tmp_path / "home"))
    assert torch.hub.get_dir() == str(tmp_path / "home" / "hub")
    monkeypatch.setattr(torch.hub, "_hub_dir", None)
    torch.hub.set_dir(str(tmp_path))
    assert torch.hub.get_dir() == str(tmp_path)
    (tmp_path / "checkpoints").mkdir()
    torch.save({"w": torch.ones(2)}, tmp_path / "checkpoints" / "weights.pt")
    state = torch.hub.load_state_dict_from_url("https://example.com/models/weights.pt")
    assert state["w"].tolist() == [1.0, 1.0]


def test_tensorboard_is_importable_and_its_writer_raises() -> None:
    from tinyframe.utils.tensorboard import SummaryWriter
    with pytest.raises(RuntimeError, match="SummaryWriter is not supported: tinyframe does not write TensorBoard"):
        SummaryWriter("runs/x")
    assert torch.utils.tensorboard.SummaryWriter is SummaryWriter
