"""Bytes for Telegram: the board remapped to a fixed 256-colour palette, then PNG.

An RGB PNG of the board takes about 70 ms to encode and weighs about 250 KB; the same
picture in palette mode encodes in about 10 ms and weighs under 100 KB. The palette is
computed once per theme and width from sample boards that show every element
(both checker colours on every background, dice, cube, highlights), and each board is
then mapped onto it without dithering, which keeps flat areas flat and compressible.
The mapping is a function of each pixel's colour alone, so a board maps only what it drew
over its background (:func:`palette_board`, a fifth of the picture for a typical position)
and copies the rest from the background mapped once (:func:`palette_backdrop`): the same
indices as mapping the whole picture, in a third of the time (3 ms became 1 ms a board).

Computing a palette takes a second or more of CPU (it draws the sample boards and runs
a median cut), which a fresh process would otherwise spend on its first board: the palettes
of the default theme at the sizes the bot draws are shipped in ``render/palettes/`` and read
instead, as long as their theme and size are those of the running code (a fingerprint).
``python -m render palettes`` writes them again after a change to the theme or the boards.

The palette image is deflated by ISA-L (``isal``, zlib's format, Intel's faster code) in
:func:`palette_png`, with every row unfiltered, as the PNG specification advises for palette
images (and as Pillow writes them): 1 ms and 93 KB for a board, against 6-9 ms for the same
size with zlib at level 3 (Pillow's encoder). Deflating was a fifth of the bot's CPU.
"""

from __future__ import annotations

import hashlib
import io
import json
import struct
import zlib
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

import numpy as np
from isal import isal_zlib
from PIL import Image

from render import samples, sprites
from render.background import background
from render.board import Backdrop, Composed, board_image, compose
from render.cache import one_at_a_time
from render.geometry import BASE_WIDTH, layout_for
from render.theme import DEFAULT_THEME, Theme, get_theme
from render.view import BoardView, LastStep, Side

#: ISA-L's level (0-3) for the boards' PNG: 1 gives 93 KB in 1 ms; 3 is no smaller and
#: takes 8 ms; 0 gives 108 KB.
PNG_COMPRESS_LEVEL = 1
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
JPEG_QUALITY = 88


_BOARD_COLOURS = 112  # frame, felt, points, text
#: The shipped palettes, one JSON file per theme and width.
PALETTE_DIR = Path(__file__).with_name("palettes")
#: The sizes the bot draws: its boards, and the replays' frames.
SHIPPED_WIDTHS = (BASE_WIDTH, 480)

_SPRITE_COLOURS = 256 - _BOARD_COLOURS  # the shaded checkers, dice and cube need more


def _sheet(frames: list[Image.Image]) -> Image.Image:
    width = max(f.width for f in frames)
    sheet = Image.new("RGB", (width, sum(f.height for f in frames)))
    y = 0
    for f in frames:
        sheet.paste(f, (0, y))
        y += f.height
    return sheet


def _sprite_sheet(theme: Theme, width: int) -> Image.Image:
    """Every sprite over every backdrop it can sit on."""
    lay = layout_for(width)
    backdrops = (theme.felt, theme.point_a, theme.point_b, theme.wood, theme.tray)
    tiles = []
    for colour in backdrops:
        tile = Image.new("RGB", (lay.checker * 6, lay.checker * 3), colour)
        x = 0
        for side in ("white", "black"):
            sprite = sprites.checker(theme, side, lay.checker)
            tile.paste(sprite, (x, 0), sprite)
            x += sprite.width
            for value, used in ((5, False), (6, True)):
                d = sprites.die(side, value, lay.die, used)
                tile.paste(d, (x, 0), d)
                x += d.width
        c = sprites.cube(64, lay.cube)
        tile.paste(c, (0, lay.checker + 4), c)
        g = sprites.cube(64, lay.cube, grey=True)
        tile.paste(g, (c.width, lay.checker + 4), g)
        tiles.append(tile)
    return _sheet(tiles)


def _palette(img: Image.Image) -> list[int]:
    """The palette of a quantized ("P" mode) image."""
    colours = img.getpalette()
    if colours is None:
        raise ValueError(f"a {img.mode} image has no palette")
    return colours


def fingerprint(theme: Theme, width: int) -> str:
    """What a shipped palette was computed for: the theme's colours and the width."""
    return hashlib.sha256(f"{theme!r}|{width}|{_BOARD_COLOURS}".encode()).hexdigest()[:16]


def palette_path(theme: Theme, width: int) -> Path:
    return PALETTE_DIR / f"{theme.name}-{width}.json"


def _as_image(colours: list[int]) -> Image.Image:
    pal = Image.new("P", (1, 1))
    pal.putpalette(colours)
    return pal


