"""The boards' own PNG writer: the same pixels Pillow's writer would store, as small, faster."""

from __future__ import annotations

import io
import random
import time

import numpy as np
import pytest
from PIL import Image

from benchmarks.render import random_view
from render import board_image, board_png, samples
from render.png import palette, palette_png
from render.theme import DEFAULT_THEME, get_theme

THEME = get_theme(DEFAULT_THEME)


def _quantized(seed: int) -> Image.Image:
    img = board_image(random_view(random.Random(seed)), theme=THEME)
    return img.quantize(palette=palette(THEME, img.width), dither=Image.Dither.NONE)


@pytest.mark.parametrize("seed", range(4))
def test_a_written_board_decodes_to_the_same_indices_and_palette(seed: int) -> None:
    quantized = _quantized(seed)
    decoded = Image.open(io.BytesIO(palette_png(quantized)))
    assert decoded.format == "PNG"
    assert decoded.mode == "P"
    assert decoded.size == quantized.size
    assert np.array_equal(np.asarray(decoded), np.asarray(quantized))
    assert decoded.getpalette() == quantized.getpalette()


def test_board_png_shows_what_pillows_writer_shows() -> None:
    view = samples.classic_bar_hit()
    img = board_image(view, theme=THEME)
    pillows = io.BytesIO()
    img.quantize(palette=palette(THEME, img.width), dither=Image.Dither.NONE).save(
        pillows, "PNG", compress_level=3
    )
    ours = Image.open(io.BytesIO(board_png(view))).convert("RGB")
    theirs = Image.open(io.BytesIO(pillows.getvalue())).convert("RGB")
    assert np.array_equal(np.asarray(ours), np.asarray(theirs))


def test_the_writer_is_faster_than_pillows_and_the_file_no_bigger_than_a_tenth_more() -> None:
    boards = [_quantized(seed) for seed in range(10, 16)]
    started = time.process_time()
    ours = [len(palette_png(b)) for b in boards]
    ours_s = time.process_time() - started
    started = time.process_time()
    theirs = []
    for b in boards:
        buf = io.BytesIO()
        b.save(buf, "PNG", compress_level=3)
        theirs.append(len(buf.getvalue()))
    theirs_s = time.process_time() - started
    assert sum(ours) <= 1.1 * sum(theirs)
    assert ours_s < theirs_s


def test_only_palette_images_are_written() -> None:
    with pytest.raises(ValueError, match="palette"):
        palette_png(Image.new("RGB", (4, 4)))
