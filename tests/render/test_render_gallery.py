"""The gallery command writes every named sample as a PNG."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from render import samples
from render.__main__ import main


def test_gallery_writes_named_pngs(tmp_path: Path) -> None:
    assert main(["gallery", str(tmp_path)]) == 0
    names = {p.stem for p in tmp_path.glob("*.png")}
    assert set(samples.named_views()) <= names
    assert {f"roll_{a}-{b}" for a in range(1, 7) for b in range(a, 7)} <= names
    with Image.open(tmp_path / "long_midgame.png") as img:
        assert img.width == 1280