def _shipped(theme: Theme, width: int) -> list[int] | None:
    """The shipped palette's colours, or None when there is none for this theme and width
    or it was computed for other colours (a changed theme): then it is computed."""
    try:
        doc = json.loads(palette_path(theme, width).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(doc, dict) or doc.get("fingerprint") != fingerprint(theme, width):
        return None
    colours = doc.get("colours")
    if not isinstance(colours, list):
        return None
    if len(colours) != 768 or not all(isinstance(c, int) and 0 <= c <= 255 for c in colours):
        return None
    return colours


@one_at_a_time
@lru_cache(maxsize=8)
def palette(theme: Theme, width: int) -> Image.Image:
    """A "P" image whose palette fits boards of ``theme`` at ``width``: the shipped one
    when it was made for them, else computed (:func:`compute_palette`)."""
    colours = _shipped(theme, width)
    return _as_image(colours if colours is not None else compute_palette(theme, width))


def compute_palette(theme: Theme, width: int) -> list[int]:
    """The 256 colours (768 values) that fit boards of ``theme`` at ``width``.

    Part of the palette comes from whole sample boards, the rest from the sprites
    alone: measured by area the board is mostly felt and wood, and a palette fitted to
    whole boards alone leaves the checkers' shading with too few colours.
    """
    views = [
        samples.classic_bar_hit(),
        samples.classic_bearoff(),
        samples.long_midgame(),
        samples.long_bearoff(),
    ]
    frames = [board_image(v, size=width, theme=theme) for v in views]
    frames.append(
        board_image(samples.classic_cube("black"), size=width, theme=theme, orientation="black")
    )
    boards = _sheet(frames).quantize(
        _BOARD_COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    pieces = _sprite_sheet(theme, width).quantize(
        _SPRITE_COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    return _palette(boards)[: 3 * _BOARD_COLOURS] + _palette(pieces)[: 3 * _SPRITE_COLOURS]


def write_palettes(theme: str | Theme = DEFAULT_THEME) -> list[Path]:
    """Compute and write the shipped palettes of ``theme`` (``python -m render palettes``)."""
    th = get_theme(theme)
    PALETTE_DIR.mkdir(exist_ok=True)
    written = []
    for width in SHIPPED_WIDTHS:
        doc = {
            "fingerprint": fingerprint(th, width),
            "colours": compute_palette(th, width),
        }
        path = palette_path(th, width)
        path.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
        written.append(path)
    return written


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def palette_png(img: Image.Image, level: int = PNG_COMPRESS_LEVEL) -> bytes:
    """A "P" image as PNG bytes: 8-bit indices, every row unfiltered (see the module)."""
    if img.mode != "P":
        raise ValueError(f"a {img.mode} image is not a palette image")
    colours = _palette(img)
    pixels = np.asarray(img)
    rows = np.zeros((img.height, img.width + 1), dtype=np.uint8)  # filter byte 0: none
    rows[:, 1:] = pixels
    header = struct.pack(">IIBBBBB", img.width, img.height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            _PNG_SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", bytes(colours[:768])),
            _chunk(b"IDAT", isal_zlib.compress(rows, level)),  # the array, not a copy
            _chunk(b"IEND", b""),
        )
    )


@one_at_a_time
@lru_cache(maxsize=16)
def palette_backdrop(backdrop: Backdrop) -> Image.Image:
    """``background(*backdrop)`` mapped onto its palette, once: every board starts from it."""
    theme, width = backdrop[0], backdrop[1]
    return background(*backdrop).quantize(palette=palette(theme, width), dither=Image.Dither.NONE)


def palette_board(board: Composed) -> Image.Image:
    """``board.image`` mapped onto its palette, as ``quantize`` would map it whole.

    Only the boxes drawn over the background are mapped; the rest is copied from the
    background mapped once (:func:`palette_backdrop`). The mapping is a function of each
    pixel's colour alone, so the indices are the same as the whole picture's, for about a
    third of the work. Pillow's own calls (crop, convert, paste) run on the images' cores,
    which spares their Python wrappers on each of the few dozen boxes.
    """
    theme, width = board.backdrop[0], board.backdrop[1]
    pal = palette(theme, width)
    if board.changed is None:
        return board.image.quantize(palette=pal, dither=Image.Dither.NONE)
    out = palette_backdrop(board.backdrop).copy()
    src, dst, colours = board.image.im, out.im, pal.im
    w, h = board.image.size
    for x0, y0, x1, y1 in board.changed:
        box = (max(0, x0), max(0, y0), min(w, x1), min(h, y1))
        if box[0] < box[2] and box[1] < box[3]:
            dst.paste(src.crop(box).convert("P", 0, colours), box)
    return out


def encode(img: Image.Image, theme: Theme, *, jpeg: bool = False) -> bytes:
    """PNG in palette mode (default) or JPEG of a board image."""
    if not jpeg:
        pal = palette(theme, img.width)
        return palette_png(img.quantize(palette=pal, dither=Image.Dither.NONE))
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=JPEG_QUALITY)
    return buf.getvalue()


def board_png(
    view: BoardView,
    *,
    orientation: Side = "white",
    last_play: Iterable[LastStep] | None = None,
    size: int = BASE_WIDTH,
    theme: str | Theme = DEFAULT_THEME,
    jpeg: bool = False,
) -> bytes:
    """The board as image bytes, ready for Telegram's ``sendPhoto``.

    PNG by default; ``jpeg=True`` gives a JPEG instead (Telegram re-encodes photos as
    JPEG anyway). The other options are those of ``render.board_image``. The first
    call for a theme and size also computes its palette (a few hundred ms).
    """
    th = get_theme(theme)
    board = compose(view, orientation=orientation, last_play=last_play, size=size, theme=th)
    if jpeg:
        return encode(board.image, th, jpeg=True)
    return palette_png(palette_board(board))


def warm_up(*, size: int = BASE_WIDTH, theme: str | Theme = DEFAULT_THEME) -> None:
    """Build the palette, fonts, sprites and common backgrounds now (under a second of CPU
    with a shipped palette), the most frequent board first.

    Call it once at start-up (e.g. in a thread) so the first player does not wait: a board
    asked for meanwhile waits for what the warm-up is building rather than building it too.
    """
    for variant in ("classic", "long"):
        for perspective in ("white", "black"):
            board_png(BoardView.start(variant, perspective=perspective), size=size, theme=theme)
