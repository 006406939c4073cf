"""The shipped palettes (read instead of computed at start-up) and the shared caches."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import pytest

from render import png
from render.cache import one_at_a_time
from render.theme import DEFAULT_THEME, get_theme

THEME = get_theme(DEFAULT_THEME)


@pytest.mark.parametrize("width", png.SHIPPED_WIDTHS)
def test_the_shipped_palettes_are_those_the_code_computes(width: int) -> None:
    """A change to the theme or to the sample boards needs ``python -m render palettes``."""
    shipped = png._shipped(THEME, width)
    assert shipped is not None, "no shipped palette: run python -m render palettes"
    assert shipped == png.compute_palette(THEME, width), "run python -m render palettes"


def test_the_palette_of_a_shipped_size_is_read_not_computed() -> None:
    png.palette.cache_clear()
    started = time.process_time()
    pal = png.palette(THEME, png.SHIPPED_WIDTHS[0])
    assert time.process_time() - started < 0.1  # computing it takes a second or more
    assert pal.getpalette() == png._shipped(THEME, png.SHIPPED_WIDTHS[0])


def _write(directory: Path, width: int, doc: object) -> None:
    (directory / f"{THEME.name}-{width}.json").write_text(json.dumps(doc))


def test_a_palette_shipped_for_other_colours_or_malformed_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = png._shipped(THEME, 480)
    assert good is not None
    monkeypatch.setattr(png, "PALETTE_DIR", tmp_path)
    assert png._shipped(THEME, 480) is None  # none shipped there
    _write(tmp_path, 480, {"fingerprint": "0" * 16, "colours": [0] * 768})
    assert png._shipped(THEME, 480) is None  # computed for another theme
    fingerprint = png.fingerprint(THEME, 480)
    for colours in ([0] * 767, [256] * 768, ["a"] * 768, None):
        _write(tmp_path, 480, {"fingerprint": fingerprint, "colours": colours})
        assert png._shipped(THEME, 480) is None
    (tmp_path / f"{THEME.name}-480.json").write_text("{not json")
    assert png._shipped(THEME, 480) is None
    _write(tmp_path, 480, [1, 2])
    assert png._shipped(THEME, 480) is None
    _write(tmp_path, 480, {"fingerprint": fingerprint, "colours": good})
    assert png._shipped(THEME, 480) == good


def test_the_fingerprint_follows_the_theme_and_the_width() -> None:
    other = replace(THEME, felt=(0, 0, 0))
    assert png.fingerprint(other, 480) != png.fingerprint(THEME, 480)
    assert png.fingerprint(THEME, 480) != png.fingerprint(THEME, 1280)


def test_threads_asking_for_the_same_value_build_it_once() -> None:
    built: list[int] = []

    @one_at_a_time
    @lru_cache(maxsize=4)
    def slow(n: int) -> int:
        built.append(n)
        time.sleep(0.2)
        return n * 2

    results: list[int] = []
    threads = [threading.Thread(target=lambda: results.append(slow(3))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [6, 6, 6, 6]
    assert built == [3]


def test_another_value_is_not_held_up_by_one_being_built() -> None:
    release = threading.Event()

    @one_at_a_time
    @lru_cache(maxsize=4)
    def value(n: int) -> int:
        if n == 1:
            release.wait(5)
        return n

    slow = threading.Thread(target=value, args=(1,))
    slow.start()
    try:
        assert value(2) == 2  # while 1 is still being built
    finally:
        release.set()
        slow.join()
