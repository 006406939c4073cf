"""``python -m render gallery OUTDIR``: write sample boards as named PNGs to look at."""

from __future__ import annotations

from pathlib import Path

from render import samples
from render.png import board_png


def write_gallery(outdir: Path) -> list[Path]:
    """Render every sample position (and the 21 rolls) into ``outdir``."""
    outdir.mkdir(parents=True, exist_ok=True)
    jobs: list[tuple[str, dict[str, object]]] = []
    for name, v in samples.named_views().items():
        jobs.append((name, {"view": v}))
    jobs.append(
        ("classic_bar_hit_black_side", {"view": samples.classic_bar_hit(), "orientation": "black"})
    )
    jobs.append(
        ("long_midgame_black_side", {"view": samples.long_midgame(), "orientation": "black"})
    )
    jobs.append(("classic_bar_hit_theme_blu", {"view": samples.classic_bar_hit(), "theme": "blu"}))
    jobs.append(("long_midgame_small_800", {"view": samples.long_midgame(), "size": 800}))
    for name, v in samples.roll_views().items():
        jobs.append((name, {"view": v}))
    written = []
    for name, kwargs in jobs:
        v = kwargs.pop("view")
        path = outdir / f"{name}.png"
        path.write_bytes(board_png(v, **kwargs))  # type: ignore[arg-type]
        written.append(path)
    return written
