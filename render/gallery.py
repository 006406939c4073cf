"""``python -m render gallery OUTDIR``: write sample boards as named PNGs to look at."""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict

from render import samples
from render.png import board_png
from render.view import BoardView, Side


class _Options(TypedDict, total=False):
    """The keyword arguments of ``board_png`` a gallery job sets."""

    orientation: Side
    theme: str
    size: int


def write_gallery(outdir: Path) -> list[Path]:
    """Render every sample position (and the 21 rolls) into ``outdir``."""
    outdir.mkdir(parents=True, exist_ok=True)
    jobs: list[tuple[str, BoardView, _Options]] = []
    for name, v in samples.named_views().items():
        jobs.append((name, v, {}))
    jobs.append(("classic_bar_hit_black_side", samples.classic_bar_hit(), {"orientation": "black"}))
    jobs.append(("long_midgame_black_side", samples.long_midgame(), {"orientation": "black"}))
    jobs.append(("classic_bar_hit_theme_blu", samples.classic_bar_hit(), {"theme": "blu"}))
    jobs.append(("long_midgame_small_800", samples.long_midgame(), {"size": 800}))
    for name, v in samples.roll_views().items():
        jobs.append((name, v, {}))
    written = []
    for name, view, options in jobs:
        path = outdir / f"{name}.png"
        path.write_bytes(board_png(view, **options))
        written.append(path)
    return written
